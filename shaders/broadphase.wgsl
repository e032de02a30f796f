// The GPU broadphase (src/gpu/broadphase.ts), one implementation for 2D and 3D. A per-dimension
// file before it (aabb2d.wgsl, aabb3d.wgsl) binds the shapes and bodies and defines
//   fn bpBodyBox(i: u32, grow: f32) -> BroadphaseBox   the grown box of body i
//   const BP_NARROWPHASE_WORKGROUP: u32                 the narrowphase's workgroup size
// Boxes are 3D; a 2D box has z = 0 everywhere, so every comparison in z holds and the kernels
// give the 2D sweep. The stages:
//   bpAabb:     per body: its box, conservative world bounds, the sort key of its bounds' minimum
//               x, and the identity order the sort starts from;
//   (a stable radix sort of (key, body index): ties keep index order, as on the host);
//   bpGather:   bpSorted[i], bpSortedBounds[i] = box and bounds of the body at sorted position i;
//   bpCount:    for each sorted position i, how many of the bodies j > i, up to the first whose
//               bounds start past the end of i's in x, have a box overlapping i's: bounds
//               overlapping in y and z, then the exact comparison (bpOverlap); the first
//               bpParams.pairCache (<= BROADPHASE_PAIR_CACHE) of those pairs are kept, so bpWrite
//               need not sweep again; bpPairCounts[bodyCount] = 0 closes the array;
//   (an exclusive scan of the bodyCount + 1 counts: offsets, and the total at [bodyCount]);
//   bpWrite:    the pairs (min(a, b), max(a, b)) of position i at its offset, those below capacity
//               (copied from the cache, or found by sweeping again where there were more);
//   bpFinalize: the counts (the real total even when it exceeds the capacity), the narrowphase's
//               params (Params2D / Params3D: the same layout) over the written pairs, and its
//               indirect dispatch arguments;
//   bpBatch:    the same per batch of bpParams.batchPairs pairs, for a narrowphase in batches.
// Pairs come out in sweep order (by sorted position i, then j), identical from run to run.
//
// Precision. A box is kept as the body's position plus its extents relative to that position, and
// two boxes are compared through the difference of their positions (bpOverlap): positions within a
// factor of 2 of each other subtract exactly in f32 (others with an error below an f32 step of
// their distance), so the comparison is as precise as the f32 inputs (about 1e-7 of the shapes'
// size), however far from the origin the bodies are. Comparing world coordinates instead would
// round every box by an f32 step of its coordinates (0.008 at 1e5) and disagree with the host's f64
// boxes on every pair that close to touching. World bounds are kept too, for the sort, the end of
// the sweep and a quick rejection only, made conservative by a margin above their rounding (each
// bound lies outside the exact box), so they never reject a pair the exact comparison accepts.
//
// Needs BROADPHASE_WORKGROUP_SIZE and BROADPHASE_PAIR_CACHE (src/gpu/broadphase.ts).

struct BroadphaseParams {
  bodyCount: u32,
  capacity: u32,                                       // pairs the pairs buffer holds
  margin: f32,                                         // boxes grow by this (speculative distance)
  pairCache: u32,                                      // pairs per body the counting sweep keeps, <= BROADPHASE_PAIR_CACHE
  batchPairs: u32,                                     // pairs per narrowphase batch (a multiple of 256), for bpBatches
  batchCount: u32,                                     // batches: ceil(capacity / batchPairs)
  _pad0: u32,
  _pad1: u32,
}

// A grown box: position + lo .. position + hi is the world box.
struct BroadphaseBox {
  lo: vec3f,                                           // grown extents relative to position: minima
  hi: vec3f,                                           // maxima
  position: vec3f,                                     // the body's position, as given (f32)
}

// Conservative world bounds of a box.
struct BroadphaseBounds {
  lo: vec3f,
  hi: vec3f,
}

// The narrowphase's params over the written pairs: the layout of Params2D and Params3D (the host
// checks), copied into the narrowphase's uniform.
struct BroadphaseNarrowphaseParams {
  pairCount: u32,
  margin: f32,
  rowPitch: u32,                                       // invocations per dispatch row
  _pad: u32,
}

struct BroadphaseCounts {
  total: u32,                                          // pairs found (0xffffffff: more than a u32 holds)
  written: u32,                                        // pairs in the pairs buffer: min(total, capacity)
  overflow: u32,                                       // 1 when total > capacity: grow the buffer and rerun
  bodyCount: u32,
  narrowphase: BroadphaseNarrowphaseParams,            // the narrowphase's params over the written pairs
}

// The narrowphase over one batch of consecutive pairs (first = b × batchPairs): its params (the
// pairs it holds of the written ones) and its indirect dispatch arguments.
struct BroadphaseBatch {
  narrowphase: BroadphaseNarrowphaseParams,
  x: u32,
  y: u32,
  z: u32,
  _pad: u32,
}

// Arguments of dispatchWorkgroupsIndirect: the narrowphase over the written pairs,
// BP_NARROWPHASE_WORKGROUP invocations per workgroup, rows of at most 65535 workgroups.
struct DispatchIndirect {
  x: u32,
  y: u32,
  z: u32,
}

@group(0) @binding(0) var<uniform> bpParams: BroadphaseParams;
@group(0) @binding(3) var<storage, read_write> bpBoxes: array<BroadphaseBox>;      // per body
@group(0) @binding(4) var<storage, read_write> bpKeys: array<u32>;                 // per body: sortKeyF32(bpBounds[i].lo.x)
@group(0) @binding(5) var<storage, read_write> bpOrder: array<u32>;                // body indices; sorted by key after the sort
@group(0) @binding(6) var<storage, read_write> bpSorted: array<BroadphaseBox>;
@group(0) @binding(7) var<storage, read_write> bpPairCounts: array<u32>;
@group(0) @binding(8) var<storage, read_write> bpPairs: array<vec2u>;
@group(0) @binding(9) var<storage, read_write> bpCounts: BroadphaseCounts;
@group(0) @binding(10) var<storage, read_write> bpIndirect: DispatchIndirect;
@group(0) @binding(11) var<storage, read_write> bpBounds: array<BroadphaseBounds>; // per body
@group(0) @binding(12) var<storage, read_write> bpSortedBounds: array<BroadphaseBounds>;
@group(0) @binding(13) var<storage, read_write> bpPairCache: array<vec2u>;         // bpParams.pairCache per sorted position
@group(0) @binding(15) var<storage, read_write> bpBatches: array<BroadphaseBatch>;  // bpParams.batchCount

const BP_MAX_GROUPS_PER_DIMENSION: u32 = 65535u;

// The u32 whose unsigned order is the order of x: flip the sign bit of non-negatives, all bits of
// negatives. -0 is first made +0, so the two zeros tie (and keep index order), as on the host.
// Mirrored by f32SortKey in src/gpu/radixsort.ts.
fn sortKeyF32(x: f32) -> u32 {
  var b = bitcast<u32>(x);
  if (b == 0x80000000u) { b = 0u; }
  return b ^ select(0x80000000u, 0xffffffffu, (b & 0x80000000u) != 0u);
}

// Conservative world bounds of a box: outside the box by more than any rounding. position + lo
// rounds by at most 2^-24 of |position| + |lo|, and bpOverlap's comparison by at most 2^-24 of the
// same on either side; 2^-20 covers both, and the rounding of the subtraction and addition here,
// with room to spare.
fn conservativeBounds(box: BroadphaseBox) -> BroadphaseBounds {
  let p = box.position;
  let slack = 0x1p-20f * (abs(p) + max(abs(box.lo), abs(box.hi)));
  return BroadphaseBounds((p + box.lo) - slack, (p + box.hi) + slack);
}

fn bpInvocation(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * BROADPHASE_WORKGROUP_SIZE + lid;
}

// One invocation per body: its box, its bounds, its sort key, and the identity order.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpAabb(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
          @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount) { return; }
  let box = bpBodyBox(i, bpParams.margin);
  let bounds = conservativeBounds(box);
  bpBoxes[i] = box;
  bpBounds[i] = bounds;
  bpKeys[i] = sortKeyF32(bounds.lo.x);
  bpOrder[i] = i;
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpGather(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount) { return; }
  let body = bpOrder[i];
  bpSorted[i] = bpBoxes[body];
  bpSortedBounds[i] = bpBounds[body];
}

// Whether the boxes overlap (closed intervals: touching boxes overlap, as on the host), compared
// through the difference of their positions: minB <= maxA  <=>  pB - pA <= hiA - loB.
// Symmetric: bpOverlap(a, b) == bpOverlap(b, a), as f32 subtraction is antisymmetric.
fn bpOverlap(a: BroadphaseBox, b: BroadphaseBox) -> bool {
  let d = b.position - a.position;
  return all(d <= a.hi - b.lo) && all(a.lo - b.hi <= d);
}

// A quick rejection: conservative bounds apart in y or z (in x, the sweep order and its end take
// care: b's bounds start after a's start and before a's end).
fn bpBoundsOverlapYZ(a: BroadphaseBounds, b: BroadphaseBounds) -> bool {
  return all(b.lo.yz <= a.hi.yz) && all(a.lo.yz <= b.hi.yz);
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpCount(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  let n = bpParams.bodyCount;
  if (i > n) { return; }
  if (i == n) {
    bpPairCounts[n] = 0u;
    return;
  }
  let a = bpSorted[i];
  let boundsA = bpSortedBounds[i];
  let bodyA = bpOrder[i];
  let cache = bpParams.pairCache;
  var count = 0u;
  for (var j = i + 1u; j < n; j++) {
    let boundsB = bpSortedBounds[j];
    if (boundsB.lo.x > boundsA.hi.x) { break; }
    if (bpBoundsOverlapYZ(boundsA, boundsB) && bpOverlap(a, bpSorted[j])) {
      if (count < cache) {
        let bodyB = bpOrder[j];
        bpPairCache[i * cache + count] = vec2u(min(bodyA, bodyB), max(bodyA, bodyB));
      }
      count++;
    }
  }
  bpPairCounts[i] = count;
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpWrite(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  let n = bpParams.bodyCount;
  let capacity = bpParams.capacity;
  if (i >= n) { return; }
  var at = bpPairCounts[i];
  let end = bpPairCounts[i + 1u];
  if (at >= capacity || at == end) { return; }
  // Few pairs (the usual case): bpCount kept them; copy. (A saturated total makes no difference:
  // then end - at may be wrong, but at >= capacity from there on.)
  let cache = bpParams.pairCache;
  if (end - at <= cache) {
    for (var k = 0u; k < BROADPHASE_PAIR_CACHE; k++) {
      if (at >= min(end, capacity)) { break; }
      bpPairs[at] = bpPairCache[i * cache + k];
      at++;
    }
    return;
  }
  // More: sweep again.
  let a = bpSorted[i];
  let boundsA = bpSortedBounds[i];
  let bodyA = bpOrder[i];
  for (var j = i + 1u; j < n; j++) {
    let boundsB = bpSortedBounds[j];
    if (boundsB.lo.x > boundsA.hi.x || at >= capacity) { break; }
    if (bpBoundsOverlapYZ(boundsA, boundsB) && bpOverlap(a, bpSorted[j])) {
      let bodyB = bpOrder[j];
      bpPairs[at] = vec2u(min(bodyA, bodyB), max(bodyA, bodyB));
      at++;
    }
  }
}

@compute @workgroup_size(1)
fn bpFinalize() {
  let n = bpParams.bodyCount;
  let total = bpPairCounts[n];
  let written = min(total, bpParams.capacity);
  let grid = bpGrid(written);
  bpCounts = BroadphaseCounts(total, written, select(0u, 1u, total > bpParams.capacity), n,
                              BroadphaseNarrowphaseParams(written, bpParams.margin, grid.w, 0u));
  bpIndirect = DispatchIndirect(grid.x, grid.y, 1u);
}

// The narrowphase's workgroup grid for `count` pairs: x, y workgroups (rows of at most 65535) and
// the row pitch in invocations (w).
fn bpGrid(count: u32) -> vec4u {
  let groups = count / BP_NARROWPHASE_WORKGROUP + select(0u, 1u, count % BP_NARROWPHASE_WORKGROUP != 0u);
  let x = min(groups, BP_MAX_GROUPS_PER_DIMENSION);
  var y = 1u;
  if (x > 0u) { y = groups / x + select(0u, 1u, groups % x != 0u); }
  return vec4u(x, y, 1u, max(x, 1u) * BP_NARROWPHASE_WORKGROUP);
}

// After bpFinalize, one invocation per batch: the narrowphase's params and dispatch over the
// written pairs of batch b.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpBatch(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let b = bpInvocation(wid, nwg, lid);
  if (b >= bpParams.batchCount) { return; }
  let first = b * bpParams.batchPairs;
  let written = bpCounts.written;
  var count = 0u;
  if (written > first) { count = min(written - first, bpParams.batchPairs); }
  let grid = bpGrid(count);
  bpBatches[b] = BroadphaseBatch(BroadphaseNarrowphaseParams(count, bpParams.margin, grid.w, 0u), grid.x, grid.y, 1u, 0u);
}
