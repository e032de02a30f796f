// Pair finding of the GPU broadphase (src/gpu/broadphase2d.ts), after aabb2d.wgsl's boxes were
// sorted by their (conservative) minimum x (bpOrder: body index at each sorted position). The
// sweep of sweepAndPrune2D in src/broadphase2d.ts, split so the output is deterministic without
// atomics:
//   bpGather:   bpSorted[i] = box of the body at sorted position i;
//   bpCount:    for each sorted position i, how many of the bodies j > i up to the first whose
//               lowMinX exceeds i's highMaxX have a box overlapping i's (bpOverlap);
//               bpPairCounts[bodyCount] = 0 closes the array;
//   (an exclusive scan of the bodyCount + 1 counts: offsets, and the total at [bodyCount]);
//   bpWrite:    the pairs (min(a, b), max(a, b)) of position i at its offset, those below capacity;
//   bpFinalize: the counts (the real total even when it exceeds the capacity), a Params2D for the
//               narrowphase over the written pairs, and its indirect dispatch arguments.
// Pairs come out in sweep order (by sorted position i, then j), identical from run to run.
//
// Needs aabb2d.wgsl before it (bindings 0..5, BroadphaseParams2D) and layout2d.wgsl (Params2D).

struct BroadphaseCounts2D {
  total: u32,                                          // pairs found (0xffffffff: more than a u32 holds)
  written: u32,                                        // pairs in the pairs buffer: min(total, capacity)
  overflow: u32,                                       // 1 when total > capacity: grow the buffer and rerun
  bodyCount: u32,
  narrowphase: Params2D,                               // the narrowphase's params over the written pairs
}

// Arguments of dispatchWorkgroupsIndirect: the narrowphase over the written pairs, WORKGROUP_SIZE_2D
// invocations per workgroup, rows of at most 65535 workgroups (rowPitch invocations each).
struct DispatchIndirect {
  x: u32,
  y: u32,
  z: u32,
}

@group(0) @binding(6) var<storage, read_write> bpSorted: array<BroadphaseBox2D>;
@group(0) @binding(7) var<storage, read_write> bpPairCounts: array<u32>;
@group(0) @binding(8) var<storage, read_write> bpPairs: array<vec2u>;
@group(0) @binding(9) var<storage, read_write> bpCounts: BroadphaseCounts2D;
@group(0) @binding(10) var<storage, read_write> bpIndirect: DispatchIndirect;

const BP_MAX_GROUPS_PER_DIMENSION: u32 = 65535u;

@compute @workgroup_size(BROADPHASE_WORKGROUP_SIZE)
fn bpGather(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let i = bpInvocation(wid, nwg, lid);
  if (i >= bpParams.bodyCount) { return; }
  bpSorted[i] = bpBoxes[bpOrder[i]];
}

// Whether the boxes overlap (closed intervals: touching boxes overlap, as on the host), compared
// through the difference of their positions: minB <= maxA  <=>  pB - pA <= hiA - loB.
// Symmetric: bpOverlap(a, b) == bpOverlap(b, a), as f32 subtraction is antisymmetric.
fn bpOverlap(a: BroadphaseBox2D, b: BroadphaseBox2D) -> bool {
  let d = b.position - a.position;
  return all(d <= a.local.zw - b.local.xy) && all(a.local.xy - b.local.zw <= d);
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
  var count = 0u;
  for (var j = i + 1u; j < n; j++) {
    let b = bpSorted[j];
    if (b.lowMinX > a.highMaxX) { break; }
    if (bpOverlap(a, b)) { count++; }
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
  if (at >= capacity || at == bpPairCounts[i + 1u]) { return; }
  let a = bpSorted[i];
  let bodyA = bpOrder[i];
  for (var j = i + 1u; j < n; j++) {
    let b = bpSorted[j];
    if (b.lowMinX > a.highMaxX || at >= capacity) { break; }
    if (bpOverlap(a, b)) {
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
  let groups = written / WORKGROUP_SIZE_2D + select(0u, 1u, written % WORKGROUP_SIZE_2D != 0u);
  let x = min(groups, BP_MAX_GROUPS_PER_DIMENSION);
  var y = 1u;
  if (x > 0u) { y = groups / x + select(0u, 1u, groups % x != 0u); }
  let rowPitch = max(x, 1u) * WORKGROUP_SIZE_2D;
  bpCounts = BroadphaseCounts2D(total, written, select(0u, 1u, total > bpParams.capacity), n,
                                Params2D(written, bpParams.margin, rowPitch, 0u));
  bpIndirect = DispatchIndirect(x, y, 1u);
}
