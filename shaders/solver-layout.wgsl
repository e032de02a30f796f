// The solver's uniforms, one definition for 2D and 3D (src/solver/layout.ts reads them through
// wgsl_reflect). The dimension's layout file before it (solver2d-layout.wgsl,
// solver3d-layout.wgsl) names SolverVector: gravity has 2 or 3 components, the rest is the same.

// The step's parameters (a uniform, written by the host each step).
struct SolverParams {
  gravity: SolverVector,
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
struct SolverPass {
  color: u32,
  mode: u32,
  _pad1: u32,
  _pad2: u32,
}
