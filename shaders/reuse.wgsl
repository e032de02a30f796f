// The manifold reuse stage's kernels, one implementation for 2D and 3D (src/gpu/reuse.ts drives
// them; src/cpu/reuse2d.ts and reuse3d.ts run the same loops on the host). The per-dimension file
// before it (reuse2d.wgsl, reuse3d.wgsl) names the types RuBody, RuAnchor, RuManifold and the
// calls ruReuse, ruAnchor. One invocation per pair slot of a window of the frame's pairs:
//   reuseSlots:  last frame's anchor of the slot's pair (ruPreviousSlot) reused at the current
//                poses: kept (its manifold written into the slot, its anchor carried into this
//                frame's list) or apart (the empty manifold written, the anchor carried), else the
//                slot flagged for the full collide. ruFlags[k] = REUSE_KEPT, REUSE_COLLIDE (1) or
//                REUSE_APART; ruCounts[status] += the window's slots with that status;
//   anchorSlots: after the narrowphase filled the flagged slots, their anchors from their new
//                manifolds and the current poses.
// Deterministic: every output word is a function of the inputs; the counts are sums (atomics,
// added per workgroup, whose order does not change them). REUSE_WORKGROUP_SIZE and the status
// constants are prepended by the host; reuse-layout.wgsl (ReuseParams) comes before.

@group(0) @binding(0) var<uniform> ruParams: ReuseParams;
@group(0) @binding(1) var<storage, read> ruBodies: array<RuBody>;
@group(0) @binding(2) var<storage, read> ruPairs: array<vec2u>;                    // the window's pairs
@group(0) @binding(3) var<storage, read> ruPrevSlot: array<u32>;                   // the window's last-frame slots
@group(0) @binding(4) var<storage, read> ruAnchorsPrev: array<RuAnchor>;           // last frame's, whole
@group(0) @binding(5) var<storage, read_write> ruAnchorsCur: array<RuAnchor>;      // the window's
@group(0) @binding(6) var<storage, read_write> ruManifolds: array<RuManifold>;     // the window's
@group(0) @binding(7) var<storage, read_write> ruFlags: array<u32>;                // the window's
@group(0) @binding(8) var<storage, read_write> ruCounts: array<atomic<u32>, 4>;    // per status

var<workgroup> ruGroupCounts: array<atomic<u32>, 4>;

// Last frame's slot of the window's slot k, or REUSE_NO_SLOT (no last frame, a new pair, or a
// slot past last frame's anchors).
fn ruPreviousSlot(k: u32) -> u32 {
  var p = REUSE_NO_SLOT;
  if (ruParams.prevMode == REUSE_PREV_IDENTITY) {
    p = ruParams.firstSlot + k;
  } else if (ruParams.prevMode == REUSE_PREV_SLOTS) {
    p = ruPrevSlot[k];
  }
  return select(REUSE_NO_SLOT, p, p < arrayLength(&ruAnchorsPrev));
}

// Slot of an invocation: rows of workgroups (linear workgroup index wid.x + wid.y * nwg.x), so
// any grid covering the pairs serves, the host's or the broadphase's indirect one.
fn ruInvocation(wid: vec3u, nwg: vec3u, li: u32) -> u32 {
  return (wid.x + wid.y * nwg.x) * REUSE_WORKGROUP_SIZE + li;
}

@compute @workgroup_size(REUSE_WORKGROUP_SIZE)
fn reuseSlots(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
              @builtin(local_invocation_index) li: u32) {
  let k = ruInvocation(wid, nwg, li);
  if (k < min(ruParams.pairCount, ruParams.slots)) {
    var status = REUSE_COLLIDE;
    let prev = ruPreviousSlot(k);
    if (prev != REUSE_NO_SLOT) {
      let pair = ruPairs[k];
      let anchor = ruAnchorsPrev[prev];
      var m: RuManifold;
      status = ruReuse(anchor, ruBodies[pair.x], ruBodies[pair.y], ruParams.margin, &m);
      if (status != REUSE_COLLIDE) {
        ruManifolds[k] = m;
        ruAnchorsCur[k] = anchor;
      }
    }
    ruFlags[k] = status;
    atomicAdd(&ruGroupCounts[status], 1u);
  }
  workgroupBarrier();
  if (li < 3u) {
    let c = atomicLoad(&ruGroupCounts[li]);
    if (c > 0u) { atomicAdd(&ruCounts[li], c); }
  }
}

@compute @workgroup_size(REUSE_WORKGROUP_SIZE)
fn anchorSlots(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) li: u32) {
  let k = ruInvocation(wid, nwg, li);
  if (k >= min(ruParams.pairCount, ruParams.slots)) { return; }
  if (ruFlags[k] != REUSE_COLLIDE) { return; }
  let pair = ruPairs[k];
  ruAnchorsCur[k] = ruAnchor(ruBodies[pair.x], ruBodies[pair.y], ruManifolds[k], ruParams.margin);
}
