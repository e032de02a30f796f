// The manifold reuse stage's kernels, one implementation for 2D and 3D (src/gpu/reuse.ts drives
// them; src/cpu/reuse2d.ts and reuse3d.ts run the same loops on the host). The per-dimension file
// before it (reuse2d.wgsl, reuse3d.wgsl) names the types RuBody, RuAnchor, RuManifold, the
// calls ruReuse, ruAnchor, and the struct words (ruManifoldWords, ruAnchorWords,
// ruManifoldFromWords, ruAnchorPrev, RU_COUNT_WORD).
// One invocation per pair slot of a window of the frame's pairs:
//   reuseSlots:  last frame's anchor of the slot's pair (ruPreviousSlot) reused at the current
//                poses: kept (its manifold written into the slot, its anchor carried into this
//                frame's list) or apart (the empty manifold written, the anchor carried), else the
//                slot flagged for the full collide. With ReuseParams.twins, an anchor read at its
//                own slot and marked ANCHOR_TWIN is already in this frame's list: nothing is
//                stored (a first carry in place marks both copies). With ReuseParams.held, a pair
//                apart at its own slot stores no manifold (the slot holds last frame's, empty).
//                ruFlags[k] = REUSE_KEPT, REUSE_COLLIDE (1) or REUSE_APART; when compiled
//                to (RU_COUNTS), ruTally[status] += the window's slots with that status; when
//                compiled to (RU_LIST), a slot flagged collide is appended to the work list
//                (ruTally[RU_LIST_LENGTH] its length, its slots from ruTally[RU_LIST_FIRST]);
//   anchorSlots: after the narrowphase filled the flagged slots, their anchors from their new
//                manifolds and the current poses: one invocation per entry of the work list
//                (the flagged slots), so that a warp's lanes all build anchors (a few flagged
//                slots scattered over the pairs would each hold a warp), and each stores its own
//                words (the slots are not consecutive).
// Manifolds and anchors leave as 16-byte words (ruManifoldWords, ruAnchorWords: the per-dimension
// file's pack functions). On a GPU (RU_STAGED_STORES) a workgroup stages its slots' structs in
// workgroup memory and writes them out word after word, so consecutive invocations store
// consecutive words: one struct per invocation has each lane of a warp store into a different
// cache line. A CPU adapter runs a workgroup as SIMD loops, where the staging's per-lane indexing
// costs more than it saves, so the host compiles direct stores there (docs/frame.md, measured).
// Deterministic: every output word is a function of the inputs; the counts are sums (atomics,
// whose order does not change them). The work list's order is the atomics' (a few percent of the
// slots, each appended with one add: no pass over the flags, no scan); what is made from it lands
// in each slot's own words, so its order changes no output. REUSE_WORKGROUP_SIZE, the status
// constants, RU_STAGED_STORES, RU_STAGE_SLOTS, RU_COUNTS, RU_LIST, RU_LIST_LENGTH and RU_LIST_FIRST
// are prepended by the host; reuse-layout.wgsl (ReuseParams) comes before.

@group(0) @binding(0) var<uniform> ruParams: ReuseParams;
@group(0) @binding(1) var<storage, read> ruBodies: array<RuBody>;
@group(0) @binding(2) var<storage, read> ruPairs: array<vec2u>;                    // the window's pairs
@group(0) @binding(3) var<storage, read> ruPrevSlot: array<u32>;                   // the window's last-frame slots
@group(0) @binding(4) var<storage, read_write> ruAnchorsPrev: array<vec4u>;       // last frame's from slot prevFirst, RU_ANCHOR_WORDS words each
@group(0) @binding(5) var<storage, read_write> ruAnchorsCur: array<vec4u>;        // the window's, RU_ANCHOR_WORDS words each
@group(0) @binding(6) var<storage, read_write> ruManifolds: array<vec4u>;         // the window's, RU_MANIFOLD_WORDS words each
@group(0) @binding(7) var<storage, read_write> ruFlags: array<u32>;                // the window's
@group(0) @binding(8) var<storage, read_write> ruTally: array<atomic<u32>>;       // per-status counts, or the work list
@group(0) @binding(14) var<storage, read> ruWork: array<u32>;                      // anchorSlots: the work list's slots

var<workgroup> ruGroupCounts: array<atomic<u32>, 4>;
// The workgroup's structs, word by word, and which of its slots write theirs. RU_STAGE_SLOTS is
// the workgroup's size when staged, else 1: declared workgroup memory is zeroed for every
// workgroup, used or not, and direct stores use none (docs/frame.md).
var<workgroup> ruStage: array<vec4u, RU_STAGE_SLOTS * RU_STAGE_WORDS>;
var<workgroup> ruWrites: array<u32, RU_STAGE_SLOTS>;

// Last frame's slot of the window's slot k, or REUSE_NO_SLOT (no last frame, a new pair, or a
// slot outside the part of last frame's anchors that is bound: from prevFirst on).
fn ruPreviousSlot(k: u32) -> u32 {
  var p = REUSE_NO_SLOT;
  if (ruParams.prevMode == REUSE_PREV_IDENTITY) {
    p = ruParams.firstSlot + k;
  } else if (ruParams.prevMode == REUSE_PREV_SLOTS) {
    p = ruPrevSlot[k];
  }
  let bound = p != REUSE_NO_SLOT && p >= ruParams.prevFirst &&
    p - ruParams.prevFirst < arrayLength(&ruAnchorsPrev) / RU_ANCHOR_WORDS;
  return select(REUSE_NO_SLOT, p, bound);
}

// The manifold of the window's slot k.
fn ruManifoldAt(k: u32) -> RuManifold {
  var w: array<vec4u, RU_MANIFOLD_WORDS>;
  for (var i = 0u; i < RU_MANIFOLD_WORDS; i++) { w[i] = ruManifolds[k * RU_MANIFOLD_WORDS + i]; }
  return ruManifoldFromWords(w);
}

// Slot of an invocation: rows of workgroups (linear workgroup index wid.x + wid.y * nwg.x), so
// any grid covering the pairs serves, the host's or the broadphase's indirect one.
fn ruInvocation(wid: vec3u, nwg: vec3u, li: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * REUSE_WORKGROUP_SIZE + li;
}

// Writes a struct of n words (the first n of `words`) into the window's slot k0 + li when `keep`
// (k0: the workgroup's slot 0), into the anchors or (toAnchors false) the manifolds. Staged
// (RU_STAGED_STORES): the workgroup's structs go through ruStage and leave word after word; else
// each invocation stores its own words. Call in uniform control flow (the staging waits for the
// whole workgroup).
fn ruWriteStruct(li: u32, k0: u32, words: array<vec4u, RU_STAGE_WORDS>, n: u32, keep: bool, toAnchors: bool) {
  if (RU_STAGED_STORES) {
    ruWrites[li] = select(0u, 1u, keep);
    // A warp none of whose slots keeps its struct skips the staging.
    if (keep) {
      for (var w = 0u; w < RU_STAGE_WORDS; w++) {
        if (w >= n) { break; }
        ruStage[li * n + w] = words[w];
      }
    }
    workgroupBarrier();
    for (var w = 0u; w < RU_STAGE_WORDS; w++) {
      if (w >= n) { break; }
      let i = w * REUSE_WORKGROUP_SIZE + li;
      if (ruWrites[i / n] != 0u) { ruStoreWord(toAnchors, k0 * n + i, ruStage[i]); }
    }
    workgroupBarrier();
  } else if (keep) {
    ruStoreStruct(k0 + li, words, n, toAnchors);
  }
}

// Each invocation its own struct: the first n of `words` into the window's slot k.
fn ruStoreStruct(k: u32, words: array<vec4u, RU_STAGE_WORDS>, n: u32, toAnchors: bool) {
  for (var w = 0u; w < RU_STAGE_WORDS; w++) {
    if (w >= n) { break; }
    ruStoreWord(toAnchors, k * n + w, words[w]);
  }
}

fn ruStoreWord(toAnchors: bool, i: u32, v: vec4u) {
  if (toAnchors) { ruAnchorsCur[i] = v; } else { ruManifolds[i] = v; }
}

@compute @workgroup_size(REUSE_WORKGROUP_SIZE)
fn reuseSlots(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) li: u32) {
  let k = ruInvocation(wid, nwg, li);
  let live = k < min(ruParams.pairCount, ruParams.slots);
  var status = REUSE_COLLIDE;
  var m: RuManifold;
  var anchor: RuAnchor;
  // With twins: the anchor stays at its slot (marked ANCHOR_TWIN when carried), and this frame's
  // buffer already holds it there (it was carried into last frame's from here, or marked).
  var atOwnSlot = false;
  var inPlace = false;
  var twin = false;
  if (live) {
    let prev = ruPreviousSlot(k);
    if (prev != REUSE_NO_SLOT) {
      let pair = ruPairs[k];
      var marked = false;
      anchor = ruAnchorPrev(prev - ruParams.prevFirst, &marked);
      atOwnSlot = prev == ruParams.firstSlot + k;
      inPlace = ruParams.twins != 0u && atOwnSlot;
      twin = inPlace && marked;
      status = ruReuse(anchor, ruBodies[pair.x], ruBodies[pair.y], ruParams.margin, &m);
    }
    ruFlags[k] = status;
  }
  // Kept or apart: the manifold written into the slot, the anchor carried into this frame's list
  // (a twin: nothing). Carried in place, both copies are marked: this one with its words, last
  // frame's with its count word (it is this slot's alone), so that neither is stored again while
  // the pair stays.
  let keep = live && status != REUSE_COLLIDE;
  // With held slots, a pair apart at its own slot finds its empty manifold there already.
  let emptyHeld = ruParams.held != 0u && atOwnSlot && status == REUSE_APART;
  ruWriteStruct(li, k - li, ruManifoldWords(m), RU_MANIFOLD_WORDS, keep && !emptyHeld, false);
  var words = ruAnchorWords(anchor);
  if (inPlace) { words[RU_COUNT_WORD].w |= ANCHOR_TWIN; }
  ruWriteStruct(li, k - li, words, RU_ANCHOR_WORDS, keep && !twin, true);
  if (keep && inPlace && !twin) {
    ruAnchorsPrev[(ruParams.firstSlot + k - ruParams.prevFirst) * RU_ANCHOR_WORDS + RU_COUNT_WORD].w = words[RU_COUNT_WORD].w;
  }
  if (RU_LIST && live && status == REUSE_COLLIDE) { ruListSlot(k); }
  // Compiled in only where asked (RU_COUNTS): its barrier costs a SIMD adapter even untaken.
  if (RU_COUNTS) { ruCountStatus(li, live, status); }
}

// Appends the window's slot k to the work list in ruTally: its length at RU_LIST_LENGTH (the spare
// word of the counts), its slots from RU_LIST_FIRST (a binding offset; the host sized it for every
// slot).
fn ruListSlot(k: u32) {
  let i = RU_LIST_FIRST + atomicAdd(&ruTally[RU_LIST_LENGTH], 1u);
  if (i < arrayLength(&ruTally)) { atomicStore(&ruTally[i], k); }
}

// Adds the workgroup's live slots per status to ruTally: per invocation to the workgroup's
// tallies, then one add per status. Call in uniform control flow.
fn ruCountStatus(li: u32, live: bool, status: u32) {
  if (live) { atomicAdd(&ruGroupCounts[status], 1u); }
  workgroupBarrier();
  if (li < 3u) {
    let c = atomicLoad(&ruGroupCounts[li]);
    if (c > 0u) { atomicAdd(&ruTally[li], c); }
  }
}

@compute @workgroup_size(REUSE_WORKGROUP_SIZE)
fn anchorSlots(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) li: u32) {
  let t = ruInvocation(wid, nwg, li);
  if (t >= ruParams.workCount) { return; }
  let k = ruWork[t];
  if (k >= min(ruParams.pairCount, ruParams.slots)) { return; }
  let pair = ruPairs[k];
  let anchor = ruAnchor(ruBodies[pair.x], ruBodies[pair.y], ruManifoldAt(k), ruParams.margin);
  ruStoreStruct(k, ruAnchorWords(anchor), RU_ANCHOR_WORDS, true);
}
