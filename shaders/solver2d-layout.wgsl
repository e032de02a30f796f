// Buffer layouts of the 2D rigid-body solver (src/solver/world2d.ts, shaders/solver2d.wgsl): the
// one definition; the host reads offsets and sizes through wgsl_reflect (src/solver/layout2d.ts).
// Needs layout2d.wgsl before it; solver-layout.wgsl follows with the parameters.
//
// Conventions: as the narrowphase's (normal from A to B, depth > 0 penetration); tangent =
// (normal.y, -normal.x); impulses in mass × scene units / s; angles counter-clockwise.

// A vector of the dimension, for the layouts solver-layout.wgsl shares (it follows this file).
alias SolverVector = vec2f;

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
