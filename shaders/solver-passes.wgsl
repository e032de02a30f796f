// The kernels of the solver's colour passes (warm start, solve, relax), shared by solver2d.wgsl
// and solver3d.wgsl, which define for their body states (with the bindings states, constraints,
// solverPass and colorOrder):
//   runConstraint(ci, &sA, &sB, mode, split)  pass `mode` of the constraint in slot ci on states
//   splitState(s, n)                           a body's copy when it is split into n
//   overflowAddState(body, dv, dw)             adds to a body's overflow sums (overflow.wgsl)
// mode 0: warm start, 1: solve with bias, 2: relax. Constraints are stored in colour order
// (prepare wrote slot i for the contact colorOrder lists at i): colour k's at slots
// colorOrder[k] .. colorOrder[k + 1], the overflow's from colorOrder[COLOR_COUNT] to the count.

// The invocation's index in a dispatch of rows of workgroups (dispatchRows).
fn solverIndex(gid: vec3u, groups: vec3u) -> u32 {
  return gid.x + gid.y * groups.x * SOLVER_WORKGROUP_SIZE;
}

// The contact count, as the colouring copied it (so the kernels need not bind `counts` too).
fn contactCount() -> u32 {
  return colorOrder[COLOR_COUNT + 1u];
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

// One entry point per mode, so that each is compiled for its own.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverWarmStart(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  solveColor(solverIndex(gid, groups), 0u);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverSolve(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  solveColor(solverIndex(gid, groups), 1u);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverRelax(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  solveColor(solverIndex(gid, groups), 2u);
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

// The overflow, one invocation per constraint (overflow.wgsl); the dimension's
// solverOverflowApply follows.
@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverOverflow(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let slot = colorOrder[COLOR_COUNT] + solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  overflowContact(slot, solverPass.mode);
}
