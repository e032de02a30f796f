// Contact reduction (mirror of shaders/reduce3d.wgsl): the clipped candidate points of a face
// contact reduced to at most MAX_MANIFOLD_POINTS_3D that keep the deepest point (to within the
// linear slop) and the largest area (the recipe of Bullet's contact clipping,
// btPolyhedralContactClipping, with Box3D's hysteresis). Scalars inside (flat candidates): it runs
// on most face contacts of resting boxes.

import {
  MAX_CLIP_POINTS_3D,
  MAX_MANIFOLD_POINTS_3D,
  REDUCTION_DEPTH_TOLERANCE_3D,
  REDUCTION_HYSTERESIS_3D,
} from '../constants3d.ts';
import { pushPoint3D, swapId3D, type LocalManifold3D } from './manifold3d.ts';
import { vec3, type Vec3, type Vec3Like } from './vec3.ts';

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

/** What a pick scores by: the candidates' own measures, and the picks taken before it (WGSL: `struct Picks3D`). */
export interface Picks3D {
  /** At most 4 candidates: each kept, in order. */
  all: boolean;
  /** The first pick's depth bound. */
  tolDepth: number;
  centroid: Vec3;
  normal: Vec3;
  /** The first three picks' candidates, and their points. */
  index: Int32Array;
  a: Vec3;
  b: Vec3;
  c: Vec3;
  /** The winding of (a, b, c) around the normal. */
  sign: number;
}

const picks: Picks3D = {
  all: false,
  tolDepth: 0,
  centroid: vec3.create(),
  normal: vec3.create(),
  index: new Int32Array(3),
  a: vec3.create(),
  b: vec3.create(),
  c: vec3.create(),
  sign: 1,
};

/**
 * Pushes the n candidates (n > 0) onto the manifold (pushPoint3D), reduced to at most 4: up to 4
 * are all kept, in order; of more, the deepest point, the one farthest from it, the one making the
 * largest triangle with both, the one adding the largest area outside that triangle. Each pick
 * takes, of the candidates within REDUCTION_HYSTERESIS_3D of the best score, the one first in
 * feature id order (firstById3D): points of nearly equal merit are chosen by who they are, not by
 * where the clip loop started, so the same points are kept when the reference face moves from A
 * to B (ids are in A, B order either way) and when A and B are exchanged. The first pick is, of
 * the points within REDUCTION_DEPTH_TOLERANCE_3D of the deepest, one farthest from the
 * candidates' centroid: a resting pair's depths follow its wobble, its corners do not. Returns the
 * number pushed.
 */
export function reduceManifold3D(
  lm: LocalManifold3D,
  cand: Candidates3D,
  n: number,
  normal: Vec3Like,
  scale: number,
): number {
  const candPos = cand.pos;
  const candSep = cand.sep;
  let lo = Infinity;
  let gx = 0,
    gy = 0,
    gz = 0;
  for (let i = 0; i < n; i++) {
    if (candSep[i] < lo) lo = candSep[i];
    gx += candPos[3 * i];
    gy += candPos[3 * i + 1];
    gz += candPos[3 * i + 2];
  }
  picks.all = n <= MAX_MANIFOLD_POINTS_3D;
  picks.tolDepth = lo + REDUCTION_DEPTH_TOLERANCE_3D * scale;
  vec3.set(gx / n, gy / n, gz / n, picks.centroid);
  vec3.copy(normal, picks.normal);
  picks.index.fill(-1);
  picks.sign = 1;
  let count = 0;
  for (let pick = 0; pick < MAX_MANIFOLD_POINTS_3D; pick++) {
    let hi = 0;
    for (let i = 0; i < n; i++) {
      const score = pickScore3D(cand, pick, i, picks);
      if (score > hi) hi = score;
    }
    // The first pick always takes a point (the deepest is within its own tolerance); a later one
    // none when no candidate scores above 0.
    let taken = -1;
    if (pick === 0 || hi > 0) {
      for (let i = 0; i < n; i++) {
        if (
          pickScore3D(cand, pick, i, picks) >= REDUCTION_HYSTERESIS_3D * hi &&
          firstById3D(cand, i, taken)
        )
          taken = i;
      }
    }
    if (taken < 0) break;
    pushPoint3D(lm, vec3.load(candPos, 3 * taken, point), candSep[taken], cand.id[taken]);
    takePick3D(pick, taken, point, picks);
    count++;
  }
  return count;
}

const point = vec3.create();

/**
 * The score of candidate i for pick `pick` (0 to 3), larger is better; -1 where the pick may not
 * take it.
 */
export function pickScore3D(cand: Candidates3D, pick: number, i: number, picks: Picks3D): number {
  if (picks.all) return i === pick ? 1 : -1;
  const candPos = cand.pos;
  const px = candPos[3 * i],
    py = candPos[3 * i + 1],
    pz = candPos[3 * i + 2];
  if (pick === 0) {
    // Of the deepest candidates, the one farthest out from the centroid (a corner of the region).
    const g = picks.centroid;
    const dx = px - g[0],
      dy = py - g[1],
      dz = pz - g[2];
    return cand.sep[i] <= picks.tolDepth ? dx * dx + dy * dy + dz * dz : -1;
  }
  const a = picks.a;
  if (pick === 1) {
    // The farthest from a.
    const dx = px - a[0],
      dy = py - a[1],
      dz = pz - a[2];
    return dx * dx + dy * dy + dz * dz;
  }
  if (pick === 2) {
    // The largest |signed area| of (a, b, p) around the normal.
    return Math.abs(signedArea3D(picks, px, py, pz));
  }
  // The largest area added outside triangle (a, b, c).
  const index = picks.index;
  if (i === index[0] || i === index[1] || i === index[2]) return -1;
  const b = picks.b;
  const c = picks.c;
  const nrm = picks.normal;
  return addedArea3D(
    cand,
    i,
    a[0],
    a[1],
    a[2],
    b[0],
    b[1],
    b[2],
    c[0],
    c[1],
    c[2],
    nrm[0],
    nrm[1],
    nrm[2],
    picks.sign,
  );
}

/** Records pick `pick`: candidate i, at point p. */
export function takePick3D(pick: number, i: number, p: Vec3Like, picks: Picks3D): void {
  if (pick === 0) {
    picks.index[0] = i;
    vec3.copy(p, picks.a);
  } else if (pick === 1) {
    picks.index[1] = i;
    vec3.copy(p, picks.b);
  } else if (pick === 2) {
    picks.index[2] = i;
    vec3.copy(p, picks.c);
    picks.sign = signedArea3D(picks, p[0], p[1], p[2]) > 0 ? 1 : -1;
  }
}

/** The signed area of (a, b, p) around the normal (twice the triangle's). */
function signedArea3D(picks: Picks3D, px: number, py: number, pz: number): number {
  const a = picks.a;
  const b = picks.b;
  const nrm = picks.normal;
  const abx = b[0] - a[0],
    aby = b[1] - a[1],
    abz = b[2] - a[2];
  const qx = px - a[0],
    qy = py - a[1],
    qz = pz - a[2];
  return (
    nrm[0] * (aby * qz - abz * qy) + nrm[1] * (abz * qx - abx * qz) + nrm[2] * (abx * qy - aby * qx)
  );
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
