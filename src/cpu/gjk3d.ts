// Closest points of two hulls that are apart (mirror of shaders/gjk3d.wgsl, function for function).
//
// GJK (Gilbert, Johnson, Keerthi 1988; van den Bergen's stopping rule): the point v of the
// Minkowski difference Q − P nearest the origin, found on a simplex of at most 4 support points
// w = q − p, each a vertex of Q and a vertex of P. Closest regions of a segment and a triangle
// as in Ericson, Real-Time Collision Detection, 5.1.2 and 5.1.5. The features are read off the
// vertices the final simplex uses on each hull (one: that vertex; two neighbours: their edge;
// more: the face through them, which faces the other hull), and the witness points computed from
// those features in closed form (polishClosest3D), not as the simplex's barycentric mix.
//
// Used where the SAT's features need not hold the closest points of hulls apart (collideHulls3D in
// src/cpu/collide3d.ts: a face contact that lies farther than the SAT's separation plus the
// hysteresis everywhere, or leaves nothing, an edge pair whose closest points are off its edges).
// The SAT axis separates the hulls, so the distance is positive and GJK ends in a few steps; the
// rare touching pair (distance within CORE_DISTANCE_3D × scale) stops early with points that
// touch. f32 (the WGSL) needs two guards: a tetrahedron's faces are all tried (a face's side test
// is rounding when the origin lies nearly in its plane), and a step that brings the estimate no
// nearer keeps the previous simplex (else rounding can cycle between simplices far from the
// answer).
//
// Everything in the working frame; nothing is allocated.

import {
  CORE_DISTANCE_3D,
  FEATURE_EDGE_3D,
  FEATURE_FACE_3D,
  FEATURE_VERTEX_3D,
  GJK_MAX_ITERATIONS_3D,
  GJK_TOLERANCE_3D,
} from '../constants3d.ts';
import { deepestVertex3D, faceAroundVertex3D, faceOverPoint3D, planeW3D } from './clip3d.ts';
import { closestSegments3D, emptySegmentClosest3D } from './distance3d.ts';
import {
  CONTACT_KIND_3D,
  emptyHullEdge3D,
  hullEdge,
  hullVertexW,
  makeId3D,
  pushPoint3D,
  setJoinNormal3D,
  type Hull3D,
  type LocalManifold3D,
} from './manifold3d.ts';
import { vec3, type Vec3, type Vec3Like } from './vec3.ts';

/** Result of closestHulls3D (WGSL: `struct HullClosest3D`): the distance, the point on P and on Q (working frame), their features. */
export interface HullClosest3D {
  distance: number;
  p: Vec3;
  q: Vec3;
  featureP: number;
  featureQ: number;
}

export function emptyHullClosest3D(): HullClosest3D {
  return { distance: 0, p: vec3.create(), q: vec3.create(), featureP: 0, featureQ: 0 };
}

/** A simplex (WGSL: `struct Simplex3D`): per point its P and Q vertices (working frame), their indices, its weight. */
interface Simplex3D {
  p: Vec3[];
  q: Vec3[];
  ip: Int32Array;
  iq: Int32Array;
  l: Float64Array;
}

function emptySimplex3D(): Simplex3D {
  const points = (): Vec3[] => Array.from({ length: 4 }, () => vec3.create());
  return {
    p: points(),
    q: points(),
    ip: new Int32Array(4),
    iq: new Int32Array(4),
    l: new Float64Array(4),
  };
}

function copySimplex3D(dst: Simplex3D, src: Simplex3D): void {
  for (let k = 0; k < 4; k++) {
    vec3.copy(src.p[k], dst.p[k]);
    vec3.copy(src.q[k], dst.q[k]);
  }
  dst.ip.set(src.ip);
  dst.iq.set(src.iq);
  dst.l.set(src.l);
}

/** The simplex, and a copy of it before a step (kept when the step brings v no nearer). */
const sim = emptySimplex3D();
const before = emptySimplex3D();
/** Its points w = q − p (solveSimplex3D). */
const w = Array.from({ length: 4 }, () => vec3.create());
/** Weights of a segment or triangle solve (gjkSegment3D, gjkTriangle3D). */
const lam = new Float64Array(3);
const ab = vec3.create();
const ac = vec3.create();
const x = vec3.create();

/**
 * Weights of the point of segment a–b nearest the origin into l[0..1] (Ericson 5.1.2); returns
 * its squared distance. A segment of zero length is its first point.
 */
export function gjkSegment3D(a: Vec3Like, b: Vec3Like, l: Float64Array): number {
  const e = vec3.sub(b, a, ab);
  const ee = vec3.dot(e, e);
  let t = 0;
  if (ee > 0) t = Math.min(Math.max(-vec3.dot(a, e) / ee, 0), 1);
  l[0] = 1 - t;
  l[1] = t;
  const p = vec3.addScaled(a, e, t, x);
  return vec3.dot(p, p);
}

/**
 * Weights of the point of triangle a, b, c nearest the origin into l[0..2] (Ericson 5.1.5: the
 * vertex, edge or face region holding it); returns its squared distance. A triangle too thin for
 * its face region (rounding) takes the nearest of its edges; an edge of zero length (two support
 * pairs can give the same point) its first end. The weights are finite and sum to 1.
 */
export function gjkTriangle3D(a: Vec3Like, b: Vec3Like, c: Vec3Like, l: Float64Array): number {
  vec3.sub(b, a, ab);
  vec3.sub(c, a, ac);
  const d1 = -vec3.dot(ab, a);
  const d2 = -vec3.dot(ac, a);
  const d3 = -vec3.dot(ab, b);
  const d4 = -vec3.dot(ac, b);
  const d5 = -vec3.dot(ab, c);
  const d6 = -vec3.dot(ac, c);
  const va = d3 * d6 - d5 * d4;
  const vb = d5 * d2 - d1 * d6;
  const vc = d1 * d4 - d3 * d2;
  let l0 = 0,
    l1 = 0,
    l2 = 0;
  if (d1 <= 0 && d2 <= 0) l0 = 1;
  else if (d3 >= 0 && d4 <= d3) l1 = 1;
  else if (d6 >= 0 && d5 <= d6) l2 = 1;
  else if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    l1 = d1 - d3 > 0 ? d1 / (d1 - d3) : 0;
    l0 = 1 - l1;
  } else if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    l2 = d2 - d6 > 0 ? d2 / (d2 - d6) : 0;
    l0 = 1 - l2;
  } else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    l2 = d4 - d3 + (d5 - d6) > 0 ? (d4 - d3) / (d4 - d3 + (d5 - d6)) : 0;
    l1 = 1 - l2;
  } else if (va > 0 && vb > 0 && vc > 0) {
    const inv = 1 / (va + vb + vc);
    l1 = vb * inv;
    l2 = vc * inv;
    l0 = 1 - l1 - l2;
  } else {
    // No region holds the origin consistently (a sliver): the nearest edge.
    let best = gjkSegment3D(a, b, l);
    l0 = l[0];
    l1 = l[1];
    const dAC = gjkSegment3D(a, c, l);
    if (dAC < best) {
      best = dAC;
      l0 = l[0];
      l1 = 0;
      l2 = l[1];
    }
    if (gjkSegment3D(b, c, l) < best) {
      l0 = 0;
      l1 = l[0];
      l2 = l[1];
    }
  }
  l[0] = l0;
  l[1] = l1;
  l[2] = l2;
  const p = vec3.addScaled(vec3.addScaled(vec3.scale(a, l0, x), b, l1, x), c, l2, x);
  return vec3.dot(p, p);
}

const nrm = vec3.create();
const toOmit = vec3.create();

/**
 * The simplex's nearest point to the origin: weights into s.l (the points it does not use get 0),
 * the unused points dropped. Returns the new point count; 0 when a tetrahedron holds the origin
 * (the hulls touch or overlap; the weights those of the origin).
 */
function solveSimplex3D(s: Simplex3D, n: number): number {
  for (let k = 0; k < 4; k++) {
    vec3.sub(s.q[k], s.p[k], w[k]);
    s.l[k] = 0;
  }
  if (n === 1) s.l[0] = 1;
  else if (n === 2) {
    gjkSegment3D(w[0], w[1], lam);
    s.l[0] = lam[0];
    s.l[1] = lam[1];
  } else if (n === 3) {
    gjkTriangle3D(w[0], w[1], w[2], lam);
    s.l[0] = lam[0];
    s.l[1] = lam[1];
    s.l[2] = lam[2];
  } else {
    // The origin strictly inside (beyond no face plane): the hulls touch. Else the nearest of
    // the faces' nearest points: all four are tried, as a face's side test is rounding where the
    // origin lies nearly in its plane (the face holding the last estimate, often).
    let best = Infinity;
    let inside = true;
    for (let t = 0; t < 4; t++) {
      const omit = 3 - t;
      const i = omit === 0 ? 1 : 0;
      const j = omit <= 1 ? 2 : 1;
      const k = omit <= 2 ? 3 : 2;
      const a = w[i];
      vec3.cross(vec3.sub(w[j], a, ab), vec3.sub(w[k], a, ac), nrm);
      if (!(-vec3.dot(nrm, a) * vec3.dot(nrm, vec3.sub(w[omit], a, toOmit)) > 0)) inside = false;
      const d = gjkTriangle3D(a, w[j], w[k], lam);
      if (d < best) {
        best = d;
        s.l.fill(0);
        s.l[i] = lam[0];
        s.l[j] = lam[1];
        s.l[k] = lam[2];
      }
    }
    if (inside) {
      originWeights3D(w, s.l);
      return 0;
    }
  }
  // The points in use moved to the front, in order.
  let m = 0;
  for (let k = 0; k < n; k++) {
    const l = s.l[k];
    if (!(l > 0)) continue;
    vec3.copy(s.p[k], s.p[m]);
    vec3.copy(s.q[k], s.q[m]);
    s.ip[m] = s.ip[k];
    s.iq[m] = s.iq[k];
    s.l[m] = l;
    m++;
  }
  return m;
}

const ta = vec3.create();
const tb = vec3.create();
const tc = vec3.create();
const negD = vec3.create();
const tx = vec3.create();

/** Weights of the origin in the tetrahedron wt (it lies inside) into l: ratios of volumes about wt[3]. */
function originWeights3D(wt: Vec3[], l: Float64Array): void {
  const d = wt[3];
  const a = vec3.sub(wt[0], d, ta);
  const b = vec3.sub(wt[1], d, tb);
  const c = vec3.sub(wt[2], d, tc);
  const nd = vec3.negate(d, negD);
  // Triple products p · (q × r).
  const vol = vec3.dot(a, vec3.cross(b, c, tx));
  l[0] = vec3.dot(nd, vec3.cross(b, c, tx)) / vol;
  l[1] = vec3.dot(a, vec3.cross(nd, c, tx)) / vol;
  l[2] = vec3.dot(a, vec3.cross(b, nd, tx)) / vol;
  l[3] = 1 - l[0] - l[1] - l[2];
}

const edge = emptyHullEdge3D();
const against = vec3.create();

/**
 * Feature of hull h holding the simplex's points on it: `count` distinct vertices, the first two
 * i0, i1. One: that vertex; two joined by an edge: the edge; else the face around i0 that faces
 * direction dir the most (working frame), or the nearly coplanar neighbour h's closest point p
 * lies over (faceOverPoint3D): the closest points lie on a face whose normal is that direction.
 */
export function simplexFeature3D(
  h: Hull3D,
  i0: number,
  i1: number,
  count: number,
  dir: Vec3Like,
  p: Vec3Like,
): number {
  if (count === 1) return FEATURE_VERTEX_3D + i0;
  if (count === 2) {
    for (let e = 0; e < h.shape.edgeCount; e++) {
      hullEdge(h, e, edge);
      if ((edge.v0 === i0 && edge.v1 === i1) || (edge.v0 === i1 && edge.v1 === i0))
        return FEATURE_EDGE_3D + e;
    }
  }
  return (
    FEATURE_FACE_3D + faceOverPoint3D(h, faceAroundVertex3D(h, i0, vec3.negate(dir, against)), p)
  );
}

/** Distinct values among the first n of `idx` (at most 3 counted) into out: [count, first, second]. */
function distinctVertices3D(idx: Int32Array, n: number, out: Int32Array): Int32Array {
  let c = 0;
  let a = -1;
  let b = -1;
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    if (i === a || i === b) continue;
    if (c === 0) a = i;
    else if (c === 1) b = i;
    c++;
  }
  out[0] = c;
  out[1] = a;
  out[2] = b;
  return out;
}

const v = vec3.create();
const negV = vec3.create();
const next = vec3.create();
const support = vec3.create();
const join = vec3.create();
const dirP = vec3.create();
const dirQ = vec3.create();
const distinct = new Int32Array(3);

/**
 * Closest points of hulls P and Q (working frame), which are apart, into `out`. `axis` (unit,
 * from P towards Q: the SAT's) names the faces when the points touch (closer than
 * CORE_DISTANCE_3D × scale, where their join has no direction).
 */
export function closestHulls3D(
  P: Hull3D,
  Q: Hull3D,
  axis: Vec3Like,
  scale: number,
  out: HullClosest3D,
): HullClosest3D {
  const touch = CORE_DISTANCE_3D * scale * (CORE_DISTANCE_3D * scale);
  // v starts as the centres' join (a point of Q − P); the simplex is empty.
  vec3.sub(Q.pos, P.pos, v);
  let n = 0;
  for (let it = 0; it < GJK_MAX_ITERATIONS_3D; it++) {
    const vv = vec3.dot(v, v);
    if (n > 0 && vv <= touch) break;
    // Support of Q − P against v: P's vertex farthest along v, Q's farthest against it.
    const ip = deepestVertex3D(P, vec3.negate(v, negV));
    const iq = deepestVertex3D(Q, v);
    hullVertexW(P, ip, sim.p[n]);
    hullVertexW(Q, iq, sim.q[n]);
    // Converged: the new support point brings v no nearer than the tolerance; or it is in the simplex.
    const vw = vec3.dot(v, vec3.sub(sim.q[n], sim.p[n], support));
    if (n > 0 && vv - vw <= GJK_TOLERANCE_3D * vv) break;
    let repeated = false;
    for (let k = 0; k < n; k++) if (sim.ip[k] === ip && sim.iq[k] === iq) repeated = true;
    if (repeated) break;
    copySimplex3D(before, sim);
    const m = n;
    sim.ip[n] = ip;
    sim.iq[n] = iq;
    n = solveSimplex3D(sim, n + 1);
    if (n === 0) {
      // A tetrahedron holds the origin: the hulls touch (by rounding); its four points are the mix.
      n = 4;
      break;
    }
    vec3.set(0, 0, 0, next);
    for (let k = 0; k < n; k++)
      vec3.addScaled(next, vec3.sub(sim.q[k], sim.p[k], support), sim.l[k], next);
    // No nearer than before (rounding): the previous simplex is the answer.
    if (m > 0 && vec3.dot(next, next) >= vv) {
      copySimplex3D(sim, before);
      n = m;
      break;
    }
    vec3.copy(next, v);
  }
  // Witness points: the simplex's weights applied to its P and Q vertices.
  vec3.set(0, 0, 0, out.p);
  vec3.set(0, 0, 0, out.q);
  for (let k = 0; k < n; k++) {
    vec3.addScaled(out.p, sim.p[k], sim.l[k], out.p);
    vec3.addScaled(out.q, sim.q[k], sim.l[k], out.q);
  }
  const d = vec3.sub(out.q, out.p, join);
  const dist = vec3.length(d);
  out.distance = dist;
  // The direction from P to Q: the join, or the SAT axis where the points touch.
  const u = dist > CORE_DISTANCE_3D * scale ? vec3.divScalar(d, dist, dirP) : vec3.copy(axis, dirP);
  distinctVertices3D(sim.ip, n, distinct);
  out.featureP = simplexFeature3D(P, distinct[1], distinct[2], distinct[0], u, out.p);
  distinctVertices3D(sim.iq, n, distinct);
  out.featureQ = simplexFeature3D(
    Q,
    distinct[1],
    distinct[2],
    distinct[0],
    vec3.negate(u, dirQ),
    out.q,
  );
  return polishClosest3D(P, Q, out);
}

const edge2 = emptyHullEdge3D();

/** End points of feature f of hull h (working frame) into a, b: a vertex twice, an edge's two ends. */
function featureSegment3D(h: Hull3D, f: number, a: Vec3, b: Vec3): void {
  const isVertex = f < FEATURE_EDGE_3D;
  if (!isVertex) hullEdge(h, f - FEATURE_EDGE_3D, edge2);
  hullVertexW(h, isVertex ? f : edge2.v0, a);
  hullVertexW(h, isVertex ? f : edge2.v1, b);
}

const plane = new Float64Array(4);
const segP0 = vec3.create();
const segP1 = vec3.create();
const segQ0 = vec3.create();
const segQ1 = vec3.create();
const seg = emptySegmentClosest3D();

/**
 * The witness points again, in closed form from the named features: the simplex's barycentric mix
 * loses digits where the Minkowski difference's closest feature is a sliver (two edges nearly
 * parallel; f32 turned such a normal by 2e-3 rad, enough to miss the best axis by a hull's
 * size times that). A face on either side: the other point moved onto its plane (the normal is
 * the face's); else the closest points of the two features as segments (a vertex is one of length
 * zero). Updates c in place.
 */
function polishClosest3D(P: Hull3D, Q: Hull3D, c: HullClosest3D): HullClosest3D {
  const fp = c.featureP;
  const fq = c.featureQ;
  if (fp >= FEATURE_FACE_3D || fq >= FEATURE_FACE_3D) {
    const onP = fp >= FEATURE_FACE_3D;
    const pl = planeW3D(onP ? P : Q, (onP ? fp : fq) - FEATURE_FACE_3D, plane);
    const p = onP ? c.q : c.p;
    const d = vec3.dot(pl, p) - pl[3];
    vec3.addScaled(p, pl, -d, onP ? c.p : c.q);
    c.distance = Math.max(d, 0);
    return c;
  }
  featureSegment3D(P, fp, segP0, segP1);
  featureSegment3D(Q, fq, segQ0, segQ1);
  const cs = closestSegments3D(segP0, segP1, segQ0, segQ1, seg);
  vec3.copy(cs.c1, c.p);
  vec3.copy(cs.c2, c.q);
  c.distance = vec3.hypot(vec3.sub(cs.c2, cs.c1, join));
  return c;
}

const mid = vec3.create();

/**
 * The contact of closestHulls3D's result c for hulls A (P) and B (Q) within the margin: one point
 * midway between the closest points, the distance as its separation, the normal along their join,
 * or along `axis`, from A towards B, where they touch.
 */
export function closestContact3D(
  c: HullClosest3D,
  axis: Vec3Like,
  scale: number,
  lm: LocalManifold3D,
): void {
  lm.kind = CONTACT_KIND_3D.closest;
  setJoinNormal3D(lm, vec3.sub(c.q, c.p, join), c.distance, axis, scale);
  pushPoint3D(lm, vec3.midpoint(c.p, c.q, mid), c.distance, makeId3D(c.featureP, c.featureQ));
}
