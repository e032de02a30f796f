// Contact reduction (mirror of shaders/reduce3d.wgsl): the clipped candidate points of a face
// contact reduced to at most MAX_MANIFOLD_POINTS_3D that keep the deepest point and the largest
// area (seed 003's recipe with Box3D's hysteresis).

import { MAX_CLIP_POINTS_3D, MAX_MANIFOLD_POINTS_3D, REDUCTION_DEPTH_TOLERANCE_3D, REDUCTION_HYSTERESIS_3D } from '../constants3d.ts';

/** Candidate points before reduction: position (working frame), separation, feature id. */
export const candPos = new Float64Array(3 * MAX_CLIP_POINTS_3D);
export const candSep = new Float64Array(MAX_CLIP_POINTS_3D);
export const candId = new Uint32Array(MAX_CLIP_POINTS_3D);
/** Indices of the kept candidates, written by reduceManifold3d. */
export const chosen = new Int32Array(MAX_MANIFOLD_POINTS_3D);

/**
 * Reduces candidates (n > 4) to 4 in `chosen`: the deepest point, the one farthest from it, the
 * one making the largest triangle with both, the one adding the largest area outside that
 * triangle. Each pick takes the first candidate within REDUCTION_HYSTERESIS_3D of the best score,
 * so equal-merit points are chosen in a stable order. Returns the number chosen.
 */
export function reduceManifold3d(n: number, nx: number, ny: number, nz: number, scale: number): number {
  // 1. Deepest (smallest separation), first within the depth tolerance.
  let lo = Infinity;
  for (let i = 0; i < n; i++) if (candSep[i]! < lo) lo = candSep[i]!;
  let i0 = 0;
  const tolDepth = lo + REDUCTION_DEPTH_TOLERANCE_3D * scale;
  for (let i = 0; i < n; i++) {
    if (candSep[i]! <= tolDepth) {
      i0 = i;
      break;
    }
  }
  const ax = candPos[3 * i0]!, ay = candPos[3 * i0 + 1]!, az = candPos[3 * i0 + 2]!;
  // 2. Farthest from it.
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const dx = candPos[3 * i]! - ax, dy = candPos[3 * i + 1]! - ay, dz = candPos[3 * i + 2]! - az;
    const d = dx * dx + dy * dy + dz * dz;
    if (d > hi) hi = d;
  }
  chosen[0] = i0;
  if (!(hi > 0)) return 1;
  let i1 = 0;
  for (let i = 0; i < n; i++) {
    const dx = candPos[3 * i]! - ax, dy = candPos[3 * i + 1]! - ay, dz = candPos[3 * i + 2]! - az;
    if (dx * dx + dy * dy + dz * dz >= REDUCTION_HYSTERESIS_3D * hi) {
      i1 = i;
      break;
    }
  }
  chosen[1] = i1;
  const bx = candPos[3 * i1]!, by = candPos[3 * i1 + 1]!, bz = candPos[3 * i1 + 2]!;
  // 3. Largest |signed area| of (a, b, p) around the normal.
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  hi = 0;
  for (let i = 0; i < n; i++) {
    const px = candPos[3 * i]! - ax, py = candPos[3 * i + 1]! - ay, pz = candPos[3 * i + 2]! - az;
    const area = Math.abs(nx * (aby * pz - abz * py) + ny * (abz * px - abx * pz) + nz * (abx * py - aby * px));
    if (area > hi) hi = area;
  }
  if (!(hi > 0)) return 2;
  let i2 = 0;
  let sign = 1;
  for (let i = 0; i < n; i++) {
    const px = candPos[3 * i]! - ax, py = candPos[3 * i + 1]! - ay, pz = candPos[3 * i + 2]! - az;
    const area = nx * (aby * pz - abz * py) + ny * (abz * px - abx * pz) + nz * (abx * py - aby * px);
    if (Math.abs(area) >= REDUCTION_HYSTERESIS_3D * hi) {
      i2 = i;
      sign = area > 0 ? 1 : -1;
      break;
    }
  }
  chosen[2] = i2;
  // 4. Largest area added outside triangle (a, b, c) (wound by `sign` around the normal): first
  // the best score, then the first candidate within the hysteresis of it.
  const cx = candPos[3 * i2]!, cy = candPos[3 * i2 + 1]!, cz = candPos[3 * i2 + 2]!;
  hi = 0;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    const added = addedArea3d(i, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz, sign);
    if (added > hi) hi = added;
  }
  if (!(hi > 0)) return 3;
  let i3 = -1;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    if (addedArea3d(i, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz, sign) >= REDUCTION_HYSTERESIS_3D * hi) {
      i3 = i;
      break;
    }
  }
  if (i3 < 0) return 3;
  chosen[3] = i3;
  return 4;
}

/**
 * Area candidate i adds outside triangle (a, b, c) wound by `sign` around n: the largest area of
 * the triangles it makes with the edges it lies outside of (0 inside).
 */
export function addedArea3d(
  i: number,
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number,
  nx: number, ny: number, nz: number, sign: number,
): number {
  const px = candPos[3 * i]!, py = candPos[3 * i + 1]!, pz = candPos[3 * i + 2]!;
  let added = 0;
  for (let k = 0; k < 3; k++) {
    const ux = k === 0 ? ax : k === 1 ? bx : cx;
    const uy = k === 0 ? ay : k === 1 ? by : cy;
    const uz = k === 0 ? az : k === 1 ? bz : cz;
    const wx = k === 0 ? bx : k === 1 ? cx : ax;
    const wy = k === 0 ? by : k === 1 ? cy : ay;
    const wz = k === 0 ? bz : k === 1 ? cz : az;
    const ex = wx - ux, ey = wy - uy, ez = wz - uz;
    const qx = px - ux, qy = py - uy, qz = pz - uz;
    const area = -sign * (nx * (ey * qz - ez * qy) + ny * (ez * qx - ex * qz) + nz * (ex * qy - ey * qx));
    if (area > added) added = area;
  }
  return added;
}
