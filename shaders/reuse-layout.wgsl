// The reuse stage's parameters (src/gpu/reuse.ts reflects them from here; shaders/reuse.wgsl
// reads them). One uniform slot per window and pass.

struct ReuseParams {
  pairCount: u32,                                      // pairs this frame (a GPU count is copied here)
  margin: f32,
  firstSlot: u32,                                      // the window's slot 0 as a slot of the frame (REUSE_PREV_IDENTITY: last frame's too)
  prevMode: u32,                                       // REUSE_PREV_NONE, REUSE_PREV_IDENTITY or REUSE_PREV_SLOTS
  slots: u32,                                          // slots of the window (a larger pair count is clamped to it)
  workCount: u32,                                      // anchorSlots: entries of its work list (a GPU count copied here)
  twins: u32,                                          // 1: anchors carried in place may be left where they are (ReuseInputs.twins)
  held: u32,                                           // 1: the window's manifold slots hold last frame's (ReuseInputs.manifoldsHeld)
  prevFirst: u32,                                      // last frame's slot of the first anchor bound as anchorsPrev
}
