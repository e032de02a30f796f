// The GPU broadphase (src/gpu/broadphase.ts), one implementation for 2D and 3D. A per-dimension
// file before it (aabb2d.wgsl, aabb3d.wgsl) binds the shapes and bodies and defines
//   fn bpBodyBox(i: u32, grow: f32) -> BroadphaseBox   the grown box of body i
//   fn bpBodyExtent(i: u32) -> f32                      its shape's size, for the fat margin
//   const BP_AXES: vec3f                                 1 on the dimension's axes (2D: z 0)
//   const BP_NARROWPHASE_WORKGROUP: u32                 the narrowphase's workgroup size
// Boxes are 3D; a 2D box has z = 0 everywhere, so every comparison in z holds and the kernels give
// the 2D sweep.
//
// Fat boxes, as Box2D's enlarged AABBs: each body keeps a box grown by bpParams.fatMargin × its
// shape's extent beyond its tight box (which the speculative margin and pads already grow). While
// the tight box stays inside the fat one, the body's pairs stand; the pairs are those of
// overlapping fat boxes. A frame runs in one of two modes, chosen on the GPU (bpPlan):
//   update   few bodies left their fat boxes: last frame's pairs between bodies that did not move
//            are kept as they are, and each moved body finds its pairs again: against the sorted
//            structure of the last rebuild (its bodies that have not moved since: "fresh"), and
//            against the short list of bodies that have ("stale"), by brute force. A frame where no
//            body moved copies last frame's list;
//   rebuild  the first frame, or too many stale bodies: every body sorted by (row, lo.x) as the
//            host's sweep and prune does, and a sweep finds every pair once.
// Either way the pairs come out grouped by their first body (a < b) with per-body offsets from a
// scan of per-body counts (placed with atomics, then each group sorted by b): the list is in
// (bodyA, bodyB) order by construction, so no later stage sorts it, and it is identical from run
// to run. Each pair also finds its slot in last frame's list (bpPrevSlot: a bisection of last
// frame's group of its first body), which later stages use to carry data between frames.
//
// The kernels, in order (those of the other mode, or with nothing to do in this frame, return at
// once, on plain words bpPlan wrote: a direct dispatch over the bodies costs a GPU less than an
// indirect one, which WebGPU implementations validate with a dispatch of their own):
//   bpAabb:        per body: its tight box; whether it left its fat box (then a new fat box, the
//                  body marked moved and stale, and listed); bpAabbExtremes, in a recording with
//                  the rebuild's sorts, also the extremes of the fat bounds (for rows);
//   bpPlan:        the mode, the count the rebuild's radix sorts sort, what the list does this
//                  frame (new, unchanged or held) and the moved bodies the update takes;
//   rebuild:       bpSortKeys (and the rows' reach cleared), a radix sort by lo.x, bpBands,
//                  bpBandKeys, a sort by row, bpGather: the structure (bodies by (row, lo.x),
//                  with their boxes);
//   bpKeptCounts:  per body a, update: last frame's partners b > a kept (neither moved); rebuild: 0;
//   bpSweepCount / bpMovedCount: the new pairs, each counted in its first body's group
//                  (atomicAdd: the count is order-free) and cached per finder;
//   (an exclusive scan of the bodyCount + 1 counts: the groups' offsets, the total at [bodyCount]);
//   bpWriteKept, bpSweepWrite / bpMovedWrite: the pairs into their groups (kept ones first, in
//                  order; new ones at atomic positions within their group);
//   bpSortGroups:  per body, its group sorted by b (insertion sort, heapsort for long groups);
//   bpFinalize:    the counts, the narrowphase's params and the per-pair indirect dispatch;
//   bpPrevSlots:   per pair, its slot in last frame's list, or BP_NONE (none dispatched when its
//                  buffers hold that already: bpListHeld);
//   bpBatch:       per batch of bpParams.batchPairs pairs: the narrowphase's params and dispatch;
//                  invocation 0 commits the lasting state (bpCommit) first.
// A held-only recording (bpParams.heldOnly: held or deferred, never updated) runs bpAabb and then
// bpPlanHeld alone: bpPlan, bpFinalize, bpCommit and every batch's bpBatch in one invocation.
//
// Precision. A box is kept as a position plus extents relative to it, and two boxes are compared
// through the difference of their positions (bpOverlap): positions within a factor of 2 of each
// other subtract exactly in f32 (others with an error below an f32 step of their distance), so
// the comparison is as precise as the f32 inputs, however far from the origin the bodies are.
// World bounds are kept too, for the sort, the end of the sweep and a quick rejection only, made
// conservative by a margin above their rounding, so they never reject a pair the exact comparison
// accepts.
//
// Needs BROADPHASE_WORKGROUP_SIZE and BP_MAX_BANDS (src/gpu/broadphase.ts). The bisections, the
// sift-down and the copy of cached pairs loop to bounds read at run time (the interval, the
// count), not to a constant: a compiler unrolls a constant count of iterations (lavapipe's up to
// 32), and those copies, inlined into the sweeps, made their code many times longer
// (docs/frame.md).

struct BroadphaseParams {
  bodyCount: u32,
  capacity: u32,                                       // pairs the pairs buffer holds
  margin: f32,                                         // boxes grow by this (speculative distance)
  pairCache: u32,                                      // pairs per finder the counting pass keeps, <= BROADPHASE_PAIR_CACHE (src/constants.ts)
  batchPairs: u32,                                     // pairs per narrowphase batch (a multiple of 256), for bpBatches
  batchCount: u32,                                     // batches: ceil(capacity / batchPairs)
  fatMargin: f32,                                      // fat boxes grow by this × the shape's extent
  staleCapacity: u32,                                  // stale bodies an update may carry; more: rebuild
  refit: u32,                                          // 1: every body takes a new fat box (first frame, bodies replaced): rebuild
  rebuild: u32,                                        // 1: rebuild whatever moved (new body count, retry after an overflow)
  prevBodyCount: u32,                                  // bodies of last frame's list (0: none to read)
  fatBodyCount: u32,                                   // bodies whose fat boxes are kept (0: refit all)
  remapped: u32,                                       // 1: bodies were renumbered since last frame (bpRemap)
  sorts: u32,                                          // 1: the recording holds the rebuild's sorts; 0: a rebuild is deferred
  discardCut: u32,                                     // 1: an overflowing frame hands on no pairs and commits nothing
  listHeld: u32,                                       // 1: the pairs and prevSlot buffers are those last frame read and wrote (bpListHeld)
  heldOnly: u32,                                       // 1: the recording holds a held frame's kernels alone (BroadphaseInputs.expectHeld)
}

// A grown box: position + lo .. position + hi is the world box; with its shape's collision filter
// and index (in what would be padding), which the sort carries along.
struct BroadphaseBox {
  lo: vec3f,                                           // grown extents relative to position: minima
  categoryBits: u32,                                   // the shape's filter (src/filter.ts)
  hi: vec3f,                                           // maxima
  maskBits: u32,
  position: vec3f,                                     // the body's position when the box was made (f32)
  shape: u32,                                          // the body's shape then (another shape: a new fat box)
}

// Conservative world bounds of a box.
struct BroadphaseBounds {
  lo: vec3f,
  tag: u32,                                            // per body: BP_MOVED | BP_STALE; sorted copies: the row
  hi: vec3f,
}

// A body's fat box and its bounds (per body, lasting), or a sorted copy (bpSorted).
struct BroadphaseFat {
  box: BroadphaseBox,
  bounds: BroadphaseBounds,
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
  written: u32,                                        // pairs in the pairs buffer: min(total, capacity); 0 when discarded
  overflow: u32,                                       // 1 when total > capacity: grow the buffer and rerun
  bodyCount: u32,
  narrowphase: BroadphaseNarrowphaseParams,            // the narrowphase's params over the written pairs
  mode: u32,                                           // BP_MODE_UPDATE, BP_MODE_REBUILD or BP_MODE_DEFERRED
  moved: u32,                                          // bodies that left their fat boxes this frame
  stale: u32,                                          // bodies moved since the last rebuild (after this frame)
  _pad: u32,
}

// The narrowphase over one batch of consecutive pairs (first = b × batchPairs): its params (the
// pairs it holds of the written ones) and its indirect dispatch arguments; the later per-slot
// stages (reuse, work list, contact list) dispatch over the same grids.
struct BroadphaseBatch {
  narrowphase: BroadphaseNarrowphaseParams,
  x: u32,                                              // dispatchWorkgroupsIndirect over the batch's pairs
  y: u32,
  z: u32,
  _pad: u32,
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
  reach: f32,                                          // >= every box's x extent (BroadphaseState.reach has it per row)
}

// Arguments of dispatchWorkgroupsIndirect.
struct DispatchIndirect {
  x: u32,
  y: u32,
  z: u32,
}

// The broadphase's own indirect dispatch, written by bpFinalize: the per-pair kernel's (the pair
// count may lie far below the capacity; the per-body kernels are dispatched directly).
struct BroadphaseDispatches {
  prevSlots: DispatchIndirect,                         // per written pair
}

// What lasts from frame to frame, this frame's tallies, and the rows. The host clears `moved` to
// `extentZ` before each frame. Extremes of the fat bounds are reduced with atomics (order-free, so
// deterministic) as u32 keys whose unsigned order is that of the f32s (sortKeyF32; minima as their
// complement, so every field is a maximum and starts at 0).
struct BroadphaseState {
  moved: atomic<u32>,                                  // bodies listed in the moved list this frame
  minLoY: atomic<u32>,                                 // ~sortKeyF32(min lo.y)
  maxLoY: atomic<u32>,                                 // sortKeyF32(max lo.y)
  extentY: atomic<u32>,                                // bits of max (hi.y - lo.y) (>= 0)
  extentX: atomic<u32>,                                // bits of max (hi.x - lo.x)
  minLoZ: atomic<u32>,                                 // as y
  maxLoZ: atomic<u32>,
  extentZ: atomic<u32>,
  stale: atomic<u32>,                                  // bodies in the stale list since the last rebuild
  mode: u32,
  sortCount: u32,                                      // bodies the rebuild's radix sorts sort: bodyCount, or 0
  prevWritten: u32,                                    // pairs of last frame's list
  prevOverflow: u32,                                   // last frame's list was cut short: rebuild
  prevUnchanged: u32,                                  // 1: last frame committed a list equal to the one before it
  // bpPlan's, for the kernels after it: plain words every invocation may read (an atomic load of
  // `moved` by every invocation is a contended atomic on a GPU).
  list: u32,                                           // BP_LIST_*: this frame's list
  updateMoved: u32,                                    // moved bodies the update takes: moved, or 0 in a rebuild
  groupCounts: u32,                                    // the groups' scan's length: bodyCount + 1, or 0 when they are held
  _pad2: u32,
  bands: BroadphaseBands,                              // the rows of the last rebuild
  // Per row: bits of the largest x extent of its boxes (f32 >= 0), so that one wide box (a
  // ground) widens the search of its own row only.
  reach: array<atomic<u32>>,
}

const BP_MODE_UPDATE: u32 = 0u;
const BP_MODE_REBUILD: u32 = 1u;
// A rebuild was needed and the recording holds no sorts: nothing found, nothing committed; the
// host records the frame again (a retry, which rebuilds).
const BP_MODE_DEFERRED: u32 = 2u;
const BP_NONE: u32 = 0xffffffffu;
// BroadphaseBounds.tag of a body: left its fat box this frame; left it since the last rebuild
// (its entry in the sorted structure is out of date).
const BP_MOVED: u32 = 1u;
const BP_STALE: u32 = 2u;
// BroadphaseState.list: a list found anew (a rebuild, or an update that moved bodies); last
// frame's list, pair for pair (bpListUnchanged); that, in buffers that hold it already (bpListHeld).
const BP_LIST_NEW: u32 = 0u;
const BP_LIST_UNCHANGED: u32 = 1u;
const BP_LIST_HELD: u32 = 2u;

// Every kernel binds at most 8 storage buffers (WebGPU's default limit): lasting per-body data
// is one struct array, the state one struct, the moved and stale lists one array, group counts and
// fill counts one array, and each finder's count and cached pairs one array.
@group(0) @binding(0) var<uniform> bpParams: BroadphaseParams;
@group(0) @binding(3) var<storage, read_write> bpFat: array<BroadphaseFat>;         // per body, lasting
@group(0) @binding(4) var<storage, read_write> bpKeys: array<u32>;                 // sort keys (rebuild)
@group(0) @binding(5) var<storage, read_write> bpOrder: array<u32>;                // sorted position -> body (lasting)
@group(0) @binding(6) var<storage, read_write> bpSorted: array<BroadphaseFat>;     // by sorted position (lasting)
// Per body + 1: counts, then (scanned) offsets of the groups; then per body the pairs placed.
@group(0) @binding(7) var<storage, read_write> bpGroups: array<atomic<u32>>;
@group(0) @binding(8) var<storage, read_write> bpPairs: array<vec2u>;              // this frame's list
@group(0) @binding(9) var<storage, read_write> bpCounts: BroadphaseCounts;
@group(0) @binding(10) var<storage, read_write> bpIndirect: DispatchIndirect;
// Per finder (a sorted position, or an entry of the moved list): x its pair count; then
// bpParams.pairCache cached pairs per finder.
@group(0) @binding(13) var<storage, read_write> bpFinders: array<vec2u>;
@group(0) @binding(15) var<storage, read_write> bpBatches: array<BroadphaseBatch>;  // bpParams.batchCount
@group(0) @binding(19) var<storage, read_write> bpState: BroadphaseState;          // lasting
// The moved list (this frame), then the stale list (lasting): staleCapacity each.
@group(0) @binding(21) var<storage, read_write> bpLists: array<u32>;
@group(0) @binding(24) var<storage, read> bpPrevPairs: array<vec2u>;              // last frame's list
@group(0) @binding(25) var<storage, read> bpPrevGroups: array<u32>;               // its groups' offsets
@group(0) @binding(26) var<storage, read_write> bpPrevSlot: array<u32>;           // per pair: its slot last frame
// Per body: its index in last frame's list when bodies were renumbered (bpParams.remapped), or BP_NONE.
@group(0) @binding(28) var<storage, read> bpRemap: array<u32>;
// Apart from the state: a buffer may not be an indirect argument and writable storage in one dispatch.
@group(0) @binding(27) var<storage, read_write> bpDispatch: BroadphaseDispatches;

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

// Whether `inner` (a box at another position) lies inside `outer`, through the difference of
// their positions as bpOverlap compares.
fn bpContains(outer: BroadphaseBox, inner: BroadphaseBox) -> bool {
  let d = inner.position - outer.position;
  return all(outer.lo <= d + inner.lo) && all(d + inner.hi <= outer.hi);
}

// Body i's tight box against its fat box; a new fat box when it left it (or its shape changed,
// or bpParams.refit), the body then marked moved and stale and listed.
fn bpAabbBody(i: u32) {
  let tight = bpBodyBox(i, bpParams.margin);
  var fat = bpFat[i].box;
  // A body new to the frame (or every body, on a refit) has no fat box yet.
  let fresh = i >= bpParams.fatBodyCount;
  let tag = bpFat[i].bounds.tag;
  var flags = select(tag & BP_STALE, 0u, fresh);
  let renewed = fresh || fat.shape != tight.shape || !bpContains(fat, tight);
  // A recording of a held frame alone defers the frame if a body left its box (bpPlan), so it
  // counts the body and changes nothing: the frame recorded again finds it moved.
  if (renewed && bpParams.heldOnly != 0u) {
    atomicAdd(&bpState.moved, 1u);
    return;
  }
  if (renewed) {
    let grow = bpParams.fatMargin * bpBodyExtent(i) * BP_AXES;
    fat = tight;
    fat.lo -= grow;
    fat.hi += grow;
    bpFat[i] = BroadphaseFat(fat, conservativeBounds(fat));
    let m = atomicAdd(&bpState.moved, 1u);
    if (m < bpParams.staleCapacity) { bpLists[m] = i; }
    if ((flags & BP_STALE) == 0u) {
      let s = atomicAdd(&bpState.stale, 1u);
      if (s < bpParams.staleCapacity) { bpLists[bpParams.staleCapacity + s] = i; }
    }
    flags = BP_MOVED | BP_STALE;
  }
  // A body that stays in its box keeps its tag most frames: no store then.
  if (renewed || flags != tag) { bpFat[i].bounds.tag = flags; }
}

// One invocation per body (bpAabbBody), in a recording without the rebuild's sorts: no extremes,
// so no workgroup memory and no barrier (a SIMD adapter compiles a barrier into the whole kernel).
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpAabb(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
          @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i < bpParams.bodyCount) { bpAabbBody(i); }
}

// The extremes of one workgroup's fat bounds (BroadphaseExtremes' fields in order), reduced in
// workgroup memory first: on a GPU, atomics at one address from every invocation run one after
// another.
var<workgroup> bpGroupExtremes: array<atomic<u32>, 7>;

// bpAabb in a recording with the rebuild's sorts: also the extremes of the fat bounds, which size
// a rebuild's rows (bpBands).
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpAabbExtremes(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  if (lid < 7u) { atomicStore(&bpGroupExtremes[lid], 0u); }
  workgroupBarrier();
  let i = bpInvocation(wid, nwg, lid);
  if (i < bpParams.bodyCount) {
    bpAabbBody(i);
    let bounds = bpFat[i].bounds;
    atomicMax(&bpGroupExtremes[0], ~sortKeyF32(bounds.lo.y));
    atomicMax(&bpGroupExtremes[1], sortKeyF32(bounds.lo.y));
    atomicMax(&bpGroupExtremes[2], bitcast<u32>(max(bounds.hi.y - bounds.lo.y, 0.0)));
    atomicMax(&bpGroupExtremes[3], bitcast<u32>(max(bounds.hi.x - bounds.lo.x, 0.0)));
    atomicMax(&bpGroupExtremes[4], ~sortKeyF32(bounds.lo.z));
    atomicMax(&bpGroupExtremes[5], sortKeyF32(bounds.lo.z));
    atomicMax(&bpGroupExtremes[6], bitcast<u32>(max(bounds.hi.z - bounds.lo.z, 0.0)));
  }
  workgroupBarrier();
  if (lid == 0u) {
    // Every field is a maximum starting at 0 (minima as complements), so 0 changes nothing.
    atomicMax(&bpState.minLoY, atomicLoad(&bpGroupExtremes[0]));
    atomicMax(&bpState.maxLoY, atomicLoad(&bpGroupExtremes[1]));
    atomicMax(&bpState.extentY, atomicLoad(&bpGroupExtremes[2]));
    atomicMax(&bpState.extentX, atomicLoad(&bpGroupExtremes[3]));
    atomicMax(&bpState.minLoZ, atomicLoad(&bpGroupExtremes[4]));
    atomicMax(&bpState.maxLoZ, atomicLoad(&bpGroupExtremes[5]));
    atomicMax(&bpState.extentZ, atomicLoad(&bpGroupExtremes[6]));
  }
}

// Workgroups for `count` invocations of BROADPHASE_WORKGROUP_SIZE, as rows (dispatchRows).
fn bpRows(count: u32) -> DispatchIndirect {
  return bpGroupRows((count + BROADPHASE_WORKGROUP_SIZE - 1u) / BROADPHASE_WORKGROUP_SIZE);
}

// `groups` workgroups as rows of at most BP_MAX_GROUPS_PER_DIMENSION.
fn bpGroupRows(groups: u32) -> DispatchIndirect {
  let x = min(groups, BP_MAX_GROUPS_PER_DIMENSION);
  var y = 0u;
  if (x > 0u) { y = (groups + x - 1u) / x; }
  return DispatchIndirect(x, y, 1u);
}

// One invocation: the mode, the count the rebuild's sorts sort (0 in an update: their blocks then
// count and move nothing), and what the later kernels read of this frame (list, updateMoved,
// groupCounts: the groups' scan takes its length from it).
@compute @workgroup_size(1)
fn bpPlan() {
  bpPlanFrame();
}

fn bpPlanFrame() {
  let n = bpParams.bodyCount;
  let moved = atomicLoad(&bpState.moved);
  let stale = atomicLoad(&bpState.stale);
  let rebuild = bpParams.rebuild != 0u || bpParams.refit != 0u || bpState.prevOverflow != 0u ||
                moved > bpParams.staleCapacity || stale > bpParams.staleCapacity;
  if (rebuild && bpParams.sorts == 0u) {
    bpState.mode = BP_MODE_DEFERRED;
    bpState.sortCount = 0u;
  } else if (rebuild) {
    bpState.mode = BP_MODE_REBUILD;
    bpState.sortCount = n;
    atomicStore(&bpState.stale, 0u);
  } else {
    bpState.mode = BP_MODE_UPDATE;
    bpState.sortCount = 0u;
  }
  // An update in which no body left its fat box, over last frame's bodies in their order: the
  // list is last frame's, pair for pair (a truncated list made this frame a rebuild). Held: this
  // frame's buffers (the list, its groups and prevSlot) are those last frame read and wrote, and
  // last frame's list was unchanged too, so they hold this list already.
  let updating = bpUpdating();
  let unchanged = updating && moved == 0u && bpParams.prevBodyCount == n && bpParams.remapped == 0u;
  let held = unchanged && bpState.prevUnchanged != 0u && bpParams.listHeld != 0u;
  bpState.list = select(select(BP_LIST_NEW, BP_LIST_UNCHANGED, unchanged), BP_LIST_HELD, held);
  bpState.updateMoved = select(0u, moved, updating);
  bpState.groupCounts = select(n + 1u, 0u, held);
  // A recording of a held frame's kernels alone (heldOnly) for a frame that is not held: deferred,
  // as a rebuild without sorts is (no pairs, nothing committed; the host records it again).
  if (bpParams.heldOnly != 0u && !held) {
    bpState.mode = BP_MODE_DEFERRED;
    bpState.list = BP_LIST_NEW;
    bpState.updateMoved = 0u;
    bpState.groupCounts = 0u;
  }
}

fn bpRebuilding() -> bool {
  return bpState.mode == BP_MODE_REBUILD;
}

fn bpUpdating() -> bool {
  return bpState.mode == BP_MODE_UPDATE;
}

// After bpPlan: the list is last frame's, pair for pair. The kernels below then count each
// group's size, sort nothing, and copy each pair to its own index (bpPrevSlots: nothing between
// bpWriteKept and it reads the list), or, held, leave the groups and the list as they are.
fn bpListUnchanged() -> bool {
  return bpState.list != BP_LIST_NEW;
}

// Rebuild, per body: the x sort's key and the identity order it starts from; no body is stale
// once the structure is rebuilt. The dispatch's invocations also clear every row's reach (for
// bpBandKeys' maxima), striding over the rows.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpSortKeys(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  if (!bpRebuilding()) { return; }
  let i = bpInvocation(wid, nwg, lid);
  let stride = nwg.x * nwg.y * BROADPHASE_WORKGROUP_SIZE;
  for (var r = i; r < arrayLength(&bpState.reach); r += stride) {
    atomicStore(&bpState.reach[r], 0u);
  }
  if (i >= bpParams.bodyCount) { return; }
  bpKeys[i] = sortKeyF32(bpFat[i].bounds.lo.x);
  bpOrder[i] = i;
  bpFat[i].bounds.tag &= ~BP_STALE;
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

// One invocation, rebuild only: the rows. 2D boxes (z extent 0, all at z 0) get one z band.
@compute @workgroup_size(1)
fn bpBands() {
  if (!bpRebuilding()) { return; }
  let origin = sortKeyF32Inverse(~atomicLoad(&bpState.minLoY));
  let top = sortKeyF32Inverse(atomicLoad(&bpState.maxLoY));
  let originZ = sortKeyF32Inverse(~atomicLoad(&bpState.minLoZ));
  let topZ = sortKeyF32Inverse(atomicLoad(&bpState.maxLoZ));
  let extentX = bitcast<f32>(atomicLoad(&bpState.extentX));
  let extentZ = bitcast<f32>(atomicLoad(&bpState.extentZ));
  var countZ = 1u;
  var heightZ = 1.0;
  if (extentZ > 0.0 || topZ > originZ) {
    heightZ = bpBandHeight(originZ, topZ, extentZ, BP_MAX_Z_BANDS);
    countZ = min(u32(floor(max(topZ - originZ, 0.0) / heightZ)) + 2u, BP_MAX_Z_BANDS);
  }
  let maxY = BP_MAX_BANDS / countZ;
  let height = bpBandHeight(origin, top, bitcast<f32>(atomicLoad(&bpState.extentY)), maxY);
  let countY = min(u32(floor(max(top - origin, 0.0) / height)) + 2u, maxY);
  bpState.bands = BroadphaseBands(origin, height, originZ, heightZ, countY, countZ, countY * countZ, extentX * (1.0 + 0x1p-6f));
}

// After the sort by lo.x: the key of sorted position j becomes its row, for the stable sort by row.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpBandKeys(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let j = bpInvocation(wid, nwg, lid);
  if (j >= bpParams.bodyCount || !bpRebuilding()) { return; }
  let bounds = bpFat[bpOrder[j]].bounds;
  let band = bpBand(bounds.lo);
  bpKeys[j] = band;
  atomicMax(&bpState.reach[band], bitcast<u32>(max(bounds.hi.x - bounds.lo.x, 0.0)));
}

// After the sort by row: the structure, each entry's row read back from its sort key (computed
// once, in bpBandKeys: the sweep's rows and the sort's order cannot disagree).
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpGather(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount || !bpRebuilding()) { return; }
  var sorted = bpFat[bpOrder[i]];
  sorted.bounds.tag = bpKeys[i];
  bpSorted[i] = sorted;
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

// A quick rejection: conservative bounds apart in y or z.
fn bpBoundsOverlapYZ(a: BroadphaseBounds, b: BroadphaseBounds) -> bool {
  return all(b.lo.yz <= a.hi.yz) && all(a.lo.yz <= b.hi.yz);
}

// The y and z bands of a point (bands of the heights from the origins, clamped to the counts:
// monotone, so overlapping boxes stay at most one band apart in each).
fn bpBandYZ(lo: vec3f) -> vec2u {
  let y = min(u32(max(floor((lo.y - bpState.bands.origin) / bpState.bands.height), 0.0)), bpState.bands.countY - 1u);
  let z = min(u32(max(floor((lo.z - bpState.bands.originZ) / bpState.bands.heightZ), 0.0)), bpState.bands.countZ - 1u);
  return vec2u(y, z);
}

// The row of bounds starting at lo.
fn bpBand(lo: vec3f) -> u32 {
  let b = bpBandYZ(lo);
  return b.x * bpState.bands.countZ + b.y;
}

// The first sorted position from `start` on in `row` whose bounds may reach a box starting at
// x = loX (those of the row start at or after loX less the row's widest box, less its rounding),
// or the first position of a later row.
fn bpRowStart(start: u32, row: u32, loX: f32) -> u32 {
  let reach = bitcast<f32>(atomicLoad(&bpState.reach[row])) * (1.0 + 0x1p-6f);
  let t = (loX - reach) - 0x1p-20f * (abs(loX) + reach);
  var lo = start;
  var hi = bpParams.bodyCount;
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    let m = bpSorted[mid].bounds;
    if (m.tag < row || (m.tag == row && m.lo.x < t)) { lo = mid + 1u; } else { hi = mid; }
  }
  return lo;
}

// A pair found by finder f (a sorted position, or an entry of the moved list): counted in its
// group (mode 0, with the first bpParams.pairCache cached) or placed in it (mode 1). Returns the
// finder's running count.
fn bpFound(f: u32, pair: vec2u, mode: u32, count: u32) -> u32 {
  if (mode == 0u) {
    atomicAdd(&bpGroups[pair.x], 1u);
    if (count < bpParams.pairCache) { bpFinders[bpCacheSlot(f, count)] = pair; }
  } else {
    bpPlace(pair);
  }
  return count + 1u;
}

// Where bpGroups keeps the count of pairs placed in body a's group.
fn bpFillSlot(a: u32) -> u32 {
  return bpParams.bodyCount + 1u + a;
}

// Where bpFinders keeps finder f's k-th cached pair: after one count per finder.
fn bpCacheSlot(f: u32, k: u32) -> u32 {
  return max(bpParams.bodyCount, bpParams.staleCapacity) + f * bpParams.pairCache + k;
}

// Writes a new pair at the next free place of its group (below the capacity).
fn bpPlace(pair: vec2u) {
  let slot = atomicLoad(&bpGroups[pair.x]) + atomicAdd(&bpGroups[bpFillSlot(pair.x)], 1u);
  if (slot < bpParams.capacity) { bpPairs[slot] = pair; }
}

// Rebuild: visits the pairs of sorted position i: in its own row the later positions up to the
// first whose bounds start past the end of i's in x, then in each neighbouring row after it the
// positions from the first whose bounds may reach i's (bpRowStart) to the first starting past its
// end. Each pair is visited from one side only: in one row from the earlier position, in
// neighbouring rows from the earlier row (the neighbours of a row that come after it, in (y, z)
// order, are exactly the four visited).
fn bpSweep(i: u32, mode: u32) -> u32 {
  let n = bpParams.bodyCount;
  let a = bpSorted[i].box;
  let boundsA = bpSorted[i].bounds;
  let bodyA = bpOrder[i];
  let row = boundsA.tag;
  let countZ = bpState.bands.countZ;
  let y = row / countZ;
  let z = row % countZ;
  var count = 0u;
  // Its own row, then (y, z + 1), (y + 1, z - 1), (y + 1, z), (y + 1, z + 1), where they exist.
  for (var side = 0u; side < 5u; side++) {
    var j = i + 1u;
    var inRow = row;
    if (side > 0u) {
      let dy = select(1u, 0u, side == 1u);
      let zz = select(z + side - 3u, z + 1u, side == 1u);    // side 2, 3, 4: z - 1, z, z + 1
      if (y + dy >= bpState.bands.countY || zz >= countZ || (side == 2u && z == 0u)) { continue; }
      inRow = (y + dy) * countZ + zz;
      j = bpRowStart(i + 1u, inRow, boundsA.lo.x);
    }
    for (; j < n; j++) {
      let boundsB = bpSorted[j].bounds;
      if (boundsB.lo.x > boundsA.hi.x || boundsB.tag != inRow) { break; }
      if (!bpBoundsOverlapYZ(boundsA, boundsB)) { continue; }
      let b = bpSorted[j].box;
      if (bpOverlap(a, b) && bpShouldCollide(a, b)) {
        let bodyB = bpOrder[j];
        count = bpFound(i, vec2u(min(bodyA, bodyB), max(bodyA, bodyB)), mode, count);
      }
    }
  }
  return count;
}

// Update: the pairs of moved body m (the t-th of the moved list): with fresh bodies through the
// structure (every row its fat box may reach: its box may be taller than the rows, which are
// taller than every fresh box), and with stale bodies by brute force; a pair of two moved bodies
// once, from the first of them.
fn bpMovedSweep(t: u32, mode: u32) -> u32 {
  let m = bpLists[t];
  let a = bpFat[m].box;
  let boundsA = bpFat[m].bounds;
  let n = bpParams.bodyCount;
  var count = 0u;
  let lo = bpBandYZ(boundsA.lo);
  let hi = bpBandYZ(boundsA.hi);
  let countZ = bpState.bands.countZ;
  for (var y = max(lo.x, 1u) - 1u; y <= hi.x; y++) {
    for (var z = max(lo.y, 1u) - 1u; z <= hi.y; z++) {
      let row = y * countZ + z;
      for (var j = bpRowStart(0u, row, boundsA.lo.x); j < n; j++) {
        let boundsB = bpSorted[j].bounds;
        if (boundsB.lo.x > boundsA.hi.x || boundsB.tag != row) { break; }
        let body = bpOrder[j];
        if ((bpFat[body].bounds.tag & BP_STALE) != 0u || !bpBoundsOverlapYZ(boundsA, boundsB)) { continue; }
        let b = bpSorted[j].box;
        if (bpOverlap(a, b) && bpShouldCollide(a, b)) {
          count = bpFound(t, vec2u(min(m, body), max(m, body)), mode, count);
        }
      }
    }
  }
  let stale = min(atomicLoad(&bpState.stale), bpParams.staleCapacity);
  for (var s = 0u; s < stale; s++) {
    let body = bpLists[bpParams.staleCapacity + s];
    if (body == m || ((bpFat[body].bounds.tag & BP_MOVED) != 0u && body < m)) { continue; }
    let b = bpFat[body].box;
    if (bpOverlap(a, b) && bpShouldCollide(a, b)) {
      count = bpFound(t, vec2u(min(m, body), max(m, body)), mode, count);
    }
  }
  return count;
}

// Per body a (and a = bodyCount, which closes the array): the pairs of its group kept from last
// frame (update: partners that did not move, when a did not; rebuild: none).
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpKeptCounts(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let a = bpInvocation(wid, nwg, lid);
  let n = bpParams.bodyCount;
  if (a > n || bpListHeld()) { return; }
  var kept = 0u;
  if (a < n && bpListUnchanged()) {
    let range = bpPrevGroup(a);
    kept = range.y - range.x;
  } else if (a < n && bpUpdating() && (bpFat[a].bounds.tag & BP_MOVED) == 0u) {
    let range = bpPrevGroup(a);
    for (var k = range.x; k < range.y; k++) {
      if ((bpFat[bpPrevPairs[k].y].bounds.tag & BP_MOVED) == 0u) { kept++; }
    }
  }
  atomicStore(&bpGroups[a], kept);
  if (a < n) { atomicStore(&bpGroups[bpFillSlot(a)], kept); }
}

// Last frame's pairs of body a: slots range.x .. range.y (empty for a body it did not have).
fn bpPrevGroup(a: u32) -> vec2u {
  if (a >= bpParams.prevBodyCount) { return vec2u(0u); }
  let end = bpState.prevWritten;
  return vec2u(min(bpPrevGroups[a], end), min(bpPrevGroups[a + 1u], end));
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpSweepCount(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount || !bpRebuilding()) { return; }
  bpFinders[i].x = bpSweep(i, 0u);
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpMovedCount(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let t = bpInvocation(wid, nwg, lid);
  if (t >= bpState.updateMoved) { return; }
  bpFinders[t].x = bpMovedSweep(t, 0u);
}

// Update, per body a: its kept pairs, in last frame's order, at the front of its group.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpWriteKept(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let a = bpInvocation(wid, nwg, lid);
  // An unchanged list is copied pair by pair in bpPrevSlots (one invocation a pair).
  if (a >= bpParams.bodyCount || !bpUpdating() || bpListUnchanged() ||
      (bpFat[a].bounds.tag & BP_MOVED) != 0u) { return; }
  var slot = atomicLoad(&bpGroups[a]);
  let range = bpPrevGroup(a);
  for (var k = range.x; k < range.y; k++) {
    let pair = bpPrevPairs[k];
    if ((bpFat[pair.y].bounds.tag & BP_MOVED) != 0u) { continue; }
    if (slot >= bpParams.capacity) { break; }
    bpPairs[slot] = pair;
    slot++;
  }
}

// The pairs a finder counted: from its cache when they all fit, else found again.
fn bpWriteFound(f: u32, count: u32, moved: bool) {
  if (count <= bpParams.pairCache) {
    for (var k = 0u; k < count; k++) {
      bpPlace(bpFinders[bpCacheSlot(f, k)]);
    }
  } else if (moved) {
    bpMovedSweep(f, 1u);
  } else {
    bpSweep(f, 1u);
  }
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpSweepWrite(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount || !bpRebuilding()) { return; }
  bpWriteFound(i, bpFinders[i].x, false);
}

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpMovedWrite(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let t = bpInvocation(wid, nwg, lid);
  if (t >= bpState.updateMoved) { return; }
  bpWriteFound(t, bpFinders[t].x, true);
}

// Swaps the partners at slots i and j.
fn bpSwapPairs(i: u32, j: u32) {
  let t = bpPairs[i];
  bpPairs[i] = bpPairs[j];
  bpPairs[j] = t;
}

// Sifts the partner at heap position root (slots first + root) down a max-heap of `size`.
fn bpSiftDown(first: u32, root0: u32, size: u32) {
  var root = root0;
  var child = 2u * root + 1u;
  while (child < size) {
    if (child + 1u < size && bpPairs[first + child + 1u].y > bpPairs[first + child].y) { child++; }
    if (bpPairs[first + root].y >= bpPairs[first + child].y) { break; }
    bpSwapPairs(first + root, first + child);
    root = child;
    child = 2u * root + 1u;
  }
}

// Groups this long or longer are heap-sorted (k log k steps); shorter ones, and the nearly sorted
// groups of an update, by insertion.
const BP_HEAPSORT_MIN: u32 = 64u;

// Per body: its group sorted by partner. Partners are distinct, so the order is total and the
// result does not depend on the atomic placement that came before.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpSortGroups(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let a = bpInvocation(wid, nwg, lid);
  if (a >= bpParams.bodyCount || bpListUnchanged()) { return; }
  let first = min(atomicLoad(&bpGroups[a]), bpParams.capacity);
  let end = min(atomicLoad(&bpGroups[a + 1u]), bpParams.capacity);
  let size = end - first;
  if (size < 2u) { return; }
  let shuffled = bpState.mode == BP_MODE_REBUILD || (bpFat[a].bounds.tag & BP_MOVED) != 0u;
  if (shuffled && size >= BP_HEAPSORT_MIN) {
    for (var root = size / 2u; root > 0u; root--) { bpSiftDown(first, root - 1u, size); }
    for (var last = size - 1u; last > 0u; last--) {
      bpSwapPairs(first, first + last);
      bpSiftDown(first, 0u, last);
    }
    return;
  }
  for (var k = first + 1u; k < end; k++) {
    let pair = bpPairs[k];
    var j = k;
    for (; j > first; j--) {
      let before = bpPairs[j - 1u];
      if (before.y <= pair.y) { break; }
      bpPairs[j] = before;
    }
    if (j != k) { bpPairs[j] = pair; }
  }
}

@compute @workgroup_size(1)
fn bpFinalize() {
  bpFinalizeFrame();
}

fn bpFinalizeFrame() {
  let n = bpParams.bodyCount;
  // A deferred frame finds no pairs (a held-only recording leaves last frame's groups in place).
  let total = select(atomicLoad(&bpGroups[n]), 0u, bpState.mode == BP_MODE_DEFERRED);
  let overflow = select(0u, 1u, total > bpParams.capacity);
  // Discarded (the host runs the frame again with room): the later stages get no pairs.
  let written = select(min(total, bpParams.capacity), 0u, overflow != 0u && bpParams.discardCut != 0u);
  let grid = bpGrid(written);
  bpCounts = BroadphaseCounts(total, written, overflow, n,
                              BroadphaseNarrowphaseParams(written, bpParams.margin, grid.w, 0u),
                              bpState.mode, atomicLoad(&bpState.moved), atomicLoad(&bpState.stale), 0u);
  bpIndirect = DispatchIndirect(grid.x, grid.y, 1u);
  bpDispatch.prevSlots = bpRows(select(written, 0u, bpListHeld()));
}

// What the next frame needs of this one (bpBatch's invocation 0, after bpPrevSlots; or bpPlanHeld).
fn bpCommit() {
  if (bpState.mode == BP_MODE_DEFERRED || (bpCounts.overflow != 0u && bpParams.discardCut != 0u)) {
    bpState.prevUnchanged = 0u;
    return;
  }
  bpState.prevWritten = bpCounts.written;
  bpState.prevOverflow = bpCounts.overflow;
  bpState.prevUnchanged = select(0u, 1u, bpListUnchanged());
}

// After bpPlan: this frame's list, its groups and prevSlot already hold what bpKeptCounts, the
// scan and bpPrevSlots would write: the list is last frame's, which was the one before it, and the
// buffers are those last frame read (that list and its groups) and wrote (the identity). Those
// kernels then do nothing (bpFinalize gives bpPrevSlots no workgroups, the scan a length of 0).
fn bpListHeld() -> bool {
  return bpState.list == BP_LIST_HELD;
}

// Per pair of the list: its slot in last frame's list (the same index when the pair is there, else
// a bisection of its first body's group there, through bpRemap when bodies were renumbered), or
// BP_NONE.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpPrevSlots(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let k = bpInvocation(wid, nwg, lid);
  if (k >= bpCounts.written) { return; }
  if (bpListUnchanged()) {
    bpPairs[k] = bpPrevPairs[k];
    bpPrevSlot[k] = k;
    return;
  }
  var pair = bpPairs[k];
  var slot = BP_NONE;
  // Renumbered bodies: the pair's bodies last frame, in the same order (a pair whose bodies swapped
  // order has its normal and feature ids the other way round: it starts anew).
  if (bpParams.remapped != 0u) {
    pair = vec2u(bpRemap[pair.x], bpRemap[pair.y]);
    if (pair.x >= pair.y) { pair = vec2u(BP_NONE); }
  }
  if (pair.y < bpParams.prevBodyCount) {
    let range = bpPrevGroup(pair.x);
    // At its own index last frame, as every pair is when no body moved (a list holds a pair once);
    // only within its group there: past the list's end lie older frames' pairs.
    if (k >= range.x && k < range.y && all(bpPrevPairs[k] == pair)) {
      slot = k;
    } else {
      var lo = range.x;
      var hi = range.y;
      while (lo < hi) {
        let mid = lo + (hi - lo) / 2u;
        if (bpPrevPairs[mid].y < pair.y) { lo = mid + 1u; } else { hi = mid; }
      }
      if (lo < range.y && bpPrevPairs[lo].y == pair.y) { slot = lo; }
    }
  }
  bpPrevSlot[k] = slot;
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

// After bpPrevSlots, one invocation per batch: the narrowphase's params and dispatch over the
// written pairs of batch b. Invocation 0 commits too: one dispatch fewer than a kernel of its own.
@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpBatch(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let b = bpInvocation(wid, nwg, lid);
  if (b == 0u) { bpCommit(); }
  if (b < bpParams.batchCount) { bpWriteBatch(b); }
}

// Batch b's narrowphase params and dispatch, over the written pairs.
fn bpWriteBatch(b: u32) {
  let first = b * bpParams.batchPairs;
  let written = bpCounts.written;
  var count = 0u;
  if (written > first) { count = min(written - first, bpParams.batchPairs); }
  let grid = bpGrid(count);
  bpBatches[b] = BroadphaseBatch(BroadphaseNarrowphaseParams(count, bpParams.margin, grid.w, 0u), grid.x, grid.y, 1u, 0u);
}

// A held-only recording's kernels after bpAabb, in one invocation: between bpPlan and bpFinalize
// such a recording has nothing, and bpPrevSlots nothing to do (a held list's buffers hold its
// slots; a deferred frame has no pairs). Three dispatches fewer in a settled scene's frames.
@compute @workgroup_size(1)
fn bpPlanHeld() {
  bpPlanFrame();
  bpFinalizeFrame();
  bpCommit();
  for (var b = 0u; b < bpParams.batchCount; b++) { bpWriteBatch(b); }
}
