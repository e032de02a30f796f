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
// (clipBoxPolygon3d: constant indices only, which SIMD backends such as lavapipe need to avoid
// per-lane memory traffic); its result is bit-identical to this general clip, so there is no CPU
// twin of it.

import { CLIP_SIDE_SLOP_3D, CONTACT_KIND_3D, FEATURE_EDGE_3D, FEATURE_FACE_3D, FEATURE_VERTEX_3D, MAX_CLIP_POINTS_3D, MAX_FACE_VERTICES, MAX_MANIFOLD_POINTS_3D, NEAR_COPLANAR_SINE_3D, NO_SIDE_3D } from '../constants3d.ts';
import { makeId3d, lm, pushPoint3d, setNormal3d, type Hull3D } from './manifold3d.ts';
import { candId, candPos, candSep, chosen, reduceManifold3d } from './reduce3d.ts';

/** Clip buffers (ping-pong): positions in the working frame and feature words. */
const clipPos0 = new Float64Array(3 * MAX_CLIP_POINTS_3D);
const clipPos1 = new Float64Array(3 * MAX_CLIP_POINTS_3D);
const clipFeat0 = new Uint32Array(MAX_CLIP_POINTS_3D);
const clipFeat1 = new Uint32Array(MAX_CLIP_POINTS_3D);

export function clipFeature3d(ref: number, inc: number, side: number, seg: number): number {
  return (ref | (inc << 8) | (side << 16) | (seg << 24)) >>> 0;
}

/** Index of the vertex of hull I deepest along -n (n in the working frame); first of equals. */
export function deepestVertex3d(I: Hull3D, nx: number, ny: number, nz: number): number {
  const r = I.rot;
  // n in I's frame.
  const lx = r[0]! * nx + r[3]! * ny + r[6]! * nz;
  const ly = r[1]! * nx + r[4]! * ny + r[7]! * nz;
  const lz = r[2]! * nx + r[5]! * ny + r[8]! * nz;
  const iv = I.shape.vertices;
  let lo = Infinity;
  let deepest = 0;
  for (let i = 0, c = I.shape.vertexCount; i < c; i++) {
    const d = lx * iv[3 * i]! + ly * iv[3 * i + 1]! + lz * iv[3 * i + 2]!;
    if (d < lo) {
      lo = d;
      deepest = i;
    }
  }
  return deepest;
}

/**
 * Incident face of hull I for reference normal n (working frame): the most anti-parallel face,
 * or with `aroundDeepest` the most anti-parallel of the faces around I's deepest vertex along -n
 * (the retry when the first clips to nothing: it always holds the deepest point).
 */
export function incidentFace3d(I: Hull3D, nx: number, ny: number, nz: number, aroundDeepest: boolean): number {
  if (aroundDeepest) return faceAroundVertex3d(I, deepestVertex3d(I, nx, ny, nz), nx, ny, nz);
  const r = I.rot;
  const lx = r[0]! * nx + r[3]! * ny + r[6]! * nz;
  const ly = r[1]! * nx + r[4]! * ny + r[7]! * nz;
  const lz = r[2]! * nx + r[5]! * ny + r[8]! * nz;
  const ip = I.shape.planes;
  let incFace = 0;
  let lo = Infinity;
  for (let f = 0, c = I.shape.faceCount; f < c; f++) {
    const d = lx * ip[4 * f]! + ly * ip[4 * f + 1]! + lz * ip[4 * f + 2]!;
    if (d < lo) {
      lo = d;
      incFace = f;
    }
  }
  return incFace;
}

/** The face of hull h around vertex v most anti-parallel to n (working frame); first of equals. */
export function faceAroundVertex3d(h: Hull3D, v: number, nx: number, ny: number, nz: number): number {
  const r = h.rot;
  const lx = r[0]! * nx + r[3]! * ny + r[6]! * nz;
  const ly = r[1]! * nx + r[4]! * ny + r[7]! * nz;
  const lz = r[2]! * nx + r[5]! * ny + r[8]! * nz;
  const s = h.shape;
  const ip = s.planes;
  let face = 0;
  let lo = Infinity;
  for (let e = 0, c = s.edgeCount; e < c; e++) {
    if (s.edgeV0[e] !== v && s.edgeV1[e] !== v) continue;
    const f0 = s.edgeF0[e]!;
    const f1 = s.edgeF1[e]!;
    const d0 = lx * ip[4 * f0]! + ly * ip[4 * f0 + 1]! + lz * ip[4 * f0 + 2]!;
    const d1 = lx * ip[4 * f1]! + ly * ip[4 * f1 + 1]! + lz * ip[4 * f1 + 2]!;
    if (d0 < lo) {
      lo = d0;
      face = f0;
    }
    if (d1 < lo) {
      lo = d1;
      face = f1;
    }
  }
  return face;
}

/**
 * Face f of hull h, or where point x (working frame) lies outside it the face across the side x is
 * farthest outside of, when that face's normal is within NEAR_COPLANAR_SINE_3D of f's. The closest
 * points of hulls apart name their face so: on a hull built from noisy coplanar points the most
 * anti-parallel of adjacent nearly coplanar faces can be one the point is not over. (One pass over
 * f's sides: a search of the faces around a vertex with a polygon test for each made the lavapipe
 * kernel's first compile 8 s longer, this one 4 s.)
 */
export function faceOverPoint3d(h: Hull3D, f: number, x: number, y: number, z: number): number {
  planeW3d(h, f);
  const side = farthestOutsideSide3d(faceR, faceW3d(h, f, faceR), planeW[0]!, planeW[1]!, planeW[2]!, x, y, z);
  if (side < 0) return f;
  const s = h.shape;
  const e = s.faceEdges[s.faceFirst[f]! + side]!;
  const across = s.edgeF0[e] === f ? s.edgeF1[e]! : s.edgeF0[e]!;
  const ip = s.planes;
  const ax = ip[4 * across]!, ay = ip[4 * across + 1]!, az = ip[4 * across + 2]!;
  const mx = ip[4 * f]!, my = ip[4 * f + 1]!, mz = ip[4 * f + 2]!;
  const cx = ay * mz - az * my, cy = az * mx - ax * mz, cz = ax * my - ay * mx;
  return cx * cx + cy * cy + cz * cz <= NEAR_COPLANAR_SINE_3D * NEAR_COPLANAR_SINE_3D ? across : f;
}

/**
 * The feature word of the point where a clipped segment crosses side plane j of the reference face
 * (refFirst, refSize), from the word `feat` of the segment's first point. An incident edge crossing
 * reference edge j: (edge j, that incident edge); a run along side `side` meeting side j: the
 * reference vertex they share, inside the incident face. Leaving (the first point inside), the
 * outgoing segment runs along side j; entering, it is the rest of the incident segment.
 */
export function crossingFeature3d(R: Hull3D, refFirst: number, refSize: number, j: number, incFace: number, feat: number, leaving: boolean): number {
  const side = (feat >>> 16) & 0xff;
  const seg = feat >>> 24;
  let ref: number;
  let inc: number;
  if (side === NO_SIDE_3D) {
    ref = FEATURE_EDGE_3D + R.shape.faceEdges[refFirst + j]!;
    inc = seg;
  } else {
    const last = refSize - 1;
    const corner = side + 1 === j || (side === last && j === 0) ? j : j + 1 === side || (j === last && side === 0) ? side : j;
    ref = FEATURE_VERTEX_3D + R.shape.faceVertices[refFirst + corner]!;
    inc = FEATURE_FACE_3D + incFace;
  }
  return leaving ? clipFeature3d(ref, inc, j, 0) : clipFeature3d(ref, inc, side, seg);
}

/**
 * One Sutherland–Hodgman step: keeps the part of polygon `src` (m points) where
 * s · p <= off, the side plane of reference side j; a point within the slack (sideSlack3d) of the
 * plane, on either side, counts as on it: it is kept (clamped onto the plane from outside), and no
 * crossing is made next to it (crossesSide3d). Crossings lie on the true plane. Writes `dst` and
 * returns its size (the WGSL keeps a point's position bits and feature word in one vec4u).
 * `refFirst`/`refSize` locate the reference face's vertex loop of R, `incFace` the incident face.
 */
export function clipPolygonToPlane3d(
  srcPos: Float64Array, srcFeat: Uint32Array, dstPos: Float64Array, dstFeat: Uint32Array, m: number,
  sx: number, sy: number, sz: number, off: number, slack: number,
  R: Hull3D, refFirst: number, refSize: number, j: number, incFace: number,
): number {
  let o = 0;
  // Each point is read once: the edge k -> k + 1 carries point k + 1 to the next step.
  let px = srcPos[0]!, py = srcPos[1]!, pz = srcPos[2]!;
  let feat = srcFeat[0]!;
  let dp = sx * px + sy * py + sz * pz - off;
  for (let k = 0; k < m; k++) {
    const q = k + 1 === m ? 0 : k + 1;
    const qx = srcPos[3 * q]!, qy = srcPos[3 * q + 1]!, qz = srcPos[3 * q + 2]!;
    const nextFeat = srcFeat[q]!;
    const dq = sx * qx + sy * qy + sz * qz - off;
    if (dp <= slack) {
      sideClamp3d(dstPos, o, px, py, pz, sx, sy, sz, dp);
      dstFeat[o] = bandFeature3d(feat, dp, dq, slack, j);
      o++;
    }
    // A 2-point polygon (a segment, where only an edge of the incident face lies on the
    // reference face) has one edge: its closing edge is the same segment back, whose crossing
    // would repeat the first under another id.
    if (crossesSide3d(dp, dq, slack) && (m > 2 || k === 0)) {
      const t = dp / (dp - dq);
      dstPos[3 * o] = px + t * (qx - px);
      dstPos[3 * o + 1] = py + t * (qy - py);
      dstPos[3 * o + 2] = pz + t * (qz - pz);
      dstFeat[o] = crossingFeature3d(R, refFirst, refSize, j, incFace, feat, dp < 0);
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
 * on the side plane is kept whatever its f32 noise and its id holds frame to frame; sideClamp3d
 * moves such a point onto the plane, so every point stays on the reference face.
 */
export function sideSlack3d(sx: number, sy: number, sz: number, scale: number): number {
  return CLIP_SIDE_SLOP_3D * scale * Math.hypot(sx, sy, sz);
}

/**
 * Whether the segment from p to q (plane distances dp, dq) crosses the side plane: both ends lie
 * beyond the slack band, on opposite sides. An end within the band is on the plane and is kept
 * itself; a crossing beside it would repeat it under another feature id (f32 noise of 1e-7 puts a
 * vertex lying on the plane on either side, and the ids would flicker).
 */
export function crossesSide3d(dp: number, dq: number, slack: number): boolean {
  return (dp < -slack && dq > slack) || (dp > slack && dq < -slack);
}

/**
 * The feature word of a kept point p (plane distance dp, its successor's dq): a point in the slack
 * band whose successor is outside is where the polygon leaves along side j (the word says so, for
 * the crossings later planes make on that run); any other keeps its own word.
 */
export function bandFeature3d(feat: number, dp: number, dq: number, slack: number, j: number): number {
  return dp >= -slack && dq > slack ? clipFeature3d(feat & 0xff, (feat >>> 8) & 0xff, j, 0) : feat;
}

/** Writes p moved onto the side plane, when it is outside by d = s · p - off > 0, to dst[3o..]. */
export function sideClamp3d(dst: Float64Array, o: number, px: number, py: number, pz: number, sx: number, sy: number, sz: number, d: number): void {
  const f = Math.max(d, 0) / (sx * sx + sy * sy + sz * sz);
  dst[3 * o] = px - f * sx;
  dst[3 * o + 1] = py - f * sy;
  dst[3 * o + 2] = pz - f * sz;
}

/** The plane of a face in the working frame, written by planeW3d: normal xyz, offset. */
export const planeW = new Float64Array(4);

/** Writes `planeW`: the plane of face f of hull R in the working frame. */
export function planeW3d(R: Hull3D, f: number): void {
  const r = R.rot;
  const t = R.pos;
  const rp = R.shape.planes;
  const x = rp[4 * f]!, y = rp[4 * f + 1]!, z = rp[4 * f + 2]!;
  const nx = r[0]! * x + r[1]! * y + r[2]! * z;
  const ny = r[3]! * x + r[4]! * y + r[5]! * z;
  const nz = r[6]! * x + r[7]! * y + r[8]! * z;
  planeW[0] = nx;
  planeW[1] = ny;
  planeW[2] = nz;
  planeW[3] = rp[4 * f + 3]! + (nx * t[0]! + ny * t[1]! + nz * t[2]!);
}

/**
 * Face contact: clips face `incFace` of hull I against the side planes of reference face
 * `refFace` of hull R, keeps points below the reference plane + margin and reduces them to 4.
 * `refIsA` says whether R is body A (ids and normal). Returns the number of points written.
 */
export function clipFaceContact3d(R: Hull3D, refFace: number, I: Hull3D, incFace: number, refIsA: boolean, margin: number, scale: number): number {
  const rr = R.rot;
  const rt = R.pos;
  const rs = R.shape;
  // Reference plane in the working frame.
  planeW3d(R, refFace);
  const nx = planeW[0]!, ny = planeW[1]!, nz = planeW[2]!, nd = planeW[3]!;
  // Incident polygon (working frame) into clip buffer 0.
  const is = I.shape;
  let m = faceW3d(I, incFace, clipPos0);
  const iFirst = is.faceFirst[incFace]!;
  for (let k = 0; k < m; k++) {
    clipFeat0[k] = clipFeature3d(FEATURE_FACE_3D + refFace, FEATURE_VERTEX_3D + is.faceVertices[iFirst + k]!, NO_SIDE_3D, FEATURE_EDGE_3D + is.faceEdges[iFirst + k]!);
  }
  // Sutherland–Hodgman against each side plane of the reference face, ping-ponging the buffers.
  const rv = rs.vertices;
  const rFirst = rs.faceFirst[refFace]!;
  const rSize = rs.faceSize[refFace]!;
  let inFirst = true;
  for (let j = 0; j < rSize && m > 0; j++) {
    const a = 3 * rs.faceVertices[rFirst + j]!;
    const b = 3 * rs.faceVertices[rFirst + (j + 1 === rSize ? 0 : j + 1)]!;
    const ax = rr[0]! * rv[a]! + rr[1]! * rv[a + 1]! + rr[2]! * rv[a + 2]! + rt[0]!;
    const ay = rr[3]! * rv[a]! + rr[4]! * rv[a + 1]! + rr[5]! * rv[a + 2]! + rt[1]!;
    const az = rr[6]! * rv[a]! + rr[7]! * rv[a + 1]! + rr[8]! * rv[a + 2]! + rt[2]!;
    const ex = rr[0]! * rv[b]! + rr[1]! * rv[b + 1]! + rr[2]! * rv[b + 2]! + rt[0]! - ax;
    const ey = rr[3]! * rv[b]! + rr[4]! * rv[b + 1]! + rr[5]! * rv[b + 2]! + rt[1]! - ay;
    const ez = rr[6]! * rv[b]! + rr[7]! * rv[b + 1]! + rr[8]! * rv[b + 2]! + rt[2]! - az;
    // Outward side normal: edge × n (counter-clockwise face).
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    const off = sx * ax + sy * ay + sz * az;
    const slack = sideSlack3d(sx, sy, sz, scale);
    m = inFirst
      ? clipPolygonToPlane3d(clipPos0, clipFeat0, clipPos1, clipFeat1, m, sx, sy, sz, off, slack, R, rFirst, rSize, j, incFace)
      : clipPolygonToPlane3d(clipPos1, clipFeat1, clipPos0, clipFeat0, m, sx, sy, sz, off, slack, R, rFirst, rSize, j, incFace);
    inFirst = !inFirst;
  }
  // Keep points below the reference plane + margin, moved midway to it.
  const pos = inFirst ? clipPos0 : clipPos1;
  const feat = inFirst ? clipFeat0 : clipFeat1;
  let n = 0;
  for (let k = 0; k < m; k++) {
    const px = pos[3 * k]!, py = pos[3 * k + 1]!, pz = pos[3 * k + 2]!;
    const s = nx * px + ny * py + nz * pz - nd;
    if (s > margin) continue;
    candPos[3 * n] = px - 0.5 * s * nx;
    candPos[3 * n + 1] = py - 0.5 * s * ny;
    candPos[3 * n + 2] = pz - 0.5 * s * nz;
    candSep[n] = s;
    const ref = feat[k]! & 0xff;
    const inc = (feat[k]! >>> 8) & 0xff;
    candId[n] = refIsA ? makeId3d(ref, inc) : makeId3d(inc, ref);
    n++;
  }
  lm.kind = refIsA ? CONTACT_KIND_3D.faceA : CONTACT_KIND_3D.faceB;
  if (refIsA) setNormal3d(nx, ny, nz);
  else setNormal3d(-nx, -ny, -nz);
  if (n === 0) return 0;
  if (n <= MAX_MANIFOLD_POINTS_3D) {
    for (let k = 0; k < n; k++) pushPoint3d(candPos[3 * k]!, candPos[3 * k + 1]!, candPos[3 * k + 2]!, candSep[k]!, candId[k]!);
    return n;
  }
  const c = reduceManifold3d(n, nx, ny, nz, scale);
  for (let i = 0; i < c; i++) {
    const k = chosen[i]!;
    pushPoint3d(candPos[3 * k]!, candPos[3 * k + 1]!, candPos[3 * k + 2]!, candSep[k]!, candId[k]!);
  }
  return c;
}

/**
 * Last resort of a face contact whose clipping left nothing: the deepest vertex of I along -n,
 * projected midway to the reference plane. When the hulls are apart along n (separation > 0) and
 * the vertex does not project into the reference face, the closest features lie elsewhere (two
 * corners, a vertex beside an edge): returns true, and the hulls' closest points make the contact
 * (collideHulls3d), so a speculative point never floats beside the face.
 */
export function vertexContact3d(R: Hull3D, refFace: number, I: Hull3D, refIsA: boolean, margin: number): boolean {
  planeW3d(R, refFace);
  const nx = planeW[0]!, ny = planeW[1]!, nz = planeW[2]!, nd = planeW[3]!;
  const bi = deepestVertex3d(I, nx, ny, nz);
  const ir = I.rot;
  const it = I.pos;
  const iv = I.shape.vertices;
  const x0 = iv[3 * bi]!, y0 = iv[3 * bi + 1]!, z0 = iv[3 * bi + 2]!;
  const x = ir[0]! * x0 + ir[1]! * y0 + ir[2]! * z0 + it[0]!;
  const y = ir[3]! * x0 + ir[4]! * y0 + ir[5]! * z0 + it[1]!;
  const z = ir[6]! * x0 + ir[7]! * y0 + ir[8]! * z0 + it[2]!;
  const s = nx * x + ny * y + nz * z - nd;
  if (s > margin) return false;
  if (s > 0 && farthestOutsideSide3d(faceR, faceW3d(R, refFace, faceR), nx, ny, nz, x, y, z) >= 0) return true;
  const v = FEATURE_VERTEX_3D + bi;
  const f = FEATURE_FACE_3D + refFace;
  pushPoint3d(x - 0.5 * s * nx, y - 0.5 * s * ny, z - 0.5 * s * nz, s, refIsA ? makeId3d(f, v) : makeId3d(v, f));
  return false;
}

/** A face in the working frame, for farthestOutsideSide3d: x, y, z per loop vertex. */
const faceR = new Float64Array(3 * MAX_FACE_VERTICES);

/** Writes face f of hull h into `out` (working frame, loop order); returns its vertex count. */
function faceW3d(h: Hull3D, f: number, out: Float64Array): number {
  const s = h.shape;
  const m = h.rot;
  const t = h.pos;
  const v = s.vertices;
  const first = s.faceFirst[f]!;
  const size = s.faceSize[f]!;
  for (let k = 0; k < size; k++) {
    const i = s.faceVertices[first + k]!;
    const x = v[3 * i]!, y = v[3 * i + 1]!, z = v[3 * i + 2]!;
    out[3 * k] = m[0]! * x + m[1]! * y + m[2]! * z + t[0]!;
    out[3 * k + 1] = m[3]! * x + m[4]! * y + m[5]! * z + t[1]!;
    out[3 * k + 2] = m[6]! * x + m[7]! * y + m[8]! * z + t[2]!;
  }
  return size;
}

/**
 * The side of the face loop `poly` (size points, outward normal n) that point x lies farthest
 * outside of (its distance to the side plane, edge × n), or -1 when x lies over the face: on the
 * inner side of every side plane.
 */
function farthestOutsideSide3d(poly: Float64Array, size: number, nx: number, ny: number, nz: number, x: number, y: number, z: number): number {
  let worst = 0;
  let side = -1;
  for (let j = 0; j < size; j++) {
    const a = 3 * j;
    const b = 3 * (j + 1 === size ? 0 : j + 1);
    const ex = poly[b]! - poly[a]!, ey = poly[b + 1]! - poly[a + 1]!, ez = poly[b + 2]! - poly[a + 2]!;
    const sx = ey * nz - ez * ny, sy = ez * nx - ex * nz, sz = ex * ny - ey * nx;
    const outside = (sx * (x - poly[a]!) + sy * (y - poly[a + 1]!) + sz * (z - poly[a + 2]!)) / Math.sqrt(sx * sx + sy * sy + sz * sz);
    if (outside > worst) {
      worst = outside;
      side = j;
    }
  }
  return side;
}
