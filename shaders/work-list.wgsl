// The slots of a batch that need the full collide, as a list (src/gpu/work-list.ts): the reuse
// stage flags each slot (REUSE_COLLIDE, or kept, or apart), the pair classes take a list of slots.
// The slots go by blocks of WL_BLOCK (a u32 of bits each):
//   wlFlags:   invocation b (every block of the batch's slots, and one past them): block b's mask
//              of the slots k < count flagged REUSE_COLLIDE, at wlMarks[masksAt + b], and its
//              count at wlMarks[b]; wlMarks[blocks] = 0 closes the counts;
//   (an exclusive scan of the block counts: each block's place, the list's length at [blocks]);
//   wlScatter: invocation b (every block): block b's marked slots k, in order, to the list from
//              its block's place on.
// A frame flags a few percent of its pairs: the scan and the scatter run over a 32nd of the slots,
// not all of them, and the scatter's work is the marked slots alone.
// In slot order, no atomics. Needs WORK_LIST_WORKGROUP_SIZE, WL_BLOCK and REUSE_COLLIDE, prepended
// by the host.

struct WorkListParams {
  slots: u32,                                          // the batch's slots (the flags and marks hold them)
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> wlParams: WorkListParams;
@group(0) @binding(1) var<storage, read> wlCount: array<u32>;            // [0]: the batch's pair count
@group(0) @binding(2) var<storage, read> wlFlagsIn: array<u32>;          // per slot: the reuse status
@group(0) @binding(3) var<storage, read_write> wlMarks: array<u32>;      // per block + 1: counts, then scanned; then the masks
@group(0) @binding(4) var<storage, read_write> wlList: array<u32>;       // the marked slots, in order

fn wlInvocation(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * WORK_LIST_WORKGROUP_SIZE + lid;
}

// Blocks of WL_BLOCK slots over the batch's slots; their masks follow the counts and the 0 closing them.
fn wlBlocks() -> u32 {
  return (wlParams.slots + WL_BLOCK - 1u) / WL_BLOCK;
}

fn wlMasksAt() -> u32 {
  return wlBlocks() + 1u;
}

@compute @workgroup_size(WORK_LIST_WORKGROUP_SIZE)
fn wlFlags(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let b = wlInvocation(wid, nwg, lid);
  let blocks = wlBlocks();
  if (b > blocks) { return; }
  if (b == blocks) {
    wlMarks[b] = 0u;
    return;
  }
  // To a bound known at run time: a loop of 32 known steps is unrolled, its code 32 times over.
  let first = b * WL_BLOCK;
  let end = min(max(min(wlCount[0], wlParams.slots), first), first + WL_BLOCK);
  var mask = 0u;
  for (var k = first; k < end; k++) {
    if (wlFlagsIn[k] == REUSE_COLLIDE) { mask |= 1u << (k - first); }
  }
  wlMarks[wlMasksAt() + b] = mask;
  wlMarks[b] = countOneBits(mask);
}

@compute @workgroup_size(WORK_LIST_WORKGROUP_SIZE)
fn wlScatter(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let b = wlInvocation(wid, nwg, lid);
  if (b >= wlBlocks()) { return; }
  var mask = wlMarks[wlMasksAt() + b];
  var at = wlMarks[b];
  // The set bits, lowest first: a loop of as many steps as the block has marked slots.
  while (mask != 0u) {
    wlList[at] = b * WL_BLOCK + firstTrailingBit(mask);
    at++;
    mask &= mask - 1u;
  }
}
