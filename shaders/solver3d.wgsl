// What the 3D rigid-body solver does differently from 2D: the types and the dimension's math that
// solver.wgsl and solver-passes.wgsl call (listed there; src/solver/world3d.ts assembles them after
// this file). Quaternion rotations, a world inverse inertia tensor per body (taken at the step's
// start), up to MAX_MANIFOLD_POINTS_3D points per contact, and friction per manifold (two tangent
// impulses at the centroid within the friction cone, and a twist impulse; see
// ContactConstraint3D). The overflow splits the world inverse inertia too (overflow.wgsl).

alias SolverBody = Body3D;
alias SolverState = BodyState3D;
alias SolverContact = ContactManifold3D;
alias SolverUserValues = ContactUserValues3D;
alias SolverPointValues = vec4f;                     // a point's user values (solver3d-layout.wgsl)
alias SolverConstraint = ContactConstraint3D;
const SOLVER_MAX_POINTS = MAX_MANIFOLD_POINTS_3D;

// Point i's feature id.
fn solverPointId(e: SolverContact, i: u32) -> u32 {
  return e.manifold.ids[i];
}

fn rotateVector(q: vec4f, v: vec3f) -> vec3f {
  let t = 2.0 * cross(q.xyz, v);
  return v + q.w * t + cross(q.xyz, t);
}

// q advanced by the rotation vector `angle` (first order), renormalised.
fn integrateRotation(q: vec4f, angle: vec3f) -> vec4f {
  let dq = vec4f(angle * q.w + cross(angle, q.xyz), -dot(angle, q.xyz));
  let q2 = q + 0.5 * dq;
  let len = length(q2);
  return select(vec4f(0.0, 0.0, 0.0, 1.0), q2 / len, len > 0.0);
}

fn quatMatrix3D(q: vec4f) -> mat3x3f {
  return mat3x3f(rotateVector(q, vec3f(1.0, 0.0, 0.0)), rotateVector(q, vec3f(0.0, 1.0, 0.0)), rotateVector(q, vec3f(0.0, 0.0, 1.0)));
}

fn centerOfMass(b: Body3D, s: BodyState3D) -> vec3f {
  return b.position + rotateVector(b.rotation, s.localCenter);
}

fn beginState(i: u32) {
  let r = quatMatrix3D(bodies[i].rotation);
  states[i].invInertiaWorld = r * states[i].invInertiaLocal * transpose(r);
  states[i].deltaPosition = vec3f(0.0);
  states[i].deltaRotation = vec4f(0.0, 0.0, 0.0, 1.0);
}

// The angular velocity w scaled down to MAX_ROTATION per substep.
fn clampAngularVelocity(w: vec3f) -> vec3f {
  let limit = MAX_ROTATION * params.invH;
  let speed = length(w);
  if (speed > limit) { return w * (limit / speed); }
  return w;
}

// Two unit tangents perpendicular to n and to each other; a continuous function of n away from
// the switch at |n.x| = 0.57735 (every unit vector has one component at least that large).
fn solverTangents3D(n: vec3f) -> mat2x3f {
  var t1: vec3f;
  if (abs(n.x) >= 0.57735) {
    t1 = normalize(vec3f(n.y, -n.x, 0.0));
  } else {
    t1 = normalize(vec3f(0.0, n.z, -n.y));
  }
  return mat2x3f(t1, cross(n, t1));
}

fn effectiveMass3D(sA: BodyState3D, sB: BodyState3D, rA: vec3f, rB: vec3f, dir: vec3f) -> f32 {
  let a = cross(rA, dir);
  let b = cross(rB, dir);
  let k = sA.invMass + sB.invMass + dot(a, sA.invInertiaWorld * a) + dot(b, sB.invInertiaWorld * b);
  return select(0.0, 1.0 / k, k > 0.0);
}

// c's points from manifold entry `e`, anchored at the centres of mass cA and cB, with the normal
// impulses carried from last frame; its tangents, and its friction at the points' centroid, warm
// started from last frame's entry of the same pair (whatever happened to the points' ids).
fn preparePoints(c: ptr<function, ContactConstraint3D>, e: ContactManifold3D, warm: ContactUserValues3D, cA: vec3f, cB: vec3f) {
  let n = e.manifold.normal;
  let tangents = solverTangents3D(n);
  (*c).tangent1 = tangents[0];
  (*c).tangent2 = tangents[1];
  let count = (*c).count;
  let carried = carriedUserValues(e, warm);
  var centroid = vec3f(0.0);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    var p = ConstraintPoint3D(vec3f(0.0), 0.0, vec3f(0.0), 0.0, 0.0);
    if (i < count) {
      let mp = e.manifold.points[i];
      centroid += mp.position / f32(count);
      p.anchorA = mp.position - cA;
      p.anchorB = mp.position - cB;
      p.baseSeparation = -mp.depth - dot(p.anchorB - p.anchorA, n);
      p.normalImpulse = WARM_START_SCALE * carried.points[i].x;
    }
    (*c).points[i] = p;
  }
  var arm = 0.0;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < count) { arm += distance(e.manifold.points[i].position, centroid) / f32(count); }
  }
  (*c).frictionAnchorA = centroid - cA;
  (*c).frictionAnchorB = centroid - cB;
  (*c).twistArm = arm;
  var friction = vec3f(0.0);
  if (e.previous != CONTACT_NONE) { friction = prevUserValues[e.previous].points[0].yzw; }
  (*c).tangentImpulse = WARM_START_SCALE * friction.xy;
  (*c).twistImpulse = WARM_START_SCALE * friction.z;
}

// The effective masses of c's points along its normal, of its friction along the tangents and of
// its twist, for bodies sA and sB.
fn constraintMasses(c: ptr<function, ContactConstraint3D>, sA: BodyState3D, sB: BodyState3D) {
  let n = (*c).normal;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < (*c).count) {
      (*c).points[i].normalMass = effectiveMass3D(sA, sB, (*c).points[i].anchorA, (*c).points[i].anchorB, n);
    }
  }
  let fA = (*c).frictionAnchorA;
  let fB = (*c).frictionAnchorB;
  (*c).tangentMass = vec2f(effectiveMass3D(sA, sB, fA, fB, (*c).tangent1), effectiveMass3D(sA, sB, fA, fB, (*c).tangent2));
  let kTwist = dot(n, sA.invInertiaWorld * n) + dot(n, sB.invInertiaWorld * n);
  (*c).twistMass = select(0.0, 1.0 / kTwist, kTwist > 0.0);
}

fn relativeVelocity(sA: BodyState3D, sB: BodyState3D, rA: vec3f, rB: vec3f) -> vec3f {
  return sB.linearVelocity + cross(sB.angularVelocity, rB) - sA.linearVelocity - cross(sA.angularVelocity, rA);
}

fn applyImpulse(sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>, rA: vec3f, rB: vec3f, P: vec3f) {
  (*sA).linearVelocity -= (*sA).invMass * P;
  (*sA).angularVelocity -= (*sA).invInertiaWorld * cross(rA, P);
  (*sB).linearVelocity += (*sB).invMass * P;
  (*sB).angularVelocity += (*sB).invInertiaWorld * cross(rB, P);
}

fn applyTwist3D(sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>, L: vec3f) {
  (*sA).angularVelocity -= (*sA).invInertiaWorld * L;
  (*sB).angularVelocity += (*sB).invInertiaWorld * L;
}

// Applies constraint c's accumulated impulses to its bodies' states sA and sB.
fn warmStartConstraint(c: ContactConstraint3D, sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>) {
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < c.count) {
      let p = c.points[i];
      applyImpulse(sA, sB, p.anchorA, p.anchorB, p.normalImpulse * c.normal);
    }
  }
  applyImpulse(sA, sB, c.frictionAnchorA, c.frictionAnchorB, c.tangentImpulse.x * c.tangent1 + c.tangentImpulse.y * c.tangent2);
  applyTwist3D(sA, sB, c.twistImpulse * c.normal);
}

// Friction at the centroid, bounded by the friction cone of the total normal impulse, then twist
// about the normal, bounded as if the friction acted at the points' mean distance.
fn solveFriction(c: ptr<function, ContactConstraint3D>, sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>) {
  let n = (*c).normal;
  var totalNormal = 0.0;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < (*c).count) { totalNormal += (*c).points[i].normalImpulse; }
  }
  let dv = relativeVelocity(*sA, *sB, (*c).frictionAnchorA, (*c).frictionAnchorB);
  var tangent = (*c).tangentImpulse - (*c).tangentMass * vec2f(dot(dv, (*c).tangent1), dot(dv, (*c).tangent2));
  let maxFriction = (*c).friction * totalNormal;
  let len = length(tangent);
  if (len > maxFriction) { tangent *= maxFriction / len; }
  let applied = tangent - (*c).tangentImpulse;
  applyImpulse(sA, sB, (*c).frictionAnchorA, (*c).frictionAnchorB, applied.x * (*c).tangent1 + applied.y * (*c).tangent2);
  let maxTwist = (*c).twistArm * maxFriction;
  let twist = clamp((*c).twistImpulse - (*c).twistMass * dot((*sB).angularVelocity - (*sA).angularVelocity, n), -maxTwist, maxTwist);
  applyTwist3D(sA, sB, (twist - (*c).twistImpulse) * n);
  (*c).tangentImpulse = tangent;
  (*c).twistImpulse = twist;
}

fn writeImpulses(ci: u32, c: ContactConstraint3D) {
  constraints[ci].tangentImpulse = c.tangentImpulse;
  constraints[ci].twistImpulse = c.twistImpulse;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    constraints[ci].points[i].normalImpulse = c.points[i].normalImpulse;
  }
}

// x the point's normal impulse; y, z, w the manifold's friction, the same in every point.
fn storedUserValues(c: ContactConstraint3D) -> ContactUserValues3D {
  var u: ContactUserValues3D;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    u.points[i] = vec4f(c.points[i].normalImpulse, c.tangentImpulse, c.twistImpulse);
  }
  return u;
}

// The state a body's copy starts from when it is split into n (overflow.wgsl).
fn splitState(s: BodyState3D, n: f32) -> BodyState3D {
  var out = s;
  out.invMass *= n;
  out.invInertiaWorld *= n;
  return out;
}

// A body's overflow sums (OVERFLOW_WORDS_3D): linear velocity x, y, z, then angular x, y, z.
fn overflowAddState(body: u32, dv: vec3f, dw: vec3f) {
  let w = OVERFLOW_WORDS_3D * body;
  for (var k = 0u; k < 3u; k++) {
    overflowAdd(w + 2u * k, dv[k]);
    overflowAdd(w + 6u + 2u * k, dw[k]);
  }
}

fn overflowApplyState(body: u32) {
  let w = OVERFLOW_WORDS_3D * body;
  states[body].linearVelocity += vec3f(overflowTake(w), overflowTake(w + 2u), overflowTake(w + 4u));
  states[body].angularVelocity += vec3f(overflowTake(w + 6u), overflowTake(w + 8u), overflowTake(w + 10u));
}
