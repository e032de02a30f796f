// Buffer layouts of the 2D rigid-body solver (src/solver/world2d.ts, shaders/solver2d.wgsl): the
// one definition; the host reads offsets and sizes through wgsl_reflect (src/solver/layout2d.ts).
// Needs layout2d.wgsl before it.
//
// Conventions: as the narrowphase's (normal from A to B, depth > 0 penetration); tangent =
// (normal.y, -normal.x); impulses in mass × scene units / s; angles counter-clockwise.

// What the solver keeps per body beside its Body2D (which the solver moves in place, so the frame
// and renderers read the same buffer). Static bodies have invMass = invInertia = 0 and never move.
struct BodyState2D {
  linearVelocity: vec2f,                               // of the centre of mass
  angularVelocity: f32,                                // rad / s
  invMass: f32,                                        // 0: static
  localCenter: vec2f,                                  // centre of mass in the body frame
  invInertia: f32,                                     // about the centre of mass
  friction: f32,
  deltaPosition: vec2f,                                // centre's displacement since this step's prepare
  deltaRotation: vec2f,                                // rotation since this step's prepare (cos, sin)
}

struct ConstraintPoint2D {
  anchorA: vec2f,                                      // contact point minus A's centre, world axes at prepare
  anchorB: vec2f,                                      // contact point minus B's centre
  baseSeparation: f32,                                 // separation at prepare - dot(anchorB - anchorA, normal)
  normalImpulse: f32,                                  // accumulated this step (warm started from last frame)
  tangentImpulse: f32,
  normalMass: f32,                                     // 1 / effective mass along the normal
  tangentMass: f32,
  _pad: f32,
}

// One contact constraint per dense contact-list entry, same index.
struct ContactConstraint2D {
  bodyA: u32,
  bodyB: u32,
  normal: vec2f,                                       // from A to B
  count: u32,                                          // points used
  friction: f32,                                       // mixed: sqrt(frictionA × frictionB)
  biasRate: f32,                                       // softness (static pairs are stiffer)
  massScale: f32,
  impulseScale: f32,
  _pad: f32,
  points: array<ConstraintPoint2D, MAX_MANIFOLD_POINTS_2D>,
}

// The step's parameters (a uniform, written by the host each step).
struct SolverParams2D {
  gravity: vec2f,
  h: f32,                                              // substep, s
  invH: f32,
  bodyCount: u32,
  countWord: u32,                                      // where the contact count is in the counts buffer (u32 index)
  contactBiasRate: f32,                                // softness of dynamic-dynamic contacts
  contactMassScale: f32,
  contactImpulseScale: f32,
  staticBiasRate: f32,                                 // softness of contacts with a static body
  staticMassScale: f32,
  staticImpulseScale: f32,
}

// What one dispatch of a solver pass runs (uniform slots): colour `color` (< COLOR_COUNT), or
// (COLOR_COUNT + p) colours p and up in one workgroup; `mode` for the kernels that serve all three
// passes (the tail and the overflow): 0 warm start, 1 solve, 2 relax.
struct SolverPass2D {
  color: u32,
  mode: u32,
  _pad1: u32,
  _pad2: u32,
}
