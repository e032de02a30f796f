// Impulses and forces the host gave a 3D world's bodies since its last step (GpuWorld3D's
// applyImpulse, applyForce), applied at the start of the next step, as commands2d.wgsl does: one
// invocation per body; the angular impulse about the centre of mass c is moment - c × pointImpulse,
// through the world inverse inertia R I⁻¹ Rᵀ. Follows solver.wgsl in its module.

struct BodyCommand3D {
  linear: vec3f,                                       // sum of the impulses
  body: u32,
  pointImpulse: vec3f,                                 // sum of those given at a point
  _pad0: u32,
  moment: vec3f,                                       // sum of point × impulse (those at a point)
  _pad1: u32,
}

@group(0) @binding(12) var<storage, read> commands: array<BodyCommand3D>;

@compute @workgroup_size(SOLVER_WORKGROUP_SIZE)
fn solverCommands(@builtin(global_invocation_id) gid: vec3u) {
  if (gid.x >= arrayLength(&commands)) { return; }
  let c = commands[gid.x];
  let b = bodies[c.body];
  var s = states[c.body];
  let r = quatMatrix3D(b.rotation);
  s.linearVelocity += s.invMass * c.linear;
  s.angularVelocity += r * (s.invInertiaLocal * (transpose(r) * (c.moment - cross(centerOfMass(b, s), c.pointImpulse))));
  states[c.body] = s;
}
