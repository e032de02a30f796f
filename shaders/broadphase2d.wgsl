// Pair finding of the GPU broadphase (src/gpu/broadphase2d.ts), after aabb2d.wgsl's boxes were
// sorted by their (conservative) minimum x (bpOrder: body index at each sorted position). The
// sweep of sweepAndPrune2D in src/broadphase2d.ts, split so the output is deterministic without
// atomics:
//   bpGather:   bpSorted[i], bpSortedBounds[i] = box and bounds of the body at sorted position i;
//   bpCount:    for each sorted position i, how many of the bodies j > i, up to the first whose
//               bounds start past the end of i's in x, have a box overlapping i's: bounds
//               overlapping in y, then the exact comparison (bpOverlap); the first
//               bpParams.pairCache (<= BROADPHASE_PAIR_CACHE) of those pairs are kept, so
//               bpWrite need not sweep again;
//               bpPairCounts[bodyCount] = 0 closes the array;
//   (an exclusive scan of the bodyCount + 1 counts: offsets, and the total at [bodyCount]);
//   bpWrite:    the pairs (min(a, b), max(a, b)) of position i at its offset, those below capacity
//               (copied from the cache, or found by sweeping again where there were more);
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
@group(0) @binding(12) var<storage, read_write> bpSortedBounds: array<vec4f>;
@group(0) @binding(13) var<storage, read_write> bpPairCache: array<vec2u>;   // bpParams.pairCache per sorted position

const BP_MAX_GROUPS_PER_DIMENSION: u32 = 65535u;

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
fn bpOverlap(a: BroadphaseBox2D, b: BroadphaseBox2D) -> bool {
  let d = b.position - a.position;
  return all(d <= a.local.zw - b.local.xy) && all(a.local.xy - b.local.zw <= d);
}

// A quick rejection: conservative bounds apart in y (in x, the sweep order and its end take care:
// b's bounds start after a's start and before a's end).
fn bpBoundsOverlapY(a: vec4f, b: vec4f) -> bool {
  return b.y <= a.w && a.y <= b.w;
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
    if (boundsB.x > boundsA.z) { break; }
    if (bpBoundsOverlapY(boundsA, boundsB) && bpOverlap(a, bpSorted[j])) {
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
    if (boundsB.x > boundsA.z || at >= capacity) { break; }
    if (bpBoundsOverlapY(boundsA, boundsB) && bpOverlap(a, bpSorted[j])) {
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
