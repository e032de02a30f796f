// Face contacts of two hulls (mirror of shaders/clip3d.wgsl, function for function): the incident
// face, Sutherland–Hodgman clipping of it against the side planes of the reference face, the
// points below the reference plane (+ margin) with their own depth, reduced to at most 4; and the
// fallback when nothing of the incident face lies over the reference face: the deepest vertex,
// or for hulls apart their closest points (src/cpu/gjk3d.ts). Everything happens in the working
// frame (see manifold3d.ts).
//
// Feature ids of clip points (one byte per body, see src/constants3d.ts):
//   incident vertex inside the reference face:      (face of R, vertex of I)
//   incident edge crossing a reference side plane:   (edge of R, edge of I)
//   reference vertex inside the incident face:       (vertex of R, face of I)
// then ordered (feature of A, feature of B), so an id does not depend on which hull is the reference.
// A clip point carries one feature word: ref | inc << 8 | side << 16 | seg << 24, where `side` is
// the reference side plane the point's outgoing segment runs along (NO_SIDE_3D: an incident edge)
// and `seg` the incident edge the outgoing segment lies on.
//
// The WGSL clips box against box with the very same steps on a polygon held in registers
// (clipBoxPolygon3D: constant indices only, which SIMD backends such as lavapipe need to avoid
// per-lane memory traffic); its result is bit-identical to this general clip, so there is no CPU
// twin of it.

import {
  CLIP_SIDE_SLOP_3D,
  CONTACT_KIND_3D,
  FEATURE_EDGE_3D,
  FEATURE_FACE_3D,
  FEATURE_VERTEX_3D,
  MAX_CLIP_POINTS_3D,
  MAX_MANIFOLD_POINTS_3D,
  NEAR_COPLANAR_SINE_3D,
  NO_SIDE_3D,
} from '../constants3d.ts';
import {
  emptyHullEdge3D,
  faceEntry,
  hullEdge,
  hullFace,
  hullNormal,
  hullPlane,
  hullVertex,
  hullVertexW,
  makeId3D,
  pushPoint3D,
  setNormal3D,
  type FaceEntry3D,
  type Hull3D,
  type HullFace3D,
  type LocalManifold3D,
} from './manifold3d.ts';
import { emptyCandidates3D, reduceManifold3D } from './reduce3d.ts';
import { mat3, vec3, type Vec3, type Vec3Like } from './vec3.ts';

/**
 * A clipped polygon: per point its position (working frame: x, y, z at 3 k) and feature word
 * (WGSL: a vec4u per point). Flat: the clip loop reads each point once per side plane.
 */
interface ClipPolygon3D {
  pos: Float64Array;
  feat: Uint32Array;
}

function emptyClipPolygon3D(): ClipPolygon3D {
  return {
    pos: new Float64Array(3 * MAX_CLIP_POINTS_3D),
    feat: new Uint32Array(MAX_CLIP_POINTS_3D),
  };
}

/** Clip buffers (ping-pong), the candidates kept and the reduction's picks. */
const clip0 = emptyClipPolygon3D();
const clip1 = emptyClipPolygon3D();
const cand = emptyCandidates3D();
const chosen = new Int32Array(MAX_MANIFOLD_POINTS_3D);

const face: HullFace3D = { first: 0, size: 0 };
const entry: FaceEntry3D = { vertex: 0, edge: 0 };
const edge = emptyHullEdge3D();
const plane = new Float64Array(4);
const local = vec3.create();
const normal = vec3.create();
const normalB = vec3.create();
const a = vec3.create();
const b = vec3.create();
const e = vec3.create();
const s = vec3.create();
const x = vec3.create();
const toX = vec3.create();

export function clipFeature3D(ref: number, inc: number, side: number, seg: number): number {
  return (ref | (inc << 8) | (side << 16) | (seg << 24)) >>> 0;
}

/** Index of the vertex of hull I deepest along -n (n in the working frame); first of equals. */
export function deepestVertex3D(I: Hull3D, n: Vec3Like): number {
  const l = mat3.transposeMulVec(I.rot, n, local); // n in I's frame
  let lo = Infinity;
  let deepest = 0;
  for (let i = 0, c = I.shape.vertexCount; i < c; i++) {
    const d = vec3.dot(l, hullVertex(I, i, x));
    if (d < lo) {
      lo = d;
      deepest = i;
    }
  }
  return deepest;
}

/**
 * Incident face of hull I for reference normal n (working frame): the most anti-parallel face.
 * (The retry when it clips to nothing takes faceAroundVertex3D at I's deepest vertex along -n,
 * which always holds the deepest point.)
 */
export function incidentFace3D(I: Hull3D, n: Vec3Like): number {
  const l = mat3.transposeMulVec(I.rot, n, local);
  const lx = l[0],
    ly = l[1],
    lz = l[2];
  const ip = I.shape.planes;
  let incFace = 0;
  let lo = Infinity;
  for (let f = 0, c = I.shape.faceCount; f < c; f++) {
    const d = lx * ip[4 * f] + ly * ip[4 * f + 1] + lz * ip[4 * f + 2];
    if (d < lo) {
      lo = d;
      incFace = f;
    }
  }
  return incFace;
}

/** The face of hull h around vertex v most anti-parallel to n (working frame); first of equals. */
export function faceAroundVertex3D(h: Hull3D, v: number, n: Vec3Like): number {
  const l = mat3.transposeMulVec(h.rot, n, local);
  let best = 0;
  let lo = Infinity;
  for (let k = 0, c = h.shape.edgeCount; k < c; k++) {
    hullEdge(h, k, edge);
    if (edge.v0 !== v && edge.v1 !== v) continue;
    const d0 = vec3.dot(l, hullNormal(h, edge.f0, normal));
    const d1 = vec3.dot(l, hullNormal(h, edge.f1, normal));
    if (d0 < lo) {
      lo = d0;
      best = edge.f0;
    }
    if (d1 < lo) {
      lo = d1;
      best = edge.f1;
    }
  }
  return best;
}

/**
 * Face f of hull h, or where point p (working frame) lies outside it the face across the side p is
 * farthest outside of, when that face's normal is within NEAR_COPLANAR_SINE_3D of f's. The closest
 * points of hulls apart name their face so: on a hull built from noisy coplanar points the most
 * anti-parallel of adjacent nearly coplanar faces can be one the point is not over. One pass over
 * f's sides: it compiles faster than a search of the faces around a vertex (docs/tuning.md).
 */
export function faceOverPoint3D(h: Hull3D, f: number, p: Vec3Like): number {
  const side = farthestOutsideSide3D(h, f, planeW3D(h, f, plane), p);
  if (side < 0) return f;
  hullEdge(h, faceEntry(h, hullFace(h, f, face).first + side, entry).edge, edge);
  const across = edge.f0 === f ? edge.f1 : edge.f0;
  const c = vec3.cross(hullNormal(h, across, normal), hullNormal(h, f, normalB), normal);
  return vec3.dot(c, c) <= NEAR_COPLANAR_SINE_3D * NEAR_COPLANAR_SINE_3D ? across : f;
}

/**
 * The feature word of the point where a clipped segment crosses side plane j of the reference face
 * (refFirst, refSize), from the word `feat` of the segment's first point. An incident edge crossing
 * reference edge j: (edge j, that incident edge); a run along side `side` meeting side j: the
 * reference vertex they share, inside the incident face. Leaving (the first point inside), the
 * outgoing segment runs along side j; entering, it is the rest of the incident segment.
 */
export function crossingFeature3D(
  R: Hull3D,
  refFirst: number,
  refSize: number,
  j: number,
  incFace: number,
  feat: number,
  leaving: boolean,
): number {
  const side = (feat >>> 16) & 0xff;
  const seg = feat >>> 24;
  let ref: number;
  let inc: number;
  if (side === NO_SIDE_3D) {
    ref = FEATURE_EDGE_3D + faceEntry(R, refFirst + j, entry).edge;
    inc = seg;
  } else {
    const last = refSize - 1;
    const corner =
      side + 1 === j || (side === last && j === 0)
        ? j
        : j + 1 === side || (j === last && side === 0)
          ? side
          : j;
    ref = FEATURE_VERTEX_3D + faceEntry(R, refFirst + corner, entry).vertex;
    inc = FEATURE_FACE_3D + incFace;
  }
  return leaving ? clipFeature3D(ref, inc, j, 0) : clipFeature3D(ref, inc, side, seg);
}

/**
 * One Sutherland–Hodgman step: keeps the part of polygon `src` (m points) where
 * side · p <= off, the side plane of reference side j; a point within the slack (sideSlack3D) of the
 * plane, on either side, counts as on it: it is kept (clamped onto the plane from outside), and no
 * crossing is made next to it (crossesSide3D). Crossings lie on the true plane. Writes `dst` and
 * returns its size. `refFirst`/`refSize` locate the reference face's vertex loop of R, `incFace`
 * the incident face.
 */
export function clipPolygonToPlane3D(
  src: ClipPolygon3D,
  dst: ClipPolygon3D,
  m: number,
  side: Vec3Like,
  off: number,
  slack: number,
  R: Hull3D,
  refFirst: number,
  refSize: number,
  j: number,
  incFace: number,
): number {
  let o = 0;
  // Each point is read once: the edge k -> k + 1 carries point k + 1 to the next step. (Scalars
  // here: this loop runs for every clip point against every side plane.)
  const sx = side[0],
    sy = side[1],
    sz = side[2];
  const sp = src.pos;
  const dpos = dst.pos;
  let px = sp[0],
    py = sp[1],
    pz = sp[2];
  let feat = src.feat[0];
  let dp = sx * px + sy * py + sz * pz - off;
  for (let k = 0; k < m; k++) {
    const next = k + 1 === m ? 0 : k + 1;
    const qx = sp[3 * next],
      qy = sp[3 * next + 1],
      qz = sp[3 * next + 2];
    const nextFeat = src.feat[next];
    const dq = sx * qx + sy * qy + sz * qz - off;
    if (dp <= slack) {
      sideClamp3D(dpos, o, px, py, pz, sx, sy, sz, dp);
      dst.feat[o] = bandFeature3D(feat, dp, dq, slack, j);
      o++;
    }
    // A 2-point polygon (a segment, where only an edge of the incident face lies on the
    // reference face) has one edge: its closing edge is the same segment back, whose crossing
    // would repeat the first under another id.
    if (crossesSide3D(dp, dq, slack) && (m > 2 || k === 0)) {
      const t = dp / (dp - dq);
      dpos[3 * o] = px + t * (qx - px);
      dpos[3 * o + 1] = py + t * (qy - py);
      dpos[3 * o + 2] = pz + t * (qz - pz);
      dst.feat[o] = crossingFeature3D(R, refFirst, refSize, j, incFace, feat, dp < 0);
      o++;
    }
    px = qx;
    py = qy;
    pz = qz;
    feat = nextFeat;
    dp = dq;
  }
  return o;
}

/**
 * The slack of a reference side plane (CLIP_SIDE_SLOP_3D × scale, in units of s, whose length is
 * the side's): a point outside the plane by no more than this counts as on it, so a corner lying
 * on the side plane is kept whatever its f32 noise and its id holds frame to frame; sideClamp3D
 * moves such a point onto the plane, so every point stays on the reference face.
 */
export function sideSlack3D(side: Vec3Like, scale: number): number {
  return CLIP_SIDE_SLOP_3D * scale * vec3.hypot(side);
}

/**
 * Whether the segment from p to q (plane distances dp, dq) crosses the side plane: both ends lie
 * beyond the slack band, on opposite sides. An end within the band is on the plane and is kept
 * itself; a crossing beside it would repeat it under another feature id (f32 noise of 1e-7 puts a
 * vertex lying on the plane on either side, and the ids would flicker).
 */
export function crossesSide3D(dp: number, dq: number, slack: number): boolean {
  return (dp < -slack && dq > slack) || (dp > slack && dq < -slack);
}

/**
 * The feature word of a kept point p (plane distance dp, its successor's dq): a point in the slack
 * band whose successor is outside is where the polygon leaves along side j (the word says so, for
 * the crossings later planes make on that run); any other keeps its own word.
 */
export function bandFeature3D(
  feat: number,
  dp: number,
  dq: number,
  slack: number,
  j: number,
): number {
  return dp >= -slack && dq > slack ? clipFeature3D(feat & 0xff, (feat >>> 8) & 0xff, j, 0) : feat;
}

/**
 * Writes p moved onto the side plane s (a clip buffer's slot o, x, y, z at 3 o), when it is outside
 * by d = s · p − off > 0. (Scalars: the clip loop holds its points in locals.)
 */
export function sideClamp3D(
  dst: Float64Array,
  o: number,
  px: number,
  py: number,
  pz: number,
  sx: number,
  sy: number,
  sz: number,
  d: number,
): void {
  const f = Math.max(d, 0) / (sx * sx + sy * sy + sz * sz);
  dst[3 * o] = px - f * sx;
  dst[3 * o + 1] = py - f * sy;
  dst[3 * o + 2] = pz - f * sz;
}

/** The plane of face f of hull R in the working frame into dst: normal xyz, offset [3] (WGSL: vec4f). */
export function planeW3D(R: Hull3D, f: number, dst: Float64Array): Float64Array {
  const pl = hullPlane(R, f, dst);
  const w = pl[3];
  mat3.mulVec(R.rot, pl, pl);
  pl[3] = w + vec3.dot(pl, R.pos);
  return pl;
}

const refPlane = new Float64Array(4);
const refLoop: HullFace3D = { first: 0, size: 0 };

/**
 * Face contact: clips face `incFace` of hull I against the side planes of reference face
 * `refFace` of hull R, keeps points below the reference plane + margin and reduces them to 4.
 * `refIsA` says whether R is body A (ids and normal). Returns the number of points written.
 */
export function clipFaceContact3D(
  R: Hull3D,
  refFace: number,
  I: Hull3D,
  incFace: number,
  refIsA: boolean,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): number {
  const n = planeW3D(R, refFace, refPlane);
  const nd = n[3];
  // Incident polygon (working frame) into clip buffer 0.
  const inc = hullFace(I, incFace, face);
  let m = inc.size;
  for (let k = 0; k < m; k++) {
    faceEntry(I, inc.first + k, entry);
    vec3.store(hullVertexW(I, entry.vertex, x), clip0.pos, 3 * k);
    clip0.feat[k] = clipFeature3D(
      FEATURE_FACE_3D + refFace,
      FEATURE_VERTEX_3D + entry.vertex,
      NO_SIDE_3D,
      FEATURE_EDGE_3D + entry.edge,
    );
  }
  // Sutherland–Hodgman against each side plane of the reference face, ping-ponging the buffers.
  const ref = hullFace(R, refFace, refLoop);
  let inFirst = true;
  const nx0 = n[0],
    ny0 = n[1],
    nz0 = n[2];
  // Side j runs from corner a to corner b; each corner is moved into the working frame once, b
  // carried on as the next side's a.
  let ca = a;
  let cb = hullVertexW(R, faceEntry(R, ref.first, entry).vertex, b);
  for (let j = 0; j < ref.size && m > 0; j++) {
    const t = ca;
    ca = cb;
    cb = t;
    hullVertexW(R, faceEntry(R, ref.first + (j + 1 === ref.size ? 0 : j + 1), entry).vertex, cb);
    const ex = cb[0] - ca[0],
      ey = cb[1] - ca[1],
      ez = cb[2] - ca[2];
    // Outward side normal: edge × n (counter-clockwise face).
    const side = vec3.set(ey * nz0 - ez * ny0, ez * nx0 - ex * nz0, ex * ny0 - ey * nx0, s);
    const off = side[0] * ca[0] + side[1] * ca[1] + side[2] * ca[2];
    const slack = sideSlack3D(side, scale);
    m = inFirst
      ? clipPolygonToPlane3D(clip0, clip1, m, side, off, slack, R, ref.first, ref.size, j, incFace)
      : clipPolygonToPlane3D(clip1, clip0, m, side, off, slack, R, ref.first, ref.size, j, incFace);
    inFirst = !inFirst;
  }
  // Keep points below the reference plane + margin, moved midway to it.
  const clipped = inFirst ? clip0 : clip1;
  const nx = n[0],
    ny = n[1],
    nz = n[2];
  let count = 0;
  for (let k = 0; k < m; k++) {
    const px = clipped.pos[3 * k],
      py = clipped.pos[3 * k + 1],
      pz = clipped.pos[3 * k + 2];
    const sep = nx * px + ny * py + nz * pz - nd;
    if (sep > margin) continue;
    cand.pos[3 * count] = px - 0.5 * sep * nx;
    cand.pos[3 * count + 1] = py - 0.5 * sep * ny;
    cand.pos[3 * count + 2] = pz - 0.5 * sep * nz;
    cand.sep[count] = sep;
    const rf = clipped.feat[k] & 0xff;
    const inf = (clipped.feat[k] >>> 8) & 0xff;
    cand.id[count] = refIsA ? makeId3D(rf, inf) : makeId3D(inf, rf);
    count++;
  }
  lm.kind = refIsA ? CONTACT_KIND_3D.faceA : CONTACT_KIND_3D.faceB;
  setNormal3D(lm, refIsA ? n : vec3.negate(n, normal));
  if (count === 0) return 0;
  if (count <= MAX_MANIFOLD_POINTS_3D) {
    for (let k = 0; k < count; k++)
      pushPoint3D(lm, vec3.load(cand.pos, 3 * k, x), cand.sep[k], cand.id[k]);
    return count;
  }
  const c = reduceManifold3D(cand, count, n, scale, chosen);
  for (let i = 0; i < c; i++) {
    const k = chosen[i];
    pushPoint3D(lm, vec3.load(cand.pos, 3 * k, x), cand.sep[k], cand.id[k]);
  }
  return c;
}

/**
 * Last resort of a face contact whose clipping left nothing: vertex `bi` of I, the deepest along
 * -n (deepestVertex3D), projected midway to the reference plane. When the hulls are apart along n
 * (separation > 0) and the vertex does not project into the reference face, the closest features
 * lie elsewhere (two corners, a vertex beside an edge): returns true, and the hulls' closest points
 * make the contact (collideHulls3D), so a speculative point never floats beside the face.
 */
export function vertexContact3D(
  R: Hull3D,
  refFace: number,
  I: Hull3D,
  bi: number,
  refIsA: boolean,
  margin: number,
  lm: LocalManifold3D,
): boolean {
  const n = planeW3D(R, refFace, refPlane);
  const p = hullVertexW(I, bi, x);
  const sep = vec3.dot(n, p) - n[3];
  if (sep > margin) return false;
  if (sep > 0 && farthestOutsideSide3D(R, refFace, n, p) >= 0) return true;
  const v = FEATURE_VERTEX_3D + bi;
  const f = FEATURE_FACE_3D + refFace;
  pushPoint3D(
    lm,
    vec3.addScaled(p, n, -(0.5 * sep), p),
    sep,
    refIsA ? makeId3D(f, v) : makeId3D(v, f),
  );
  return false;
}

/** Loop vertex k of face f of h, in the working frame. */
export function faceVertexW3D(h: Hull3D, f: number, k: number, dst: Vec3): Vec3 {
  return hullVertexW(h, faceEntry(h, hullFace(h, f, face).first + k, entry).vertex, dst);
}

/**
 * The side of face f of h (outward normal n, working frame) that point p lies farthest outside of
 * (its distance to the side plane, edge × n), or -1 when p lies over the face: on the inner side
 * of every side plane. Side j runs from loop vertex j to j + 1.
 */
export function farthestOutsideSide3D(h: Hull3D, f: number, n: Vec3Like, p: Vec3Like): number {
  const size = hullFace(h, f, face).size;
  let worst = 0;
  let side = -1;
  for (let j = 0; j < size; j++) {
    const va = faceVertexW3D(h, f, j, a);
    const vb = faceVertexW3D(h, f, j + 1 === size ? 0 : j + 1, b);
    const sn = vec3.cross(vec3.sub(vb, va, e), n, s);
    const outside = vec3.dot(sn, vec3.sub(p, va, toX)) / vec3.length(sn);
    if (outside > worst) {
      worst = outside;
      side = j;
    }
  }
  return side;
}
