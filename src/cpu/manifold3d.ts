// The local manifold, transforms, hull access and feature ids of the 3D narrowphase (mirror of
// shaders/manifold3d.wgsl, function for function, same names).
//
// Frames. A pair is solved in the shape frame of its first (most complex) shape X: the origin is
// X's centre (body position + R_X · centre), the axes X's. Each shape of the pair is a `Hull3D`:
// the shape and the rigid transform of its shape frame into that working frame (identity for X,
// the relative pose for Y). The local manifold (LocalManifold3D, the WGSL's `var<private> lm`) is
// built in the working frame and moved to world space at the end by `manifoldToWorld3D`.
//
// Nothing is allocated per pair: results go into scratch the caller owns (the local manifold, the
// working frame, the small result structs below); a module keeps private scratch for its own
// intermediate values only.

import {
  CONTACT_KIND_3D,
  CORE_DISTANCE_3D,
  FEATURE_EDGE_3D,
  FEATURE_VERTEX_3D,
  MAX_MANIFOLD_POINTS_3D,
} from '../constants3d.ts';
import type { Shape3D } from '../shapes3d.ts';
import { mat3, vec3, type Mat3, type Vec3, type Vec3Like } from './vec3.ts';

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

/** A rigid transform p' = rot p + pos (WGSL: `struct RigidTransform3D`). */
export interface RigidTransform3D {
  rot: Mat3;
  pos: Vec3;
}

export function emptyRigidTransform3D(): RigidTransform3D {
  return { rot: mat3.create(), pos: vec3.create() };
}

/** A shape of the pair placed in the working frame (WGSL: `struct Hull3D`): rot, pos take its shape frame there. */
export interface Hull3D extends RigidTransform3D {
  shape: Shape3D;
}

export function emptyHull3D(shape: Shape3D): Hull3D {
  return { shape, ...emptyRigidTransform3D() };
}

/**
 * The local manifold, in the working frame (WGSL: `struct LocalManifold3D`). Points are midway
 * between the surfaces; `separations` are negated depths.
 */
export interface LocalManifold3D {
  normal: Vec3;
  count: number;
  kind: number;
  /** x, y, z per point. */
  positions: Float64Array;
  separations: Float64Array;
  ids: Uint32Array;
}

export function emptyLocalManifold3D(): LocalManifold3D {
  return {
    normal: vec3.create(),
    count: 0,
    kind: 0,
    positions: new Float64Array(3 * MAX_MANIFOLD_POINTS_3D),
    separations: new Float64Array(MAX_MANIFOLD_POINTS_3D),
    ids: new Uint32Array(MAX_MANIFOLD_POINTS_3D),
  };
}

/** X's rotation and centre in world space, set by relativePose3D (WGSL: `struct WorkingFrame3D`). */
export interface WorkingFrame3D {
  rot: Mat3;
  origin: Vec3;
}

export function emptyWorkingFrame3D(): WorkingFrame3D {
  return { rot: mat3.create(), origin: vec3.create() };
}

// ---- hull access (the WGSL reads the packed buffers here; the CPU reads the Shape3D arrays) ----

// The accessors write their components directly (no nested vector ops): they run in every loop
// over a hull's features, and V8 inlines a leaf this small wherever it is called.

/** Vertex i in the shape frame. */
export function hullVertex(h: Hull3D, i: number, dst: Vec3): Vec3 {
  const v = h.shape.vertices;
  dst[0] = v[3 * i];
  dst[1] = v[3 * i + 1];
  dst[2] = v[3 * i + 2];
  return dst;
}

/** Vertex i in the working frame: rot v + pos. */
export function hullVertexW(h: Hull3D, i: number, dst: Vec3): Vec3 {
  const v = h.shape.vertices;
  const m = h.rot;
  const t = h.pos;
  const x = v[3 * i],
    y = v[3 * i + 1],
    z = v[3 * i + 2];
  dst[0] = m[0] * x + m[1] * y + m[2] * z + t[0];
  dst[1] = m[3] * x + m[4] * y + m[5] * z + t[1];
  dst[2] = m[6] * x + m[7] * y + m[8] * z + t[2];
  return dst;
}

/** Face plane f in the shape frame: outward unit normal xyz, offset [3] (WGSL: vec4f). */
export function hullPlane(h: Hull3D, f: number, dst: Float64Array): Float64Array {
  const p = h.shape.planes;
  dst[0] = p[4 * f];
  dst[1] = p[4 * f + 1];
  dst[2] = p[4 * f + 2];
  dst[3] = p[4 * f + 3];
  return dst;
}

/** Face f's normal alone (hullPlane(h, f).xyz). */
export function hullNormal(h: Hull3D, f: number, dst: Vec3): Vec3 {
  const p = h.shape.planes;
  dst[0] = p[4 * f];
  dst[1] = p[4 * f + 1];
  dst[2] = p[4 * f + 2];
  return dst;
}

/** Face f's loop: its first entry in the face-vertex list and its vertex count (WGSL: vec2u). */
export interface HullFace3D {
  first: number;
  size: number;
}

export function hullFace(h: Hull3D, f: number, out: HullFace3D): HullFace3D {
  out.first = h.shape.faceFirst[f];
  out.size = h.shape.faceSize[f];
  return out;
}

/** Entry k of the face-vertex list: a loop vertex and the edge from it to the next loop vertex (WGSL: vec2u). */
export interface FaceEntry3D {
  vertex: number;
  edge: number;
}

export function faceEntry(h: Hull3D, k: number, out: FaceEntry3D): FaceEntry3D {
  out.vertex = h.shape.faceVertices[k];
  out.edge = h.shape.faceEdges[k];
  return out;
}

/** Unique edge e: vertices v0 -> v1, the face f0 that holds the half-edge v0 -> v1 and its neighbour f1 (WGSL: vec4u). */
export interface HullEdge3D {
  v0: number;
  v1: number;
  f0: number;
  f1: number;
}

export function emptyHullEdge3D(): HullEdge3D {
  return { v0: 0, v1: 0, f0: 0, f1: 0 };
}

export function hullEdge(h: Hull3D, e: number, out: HullEdge3D): HullEdge3D {
  const s = h.shape;
  out.v0 = s.edgeV0[e];
  out.v1 = s.edgeV1[e];
  out.f0 = s.edgeF0[e];
  out.f1 = s.edgeF1[e];
  return out;
}

// ---- local manifold ------------------------------------------------------------------------------

/** Empties the local manifold. */
export function resetLocalManifold3D(lm: LocalManifold3D): void {
  lm.count = 0;
  lm.kind = CONTACT_KIND_3D.none;
}

export function setNormal3D(lm: LocalManifold3D, n: Vec3Like): void {
  vec3.copy(n, lm.normal);
}

/**
 * Sets the normal along the join d, of length dist, of two closest points; closer than
 * CORE_DISTANCE_3D × scale, along the SAT axis f instead: the join of two points that (nearly)
 * touch points anywhere, its direction the rounding of their coordinates.
 */
export function setJoinNormal3D(
  lm: LocalManifold3D,
  d: Vec3Like,
  dist: number,
  f: Vec3Like,
  scale: number,
): void {
  if (dist > CORE_DISTANCE_3D * scale) vec3.set(d[0] / dist, d[1] / dist, d[2] / dist, lm.normal);
  else setNormal3D(lm, f);
}

/** The smallest separation of the local manifold's points (Infinity when it has none). */
export function minSeparation3D(lm: LocalManifold3D): number {
  let lo = Infinity;
  for (let k = 0; k < lm.count; k++) lo = Math.min(lo, lm.separations[k]);
  return lo;
}

/** Appends a point (working frame) with its separation and feature id. */
export function pushPoint3D(lm: LocalManifold3D, p: Vec3Like, sep: number, id: number): void {
  const i = lm.count++;
  vec3.store(p, lm.positions, 3 * i);
  lm.separations[i] = sep;
  lm.ids[i] = id;
}

// ---- ids -----------------------------------------------------------------------------------------

/** Feature id of a point made by feature a of body A and feature b of body B. */
export function makeId3D(a: number, b: number): number {
  return ((a & 0xff) << 8) | (b & 0xff);
}

/** The id seen from the other body (halves exchanged). */
export function swapId3D(id: number): number {
  return ((id & 0xff) << 8) | ((id >> 8) & 0xff);
}

/** Feature code of a point at parameter s along edge e (v0 -> v1) of a hull. */
export function edgeFeature3D(h: Shape3D, e: number, s: number): number {
  if (s <= 0) return FEATURE_VERTEX_3D + h.edgeV0[e];
  if (s >= 1) return FEATURE_VERTEX_3D + h.edgeV1[e];
  return FEATURE_EDGE_3D + e;
}

/** Feature code of a point at parameter s along a round shape's core (sphere: its point). */
export function coreFeature3D(isSegment: boolean, s: number): number {
  if (!isSegment) return FEATURE_VERTEX_3D;
  if (s <= 0) return FEATURE_VERTEX_3D;
  if (s >= 1) return FEATURE_VERTEX_3D + 1;
  return FEATURE_EDGE_3D;
}

// ---- transforms ----------------------------------------------------------------------------------

/** Row-major rotation matrix of unit quaternion q = [x, y, z, w] into m (the ops' mat3.fromQuat). */
export const quatToMatrix3D: (q: ArrayLike<number>, m: Mat3) => Mat3 = mat3.fromQuat;

/** out = the rotation bᵀ a and the translation bᵀ (dx, dy, dz): a frame's pose seen from frame b. */
function transposeTimes3D(
  b: Mat3,
  a: Mat3,
  dx: number,
  dy: number,
  dz: number,
  out: RigidTransform3D,
): RigidTransform3D {
  const o = out.rot;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++)
      o[3 * r + c] = b[r] * a[c] + b[3 + r] * a[3 + c] + b[6 + r] * a[6 + c];
    out.pos[r] = b[r] * dx + b[3 + r] * dy + b[6 + r] * dz;
  }
  return out;
}

/** The transform taking `src`'s shape frame into `dst`'s shape frame: dst.rotᵀ src.rot, dst.rotᵀ (src.pos − dst.pos). */
export function relativeTransform3D(
  src: Hull3D,
  dst: Hull3D,
  out: RigidTransform3D,
): RigidTransform3D {
  return transposeTimes3D(
    dst.rot,
    src.rot,
    src.pos[0] - dst.pos[0],
    src.pos[1] - dst.pos[1],
    src.pos[2] - dst.pos[2],
    out,
  );
}

const rotY = mat3.create();

/**
 * Places shape Y (at xfY) in the working frame of shape X (at xfX): writes `frame` (X's rotation
 * and centre in world space) and Y's `hull.rot` / `hull.pos`. The centre offsets are rotated
 * before the body positions are subtracted, so nearby bodies far from the origin keep their
 * digits in f32. (Scalars: it runs for every pair.)
 */
export function relativePose3D(
  X: Shape3D,
  xfX: Transform3D,
  Y: Shape3D,
  xfY: Transform3D,
  frame: WorkingFrame3D,
  hull: Hull3D,
): void {
  const rX = quatToMatrix3D(xfX.rotation, frame.rot);
  const rY = quatToMatrix3D(xfY.rotation, rotY);
  const xc = X.center;
  const yc = Y.center;
  const xp = xfX.position;
  const yp = xfY.position;
  // World offsets of the centres from the body positions: rX xc and rY yc.
  const cxx = rX[0] * xc[0] + rX[1] * xc[1] + rX[2] * xc[2];
  const cxy = rX[3] * xc[0] + rX[4] * xc[1] + rX[5] * xc[2];
  const cxz = rX[6] * xc[0] + rX[7] * xc[1] + rX[8] * xc[2];
  const cyx = rY[0] * yc[0] + rY[1] * yc[1] + rY[2] * yc[2];
  const cyy = rY[3] * yc[0] + rY[4] * yc[1] + rY[5] * yc[2];
  const cyz = rY[6] * yc[0] + rY[7] * yc[1] + rY[8] * yc[2];
  vec3.set(xp[0] + cxx, xp[1] + cxy, xp[2] + cxz, frame.origin);
  transposeTimes3D(
    rX,
    rY,
    yp[0] - xp[0] + (cyx - cxx),
    yp[1] - xp[1] + (cyy - cxy),
    yp[2] - xp[2] + (cyz - cxz),
    hull,
  );
}

/**
 * Moves the local manifold into `out`, world space. `swap`: the pair was solved with the shapes
 * exchanged; negate the normal, exchange the A/B face kinds and the id halves.
 */
export function manifoldToWorld3D(
  lm: LocalManifold3D,
  frame: WorkingFrame3D,
  out: Manifold3D,
  swap: boolean,
): number {
  const n = lm.count;
  const kind = lm.kind;
  out.count = n;
  out.kind =
    n === 0
      ? CONTACT_KIND_3D.none
      : swap && kind === CONTACT_KIND_3D.faceA
        ? CONTACT_KIND_3D.faceB
        : swap && kind === CONTACT_KIND_3D.faceB
          ? CONTACT_KIND_3D.faceA
          : kind;
  if (n === 0) return 0;
  vec3.scale(mat3.mulVec(frame.rot, lm.normal, out.normal), swap ? -1 : 1, out.normal);
  const r = frame.rot;
  const o = frame.origin;
  for (let k = 0; k < n; k++) {
    const x = lm.positions[3 * k],
      y = lm.positions[3 * k + 1],
      z = lm.positions[3 * k + 2];
    for (let i = 0; i < 3; i++)
      out.positions[3 * k + i] = o[i] + (r[3 * i] * x + r[3 * i + 1] * y + r[3 * i + 2] * z);
    out.depths[k] = -lm.separations[k];
    const id = lm.ids[k];
    out.ids[k] = swap ? swapId3D(id) : id;
  }
  return n;
}

/** One manifold as scene-output JSON. */
export interface ManifoldJson3D {
  pair: [number, number];
  normal: [number, number, number];
  points: { position: [number, number, number]; depth: number; id: number }[];
}

export function manifoldToJson3D(m: Manifold3D, pair: [number, number]): ManifoldJson3D {
  const points = [];
  for (let k = 0; k < m.count; k++) {
    points.push({
      position: [m.positions[3 * k], m.positions[3 * k + 1], m.positions[3 * k + 2]] as [
        number,
        number,
        number,
      ],
      depth: m.depths[k],
      id: m.ids[k],
    });
  }
  return { pair, normal: [m.normal[0], m.normal[1], m.normal[2]], points };
}

/** @deprecated The name before the 2D/3D suffix convention; use ManifoldJson3D. */
export type Manifold3DJson = ManifoldJson3D;
/** @deprecated The name before the 2D/3D suffix convention; use manifoldToJson3D. */
export const manifold3DToJson = manifoldToJson3D;
