// Contact reduction (mirror of shaders/reduce3d.wgsl): the clipped candidate points of a face
// contact reduced to at most MAX_MANIFOLD_POINTS_3D that keep the deepest point (to within the
// linear slop) and the largest area (the recipe of Bullet's contact clipping,
// btPolyhedralContactClipping, with Box3D's hysteresis). Scalars inside (flat candidates): it runs
// on most face contacts of resting boxes. The shader runs the picks as one loop over a score
// function (pickScore3D) that pushes each pick's point, for its code size; here each pick keeps
// loops of its own, which JavaScript runs twice as fast: the same scores, compared in the same
// order, and the points pushed in pick order by the caller (docs/frame.md, *Cold start*).

import {
  MAX_CLIP_POINTS_3D,
  REDUCTION_DEPTH_TOLERANCE_3D,
  REDUCTION_HYSTERESIS_3D,
} from '../constants3d.ts';
import { swapId3D } from './manifold3d.ts';
import type { Vec3Like } from './vec3.ts';

/** Candidate points before reduction: position (working frame, x, y, z at 3 i), separation, feature id (WGSL: cand, candId). */
export interface Candidates3D {
  pos: Float64Array;
  sep: Float64Array;
  id: Uint32Array;
}

export function emptyCandidates3D(): Candidates3D {
  return {
    pos: new Float64Array(3 * MAX_CLIP_POINTS_3D),
    sep: new Float64Array(MAX_CLIP_POINTS_3D),
    id: new Uint32Array(MAX_CLIP_POINTS_3D),
  };
}

/**
 * Reduces the n > 4 candidates to 4 in `chosen`: the deepest point, the one farthest from it, the
 * one making the largest triangle with both, the one adding the largest area outside that
 * triangle. Each pick takes, of the candidates within REDUCTION_HYSTERESIS_3D of the best score,
 * the one first in feature id order (firstById3D): points of nearly equal merit are chosen by who
 * they are, not by where the clip loop started, so the same points are kept when the reference
 * face moves from A to B (ids are in A, B order either way) and when A and B are exchanged. The
 * first pick is, of the points within REDUCTION_DEPTH_TOLERANCE_3D of the deepest, one farthest
 * from the candidates' centroid: a resting pair's depths follow its wobble, its corners do not.
 * Returns the number chosen.
 */
export function reduceManifold3D(
  cand: Candidates3D,
  n: number,
  normal: Vec3Like,
  scale: number,
  chosen: Int32Array,
): number {
  const i0 = pickDeepest3D(cand, n, scale);
  chosen[0] = i0;
  const i1 = pickFarthest3D(cand, n, i0);
  if (i1 < 0) return 1;
  chosen[1] = i1;
  const i2 = pickWidest3D(cand, n, i0, i1, normal, widest).index;
  if (i2 < 0) return 2;
  chosen[2] = i2;
  const i3 = pickOutside3D(cand, n, i0, i1, i2, normal, widest.sign);
  if (i3 < 0) return 3;
  chosen[3] = i3;
  return 4;
}

/** The third pick and the winding of (a, b, it) around the normal (WGSL: `struct AreaPick3D`). */
export interface AreaPick3D {
  /** -1: none (every candidate on the line a–b). */
  index: number;
  sign: number;
}

const widest: AreaPick3D = { index: -1, sign: 1 };

/**
 * Pick 1: of the deepest candidates (within the depth tolerance of the smallest separation), the
 * one farthest out from the candidates' centroid (a corner of the region).
 */
export function pickDeepest3D(cand: Candidates3D, n: number, scale: number): number {
  const candPos = cand.pos;
  const candSep = cand.sep;
  let lo = Infinity;
  for (let i = 0; i < n; i++) if (candSep[i] < lo) lo = candSep[i];
  const tolDepth = lo + REDUCTION_DEPTH_TOLERANCE_3D * scale;
  let gx = 0,
    gy = 0,
    gz = 0;
  for (let i = 0; i < n; i++) {
    gx += candPos[3 * i];
    gy += candPos[3 * i + 1];
    gz += candPos[3 * i + 2];
  }
  gx /= n;
  gy /= n;
  gz /= n;
  let far = 0;
  for (let i = 0; i < n; i++) {
    if (candSep[i] > tolDepth) continue;
    const dx = candPos[3 * i] - gx,
      dy = candPos[3 * i + 1] - gy,
      dz = candPos[3 * i + 2] - gz;
    far = Math.max(far, dx * dx + dy * dy + dz * dz);
  }
  let i0 = -1;
  for (let i = 0; i < n; i++) {
    const dx = candPos[3 * i] - gx,
      dy = candPos[3 * i + 1] - gy,
      dz = candPos[3 * i + 2] - gz;
    if (
      candSep[i] <= tolDepth &&
      dx * dx + dy * dy + dz * dz >= REDUCTION_HYSTERESIS_3D * far &&
      firstById3D(cand, i, i0)
    )
      i0 = i;
  }
  return i0;
}

/** Pick 2: the candidate farthest from pick a = i0; -1 when every candidate is at a. */
export function pickFarthest3D(cand: Candidates3D, n: number, i0: number): number {
  const candPos = cand.pos;
  const ax = candPos[3 * i0],
    ay = candPos[3 * i0 + 1],
    az = candPos[3 * i0 + 2];
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const dx = candPos[3 * i] - ax,
      dy = candPos[3 * i + 1] - ay,
      dz = candPos[3 * i + 2] - az;
    const d = dx * dx + dy * dy + dz * dz;
    if (d > hi) hi = d;
  }
  if (!(hi > 0)) return -1;
  let i1 = -1;
  for (let i = 0; i < n; i++) {
    const dx = candPos[3 * i] - ax,
      dy = candPos[3 * i + 1] - ay,
      dz = candPos[3 * i + 2] - az;
    if (dx * dx + dy * dy + dz * dz >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(cand, i, i1))
      i1 = i;
  }
  return i1;
}

/**
 * Pick 3: the candidate making the largest |signed area| of (a, b, p) around the normal (a = i0,
 * b = i1), and the sign of that area, into `out` (index -1 when all are on the line a–b).
 */
export function pickWidest3D(
  cand: Candidates3D,
  n: number,
  i0: number,
  i1: number,
  normal: Vec3Like,
  out: AreaPick3D,
): AreaPick3D {
  const candPos = cand.pos;
  const nx = normal[0],
    ny = normal[1],
    nz = normal[2];
  const ax = candPos[3 * i0],
    ay = candPos[3 * i0 + 1],
    az = candPos[3 * i0 + 2];
  const abx = candPos[3 * i1] - ax,
    aby = candPos[3 * i1 + 1] - ay,
    abz = candPos[3 * i1 + 2] - az;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const px = candPos[3 * i] - ax,
      py = candPos[3 * i + 1] - ay,
      pz = candPos[3 * i + 2] - az;
    const area = Math.abs(
      nx * (aby * pz - abz * py) + ny * (abz * px - abx * pz) + nz * (abx * py - aby * px),
    );
    if (area > hi) hi = area;
  }
  let i2 = -1;
  let sign = 1;
  if (hi > 0) {
    for (let i = 0; i < n; i++) {
      const px = candPos[3 * i] - ax,
        py = candPos[3 * i + 1] - ay,
        pz = candPos[3 * i + 2] - az;
      const area =
        nx * (aby * pz - abz * py) + ny * (abz * px - abx * pz) + nz * (abx * py - aby * px);
      if (Math.abs(area) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(cand, i, i2)) {
        i2 = i;
        sign = area > 0 ? 1 : -1;
      }
    }
  }
  out.index = i2;
  out.sign = sign;
  return out;
}

/**
 * Pick 4: the candidate adding the largest area outside triangle (a, b, c) = (i0, i1, i2), wound
 * by `sign` around the normal: the best score, then the candidate within the hysteresis of it
 * first in id order; -1 when none adds any.
 */
export function pickOutside3D(
  cand: Candidates3D,
  n: number,
  i0: number,
  i1: number,
  i2: number,
  normal: Vec3Like,
  sign: number,
): number {
  const candPos = cand.pos;
  const nx = normal[0],
    ny = normal[1],
    nz = normal[2];
  const ax = candPos[3 * i0],
    ay = candPos[3 * i0 + 1],
    az = candPos[3 * i0 + 2];
  const bx = candPos[3 * i1],
    by = candPos[3 * i1 + 1],
    bz = candPos[3 * i1 + 2];
  const cx = candPos[3 * i2],
    cy = candPos[3 * i2 + 1],
    cz = candPos[3 * i2 + 2];
  let hi = 0;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    const added = addedArea3D(cand, i, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz, sign);
    if (added > hi) hi = added;
  }
  if (!(hi > 0)) return -1;
  let i3 = -1;
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    if (
      addedArea3D(cand, i, ax, ay, az, bx, by, bz, cx, cy, cz, nx, ny, nz, sign) >=
        REDUCTION_HYSTERESIS_3D * hi &&
      firstById3D(cand, i, i3)
    )
      i3 = i;
  }
  return i3;
}

/**
 * Whether candidate i comes before the current pick (-1: none yet) in feature id order, the id's
 * two halves taken in ascending order so that the order is the same with A and B exchanged.
 */
export function firstById3D(cand: Candidates3D, i: number, pick: number): boolean {
  const id = cand.id;
  return pick < 0 || Math.min(id[i], swapId3D(id[i])) < Math.min(id[pick], swapId3D(id[pick]));
}

/**
 * Area candidate i adds outside triangle (a, b, c) wound by `sign` around n: the largest area of
 * the triangles it makes with the edges it lies outside of (0 inside).
 */
export function addedArea3D(
  cand: Candidates3D,
  i: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  nx: number,
  ny: number,
  nz: number,
  sign: number,
): number {
  const candPos = cand.pos;
  const px = candPos[3 * i],
    py = candPos[3 * i + 1],
    pz = candPos[3 * i + 2];
  let added = 0;
  for (let k = 0; k < 3; k++) {
    const ux = k === 0 ? ax : k === 1 ? bx : cx;
    const uy = k === 0 ? ay : k === 1 ? by : cy;
    const uz = k === 0 ? az : k === 1 ? bz : cz;
    const wx = k === 0 ? bx : k === 1 ? cx : ax;
    const wy = k === 0 ? by : k === 1 ? cy : ay;
    const wz = k === 0 ? bz : k === 1 ? cz : az;
    const ex = wx - ux,
      ey = wy - uy,
      ez = wz - uz;
    const qx = px - ux,
      qy = py - uy,
      qz = pz - uz;
    const area =
      -sign * (nx * (ey * qz - ez * qy) + ny * (ez * qx - ex * qz) + nz * (ex * qy - ey * qx));
    if (area > added) added = area;
  }
  return added;
}
