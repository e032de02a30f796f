// The local manifold, transforms, quaternions and feature ids of the 3D narrowphase (mirror of
// shaders/manifold3d.wgsl, function for function, same names).
//
// Frames. A pair is solved in the shape frame of its first (most complex) shape X: the origin is
// X's centre (body position + R_X · centre), the axes X's. Each shape of the pair is a `Hull3D`:
// the shape and the rigid transform of its shape frame into that working frame (identity for X,
// the relative pose for Y). The local manifold (`lm`) is built in the working frame and moved to
// world space at the end by `manifoldToWorld3d`.
//
// Nothing is allocated per pair: the scratch below is module-level and reused.

import { CONTACT_KIND_3D, CORE_DISTANCE_3D, FEATURE_EDGE_3D, FEATURE_VERTEX_3D, MAX_MANIFOLD_POINTS_3D } from '../constants3d.ts';
import type { Shape3D } from '../shapes3d.ts';

export { CONTACT_KIND_3D };

/** Where a shape is: position and unit quaternion [x, y, z, w] (a Body3D fits). */
export interface Transform3D {
  position: ArrayLike<number>;
  rotation: ArrayLike<number>;
}

/** A manifold, world space; flat arrays, preallocated by emptyManifold3D() and reused. */
export interface Manifold3D {
  /** Unit, world space, from A to B. */
  normal: Float64Array;
  count: number;
  kind: number;
  /** x,y,z per point: world, midway between the surfaces. */
  positions: Float64Array;
  /** Penetration along the normal (> 0 overlap, < 0 speculative). */
  depths: Float64Array;
  /** Feature ids: (feature of A) << 8 | (feature of B). */
  ids: Uint32Array;
}

export function emptyManifold3D(): Manifold3D {
  return {
    normal: new Float64Array(3),
    count: 0,
    kind: 0,
    positions: new Float64Array(3 * MAX_MANIFOLD_POINTS_3D),
    depths: new Float64Array(MAX_MANIFOLD_POINTS_3D),
    ids: new Uint32Array(MAX_MANIFOLD_POINTS_3D),
  };
}

/** A shape of the pair placed in the working frame (WGSL: `struct Hull3D`). */
export interface Hull3D {
  shape: Shape3D;
  /** Rotation of the shape frame into the working frame, row-major 3×3 (m[3 r + c]). */
  rot: Float64Array;
  /** Origin of the shape frame in the working frame. */
  pos: Float64Array;
}

export function emptyHull3D(shape: Shape3D): Hull3D {
  return { shape, rot: Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1), pos: new Float64Array(3) };
}

/**
 * The local manifold, in the working frame (WGSL: `var<private> lm: LocalManifold3D`). Points are
 * midway between the surfaces; `separations` are negated depths.
 */
export const lm = {
  normal: new Float64Array(3),
  count: 0,
  kind: 0,
  positions: new Float64Array(3 * MAX_MANIFOLD_POINTS_3D),
  separations: new Float64Array(MAX_MANIFOLD_POINTS_3D),
  ids: new Uint32Array(MAX_MANIFOLD_POINTS_3D),
};

/** Empties the local manifold. */
export function resetLocalManifold3d(): void {
  lm.count = 0;
  lm.kind = CONTACT_KIND_3D.none;
}

export function setNormal3d(nx: number, ny: number, nz: number): void {
  lm.normal[0] = nx;
  lm.normal[1] = ny;
  lm.normal[2] = nz;
}

/**
 * Sets the normal along the join (dx, dy, dz), of length dist, of two closest points; closer than
 * CORE_DISTANCE_3D × scale, along the SAT axis (fx, fy, fz) instead: the join of two points that
 * (nearly) touch points anywhere, its direction the rounding of their coordinates.
 */
export function setJoinNormal3d(dx: number, dy: number, dz: number, dist: number, fx: number, fy: number, fz: number, scale: number): void {
  if (dist > CORE_DISTANCE_3D * scale) setNormal3d(dx / dist, dy / dist, dz / dist);
  else setNormal3d(fx, fy, fz);
}

/** The smallest separation of the local manifold's points (Infinity when it has none). */
export function minSeparation3d(): number {
  let lo = Infinity;
  for (let k = 0; k < lm.count; k++) lo = Math.min(lo, lm.separations[k]!);
  return lo;
}

/** Appends a point (working frame) with its separation and feature id. */
export function pushPoint3d(x: number, y: number, z: number, sep: number, id: number): void {
  const i = lm.count++;
  lm.positions[3 * i] = x;
  lm.positions[3 * i + 1] = y;
  lm.positions[3 * i + 2] = z;
  lm.separations[i] = sep;
  lm.ids[i] = id;
}

/** Feature id of a point made by feature a of body A and feature b of body B. */
export function makeId3d(a: number, b: number): number {
  return ((a & 0xff) << 8) | (b & 0xff);
}

/** The id seen from the other body (halves exchanged). */
export function swapId3d(id: number): number {
  return ((id & 0xff) << 8) | ((id >> 8) & 0xff);
}

/** Feature code of a point at parameter s along edge e (v0 -> v1) of a hull. */
export function edgeFeature3d(h: Shape3D, e: number, s: number): number {
  if (s <= 0) return FEATURE_VERTEX_3D + h.edgeV0[e]!;
  if (s >= 1) return FEATURE_VERTEX_3D + h.edgeV1[e]!;
  return FEATURE_EDGE_3D + e;
}

/** Feature code of a point at parameter s along a round shape's core (sphere: its point). */
export function coreFeature3d(isSegment: boolean, s: number): number {
  if (!isSegment) return FEATURE_VERTEX_3D;
  if (s <= 0) return FEATURE_VERTEX_3D;
  if (s >= 1) return FEATURE_VERTEX_3D + 1;
  return FEATURE_EDGE_3D;
}

/** Row-major rotation matrix of unit quaternion q into m. */
export function quatToMatrix3d(q: ArrayLike<number>, m: Float64Array): void {
  const x = q[0]!;
  const y = q[1]!;
  const z = q[2]!;
  const w = q[3]!;
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  const xy = x * y;
  const xz = x * z;
  const yz = y * z;
  const wx = w * x;
  const wy = w * y;
  const wz = w * z;
  m[0] = 1 - 2 * (yy + zz);
  m[1] = 2 * (xy - wz);
  m[2] = 2 * (xz + wy);
  m[3] = 2 * (xy + wz);
  m[4] = 1 - 2 * (xx + zz);
  m[5] = 2 * (yz - wx);
  m[6] = 2 * (xz - wy);
  m[7] = 2 * (yz + wx);
  m[8] = 1 - 2 * (xx + yy);
}

/**
 * The transform taking `from`'s shape frame into `to`'s shape frame (both placed in the working
 * frame): rotation to.rotᵀ · from.rot (row-major, out[0..8]) and translation
 * to.rotᵀ · (from.pos − to.pos) (out[9..11]).
 */
export function relativeTransform3d(src: Hull3D, dst: Hull3D, out: Float64Array): void {
  const a = src.rot;
  const b = dst.rot;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) out[3 * r + c] = b[r]! * a[c]! + b[3 + r]! * a[3 + c]! + b[6 + r]! * a[6 + c]!;
  }
  const dx = src.pos[0]! - dst.pos[0]!;
  const dy = src.pos[1]! - dst.pos[1]!;
  const dz = src.pos[2]! - dst.pos[2]!;
  for (let r = 0; r < 3; r++) out[9 + r] = b[r]! * dx + b[3 + r]! * dy + b[6 + r]! * dz;
}

/** Rotation of the working frame in world space (row-major) and its origin, world. */
export const workingFrame = { rot: new Float64Array(9), origin: new Float64Array(3) };
const rotY = new Float64Array(9);

/**
 * Places shape Y (at xfY) in the working frame of shape X (at xfX): writes `workingFrame` (X's
 * rotation and centre in world space) and Y's `hull.rot` / `hull.pos`. The centre offsets are
 * rotated before the body positions are subtracted, so nearby bodies far from the origin keep
 * their digits in f32.
 */
export function relativePose3d(X: Shape3D, xfX: Transform3D, Y: Shape3D, xfY: Transform3D, hull: Hull3D): void {
  const rX = workingFrame.rot;
  quatToMatrix3d(xfX.rotation, rX);
  quatToMatrix3d(xfY.rotation, rotY);
  const xc = X.center;
  const yc = Y.center;
  const xp = xfX.position;
  const yp = xfY.position;
  // World offsets of the centres from the body positions.
  const cxx = rX[0]! * xc[0] + rX[1]! * xc[1] + rX[2]! * xc[2];
  const cxy = rX[3]! * xc[0] + rX[4]! * xc[1] + rX[5]! * xc[2];
  const cxz = rX[6]! * xc[0] + rX[7]! * xc[1] + rX[8]! * xc[2];
  const cyx = rotY[0]! * yc[0] + rotY[1]! * yc[1] + rotY[2]! * yc[2];
  const cyy = rotY[3]! * yc[0] + rotY[4]! * yc[1] + rotY[5]! * yc[2];
  const cyz = rotY[6]! * yc[0] + rotY[7]! * yc[1] + rotY[8]! * yc[2];
  workingFrame.origin[0] = xp[0]! + cxx;
  workingFrame.origin[1] = xp[1]! + cxy;
  workingFrame.origin[2] = xp[2]! + cxz;
  const dx = yp[0]! - xp[0]! + (cyx - cxx);
  const dy = yp[1]! - xp[1]! + (cyy - cxy);
  const dz = yp[2]! - xp[2]! + (cyz - cxz);
  const rot = hull.rot;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) rot[3 * r + c] = rX[r]! * rotY[c]! + rX[3 + r]! * rotY[3 + c]! + rX[6 + r]! * rotY[6 + c]!;
    hull.pos[r] = rX[r]! * dx + rX[3 + r]! * dy + rX[6 + r]! * dz;
  }
}

/**
 * Moves the local manifold into `out`, world space. `swap`: the pair was solved with the shapes
 * exchanged; negate the normal, exchange the A/B face kinds and the id halves.
 */
export function manifoldToWorld3d(out: Manifold3D, swap: boolean): number {
  const n = lm.count;
  const kind = lm.kind;
  out.count = n;
  out.kind = n === 0 ? CONTACT_KIND_3D.none
    : swap && kind === CONTACT_KIND_3D.faceA ? CONTACT_KIND_3D.faceB
    : swap && kind === CONTACT_KIND_3D.faceB ? CONTACT_KIND_3D.faceA
    : kind;
  if (n === 0) return 0;
  const r = workingFrame.rot;
  const o = workingFrame.origin;
  const sg = swap ? -1 : 1;
  const nx = lm.normal[0]!, ny = lm.normal[1]!, nz = lm.normal[2]!;
  for (let i = 0; i < 3; i++) out.normal[i] = sg * (r[3 * i]! * nx + r[3 * i + 1]! * ny + r[3 * i + 2]! * nz);
  for (let k = 0; k < n; k++) {
    const x = lm.positions[3 * k]!, y = lm.positions[3 * k + 1]!, z = lm.positions[3 * k + 2]!;
    for (let i = 0; i < 3; i++) out.positions[3 * k + i] = o[i]! + (r[3 * i]! * x + r[3 * i + 1]! * y + r[3 * i + 2]! * z);
    out.depths[k] = -lm.separations[k]!;
    const id = lm.ids[k]!;
    out.ids[k] = swap ? swapId3d(id) : id;
  }
  return n;
}

/** One manifold as scene-output JSON. */
export interface Manifold3DJson {
  pair: [number, number];
  normal: [number, number, number];
  points: { position: [number, number, number]; depth: number; id: number }[];
}

export function manifold3DToJson(m: Manifold3D, pair: [number, number]): Manifold3DJson {
  const points = [];
  for (let k = 0; k < m.count; k++) {
    points.push({
      position: [m.positions[3 * k]!, m.positions[3 * k + 1]!, m.positions[3 * k + 2]!] as [number, number, number],
      depth: m.depths[k]!,
      id: m.ids[k]!,
    });
  }
  return { pair, normal: [m.normal[0]!, m.normal[1]!, m.normal[2]!], points };
}
