// CPU reference of the 3D narrowphase. Function for function the mirror of shaders/collide3d.wgsl
// (same names): the WGSL reads the packed buffers of shaders/layout3d.wgsl where this reads the
// typed arrays of a Shape3D; the arithmetic and every decision are the same.
//
// Method (see docs of issue #3 and seeds 002–004):
//   hull–hull (boxes are hulls): SAT over A's face normals, B's face normals and the cross products
//     of edge pairs whose Gauss-map arcs intersect (Minkowski faces). A face axis wins over an edge
//     axis unless the edge is better by EDGE_HYSTERESIS_3D, A's face over B's unless B's is better by
//     FACE_HYSTERESIS_3D. Face contact: incident face = most anti-parallel face of the other hull,
//     Sutherland–Hodgman clip against the reference face's side planes, keep points below the
//     reference plane + margin, reduce to 4 (deepest + largest area, with a 0.95 hysteresis).
//     Edge contact: one point from the closest points of the two edges.
//   hull–sphere / hull–capsule: the round shape's core (point / segment) against the hull: SAT for
//     overlapping cores (face axes, segment × edge axes with the same Gauss-map pruning); exact
//     closest points for separated cores; a capsule over a face is clipped to it (up to 2 points).
//   sphere/capsule pairs: closest points of the two segments; parallel capsules get 2 points.
//
// Frames: every pair is solved in the shape frame of its first (most complex) shape, whose origin
// is the shape's centre, so the numbers stay small and f32 keeps its digits on the GPU.
// Nothing is allocated per pair: all scratch lives in the module-level typed arrays below.

import {
  CORE_DISTANCE_3D,
  EDGE_HYSTERESIS_3D,
  FACE_HYSTERESIS_3D,
  FEATURE_EDGE_3D,
  FEATURE_FACE_3D,
  FEATURE_VERTEX_3D,
  MAX_CLIP_POINTS_3D,
  MAX_HULL_EDGES,
  MAX_HULL_FACES,
  MAX_HULL_VERTICES,
  MAX_MANIFOLD_POINTS_3D,
  PARALLEL_EDGE_SINE_3D,
  REDUCTION_DEPTH_TOLERANCE_3D,
  REDUCTION_HYSTERESIS_3D,
  SEGMENT_PARALLEL_SINE_3D,
  SHAPE_KIND_3D,
} from '../constants3d.ts';
import type { Shape3D } from '../shapes3d.ts';

/** How a manifold was made (Manifold3D.kind); tests use it for coverage guards. */
export const CONTACT_KIND_3D = {
  none: 0,
  faceA: 1, // reference face on A (hull–hull, hull–round)
  faceB: 2, // reference face on B
  edge: 3, // edge–edge (hull–hull) or hull edge × capsule segment
  closest: 4, // closest points of the cores (spheres, capsules, separated round–hull)
  parallel: 5, // two clipped points of parallel capsules
} as const;

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

// ---------------------------------------------------------------------------------------------
// Scratch (module-level, reused by every pair).

/** The local manifold, in the frame of the shape solved first. */
const lmNormal = new Float64Array(3);
const lmPos = new Float64Array(3 * MAX_MANIFOLD_POINTS_3D);
const lmSep = new Float64Array(MAX_MANIFOLD_POINTS_3D);
const lmId = new Uint32Array(MAX_MANIFOLD_POINTS_3D);
let lmCount = 0;
let lmKind = 0;

/** Relative transform: rotation (row-major 3×3) and translation of the second shape in the first's frame. */
const rel = new Float64Array(12);
const rotA = new Float64Array(9);
const rotB = new Float64Array(9);
const origin = new Float64Array(6); // shape-frame origins of A and B, world

/** The second hull's vertices and face planes in the first's frame. */
const bv = new Float64Array(3 * MAX_HULL_VERTICES);
const bp = new Float64Array(4 * MAX_HULL_FACES);
/** Per edge of B: cross(d, c) of its negated face normals (Gauss-map arc). */
const bdxc = new Float64Array(3 * MAX_HULL_EDGES);

/** Clip buffers (ping-pong): position, reference / incident feature, outgoing segment. */
const clipPos = [new Float64Array(3 * MAX_CLIP_POINTS_3D), new Float64Array(3 * MAX_CLIP_POINTS_3D)];
const clipRef = [new Uint8Array(MAX_CLIP_POINTS_3D), new Uint8Array(MAX_CLIP_POINTS_3D)];
const clipInc = [new Uint8Array(MAX_CLIP_POINTS_3D), new Uint8Array(MAX_CLIP_POINTS_3D)];
const clipSegSide = [new Uint8Array(MAX_CLIP_POINTS_3D), new Uint8Array(MAX_CLIP_POINTS_3D)];
const clipSegInc = [new Uint8Array(MAX_CLIP_POINTS_3D), new Uint8Array(MAX_CLIP_POINTS_3D)];
const NO_SIDE = 255;

/** Candidate points before reduction. */
const candPos = new Float64Array(3 * MAX_CLIP_POINTS_3D);
const candSep = new Float64Array(MAX_CLIP_POINTS_3D);
const candId = new Uint32Array(MAX_CLIP_POINTS_3D);
const chosen = new Int32Array(MAX_MANIFOLD_POINTS_3D);

/** Results of queries (scalars in typed arrays so nothing boxes). */
const qf = new Float64Array(4); // face query: separation, index
const qe = new Float64Array(8); // edge query: separation, edge A, edge B, axis xyz
/** Closest points of two segments: s, t, c1 xyz, c2 xyz. */
const cp = new Float64Array(8);
/** Closest point of a hull to a core: distance, hull point xyz, core point xyz, hull feature, core param. */
const hc = new Float64Array(10);

// ---------------------------------------------------------------------------------------------
// Small helpers.

/** Row-major rotation matrix of unit quaternion q into m. */
function quatToMatrix3d(q: ArrayLike<number>, m: Float64Array): void {
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

/** Closest points of segments p1–q1 and p2–q2 (Ericson 5.1.9); writes cp. Handles points. */
function closestSegments3d(
  p1x: number, p1y: number, p1z: number, q1x: number, q1y: number, q1z: number,
  p2x: number, p2y: number, p2z: number, q2x: number, q2y: number, q2z: number,
): void {
  const d1x = q1x - p1x;
  const d1y = q1y - p1y;
  const d1z = q1z - p1z;
  const d2x = q2x - p2x;
  const d2y = q2y - p2y;
  const d2z = q2z - p2z;
  const rx = p1x - p2x;
  const ry = p1y - p2y;
  const rz = p1z - p2z;
  const a = d1x * d1x + d1y * d1y + d1z * d1z;
  const e = d2x * d2x + d2y * d2y + d2z * d2z;
  const f = d2x * rx + d2y * ry + d2z * rz;
  let s = 0;
  let t = 0;
  if (a <= 0 && e <= 0) {
    s = 0;
    t = 0;
  } else if (a <= 0) {
    s = 0;
    t = Math.min(Math.max(f / e, 0), 1);
  } else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (e <= 0) {
      t = 0;
      s = Math.min(Math.max(-c / a, 0), 1);
    } else {
      const b = d1x * d2x + d1y * d2y + d1z * d2z;
      const denom = a * e - b * b;
      s = denom > 0 ? Math.min(Math.max((b * f - c * e) / denom, 0), 1) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = Math.min(Math.max(-c / a, 0), 1);
      } else if (t > 1) {
        t = 1;
        s = Math.min(Math.max((b - c) / a, 0), 1);
      }
    }
  }
  cp[0] = s;
  cp[1] = t;
  cp[2] = p1x + d1x * s;
  cp[3] = p1y + d1y * s;
  cp[4] = p1z + d1z * s;
  cp[5] = p2x + d2x * t;
  cp[6] = p2y + d2y * t;
  cp[7] = p2z + d2z * t;
}

/** Feature code of a point at parameter s along edge e (v0 -> v1) of a hull. */
function edgeFeature3d(h: Shape3D, e: number, s: number): number {
  if (s <= 0) return FEATURE_VERTEX_3D + h.edgeV0[e]!;
  if (s >= 1) return FEATURE_VERTEX_3D + h.edgeV1[e]!;
  return FEATURE_EDGE_3D + e;
}

/** Feature code of a point at parameter s along a round shape's core (sphere: its point). */
function coreFeature3d(isSegment: boolean, s: number): number {
  if (!isSegment) return FEATURE_VERTEX_3D;
  if (s <= 0) return FEATURE_VERTEX_3D;
  if (s >= 1) return FEATURE_VERTEX_3D + 1;
  return FEATURE_EDGE_3D;
}

function pushPoint3d(x: number, y: number, z: number, sep: number, id: number): void {
  const i = lmCount++;
  lmPos[3 * i] = x;
  lmPos[3 * i + 1] = y;
  lmPos[3 * i + 2] = z;
  lmSep[i] = sep;
  lmId[i] = id;
}

// ---------------------------------------------------------------------------------------------
// Hull–hull.

/** Transforms the second hull's vertices, planes and edge arcs into the first's frame (rel). */
function transformHull3d(h: Shape3D): void {
  const r0 = rel[0]!, r1 = rel[1]!, r2 = rel[2]!, r3 = rel[3]!, r4 = rel[4]!, r5 = rel[5]!;
  const r6 = rel[6]!, r7 = rel[7]!, r8 = rel[8]!, tx = rel[9]!, ty = rel[10]!, tz = rel[11]!;
  const hv = h.vertices;
  for (let i = 0, n = h.vertexCount; i < n; i++) {
    const x = hv[3 * i]!, y = hv[3 * i + 1]!, z = hv[3 * i + 2]!;
    bv[3 * i] = r0 * x + r1 * y + r2 * z + tx;
    bv[3 * i + 1] = r3 * x + r4 * y + r5 * z + ty;
    bv[3 * i + 2] = r6 * x + r7 * y + r8 * z + tz;
  }
  const hp = h.planes;
  for (let f = 0, n = h.faceCount; f < n; f++) {
    const x = hp[4 * f]!, y = hp[4 * f + 1]!, z = hp[4 * f + 2]!;
    const nx = r0 * x + r1 * y + r2 * z;
    const ny = r3 * x + r4 * y + r5 * z;
    const nz = r6 * x + r7 * y + r8 * z;
    bp[4 * f] = nx;
    bp[4 * f + 1] = ny;
    bp[4 * f + 2] = nz;
    bp[4 * f + 3] = hp[4 * f + 3]! + nx * tx + ny * ty + nz * tz;
  }
  // Arc of B's edge on the Gauss map of the Minkowski difference: c = -n(f0), d = -n(f1);
  // d × c = n(f1) × n(f0).
  for (let e = 0, n = h.edgeCount; e < n; e++) {
    const f0 = 4 * h.edgeF0[e]!;
    const f1 = 4 * h.edgeF1[e]!;
    const ax = bp[f0]!, ay = bp[f0 + 1]!, az = bp[f0 + 2]!;
    const bx = bp[f1]!, by = bp[f1 + 1]!, bz = bp[f1 + 2]!;
    bdxc[3 * e] = by * az - bz * ay;
    bdxc[3 * e + 1] = bz * ax - bx * az;
    bdxc[3 * e + 2] = bx * ay - by * ax;
  }
}

/**
 * Largest separation over the face normals of hull R (planes rp) against the vertices iv of the
 * other hull (count ic); writes qf = [separation, face]. Stops early above `limit`.
 */
function queryFaceDirections3d(faceCount: number, rp: Float64Array, iv: Float64Array, ic: number, limit: number): void {
  let best = -Infinity;
  let bestFace = 0;
  for (let f = 0; f < faceCount; f++) {
    const nx = rp[4 * f]!, ny = rp[4 * f + 1]!, nz = rp[4 * f + 2]!;
    let lo = Infinity;
    for (let i = 0; i < ic; i++) {
      const d = nx * iv[3 * i]! + ny * iv[3 * i + 1]! + nz * iv[3 * i + 2]!;
      if (d < lo) lo = d;
    }
    const s = lo - rp[4 * f + 3]!;
    if (s > best) {
      best = s;
      bestFace = f;
      if (s > limit) break;
    }
  }
  qf[0] = best;
  qf[1] = bestFace;
}

/**
 * Largest separation over the edge–edge axes of A (own frame) and B (bv/bp), only for edge pairs
 * that build a face of the Minkowski difference (their Gauss-map arcs cross); writes qe.
 */
function queryEdgeDirections3d(A: Shape3D, B: Shape3D, limit: number): void {
  let best = -Infinity;
  let bestA = -1;
  let bestB = -1;
  let ax = 0, ay = 0, az = 0;
  const av = A.vertices;
  const ap = A.planes;
  const ea = A.edgeCount;
  const eb = B.edgeCount;
  outer: for (let i = 0; i < ea; i++) {
    const fa = 4 * A.edgeF0[i]!;
    const fb = 4 * A.edgeF1[i]!;
    const ux = ap[fa]!, uy = ap[fa + 1]!, uz = ap[fa + 2]!; // a
    const vx = ap[fb]!, vy = ap[fb + 1]!, vz = ap[fb + 2]!; // b
    // b × a
    const bax = vy * uz - vz * uy;
    const bay = vz * ux - vx * uz;
    const baz = vx * uy - vy * ux;
    const i0 = 3 * A.edgeV0[i]!;
    const i1 = 3 * A.edgeV1[i]!;
    const px = av[i0]!, py = av[i0 + 1]!, pz = av[i0 + 2]!;
    const e1x = av[i1]! - px, e1y = av[i1 + 1]! - py, e1z = av[i1 + 2]! - pz;
    const l1 = e1x * e1x + e1y * e1y + e1z * e1z;
    for (let j = 0; j < eb; j++) {
      const fc = 4 * B.edgeF0[j]!;
      const fd = 4 * B.edgeF1[j]!;
      // c = -n(f0), d = -n(f1)
      const cx = -bp[fc]!, cy = -bp[fc + 1]!, cz = -bp[fc + 2]!;
      const dx = -bp[fd]!, dy = -bp[fd + 1]!, dz = -bp[fd + 2]!;
      const cba = cx * bax + cy * bay + cz * baz;
      const dba = dx * bax + dy * bay + dz * baz;
      if (cba * dba >= 0) continue;
      const dcx = bdxc[3 * j]!, dcy = bdxc[3 * j + 1]!, dcz = bdxc[3 * j + 2]!;
      const adc = ux * dcx + uy * dcy + uz * dcz;
      const bdc = vx * dcx + vy * dcy + vz * dcz;
      if (adc * bdc >= 0 || cba * bdc <= 0) continue;
      // Minkowski face: axis = e1 × e2, pointing away from A's centre (the origin).
      const j0 = 3 * B.edgeV0[j]!;
      const j1 = 3 * B.edgeV1[j]!;
      const qx = bv[j0]!, qy = bv[j0 + 1]!, qz = bv[j0 + 2]!;
      const e2x = bv[j1]! - qx, e2y = bv[j1 + 1]! - qy, e2z = bv[j1 + 2]! - qz;
      let nx = e1y * e2z - e1z * e2y;
      let ny = e1z * e2x - e1x * e2z;
      let nz = e1x * e2y - e1y * e2x;
      const l2 = nx * nx + ny * ny + nz * nz;
      const l12 = l1 * (e2x * e2x + e2y * e2y + e2z * e2z);
      if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * l12) continue;
      const inv = 1 / Math.sqrt(l2);
      nx *= inv;
      ny *= inv;
      nz *= inv;
      if (nx * px + ny * py + nz * pz < 0) {
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      const s = nx * (qx - px) + ny * (qy - py) + nz * (qz - pz);
      if (s > best) {
        best = s;
        bestA = i;
        bestB = j;
        ax = nx;
        ay = ny;
        az = nz;
        if (s > limit) break outer;
      }
    }
  }
  qe[0] = best;
  qe[1] = bestA;
  qe[2] = bestB;
  qe[3] = ax;
  qe[4] = ay;
  qe[5] = az;
}

/**
 * Reduces candidates (candPos/candSep/candId, n > 4) to 4 in `chosen`: the deepest point, the one
 * farthest from it, the one making the largest triangle with both, the one adding the largest area
 * outside that triangle. Each pick takes the first candidate within REDUCTION_HYSTERESIS_3D of the
 * best score, so equal-merit points are chosen in a stable order. Returns the number chosen.
 */
function reduceManifold3d(n: number, nx: number, ny: number, nz: number, scale: number): number {
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
  let i1 = -1;
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
  let i2 = -1;
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
  // 4. Largest area added outside triangle (a, b, c) (wound by `sign` around the normal).
  const cx = candPos[3 * i2]!, cy = candPos[3 * i2 + 1]!, cz = candPos[3 * i2 + 2]!;
  hi = 0;
  let i3 = -1;
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < n; i++) {
      if (i === i0 || i === i1 || i === i2) continue;
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
      if (pass === 0) {
        if (added > hi) hi = added;
      } else if (hi > 0 && added >= REDUCTION_HYSTERESIS_3D * hi) {
        i3 = i;
        break;
      }
    }
  }
  if (i3 < 0) return 3;
  chosen[3] = i3;
  return 4;
}

/**
 * Incident face of hull I (vertices iv, planes ip) for reference normal n: the most anti-parallel
 * face, or with `aroundDeepest` the most anti-parallel of the faces around I's deepest vertex
 * along -n (the retry when the first clips to nothing: it always holds the deepest point).
 */
function incidentFace3d(I: Shape3D, iv: Float64Array, ip: Float64Array, nx: number, ny: number, nz: number, aroundDeepest: boolean): number {
  let incFace = 0;
  let lo = Infinity;
  if (!aroundDeepest) {
    for (let f = 0, c = I.faceCount; f < c; f++) {
      const d = nx * ip[4 * f]! + ny * ip[4 * f + 1]! + nz * ip[4 * f + 2]!;
      if (d < lo) {
        lo = d;
        incFace = f;
      }
    }
    return incFace;
  }
  let deepest = 0;
  for (let i = 0, c = I.vertexCount; i < c; i++) {
    const d = nx * iv[3 * i]! + ny * iv[3 * i + 1]! + nz * iv[3 * i + 2]!;
    if (d < lo) {
      lo = d;
      deepest = i;
    }
  }
  lo = Infinity;
  for (let e = 0, c = I.edgeCount; e < c; e++) {
    if (I.edgeV0[e] !== deepest && I.edgeV1[e] !== deepest) continue;
    const f0 = I.edgeF0[e]!;
    const f1 = I.edgeF1[e]!;
    const d0 = nx * ip[4 * f0]! + ny * ip[4 * f0 + 1]! + nz * ip[4 * f0 + 2]!;
    const d1 = nx * ip[4 * f1]! + ny * ip[4 * f1 + 1]! + nz * ip[4 * f1 + 2]!;
    if (d0 < lo) {
      lo = d0;
      incFace = f0;
    }
    if (d1 < lo) {
      lo = d1;
      incFace = f1;
    }
  }
  return incFace;
}

/**
 * Face contact: clips face `incFace` of hull I (vertices iv) against the side planes of reference
 * face `refFace` of hull R (vertices rv, planes rp), keeps points below the reference plane +
 * margin and reduces them to 4. `refIsA` says whether R is the first shape (ids and normal).
 * Returns the number of points written.
 */
function clipFaceContact3d(
  R: Shape3D, rv: Float64Array, rp: Float64Array, refFace: number,
  I: Shape3D, iv: Float64Array, incFace: number,
  refIsA: boolean, margin: number, scale: number,
): number {
  const nx = rp[4 * refFace]!, ny = rp[4 * refFace + 1]!, nz = rp[4 * refFace + 2]!, nd = rp[4 * refFace + 3]!;
  // Incident polygon into clip buffer 0.
  let src = 0;
  let m = I.faceSize[incFace]!;
  {
    const first = I.faceFirst[incFace]!;
    const pos = clipPos[0]!;
    for (let k = 0; k < m; k++) {
      const v = I.faceVertices[first + k]!;
      pos[3 * k] = iv[3 * v]!;
      pos[3 * k + 1] = iv[3 * v + 1]!;
      pos[3 * k + 2] = iv[3 * v + 2]!;
      clipRef[0]![k] = FEATURE_FACE_3D + refFace;
      clipInc[0]![k] = FEATURE_VERTEX_3D + v;
      clipSegSide[0]![k] = NO_SIDE;
      clipSegInc[0]![k] = FEATURE_EDGE_3D + I.faceEdges[first + k]!;
    }
  }
  // Sutherland–Hodgman against each side plane of the reference face.
  const rFirst = R.faceFirst[refFace]!;
  const rSize = R.faceSize[refFace]!;
  for (let j = 0; j < rSize && m > 0; j++) {
    const va = 3 * R.faceVertices[rFirst + j]!;
    const vb = 3 * R.faceVertices[rFirst + (j + 1 === rSize ? 0 : j + 1)]!;
    const ex = rv[vb]! - rv[va]!, ey = rv[vb + 1]! - rv[va + 1]!, ez = rv[vb + 2]! - rv[va + 2]!;
    // Outward side normal: edge × n (counter-clockwise face).
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    const off = sx * rv[va]! + sy * rv[va + 1]! + sz * rv[va + 2]!;
    const dst = 1 - src;
    const ip0 = clipPos[src]!, iRef = clipRef[src]!, iInc = clipInc[src]!, iSide = clipSegSide[src]!, iSeg = clipSegInc[src]!;
    const op = clipPos[dst]!, oRef = clipRef[dst]!, oInc = clipInc[dst]!, oSide = clipSegSide[dst]!, oSeg = clipSegInc[dst]!;
    let o = 0;
    for (let k = 0; k < m; k++) {
      const q = k + 1 === m ? 0 : k + 1;
      const px = ip0[3 * k]!, py = ip0[3 * k + 1]!, pz = ip0[3 * k + 2]!;
      const qx = ip0[3 * q]!, qy = ip0[3 * q + 1]!, qz = ip0[3 * q + 2]!;
      const dp = sx * px + sy * py + sz * pz - off;
      const dq = sx * qx + sy * qy + sz * qz - off;
      if (dp <= 0) {
        op[3 * o] = px;
        op[3 * o + 1] = py;
        op[3 * o + 2] = pz;
        oRef[o] = iRef[k]!;
        oInc[o] = iInc[k]!;
        oSide[o] = iSide[k]!;
        oSeg[o] = iSeg[k]!;
        o++;
      }
      if ((dp <= 0) !== (dq <= 0)) {
        const t = dp / (dp - dq);
        op[3 * o] = px + t * (qx - px);
        op[3 * o + 1] = py + t * (qy - py);
        op[3 * o + 2] = pz + t * (qz - pz);
        const side = iSide[k]!;
        if (side === NO_SIDE) {
          // An incident edge crosses reference edge j.
          oRef[o] = FEATURE_EDGE_3D + R.faceEdges[rFirst + j]!;
          oInc[o] = iSeg[k]!;
        } else {
          // A run along side `side` meets side j: a reference vertex inside the incident face.
          const corner = side + 1 === j || (side === rSize - 1 && j === 0) ? j : j + 1 === side || (j === rSize - 1 && side === 0) ? side : j;
          oRef[o] = FEATURE_VERTEX_3D + R.faceVertices[rFirst + corner]!;
          oInc[o] = FEATURE_FACE_3D + incFace;
        }
        if (dp <= 0) {
          // Leaving: the outgoing segment runs along side j.
          oSide[o] = j;
          oSeg[o] = 0;
        } else {
          // Entering: the rest of segment k.
          oSide[o] = side;
          oSeg[o] = iSeg[k]!;
        }
        o++;
      }
    }
    m = o;
    src = dst;
  }
  // Keep points below the reference plane + margin.
  const pos = clipPos[src]!;
  const cRef = clipRef[src]!;
  const cInc = clipInc[src]!;
  let n = 0;
  for (let k = 0; k < m; k++) {
    const px = pos[3 * k]!, py = pos[3 * k + 1]!, pz = pos[3 * k + 2]!;
    const s = nx * px + ny * py + nz * pz - nd;
    if (s > margin) continue;
    candPos[3 * n] = px - 0.5 * s * nx;
    candPos[3 * n + 1] = py - 0.5 * s * ny;
    candPos[3 * n + 2] = pz - 0.5 * s * nz;
    candSep[n] = s;
    candId[n] = refIsA ? (cRef[k]! << 8) | cInc[k]! : (cInc[k]! << 8) | cRef[k]!;
    n++;
  }
  lmKind = refIsA ? 1 : 2;
  if (refIsA) {
    lmNormal[0] = nx;
    lmNormal[1] = ny;
    lmNormal[2] = nz;
  } else {
    lmNormal[0] = -nx;
    lmNormal[1] = -ny;
    lmNormal[2] = -nz;
  }
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
 * projected on the reference plane.
 */
function vertexContact3d(
  rp: Float64Array, refFace: number, I: Shape3D, iv: Float64Array, refIsA: boolean, margin: number,
): void {
  const nx = rp[4 * refFace]!, ny = rp[4 * refFace + 1]!, nz = rp[4 * refFace + 2]!, nd = rp[4 * refFace + 3]!;
  let best = Infinity;
  let bi = 0;
  for (let i = 0, c = I.vertexCount; i < c; i++) {
    const d = nx * iv[3 * i]! + ny * iv[3 * i + 1]! + nz * iv[3 * i + 2]!;
    if (d < best) {
      best = d;
      bi = i;
    }
  }
  const s = best - nd;
  if (s > margin) return;
  const f = FEATURE_FACE_3D + refFace;
  const id = refIsA ? (f << 8) | (FEATURE_VERTEX_3D + bi) : ((FEATURE_VERTEX_3D + bi) << 8) | f;
  pushPoint3d(iv[3 * bi]! - 0.5 * s * nx, iv[3 * bi + 1]! - 0.5 * s * ny, iv[3 * bi + 2]! - 0.5 * s * nz, s, id);
}

/**
 * Edge contact from the edge query's best pair (qe): one point midway between the closest points
 * of the two edges. Fails (returns false) when those closest points lie off either edge.
 */
function edgeContact3d(A: Shape3D, B: Shape3D): boolean {
  const ea = qe[1]!;
  const eb = qe[2]!;
  if (ea < 0) return false;
  const av = A.vertices;
  const a0 = 3 * A.edgeV0[ea]!, a1 = 3 * A.edgeV1[ea]!;
  const b0 = 3 * B.edgeV0[eb]!, b1 = 3 * B.edgeV1[eb]!;
  closestSegments3d(
    av[a0]!, av[a0 + 1]!, av[a0 + 2]!, av[a1]!, av[a1 + 1]!, av[a1 + 2]!,
    bv[b0]!, bv[b0 + 1]!, bv[b0 + 2]!, bv[b1]!, bv[b1 + 1]!, bv[b1 + 2]!,
  );
  const s = cp[0]!;
  const t = cp[1]!;
  // Clamped parameters: the lines' closest points lie off the edges (rounding at a Gauss-map
  // arc end), so this is no edge contact.
  if (!(s > 0 && s < 1 && t > 0 && t < 1)) return false;
  lmKind = 3;
  lmNormal[0] = qe[3]!;
  lmNormal[1] = qe[4]!;
  lmNormal[2] = qe[5]!;
  const id = ((FEATURE_EDGE_3D + ea) << 8) | (FEATURE_EDGE_3D + eb);
  pushPoint3d(0.5 * (cp[2]! + cp[5]!), 0.5 * (cp[3]! + cp[6]!), 0.5 * (cp[4]! + cp[7]!), qe[0]!, id);
  return true;
}

/** Hull–hull (boxes included) in A's frame; B given by `rel`. Writes the local manifold. */
function collideHulls3d(A: Shape3D, B: Shape3D, margin: number, scale: number): void {
  transformHull3d(B);
  queryFaceDirections3d(A.faceCount, A.planes, bv, B.vertexCount, margin);
  const sepA = qf[0]!;
  const faceA = qf[1]!;
  if (sepA > margin) return;
  queryFaceDirections3d(B.faceCount, bp, A.vertices, A.vertexCount, margin);
  const sepB = qf[0]!;
  const faceB = qf[1]!;
  if (sepB > margin) return;
  queryEdgeDirections3d(A, B, margin);
  const sepE = qe[0]!;
  if (sepE > margin) return;
  const edgeFirst = sepE > Math.max(sepA, sepB) + EDGE_HYSTERESIS_3D * scale;
  if (edgeFirst && edgeContact3d(A, B)) return;
  const flip = sepB > sepA + FACE_HYSTERESIS_3D * scale;
  // Reference hull R and incident hull I, in A's frame.
  const R = flip ? B : A;
  const I = flip ? A : B;
  const rv = flip ? bv : A.vertices;
  const rp = flip ? bp : A.planes;
  const iv = flip ? A.vertices : bv;
  const ip = flip ? A.planes : bp;
  const refFace = flip ? faceB : faceA;
  const nx = rp[4 * refFace]!, ny = rp[4 * refFace + 1]!, nz = rp[4 * refFace + 2]!;
  const inc = incidentFace3d(I, iv, ip, nx, ny, nz, false);
  if (clipFaceContact3d(R, rv, rp, refFace, I, iv, inc, !flip, margin, scale) > 0) return;
  // Nothing of that face lies over the reference face. An edge axis within the hysteresis of the
  // face axis is the contact then; else retry with a face at the deepest vertex, then take that
  // vertex alone (keeps the SAT normal and depth).
  if (!edgeFirst && sepE > Math.max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale && edgeContact3d(A, B)) return;
  const inc2 = incidentFace3d(I, iv, ip, nx, ny, nz, true);
  if (inc2 !== inc && clipFaceContact3d(R, rv, rp, refFace, I, iv, inc2, !flip, margin, scale) > 0) return;
  vertexContact3d(rp, refFace, I, iv, !flip, margin);
}

// ---------------------------------------------------------------------------------------------
// Hull against a round shape (sphere: a point core, capsule: a segment core).

/**
 * Exact closest points between hull H (own frame) and the segment p–q (a point when p = q), for a
 * core that lies outside H. Writes hc = [distance, hull point xyz, core point xyz, hull feature, s].
 */
function closestHullCore3d(
  H: Shape3D,
  px: number, py: number, pz: number, qx: number, qy: number, qz: number,
  isSegment: boolean,
): void {
  let best = Infinity;
  const hv = H.vertices;
  const hp = H.planes;
  // Hull edges against the core.
  for (let e = 0, n = H.edgeCount; e < n; e++) {
    const a = 3 * H.edgeV0[e]!;
    const b = 3 * H.edgeV1[e]!;
    closestSegments3d(hv[a]!, hv[a + 1]!, hv[a + 2]!, hv[b]!, hv[b + 1]!, hv[b + 2]!, px, py, pz, qx, qy, qz);
    const dx = cp[5]! - cp[2]!, dy = cp[6]! - cp[3]!, dz = cp[7]! - cp[4]!;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < best) {
      best = d2;
      hc[1] = cp[2]!;
      hc[2] = cp[3]!;
      hc[3] = cp[4]!;
      hc[4] = cp[5]!;
      hc[5] = cp[6]!;
      hc[6] = cp[7]!;
      hc[7] = edgeFeature3d(H, e, cp[0]!);
      hc[8] = isSegment ? cp[1]! : 0;
    }
  }
  // Core end points over a face's interior.
  const ends = isSegment ? 2 : 1;
  for (let f = 0, n = H.faceCount; f < n; f++) {
    const nx = hp[4 * f]!, ny = hp[4 * f + 1]!, nz = hp[4 * f + 2]!, nd = hp[4 * f + 3]!;
    for (let k = 0; k < ends; k++) {
      const x = k === 0 ? px : qx;
      const y = k === 0 ? py : qy;
      const z = k === 0 ? pz : qz;
      const s = nx * x + ny * y + nz * z - nd;
      if (s <= 0 || s * s >= best) continue;
      const first = H.faceFirst[f]!;
      const size = H.faceSize[f]!;
      let inside = true;
      for (let j = 0; j < size; j++) {
        const va = 3 * H.faceVertices[first + j]!;
        const vb = 3 * H.faceVertices[first + (j + 1 === size ? 0 : j + 1)]!;
        const ex = hv[vb]! - hv[va]!, ey = hv[vb + 1]! - hv[va + 1]!, ez = hv[vb + 2]! - hv[va + 2]!;
        const sx = ey * nz - ez * ny;
        const sy = ez * nx - ex * nz;
        const sz = ex * ny - ey * nx;
        if (sx * (x - hv[va]!) + sy * (y - hv[va + 1]!) + sz * (z - hv[va + 2]!) > 0) {
          inside = false;
          break;
        }
      }
      if (!inside) continue;
      best = s * s;
      hc[1] = x - s * nx;
      hc[2] = y - s * ny;
      hc[3] = z - s * nz;
      hc[4] = x;
      hc[5] = y;
      hc[6] = z;
      hc[7] = FEATURE_FACE_3D + f;
      hc[8] = k;
    }
  }
  hc[0] = Math.sqrt(best);
}

/**
 * Clips the core segment p–q (radius r) against face f of hull H and keeps the points within the
 * margin; normal n(f). Returns the number of points written.
 */
function clipSegmentToFace3d(
  H: Shape3D, f: number,
  px: number, py: number, pz: number, qx: number, qy: number, qz: number,
  radius: number, margin: number,
): number {
  const hv = H.vertices;
  const hp = H.planes;
  const nx = hp[4 * f]!, ny = hp[4 * f + 1]!, nz = hp[4 * f + 2]!, nd = hp[4 * f + 3]!;
  const first = H.faceFirst[f]!;
  const size = H.faceSize[f]!;
  let t0 = 0;
  let t1 = 1;
  let side0 = -1;
  let side1 = -1;
  for (let j = 0; j < size; j++) {
    const va = 3 * H.faceVertices[first + j]!;
    const vb = 3 * H.faceVertices[first + (j + 1 === size ? 0 : j + 1)]!;
    const ex = hv[vb]! - hv[va]!, ey = hv[vb + 1]! - hv[va + 1]!, ez = hv[vb + 2]! - hv[va + 2]!;
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    const off = sx * hv[va]! + sy * hv[va + 1]! + sz * hv[va + 2]!;
    const d0 = sx * px + sy * py + sz * pz - off;
    const d1 = sx * qx + sy * qy + sz * qz - off;
    if (d0 > 0 && d1 > 0) return 0;
    if (d0 > 0) {
      const t = d0 / (d0 - d1);
      if (t > t0) {
        t0 = t;
        side0 = j;
      }
    } else if (d1 > 0) {
      const t = d0 / (d0 - d1);
      if (t < t1) {
        t1 = t;
        side1 = j;
      }
    }
  }
  if (t0 > t1) return 0;
  let written = 0;
  for (let k = 0; k < 2; k++) {
    const t = k === 0 ? t0 : t1;
    const side = k === 0 ? side0 : side1;
    const x = px + t * (qx - px);
    const y = py + t * (qy - py);
    const z = pz + t * (qz - pz);
    const s = nx * x + ny * y + nz * z - nd - radius;
    if (s > margin) continue;
    const fa = side < 0 ? FEATURE_FACE_3D + f : FEATURE_EDGE_3D + H.faceEdges[first + side]!;
    const fb = side < 0 ? FEATURE_VERTEX_3D + k : FEATURE_EDGE_3D;
    // Midway between the face (x - (s + r) n) and the round surface (x - r n).
    const h = radius + 0.5 * s;
    pushPoint3d(x - h * nx, y - h * ny, z - h * nz, s, (fa << 8) | fb);
    written++;
  }
  return written;
}

/** Hull H (own frame) against a sphere or capsule R placed by `rel`. Writes the local manifold. */
function collideHullRound3d(H: Shape3D, R: Shape3D, margin: number, scale: number): void {
  const isSegment = R.vertexCount === 2;
  const r = R.radius;
  const reach = r + margin;
  const rv = R.vertices;
  const r0 = rel[0]!, r1 = rel[1]!, r2 = rel[2]!, r3 = rel[3]!, r4 = rel[4]!, r5 = rel[5]!;
  const r6 = rel[6]!, r7 = rel[7]!, r8 = rel[8]!, tx = rel[9]!, ty = rel[10]!, tz = rel[11]!;
  const k = isSegment ? 3 : 0;
  const px = r0 * rv[0]! + r1 * rv[1]! + r2 * rv[2]! + tx;
  const py = r3 * rv[0]! + r4 * rv[1]! + r5 * rv[2]! + ty;
  const pz = r6 * rv[0]! + r7 * rv[1]! + r8 * rv[2]! + tz;
  const qx = r0 * rv[k]! + r1 * rv[k + 1]! + r2 * rv[k + 2]! + tx;
  const qy = r3 * rv[k]! + r4 * rv[k + 1]! + r5 * rv[k + 2]! + ty;
  const qz = r6 * rv[k]! + r7 * rv[k + 1]! + r8 * rv[k + 2]! + tz;
  const ux = qx - px, uy = qy - py, uz = qz - pz;
  const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
  const hv = H.vertices;
  const hp = H.planes;
  // Face axes: the core's support along -n is its lower end point.
  let sepF = -Infinity;
  let faceF = 0;
  for (let f = 0, n = H.faceCount; f < n; f++) {
    const nx = hp[4 * f]!, ny = hp[4 * f + 1]!, nz = hp[4 * f + 2]!;
    const s = Math.min(nx * px + ny * py + nz * pz, nx * qx + ny * qy + nz * qz) - hp[4 * f + 3]!;
    if (s > sepF) {
      sepF = s;
      faceF = f;
    }
  }
  if (sepF > reach) return;
  // Edge axes (capsules): hull edge × segment where the edge's arc crosses the segment's great circle.
  let sepE = -Infinity;
  let edgeE = 0;
  let ex = 0, ey = 0, ez = 0;
  if (isSegment) {
    for (let e = 0, n = H.edgeCount; e < n; e++) {
      const fa = 4 * H.edgeF0[e]!;
      const fb = 4 * H.edgeF1[e]!;
      const au = hp[fa]! * ux + hp[fa + 1]! * uy + hp[fa + 2]! * uz;
      const bu = hp[fb]! * ux + hp[fb + 1]! * uy + hp[fb + 2]! * uz;
      if (au * bu >= 0) continue;
      const a = 3 * H.edgeV0[e]!;
      const b = 3 * H.edgeV1[e]!;
      const vx = hv[a]!, vy = hv[a + 1]!, vz = hv[a + 2]!;
      const dx = hv[b]! - vx, dy = hv[b + 1]! - vy, dz = hv[b + 2]! - vz;
      let nx = dy * uz - dz * uy;
      let ny = dz * ux - dx * uz;
      let nz = dx * uy - dy * ux;
      const l2 = nx * nx + ny * ny + nz * nz;
      if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * (dx * dx + dy * dy + dz * dz) * ul * ul) continue;
      const inv = 1 / Math.sqrt(l2);
      nx *= inv;
      ny *= inv;
      nz *= inv;
      if (nx * vx + ny * vy + nz * vz < 0) {
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      const s = nx * (px - vx) + ny * (py - vy) + nz * (pz - vz);
      if (s > sepE) {
        sepE = s;
        edgeE = e;
        ex = nx;
        ey = ny;
        ez = nz;
      }
    }
    if (sepE > reach) return;
  }
  const core = CORE_DISTANCE_3D * scale;
  if (Math.max(sepF, sepE) > core) {
    // Separated cores: exact closest points.
    closestHullCore3d(H, px, py, pz, qx, qy, qz, isSegment);
    const dist = hc[0]!;
    if (dist > reach) return;
    const fnx = hp[4 * faceF]!, fny = hp[4 * faceF + 1]!, fnz = hp[4 * faceF + 2]!;
    if (isSegment && sepF >= sepE && sepF >= dist - EDGE_HYSTERESIS_3D * scale) {
      // The capsule is closest to face F's interior (the face axis realises the distance): clip
      // it to the face; each end within the margin is a point (a capsule lying on F gets two).
      lmKind = 1;
      lmNormal[0] = fnx;
      lmNormal[1] = fny;
      lmNormal[2] = fnz;
      if (clipSegmentToFace3d(H, faceF, px, py, pz, qx, qy, qz, r, margin) > 0) return;
    }
    lmCount = 0;
    lmKind = 4;
    const inv = 1 / dist;
    const nx = (hc[4]! - hc[1]!) * inv, ny = (hc[5]! - hc[2]!) * inv, nz = (hc[6]! - hc[3]!) * inv;
    lmNormal[0] = nx;
    lmNormal[1] = ny;
    lmNormal[2] = nz;
    const s = dist - r;
    const h = 0.5 * s;
    pushPoint3d(hc[1]! + h * nx, hc[2]! + h * ny, hc[3]! + h * nz, s, (hc[7]! << 8) | coreFeature3d(isSegment, hc[8]!));
    return;
  }
  // Overlapping cores: SAT.
  if (isSegment && sepE > sepF + EDGE_HYSTERESIS_3D * scale) {
    const a = 3 * H.edgeV0[edgeE]!;
    const b = 3 * H.edgeV1[edgeE]!;
    closestSegments3d(hv[a]!, hv[a + 1]!, hv[a + 2]!, hv[b]!, hv[b + 1]!, hv[b + 2]!, px, py, pz, qx, qy, qz);
    lmKind = 3;
    lmNormal[0] = ex;
    lmNormal[1] = ey;
    lmNormal[2] = ez;
    const s = sepE - r;
    // Midway between the hull edge point and the round surface (core point - r n).
    const h = 0.5 * s;
    pushPoint3d(cp[2]! + h * ex, cp[3]! + h * ey, cp[4]! + h * ez, s,
      (edgeFeature3d(H, edgeE, cp[0]!) << 8) | coreFeature3d(true, cp[1]!));
    return;
  }
  const nx = hp[4 * faceF]!, ny = hp[4 * faceF + 1]!, nz = hp[4 * faceF + 2]!, nd = hp[4 * faceF + 3]!;
  lmKind = 1;
  lmNormal[0] = nx;
  lmNormal[1] = ny;
  lmNormal[2] = nz;
  if (isSegment && clipSegmentToFace3d(H, faceF, px, py, pz, qx, qy, qz, r, margin) > 0) return;
  // A sphere centre (or a segment that clips away) inside the hull: its deepest end point.
  const sp = nx * px + ny * py + nz * pz - nd;
  const sq = nx * qx + ny * qy + nz * qz - nd;
  const useQ = isSegment && sq < sp;
  const x = useQ ? qx : px, y = useQ ? qy : py, z = useQ ? qz : pz;
  const s = (useQ ? sq : sp) - r;
  if (s > margin) return;
  const h = r + 0.5 * s;
  pushPoint3d(x - h * nx, y - h * ny, z - h * nz, s, ((FEATURE_FACE_3D + faceF) << 8) | (FEATURE_VERTEX_3D + (useQ ? 1 : 0)));
}

// ---------------------------------------------------------------------------------------------
// Round shapes (spheres and capsules) against each other.

/** Two cores (point or segment) with radii, B placed by `rel`, in A's frame. */
function collideRounds3d(A: Shape3D, B: Shape3D, margin: number, scale: number): void {
  const segA = A.vertexCount === 2;
  const segB = B.vertexCount === 2;
  const av = A.vertices;
  const bvv = B.vertices;
  const ka = segA ? 3 : 0;
  const kb = segB ? 3 : 0;
  const r0 = rel[0]!, r1 = rel[1]!, r2 = rel[2]!, r3 = rel[3]!, r4 = rel[4]!, r5 = rel[5]!;
  const r6 = rel[6]!, r7 = rel[7]!, r8 = rel[8]!, tx = rel[9]!, ty = rel[10]!, tz = rel[11]!;
  const p1x = av[0]!, p1y = av[1]!, p1z = av[2]!;
  const q1x = av[ka]!, q1y = av[ka + 1]!, q1z = av[ka + 2]!;
  const p2x = r0 * bvv[0]! + r1 * bvv[1]! + r2 * bvv[2]! + tx;
  const p2y = r3 * bvv[0]! + r4 * bvv[1]! + r5 * bvv[2]! + ty;
  const p2z = r6 * bvv[0]! + r7 * bvv[1]! + r8 * bvv[2]! + tz;
  const q2x = r0 * bvv[kb]! + r1 * bvv[kb + 1]! + r2 * bvv[kb + 2]! + tx;
  const q2y = r3 * bvv[kb]! + r4 * bvv[kb + 1]! + r5 * bvv[kb + 2]! + ty;
  const q2z = r6 * bvv[kb]! + r7 * bvv[kb + 1]! + r8 * bvv[kb + 2]! + tz;
  const ra = A.radius;
  const rb = B.radius;
  closestSegments3d(p1x, p1y, p1z, q1x, q1y, q1z, p2x, p2y, p2z, q2x, q2y, q2z);
  let nx = cp[5]! - cp[2]!, ny = cp[6]! - cp[3]!, nz = cp[7]! - cp[4]!;
  const dist = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (dist > ra + rb + margin) return;
  const d1x = q1x - p1x, d1y = q1y - p1y, d1z = q1z - p1z;
  const d2x = q2x - p2x, d2y = q2y - p2y, d2z = q2z - p2z;
  const l1 = Math.sqrt(d1x * d1x + d1y * d1y + d1z * d1z);
  const l2 = Math.sqrt(d2x * d2x + d2y * d2y + d2z * d2z);
  let cx = d1y * d2z - d1z * d2y;
  let cy = d1z * d2x - d1x * d2z;
  let cz = d1x * d2y - d1y * d2x;
  const cl = Math.sqrt(cx * cx + cy * cy + cz * cz);
  if (dist > CORE_DISTANCE_3D * scale) {
    const inv = 1 / dist;
    nx *= inv;
    ny *= inv;
    nz *= inv;
  } else if (segA && segB && cl > PARALLEL_EDGE_SINE_3D * l1 * l2) {
    // Crossing segments: the common perpendicular, pointing away from A's centre... towards B.
    cx /= cl;
    cy /= cl;
    cz /= cl;
    const side = cx * (0.5 * (p2x + q2x)) + cy * (0.5 * (p2y + q2y)) + cz * (0.5 * (p2z + q2z));
    nx = side < 0 ? -cx : cx;
    ny = side < 0 ? -cy : cy;
    nz = side < 0 ? -cz : cz;
  } else {
    // Coincident cores: any direction perpendicular to A's segment (or +z for spheres).
    const ux = segA ? d1x / l1 : segB ? d2x / l2 : 0;
    const uy = segA ? d1y / l1 : segB ? d2y / l2 : 0;
    const uz = segA ? d1z / l1 : segB ? d2z / l2 : 1;
    // Perpendicular: cross with the axis least aligned.
    const ax = Math.abs(ux) < 0.6 ? 1 : 0;
    const ay = ax === 0 && Math.abs(uy) < 0.6 ? 1 : 0;
    const az = ax === 0 && ay === 0 ? 1 : 0;
    if (!segA && !segB) {
      nx = 0;
      ny = 0;
      nz = 1;
    } else {
      nx = uy * az - uz * ay;
      ny = uz * ax - ux * az;
      nz = ux * ay - uy * ax;
      const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
      nx /= l;
      ny /= l;
      nz /= l;
    }
  }
  lmNormal[0] = nx;
  lmNormal[1] = ny;
  lmNormal[2] = nz;
  if (segA && segB && cl <= SEGMENT_PARALLEL_SINE_3D * l1 * l2) {
    // Parallel capsules: clip B's segment to A's extent along A's axis; up to 2 points.
    const ux = d1x / l1, uy = d1y / l1, uz = d1z / l1;
    const s0 = (ux * (p2x - p1x) + uy * (p2y - p1y) + uz * (p2z - p1z)) / l1;
    const s1 = (ux * (q2x - p1x) + uy * (q2y - p1y) + uz * (q2z - p1z)) / l1;
    const lo = Math.min(s0, s1);
    const hi = Math.max(s0, s1);
    const a = Math.max(lo, 0);
    const b = Math.min(hi, 1);
    if (b - a > CORE_DISTANCE_3D * scale / l1) {
      lmKind = 5;
      for (let k = 0; k < 2; k++) {
        const s = k === 0 ? a : b;
        const x = p1x + s * d1x, y = p1y + s * d1y, z = p1z + s * d1z;
        // B's point at the same place along the axis.
        const tb = (s - s0) / (s1 - s0);
        const t = Math.min(Math.max(tb, 0), 1);
        const bx = p2x + t * d2x, by = p2y + t * d2y, bz = p2z + t * d2z;
        const sep = nx * (bx - x) + ny * (by - y) + nz * (bz - z) - ra - rb;
        if (sep > margin) continue;
        const h = ra + 0.5 * sep;
        const fa = s <= 0 ? FEATURE_VERTEX_3D : s >= 1 ? FEATURE_VERTEX_3D + 1 : FEATURE_EDGE_3D;
        const fb = tb <= 0 ? FEATURE_VERTEX_3D : tb >= 1 ? FEATURE_VERTEX_3D + 1 : FEATURE_EDGE_3D;
        pushPoint3d(x + h * nx, y + h * ny, z + h * nz, sep, (fa << 8) | fb);
      }
      if (lmCount > 0) return;
    }
  }
  lmKind = 4;
  const sep = dist - ra - rb;
  const h = ra + 0.5 * sep;
  pushPoint3d(cp[2]! + h * nx, cp[3]! + h * ny, cp[4]! + h * nz, sep,
    (coreFeature3d(segA, cp[0]!) << 8) | coreFeature3d(segB, cp[1]!));
}

// ---------------------------------------------------------------------------------------------
// Entry points.

function isHull(s: Shape3D): boolean {
  return s.kind === SHAPE_KIND_3D.hull || s.kind === SHAPE_KIND_3D.box;
}

/**
 * Contact manifold of shape A at xfA and shape B at xfB, within `margin` (speculative distance,
 * scene units). Writes `out` (world space; count 0 when farther apart than the margin) and
 * returns out.count. Pure and allocation-free.
 */
export function collide3D(
  shapeA: Shape3D, xfA: Transform3D, shapeB: Shape3D, xfB: Transform3D, margin: number, out: Manifold3D,
): number {
  // The more complex shape is solved first (in its frame); hull–round is always hull first.
  const swap = !isHull(shapeA) && isHull(shapeB);
  const X = swap ? shapeB : shapeA;
  const Y = swap ? shapeA : shapeB;
  const xfX = swap ? xfB : xfA;
  const xfY = swap ? xfA : xfB;
  quatToMatrix3d(xfX.rotation, rotA);
  quatToMatrix3d(xfY.rotation, rotB);
  // Shape-frame origins: body position + R * centre.
  const xc = X.center;
  const yc = Y.center;
  const xp = xfX.position;
  const yp = xfY.position;
  for (let i = 0; i < 3; i++) {
    origin[i] = xp[i]! + rotA[3 * i]! * xc[0] + rotA[3 * i + 1]! * xc[1] + rotA[3 * i + 2]! * xc[2];
    origin[3 + i] = yp[i]! + rotB[3 * i]! * yc[0] + rotB[3 * i + 1]! * yc[1] + rotB[3 * i + 2]! * yc[2];
  }
  // rel = (RX^T RY, RX^T (oY - oX)).
  const dx = origin[3]! - origin[0]!, dy = origin[4]! - origin[1]!, dz = origin[5]! - origin[2]!;
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      rel[3 * r + c] = rotA[r]! * rotB[c]! + rotA[3 + r]! * rotB[3 + c]! + rotA[6 + r]! * rotB[6 + c]!;
    }
    rel[9 + r] = rotA[r]! * dx + rotA[3 + r]! * dy + rotA[6 + r]! * dz;
  }
  const scale = Math.min(X.extent, Y.extent);
  lmCount = 0;
  lmKind = 0;
  if (isHull(X)) {
    if (isHull(Y)) collideHulls3d(X, Y, margin, scale);
    else collideHullRound3d(X, Y, margin, scale);
  } else {
    collideRounds3d(X, Y, margin, scale);
  }
  // To world; a swapped pair flips the normal, the kind (A/B faces) and the id halves.
  const n = lmCount;
  out.count = n;
  out.kind = n === 0 ? 0 : swap && lmKind === 1 ? 2 : swap && lmKind === 2 ? 1 : lmKind;
  if (n === 0) return 0;
  const sg = swap ? -1 : 1;
  const nx = lmNormal[0]!, ny = lmNormal[1]!, nz = lmNormal[2]!;
  for (let i = 0; i < 3; i++) out.normal[i] = sg * (rotA[3 * i]! * nx + rotA[3 * i + 1]! * ny + rotA[3 * i + 2]! * nz);
  for (let k = 0; k < n; k++) {
    const x = lmPos[3 * k]!, y = lmPos[3 * k + 1]!, z = lmPos[3 * k + 2]!;
    for (let i = 0; i < 3; i++) {
      out.positions[3 * k + i] = origin[i]! + rotA[3 * i]! * x + rotA[3 * i + 1]! * y + rotA[3 * i + 2]! * z;
    }
    out.depths[k] = -lmSep[k]!;
    const id = lmId[k]!;
    out.ids[k] = swap ? ((id & 0xff) << 8) | (id >> 8) : id;
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
