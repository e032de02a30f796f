// The 3D rigid-body solver's kernels: shaders/solver2d.wgsl's soft step in three dimensions, kernel
// for kernel (see there for the order and the reasons). Differences: quaternion rotations, a world
// inverse inertia tensor per body (taken at the step's start), up to MAX_MANIFOLD_POINTS_3D points
// per contact, friction per manifold (two tangent impulses at the centroid within the friction
// cone, and a twist impulse; see ContactConstraint3D), and a warm-start fallback by position for
// points whose feature id changed (nearestNormalImpulse3D). The overflow splits the world inverse
// inertia too (overflow.wgsl).

@group(0) @binding(0) var<uniform> params: SolverParams3D;
@group(0) @binding(1) var<uniform> solverPass: SolverPass3D;
@group(0) @binding(2) var<storage, read_write> bodies: array<Body3D>;
@group(0) @binding(3) var<storage, read_write> states: array<BodyState3D>;
@group(0) @binding(4) var<storage, read> contacts: array<ContactManifold3D>;
@group(0) @binding(5) var<storage, read_write> userValues: array<ContactUserValues3D>;
@group(0) @binding(6) var<storage, read_write> constraints: array<ContactConstraint3D>;
@group(0) @binding(8) var<storage, read> colorOrder: array<u32>;              // colour offsets, then the constraints by colour (coloring.wgsl)
@group(0) @binding(9) var<storage, read> prevContacts: array<ContactManifold3D>;     // last frame's list
@group(0) @binding(10) var<storage, read> prevUserValues: array<ContactUserValues3D>; // and the impulses stored for it

fn quatRotate3D(q: vec4f, v: vec3f) -> vec3f {
  let t = 2.0 * cross(q.xyz, v);
  return v + q.w * t + cross(q.xyz, t);
}

// q advanced by the rotation vector `angle` (first order), renormalised.
fn integrateRotation3D(q: vec4f, angle: vec3f) -> vec4f {
  let dq = vec4f(angle * q.w + cross(angle, q.xyz), -dot(angle, q.xyz));
  let q2 = q + 0.5 * dq;
  let len = length(q2);
  return select(vec4f(0.0, 0.0, 0.0, 1.0), q2 / len, len > 0.0);
}

fn quatMatrix3D(q: vec4f) -> mat3x3f {
  return mat3x3f(quatRotate3D(q, vec3f(1.0, 0.0, 0.0)), quatRotate3D(q, vec3f(0.0, 1.0, 0.0)), quatRotate3D(q, vec3f(0.0, 0.0, 1.0)));
}

fn centerOfMass3D(b: Body3D, s: BodyState3D) -> vec3f {
  return b.position + quatRotate3D(b.rotation, s.localCenter);
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

// The normal impulse of last frame's point of the same pair nearest to `position` (within
// WARM_START_MATCH_DISTANCE) among those whose id no point of `e` has (those were carried by id):
// for points whose feature id flipped while the point stayed put. Zero when there is none.
fn nearestNormalImpulse3D(e: ContactManifold3D, position: vec3f) -> f32 {
  let prev = prevContacts[e.previous];
  var best = WARM_START_MATCH_DISTANCE;
  var out = 0.0;
  for (var k = 0u; k < MAX_MANIFOLD_POINTS_3D; k++) {
    if (k < prev.manifold.count) {
      let q = prev.manifold.points[k];
      var taken = false;
      for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
        taken = taken || (i < e.manifold.count && e.manifold.points[i].id == q.id);
      }
      let d = distance(q.position, position);
      if (!taken && d <= best) {
        best = d;
        out = prevUserValues[e.previous].points[k].x;
      }
    }
  }
  return out;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverPrepare3D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  // Constraints are stored in colour order: slot i holds the contact colorOrder lists there.
  let slot = solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  let ci = colorOrder[COLOR_ORDER_HEADER + slot];
  let e = contacts[ci];
  let sA = states[e.bodyA];
  let sB = states[e.bodyB];
  let cA = centerOfMass3D(bodies[e.bodyA], sA);
  let cB = centerOfMass3D(bodies[e.bodyB], sB);
  let n = e.manifold.normal;
  let tangents = solverTangents3D(n);
  var c: ContactConstraint3D;
  c.bodyA = e.bodyA;
  c.bodyB = e.bodyB;
  c.count = e.manifold.count;
  c.friction = sqrt(sA.friction * sB.friction);
  c.normal = n;
  c.tangent1 = tangents[0];
  c.tangent2 = tangents[1];
  let isStatic = sA.invMass == 0.0 || sB.invMass == 0.0;
  c.biasRate = select(params.contactBiasRate, params.staticBiasRate, isStatic);
  c.massScale = select(params.contactMassScale, params.staticMassScale, isStatic);
  c.impulseScale = select(params.contactImpulseScale, params.staticImpulseScale, isStatic);
  let warm = userValues[ci];
  var centroid = vec3f(0.0);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    var p = ConstraintPoint3D(vec3f(0.0), 0.0, vec3f(0.0), 0.0, 0.0);
    if (i < c.count) {
      let mp = e.manifold.points[i];
      centroid += mp.position / f32(c.count);
      p.anchorA = mp.position - cA;
      p.anchorB = mp.position - cB;
      p.baseSeparation = -mp.depth - dot(p.anchorB - p.anchorA, n);
      var carried = warm.points[i].x;
      if ((e.matched & (1u << i)) == 0u && e.previous != CONTACT_NONE) {
        carried = nearestNormalImpulse3D(e, mp.position);
      }
      p.normalImpulse = WARM_START_SCALE * carried;
    }
    c.points[i] = p;
  }
  var arm = 0.0;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < c.count) { arm += distance(e.manifold.points[i].position, centroid) / f32(c.count); }
  }
  c.frictionAnchorA = centroid - cA;
  c.frictionAnchorB = centroid - cB;
  c.twistArm = arm;
  constraintMasses3D(&c, sA, sB);
  // Friction is the pair's: warm started from last frame's entry of the same pair.
  var friction = vec3f(0.0);
  if (e.previous != CONTACT_NONE) { friction = prevUserValues[e.previous].points[0].yzw; }
  c.tangentImpulse = WARM_START_SCALE * friction.xy;
  c.twistImpulse = WARM_START_SCALE * friction.z;
  constraints[slot] = c;
}

// The effective masses of c's points along its normal, of its friction along the tangents and of
// its twist, for bodies sA and sB.
fn constraintMasses3D(c: ptr<function, ContactConstraint3D>, sA: BodyState3D, sB: BodyState3D) {
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

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverBegin3D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  let r = quatMatrix3D(bodies[i].rotation);
  states[i].invInertiaWorld = r * states[i].invInertiaLocal * transpose(r);
  states[i].deltaPosition = vec3f(0.0);
  states[i].deltaRotation = vec4f(0.0, 0.0, 0.0, 1.0);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverIntegrateVelocities3D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  if (states[i].invMass == 0.0) { return; }
  states[i].linearVelocity += params.h * params.gravity;
  // At most MAX_ROTATION per substep (see solver2d.wgsl).
  let w = states[i].angularVelocity;
  let limit = MAX_ROTATION * params.invH;
  let speed = length(w);
  if (speed > limit) { states[i].angularVelocity = w * (limit / speed); }
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverIntegratePositions3D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  var s = states[i];
  if (s.invMass == 0.0) { return; }
  var b = bodies[i];
  let center = centerOfMass3D(b, s) + params.h * s.linearVelocity;
  let angle = params.h * s.angularVelocity;
  b.rotation = integrateRotation3D(b.rotation, angle);
  b.position = center - quatRotate3D(b.rotation, s.localCenter);
  s.deltaPosition += params.h * s.linearVelocity;
  s.deltaRotation = integrateRotation3D(s.deltaRotation, angle);
  bodies[i] = b;
  states[i] = s;
}

fn applyImpulse3D(sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>, rA: vec3f, rB: vec3f, P: vec3f) {
  (*sA).linearVelocity -= (*sA).invMass * P;
  (*sA).angularVelocity -= (*sA).invInertiaWorld * cross(rA, P);
  (*sB).linearVelocity += (*sB).invMass * P;
  (*sB).angularVelocity += (*sB).invInertiaWorld * cross(rB, P);
}

fn applyTwist3D(sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>, L: vec3f) {
  (*sA).angularVelocity -= (*sA).invInertiaWorld * L;
  (*sB).angularVelocity += (*sB).invInertiaWorld * L;
}

fn relativeVelocity3D(sA: BodyState3D, sB: BodyState3D, rA: vec3f, rB: vec3f) -> vec3f {
  return sB.linearVelocity + cross(sB.angularVelocity, rB) - sA.linearVelocity - cross(sA.angularVelocity, rA);
}

// Applies constraint c's accumulated impulses to its bodies' states sA and sB.
fn warmStartConstraint3D(c: ContactConstraint3D, sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>) {
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < c.count) {
      let p = c.points[i];
      applyImpulse3D(sA, sB, p.anchorA, p.anchorB, p.normalImpulse * c.normal);
    }
  }
  applyImpulse3D(sA, sB, c.frictionAnchorA, c.frictionAnchorB, c.tangentImpulse.x * c.tangent1 + c.tangentImpulse.y * c.tangent2);
  applyTwist3D(sA, sB, c.twistImpulse * c.normal);
}

// One Gauss–Seidel pass over constraint c with its bodies' states sA and sB (solver2d.wgsl's
// solveConstraint2D, with friction and twist per manifold).
fn solveConstraint3D(c: ptr<function, ContactConstraint3D>, sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>, useBias: bool) {
  let n = (*c).normal;
  let dp = (*sB).deltaPosition - (*sA).deltaPosition;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < (*c).count) {
      let p = (*c).points[i];
      let d = dp + quatRotate3D((*sB).deltaRotation, p.anchorB) - quatRotate3D((*sA).deltaRotation, p.anchorA);
      let s = dot(d, n) + p.baseSeparation;
      var bias = 0.0;
      var massScale = 1.0;
      var impulseScale = 0.0;
      if (s > 0.0) {
        bias = s * params.invH;
      } else if (useBias) {
        bias = max((*c).biasRate * min(s + LINEAR_SLOP, 0.0), -MAX_PUSH_VELOCITY);
        massScale = (*c).massScale;
        impulseScale = (*c).impulseScale;
      }
      let vn = dot(relativeVelocity3D(*sA, *sB, p.anchorA, p.anchorB), n);
      let impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse;
      let total = max(p.normalImpulse + impulse, 0.0);
      (*c).points[i].normalImpulse = total;
      applyImpulse3D(sA, sB, p.anchorA, p.anchorB, (total - p.normalImpulse) * n);
    }
  }
  var totalNormal = 0.0;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < (*c).count) { totalNormal += (*c).points[i].normalImpulse; }
  }
  // Friction at the centroid, bounded by the friction cone of the total normal impulse.
  let dv = relativeVelocity3D(*sA, *sB, (*c).frictionAnchorA, (*c).frictionAnchorB);
  var tangent = (*c).tangentImpulse - (*c).tangentMass * vec2f(dot(dv, (*c).tangent1), dot(dv, (*c).tangent2));
  let maxFriction = (*c).friction * totalNormal;
  let len = length(tangent);
  if (len > maxFriction) { tangent *= maxFriction / len; }
  let applied = tangent - (*c).tangentImpulse;
  applyImpulse3D(sA, sB, (*c).frictionAnchorA, (*c).frictionAnchorB, applied.x * (*c).tangent1 + applied.y * (*c).tangent2);
  // Twist about the normal, bounded as if the friction acted at the points' mean distance.
  let maxTwist = (*c).twistArm * maxFriction;
  let twist = clamp((*c).twistImpulse - (*c).twistMass * dot((*sB).angularVelocity - (*sA).angularVelocity, n), -maxTwist, maxTwist);
  applyTwist3D(sA, sB, (twist - (*c).twistImpulse) * n);
  (*c).tangentImpulse = tangent;
  (*c).twistImpulse = twist;
}

// Runs pass `mode` (0: warm start, 1: solve with bias, 2: relax) of the constraint in slot ci on
// states sA and sB, and stores its impulses. `split`: sA and sB are copies of split bodies
// (overflow.wgsl), whose effective masses differ from those prepare stored.
fn runConstraint(ci: u32, sA: ptr<function, BodyState3D>, sB: ptr<function, BodyState3D>, mode: u32, split: bool) {
  var c = constraints[ci];
  if (mode == 0u) {
    warmStartConstraint3D(c, sA, sB);
    return;
  }
  if (split) { constraintMasses3D(&c, *sA, *sB); }
  solveConstraint3D(&c, sA, sB, mode == 1u);
  constraints[ci].tangentImpulse = c.tangentImpulse;
  constraints[ci].twistImpulse = c.twistImpulse;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    constraints[ci].points[i].normalImpulse = c.points[i].normalImpulse;
  }
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

// Per body with overflow constraints: its velocities move by the sums (the copies' mean).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverOverflowApply3D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount || splits[i] == 0u) { return; }
  let w = OVERFLOW_WORDS_3D * i;
  states[i].linearVelocity += vec3f(overflowTake(w), overflowTake(w + 2u), overflowTake(w + 4u));
  states[i].angularVelocity += vec3f(overflowTake(w + 6u), overflowTake(w + 8u), overflowTake(w + 10u));
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverStore3D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let slot = solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  let ci = colorOrder[COLOR_ORDER_HEADER + slot];
  var u: ContactUserValues3D;
  let c = constraints[slot];
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    u.points[i] = vec4f(c.points[i].normalImpulse, c.tangentImpulse, c.twistImpulse);
  }
  userValues[ci] = u;
}
