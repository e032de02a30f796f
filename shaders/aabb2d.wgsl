// World AABBs of 2D bodies, the first stage of the GPU broadphase (src/gpu/broadphase2d.ts), and
// their sort keys. The boxes are grown as bodyAabbs2D in src/broadphase2d.ts grows them: by
// radius + margin + AABB_RELATIVE_PAD * extent + AABB_F32_STEPS * 2^-23 * (|x| + |y| + extent).
//
// Precision. A box is kept as the body's position plus its extents relative to that position
// (BroadphaseBox2D.local), and two boxes are compared through the difference of their positions
// (bpOverlap in broadphase2d.wgsl): positions within a factor of 2 of each other subtract exactly
// in f32 (and others with an error below an f32 step of their distance), so the comparison is as
// precise as the f32 inputs (about 1e-7 of the shapes' size), however far from the origin the
// bodies are. Comparing world coordinates instead would round every box by an f32
// step of its coordinates (0.008 at 1e5) and disagree with the host's f64 boxes on every pair
// that close to touching. World bounds are kept too (bpBounds), for the sort, the end of the sweep
// and a quick rejection only, made conservative by a margin above their rounding (each bound lies
// outside the exact box), so they never reject a pair the exact comparison accepts.
//
// Needs layout2d.wgsl (Shape2D, Body2D), F32_MAX (src/constants.ts), AABB_RELATIVE_PAD,
// AABB_F32_STEPS and BROADPHASE_WORKGROUP_SIZE (src/gpu/broadphase2d.ts). broadphase2d.wgsl follows
// this file in the same module and shares its bindings: each entry point binds what it uses.

struct BroadphaseParams2D {
  bodyCount: u32,
  capacity: u32,                                       // pairs the pairs buffer holds
  margin: f32,                                         // boxes grow by this (speculative distance)
  pairCache: u32,                                      // pairs per body the counting sweep keeps, <= BROADPHASE_PAIR_CACHE
}

// A grown box: position + local = the world box (min x, min y, max x, max y).
struct BroadphaseBox2D {
  local: vec4f,                                        // grown extents relative to position: min x, min y, max x, max y
  position: vec2f,                                     // the body's position, as given (f32)
  _pad: vec2f,
}

@group(0) @binding(0) var<uniform> bpParams: BroadphaseParams2D;
@group(0) @binding(1) var<storage, read> bpShapes: array<Shape2D>;
@group(0) @binding(2) var<storage, read> bpBodies: array<Body2D>;
@group(0) @binding(3) var<storage, read_write> bpBoxes: array<BroadphaseBox2D>;   // per body
@group(0) @binding(4) var<storage, read_write> bpKeys: array<u32>;       // per body: sortKeyF32(bpBounds[i].x)
@group(0) @binding(5) var<storage, read_write> bpOrder: array<u32>;      // body indices; sorted by key after the sort
@group(0) @binding(11) var<storage, read_write> bpBounds: array<vec4f>;  // per body: conservative world bounds

// The u32 whose unsigned order is the order of x: flip the sign bit of non-negatives, all bits of
// negatives. -0 is first made +0, so the two zeros tie (and keep index order), as on the host.
// Mirrored by f32SortKey in src/gpu/radixsort.ts.
fn sortKeyF32(x: f32) -> u32 {
  var b = bitcast<u32>(x);
  if (b == 0x80000000u) { b = 0u; }
  return b ^ select(0x80000000u, 0xffffffffu, (b & 0x80000000u) != 0u);
}

// The box of shape `shapeIndex` at (position, rotation), grown by radius + grow + the pads.
fn broadphaseBox2D(position: vec2f, rotation: vec2f, shapeIndex: u32, grow: f32) -> BroadphaseBox2D {
  let shape = &bpShapes[shapeIndex];
  let c = rotation.x;
  let s = rotation.y;
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
  let extent = (*shape).extent;
  let f32Steps = AABB_F32_STEPS * 0x1p-23f * (abs(position.x) + abs(position.y) + extent);
  let r = (*shape).radius + grow + AABB_RELATIVE_PAD * extent + f32Steps;
  return BroadphaseBox2D(vec4f(lo - vec2f(r), hi + vec2f(r)), position, vec2f(0.0));
}

// Conservative world bounds of a box (min x, min y, max x, max y): outside the box by more than
// any rounding. position + local rounds by at most 2^-24 of |position| + |local|, and bpOverlap's
// comparison by at most 2^-24 of the same on either side; 2^-20 covers both, and the rounding of
// the subtraction and addition here, with room to spare.
fn conservativeBounds2D(box: BroadphaseBox2D) -> vec4f {
  let p = box.position;
  let l = box.local;
  let slack = 0x1p-20f * (abs(p) + max(abs(l.xy), abs(l.zw)));
  return vec4f((p + l.xy) - slack, (p + l.zw) + slack);
}

fn bpInvocation(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * BROADPHASE_WORKGROUP_SIZE + lid;
}

// One invocation per body: its box, its sort key, and the identity order the sort starts from.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn aabb2d(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
          @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount) { return; }
  let body = bpBodies[i];
  let box = broadphaseBox2D(body.position, body.rotation, body.shape, bpParams.margin);
  let bounds = conservativeBounds2D(box);
  bpBoxes[i] = box;
  bpBounds[i] = bounds;
  bpKeys[i] = sortKeyF32(bounds.x);
  bpOrder[i] = i;
}
