// Impulses and forces the host gave a 2D world's bodies since its last step (GpuWorld2D's
// applyImpulse, applyForce), applied at the start of the next step: one invocation per body that
// has any, so no two write one body. The host sums a body's impulses into one command: their total
// (linear), the total of those given at a point (pointImpulse), and the sum of point × impulse
// (moment); the angular impulse about the centre of mass c is moment - c × pointImpulse, which
// needs c, known here only. Follows solver.wgsl in its module (its bodies, states and helpers).

struct BodyCommand2D {
  linear: vec2f,                                       // sum of the impulses
  pointImpulse: vec2f,                                 // sum of those given at a point
  moment: f32,                                         // sum of point × impulse (those at a point)
  body: u32,
}

@group(0) @binding(12) var<storage, read> commands: array<BodyCommand2D>;

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverCommands(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= arrayLength(&commands)) { return; }
  let c = commands[gid.x];
  var s = states[c.body];
  let center = centerOfMass(bodies[c.body], s);
  s.linearVelocity += s.invMass * c.linear;
  s.angularVelocity += s.invInertia * (c.moment - cross2(center, c.pointImpulse));
  states[c.body] = s;
}
