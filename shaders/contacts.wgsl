// The dense contact list, one implementation for 2D and 3D (src/gpu/contacts.ts drives it;
// src/cpu/contacts.ts is the same stage on the host, function for function). A per-dimension file
// before it (contacts2d.wgsl, contacts3d.wgsl) names the types: CtManifold (the narrowphase's
// Manifold2D / Manifold3D), CtContact (ContactManifold2D / 3D), CtUserValues and CT_MAX_POINTS.
//
// The frame's pairs are compacted in batches of consecutive pairs (one batch, unless the manifold
// slots of all pairs do not fit in one binding): per batch, its manifold slots and pairs are bound
// (slot k is the frame's pair first + k), and
//   ctFlags:      ctOffsets[k] = 1 where pair first + k (< pairCount) touches (count > 0), else 0,
//                 for every k <= slots (so ctOffsets[slots] = 0 closes the array);
//   (an exclusive scan of the slots + 1 flags, shaders/scan.wgsl: offsets, the batch's total at [slots]);
//   ctScatter:    touching slot k (its offset steps up after it) goes to entry i = ctCounts.total (the batches before) + its offset,
//                 when i < capacity: its pair into the touching list, the low 32 bits of its sort
//                 key K = bodyA << keyShift | bodyB and i itself into the sort's buffers;
//                 ctScatterManifolds: its manifold into the touching list; the touching list is in
//                 pair order, batches or not;
//   ctAccumulate: ctCounts.total += the batch's total (saturating);
// then, once per frame:
//   ctFinalize:   written = min(total, capacity), overflow;
//   (a stable radix sort, shaders/radixsort.wgsl, of the first `written` keys (the count read on
//    the GPU, from ctCounts); where K has more
//    than 32 bits, ctKeysHigh and a second stable sort by K's high bits: the order by K, that is by
//    (bodyA, bodyB), ties in pair order);
//   ctKeysHigh:   between the two sorts: the key of sorted position j becomes K >> 32 of its pair;
//   ctGather:     entry j = touching entry i = order j, with its bodies, and its ids (ctIds: pair,
//                 count, point ids); in a frame of one batch ctGatherSlots instead, from the batch's
//                 slots (ctScatterManifolds skipped); ctGatherKeys: ctKeyBuf[j] = its pair;
//   ctPersist:    for each entry, a search of last frame's keys for the same pair; each point takes
//                 last frame's user value of the point with the same feature id (last frame's ctIds),
//                 else 0; ctPatch: `previous` and `matched` into the entry.
//
// No atomics: every output is a function of the input alone, byte for byte, whatever the batches.
// Needs the per-dimension layout files and contacts-layout.wgsl before it, CONTACTS_WORKGROUP_SIZE
// and CONTACT_NONE prepended by the host. Rows of workgroups as in scan.wgsl (linear workgroup
// index wid.x + wid.y * nwg.x; surplus invocations return at once). Every loop has a constant bound.

// Pages: the touching manifolds and the dense list may exceed one binding
// (maxStorageBufferBindingSize); each is bound as two pages of ctParams.pageEntries entries (the
// second aliasing the first when one page holds them all), and ctLoad*/ctStore* pick the page.

// Per entry: its pair and point ids, what the next frame's persistence reads (compact, unpaged).
struct CtEntryIds {
  bodyA: u32,
  bodyB: u32,
  count: u32,
  ids: array<u32, CT_MAX_POINTS>,
}

@group(0) @binding(0) var<uniform> ctParams: ContactParams;
@group(0) @binding(1) var<storage, read> ctManifolds: array<CtManifold>;            // this batch's slots
@group(0) @binding(2) var<storage, read> ctPairs: array<vec2u>;                     // this batch's pairs
@group(0) @binding(3) var<storage, read_write> ctOffsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> ctCounts: ContactCounts;
@group(0) @binding(5) var<storage, read_write> ctTouching0: array<CtManifold>;      // per entry, in pair order: page 0
@group(0) @binding(6) var<storage, read_write> ctSortKeyBuf: array<u32>;
@group(0) @binding(7) var<storage, read_write> ctSortValueBuf: array<u32>;
@group(0) @binding(8) var<storage, read_write> ctContacts0: array<CtContact>;       // the dense list: page 0
@group(0) @binding(9) var<storage, read_write> ctKeyBuf: array<vec2u>;
@group(0) @binding(10) var<storage, read_write> ctUserValues: array<CtUserValues>;
@group(0) @binding(11) var<storage, read> ctPrevIds: array<CtEntryIds>;
@group(0) @binding(12) var<storage, read> ctPrevKeys: array<vec2u>;
@group(0) @binding(13) var<storage, read> ctPrevUserValues: array<CtUserValues>;
@group(0) @binding(14) var<storage, read> ctPrevCounts: ContactCounts;
@group(0) @binding(15) var<storage, read_write> ctTouchingPairs: array<vec2u>;      // per entry, in pair order
@group(0) @binding(16) var<storage, read_write> ctTouching1: array<CtManifold>;     // page 1
@group(0) @binding(17) var<storage, read_write> ctContacts1: array<CtContact>;      // page 1
@group(0) @binding(18) var<storage, read_write> ctIds: array<CtEntryIds>;
@group(0) @binding(19) var<storage, read_write> ctMatches: array<vec2u>;            // per entry: previous, matched
@group(0) @binding(20) var<storage, read_write> ctTouchingSlots: array<u32>;        // per entry: its slot k in the batch

fn ctLoadTouching(i: u32) -> CtManifold {
  if (i < ctParams.pageEntries) { return ctTouching0[i]; }
  return ctTouching1[i - ctParams.pageEntries];
}

fn ctStoreTouching(i: u32, m: CtManifold) {
  if (i < ctParams.pageEntries) { ctTouching0[i] = m; } else { ctTouching1[i - ctParams.pageEntries] = m; }
}

fn ctStoreContact(j: u32, c: CtContact) {
  if (j < ctParams.pageEntries) { ctContacts0[j] = c; } else { ctContacts1[j - ctParams.pageEntries] = c; }
}

fn ctStoreMatch(j: u32, m: vec2u) {
  if (j < ctParams.pageEntries) {
    ctContacts0[j].previous = m.x;
    ctContacts0[j].matched = m.y;
  } else {
    ctContacts1[j - ctParams.pageEntries].previous = m.x;
    ctContacts1[j - ctParams.pageEntries].matched = m.y;
  }
}

// Steps of the binary search: enough for any u32 count of entries.
const CT_SEARCH_STEPS: u32 = 32u;

fn ctInvocation(wid: vec3u, nwg: vec3u, lid: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * CONTACTS_WORKGROUP_SIZE + lid;
}

fn ctPairCount() -> u32 {
  return min(ctCounts.pairCount, ctParams.pairSlots);
}

// The batch's slots that hold pairs: min(pairCount - first, slots), or 0.
fn ctBatchPairs() -> u32 {
  let n = ctPairCount();
  if (n <= ctParams.first) { return 0u; }
  return min(n - ctParams.first, ctParams.slots);
}

fn ctSatAdd(a: u32, b: u32) -> u32 {
  let s = a + b;
  return select(s, 0xffffffffu, s < a);
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctFlags(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let k = ctInvocation(wid, nwg, lid);
  if (k > ctParams.slots) { return; }
  var flag = 0u;
  if (k < ctBatchPairs()) {
    flag = select(0u, 1u, ctManifolds[k].count > 0u);
  }
  ctOffsets[k] = flag;
}

@compute @workgroup_size(1)
fn ctAccumulate() {
  ctCounts.total = ctSatAdd(ctCounts.total, ctOffsets[ctParams.slots]);
}

@compute @workgroup_size(1)
fn ctFinalize() {
  let total = ctCounts.total;
  ctCounts.written = min(total, ctParams.capacity);
  ctCounts.overflow = select(0u, 1u, total > ctParams.capacity);
}

// The sort key of a pair is K = bodyA << keyShift | bodyB, of 2 keyShift bits (bodyB < 2^keyShift).
// Its low 32 bits, the first sort's key.
fn ctSortKeyLow(pair: vec2u) -> u32 {
  if (ctParams.keyShift >= 32u) { return pair.y; }
  return (pair.x << ctParams.keyShift) | pair.y;
}

// Its bits from 32 on (when 2 keyShift > 32), the second sort's key: bodyA >> (32 - keyShift).
fn ctSortKeyHigh(pair: vec2u) -> u32 {
  return pair.x >> (32u - min(ctParams.keyShift, 32u));
}

// Slot k touches where the scanned flags step up after it: offsets[k + 1] != offsets[k] (read
// from the offsets, not the manifold's count again). Only a saturated scan (2^32 - 1 entries) can
// hide a touching slot, and its entry would lie past any capacity.
fn ctTouches(k: u32) -> bool {
  return ctOffsets[k + 1u] != ctOffsets[k];
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctScatter(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let k = ctInvocation(wid, nwg, lid);
  if (k >= ctBatchPairs()) { return; }
  let i = ctSatAdd(ctCounts.total, ctOffsets[k]);
  if (!ctTouches(k) || i >= ctParams.capacity) { return; }
  let pair = ctPairs[k];
  ctTouchingPairs[i] = pair;
  ctTouchingSlots[i] = k;
  ctSortKeyBuf[i] = ctSortKeyLow(pair);
  ctSortValueBuf[i] = i;
}

// The same entries' manifolds (a kernel of its own: fewer bindings each).
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctScatterManifolds(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let k = ctInvocation(wid, nwg, lid);
  if (k >= ctBatchPairs()) { return; }
  let i = ctSatAdd(ctCounts.total, ctOffsets[k]);
  if (!ctTouches(k) || i >= ctParams.capacity) { return; }
  ctStoreTouching(i, ctManifolds[k]);
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctKeysHigh(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  ctSortKeyBuf[j] = ctSortKeyHigh(ctTouchingPairs[ctSortValueBuf[j]]);
}

// Dense entry j: the pair's manifold (not yet matched to last frame's) and its point ids.
fn ctWriteEntry(j: u32, pair: vec2u, m: CtManifold) {
  ctStoreContact(j, CtContact(pair.x, pair.y, CONTACT_NONE, 0u, m));
  var ids = CtEntryIds(pair.x, pair.y, m.count, array<u32, CT_MAX_POINTS>());
  for (var p = 0u; p < CT_MAX_POINTS; p++) {
    ids.ids[p] = m.points[p].id;
  }
  ctIds[j] = ids;
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctGather(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  let i = ctSortValueBuf[j];
  ctWriteEntry(j, ctTouchingPairs[i], ctLoadTouching(i));
}

// ctGather for a frame in one batch: the manifold straight from the narrowphase's slot (no copy in
// the touching list; ctScatterManifolds is skipped). The same entries.
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctGatherSlots(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  let i = ctSortValueBuf[j];
  ctWriteEntry(j, ctTouchingPairs[i], ctManifolds[ctTouchingSlots[i]]);
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctGatherKeys(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  ctKeyBuf[j] = ctTouchingPairs[ctSortValueBuf[j]];
}

// (a.x, a.y) < (b.x, b.y), lexicographically.
fn ctKeyLess(a: vec2u, b: vec2u) -> bool {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

// Where entry j of `written` would be among last frame's n entries if the lists were alike.
fn ctGuess(j: u32, written: u32, n: u32) -> u32 {
  if (n == 0u) { return 0u; }
  return min(u32(f32(j) * (f32(n) / f32(written))), n - 1u);
}

// The first of last frame's n sorted keys that is not below `key` (n when none is): galloping
// from `guess` (neighbouring entries of alike lists probe neighbouring keys), then bisection.
// The result does not depend on the guess. Every loop has a constant bound (32 steps reach any u32
// index).
fn ctLowerBound(key: vec2u, n: u32, guess: u32) -> u32 {
  var lo = 0u;
  var hi = n;
  if (n > 0u) {
    let g = guess;
    var step = 1u;
    if (ctKeyLess(ctPrevKeys[g], key)) {
      // The answer is in (g, n]: probe g + 1, g + 2, g + 4, ...
      lo = g + 1u;
      for (var s = 0u; s < CT_SEARCH_STEPS; s++) {
        if (step >= n - g) { break; }
        let p = g + step;
        if (ctKeyLess(ctPrevKeys[p], key)) { lo = p + 1u; step *= 2u; } else { hi = p; break; }
      }
    } else {
      // The answer is in [0, g]: probe g - 1, g - 2, g - 4, ...
      hi = g;
      for (var s = 0u; s < CT_SEARCH_STEPS; s++) {
        if (step > g) { break; }
        let p = g - step;
        if (ctKeyLess(ctPrevKeys[p], key)) { lo = p + 1u; break; } else { hi = p; step *= 2u; }
      }
    }
  }
  for (var s = 0u; s < CT_SEARCH_STEPS; s++) {
    if (lo >= hi) { break; }
    let mid = lo + (hi - lo) / 2u;
    if (ctKeyLess(ctPrevKeys[mid], key)) { lo = mid + 1u; } else { hi = mid; }
  }
  return lo;
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctPersist(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  let key = vec2u(ctIds[j].bodyA, ctIds[j].bodyB);
  let n = ctPrevCounts.written;
  let lo = ctLowerBound(key, n, ctGuess(j, ctCounts.written, n));
  var previous = CONTACT_NONE;
  var matched = 0u;
  // Zeros, then the matched points' values over them: read and written in place in the buffers
  // (no function-local copies of the arrays, which lavapipe indexes slowly).
  ctUserValues[j] = CtUserValues();
  if (lo < n && all(ctPrevKeys[lo] == key)) {
    previous = lo;
    let count = ctIds[j].count;
    let prevCount = ctPrevIds[lo].count;
    for (var i = 0u; i < CT_MAX_POINTS; i++) {
      if (i >= count) { break; }
      let id = ctIds[j].ids[i];
      for (var q = 0u; q < CT_MAX_POINTS; q++) {
        if (q < prevCount && ctPrevIds[lo].ids[q] == id) {
          ctUserValues[j].points[i] = ctPrevUserValues[lo].points[q];
          matched |= 1u << i;
          break;
        }
      }
    }
  }
  ctMatches[j] = vec2u(previous, matched);
}

// The matches into the entries (a kernel of its own: fewer bindings each).
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctPatch(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  ctStoreMatch(j, ctMatches[j]);
}
