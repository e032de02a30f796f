// Fat boxes on the host, the CPU reference of the GPU broadphase's (shaders/broadphase.wgsl,
// bpAabb): each body keeps a box grown by fatMargin × its shape's extent beyond its tight box, and
// takes a new one only when its tight box leaves it (or its shape changed, or on a refit). The
// pairs are those of overlapping fat boxes: the GPU finds them incrementally, this reference with
// a fresh sweep and prune every frame (the same set by construction).

import { bodyFilters, sweepAndPruneBoxes } from './broadphase.ts';

export class FatBoxes {
  /** Per body: minima then maxima, `dim` numbers each (sweepAndPruneBoxes' layout). */
  boxes = new Float64Array(0);
  private shapeOf = new Uint32Array(0);

  constructor(readonly dim: 2 | 3) {}

  /**
   * Keeps or renews each body's fat box around `tight` (per body [lo, hi] in `tight`'s layout: 2D
   * [x0, y0, x1, y1], 3D [x0, y0, z0, x1, y1, z1]); `refit` renews all (a first frame, renumbered
   * bodies). Returns the bodies that took a new box.
   */
  update(
    tight: Float64Array,
    bodyShape: Uint32Array,
    extents: ArrayLike<number>,
    fatMargin: number,
    refit: boolean,
  ): number {
    const n = bodyShape.length;
    const d = this.dim;
    const s = 2 * d;
    const fresh = refit ? 0 : Math.min(n, this.shapeOf.length);
    if (this.shapeOf.length !== n) {
      const boxes = new Float64Array(s * n);
      boxes.set(this.boxes.subarray(0, s * fresh));
      const shapeOf = new Uint32Array(n);
      shapeOf.set(this.shapeOf.subarray(0, fresh));
      this.boxes = boxes;
      this.shapeOf = shapeOf;
    }
    let moved = 0;
    for (let i = 0; i < n; i++) {
      let inside = i < fresh && this.shapeOf[i] === bodyShape[i];
      for (let k = 0; k < d && inside; k++)
        inside =
          this.boxes[s * i + k] <= tight[s * i + k] &&
          tight[s * i + d + k] <= this.boxes[s * i + d + k];
      if (inside) continue;
      const grow = fatMargin * extents[bodyShape[i]];
      for (let k = 0; k < d; k++) {
        this.boxes[s * i + k] = tight[s * i + k] - grow;
        this.boxes[s * i + d + k] = tight[s * i + d + k] + grow;
      }
      this.shapeOf[i] = bodyShape[i];
      moved++;
    }
    return moved;
  }

  /** The pairs (a < b, in (a, b) order) of overlapping fat boxes that the shapes' filters allow. */
  pairs(
    shapes: readonly { categoryBits: number; maskBits: number }[],
    bodyShape: Uint32Array,
  ): Uint32Array {
    return sweepAndPruneBoxes(
      this.boxes,
      bodyShape.length,
      this.dim,
      bodyFilters(shapes, bodyShape),
    );
  }
}

/**
 * Per pair of `pairs`: its slot in `last` (last frame's pairs), under the bodies' old numbers when
 * `remap` (per body its index last frame, or 0xffffffff) is given; 0xffffffff for a pair that was
 * not there or whose bodies swapped order. The host's bpPrevSlots.
 */
export function prevSlots(
  pairs: Uint32Array,
  last: Uint32Array | null,
  remap?: Uint32Array,
): Uint32Array {
  const none = 0xffffffff;
  const out = new Uint32Array(pairs.length / 2).fill(none);
  if (!last) return out;
  const where = new Map<number, Map<number, number>>();
  for (let k = 0; k < last.length / 2; k++) {
    let group = where.get(last[2 * k]);
    if (!group) where.set(last[2 * k], (group = new Map()));
    if (!group.has(last[2 * k + 1])) group.set(last[2 * k + 1], k);
  }
  for (let k = 0; k < out.length; k++) {
    const a = remap ? remap[pairs[2 * k]] : pairs[2 * k];
    const b = remap ? remap[pairs[2 * k + 1]] : pairs[2 * k + 1];
    if (a === none || b === none || (remap && a >= b)) continue;
    out[k] = where.get(a)?.get(b) ?? none;
  }
  return out;
}
