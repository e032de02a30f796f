// The 2D rigid-body solver's kernels (src/solver/world2d.ts records them after the collision
// frame, in this order, with no readback):
//
//   solverBegin2D          per body: zero the deltas the substeps accumulate (3D: world inertia)
//   solverPrepare2D        per dense contact: a constraint with anchors relative to the centres of
//                          mass, effective masses, softness, and last frame's impulses (warm start:
//                          by feature id, else from the nearest unclaimed point of the same pair)
//   per substep:
//     solverIntegrateVelocities2D   gravity
//     solverWarmStart      per colour: apply the accumulated impulses
//     solverSolve          per colour: soft contact with position bias (push-out capped)
//     solverIntegratePositions2D    move Body2D in place; accumulate the deltas
//     solverRelax          per colour: rigid contact without bias (removes the bias's energy)
//   solverStore2D          per contact: this step's impulses into the frame's user values, which
//                          the next frame carries to the points with the same feature ids
//
// The current separation of a point is found from the bodies' deltas since prepare, so the
// narrowphase runs once per step while the substeps still see the contact open and close.
// Colours share no dynamic body (shaders/coloring.wgsl): a dispatch solves one colour in parallel
// and the result is Gauss–Seidel's, independent of thread order (deterministic). Constraints are
// stored in colour order (colorOrder), each colour's dispatch sized to it on the GPU. Each colour
// pass (warm start, solve, relax) runs the colours the host dispatches one by one, then the rest
// of the colours in one workgroup, colour after colour (solverTail, only when the host dispatched
// fewer than COLOR_COUNT), then the overflow (the uncoloured) in parallel by mass splitting
// (solverOverflow and solverOverflowApply2D; shaders/overflow.wgsl). Those kernels are shared with
// 3D (shaders/solver-passes.wgsl) and call runConstraint, splitState and overflowAddState here.

@group(0) @binding(0) var<uniform> params: SolverParams2D;
@group(0) @binding(1) var<uniform> solverPass: SolverPass2D;
@group(0) @binding(2) var<storage, read_write> bodies: array<Body2D>;
@group(0) @binding(3) var<storage, read_write> states: array<BodyState2D>;
@group(0) @binding(4) var<storage, read> contacts: array<ContactManifold2D>;
@group(0) @binding(5) var<storage, read_write> userValues: array<ContactUserValues2D>;
@group(0) @binding(6) var<storage, read_write> constraints: array<ContactConstraint2D>;
@group(0) @binding(8) var<storage, read> colorOrder: array<u32>;              // colour offsets, then the constraints by colour (coloring.wgsl)
@group(0) @binding(9) var<storage, read> prevContacts: array<ContactManifold2D>;     // last frame's list
@group(0) @binding(10) var<storage, read> prevUserValues: array<ContactUserValues2D>; // and the impulses stored for it

fn rotate2(q: vec2f, v: vec2f) -> vec2f {
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
fn integrateRotation2(q: vec2f, angle: f32) -> vec2f {
  let q2 = vec2f(q.x - angle * q.y, q.y + angle * q.x);
  let len = length(q2);
  return select(vec2f(1.0, 0.0), q2 / len, len > 0.0);
}

fn centerOfMass2(b: Body2D, s: BodyState2D) -> vec2f {
  return b.position + rotate2(b.rotation, s.localCenter);
}

// The impulses of last frame's point of the same pair nearest to `position` (within
// WARM_START_MATCH_DISTANCE) among those whose id no point of `e` has (those were carried by id):
// for points whose feature id flipped while the point stayed put. Zero when there is none.
fn nearestWarmStart2D(e: ContactManifold2D, position: vec2f) -> vec2f {
  let prev = prevContacts[e.previous];
  var best = WARM_START_MATCH_DISTANCE;
  var out = vec2f(0.0);
  for (var k = 0u; k < MAX_MANIFOLD_POINTS_2D; k++) {
    if (k < prev.manifold.count) {
      let q = prev.manifold.points[k];
      var taken = false;
      for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
        taken = taken || (i < e.manifold.count && e.manifold.points[i].id == q.id);
      }
      let d = distance(q.position, position);
      if (!taken && d <= best) {
        best = d;
        out = prevUserValues[e.previous].points[k];
      }
    }
  }
  return out;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverPrepare2D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  // Constraints are stored in colour order: slot i holds the contact colorOrder lists there.
  let slot = solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  let ci = colorOrder[COLOR_ORDER_HEADER + slot];
  let e = contacts[ci];
  let sA = states[e.bodyA];
  let sB = states[e.bodyB];
  let cA = centerOfMass2(bodies[e.bodyA], sA);
  let cB = centerOfMass2(bodies[e.bodyB], sB);
  let n = e.manifold.normal;
  var c: ContactConstraint2D;
  c.bodyA = e.bodyA;
  c.bodyB = e.bodyB;
  c.normal = n;
  c.count = e.manifold.count;
  c.friction = sqrt(sA.friction * sB.friction);
  let isStatic = sA.invMass == 0.0 || sB.invMass == 0.0;
  c.biasRate = select(params.contactBiasRate, params.staticBiasRate, isStatic);
  c.massScale = select(params.contactMassScale, params.staticMassScale, isStatic);
  c.impulseScale = select(params.contactImpulseScale, params.staticImpulseScale, isStatic);
  c._pad = 0.0;
  let warm = userValues[ci];
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    var p: ConstraintPoint2D;
    if (i < c.count) {
      let mp = e.manifold.points[i];
      p.anchorA = mp.position - cA;
      p.anchorB = mp.position - cB;
      p.baseSeparation = -mp.depth - dot(p.anchorB - p.anchorA, n);
      var carried = warm.points[i];
      if ((e.matched & (1u << i)) == 0u && e.previous != CONTACT_NONE) {
        carried = nearestWarmStart2D(e, mp.position);
      }
      p.normalImpulse = WARM_START_SCALE * carried.x;
      p.tangentImpulse = WARM_START_SCALE * carried.y;
    } else {
      p = ConstraintPoint2D(vec2f(0.0), vec2f(0.0), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    }
    c.points[i] = p;
  }
  constraintMasses2D(&c, sA, sB);
  constraints[slot] = c;
}

// The effective masses of c's points along its normal and tangent, for bodies sA and sB.
fn constraintMasses2D(c: ptr<function, ContactConstraint2D>, sA: BodyState2D, sB: BodyState2D) {
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

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverBegin2D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  states[i].deltaPosition = vec2f(0.0);
  states[i].deltaRotation = vec2f(1.0, 0.0);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverIntegrateVelocities2D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  if (states[i].invMass == 0.0) { return; }
  states[i].linearVelocity += params.h * params.gravity;
  // A body may turn at most MAX_ROTATION per substep: the rotation integration and the fixed
  // anchors are first order, and a faster spin would tunnel through its contacts.
  let w = states[i].angularVelocity;
  states[i].angularVelocity = clamp(w, -MAX_ROTATION * params.invH, MAX_ROTATION * params.invH);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverIntegratePositions2D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  var s = states[i];
  if (s.invMass == 0.0) { return; }
  var b = bodies[i];
  let center = centerOfMass2(b, s) + params.h * s.linearVelocity;
  let angle = params.h * s.angularVelocity;
  b.rotation = integrateRotation2(b.rotation, angle);
  b.position = center - rotate2(b.rotation, s.localCenter);
  s.deltaPosition += params.h * s.linearVelocity;
  s.deltaRotation = integrateRotation2(s.deltaRotation, angle);
  bodies[i] = b;
  states[i] = s;
}

// Applies constraint c's accumulated impulses to its bodies' states sA and sB.
fn warmStartConstraint2D(c: ContactConstraint2D, sA: ptr<function, BodyState2D>, sB: ptr<function, BodyState2D>) {
  let t = vec2f(c.normal.y, -c.normal.x);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < c.count) {
      let p = c.points[i];
      let P = p.normalImpulse * c.normal + p.tangentImpulse * t;
      (*sA).linearVelocity -= (*sA).invMass * P;
      (*sA).angularVelocity -= (*sA).invInertia * cross2(p.anchorA, P);
      (*sB).linearVelocity += (*sB).invMass * P;
      (*sB).angularVelocity += (*sB).invInertia * cross2(p.anchorB, P);
    }
  }
}

// One Gauss–Seidel pass over constraint c with its bodies' states sA and sB: normal impulses (soft
// with position bias when useBias, rigid otherwise; speculative points only keep the gap from
// closing within the substep), then friction bounded by the normal impulses.
fn solveConstraint2D(c: ptr<function, ContactConstraint2D>, sA: ptr<function, BodyState2D>, sB: ptr<function, BodyState2D>, useBias: bool) {
  let n = (*c).normal;
  let t = vec2f(n.y, -n.x);
  let dp = (*sB).deltaPosition - (*sA).deltaPosition;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < (*c).count) {
      let p = (*c).points[i];
      let rA = p.anchorA;
      let rB = p.anchorB;
      let d = dp + rotate2((*sB).deltaRotation, rB) - rotate2((*sA).deltaRotation, rA);
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
      let dv = (*sB).linearVelocity + crossSV((*sB).angularVelocity, rB) - (*sA).linearVelocity - crossSV((*sA).angularVelocity, rA);
      let vn = dot(dv, n);
      let impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse;
      let total = max(p.normalImpulse + impulse, 0.0);
      let applied = total - p.normalImpulse;
      (*c).points[i].normalImpulse = total;
      let P = applied * n;
      (*sA).linearVelocity -= (*sA).invMass * P;
      (*sA).angularVelocity -= (*sA).invInertia * cross2(rA, P);
      (*sB).linearVelocity += (*sB).invMass * P;
      (*sB).angularVelocity += (*sB).invInertia * cross2(rB, P);
    }
  }
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < (*c).count) {
      let p = (*c).points[i];
      let rA = p.anchorA;
      let rB = p.anchorB;
      let dv = (*sB).linearVelocity + crossSV((*sB).angularVelocity, rB) - (*sA).linearVelocity - crossSV((*sA).angularVelocity, rA);
      let vt = dot(dv, t);
      let maxFriction = (*c).friction * p.normalImpulse;
      let total = clamp(p.tangentImpulse - p.tangentMass * vt, -maxFriction, maxFriction);
      let applied = total - p.tangentImpulse;
      (*c).points[i].tangentImpulse = total;
      let P = applied * t;
      (*sA).linearVelocity -= (*sA).invMass * P;
      (*sA).angularVelocity -= (*sA).invInertia * cross2(rA, P);
      (*sB).linearVelocity += (*sB).invMass * P;
      (*sB).angularVelocity += (*sB).invInertia * cross2(rB, P);
    }
  }
}

// Runs pass `mode` (0: warm start, 1: solve with bias, 2: relax) of the constraint in slot ci on
// states sA and sB, and stores its impulses. `split`: sA and sB are copies of split bodies
// (overflow.wgsl), whose effective masses differ from those prepare stored.
fn runConstraint(ci: u32, sA: ptr<function, BodyState2D>, sB: ptr<function, BodyState2D>, mode: u32, split: bool) {
  var c = constraints[ci];
  if (mode == 0u) {
    warmStartConstraint2D(c, sA, sB);
    return;
  }
  if (split) { constraintMasses2D(&c, *sA, *sB); }
  solveConstraint2D(&c, sA, sB, mode == 1u);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    constraints[ci].points[i].normalImpulse = c.points[i].normalImpulse;
    constraints[ci].points[i].tangentImpulse = c.points[i].tangentImpulse;
  }
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

// Per body with overflow constraints: its velocity moves by the sums (the copies' mean).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverOverflowApply2D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount || splits[i] == 0u) { return; }
  let w = OVERFLOW_WORDS_2D * i;
  states[i].linearVelocity += vec2f(overflowTake(w), overflowTake(w + 2u));
  states[i].angularVelocity += overflowTake(w + 4u);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverStore2D(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let slot = solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  let ci = colorOrder[COLOR_ORDER_HEADER + slot];
  var u: ContactUserValues2D;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    let p = constraints[slot].points[i];
    u.points[i] = vec2f(p.normalImpulse, p.tangentImpulse);
  }
  userValues[ci] = u;
}
