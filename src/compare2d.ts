// Compares two manifold lists slot by slot (GPU against CPU, or any two runs of the same pairs).
// Tolerances are relative to the pair's size: f32 on either side moves points by a few ulps of
// the coordinates involved.

import type { ManifoldJson } from './pack2d.ts';

export interface Mismatch {
  index: number;
  reason: string;
}

/**
 * The manifolds of `a` and `b` that differ: count, ids, normal (1e-4), positions and depths
 * (`tolerance` × `scales[index]`, default scale 1).
 */
export function compareManifolds2D(
  a: readonly ManifoldJson[], b: readonly ManifoldJson[], tolerance = 1e-4, scales?: ArrayLike<number>,
): Mismatch[] {
  const out: Mismatch[] = [];
  if (a.length !== b.length) return [{ index: -1, reason: `${a.length} manifolds against ${b.length}` }];
  for (let i = 0; i < a.length; i++) {
    const ma = a[i]!;
    const mb = b[i]!;
    const tol = tolerance * (scales?.[i] ?? 1);
    let reason = '';
    if (ma.pair[0] !== mb.pair[0] || ma.pair[1] !== mb.pair[1]) reason = 'different pairs';
    else if (ma.points.length !== mb.points.length) reason = `point count ${ma.points.length} vs ${mb.points.length}`;
    else if (ma.points.length > 0 && Math.hypot(ma.normal[0]! - mb.normal[0]!, ma.normal[1]! - mb.normal[1]!) > tolerance) reason = 'normal';
    else {
      for (let k = 0; k < ma.points.length && !reason; k++) {
        const pa = ma.points[k]!;
        const pb = mb.points[k]!;
        if (pa.id !== pb.id) reason = `point ${k} id ${pa.id} vs ${pb.id}`;
        else if (Math.hypot(pa.position[0]! - pb.position[0]!, pa.position[1]! - pb.position[1]!) > tol) reason = `point ${k} position`;
        else if (Math.abs(pa.depth - pb.depth) > tol) reason = `point ${k} depth`;
      }
    }
    if (reason) out.push({ index: i, reason });
  }
  return out;
}
