// The solver's colour passes (warm start, solve, relax) and its overflow, shared by 2D and 3D
// after solver.wgsl (the bindings). The dimension's file (solver2d.wgsl, solver3d.wgsl) defines,
// for its body states and constraints:
//   relativeVelocity(sA, sB, rA, rB)          velocity of B's point rB relative to A's point rA
//   applyImpulse(&sA, &sB, rA, rB, P)         P at those points (A takes -P)
//   warmStartConstraint(c, &sA, &sB)          applies a constraint's accumulated impulses
//   solveFriction(&c, &sA, &sB)               its friction, bounded by its normal impulses
//   writeImpulses(ci, c)                      keeps a solved constraint's impulses in slot ci
//   splitState(s, n)                          a body's copy when it is split into n
//   overflowAddState(body, dv, dw)            adds to a body's overflow sums (overflow.wgsl)
//   overflowApplyState(body)                  moves a body's velocities by its sums, cleared
// mode 0: warm start, 1: solve with bias, 2: relax. Constraints are stored in colour order
// (prepare wrote slot i for the contact colorOrder lists at i): colour k's at slots
// colorOrder[k] .. colorOrder[k + 1], the overflow's from colorOrder[COLOR_COUNT] to the count.
// Colours share no dynamic body (coloring.wgsl): a dispatch solves one colour in parallel and the
// result is Gauss–Seidel's, independent of thread order (deterministic). Each pass runs the colours
// the host dispatches one by one, then the rest in one workgroup, colour after colour (solverTail,
// only when the host dispatched fewer than COLOR_COUNT), then the overflow (the uncoloured) in
// parallel by mass splitting (solverOverflow and solverOverflowApply; overflow.wgsl).

// One Gauss–Seidel pass over the normal impulses of constraint c with its bodies' states sA and
// sB: soft with position bias when useBias, rigid otherwise; speculative points only keep the gap
// from closing within the substep.
fn solveNormals(c: ptr<function, SolverConstraint>, sA: ptr<function, SolverState>, sB: ptr<function, SolverState>, useBias: bool) {
  let n = (*c).normal;
  let dp = (*sB).deltaPosition - (*sA).deltaPosition;
  for (var i = 0u; i < SOLVER_MAX_POINTS; i++) {
    if (i < (*c).count) {
      let p = (*c).points[i];
      let d = dp + rotateVector((*sB).deltaRotation, p.anchorB) - rotateVector((*sA).deltaRotation, p.anchorA);
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
      let vn = dot(relativeVelocity(*sA, *sB, p.anchorA, p.anchorB), n);
      let impulse = -p.normalMass * massScale * (vn + bias) - impulseScale * p.normalImpulse;
      let total = max(p.normalImpulse + impulse, 0.0);
      (*c).points[i].normalImpulse = total;
      applyImpulse(sA, sB, p.anchorA, p.anchorB, (total - p.normalImpulse) * n);
    }
  }
}

// Runs pass `mode` (0: warm start, 1: solve with bias, 2: relax) of the constraint in slot ci on
// states sA and sB, and stores its impulses. `split`: sA and sB are copies of split bodies
// (overflow.wgsl), whose effective masses differ from those prepare stored.
fn runConstraint(ci: u32, sA: ptr<function, SolverState>, sB: ptr<function, SolverState>, mode: u32, split: bool) {
  var c = constraints[ci];
  if (mode == 0u) {
    warmStartConstraint(c, sA, sB);
    return;
  }
  if (split) { constraintMasses(&c, *sA, *sB); }
  // Normal impulses first: friction is bounded by them.
  solveNormals(&c, sA, sB, mode == 1u);
  solveFriction(&c, sA, sB);
  writeImpulses(ci, c);
}

// Gauss–Seidel: the constraint in slot ci moves its bodies' states in place. Static bodies are
// shared by a colour's constraints: never written.
fn runContact(ci: u32, mode: u32) {
  let bodyA = constraints[ci].bodyA;
  let bodyB = constraints[ci].bodyB;
  var sA = states[bodyA];
  var sB = states[bodyB];
  runConstraint(ci, &sA, &sB, mode, false);
  if (sA.invMass > 0.0) { states[bodyA] = sA; }
  if (sB.invMass > 0.0) { states[bodyB] = sB; }
}

// Mass splitting (overflow.wgsl): the constraint in slot ci moves its bodies' copies, and adds the
// copies' velocity changes / n to their bodies' sums.
fn overflowContact(ci: u32, mode: u32) {
  let bodyA = constraints[ci].bodyA;
  let bodyB = constraints[ci].bodyB;
  let a0 = states[bodyA];
  let b0 = states[bodyB];
  let nA = overflowSplit(bodyA);
  let nB = overflowSplit(bodyB);
  var sA = splitState(a0, nA);
  var sB = splitState(b0, nB);
  runConstraint(ci, &sA, &sB, mode, true);
  if (a0.invMass > 0.0) { overflowAddState(bodyA, (sA.linearVelocity - a0.linearVelocity) / nA, (sA.angularVelocity - a0.angularVelocity) / nA); }
  if (b0.invMass > 0.0) { overflowAddState(bodyB, (sB.linearVelocity - b0.linearVelocity) / nB, (sB.angularVelocity - b0.angularVelocity) / nB); }
}

// Invocation i of a dispatch of colour k = solverPass.color runs slot colorOrder[k] + i (the
// dispatch is sized to the colour on the GPU).
fn solveColor(i: u32, mode: u32) {
  let k = solverPass.color;
  let start = colorOrder[k];
  if (i >= colorOrder[k + 1u] - start) { return; }
  runContact(start + i, mode);
}

// The warm start's colours: a kernel of its own, far smaller than the solve's (it runs as many
// colours, and a SIMD adapter pays per invocation for the code it carries).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverWarmStart(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  solveColor(solverIndex(gid, groups), 0u);
}

// The solve's and the relax's colours (the same code but for the bias), the mode read from the
// pass's uniform slot as solverTail reads it: a branch every invocation takes alike, and one
// pipeline to compile where there were two (a first step waits for every compile).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverSolve(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  solveColor(solverIndex(gid, groups), solverPass.mode);
}

// One workgroup: the colours from solverPass.color - COLOR_COUNT on (those the host did not
// dispatch one by one), colour after colour, each spread over the workgroup's invocations; the
// barrier makes a colour's writes visible before the next colour reads. Same result as a dispatch
// per colour.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverTail(@builtin(local_invocation_index) lid: u32) {
  for (var k = solverPass.color - COLOR_COUNT; k < COLOR_COUNT; k++) {
    for (var j = colorOrder[k] + lid; j < colorOrder[k + 1u]; j += SOLVER_WORKGROUP_SIZE) {
      runContact(j, solverPass.mode);
    }
    storageBarrier();
  }
}

// The overflow, one invocation per constraint (overflow.wgsl); solverOverflowApply follows.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverOverflow(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let slot = colorOrder[COLOR_COUNT] + solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  overflowContact(slot, solverPass.mode);
}

// Per body with overflow constraints: its velocities move by the sums (the copies' mean).
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverOverflowApply(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount || splits[i] == 0u) { return; }
  overflowApplyState(i);
}
