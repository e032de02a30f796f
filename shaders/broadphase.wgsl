// The GPU broadphase (src/gpu/broadphase.ts), one implementation for 2D and 3D. A per-dimension
// file before it (aabb2d.wgsl, aabb3d.wgsl) binds the shapes and bodies and defines
//   fn bpBodyBox(i: u32, grow: f32) -> BroadphaseBox   the grown box of body i
//   const BP_NARROWPHASE_WORKGROUP: u32                 the narrowphase's workgroup size
// Boxes are 3D; a 2D box has z = 0 everywhere, so every comparison in z holds and the kernels
// give the 2D sweep. The stages:
//   bpAabb:     per body: its box, conservative world bounds, the sort key of its bounds' minimum
//               x, the identity order the sort starts from, and (atomic maxima: order-free) the
//               extremes bpBands needs;
//   bpBands:    rows: bands along y and z, each taller than any box (so overlapping boxes lie in the
//               same or neighbouring bands of both);
//   (a stable radix sort of (x key, body index), then bpBandKeys and a stable sort by row: the
//    bodies by (row, lo.x), ties in index order);
//   bpGather:   bpSorted[i], bpSortedBounds[i] = box and bounds of the body at sorted position i;
//   bpCount:    for each sorted position i, how many boxes overlap i's (bpSweep: the x-sweep in i's
//               row from i on, and in the neighbouring rows after it from a binary search on): bounds overlapping
//               in y and z, then the exact comparison (bpOverlap) and the shapes' collision filters
//               (bpShouldCollide); the first bpParams.pairCache
//               (<= BROADPHASE_PAIR_CACHE) of those pairs are kept, so bpWrite need not sweep
//               again; bpPairCounts[bodyCount] = 0 closes the array;
//   (an exclusive scan of the bodyCount + 1 counts: offsets, and the total at [bodyCount]);
//   bpWrite:    the pairs (min(a, b), max(a, b)) of position i at its offset, those below capacity
//               (copied from the cache, or found by sweeping again where there were more);
//   bpFinalize: the counts (the real total even when it exceeds the capacity), the narrowphase's
//               params (Params2D / Params3D: the same layout) over the written pairs, and its
//               indirect dispatch arguments;
//   bpBatch:    the same per batch of bpParams.batchPairs pairs, for a narrowphase in batches, the
//               workgroups going to the general or the specialized narrowphase kernel (BroadphaseBatch).
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

// A grown box: position + lo .. position + hi is the world box; with its shape's collision filter
// (in what would be padding), which the sort carries along.
struct BroadphaseBox {
  lo: vec3f,                                           // grown extents relative to position: minima
  categoryBits: u32,                                   // the shape's filter (src/filter.ts)
  hi: vec3f,                                           // maxima
  maskBits: u32,
  position: vec3f,                                     // the body's position, as given (f32)
}

// Conservative world bounds of a box.
struct BroadphaseBounds {
  lo: vec3f,
  band: u32,                                           // bpBand(lo): the row, set in the sorted copies (bpGather)
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
// pairs it holds of the written ones) and the indirect dispatch arguments of two kernels, the
// dimension's general narrowphase and (3D) the one compiled for boxes alone (BOXES_ONLY_3D, about
// 30% faster on lavapipe). Exactly one of them gets the workgroups: the specialized one when every
// body's shape is of its kinds (bpSpecialShape; BroadphaseExtremes.general = 0), else the general.
struct BroadphaseBatch {
  narrowphase: BroadphaseNarrowphaseParams,
  x: u32,                                              // the general kernel's dispatchWorkgroupsIndirect
  y: u32,
  z: u32,
  _pad: u32,
  specialX: u32,                                       // the specialized kernel's (all 0 when the general runs)
  specialY: u32,
  specialZ: u32,
  _pad2: u32,
}

// Extremes of the bodies' bounds, reduced with atomics while the boxes are made (order-free, so
// deterministic): u32 keys whose unsigned order is the order of the f32s (sortKeyF32; minima as
// their complement, so every field is a maximum and starts at 0).
struct BroadphaseExtremes {
  minLoY: atomic<u32>,                                 // ~sortKeyF32(min lo.y)
  maxLoY: atomic<u32>,                                 // sortKeyF32(max lo.y)
  extentY: atomic<u32>,                                // bits of max (hi.y - lo.y) (>= 0)
  extentX: atomic<u32>,                                // bits of max (hi.x - lo.x)
  minLoZ: atomic<u32>,                                 // as y
  maxLoZ: atomic<u32>,
  extentZ: atomic<u32>,
  general: atomic<u32>,                                // 1 when some body's shape needs the general narrowphase
}

// Rows (bpBands): bands along y and along z, each taller than any box, so overlapping boxes lie in
// the same or neighbouring bands of both. A row is a (y band, z band) cell, numbered
// yBand × countZ + zBand (2D: one z band); bodies are sorted by (row, lo.x), and the sweep runs
// along x within a row and into the neighbouring rows that come after it.
struct BroadphaseBands {
  origin: f32,                                         // min lo.y
  height: f32,                                         // y band height
  originZ: f32,                                        // min lo.z
  heightZ: f32,                                        // z band height
  countY: u32,                                         // y bands
  countZ: u32,                                         // z bands (1 in 2D)
  count: u32,                                          // rows: countY × countZ <= BP_MAX_BANDS
  reach: f32,                                          // >= every box's x extent (bpBandReach has it per row)
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

@group(0) @binding(16) var<storage, read_write> bpExtremes: BroadphaseExtremes;
@group(0) @binding(17) var<storage, read_write> bpBandParams: BroadphaseBands;
// Per band: bits of the largest x extent of its boxes (f32 >= 0), so that one wide box (a ground)
// widens the search of the band below it only.
@group(0) @binding(18) var<storage, read_write> bpBandReach: array<atomic<u32>>;

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
  return BroadphaseBounds((p + box.lo) - slack, 0u, (p + box.hi) + slack);
}

fn bpInvocation(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * BROADPHASE_WORKGROUP_SIZE + lid;
}

// The extremes of one workgroup's bodies (BroadphaseExtremes' fields in order), reduced in
// workgroup memory first so that a workgroup makes 8 global atomics, not 8 per body: on a GPU,
// atomics at one address from every invocation run one after another.
var<workgroup> bpGroupExtremes: array<atomic<u32>, 8>;

// One invocation per body: its box, its bounds, its sort key, and the identity order.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpAabb(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
          @builtin(local_invocation_index) lid: u32) {
  if (lid < 8u) { atomicStore(&bpGroupExtremes[lid], 0u); }
  workgroupBarrier();
  let i = bpInvocation(wid, nwg, lid);
  if (i < bpParams.bodyCount) {
    let box = bpBodyBox(i, bpParams.margin);
    let bounds = conservativeBounds(box);
    bpBoxes[i] = box;
    bpBounds[i] = bounds;
    bpKeys[i] = sortKeyF32(bounds.lo.x);
    bpOrder[i] = i;
    atomicMax(&bpGroupExtremes[0], ~sortKeyF32(bounds.lo.y));
    atomicMax(&bpGroupExtremes[1], sortKeyF32(bounds.lo.y));
    atomicMax(&bpGroupExtremes[2], bitcast<u32>(max(bounds.hi.y - bounds.lo.y, 0.0)));
    atomicMax(&bpGroupExtremes[3], bitcast<u32>(max(bounds.hi.x - bounds.lo.x, 0.0)));
    atomicMax(&bpGroupExtremes[4], ~sortKeyF32(bounds.lo.z));
    atomicMax(&bpGroupExtremes[5], sortKeyF32(bounds.lo.z));
    atomicMax(&bpGroupExtremes[6], bitcast<u32>(max(bounds.hi.z - bounds.lo.z, 0.0)));
    if (BP_SPECIAL_KERNEL && !bpSpecialShape(i)) { atomicOr(&bpGroupExtremes[7], 1u); }
  }
  workgroupBarrier();
  if (lid == 0u) {
    // Every field is a maximum starting at 0 (minima as complements), so 0 changes nothing.
    atomicMax(&bpExtremes.minLoY, atomicLoad(&bpGroupExtremes[0]));
    atomicMax(&bpExtremes.maxLoY, atomicLoad(&bpGroupExtremes[1]));
    atomicMax(&bpExtremes.extentY, atomicLoad(&bpGroupExtremes[2]));
    atomicMax(&bpExtremes.extentX, atomicLoad(&bpGroupExtremes[3]));
    atomicMax(&bpExtremes.minLoZ, atomicLoad(&bpGroupExtremes[4]));
    atomicMax(&bpExtremes.maxLoZ, atomicLoad(&bpGroupExtremes[5]));
    atomicMax(&bpExtremes.extentZ, atomicLoad(&bpGroupExtremes[6]));
    atomicMax(&bpExtremes.general, atomicLoad(&bpGroupExtremes[7]));
  }
}

// The f32 of a sortKeyF32 key.
fn sortKeyF32Inverse(k: u32) -> f32 {
  return bitcast<f32>(select(~k, k ^ 0x80000000u, (k & 0x80000000u) != 0u));
}

// The height of `bands` bands (at most) over lo from `origin` to `top`: above the tallest box by
// 2^-6 of it and at least 2^-8 of the largest |lo| (so the f32 rounding of (lo - origin) / height,
// below 2^-13, cannot put overlapping boxes two bands apart), and at least 1/(bands - 2) of the span.
fn bpBandHeight(origin: f32, top: f32, extent: f32, bands: u32) -> f32 {
  let span = max(top - origin, 0.0);
  return max(max(extent, 0x1p-8f * max(abs(origin), abs(top))), max(span / f32(bands - 2u), 0x1p-100f)) * (1.0 + 0x1p-6f);
}

// Bands along z: at most this many (so at least BP_MAX_BANDS / BP_MAX_Z_BANDS along y).
const BP_MAX_Z_BANDS: u32 = 250u;

// One invocation, after bpAabb: the rows. 2D boxes (z extent 0, all at z 0) get one z band.
@compute @workgroup_size(1)
fn bpBands() {
  let origin = sortKeyF32Inverse(~atomicLoad(&bpExtremes.minLoY));
  let top = sortKeyF32Inverse(atomicLoad(&bpExtremes.maxLoY));
  let originZ = sortKeyF32Inverse(~atomicLoad(&bpExtremes.minLoZ));
  let topZ = sortKeyF32Inverse(atomicLoad(&bpExtremes.maxLoZ));
  let extentX = bitcast<f32>(atomicLoad(&bpExtremes.extentX));
  let extentZ = bitcast<f32>(atomicLoad(&bpExtremes.extentZ));
  var countZ = 1u;
  var heightZ = 1.0;
  if (extentZ > 0.0 || topZ > originZ) {
    heightZ = bpBandHeight(originZ, topZ, extentZ, BP_MAX_Z_BANDS);
    countZ = min(u32(floor(max(topZ - originZ, 0.0) / heightZ)) + 2u, BP_MAX_Z_BANDS);
  }
  let maxY = BP_MAX_BANDS / countZ;
  let height = bpBandHeight(origin, top, bitcast<f32>(atomicLoad(&bpExtremes.extentY)), maxY);
  let countY = min(u32(floor(max(top - origin, 0.0) / height)) + 2u, maxY);
  bpBandParams = BroadphaseBands(origin, height, originZ, heightZ, countY, countZ, countY * countZ, extentX * (1.0 + 0x1p-6f));
}

// After the sort by lo.x: the key of sorted position j becomes its band, for the stable sort by band.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpBandKeys(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let j = bpInvocation(wid, nwg, lid);
  if (j >= bpParams.bodyCount) { return; }
  let bounds = bpBounds[bpOrder[j]];
  let band = bpBand(bounds.lo);
  bpKeys[j] = band;
  atomicMax(&bpBandReach[band], bitcast<u32>(max(bounds.hi.x - bounds.lo.x, 0.0)));
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpGather(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount) { return; }
  let body = bpOrder[i];
  bpSorted[i] = bpBoxes[body];
  var bounds = bpBounds[body];
  bounds.band = bpBand(bounds.lo);
  bpSortedBounds[i] = bounds;
}

// Whether the boxes overlap (closed intervals: touching boxes overlap, as on the host), compared
// through the difference of their positions: minB <= maxA  <=>  pB - pA <= hiA - loB.
// Symmetric: bpOverlap(a, b) == bpOverlap(b, a), as f32 subtraction is antisymmetric.
fn bpOverlap(a: BroadphaseBox, b: BroadphaseBox) -> bool {
  let d = b.position - a.position;
  return all(d <= a.hi - b.lo) && all(a.lo - b.hi <= d);
}

// Whether the filters of the boxes' shapes let them collide (shouldCollide in src/filter.ts).
fn bpShouldCollide(a: BroadphaseBox, b: BroadphaseBox) -> bool {
  return (a.categoryBits & b.maskBits) != 0u && (b.categoryBits & a.maskBits) != 0u;
}

// A quick rejection: conservative bounds apart in y or z (in x, the sweep order and its end take
// care: b's bounds start after a's start and before a's end).
fn bpBoundsOverlapYZ(a: BroadphaseBounds, b: BroadphaseBounds) -> bool {
  return all(b.lo.yz <= a.hi.yz) && all(a.lo.yz <= b.hi.yz);
}

// The row of bounds starting at lo: its y band and z band (bands of the heights from the origins,
// clamped to the counts: monotone, so overlapping boxes stay at most one band apart in each).
fn bpBand(lo: vec3f) -> u32 {
  let y = min(u32(max(floor((lo.y - bpBandParams.origin) / bpBandParams.height), 0.0)), bpBandParams.countY - 1u);
  let z = min(u32(max(floor((lo.z - bpBandParams.originZ) / bpBandParams.heightZ), 0.0)), bpBandParams.countZ - 1u);
  return y * bpBandParams.countZ + z;
}

// The first sorted position after i in `row` whose bounds may reach a box starting at x = loX
// (those of the row start at or after loX less the row's widest box, less its rounding), or the
// first position of a later row.
fn bpRowStart(i: u32, row: u32, loX: f32) -> u32 {
  let reach = bitcast<f32>(atomicLoad(&bpBandReach[row])) * (1.0 + 0x1p-6f);
  let t = (loX - reach) - 0x1p-20f * (abs(loX) + reach);
  var lo = i + 1u;
  var hi = bpParams.bodyCount;
  for (var s = 0u; s < 32u; s++) {
    if (lo >= hi) { break; }
    let mid = lo + (hi - lo) / 2u;
    let m = bpSortedBounds[mid];
    if (m.band < row || (m.band == row && m.lo.x < t)) { lo = mid + 1u; } else { hi = mid; }
  }
  return lo;
}

// Visits the pairs of sorted position i: in its own row the later positions up to the first whose
// bounds start past the end of i's in x (the x-sweep within a row), then in each neighbouring row
// after it the positions from the first whose bounds may reach i's in x (bpRowStart) to the first
// starting past its end. mode 0 counts them and caches the first bpParams.pairCache (bpCount); mode
// 1 writes them from pair index `at` on, below the capacity (bpWrite). Returns the count (mode 0)
// or the next pair index (mode 1). Each pair is visited from one side only: in one row from the
// earlier position, in neighbouring rows from the earlier row (the neighbours of a row that come
// after it, in (y, z) order, are exactly the four visited).
fn bpSweep(i: u32, mode: u32, at0: u32) -> u32 {
  let n = bpParams.bodyCount;
  let capacity = bpParams.capacity;
  let cache = bpParams.pairCache;
  let a = bpSorted[i];
  let boundsA = bpSortedBounds[i];
  let bodyA = bpOrder[i];
  let row = boundsA.band;
  let countZ = bpBandParams.countZ;
  let y = row / countZ;
  let z = row % countZ;
  var count = 0u;
  var at = at0;
  // Its own row, then the neighbouring rows after it: (y, z + 1), (y + 1, z - 1), (y + 1, z),
  // (y + 1, z + 1), where they exist.
  for (var side = 0u; side < 5u; side++) {
    var j = i + 1u;
    var inRow = row;
    if (side > 0u) {
      let dy = select(1u, 0u, side == 1u);
      let zz = select(z + side - 3u, z + 1u, side == 1u);    // side 2, 3, 4: z - 1, z, z + 1
      if (y + dy >= bpBandParams.countY || zz >= countZ || (side == 2u && z == 0u)) { continue; }
      inRow = (y + dy) * countZ + zz;
      j = bpRowStart(i, inRow, boundsA.lo.x);
    }
    for (; j < n; j++) {
      let boundsB = bpSortedBounds[j];
      if (boundsB.lo.x > boundsA.hi.x || boundsB.band != inRow) { break; }
      if (mode == 1u && at >= capacity) { break; }
      if (!bpBoundsOverlapYZ(boundsA, boundsB)) { continue; }
      let b = bpSorted[j];
      if (bpOverlap(a, b) && bpShouldCollide(a, b)) {
        let bodyB = bpOrder[j];
        let pair = vec2u(min(bodyA, bodyB), max(bodyA, bodyB));
        if (mode == 0u) {
          if (count < cache) { bpPairCache[i * cache + count] = pair; }
          count++;
        } else {
          bpPairs[at] = pair;
          at++;
        }
      }
    }
  }
  return select(count, at, mode == 1u);
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
  bpPairCounts[i] = bpSweep(i, 0u, 0u);
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
  bpSweep(i, 1u, at);
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
  let g = select(grid.xy, vec2u(0u), BP_SPECIAL_KERNEL && atomicLoad(&bpExtremes.general) == 0u);
  let s = grid.xy - g;
  bpBatches[b] = BroadphaseBatch(BroadphaseNarrowphaseParams(count, bpParams.margin, grid.w, 0u), g.x, g.y, 1u, 0u, s.x, s.y, 1u, 0u);
}
