// Compares two manifold lists slot by slot (GPU against CPU, or any two runs of the same pairs), in
// 2D or 3D (vectors of either length).
// Tolerances are relative to the pair's size, plus what f32 world coordinates cannot resolve: the
// kernel subtracts world positions in f32, so a pair at distance |p| from the origin carries an
// error of a few ulps of |p| (2^-24 |p| each) in every relative position, and in the normal that
// error divided by the pair's size.

import type { ManifoldJson } from './pack2d.ts';

/** ulps of the largest world coordinate that f32 arithmetic may lose on the way (a handful of operations). */
const F32_ULPS = 16;

export interface Mismatch {
  index: number;
  reason: string;
}

/** Euclidean distance of two vectors of the same length (2 or 3). */
function distance(a: readonly number[], b: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) s += ((a[i] ?? 0) - (b[i] ?? 0)) ** 2;
  return Math.sqrt(s);
}

/**
 * The manifolds of `a` and `b` that differ: count, ids, normal (1e-4), positions and depths
 * (`tolerance` × `scales[index]`, default scale 1).
 */
export function compareManifolds2D(
  a: readonly ManifoldJson[],
  b: readonly ManifoldJson[],
  tolerance = 1e-4,
  scales?: ArrayLike<number>,
): Mismatch[] {
  const out: Mismatch[] = [];
  if (a.length !== b.length)
    return [{ index: -1, reason: `${a.length} manifolds against ${b.length}` }];
  for (let i = 0; i < a.length; i++) {
    const ma = a[i];
    const mb = b[i];
    const scale = scales?.[i] ?? 1;
    let magnitude = 0;
    for (const p of [...ma.points, ...mb.points])
      for (const x of p.position) magnitude = Math.max(magnitude, Math.abs(x));
    const f32Error = F32_ULPS * magnitude * 2 ** -24;
    const tol = tolerance * scale + f32Error;
    const normalTol = tolerance + f32Error / scale;
    let reason = '';
    if (ma.pair[0] !== mb.pair[0] || ma.pair[1] !== mb.pair[1]) reason = 'different pairs';
    else if (ma.points.length !== mb.points.length)
      reason = `point count ${ma.points.length} vs ${mb.points.length}`;
    else if (ma.points.length > 0 && distance(ma.normal, mb.normal) > normalTol) reason = 'normal';
    else {
      for (let k = 0; k < ma.points.length && !reason; k++) {
        const pa = ma.points[k];
        const pb = mb.points[k];
        if (pa.id !== pb.id) reason = `point ${k} id ${pa.id} vs ${pb.id}`;
        else if (distance(pa.position, pb.position) > tol) reason = `point ${k} position`;
        else if (Math.abs(pa.depth - pb.depth) > tol) reason = `point ${k} depth`;
      }
    }
    if (reason) out.push({ index: i, reason });
  }
  return out;
}

/** The same comparison for 3D manifolds (3-vectors); see compareManifolds2D. */
export const compareManifolds3D = compareManifolds2D;
