// Buffer layouts of the 3D rigid-body solver (src/solver/world3d.ts, shaders/solver3d.wgsl): the
// one definition; the host reads offsets and sizes through wgsl_reflect (src/solver/layout3d.ts).
// Needs layout3d.wgsl before it; solver-layout.wgsl follows with the parameters.
//
// Conventions: as the narrowphase's (normal from A to B, depth > 0 penetration); quaternions
// [x, y, z, w]; the tangents of a contact are derived from its normal (solverTangents3D), so the
// same normal gives the same tangents from frame to frame and warm-started friction keeps its
// direction. Impulses in mass × scene units / s (twist: × scene units).
//
// User values (ContactUserValues3D, a vec4f per point): x the point's normal impulse; y, z the
// manifold's tangent impulses and w its twist impulse, the same in every point.

// A vector of the dimension, for the layouts solver-layout.wgsl shares (it follows this file).
alias SolverVector = vec3f;

// What the solver keeps per body beside its Body3D (which the solver moves in place, so the frame
// and renderers read the same buffer). Static bodies have zero inverse mass and inertia.
struct BodyState3D {
  linearVelocity: vec3f,                               // of the centre of mass
  invMass: f32,                                        // 0: static
  angularVelocity: vec3f,                              // rad / s, world axes
  friction: f32,
  localCenter: vec3f,                                  // centre of mass in the body frame
  _pad0: f32,
  invInertiaLocal: mat3x3f,                            // about the centre of mass, body axes
  invInertiaWorld: mat3x3f,                            // the same in world axes, at this step's prepare
  deltaPosition: vec3f,                                // centre's displacement since this step's prepare
  _pad1: f32,
  deltaRotation: vec4f,                                // rotation since this step's prepare (quaternion)
}

struct ConstraintPoint3D {
  anchorA: vec3f,                                      // contact point minus A's centre, world axes at prepare
  baseSeparation: f32,                                 // separation at prepare - dot(anchorB - anchorA, normal)
  anchorB: vec3f,                                      // contact point minus B's centre
  normalImpulse: f32,                                  // accumulated this step (warm started from last frame)
  normalMass: f32,                                     // 1 / effective mass along the normal
}

// One contact constraint per dense contact-list entry, same index. Friction acts on the whole
// manifold: two tangent impulses at the points' centroid and a twist impulse about the normal,
// bounded by friction × the sum of the normal impulses (twist: × twistArm too). Solved per point,
// friction would spin a box resting on four corners about the normal; per manifold it is
// symmetric, and it is warm started by pair, whatever happens to the points' ids.
struct ContactConstraint3D {
  bodyA: u32,
  bodyB: u32,
  count: u32,                                          // points used
  friction: f32,                                       // mixed: sqrt(frictionA × frictionB)
  normal: vec3f,                                       // from A to B
  biasRate: f32,                                       // softness (static pairs are stiffer)
  tangent1: vec3f,
  massScale: f32,
  tangent2: vec3f,
  impulseScale: f32,
  frictionAnchorA: vec3f,                              // the points' centroid minus A's centre
  twistImpulse: f32,
  frictionAnchorB: vec3f,                              // the points' centroid minus B's centre
  twistMass: f32,
  tangentImpulse: vec2f,                               // along tangent1, tangent2
  tangentMass: vec2f,
  twistArm: f32,                                       // mean distance of the points from their centroid
  points: array<ConstraintPoint3D, MAX_MANIFOLD_POINTS_3D>,
}
