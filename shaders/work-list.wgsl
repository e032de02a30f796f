// The slots of a batch that need the full collide, as a list (src/gpu/work-list.ts): the reuse
// stage flags each slot (REUSE_COLLIDE, or kept, or apart), the pair classes take a list of slots.
//   wlFlags:   marks[k] = 1 for slots k < count flagged REUSE_COLLIDE, else 0, for k <= count (or
//              k <= slots), so marks[count] = 0 closes the array;
//   (an exclusive scan of those marks: each marked slot's place, the list's length at [count]);
//   wlScatter: list[place] = k for each marked slot k < count (the marks past count may be stale).
// The host dispatches over the batch's slots, or over its pairs (the broadphase's grids).
// In slot order, no atomics. Needs WORK_LIST_WORKGROUP_SIZE and REUSE_COLLIDE, prepended by the host.

struct WorkListParams {
  slots: u32,                                          // the batch's slots (the flags and marks hold them)
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
}

@group(0) @binding(0) var<uniform> wlParams: WorkListParams;
@group(0) @binding(1) var<storage, read> wlCount: array<u32>;            // [0]: the batch's pair count
@group(0) @binding(2) var<storage, read> wlFlagsIn: array<u32>;          // per slot: the reuse status
@group(0) @binding(3) var<storage, read_write> wlMarks: array<u32>;      // per slot + 1: 0 or 1, then scanned
@group(0) @binding(4) var<storage, read_write> wlList: array<u32>;       // the marked slots, in order

fn wlInvocation(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * WORK_LIST_WORKGROUP_SIZE + lid;
}

@compute @workgroup_size(WORK_LIST_WORKGROUP_SIZE)
fn wlFlags(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let k = wlInvocation(wid, nwg, lid);
  if (k > wlParams.slots) { return; }
  let count = min(wlCount[0], wlParams.slots);
  wlMarks[k] = select(0u, 1u, k < count && wlFlagsIn[k] == REUSE_COLLIDE);
}

@compute @workgroup_size(WORK_LIST_WORKGROUP_SIZE)
fn wlScatter(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let k = wlInvocation(wid, nwg, lid);
  if (k >= min(wlCount[0], wlParams.slots)) { return; }
  if (wlMarks[k + 1u] != wlMarks[k]) { wlList[wlMarks[k]] = k; }
}
