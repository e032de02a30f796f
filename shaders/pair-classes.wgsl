// The pair classifier, one implementation for 2D and 3D (src/gpu/pair-classes.ts drives it): the
// items of a batch (its pairs 0..count-1, or the slots of a work list) split into one list per
// pair class, each in item order, with its class kernel's params and indirect dispatch arguments.
// Deterministic, no barriers (one invocation walks one block of PC_ITEMS consecutive items: a
// workgroup scan would make the driver compile barriers, seconds on lavapipe), and no atomics but
// pcList's sums of the items it leaves out:
//   pcCount    per block, per bucket, how many of its items fall in it
//   (scan)     the counts, bucket-major (bucket × blocks + block), scanned exclusively
//              (src/gpu/scan.ts): each block's first position in its bucket's list, the lists
//              one after the other
//   pcScatter  each item to its position: the block's start in its bucket plus the block's
//              items before it there; (slot, body A, body B, 0) into classPairs
//   pcFinish   per bucket: its count, first position and dispatch grid into classTable; and the
//              pairs no kernel will collide added to pcControl (see there); the row after the
//              buckets' holds a grid over every item (a later pass over the items dispatches it)
// Buckets are the classes (PC_CLASS_COUNT), then PC_REJECTED: work-list entries naming a slot at
// or above params.slots, listed and counted there, never collided.
// With one class compiled there is nothing to split, and one kernel replaces count, scan, scatter
// and finish:
//   pcList     item i to entry i of classPairs: (slot, body A, body B, 0) when its pair is of that
//              class (params.single), else an entry naming no slot, counted in its bucket and added
//              to pcControl; and the row over every item after the buckets' rows, which is the
//              class kernel's (it passes over the entries naming no slot). The buckets' rows are
//              not written: their counts are the host's sums of the left-out counts (readTable).
//
// A per-dimension file before it (pair-classes2d.wgsl, pair-classes3d.wgsl) binds the shapes and
// bodies (bindings 0, 1) and defines
//   fn pcPairClass(pair: vec2u) -> u32           the class of a pair of body indices
//   const PC_NARROWPHASE_WORKGROUP: u32          the class kernels' workgroup size
// The host prepends PC_CLASS_COUNT (<= 7, with the rejected bucket 8 counters fit a vec4u),
// PC_WORKGROUP_SIZE and PC_ITEMS (items per block, one block per invocation).

// The class kernels' params (Params2D / Params3D: the same layout, checked by the host).
struct PairClassKernelParams {
  pairCount: u32,
  margin: f32,
  rowPitch: u32,
  first: u32,                                          // the class's first entry of classPairs
}

// One bucket's class kernel: its params, then x, y, z for dispatchWorkgroupsIndirect.
struct PairClassDispatch {
  params: PairClassKernelParams,
  x: u32,
  y: u32,
  z: u32,
  _pad: u32,
}

struct PairClassParams {
  blocks: u32,                                         // blocks of PC_ITEMS items the count covers
  slots: u32,                                          // the batch's slots: pairs and manifold slots bound
  useWorkList: u32,                                    // 1: the items are workList's entries; 0: slots 0..count-1
  margin: f32,                                         // for the class kernels' params
  compiled: u32,                                       // bit c: class c has a pipeline (its pairs are collided)
  single: u32,                                         // pcList: the one compiled class
}

@group(0) @binding(2) var<storage, read> pcPairs: array<vec2u>;
@group(0) @binding(3) var<storage, read> pcWorkList: array<u32>;
// [0]: the number of items (copied in by the host's encoder); [1 + b]: items of bucket b that no
// kernel collided (a class without a pipeline, or rejected), summed since the host cleared them.
@group(0) @binding(4) var<storage, read_write> pcControl: array<u32>;
// pcList: the same words, summed by many invocations.
@group(0) @binding(4) var<storage, read_write> pcControlSums: array<atomic<u32>>;
@group(0) @binding(5) var<storage, read_write> pcBlockCounts: array<u32>;
// pcList: the same buffer's first PC_BUCKETS words, this batch's items per bucket that it left out
// (cleared by the host).
@group(0) @binding(5) var<storage, read_write> pcLeftOut: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> classPairs: array<vec4u>;
@group(0) @binding(7) var<storage, read_write> classTable: array<PairClassDispatch>;
@group(0) @binding(8) var<uniform> pcParams: PairClassParams;

const PC_BUCKETS: u32 = PC_CLASS_COUNT + 1u;
const PC_FINISH_INVOCATIONS: u32 = PC_BUCKETS + 1u;    // pcFinish: a row per bucket, then the one over every item
const PC_REJECTED: u32 = PC_CLASS_COUNT;
const PC_NONE: u32 = 0xffffffffu;                      // an item past the count
const PC_MAX_GROUPS_PER_DIMENSION: u32 = 65535u;
const PC_NO_SLOT: u32 = 0xffffffffu;                   // pcList: an entry the class kernel passes over

// Item `item` of the batch: (bucket, slot), bucket PC_NONE past the count.
fn pcItem(item: u32) -> vec2u {
  return pcItemOf(item, pcControl[0]);
}

// Item `item` of a batch of `items`.
fn pcItemOf(item: u32, items: u32) -> vec2u {
  if (item >= items) { return vec2u(PC_NONE, 0u); }
  var slot = item;
  if (pcParams.useWorkList != 0u) { slot = pcWorkList[item]; }
  if (slot >= pcParams.slots) { return vec2u(PC_REJECTED, slot); }
  return vec2u(pcPairClass(pcPairs[slot]), slot);
}

// Per-bucket counters, 16 bits each (a block counts at most PC_ITEMS <= 65535 items), in a vec4u:
// bucket b in component b / 2, bits 16 (b % 2) on. Counters add as vectors.
fn pcOneHot(bucket: u32) -> vec4u {
  if (bucket >= PC_BUCKETS) { return vec4u(0u); }
  let bit = 1u << (16u * (bucket & 1u));
  return vec4u(select(0u, bit, bucket >> 1u == 0u), select(0u, bit, bucket >> 1u == 1u), select(0u, bit, bucket >> 1u == 2u), select(0u, bit, bucket >> 1u == 3u));
}

fn pcCounter(v: vec4u, bucket: u32) -> u32 {
  return (v[bucket >> 1u] >> (16u * (bucket & 1u))) & 0xffffu;
}

// The block an invocation walks (rows of workgroups for large batches; pcList: its first item).
// Named blockIndex where called: wgsl_reflect does not parse `block` as a name.
fn pcBlock(gid: vec3u, nwg: vec3u) -> u32 {
  return gid.x + gid.y * nwg.x * PC_WORKGROUP_SIZE;
}

@compute @workgroup_size(PC_WORKGROUP_SIZE)
fn pcCount(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let blockIndex = pcBlock(gid, nwg);
  if (blockIndex >= pcParams.blocks) { return; }
  var counts = vec4u(0u);
  for (var i = 0u; i < PC_ITEMS; i++) {
    let bucket = pcItem(blockIndex * PC_ITEMS + i).x;
    // Items past the count lie at the end of the range.
    if (bucket == PC_NONE) { break; }
    counts += pcOneHot(bucket);
  }
  for (var b = 0u; b < PC_BUCKETS; b++) {
    pcBlockCounts[b * pcParams.blocks + blockIndex] = pcCounter(counts, b);
  }
  // After the last bucket's counts: 0, so that the scan leaves the grand total there.
  if (blockIndex == 0u) {
    pcBlockCounts[PC_BUCKETS * pcParams.blocks] = 0u;
  }
}

@compute @workgroup_size(PC_WORKGROUP_SIZE)
fn pcScatter(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let blockIndex = pcBlock(gid, nwg);
  if (blockIndex >= pcParams.blocks) { return; }
  // Per bucket, this block's items placed so far.
  var before = vec4u(0u);
  for (var i = 0u; i < PC_ITEMS; i++) {
    let item = pcItem(blockIndex * PC_ITEMS + i);
    let bucket = item.x;
    if (bucket == PC_NONE) { break; }
    let slot = item.y;
    let at = pcBlockCounts[bucket * pcParams.blocks + blockIndex] + pcCounter(before, bucket);
    before += pcOneHot(bucket);
    var pair = vec2u(0u);
    if (bucket != PC_REJECTED) { pair = pcPairs[slot]; }
    classPairs[at] = vec4u(slot, pair.x, pair.y, 0u);
  }
}

// The row of a class kernel over `count` entries from `first`; x, y, z 0 unless `live`. The grid
// is dispatchGrid's (src/gpu/buffers.ts): rows of at most 65535 workgroups.
fn pcDispatch(count: u32, first: u32, live: bool) -> PairClassDispatch {
  let groups = max(1u, (count + PC_NARROWPHASE_WORKGROUP - 1u) / PC_NARROWPHASE_WORKGROUP);
  let x = min(groups, PC_MAX_GROUPS_PER_DIMENSION);
  let y = (groups + x - 1u) / x;
  return PairClassDispatch(
    PairClassKernelParams(count, pcParams.margin, x * PC_NARROWPHASE_WORKGROUP, first),
    select(0u, x, live), select(0u, y, live), select(0u, 1u, live), 0u,
  );
}

// Invocation b < PC_BUCKETS: bucket b's row; invocation PC_BUCKETS: the row over every item. One
// store of a row for both (a store site is a per-lane scatter of every word on SIMD backends).
@compute @workgroup_size(PC_FINISH_INVOCATIONS)
fn pcFinish(@builtin(local_invocation_index) bucket: u32) {
  var row: PairClassDispatch;
  if (bucket == PC_BUCKETS) {
    let items = pcBlockCounts[PC_BUCKETS * pcParams.blocks];
    row = pcDispatch(items, 0u, items > 0u);
  } else {
    let first = pcBlockCounts[bucket * pcParams.blocks];
    let count = pcBlockCounts[(bucket + 1u) * pcParams.blocks] - first;
    let live = count > 0u && (pcParams.compiled & (1u << bucket)) != 0u;
    if (count > 0u && !live) {
      pcControl[1u + bucket] += count;
    }
    row = pcDispatch(count, first, live);
  }
  classTable[bucket] = row;
}

// Invocation t of pcParams.blocks takes items t, t + blocks, t + 2 blocks, … (PC_ITEMS of them at
// most): neighbouring lanes write neighbouring entries, and the dispatch is that of pcCount.
// Invocation 0 writes the row over every item: it needs the item count alone.
@compute @workgroup_size(PC_WORKGROUP_SIZE)
fn pcList(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let t = pcBlock(gid, nwg);
  if (t >= pcParams.blocks) { return; }
  let items = atomicLoad(&pcControlSums[0]);
  if (t == 0u) {
    let listed = min(items, arrayLength(&classPairs));
    classTable[PC_BUCKETS] = pcDispatch(listed, 0u, listed > 0u);
  }
  for (var item = t; item < arrayLength(&classPairs); item += pcParams.blocks) {
    let e = pcItemOf(item, items);
    // Items past the count lie at the end of the range.
    if (e.x == PC_NONE) { break; }
    var entry = vec4u(PC_NO_SLOT, 0u, 0u, 0u);
    if (e.x == pcParams.single) {
      let pair = pcPairs[e.y];
      entry = vec4u(e.y, pair.x, pair.y, 0u);
    } else {
      atomicAdd(&pcLeftOut[e.x], 1u);
      atomicAdd(&pcControlSums[1u + e.x], 1u);
    }
    classPairs[item] = entry;
  }
}
