// Manifold reuse between frames, what both dimensions share (src/cpu/reuse2d.ts, reuse3d.ts; the
// WGSL gets the same numbers from reuseConstantsWgsl() in src/gpu/reuse.ts).
//
// Per pair slot, the reuse stage writes a status into the slot's flag: the pair kept last
// frame's manifold with its depths recomputed (KEPT), it had no contact and provably still has
// none (APART), or it needs the full collide (COLLIDE, the one value 1 so that `flag == 1` reads
// "collide"). Both KEPT and APART wrote the pair's manifold slot.

export const REUSE_STATUS = { kept: 0, collide: 1, apart: 2 } as const;

/** Anchor2D.countJoin's flag of a join contact (the count is the low byte). */
export const ANCHOR_JOIN = 0x100;

/** prevSlot's "no previous slot": the pair is new this frame. */
export const REUSE_NO_SLOT = 0xffffffff;

/** What one reuse pass did: pairs per status (order-free totals). */
export interface ReuseCounts {
  kept: number;
  apart: number;
  collide: number;
}

/**
 * Last frame's slot of this frame's slot k: prevSlot[k], or with no prevSlot (the same pair list
 * as last frame, slot for slot) firstSlot + k; REUSE_NO_SLOT when there is no last frame or the
 * slot lies past last frame's anchors.
 */
export function previousSlot(prevSlot: Uint32Array | null, firstSlot: number, k: number, prevAnchors: number): number {
  const p = prevSlot ? prevSlot[k]! : firstSlot + k;
  return p < prevAnchors ? p : REUSE_NO_SLOT;
}
