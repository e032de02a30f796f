// Manifold reuse between frames, what both dimensions share (src/cpu/reuse2d.ts, reuse3d.ts; the
// WGSL gets the same numbers from reuseConstantsWgsl() in src/gpu/frame-wgsl.ts).
//
// Per pair slot, the reuse stage writes a status into the slot's flag: the pair kept last
// frame's manifold with its depths recomputed (KEPT), it had no contact and provably still has
// none (APART), or it needs the full collide (COLLIDE, the one value 1 so that `flag == 1` reads
// "collide"). Both KEPT and APART wrote the pair's manifold slot.

import { ANCHOR_JOIN, REUSE_NO_SLOT, REUSE_STATUS } from '../constants.ts';

export { ANCHOR_JOIN, REUSE_NO_SLOT, REUSE_STATUS };

/** What one reuse pass did: pairs per status (order-free totals). */
export interface ReuseCounts {
  kept: number;
  apart: number;
  collide: number;
}

/** What the kernels' loops need of a dimension: the WGSL's ruReuse and ruAnchor on packed buffers. */
export interface ReusePairs {
  /** 4-byte words per anchor. */
  anchorWords: number;
  /**
   * Anchor `prev` of `anchors` reused for pair (a, b) at the current poses: returns the
   * REUSE_STATUS, having written a kept or apart manifold into slot k of `manifolds`.
   */
  reuse(
    anchors: ArrayBuffer,
    prev: number,
    a: number,
    b: number,
    margin: number,
    manifolds: ArrayBuffer,
    k: number,
  ): number;
  /** The anchor of pair (a, b) from manifold slot k (a full collide's), into slot k of `anchors`. */
  anchor(
    a: number,
    b: number,
    manifolds: ArrayBuffer,
    k: number,
    margin: number,
    anchors: ArrayBuffer,
  ): void;
}

/**
 * The reuse kernel's loop (shaders/reuse.wgsl, reuseSlots): per slot k < pairCount, last frame's
 * anchor (previousSlot) reused into manifold slot k (kept or apart) and carried into
 * anchorsCur[k], or the slot flagged for the full collide. flags[k] gets the REUSE_STATUS.
 * anchorsPrev null: no last frame (every pair collides). The kernel reads the margin as f32.
 */
export function reuseSlots(
  dim: ReusePairs,
  pairs: Uint32Array,
  pairCount: number,
  prevSlot: Uint32Array | null,
  firstSlot: number,
  anchorsPrev: ArrayBuffer | null,
  anchorsCur: ArrayBuffer,
  manifolds: ArrayBuffer,
  flags: Uint32Array,
  margin: number,
): ReuseCounts {
  const counts: ReuseCounts = { kept: 0, apart: 0, collide: 0 };
  const m32 = Math.fround(margin);
  const W = dim.anchorWords;
  const prevAnchors = anchorsPrev ? anchorsPrev.byteLength / (4 * W) : 0;
  const src = new Uint32Array(anchorsPrev ?? new ArrayBuffer(0));
  const dst = new Uint32Array(anchorsCur);
  for (let k = 0; k < pairCount; k++) {
    const prev = previousSlot(prevSlot, firstSlot, k, prevAnchors);
    let status: number = REUSE_STATUS.collide;
    if (prev !== REUSE_NO_SLOT) {
      status = dim.reuse(anchorsPrev!, prev, pairs[2 * k], pairs[2 * k + 1], m32, manifolds, k);
      if (status !== REUSE_STATUS.collide) dst.set(src.subarray(prev * W, (prev + 1) * W), k * W);
    }
    flags[k] = status;
    if (status === REUSE_STATUS.kept) counts.kept++;
    else if (status === REUSE_STATUS.apart) counts.apart++;
    else counts.collide++;
  }
  return counts;
}

/**
 * The anchor kernel's loop (anchorSlots): the anchor of every slot flagged for the full collide,
 * from its new manifold (the GPU walks the work list: the same slots, in the same order).
 */
export function anchorSlots(
  dim: ReusePairs,
  pairs: Uint32Array,
  pairCount: number,
  manifolds: ArrayBuffer,
  flags: Uint32Array,
  anchorsCur: ArrayBuffer,
  margin: number,
): void {
  const m32 = Math.fround(margin);
  for (let k = 0; k < pairCount; k++) {
    if (flags[k] === REUSE_STATUS.collide)
      dim.anchor(pairs[2 * k], pairs[2 * k + 1], manifolds, k, m32, anchorsCur);
  }
}

/**
 * Last frame's slot of this frame's slot k: prevSlot[k], or with no prevSlot (the same pair list
 * as last frame, slot for slot) firstSlot + k; REUSE_NO_SLOT when there is no last frame or the
 * slot lies past last frame's anchors.
 */
export function previousSlot(
  prevSlot: Uint32Array | null,
  firstSlot: number,
  k: number,
  prevAnchors: number,
): number {
  const p = prevSlot ? prevSlot[k] : firstSlot + k;
  return p < prevAnchors ? p : REUSE_NO_SLOT;
}
