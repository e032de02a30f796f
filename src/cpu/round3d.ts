// Sphere and capsule contacts (mirror of shaders/round3d.wgsl, function for function): a hull
// against a round shape's core (sphere: a point, capsule: a segment), and two round shapes.
//
//   hull–round: SAT for overlapping cores (the hull's face axes, and for capsules segment × edge
//     axes with the Gauss-map pruning); exact closest points for separated cores; a capsule over
//     a face is clipped to it (up to 2 points).
//   round–round: closest points of the two segments; parallel capsules get 2 points.
//
// The first shape (the hull, or round shape A) is the working frame's own shape: its data is read
// as stored; the second is placed by its Hull3D transform.

import {
  CONTACT_KIND_3D,
  CORE_DISTANCE_3D,
  EDGE_HYSTERESIS_3D,
  FEATURE_EDGE_3D,
  FEATURE_FACE_3D,
  FEATURE_VERTEX_3D,
  MAX_HULL_FACES,
  PARALLEL_EDGE_SINE_3D,
  SEGMENT_PARALLEL_SINE_3D,
} from '../constants3d.ts';
import { closestSegments3D, emptySegmentClosest3D } from './distance3d.ts';
import {
  coreFeature3D,
  edgeFeature3D,
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
import { edgeAxis3D, emptyFaceQuery3D, type FaceQuery3D } from './sat3d.ts';
import { vec3, type Vec3, type Vec3Like } from './vec3.ts';

/** The core end points of a round shape in the working frame (WGSL: `struct CoreEnds3D`; q = p for a sphere). */
export interface CoreEnds3D {
  p: Vec3;
  q: Vec3;
}

export function emptyCoreEnds3D(): CoreEnds3D {
  return { p: vec3.create(), q: vec3.create() };
}

/** Closest points of a hull and a core (WGSL: `struct HullCoreClosest3D`). */
export interface HullCoreClosest3D {
  distance: number;
  hullPoint: Vec3;
  corePoint: Vec3;
  /** Hull feature code. */
  feature: number;
  /** Core parameter (0 for a sphere). */
  param: number;
}

export function emptyHullCoreClosest3D(): HullCoreClosest3D {
  return { distance: 0, hullPoint: vec3.create(), corePoint: vec3.create(), feature: 0, param: 0 };
}

const seg = emptySegmentClosest3D();
const edge = emptyHullEdge3D();
const face: HullFace3D = { first: 0, size: 0 };
const entry: FaceEntry3D = { vertex: 0, edge: 0 };
const plane = new Float64Array(4);
const va = vec3.create();
const vb = vec3.create();
const e = vec3.create();
const s = vec3.create();
const d = vec3.create();
const toX = vec3.create();
const x = vec3.create();

/** R's 1 or 2 core vertices placed by R's transform, into `out`. */
export function roundCore3D(R: Hull3D, out: CoreEnds3D): CoreEnds3D {
  hullVertexW(R, 0, out.p);
  hullVertexW(R, R.shape.vertexCount === 2 ? 1 : 0, out.q);
  return out;
}

/** Per face of the hull in closestHullCore3D: planeGap3D of the core. */
const faceGap = new Float64Array(MAX_HULL_FACES);

/**
 * The distance from the core p–q to the plane n · x = d: the smaller end distance, or 0 when the
 * core touches or crosses the plane. No point of the plane is closer to the core.
 */
function planeGap3D(
  nx: number,
  ny: number,
  nz: number,
  nd: number,
  px: number,
  py: number,
  pz: number,
  qx: number,
  qy: number,
  qz: number,
): number {
  const sp = nx * px + ny * py + nz * pz - nd;
  const sq = nx * qx + ny * qy + nz * qz - nd;
  return sp * sq <= 0 ? 0 : Math.min(Math.abs(sp), Math.abs(sq));
}

/**
 * Exact closest points between hull H (own frame) and the segment p–q (a point when p = q), into
 * `out`: those of H's edges first to end - 1 (every edge: 0, edgeCount), then with `overFaces`
 * the end points over a face's interior. Every edge and the faces: the closest points of a core
 * that lies outside H; one edge: the points of an edge contact. (Scalars in the loops over faces:
 * this is the hot path of hull–round pairs.)
 */
export function closestHullCore3D(
  H: Hull3D,
  p: Vec3Like,
  q: Vec3Like,
  isSegment: boolean,
  first: number,
  end: number,
  overFaces: boolean,
  out: HullCoreClosest3D,
): HullCoreClosest3D {
  coreFaceGaps3D(H, p, q);
  let best = closestCoreEdges3D(H, p, q, isSegment, first, end, out);
  if (overFaces) best = closestCoreFaces3D(H, p, q, isSegment, best, out);
  out.distance = Math.sqrt(best);
  return out;
}

/** faceGap[f]: planeGap3D of the core p–q to each face of H (CPU only: see closestCoreEdges3D). */
function coreFaceGaps3D(H: Hull3D, p: Vec3Like, q: Vec3Like): void {
  const hp = H.shape.planes;
  for (let f = 0, n = H.shape.faceCount; f < n; f++) {
    faceGap[f] = planeGap3D(
      hp[4 * f],
      hp[4 * f + 1],
      hp[4 * f + 2],
      hp[4 * f + 3],
      p[0],
      p[1],
      p[2],
      q[0],
      q[1],
      q[2],
    );
  }
}

/**
 * Hull edges first to end - 1 against the core: the closest pair of points into `out`, returns
 * its squared distance. An edge lies in the planes of its two faces, so it is no closer to the
 * core than the core is to either plane: edges that cannot beat the best are skipped (the answer
 * is the same, and faster on the CPU). The WGSL loop does not skip: see there.
 */
function closestCoreEdges3D(
  H: Hull3D,
  p: Vec3Like,
  q: Vec3Like,
  isSegment: boolean,
  first: number,
  end: number,
  out: HullCoreClosest3D,
): number {
  let best = Infinity;
  for (let k = first; k < end; k++) {
    hullEdge(H, k, edge);
    const gap = Math.max(faceGap[edge.f0], faceGap[edge.f1]);
    if (gap * gap >= best) continue;
    const c = closestSegments3D(hullVertex(H, edge.v0, va), hullVertex(H, edge.v1, vb), p, q, seg);
    const dx = c.c2[0] - c.c1[0],
      dy = c.c2[1] - c.c1[1],
      dz = c.c2[2] - c.c1[2];
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < best) {
      best = d2;
      vec3.copy(c.c1, out.hullPoint);
      vec3.copy(c.c2, out.corePoint);
      out.feature = edgeFeature3D(H.shape, k, c.s);
      out.param = isSegment ? c.t : 0;
    }
  }
  return best;
}

/**
 * Core end points over a face's interior, closer than `best` (a squared distance): the closest
 * into `out`; returns the new best.
 */
function closestCoreFaces3D(
  H: Hull3D,
  p: Vec3Like,
  q: Vec3Like,
  isSegment: boolean,
  best: number,
  out: HullCoreClosest3D,
): number {
  const px = p[0],
    py = p[1],
    pz = p[2];
  const qx = q[0],
    qy = q[1],
    qz = q[2];
  const hp = H.shape.planes;
  const ends = isSegment ? 2 : 1;
  for (let f = 0, n = H.shape.faceCount; f < n; f++) {
    // No end point is closer to the plane than its gap.
    const gap = faceGap[f];
    if (gap * gap >= best) continue;
    const nx = hp[4 * f],
      ny = hp[4 * f + 1],
      nz = hp[4 * f + 2],
      nd = hp[4 * f + 3];
    for (let k = 0; k < ends; k++) {
      const x = k === 0 ? px : qx;
      const y = k === 0 ? py : qy;
      const z = k === 0 ? pz : qz;
      const s = nx * x + ny * y + nz * z - nd;
      if (s <= 0 || s * s >= best) continue;
      if (!pointOverFace3D(H, f, nx, ny, nz, x, y, z)) continue;
      best = s * s;
      vec3.set(x - s * nx, y - s * ny, z - s * nz, out.hullPoint);
      vec3.set(x, y, z, out.corePoint);
      out.feature = FEATURE_FACE_3D + f;
      out.param = k;
    }
  }
  return best;
}

/** Whether point (x, y, z) lies over face f of H (normal n): inside each of its side planes. */
function pointOverFace3D(
  H: Hull3D,
  f: number,
  nx: number,
  ny: number,
  nz: number,
  x: number,
  y: number,
  z: number,
): boolean {
  const hv = H.shape.vertices;
  const loop = hullFace(H, f, face);
  for (let j = 0; j < loop.size; j++) {
    const a = 3 * faceEntry(H, loop.first + j, entry).vertex;
    const b = 3 * faceEntry(H, loop.first + (j + 1 === loop.size ? 0 : j + 1), entry).vertex;
    const ex = hv[b] - hv[a],
      ey = hv[b + 1] - hv[a + 1],
      ez = hv[b + 2] - hv[a + 2];
    const sx = ey * nz - ez * ny;
    const sy = ez * nx - ex * nz;
    const sz = ex * ny - ey * nx;
    if (sx * (x - hv[a]) + sy * (y - hv[a + 1]) + sz * (z - hv[a + 2]) > 0) return false;
  }
  return true;
}

/**
 * Clips the core segment p–q (radius r) against face f of hull H and keeps the points within the
 * margin; normal n(f). A clipped piece shorter than CORE_DISTANCE_3D × scale (an end at the
 * face's boundary) is one point, not the same point twice. Returns the number of points written.
 */
export function clipSegmentToFace3D(
  H: Hull3D,
  f: number,
  p: Vec3Like,
  q: Vec3Like,
  radius: number,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): number {
  const pl = hullPlane(H, f, plane);
  const loop = hullFace(H, f, face);
  let t0 = 0;
  let t1 = 1;
  let side0 = -1;
  let side1 = -1;
  for (let j = 0; j < loop.size; j++) {
    const a = hullVertex(H, faceEntry(H, loop.first + j, entry).vertex, va);
    const b = hullVertex(
      H,
      faceEntry(H, loop.first + (j + 1 === loop.size ? 0 : j + 1), entry).vertex,
      vb,
    );
    const sn = vec3.cross(vec3.sub(b, a, e), pl, s);
    const off = vec3.dot(sn, a);
    const d0 = vec3.dot(sn, p) - off;
    const d1 = vec3.dot(sn, q) - off;
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
  const ends = (t1 - t0) * vec3.hypot(vec3.sub(q, p, d)) > CORE_DISTANCE_3D * scale ? 2 : 1;
  let written = 0;
  for (let k = 0; k < ends; k++) {
    const side = k === 0 ? side0 : side1;
    const at = vec3.lerp(p, q, k === 0 ? t0 : t1, x);
    const sep = vec3.dot(pl, at) - pl[3] - radius;
    if (sep > margin) continue;
    const fa =
      side < 0
        ? FEATURE_FACE_3D + f
        : FEATURE_EDGE_3D + faceEntry(H, loop.first + side, entry).edge;
    const fb = side < 0 ? FEATURE_VERTEX_3D + k : FEATURE_EDGE_3D;
    // Midway between the face (x - (s + r) n) and the round surface (x - r n).
    pushPoint3D(lm, vec3.addScaled(at, pl, -(radius + 0.5 * sep), at), sep, makeId3D(fa, fb));
    written++;
  }
  return written;
}

/** Result of queryCoreEdges3D (WGSL: `struct CoreEdgeQuery3D`). */
export interface CoreEdgeQuery3D {
  separation: number;
  edge: number;
  /** Working frame, pointing away from the hull. */
  axis: Vec3;
}

const core = emptyCoreEnds3D();
const hullCore = emptyHullCoreClosest3D();
const faceQuery = emptyFaceQuery3D();
const edgeQuery: CoreEdgeQuery3D = { separation: 0, edge: 0, axis: vec3.create() };
const u = vec3.create();
const n = vec3.create();
const vertex = vec3.create();
const facePlane = new Float64Array(4);

/**
 * Hull H (the working frame's own shape) against a sphere or capsule R placed by its transform.
 * Writes the local manifold.
 */
export function collideHullRound3D(
  H: Hull3D,
  R: Hull3D,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): void {
  const isSegment = R.shape.vertexCount === 2;
  const r = R.shape.radius;
  const reach = r + margin;
  const { p, q } = roundCore3D(R, core);
  const faces = queryCoreFaces3D(H, p, q, faceQuery);
  if (faces.separation > reach) return;
  const edges = queryCoreEdges3D(H, p, vec3.sub(q, p, u), isSegment, edgeQuery);
  if (edges.separation > reach) return;
  const sepF = faces.separation;
  const faceF = faces.face;
  const sepE = edges.separation;
  if (Math.max(sepF, sepE) > CORE_DISTANCE_3D * scale) {
    // Separated cores: exact closest points.
    const c = closestHullCore3D(H, p, q, isSegment, 0, H.shape.edgeCount, true, hullCore);
    if (c.distance > reach) return;
    // Face F's axis realises the distance (within the hysteresis): the capsule is closest to F,
    // at its interior or its boundary. Clip it to the face; each end within the margin is a point
    // (a capsule lying on F gets two). An edge axis does not veto it: a capsule lying across F's
    // edges ties F's axis with those edges' (both realise the distance), and letting the edge win
    // the tie made it flicker between 2 points and 1 as it wobbled.
    if (isSegment && sepF >= c.distance - EDGE_HYSTERESIS_3D * scale) {
      lm.kind = CONTACT_KIND_3D.faceA;
      setNormal3D(lm, hullNormal(H, faceF, n));
      if (clipSegmentToFace3D(H, faceF, p, q, r, margin, scale, lm) > 0) return;
    }
    lm.count = 0;
    lm.kind = CONTACT_KIND_3D.closest;
    const dist = c.distance;
    pushCoreContact3D(
      c,
      vec3.scale(vec3.sub(c.corePoint, c.hullPoint, n), 1 / dist, n),
      dist - r,
      isSegment,
      lm,
    );
    return;
  }
  // Overlapping cores: SAT. A hull edge's axis: one point, on that edge's closest point to the
  // capsule.
  if (isSegment && sepE > sepF + EDGE_HYSTERESIS_3D * scale) {
    const c = closestHullCore3D(H, p, q, true, edges.edge, edges.edge + 1, false, hullCore);
    lm.kind = CONTACT_KIND_3D.edge;
    pushCoreContact3D(c, edges.axis, sepE - r, true, lm);
    return;
  }
  const pl = hullPlane(H, faceF, facePlane);
  lm.kind = CONTACT_KIND_3D.faceA;
  setNormal3D(lm, pl);
  if (isSegment && clipSegmentToFace3D(H, faceF, p, q, r, margin, scale, lm) > 0) return;
  pushDeepestEnd3D(faceF, pl, p, q, isSegment, r, margin, lm);
}

/**
 * The face axes of H against the core p–q into `out`: the core's support along -n is its lower
 * end point. (Scalars: every face of the hull, every pair.)
 */
function queryCoreFaces3D(H: Hull3D, p: Vec3Like, q: Vec3Like, out: FaceQuery3D): FaceQuery3D {
  const px = p[0],
    py = p[1],
    pz = p[2];
  const qx = q[0],
    qy = q[1],
    qz = q[2];
  const hp = H.shape.planes;
  let sepF = -Infinity;
  let faceF = 0;
  for (let f = 0, c = H.shape.faceCount; f < c; f++) {
    const nx = hp[4 * f],
      ny = hp[4 * f + 1],
      nz = hp[4 * f + 2];
    const sep = Math.min(nx * px + ny * py + nz * pz, nx * qx + ny * qy + nz * qz) - hp[4 * f + 3];
    if (sep > sepF) {
      sepF = sep;
      faceF = f;
    }
  }
  out.separation = sepF;
  out.face = faceF;
  return out;
}

/**
 * The edge axes of a capsule (segment from p along u) into `out`: hull edge × segment where the
 * edge's arc crosses the segment's great circle. A sphere has none (separation -Infinity).
 */
function queryCoreEdges3D(
  H: Hull3D,
  p: Vec3Like,
  u: Vec3Like,
  isSegment: boolean,
  out: CoreEdgeQuery3D,
): CoreEdgeQuery3D {
  let sepE = -Infinity;
  let edgeE = 0;
  vec3.set(0, 0, 0, out.axis);
  for (let k = 0, c = isSegment ? H.shape.edgeCount : 0; k < c; k++) {
    hullEdge(H, k, edge);
    const au = vec3.dot(hullNormal(H, edge.f0, n), u);
    const bu = vec3.dot(hullNormal(H, edge.f1, n), u);
    if (!((au < 0 && bu > 0) || (au > 0 && bu < 0))) continue;
    const v = hullVertex(H, edge.v0, vertex);
    if (!edgeAxis3D(vec3.sub(hullVertex(H, edge.v1, e), v, e), u, v, n)) continue;
    const sep = vec3.dot(n, vec3.sub(p, v, d));
    if (sep > sepE) {
      sepE = sep;
      edgeE = k;
      vec3.copy(n, out.axis);
    }
  }
  out.separation = sepE;
  out.edge = edgeE;
  return out;
}

/** A one-point contact at c's hull point: normal `normal`, separation `sep`. */
function pushCoreContact3D(
  c: HullCoreClosest3D,
  normal: Vec3Like,
  sep: number,
  isSegment: boolean,
  lm: LocalManifold3D,
): void {
  setNormal3D(lm, normal);
  pushPoint3D(
    lm,
    vec3.addScaled(c.hullPoint, normal, 0.5 * sep, x),
    sep,
    makeId3D(c.feature, coreFeature3D(isSegment, c.param)),
  );
}

/**
 * A sphere centre (or a segment that clips away) inside the hull: its deepest end point below
 * face F (plane pl), if within the margin.
 */
function pushDeepestEnd3D(
  faceF: number,
  pl: Float64Array,
  p: Vec3Like,
  q: Vec3Like,
  isSegment: boolean,
  r: number,
  margin: number,
  lm: LocalManifold3D,
): void {
  const sp = vec3.dot(pl, p) - pl[3];
  const sq = vec3.dot(pl, q) - pl[3];
  const useQ = isSegment && sq < sp;
  const sep = (useQ ? sq : sp) - r;
  if (sep > margin) return;
  pushPoint3D(
    lm,
    vec3.addScaled(useQ ? q : p, pl, -(r + 0.5 * sep), x),
    sep,
    makeId3D(FEATURE_FACE_3D + faceF, FEATURE_VERTEX_3D + (useQ ? 1 : 0)),
  );
}

// ---------------------------------------------------------------------------------------------
// Round shapes (spheres and capsules) against each other.

const p1 = vec3.create();
const q1 = vec3.create();
const d1 = vec3.create();
const d2 = vec3.create();
const cr = vec3.create();
const mid = vec3.create();
const bp = vec3.create();

/** Two cores (point or segment) with radii: A the working frame's own shape, B placed by its transform. */
export function collideRounds3D(
  A: Hull3D,
  B: Hull3D,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): void {
  const segA = A.shape.vertexCount === 2;
  const segB = B.shape.vertexCount === 2;
  hullVertex(A, 0, p1);
  hullVertex(A, segA ? 1 : 0, q1);
  const { p: p2, q: q2 } = roundCore3D(B, core);
  const ra = A.shape.radius;
  const rb = B.shape.radius;
  const c = closestSegments3D(p1, q1, p2, q2, seg);
  const dist = vec3.length(vec3.sub(c.c2, c.c1, n));
  if (dist > ra + rb + margin) return;
  const l1 = vec3.length(vec3.sub(q1, p1, d1));
  const l2 = vec3.length(vec3.sub(q2, p2, d2));
  const cl = vec3.length(vec3.cross(d1, d2, cr));
  if (dist > CORE_DISTANCE_3D * scale) {
    vec3.scale(n, 1 / dist, n);
  } else if (segA && segB && cl > PARALLEL_EDGE_SINE_3D * l1 * l2) {
    // Crossing segments: the common perpendicular, pointing towards B.
    vec3.divScalar(cr, cl, cr);
    const side = vec3.dot(cr, vec3.midpoint(p2, q2, mid));
    if (side < 0) vec3.negate(cr, n);
    else vec3.copy(cr, n);
  } else if (!segA && !segB) {
    // Coincident cores: any direction perpendicular to A's segment (or +z for spheres).
    vec3.set(0, 0, 1, n);
  } else {
    const dir = segA ? vec3.divScalar(d1, l1, mid) : vec3.divScalar(d2, l2, mid);
    // Perpendicular: cross with the axis least aligned.
    const ax = Math.abs(dir[0]) < 0.6 ? 1 : 0;
    const ay = ax === 0 && Math.abs(dir[1]) < 0.6 ? 1 : 0;
    const az = ax === 0 && ay === 0 ? 1 : 0;
    vec3.cross(dir, vec3.set(ax, ay, az, bp), n);
    vec3.divScalar(n, vec3.length(n), n);
  }
  setNormal3D(lm, n);
  if (segA && segB && cl <= SEGMENT_PARALLEL_SINE_3D * l1 * l2) {
    // Parallel capsules: clip B's segment to A's extent along A's axis; up to 2 points.
    const dir = vec3.divScalar(d1, l1, mid);
    const s0 = vec3.dot(dir, vec3.sub(p2, p1, e)) / l1;
    const s1 = vec3.dot(dir, vec3.sub(q2, p1, e)) / l1;
    const a = Math.max(Math.min(s0, s1), 0);
    const b = Math.min(Math.max(s0, s1), 1);
    if (b - a > (CORE_DISTANCE_3D * scale) / l1) {
      lm.kind = CONTACT_KIND_3D.parallel;
      for (let k = 0; k < 2; k++) {
        const s = k === 0 ? a : b;
        const at = vec3.addScaled(p1, d1, s, x);
        // B's point at the same place along the axis.
        const tb = (s - s0) / (s1 - s0);
        const t = Math.min(Math.max(tb, 0), 1);
        const sep = vec3.dot(n, vec3.sub(vec3.addScaled(p2, d2, t, bp), at, toX)) - ra - rb;
        if (sep > margin) continue;
        const fa = s <= 0 ? FEATURE_VERTEX_3D : s >= 1 ? FEATURE_VERTEX_3D + 1 : FEATURE_EDGE_3D;
        const fb = tb <= 0 ? FEATURE_VERTEX_3D : tb >= 1 ? FEATURE_VERTEX_3D + 1 : FEATURE_EDGE_3D;
        pushPoint3D(lm, vec3.addScaled(at, n, ra + 0.5 * sep, at), sep, makeId3D(fa, fb));
      }
      if (lm.count > 0) return;
    }
  }
  lm.kind = CONTACT_KIND_3D.closest;
  const sep = dist - ra - rb;
  pushPoint3D(
    lm,
    vec3.addScaled(c.c1, n, ra + 0.5 * sep, x),
    sep,
    makeId3D(coreFeature3D(segA, c.s), coreFeature3D(segB, c.t)),
  );
}
