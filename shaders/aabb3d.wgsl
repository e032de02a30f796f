// The 3D half of the GPU broadphase (src/gpu/broadphase.ts; the shared kernels are in
// broadphase.wgsl): the grown box of a 3D body, and the narrowphase workgroup size the indirect
// dispatch arguments are counted in. The box is grown as bodyAabbs3D in src/broadphase3d.ts grows
// it: the shape's vertices (hull vertices; a sphere's centre, a capsule's segment) rotated, then
// radius + margin + AABB_RELATIVE_PAD * extent + AABB_F32_STEPS * 2^-23 * (|x| + |y| + |z| +
// |centre| + extent) on every side.
//
// Needs layout3d.wgsl (Shape3D, Body3D), F32_MAX_3D and MAX_HULL_VERTICES (src/constants3d.ts),
// AABB_RELATIVE_PAD and AABB_F32_STEPS (src/gpu/broadphase.ts).

@group(0) @binding(1) var<storage, read> bpShapes: array<Shape3D>;
@group(0) @binding(2) var<storage, read> bpBodies: array<Body3D>;
@group(0) @binding(14) var<storage, read> bpHullVertices: array<vec4f>;

const BP_NARROWPHASE_WORKGROUP: u32 = WORKGROUP_SIZE_3D;

const BP_AXES = vec3f(1.0);

fn bpBodyExtent(i: u32) -> f32 {
  return bpShapes[bpBodies[i].shape].extent;
}

// The rotation matrix of quaternion q = [x, y, z, w] (columns), as the host's bodyAabbs3D builds it.
fn bpRotation3D(q: vec4f) -> mat3x3f {
  let x = q.x;
  let y = q.y;
  let z = q.z;
  let w = q.w;
  return mat3x3f(
    vec3f(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)),
    vec3f(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)),
    vec3f(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)),
  );
}

// The box of body i, grown by radius + grow + the pads.
fn bpBodyBox(i: u32, grow: f32) -> BroadphaseBox {
  let body = bpBodies[i];
  let shape = bpShapes[body.shape];
  let m = bpRotation3D(body.rotation);
  var lo = vec3f(F32_MAX_3D);
  var hi = vec3f(-F32_MAX_3D);
  for (var v = 0u; v < MAX_HULL_VERTICES; v++) {
    if (v >= shape.vertexCount) { break; }
    let w = m * (bpHullVertices[shape.vertexOffset + v].xyz + shape.center);
    lo = min(lo, w);
    hi = max(hi, w);
  }
  let p = body.position;
  let extent = shape.extent;
  let f32Steps = AABB_F32_STEPS * 0x1p-23f * (abs(p.x) + abs(p.y) + abs(p.z) + length(shape.center) + extent);
  let r = shape.radius + grow + AABB_RELATIVE_PAD * extent + f32Steps;
  return BroadphaseBox(lo - vec3f(r), shape.categoryBits, hi + vec3f(r), shape.maskBits, p, body.shape);
}
