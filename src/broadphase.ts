// Sweep and prune over world AABBs, shared by the 2D and 3D host broadphases: boxes sorted by
// their minimum x (then index), swept along x, tested on the other axes, and kept when their
// collision filters let them collide (src/filter.ts). Output: pairs (a < b), sorted by a then b,
// so results come out in a deterministic order.

import { shouldCollide } from './filter.ts';

/**
 * All pairs of `n` boxes that overlap. `boxes` holds per box its minima then its maxima,
 * `dim` (2 or 3) numbers each: [min0, .., min(dim-1), max0, .., max(dim-1)]; `filters`, when
 * given, per box its category and mask bits (a pair failing shouldCollide is left out).
 */
export function sweepAndPruneBoxes(
  boxes: Float64Array,
  n: number,
  dim: number,
  filters?: Uint32Array,
): Uint32Array {
  const stride = 2 * dim;
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => boxes[stride * a] - boxes[stride * b] || a - b,
  );
  const pairs: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = order[i];
    const oa = stride * a;
    const maxX = boxes[oa + dim];
    for (let j = i + 1; j < n; j++) {
      const b = order[j];
      const ob = stride * b;
      if (boxes[ob] > maxX) break;
      let overlap = true;
      for (let k = 1; k < dim; k++) {
        if (boxes[ob + k] > boxes[oa + dim + k] || boxes[oa + k] > boxes[ob + dim + k]) {
          overlap = false;
          break;
        }
      }
      if (
        overlap &&
        filters &&
        !shouldCollide(filters[2 * a], filters[2 * a + 1], filters[2 * b], filters[2 * b + 1])
      )
        overlap = false;
      if (overlap) pairs.push(Math.min(a, b), Math.max(a, b));
    }
  }
  const idx = Array.from({ length: pairs.length / 2 }, (_, k) => k).sort(
    (p, q) => pairs[2 * p] - pairs[2 * q] || pairs[2 * p + 1] - pairs[2 * q + 1],
  );
  const out = new Uint32Array(pairs.length);
  idx.forEach((k, i) => {
    out[2 * i] = pairs[2 * k];
    out[2 * i + 1] = pairs[2 * k + 1];
  });
  return out;
}

/** Per body its shape's category and mask bits, for sweepAndPruneBoxes. */
export function bodyFilters(
  shapes: readonly { categoryBits: number; maskBits: number }[],
  bodyShape: Uint32Array,
): Uint32Array {
  const out = new Uint32Array(2 * bodyShape.length);
  bodyShape.forEach((s, i) => {
    out[2 * i] = shapes[s].categoryBits;
    out[2 * i + 1] = shapes[s].maskBits;
  });
  return out;
}
