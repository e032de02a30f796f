// What the 2D rigid-body solver does differently from 3D: the types and the dimension's math that
// solver.wgsl and solver-passes.wgsl call (listed there; src/solver/world2d.ts assembles them after
// this file). Rotations are unit complex numbers (cos, sin) and angular velocities scalars about z;
// friction is per point, along the tangent (normal.y, -normal.x).

alias SolverBody = Body2D;
alias SolverState = BodyState2D;
alias SolverContact = ContactManifold2D;
alias SolverUserValues = ContactUserValues2D;
alias SolverPointValues = vec2f;                     // a point's user values: normal, tangent impulse
alias SolverConstraint = ContactConstraint2D;
const SOLVER_MAX_POINTS = MAX_MANIFOLD_POINTS_2D;

// Point i's feature id.
fn solverPointId(e: SolverContact, i: u32) -> u32 {
  return e.manifold.points[i].id;
}

fn rotateVector(q: vec2f, v: vec2f) -> vec2f {
  return vec2f(q.x * v.x - q.y * v.y, q.y * v.x + q.x * v.y);
}

fn cross2(a: vec2f, b: vec2f) -> f32 {
  return a.x * b.y - a.y * b.x;
}

// w × r for an angular velocity w (about z).
fn crossSV(w: f32, r: vec2f) -> vec2f {
  return vec2f(-w * r.y, w * r.x);
}

// Rotation q advanced by a small angle, renormalised (first order, as Box2D's b2IntegrateRotation).
fn integrateRotation(q: vec2f, angle: f32) -> vec2f {
  let q2 = vec2f(q.x - angle * q.y, q.y + angle * q.x);
  let len = length(q2);
  return select(vec2f(1.0, 0.0), q2 / len, len > 0.0);
}

fn centerOfMass(b: Body2D, s: BodyState2D) -> vec2f {
  return b.position + rotateVector(b.rotation, s.localCenter);
}

fn beginState(i: u32) {
  states[i].deltaPosition = vec2f(0.0);
  states[i].deltaRotation = vec2f(1.0, 0.0);
}

// The angular velocity w clamped to MAX_ROTATION per substep.
fn clampAngularVelocity(w: f32) -> f32 {
  return clamp(w, -MAX_ROTATION * params.invH, MAX_ROTATION * params.invH);
}

// c's points from manifold entry `e`, anchored at the centres of mass cA and cB, with the impulses
// carried from last frame.
fn preparePoints(c: ptr<function, ContactConstraint2D>, e: ContactManifold2D, warm: ContactUserValues2D, cA: vec2f, cB: vec2f) {
  let n = e.manifold.normal;
  let carried = carriedUserValues(e, warm);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    var p: ConstraintPoint2D;
    if (i < (*c).count) {
      let mp = e.manifold.points[i];
      p.anchorA = mp.position - cA;
      p.anchorB = mp.position - cB;
      p.baseSeparation = -mp.depth - dot(p.anchorB - p.anchorA, n);
      p.normalImpulse = WARM_START_SCALE * carried.points[i].x;
      p.tangentImpulse = WARM_START_SCALE * carried.points[i].y;
    } else {
      p = ConstraintPoint2D(vec2f(0.0), vec2f(0.0), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    }
    (*c).points[i] = p;
  }
}

// The effective masses of c's points along its normal and tangent, for bodies sA and sB.
fn constraintMasses(c: ptr<function, ContactConstraint2D>, sA: BodyState2D, sB: BodyState2D) {
  let n = (*c).normal;
  let t = vec2f(n.y, -n.x);
  let mA = sA.invMass;
  let mB = sB.invMass;
  let iA = sA.invInertia;
  let iB = sB.invInertia;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < (*c).count) {
      let p = (*c).points[i];
      let rnA = cross2(p.anchorA, n);
      let rnB = cross2(p.anchorB, n);
      let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
      (*c).points[i].normalMass = select(0.0, 1.0 / kN, kN > 0.0);
      let rtA = cross2(p.anchorA, t);
      let rtB = cross2(p.anchorB, t);
      let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
      (*c).points[i].tangentMass = select(0.0, 1.0 / kT, kT > 0.0);
    }
  }
}

fn relativeVelocity(sA: BodyState2D, sB: BodyState2D, rA: vec2f, rB: vec2f) -> vec2f {
  return sB.linearVelocity + crossSV(sB.angularVelocity, rB) - sA.linearVelocity - crossSV(sA.angularVelocity, rA);
}

fn applyImpulse(sA: ptr<function, BodyState2D>, sB: ptr<function, BodyState2D>, rA: vec2f, rB: vec2f, P: vec2f) {
  (*sA).linearVelocity -= (*sA).invMass * P;
  (*sA).angularVelocity -= (*sA).invInertia * cross2(rA, P);
  (*sB).linearVelocity += (*sB).invMass * P;
  (*sB).angularVelocity += (*sB).invInertia * cross2(rB, P);
}

// Applies constraint c's accumulated impulses to its bodies' states sA and sB.
fn warmStartConstraint(c: ContactConstraint2D, sA: ptr<function, BodyState2D>, sB: ptr<function, BodyState2D>) {
  let t = vec2f(c.normal.y, -c.normal.x);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < c.count) {
      let p = c.points[i];
      applyImpulse(sA, sB, p.anchorA, p.anchorB, p.normalImpulse * c.normal + p.tangentImpulse * t);
    }
  }
}

// Friction per point, bounded by the point's normal impulse.
fn solveFriction(c: ptr<function, ContactConstraint2D>, sA: ptr<function, BodyState2D>, sB: ptr<function, BodyState2D>) {
  let n = (*c).normal;
  let t = vec2f(n.y, -n.x);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < (*c).count) {
      let p = (*c).points[i];
      let vt = dot(relativeVelocity(*sA, *sB, p.anchorA, p.anchorB), t);
      let maxFriction = (*c).friction * p.normalImpulse;
      let total = clamp(p.tangentImpulse - p.tangentMass * vt, -maxFriction, maxFriction);
      (*c).points[i].tangentImpulse = total;
      applyImpulse(sA, sB, p.anchorA, p.anchorB, (total - p.tangentImpulse) * t);
    }
  }
}

fn writeImpulses(ci: u32, c: ContactConstraint2D) {
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    constraints[ci].points[i].normalImpulse = c.points[i].normalImpulse;
    constraints[ci].points[i].tangentImpulse = c.points[i].tangentImpulse;
  }
}

fn storedUserValues(c: ContactConstraint2D) -> ContactUserValues2D {
  var u: ContactUserValues2D;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    u.points[i] = vec2f(c.points[i].normalImpulse, c.points[i].tangentImpulse);
  }
  return u;
}

// The state a body's copy starts from when it is split into n (overflow.wgsl).
fn splitState(s: BodyState2D, n: f32) -> BodyState2D {
  var out = s;
  out.invMass *= n;
  out.invInertia *= n;
  return out;
}

// A body's overflow sums (OVERFLOW_WORDS_2D): linear velocity x, y, then angular velocity.
fn overflowAddState(body: u32, dv: vec2f, dw: f32) {
  let w = OVERFLOW_WORDS_2D * body;
  overflowAdd(w, dv.x);
  overflowAdd(w + 2u, dv.y);
  overflowAdd(w + 4u, dw);
}

fn overflowApplyState(body: u32) {
  let w = OVERFLOW_WORDS_2D * body;
  states[body].linearVelocity += vec2f(overflowTake(w), overflowTake(w + 2u));
  states[body].angularVelocity += overflowTake(w + 4u);
}
