// The rigid-body solver's bindings and kernels, one implementation for 2D and 3D (Box2D v3's soft
// step; src/solver/world.ts records the kernels after the collision frame, in this order, with no
// readback):
//
//   solverBegin          per body: zero the deltas the substeps accumulate (3D: world inertia)
//   solverPrepare        per dense contact: a constraint with anchors relative to the centres of
//                        mass, effective masses, softness, and last frame's impulses (warm start:
//                        by feature id, else from the nearest unclaimed point of the same pair)
//   per substep:
//     solverIntegrateVelocities   gravity
//     solverWarmStart    per colour: apply the accumulated impulses
//     solverSolve        per colour: soft contact with position bias (push-out capped)
//     solverIntegratePositions    move the bodies in place; accumulate the deltas
//     solverSolve        relax, per colour: rigid contact without bias (removes the bias's energy)
//   solverStore          per contact: this step's impulses into the frame's user values, which the
//                        next frame carries to the points with the same feature ids
//
// The current separation of a point is found from the bodies' deltas since prepare, so the
// narrowphase runs once per step while the substeps still see the contact open and close. The
// colour passes are solver-passes.wgsl's. The dimension's file before this one (solver2d.wgsl,
// solver3d.wgsl) names the types (SolverBody, SolverState, SolverContact, SolverUserValues,
// SolverPointValues, SolverConstraint), SOLVER_MAX_POINTS, and what differs with the dimension:
//   rotateVector(q, v), integrateRotation(q, angle), centerOfMass(b, s)   a body's pose
//   beginState(i), clampAngularVelocity(w)                                 the per-body kernels'
//   preparePoints(&c, e, warm, cA, cB), constraintMasses(&c, sA, sB)      a constraint's points
//   storedUserValues(c)                                                    what the next frame gets
//   solverPointId(e, i)                                                    a point's feature id

@group(0) @binding(0) var<uniform> params: SolverParams;
@group(0) @binding(1) var<uniform> solverPass: SolverPass;
@group(0) @binding(2) var<storage, read_write> bodies: array<SolverBody>;
@group(0) @binding(3) var<storage, read_write> states: array<SolverState>;
@group(0) @binding(4) var<storage, read> contacts: array<SolverContact>;
@group(0) @binding(5) var<storage, read_write> userValues: array<SolverUserValues>;
@group(0) @binding(6) var<storage, read_write> constraints: array<SolverConstraint>;
@group(0) @binding(8) var<storage, read> colorOrder: array<u32>;              // colour offsets, then the constraints by colour (coloring.wgsl)
@group(0) @binding(9) var<storage, read> prevContacts: array<SolverContact>;     // last frame's list
@group(0) @binding(10) var<storage, read> prevUserValues: array<SolverUserValues>; // and the impulses stored for it

// The invocation's index in a dispatch of rows of workgroups (dispatchRows).
fn solverIndex(gid: vec3u, groups: vec3u) -> u32 {
  return gid.x + gid.y * groups.x * SOLVER_WORKGROUP_SIZE;
}

// The contact count, as the colouring copied it (so the kernels need not bind `counts` too).
fn contactCount() -> u32 {
  return colorOrder[COLOR_COUNT + 1u];
}

// The user values each point of `e` starts from: those the frame carried to it by feature id; for
// a point no id matched, those of last frame's point of the same pair nearest to it (within
// WARM_START_MATCH_DISTANCE) among the points whose id no point of `e` has (the others were carried
// by id): a point whose feature id flipped while it stayed put; else zero. Last frame's entry is
// read once for all the points (read per point, it was compiled once per point).
fn carriedUserValues(e: SolverContact, warm: SolverUserValues) -> SolverUserValues {
  var out = warm;
  let count = e.manifold.count;
  // The points no id matched, when last frame had an entry of the pair.
  var open = 0u;
  if (e.previous != CONTACT_NONE) { open = ~e.matched & ((1u << count) - 1u); }
  if (open == 0u) { return out; }
  var best: array<f32, SOLVER_MAX_POINTS>;
  for (var i = 0u; i < SOLVER_MAX_POINTS; i++) {
    best[i] = WARM_START_MATCH_DISTANCE;
    if ((open & (1u << i)) != 0u) { out.points[i] = SolverPointValues(); }
  }
  let prev = prevContacts[e.previous];
  for (var k = 0u; k < SOLVER_MAX_POINTS; k++) {
    if (k < prev.manifold.count) {
      let id = solverPointId(prev, k);
      var taken = false;
      for (var j = 0u; j < SOLVER_MAX_POINTS; j++) {
        taken = taken || (j < count && solverPointId(e, j) == id);
      }
      if (!taken) {
        let q = prev.manifold.points[k].position;
        let values = prevUserValues[e.previous].points[k];
        // The last of equally near points wins, as k runs up.
        for (var i = 0u; i < SOLVER_MAX_POINTS; i++) {
          let d = distance(q, e.manifold.points[i].position);
          if ((open & (1u << i)) != 0u && d <= best[i]) {
            best[i] = d;
            out.points[i] = values;
          }
        }
      }
    }
  }
  return out;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverBegin(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  beginState(i);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverPrepare(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  // Constraints are stored in colour order: slot i holds the contact colorOrder lists there.
  let slot = solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  let ci = colorOrder[COLOR_ORDER_HEADER + slot];
  let e = contacts[ci];
  let sA = states[e.bodyA];
  let sB = states[e.bodyB];
  var c: SolverConstraint;
  c.bodyA = e.bodyA;
  c.bodyB = e.bodyB;
  c.normal = e.manifold.normal;
  c.count = e.manifold.count;
  c.friction = sqrt(sA.friction * sB.friction);
  let isStatic = sA.invMass == 0.0 || sB.invMass == 0.0;
  c.biasRate = select(params.contactBiasRate, params.staticBiasRate, isStatic);
  c.massScale = select(params.contactMassScale, params.staticMassScale, isStatic);
  c.impulseScale = select(params.contactImpulseScale, params.staticImpulseScale, isStatic);
  let cA = centerOfMass(bodies[e.bodyA], sA);
  let cB = centerOfMass(bodies[e.bodyB], sB);
  preparePoints(&c, e, userValues[ci], cA, cB);
  constraintMasses(&c, sA, sB);
  constraints[slot] = c;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverIntegrateVelocities(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  if (states[i].invMass == 0.0) { return; }
  states[i].linearVelocity += params.h * params.gravity;
  // A body may turn at most MAX_ROTATION per substep: the rotation integration and the fixed
  // anchors are first order, and a faster spin would tunnel through its contacts.
  states[i].angularVelocity = clampAngularVelocity(states[i].angularVelocity);
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverIntegratePositions(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = solverIndex(gid, groups);
  if (i >= params.bodyCount) { return; }
  var s = states[i];
  if (s.invMass == 0.0) { return; }
  var b = bodies[i];
  let center = centerOfMass(b, s) + params.h * s.linearVelocity;
  let angle = params.h * s.angularVelocity;
  b.rotation = integrateRotation(b.rotation, angle);
  b.position = center - rotateVector(b.rotation, s.localCenter);
  s.deltaPosition += params.h * s.linearVelocity;
  s.deltaRotation = integrateRotation(s.deltaRotation, angle);
  bodies[i] = b;
  states[i] = s;
}

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverStore(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let slot = solverIndex(gid, groups);
  if (slot >= contactCount()) { return; }
  let ci = colorOrder[COLOR_ORDER_HEADER + slot];
  userValues[ci] = storedUserValues(constraints[slot]);
}
