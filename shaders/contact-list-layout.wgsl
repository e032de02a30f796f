// Buffer layouts of the dense contact list shared by 2D and 3D (src/gpu/contact-list.ts,
// src/cpu/contact-list.ts): the counts and the kernels' parameters. The entries and user values are
// per dimension (contact-list2d-layout.wgsl, contact-list3d-layout.wgsl). The host reads every offset from
// here through wgsl_reflect; nothing is copied by hand.

// What one frame of the stage found; written on the GPU, read by later stages or the host.
struct ContactCounts {
  total: u32,                                          // touching manifolds found (the real total, even beyond capacity); a running sum over the batches until ctFinalize
  written: u32,                                        // entries in the dense list: min(total, capacity)
  overflow: u32,                                       // 1 when total > capacity: grow the list and run the frame again
  pairCount: u32,                                      // pairs this frame read (from pairCountSource, clamped to the slots)
  began: u32,                                          // contact events: pairs touching now that did not last frame
  ended: u32,                                          // pairs that touched last frame and do not now
  _pad0: u32,
  _pad1: u32,
}

// Per-batch parameters (a uniform, written by the host). A frame's pairs are compacted in batches
// of consecutive pairs (one batch unless the manifold slots of all pairs do not fit one binding).
struct ContactParams {
  pairSlots: u32,                                      // pair slots of the whole frame (pairCount is clamped to it)
  capacity: u32,                                       // entries the dense list holds this frame
  prevValid: u32,                                      // 1: last frame's list and slots may be read (0 after a reset)
  first: u32,                                          // this batch: the frame's pair index of its slot 0
  slots: u32,                                          // this batch: its pair slots (the manifold and pair bindings hold them)
  pageEntries: u32,                                    // entries per page of the dense list (bindings)
  eventMasksAt: u32,                                   // the event scratch's word where the blocks' flag masks start
  slotStatus: u32,                                     // this batch: 1 when ctSlotStatus holds its slots' reuse status (ctFlags reads only the collided slots' manifolds)
  values: u32,                                         // 1: ctPersist writes this frame's user values (0: the frame has none)
  prevValues: u32,                                     // 1: last frame's user values may be read (it wrote them)
}

// The per-entry kernels' grids and the event scan's size, written by ctFinalize once the frame's
// entries are known: persistence and events run over the written entries, not the capacity.
struct ContactDispatch {
  entriesX: u32,                                       // dispatchWorkgroupsIndirect over the written entries
  entriesY: u32,
  entriesZ: u32,
  eventsX: u32,                                        // over the event blocks (CT_MASK_BLOCK entries each) + 1: ctEvents' invocation 0 writes the counts
  eventsY: u32,
  eventsZ: u32,
  eventBlocks: u32,                                    // elements of the event scan: 2 × the event blocks + 1
}
