// The dense contact list, one implementation for 2D and 3D (src/gpu/contact-list.ts drives it;
// src/cpu/contact-list.ts is the same stage on the host, function for function). A per-dimension file
// before it (contact-list2d.wgsl, contact-list3d.wgsl) names the types: CtManifold (the narrowphase's
// Manifold2D / Manifold3D), CtUserValues and CT_MAX_POINTS, ctManifoldFromWords (a manifold of its
// CT_MANIFOLD_WORDS storage words) and ctPointId (a point's feature id).
//
// The touching manifolds of the frame's pairs, in pair order: the frames' pairs come in (bodyA,
// bodyB) order (src/gpu/broadphase.ts), so the list is in that order with no sort. Last frame's
// data is found through each pair's slot in last frame's list (prevSlot, from the broadphase) and
// that slot's entry then (ctDenseOf, kept per slot): no search.
//
// The frame's pairs are compacted in batches of consecutive pairs (one batch, unless the manifold
// slots of all pairs do not fit in one binding): per batch, its manifold slots and pairs are bound
// (slot k is the frame's pair first + k), and
//   ctFlags:      per block of CT_MASK_BLOCK slots (one invocation, every block of the batch's
//                 slots and one past them), the mask of the slots k < n (its pairs) that touch
//                 (count > 0) at ctOffsets[blocks + 1 + b] and its count at ctOffsets[b]; with
//                 the reuse stage's status of the slots (ctParams.slotStatus), a kept slot
//                 touches and one apart does not, and only the others' manifolds are read (on a
//                 GPU a status word is 4 bytes, a slot's count a sector of its own);
//                 ctOffsets[blocks] = 0 closes the counts (on a GPU a workgroup reads its
//                 blocks' slots together, row by row: ctGroupRows); with the status, the slots
//                 it leaves to the collide (collided this frame) and those of them that touch
//                 are added to ctStatusCounts (what a frame's reuse counts derive from);
//   (an exclusive scan of the counts, shaders/scan.wgsl: each block's place, the batch's total at
//                 [blocks]);
//   ctScatter:    touching slot k goes to entry i = ctCounts.total (the batches before) + its
//                 block's place + the touching slots below it in the block, when i < capacity:
//                 the entry's manifold (its header is ctPatch's), its ids,
//                 and ctDenseOf[first + k] = i (else CONTACT_NONE). A workgroup's entries are
//                 consecutive: on a GPU (CT_STAGED_STORES) the workgroup copies them a word per
//                 invocation (the slots' manifold words as they are, and a provisional header:
//                 every sector stored whole), so that a warp's loads and stores fill whole cache
//                 lines (one entry per invocation puts each lane in a line of its own); a CPU
//                 adapter runs that slower than it saves, and the host compiles direct stores
//                 there.
//                 ctScatterPaged is the same for a list of two pages (ctStoreWord);
//   ctAccumulate: ctCounts.total += the batch's total (saturating); then, as if the batch were the
//                 last (the last batch's values stand), ctFinalize: written = min(total, capacity),
//                 overflow; the grids of the kernels below (over the written entries, dispatched
//                 indirectly) and the sizes of the event scans;
// then, once per frame:
//   ctPersist:    per entry, last frame's entry of the same pair (ctDenseOf of its prevSlot); each
//                 point takes that entry's user value of the point with the same feature id, else 0
//                 (a frame recorded without user values writes none; the next reads none of it);
//                 `previous` and `matched` into the entry's ids; last frame's entry marked continued;
//   ctPatch:      per block of CT_MASK_BLOCK entries (one invocation, one mask word each), its
//                 entries' headers (pair, `previous`, `matched`: the ids' first four words) and
//                 their pairs into ctKeys; which began (no previous) and which of last frame's
//                 entries ended (not continued), as bit masks, and how many of each: the block
//                 counts, began blocks then ended (on a GPU row by row, as ctFlags);
//   (an exclusive scan of the block counts: where each block's events go);
//   ctEvents:     per block (one invocation), its began and ended pairs, in list order, from its
//                 block's places on (the set bits of its masks, lowest first); and their counts.
// A settled scene has few events: the events pass writes no per-entry array, its scan runs over a
// sixteenth of the entries, and its last kernel's work is the events alone.
//
// No atomics but sums (a workgroup's count of its entries, the collided slots): every output is a
// function of the input alone, byte for byte, whatever the batches. Needs the per-dimension layout
// files and contact-list-layout.wgsl before it, and prepended by the host CONTACTS_WORKGROUP_SIZE,
// CONTACT_NONE, the reuse status values CT_SLOT_KEPT, CT_SLOT_APART, CT_SLOT_COLLIDE and the slot
// flags CT_TOUCHES, CT_COLLIDED. Rows of workgroups as in scan.wgsl (linear workgroup index wid.x +
// wid.y * nwg.x; surplus invocations return at once). Loops over a block of entries or slots run to
// bounds read at run time (32 known steps are unrolled: slow to compile). Each kernel binds at most
// 8 storage buffers (WebGPU's default limit).

// Pages: the dense list may exceed one binding (maxStorageBufferBindingSize); it is bound as two
// pages of ctParams.pageEntries entries (the second aliasing a spare when one page holds it all),
// and ctStore* pick the page. The pages are bound as words (CT_CONTACT_WORDS an entry): an entry
// (ContactManifold2D / 3D) is a header word (bodyA, bodyB, previous, matched) and the manifold's
// words.

// Per entry: its header's words (its pair, then what ctPersist finds: `previous`, `matched`), its
// slot in the frame's pair list, and its point ids: what ctPatch and the next frame's persistence
// and events read (compact, unpaged).
struct CtEntryIds {
  bodyA: u32,
  bodyB: u32,
  previous: u32,
  matched: u32,
  slot: u32,
  count: u32,
  ids: array<u32, CT_MAX_POINTS>,
}

@group(0) @binding(0) var<uniform> ctParams: ContactParams;
@group(0) @binding(1) var<storage, read> ctManifolds: array<vec4u>;                 // this batch's slots, CT_MANIFOLD_WORDS words each
@group(0) @binding(2) var<storage, read> ctPairs: array<vec2u>;                     // this batch's pairs
@group(0) @binding(3) var<storage, read_write> ctOffsets: array<u32>;
@group(0) @binding(4) var<storage, read_write> ctCounts: ContactCounts;
@group(0) @binding(5) var<storage, read_write> ctDenseOf: array<u32>;               // per pair slot of the frame: its entry
@group(0) @binding(6) var<storage, read> ctPrevSlot: array<u32>;                    // per pair slot: its slot last frame
@group(0) @binding(7) var<storage, read> ctPrevDenseOf: array<u32>;                 // last frame's ctDenseOf
@group(0) @binding(8) var<storage, read_write> ctContacts0: array<vec4u>;          // the dense list: page 0
@group(0) @binding(9) var<storage, read_write> ctContinued: array<u32>;             // per last frame's entry: 1 when continued
@group(0) @binding(10) var<storage, read_write> ctUserValues: array<CtUserValues>;
@group(0) @binding(11) var<storage, read> ctPrevIds: array<CtEntryIds>;
@group(0) @binding(12) var<storage, read_write> ctEventScratch: array<u32>;         // the event blocks' counts (scanned), then their masks
@group(0) @binding(13) var<storage, read> ctPrevUserValues: array<CtUserValues>;
@group(0) @binding(14) var<storage, read> ctPrevCounts: ContactCounts;
@group(0) @binding(15) var<storage, read> ctSlotStatus: array<u32>;               // this batch's slots: the reuse stage's status (ctParams.slotStatus)
@group(0) @binding(16) var<storage, read_write> ctBegan: array<vec2u>;              // pairs that began touching
@group(0) @binding(17) var<storage, read_write> ctContacts1: array<vec4u>;         // page 1
@group(0) @binding(18) var<storage, read_write> ctIds: array<CtEntryIds>;
@group(0) @binding(20) var<storage, read_write> ctEnded: array<vec2u>;              // pairs that stopped touching
@group(0) @binding(21) var<storage, read_write> ctKeys: array<vec2u>;               // per entry: its pair (the solver's colouring reads it)
@group(0) @binding(22) var<storage, read_write> ctDispatch: ContactDispatch;
@group(0) @binding(23) var<storage, read_write> ctStatusCounts: array<atomic<u32>, 2>;  // ctFlags, with the status: collided slots, those that touch

const CT_CONTACT_WORDS: u32 = CT_MANIFOLD_WORDS + 1u;

// Word w of the dense list (entry w / CT_CONTACT_WORDS), in its page; with `paged` false, page 0
// holds every entry. A lane-wise choice of page costs a SIMD adapter both sides' stores (masked)
// and their compile: the scatter of a list that one page holds compiles page 0 alone.
fn ctStoreWord(w: u32, v: vec4u, paged: bool) {
  let pageWords = ctParams.pageEntries * CT_CONTACT_WORDS;
  if (!paged || w < pageWords) { ctContacts0[w] = v; } else { ctContacts1[w - pageWords] = v; }
}

// Entry j's header word (bodyA, bodyB, previous, matched), stored whole: a GPU turns a store of
// part of a 32-byte sector into a read of the sector and a merge.
fn ctStoreHeader(j: u32, h: vec4u) {
  if (j < ctParams.pageEntries) {
    ctContacts0[j * CT_CONTACT_WORDS] = h;
  } else {
    ctContacts1[(j - ctParams.pageEntries) * CT_CONTACT_WORDS] = h;
  }
}

// The manifold of the batch's slot k, as its words.
fn ctManifoldWordsAt(k: u32) -> array<vec4u, CT_MANIFOLD_WORDS> {
  var w: array<vec4u, CT_MANIFOLD_WORDS>;
  for (var i = 0u; i < CT_MANIFOLD_WORDS; i++) { w[i] = ctManifolds[k * CT_MANIFOLD_WORDS + i]; }
  return w;
}

// The manifold of the batch's slot k.
fn ctManifoldAt(k: u32) -> CtManifold {
  return ctManifoldFromWords(ctManifoldWordsAt(k));
}

// The batch's slot k as ctFlags takes it, with one read of its status: CT_TOUCHES when it touches
// (its manifold has points: a slot the reuse stage kept does, one it proved apart does not, the
// others' manifolds are read), and with a status CT_COLLIDED for a slot left to the collide.
fn ctSlotFlags(k: u32) -> u32 {
  var status = CT_SLOT_COLLIDE;
  if (ctParams.slotStatus != 0u) { status = ctSlotStatus[k]; }
  if (status == CT_SLOT_KEPT) { return CT_TOUCHES; }
  if (status == CT_SLOT_APART) { return 0u; }
  let touches = select(0u, CT_TOUCHES, ctManifoldAt(k).count > 0u);
  return touches | select(0u, CT_COLLIDED, ctParams.slotStatus != 0u && status == CT_SLOT_COLLIDE);
}

// Slot flags f's share of ctStatusCounts: the slots left to the collide, and those that touch.
fn ctCollided(f: u32) -> vec2u {
  let collided = (f & CT_COLLIDED) != 0u;
  return vec2u(select(0u, 1u, collided), select(0u, 1u, collided && (f & CT_TOUCHES) != 0u));
}

// An invocation's collided slots into ctStatusCounts (few invocations have any).
fn ctAddCollided(collided: vec2u) {
  if (collided.x > 0u) { atomicAdd(&ctStatusCounts[0], collided.x); }
  if (collided.y > 0u) { atomicAdd(&ctStatusCounts[1], collided.y); }
}

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

// Blocks of CT_MASK_BLOCK over n items (the batch's slots, or the events' entries).
fn ctBlockCount(n: u32) -> u32 {
  return n / CT_MASK_BLOCK + select(0u, 1u, n % CT_MASK_BLOCK != 0u);
}

// The batch's slot blocks; their masks follow their counts and the 0 closing them.
fn ctSlotBlocks() -> u32 {
  return ctBlockCount(ctParams.slots);
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctFlags(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let b = ctInvocation(wid, nwg, lid);
  let blocks = ctSlotBlocks();
  let n = ctBatchPairs();
  var mask = 0u;
  var collided = vec2u(0u);
  if (CT_STAGED_STORES) {
    // The workgroup's blocks together, a row of its slots at a time (barriers: no return before).
    let rows = ctGroupRows(b - lid, n, lid);
    for (var r = 0u; r < rows; r++) {
      let i = r * CONTACTS_WORKGROUP_SIZE + lid;
      let k = (b - lid) * CT_MASK_BLOCK + i;
      if (k < n) {
        let f = ctSlotFlags(k);
        if ((f & CT_TOUCHES) != 0u) { ctGroupBit(0u, i); }
        collided += ctCollided(f);
      }
    }
    workgroupBarrier();
    mask = atomicLoad(&ctMasks[lid]);
  } else if (b < blocks) {
    // To a bound known at run time: a loop of 32 known steps is unrolled, its code 32 times over.
    let first = b * CT_MASK_BLOCK;
    let end = min(max(n, first), first + CT_MASK_BLOCK);
    for (var k = first; k < end; k++) {
      let f = ctSlotFlags(k);
      if ((f & CT_TOUCHES) != 0u) { mask |= 1u << (k - first); }
      collided += ctCollided(f);
    }
  }
  ctAddCollided(collided);
  if (b < blocks) {
    ctOffsets[blocks + 1u + b] = mask;
    ctOffsets[b] = countOneBits(mask);
  } else if (b == blocks) {
    ctOffsets[b] = 0u;
  }
}

// On a GPU (CT_STAGED_STORES) the mask kernels build a workgroup's blocks together: in row r,
// invocation l reads item r × CONTACTS_WORKGROUP_SIZE + l of the workgroup's, so that a warp reads
// consecutive items (one block per invocation has each lane read its own lines, one at a time).
// ctMasks: the blocks' masks (two sets for the events).
var<workgroup> ctMasks: array<atomic<u32>, 2 * CONTACTS_WORKGROUP_SIZE>;
var<workgroup> ctRows: u32;

// The rows that hold items below n of the workgroup whose first block is b0, the same for every
// invocation (a barrier: call in uniform control flow).
fn ctGroupRows(b0: u32, n: u32, lid: u32) -> u32 {
  if (lid == 0u) {
    let first = min(b0 * CT_MASK_BLOCK, n);
    let items = min(n - first, CONTACTS_WORKGROUP_SIZE * CT_MASK_BLOCK);
    ctRows = (items + CONTACTS_WORKGROUP_SIZE - 1u) / CONTACTS_WORKGROUP_SIZE;
  }
  return workgroupUniformLoad(&ctRows);
}

// Item i of the workgroup's into mask set `masks` (0 or 1).
fn ctGroupBit(masks: u32, i: u32) {
  atomicOr(&ctMasks[masks * CONTACTS_WORKGROUP_SIZE + i / CT_MASK_BLOCK], 1u << (i % CT_MASK_BLOCK));
}

// The batch's total: the scanned block counts at their end; then the counts and grids as if the
// batch were the frame's last (the last batch's stand): one dispatch, not two.
@compute @workgroup_size(1)
fn ctAccumulate() {
  ctCounts.total = ctSatAdd(ctCounts.total, ctOffsets[ctSlotBlocks()]);
  ctFinalize();
}

fn ctFinalize() {
  let total = ctCounts.total;
  let written = min(total, ctParams.capacity);
  ctCounts.written = written;
  ctCounts.overflow = select(0u, 1u, total > ctParams.capacity);
  let prevWritten = ctPrevWritten();
  let entries = ctGrid(written);
  let blocks = ctBlockCount(max(written, prevWritten));
  let events = ctGrid(blocks + 1u);
  ctEventScratch[2u * blocks] = 0u;                    // closes the block counts for their scan
  ctDispatch = ContactDispatch(entries.x, entries.y, 1u, events.x, events.y, 1u, 2u * blocks + 1u);
}


// Last frame's entries (0 when it may not be read).
fn ctPrevWritten() -> u32 {
  return select(0u, ctPrevCounts.written, ctParams.prevValid != 0u);
}

// Workgroups for n invocations, as rows of at most 65535 (x, y).
fn ctGrid(n: u32) -> vec2u {
  let groups = n / CONTACTS_WORKGROUP_SIZE + select(0u, 1u, n % CONTACTS_WORKGROUP_SIZE != 0u);
  let x = min(groups, CT_MAX_GROUPS_PER_DIMENSION);
  return vec2u(x, select(0u, (groups + x - 1u) / max(x, 1u), x > 0u));
}

// Slot k's place among the batch's touching slots (its block's place + the touching slots below
// it in the block), or CONTACT_NONE when it does not touch.
fn ctPlace(k: u32) -> u32 {
  let b = k / CT_MASK_BLOCK;
  let bit = 1u << (k % CT_MASK_BLOCK);
  let mask = ctOffsets[ctSlotBlocks() + 1u + b];
  if ((mask & bit) == 0u) { return CONTACT_NONE; }
  return ctSatAdd(ctOffsets[b], countOneBits(mask & (bit - 1u)));
}

// The workgroup's entries (CT_STAGED_STORES): how many, and the slot of each, in order.
var<workgroup> ctGroupEntries: atomic<u32>;
var<workgroup> ctEntrySlots: array<u32, CONTACTS_WORKGROUP_SIZE>;

// ctScatter for a list that page 0 holds (capacity <= pageEntries), ctScatterPaged for one of two.
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctScatter(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  ctScatterSlot(ctInvocation(wid, nwg, lid), lid, false);
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctScatterPaged(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  ctScatterSlot(ctInvocation(wid, nwg, lid), lid, true);
}

// Slot k of the batch into the list (invocation lid of its workgroup). Call in workgroup-uniform
// control flow (the staged copy waits for the whole workgroup).
fn ctScatterSlot(k: u32, lid: u32, paged: bool) {
  let n = ctBatchPairs();
  // No return before the staged copy's barrier: every invocation reaches it.
  var entry = CONTACT_NONE;
  if (k < n) {
    let place = ctPlace(k);
    let i = ctSatAdd(ctCounts.total, place);
    let slot = ctParams.first + k;
    if (place != CONTACT_NONE && i < ctParams.capacity) { entry = i; }
    ctDenseOf[slot] = entry;
    if (entry != CONTACT_NONE) {
      let pair = ctPairs[k];
      let words = ctManifoldWordsAt(k);
      let m = ctManifoldFromWords(words);
      // `previous` and `matched` are ctPersist's.
      var ids = CtEntryIds(pair.x, pair.y, CONTACT_NONE, 0u, slot, m.count, array<u32, CT_MAX_POINTS>());
      for (var p = 0u; p < CT_MAX_POINTS; p++) {
        ids.ids[p] = ctPointId(m, p);
      }
      ctIds[entry] = ids;
      if (!CT_STAGED_STORES) {
        // The words already read: a CPU adapter does not load them again across the stores above.
        let at = entry * CT_CONTACT_WORDS + 1u;
        for (var w = 0u; w < CT_MANIFOLD_WORDS; w++) { ctStoreWord(at + w, words[w], paged); }
      }
    }
  }
  if (CT_STAGED_STORES) {
    // The workgroup's entries are consecutive, from the running total plus the place of its first
    // slot's block (the workgroup starts a block). They are copied a word per invocation, so that
    // loads and stores both run along consecutive words and no invocation holds an entry; the
    // header too (ctPatch's, provisional here): a sector stored in part costs a GPU a read of it.
    let first = ctSatAdd(ctCounts.total, ctOffsets[min((k - lid) / CT_MASK_BLOCK, ctSlotBlocks())]);
    if (entry != CONTACT_NONE) {
      atomicAdd(&ctGroupEntries, 1u);
      ctEntrySlots[entry - first] = k;
    }
    workgroupBarrier();
    let count = atomicLoad(&ctGroupEntries) * CT_CONTACT_WORDS;
    for (var t = lid; t < count; t += CONTACTS_WORKGROUP_SIZE) {
      let s = ctEntrySlots[t / CT_CONTACT_WORDS];
      let w = t % CT_CONTACT_WORDS;
      var v: vec4u;
      if (w == 0u) {
        v = vec4u(ctPairs[s], CONTACT_NONE, 0u);
      } else {
        v = ctManifolds[s * CT_MANIFOLD_WORDS + w - 1u];
      }
      ctStoreWord(first * CT_CONTACT_WORDS + t, v, paged);
    }
  }
}

// Last frame's entry of entry j's pair, or CONTACT_NONE.
fn ctPrevious(j: u32) -> u32 {
  if (ctParams.prevValid == 0u) { return CONTACT_NONE; }
  let prevSlot = ctPrevSlot[ctIds[j].slot];
  if (prevSlot == CONTACT_NONE) { return CONTACT_NONE; }
  return ctPrevDenseOf[prevSlot];
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctPersist(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let j = ctInvocation(wid, nwg, lid);
  if (j >= ctCounts.written) { return; }
  let previous = ctPrevious(j);
  var matched = 0u;
  var count = 0u;
  var prevCount = 0u;
  // Both entries' ids in registers (loops of known bounds, constant indices); the values are read
  // in place, one per matched point.
  var ids: array<u32, CT_MAX_POINTS>;
  var prevIds: array<u32, CT_MAX_POINTS>;
  if (previous != CONTACT_NONE) {
    count = ctIds[j].count;
    ids = ctIds[j].ids;
    prevCount = ctPrevIds[previous].count;
    prevIds = ctPrevIds[previous].ids;
  }
  for (var i = 0u; i < CT_MAX_POINTS; i++) {
    // Last frame's first point with this point's id.
    var source = CT_MAX_POINTS;
    for (var q = 0u; q < CT_MAX_POINTS; q++) {
      if (source == CT_MAX_POINTS && q < prevCount && prevIds[q] == ids[i]) { source = q; }
    }
    let found = i < count && source < CT_MAX_POINTS;
    if (found) { matched |= 1u << i; }
    // A frame without user values (ctParams.values 0) neither reads nor writes them.
    if (ctParams.values != 0u) {
      var value = CtUserValue();
      if (found && ctParams.prevValues != 0u) { value = ctPrevUserValues[previous].points[source]; }
      ctUserValues[j].points[i] = value;
    }
  }
  if (CT_STAGED_STORES) {
    // On a GPU the entry's ids are stored whole: a warp's consecutive entries then fill whole
    // sectors, where two words of each would leave every sector part-written (a read and a merge).
    var whole = ctIds[j];
    whole.previous = previous;
    whole.matched = matched;
    ctIds[j] = whole;
  } else {
    ctIds[j].previous = previous;
    ctIds[j].matched = matched;
  }
  // A previous entry continues into at most one entry (one pair).
  if (previous != CONTACT_NONE) { ctContinued[previous] = 1u; }
}

// Entry j's header and key, from its ids; whether it began (it has no previous entry).
fn ctPatchEntry(j: u32) -> bool {
  let ids = ctIds[j];
  ctStoreHeader(j, vec4u(ids.bodyA, ids.bodyB, ids.previous, ids.matched));
  ctKeys[j] = vec2u(ids.bodyA, ids.bodyB);
  return ids.previous == CONTACT_NONE;
}

// Invocation eb: event block eb's entries patched (ctPatchEntry), and its masks (bit i for its
// entry i) at eventMasksAt + 2 eb (began) and + 1 (ended), and their counts.
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctPatch(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
           @builtin(local_invocation_index) lid: u32) {
  let eb = ctInvocation(wid, nwg, lid);
  let written = ctCounts.written;
  let prevWritten = ctPrevWritten();
  let n = max(written, prevWritten);
  let blocks = ctBlockCount(n);
  var began = 0u;
  var ended = 0u;
  if (CT_STAGED_STORES) {
    // As ctFlags: the workgroup's blocks together (barriers: no return before).
    let rows = ctGroupRows(eb - lid, n, lid);
    for (var r = 0u; r < rows; r++) {
      let i = r * CONTACTS_WORKGROUP_SIZE + lid;
      let j = (eb - lid) * CT_MASK_BLOCK + i;
      if (j < written && ctPatchEntry(j)) { ctGroupBit(0u, i); }
      if (j < prevWritten && ctContinued[j] == 0u) { ctGroupBit(1u, i); }
    }
    workgroupBarrier();
    began = atomicLoad(&ctMasks[lid]);
    ended = atomicLoad(&ctMasks[CONTACTS_WORKGROUP_SIZE + lid]);
  } else if (eb < blocks) {
    // To a bound known at run time, as in ctFlags.
    let first = eb * CT_MASK_BLOCK;
    let end = min(n, first + CT_MASK_BLOCK);
    for (var j = first; j < end; j++) {
      if (j < written && ctPatchEntry(j)) { began |= 1u << (j - first); }
      if (j < prevWritten && ctContinued[j] == 0u) { ended |= 1u << (j - first); }
    }
  }
  if (eb >= blocks) { return; }
  ctEventScratch[ctParams.eventMasksAt + 2u * eb] = began;
  ctEventScratch[ctParams.eventMasksAt + 2u * eb + 1u] = ended;
  ctEventScratch[eb] = countOneBits(began);
  ctEventScratch[blocks + eb] = countOneBits(ended);
}

// After the scan of the block counts: ctEventScratch[b] holds the began events before block b,
// [blocks + b] all began events and the ended ones before block b, [2 blocks] them all.
// Invocation eb (every event block, and one past them): block eb's began pairs, then its ended
// ones, lowest bit first, from the block's places on; invocation 0 writes the counts.
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn ctEvents(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
            @builtin(local_invocation_index) lid: u32) {
  let eb = ctInvocation(wid, nwg, lid);
  let blocks = ctBlockCount(max(ctCounts.written, ctPrevWritten()));
  let beganTotal = ctEventScratch[blocks];
  if (eb == 0u) {
    ctCounts.began = beganTotal;
    ctCounts.ended = ctEventScratch[2u * blocks] - beganTotal;
  }
  if (eb >= blocks) { return; }
  let first = eb * CT_MASK_BLOCK;
  // Loops of as many steps as the block has events (a settled scene: none).
  var began = ctEventScratch[ctParams.eventMasksAt + 2u * eb];
  var at = ctEventScratch[eb];
  while (began != 0u) {
    let j = first + firstTrailingBit(began);
    ctBegan[at] = vec2u(ctIds[j].bodyA, ctIds[j].bodyB);
    at++;
    began &= began - 1u;
  }
  var ended = ctEventScratch[ctParams.eventMasksAt + 2u * eb + 1u];
  at = ctEventScratch[blocks + eb] - beganTotal;
  while (ended != 0u) {
    let j = first + firstTrailingBit(ended);
    ctEnded[at] = vec2u(ctPrevIds[j].bodyA, ctPrevIds[j].bodyB);
    at++;
    ended &= ended - 1u;
  }
}
