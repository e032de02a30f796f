// The 2D half of the GPU broadphase (src/gpu/broadphase.ts; the shared kernels are in
// broadphase.wgsl): the grown box of a 2D body, and the narrowphase workgroup size the indirect
// dispatch arguments are counted in. The box is grown as bodyAabbs2D in src/broadphase2d.ts grows
// it: by radius + margin + AABB_RELATIVE_PAD * extent + AABB_F32_STEPS * 2^-23 * (|x| + |y| + extent).
// 2D boxes have z = 0 (lo.z = hi.z = position.z = 0), so the shared 3D comparisons hold in z.
//
// Needs layout2d.wgsl (Shape2D, Body2D), F32_MAX (src/constants.ts), AABB_RELATIVE_PAD and
// AABB_F32_STEPS (src/gpu/broadphase.ts).

@group(0) @binding(1) var<storage, read> bpShapes: array<Shape2D>;
@group(0) @binding(2) var<storage, read> bpBodies: array<Body2D>;

const BP_NARROWPHASE_WORKGROUP: u32 = WORKGROUP_SIZE_2D;

// Fat boxes grow in x and y only: 2D boxes stay at z = 0.
const BP_AXES = vec3f(1.0, 1.0, 0.0);

fn bpBodyExtent(i: u32) -> f32 {
  return bpShapes[bpBodies[i].shape].extent;
}

// The box of body i, grown by radius + grow + the pads.
fn bpBodyBox(i: u32, grow: f32) -> BroadphaseBox {
  let body = bpBodies[i];
  let shape = &bpShapes[body.shape];
  let c = body.rotation.x;
  let s = body.rotation.y;
  let count = (*shape).count;
  var lo = vec2f(F32_MAX);
  var hi = vec2f(-F32_MAX);
  for (var v = 0u; v < MAX_POLYGON_VERTICES; v++) {
    if (v >= count) { break; }
    let p = (*shape).vertices[v];
    let w = vec2f(c * p.x - s * p.y, s * p.x + c * p.y);
    lo = min(lo, w);
    hi = max(hi, w);
  }
  // As the host: the narrowphase sees f32-rounded positions, so pad by AABB_F32_STEPS f32 steps
  // (2^-23 relative) of the coordinates too.
  let position = body.position;
  let extent = (*shape).extent;
  let f32Steps = AABB_F32_STEPS * 0x1p-23f * (abs(position.x) + abs(position.y) + extent);
  let r = (*shape).radius + grow + AABB_RELATIVE_PAD * extent + f32Steps;
  return BroadphaseBox(vec3f(lo - vec2f(r), 0.0), (*shape).categoryBits, vec3f(hi + vec2f(r), 0.0), (*shape).maskBits,
                       vec3f(position, 0.0), body.shape);
}
