// An independent validity check of a 3D manifold against its two shapes, in f64 and world space,
// brute force (no pruning, no hysteresis, allocation is fine). It judges results that differ
// between the backends (a near-tie that f32 broke differently from f64 must be valid on both
// sides), samples in the tests, and the CLI's `validate`.
//
// A manifold is valid when
//   - the normal is unit and there are at most 4 points;
//   - without points: the shapes do not overlap (beyond the tolerance);
//   - with points: the shapes are within the margin, and the normal is (nearly) the axis of least
//     penetration: the separation along it is within the hysteresis of the best SAT axis (hull
//     pairs: face normals and every edge–edge cross product; round shapes: the exact distance);
//   - per point: its point on A (position + depth/2 n) lies on A's surface, its point on B on B's
//     (round shapes: moved by the radius onto the core), at least one of the two is a support
//     point of its shape along ±n, the depth lies in [-margin, overlap along n], and the feature
//     ids name features that hold the two points (vertex, edge or face of a hull; end point or
//     segment of a capsule).

import {
  EDGE_HYSTERESIS_3D,
  FEATURE_EDGE_3D,
  FEATURE_FACE_3D,
  SEGMENT_PARALLEL_SINE_3D,
  SHAPE_KIND_3D,
} from './constants3d.ts';
import { LAYOUT_3D } from './layout3d.ts';
import type { ManifoldJson } from './pack2d.ts';
import { packScene3D, unpackShapes3D } from './pack3d.ts';
import type { Scene3D } from './scene.ts';
import type { Manifold3D, Transform3D } from './cpu/manifold3d.ts';
import type { Shape3D } from './shapes3d.ts';

type V3 = [number, number, number];

/** A shape placed in the world: its core vertices and face planes in world coordinates. */
export interface PlacedShape3D {
  shape: Shape3D;
  hull: boolean;
  radius: number;
  extent: number;
  /** World core vertices. */
  v: V3[];
  /** World face planes (unit normal, offset). */
  n: V3[];
  d: number[];
  /** Largest world coordinate magnitude (for the f32 resolution of the kernel's results). */
  magnitude: number;
}

/** World rotation (row-major) of quaternion [x, y, z, w] (normalised, as f32 quaternions are not exactly unit). */
function rotation(q: ArrayLike<number>): number[] {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  const x = q[0] / l,
    y = q[1] / l,
    z = q[2] / l,
    w = q[3] / l;
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    1 - 2 * (x * x + y * y),
  ];
}

function apply(m: number[], v: ArrayLike<number>): V3 {
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const len = (a: V3): number => Math.hypot(a[0], a[1], a[2]);
const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** Places `shape` at `position` with `rotation` (the body's transform). */
export function placeShape3D(
  shape: Shape3D,
  position: ArrayLike<number>,
  quat: ArrayLike<number>,
): PlacedShape3D {
  const m = rotation(quat);
  const c = add(apply(m, shape.center), [position[0], position[1], position[2]]);
  const v: V3[] = [];
  let magnitude = Math.max(Math.abs(position[0]), Math.abs(position[1]), Math.abs(position[2]));
  for (let i = 0; i < shape.vertexCount; i++) {
    const w = add(apply(m, shape.vertices.subarray(3 * i, 3 * i + 3)), c);
    v.push(w);
    magnitude = Math.max(magnitude, Math.abs(w[0]), Math.abs(w[1]), Math.abs(w[2]));
  }
  const n: V3[] = [];
  const d: number[] = [];
  for (let f = 0; f < shape.faceCount; f++) {
    const nf = apply(m, shape.planes.subarray(4 * f, 4 * f + 3));
    const l = len(nf);
    const u = scale(nf, 1 / l);
    n.push(u);
    // The plane through the face's vertices (the packed offset was rounded apart from the vertices).
    let off = -Infinity;
    for (const w of v) off = Math.max(off, dot(u, w));
    d.push(off);
  }
  const hull = shape.kind === SHAPE_KIND_3D.hull || shape.kind === SHAPE_KIND_3D.box;
  return { shape, hull, radius: shape.radius, extent: shape.extent, v, n, d, magnitude };
}

/** Largest u · v over the core vertices. */
function support(s: PlacedShape3D, u: V3): number {
  let h = -Infinity;
  for (const w of s.v) h = Math.max(h, dot(u, w));
  return h;
}

/** Separation of the two (rounded) shapes along unit u from A to B: min over B − max over A. */
export function separationAlong3D(a: PlacedShape3D, b: PlacedShape3D, u: V3): number {
  return -support(b, scale(u, -1)) - support(a, u) - a.radius - b.radius;
}

/** Edges of a placed shape's core: hull edges, a capsule's segment, nothing for a sphere. */
function edges(s: PlacedShape3D): [V3, V3][] {
  if (!s.hull) return s.v.length === 2 ? [[s.v[0], s.v[1]]] : [];
  const out: [V3, V3][] = [];
  for (let e = 0; e < s.shape.edgeCount; e++)
    out.push([s.v[s.shape.edgeV0[e]], s.v[s.shape.edgeV1[e]]]);
  return out;
}

function faceLoop(s: PlacedShape3D, f: number): V3[] {
  const first = s.shape.faceFirst[f];
  const out: V3[] = [];
  for (let k = 0; k < s.shape.faceSize[f]; k++) out.push(s.v[s.shape.faceVertices[first + k]]);
  return out;
}

/** Closest points of segments p1–q1 and p2–q2: [distance, s, t]. */
function segmentSegment(p1: V3, q1: V3, p2: V3, q2: V3): [number, number, number] {
  const d1 = sub(q1, p1);
  const d2 = sub(q2, p2);
  const r = sub(p1, p2);
  const a = dot(d1, d1);
  const e = dot(d2, d2);
  const f = dot(d2, r);
  let s = 0;
  let t = 0;
  const clamp = (x: number): number => Math.min(Math.max(x, 0), 1);
  if (a <= 0 && e <= 0) {
    s = 0;
    t = 0;
  } else if (a <= 0) {
    t = clamp(f / e);
  } else {
    const c = dot(d1, r);
    if (e <= 0) s = clamp(-c / a);
    else {
      const b = dot(d1, d2);
      const denom = a * e - b * b;
      s = denom > 0 ? clamp((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp((b - c) / a);
      }
    }
  }
  return [len(sub(add(p1, scale(d1, s)), add(p2, scale(d2, t)))), s, t];
}

function pointSegment(p: V3, a: V3, b: V3): number {
  return segmentSegment(p, p, a, b)[0];
}

/** Whether p projects into the (convex, counter-clockwise around n) polygon, within tol. */
function insidePolygon(p: V3, loop: V3[], n: V3, tol: number): boolean {
  for (let k = 0; k < loop.length; k++) {
    const a = loop[k];
    const b = loop[(k + 1) % loop.length];
    const side = cross(sub(b, a), n);
    const l = len(side);
    if (l > 0 && dot(side, sub(p, a)) / l > tol) return false;
  }
  return true;
}

/**
 * Distance of point p to a hull's surface (> 0 outside, < 0 inside: minus the distance to the
 * nearest plane). Outside: the distance to the nearest face polygon, over every face (not only
 * those whose plane p is above: a face merged from nearly coplanar points holds its vertices
 * within the merge tolerance of its plane, so its plane can pass a hair above a neighbour's
 * polygon, and a point on that polygon lies outside the plane).
 */
export function hullSignedDistance(s: PlacedShape3D, p: V3): number {
  let maxSep = -Infinity;
  for (let f = 0; f < s.n.length; f++) maxSep = Math.max(maxSep, dot(s.n[f], p) - s.d[f]);
  if (maxSep <= 0) return maxSep;
  let best = Infinity;
  for (let f = 0; f < s.n.length; f++) {
    const sep = dot(s.n[f], p) - s.d[f];
    const loop = faceLoop(s, f);
    if (insidePolygon(p, loop, s.n[f], 0)) best = Math.min(best, Math.abs(sep));
    for (let k = 0; k < loop.length; k++)
      best = Math.min(best, pointSegment(p, loop[k], loop[(k + 1) % loop.length]));
  }
  return best;
}

/** Distance of p to the core (point, segment) of a round shape. */
function coreDistance(s: PlacedShape3D, p: V3): number {
  return s.v.length === 2 ? pointSegment(p, s.v[0], s.v[1]) : len(sub(p, s.v[0]));
}

/** Distance of p to the shape's surface (> 0 outside, < 0 inside), round shapes by their radius. */
export function shapeSignedDistance3D(s: PlacedShape3D, p: V3): number {
  return s.hull ? hullSignedDistance(s, p) : coreDistance(s, p) - s.radius;
}

/**
 * A quick check of a manifold for sweeps: unit normal, at most 4 points, and for every point the
 * implied points on A (position + depth/2 n) and on B (position - depth/2 n) on the surfaces
 * within `tol`. Null when it holds, else the first problem. (checkManifoldValidity3D is the
 * whole check.)
 */
export function checkManifold3D(
  m: Manifold3D,
  a: Shape3D,
  xfA: Transform3D,
  b: Shape3D,
  xfB: Transform3D,
  tol: number,
): string | null {
  if (m.count === 0) return null;
  const n: V3 = [m.normal[0], m.normal[1], m.normal[2]];
  const nl = len(n);
  if (!(Math.abs(nl - 1) < 1e-6)) return `normal length ${nl}`;
  if (m.count > 4) return `count ${m.count}`;
  const pa = placeShape3D(a, xfA.position, xfA.rotation);
  const pb = placeShape3D(b, xfB.position, xfB.rotation);
  for (let k = 0; k < m.count; k++) {
    const d = m.depths[k];
    const p: V3 = [m.positions[3 * k], m.positions[3 * k + 1], m.positions[3 * k + 2]];
    const da = shapeSignedDistance3D(pa, add(p, scale(n, 0.5 * d)));
    const db = shapeSignedDistance3D(pb, add(p, scale(n, -0.5 * d)));
    if (!(Math.abs(da) <= tol)) return `point ${k}: its point on A is ${da} from A's surface`;
    if (!(Math.abs(db) <= tol)) return `point ${k}: its point on B is ${db} from B's surface`;
  }
  return null;
}

/**
 * The best separating-axis separation of the two shapes (> 0 apart, < 0 minus the minimum
 * penetration depth): over every face normal, every edge–edge cross product, and for round
 * shapes the exact distance of the cores. For two hulls that are apart it is the SAT value (a
 * lower bound of the distance), which is what the narrowphase's speculative contacts use.
 */
export function bestSeparation3D(
  a: PlacedShape3D,
  b: PlacedShape3D,
): { separation: number; axis: V3 } {
  let best = -Infinity;
  let axis: V3 = [0, 0, 1];
  const tryAxis = (u: V3): void => {
    const l = len(u);
    if (!(l > 0)) return;
    const w = scale(u, 1 / l);
    const s = separationAlong3D(a, b, w);
    if (s > best) {
      best = s;
      axis = w;
    }
  };
  for (const n of a.n) tryAxis(n);
  for (const n of b.n) tryAxis(scale(n, -1));
  const ea = edges(a);
  const eb = edges(b);
  for (const [p1, q1] of ea) {
    for (const [p2, q2] of eb) {
      const d1 = sub(q1, p1);
      const d2 = sub(q2, p2);
      const c = cross(d1, d2);
      if (len(c) < 1e-9 * len(d1) * len(d2)) continue;
      tryAxis(c);
      tryAxis(scale(c, -1));
    }
  }
  if (!a.hull || !b.hull) {
    // A round shape: the direction of the closest points of the cores (exact for separated cores).
    const d = coreClosest(a, b);
    if (d) tryAxis(sub(d[1], d[0]));
  }
  if (best === -Infinity) tryAxis([0, 0, 1]);
  return { separation: best, axis };
}

/** Closest points of the cores when at least one is round and they do not intersect; null otherwise. */
function coreClosest(a: PlacedShape3D, b: PlacedShape3D): [V3, V3] | null {
  const segs = (s: PlacedShape3D): [V3, V3] => [s.v[0], s.v[s.v.length === 2 ? 1 : 0]];
  if (!a.hull && !b.hull) {
    const [p1, q1] = segs(a);
    const [p2, q2] = segs(b);
    const [dist, s, t] = segmentSegment(p1, q1, p2, q2);
    if (!(dist > 0)) return null;
    return [add(p1, scale(sub(q1, p1), s)), add(p2, scale(sub(q2, p2), t))];
  }
  const hull = a.hull ? a : b;
  const round = a.hull ? b : a;
  const [p, q] = segs(round);
  // Does the segment meet the hull? (Clip it against every face plane.)
  let t0 = 0;
  let t1 = 1;
  for (let f = 0; f < hull.n.length && t0 <= t1; f++) {
    const dp = dot(hull.n[f], p) - hull.d[f];
    const dq = dot(hull.n[f], q) - hull.d[f];
    if (dp > 0 && dq > 0) t1 = -1;
    else if (dp > 0) t0 = Math.max(t0, dp / (dp - dq));
    else if (dq > 0) t1 = Math.min(t1, dp / (dp - dq));
  }
  if (t0 <= t1) return null;
  let best = Infinity;
  let pair: [V3, V3] = [p, p];
  const consider = (h: V3, c: V3): void => {
    const dist = len(sub(c, h));
    if (dist < best) {
      best = dist;
      pair = [h, c];
    }
  };
  for (const [e0, e1] of edges(hull)) {
    const [, s, t] = segmentSegment(e0, e1, p, q);
    consider(add(e0, scale(sub(e1, e0), s)), add(p, scale(sub(q, p), t)));
  }
  for (const x of round.v.length === 2 ? [p, q] : [p]) {
    for (let f = 0; f < hull.n.length; f++) {
      const sep = dot(hull.n[f], x) - hull.d[f];
      if (sep > 0 && insidePolygon(x, faceLoop(hull, f), hull.n[f], 0))
        consider(sub(x, scale(hull.n[f], sep)), x);
    }
  }
  return a.hull ? pair : [pair[1], pair[0]];
}

/** The exact distance of the two shapes' surfaces when apart (hull pairs: brute force over features); <= 0 when touching. */
export function surfaceDistance3D(a: PlacedShape3D, b: PlacedShape3D): number {
  if (!a.hull || !b.hull) {
    const c = coreClosest(a, b);
    return c ? len(sub(c[1], c[0])) - a.radius - b.radius : -a.radius - b.radius;
  }
  if (bestSeparation3D(a, b).separation <= 0) return 0;
  let best = Infinity;
  for (const w of b.v) best = Math.min(best, hullSignedDistance(a, w));
  for (const w of a.v) best = Math.min(best, hullSignedDistance(b, w));
  for (const [p1, q1] of edges(a))
    for (const [p2, q2] of edges(b)) best = Math.min(best, segmentSegment(p1, q1, p2, q2)[0]);
  return best;
}

/** A manifold to judge, world space. */
export interface ManifoldView3D {
  normal: ArrayLike<number>;
  count: number;
  positions: ArrayLike<number>;
  depths: ArrayLike<number>;
  ids: ArrayLike<number>;
}

export interface Validity3D {
  ok: boolean;
  problems: string[];
  tol: number;
}

/** Length tolerance of a pair: relative to the larger shape, plus the f32 resolution of its world coordinates. */
export function pairTolerance3D(a: PlacedShape3D, b: PlacedShape3D, relative = 4e-4): number {
  return (
    relative * Math.max(a.extent, b.extent) + 8 * 2 ** -23 * Math.max(a.magnitude, b.magnitude)
  );
}

/** Why feature byte f of shape s does not hold its point x (on the surface, or the core for round shapes), or null. */
export function featureProblem(s: PlacedShape3D, f: number, x: V3, tol: number): string | null {
  if (!s.hull) {
    if (f === FEATURE_EDGE_3D) return s.v.length === 2 ? null : 'a sphere has no edge';
    if (f < s.v.length)
      return len(sub(x, s.v[f])) <= tol
        ? null
        : `core end ${f} is ${len(sub(x, s.v[f])).toPrecision(4)} from the point`;
    return `feature ${f} does not exist on a ${s.v.length === 2 ? 'capsule' : 'sphere'}`;
  }
  const sh = s.shape;
  if (f < FEATURE_EDGE_3D) {
    if (f >= sh.vertexCount) return `vertex ${f} does not exist`;
    const d = len(sub(x, s.v[f]));
    return d <= tol ? null : `vertex ${f} is ${d.toPrecision(4)} from the point`;
  }
  if (f < FEATURE_FACE_3D) {
    const e = f - FEATURE_EDGE_3D;
    if (e >= sh.edgeCount) return `edge ${e} does not exist`;
    const d = pointSegment(x, s.v[sh.edgeV0[e]], s.v[sh.edgeV1[e]]);
    return d <= tol ? null : `edge ${e} is ${d.toPrecision(4)} from the point`;
  }
  const fc = f - FEATURE_FACE_3D;
  if (fc >= sh.faceCount) return `face ${fc} does not exist`;
  const off = dot(s.n[fc], x) - s.d[fc];
  if (Math.abs(off) > tol) return `face ${fc}'s plane is ${off.toPrecision(4)} from the point`;
  return insidePolygon(x, faceLoop(s, fc), s.n[fc], tol)
    ? null
    : `the point lies outside face ${fc}`;
}

/**
 * Checks manifold m of shapes a and b (placed) within `margin`. `tol`: length tolerance
 * (default pairTolerance3D); the normal may be worse than the best axis by the axis hysteresis.
 */
export function checkManifoldValidity3D(
  a: PlacedShape3D,
  b: PlacedShape3D,
  m: ManifoldView3D,
  margin: number,
  tol = pairTolerance3D(a, b),
): Validity3D {
  const problems: string[] = [];
  const out: Validity3D = { ok: true, problems, tol };
  const minExtent = Math.min(a.extent, b.extent);
  const best = bestSeparation3D(a, b);
  if (m.count > 4) problems.push(`count ${m.count} > 4`);
  if (m.count === 0) {
    if (best.separation < -tol)
      problems.push(
        `no points, but the shapes overlap by ${fmt(-best.separation)} (tol ${fmt(tol)})`,
      );
    out.ok = problems.length === 0;
    return out;
  }
  if (best.separation > margin + tol)
    problems.push(
      `${m.count} points, but the shapes are apart by ${fmt(best.separation)} > margin ${margin}`,
    );
  const nl = Math.hypot(m.normal[0], m.normal[1], m.normal[2]);
  if (!(Math.abs(nl - 1) <= 1e-5)) problems.push(`normal not unit: |n| = ${nl}`);
  const n: V3 = [m.normal[0] / nl, m.normal[1] / nl, m.normal[2] / nl];
  const sepN = separationAlong3D(a, b, n);
  const slack = tol + 2 * EDGE_HYSTERESIS_3D * minExtent;
  if (sepN < best.separation - slack) {
    problems.push(
      `normal is not the axis of least penetration: separation along n ${fmt(sepN)}, best ${fmt(best.separation)} along [${best.axis.map(fmt).join(', ')}] (slack ${fmt(slack)})`,
    );
  }
  const pair: PairNormal3D = {
    a,
    b,
    n,
    sepN,
    margin,
    tol,
    coreTol: coreTolerance(a, b, tol),
    hA: support(a, n) + a.radius,
    hB: -support(b, scale(n, -1)) - b.radius,
  };
  for (let k = 0; k < Math.min(m.count, 4); k++) pointProblems3D(pair, m, k, problems);
  duplicatePointProblems(m, tol, problems);
  out.ok = problems.length === 0;
  return out;
}

const fmt = (x: number): string => x.toPrecision(6);

/**
 * Two capsules within SEGMENT_PARALLEL_SINE_3D of parallel get two points at the ends of the
 * overlap measured along A's axis, B's core point straight across along n: off B's core by up to
 * the sine times the segment length (the method's stated approximation).
 */
function coreTolerance(a: PlacedShape3D, b: PlacedShape3D, tol: number): number {
  const segLength = (s: PlacedShape3D): number => (s.v.length === 2 ? len(sub(s.v[1], s.v[0])) : 0);
  return !a.hull && !b.hull
    ? tol + SEGMENT_PARALLEL_SINE_3D * Math.max(segLength(a), segLength(b))
    : tol;
}

/** A pair and its manifold's unit normal: what each point is checked against. */
interface PairNormal3D {
  a: PlacedShape3D;
  b: PlacedShape3D;
  n: V3;
  /** Separation along n. */
  sepN: number;
  margin: number;
  tol: number;
  /** The tolerance on points on the cores (see coreTolerance). */
  coreTol: number;
  /** A's and B's supporting planes along n (radii included). */
  hA: number;
  hB: number;
}

/** Point k: its depth, its ends on the cores or surfaces, support along n, its feature id. */
function pointProblems3D(q: PairNormal3D, m: ManifoldView3D, k: number, problems: string[]): void {
  const { a, b, n, tol, coreTol, hA, hB } = q;
  const what = `point ${k}`;
  const d = m.depths[k];
  const p: V3 = [m.positions[3 * k], m.positions[3 * k + 1], m.positions[3 * k + 2]];
  if (!Number.isFinite(d) || !p.every(Number.isFinite)) {
    problems.push(`${what}: not finite`);
    return;
  }
  if (d < -q.margin - tol) problems.push(`${what}: depth ${fmt(d)} < -margin ${-q.margin}`);
  if (d > -q.sepN + tol)
    problems.push(`${what}: depth ${fmt(d)} exceeds the overlap along n ${fmt(-q.sepN)}`);
  const pa = add(p, scale(n, 0.5 * d));
  const pb = sub(p, scale(n, 0.5 * d));
  // Points on the cores (round shapes) or the surfaces (hulls).
  const ca = a.hull ? pa : sub(pa, scale(n, a.radius));
  const cb = b.hull ? pb : add(pb, scale(n, b.radius));
  const da = a.hull ? Math.abs(hullSignedDistance(a, ca)) : coreDistance(a, ca);
  const db = b.hull ? Math.abs(hullSignedDistance(b, cb)) : coreDistance(b, cb);
  if (!(da <= coreTol))
    problems.push(`${what}: its point on A is ${fmt(da)} from A's ${a.hull ? 'surface' : 'core'}`);
  if (!(db <= coreTol))
    problems.push(`${what}: its point on B is ${fmt(db)} from B's ${b.hull ? 'surface' : 'core'}`);
  const supportA = Math.abs(dot(n, pa) - hA) <= tol;
  const supportB = Math.abs(dot(n, pb) - hB) <= tol;
  if (!supportA && !supportB) {
    problems.push(
      `${what}: neither its point on A (${fmt(dot(n, pa) - hA)} off) nor on B (${fmt(dot(n, pb) - hB)} off) is a support point along the normal`,
    );
  }
  const id = m.ids[k];
  if (id > 0xffff)
    problems.push(`${what}: id 0x${id.toString(16)} has bits above the two feature bytes`);
  const fa = featureProblem(a, (id >> 8) & 0xff, ca, coreTol);
  const fb = featureProblem(b, id & 0xff, cb, coreTol);
  if (fa) problems.push(`${what}: id 0x${id.toString(16).padStart(4, '0')}: A's ${fa}`);
  if (fb) problems.push(`${what}: id 0x${id.toString(16).padStart(4, '0')}: B's ${fb}`);
}

/**
 * A point twice (a few f32 steps apart, under two ids) is no contact point more: it gives a
 * solver two constraints at one spot and flickers between its ids from frame to frame. And
 * persistent contacts match points by pair and id: two points of one manifold may not share one.
 */
function duplicatePointProblems(m: ManifoldView3D, tol: number, problems: string[]): void {
  for (let k = 0; k < Math.min(m.count, 4); k++) {
    for (let l = k + 1; l < Math.min(m.count, 4); l++) {
      const gap = Math.hypot(
        m.positions[3 * k] - m.positions[3 * l],
        m.positions[3 * k + 1] - m.positions[3 * l + 1],
        m.positions[3 * k + 2] - m.positions[3 * l + 2],
      );
      if (gap <= 1e-3 * tol)
        problems.push(`points ${k} and ${l} are ${fmt(gap)} apart: the same point twice`);
      if (m.ids[k] === m.ids[l])
        problems.push(`points ${k} and ${l} share id 0x${m.ids[k].toString(16)}`);
    }
  }
}

/**
 * Splits the mismatches of two runs of one 3D scene into near-ties (both manifolds valid: f32 and
 * f64 broke a tie differently) and unexplained ones. The shapes and body transforms are the f32
 * data the kernels read.
 */
export function splitNearTies3D<T extends { index: number }>(
  scene: Scene3D,
  pairs: Uint32Array,
  a: readonly ManifoldJson[],
  b: readonly ManifoldJson[],
  mismatches: readonly T[],
): { nearTies: T[]; unexplained: T[] } {
  const packed = packScene3D(scene, pairs);
  const shapes = unpackShapes3D(packed);
  const f = new Float32Array(packed.bodies);
  const u = new Uint32Array(packed.bodies);
  const Lb = LAYOUT_3D.body;
  const place = (body: number): PlacedShape3D => {
    const o = body * Lb.words;
    return placeShape3D(
      shapes[u[o + Lb.shape]],
      f.subarray(o + Lb.position, o + Lb.position + 3),
      f.subarray(o + Lb.rotation, o + Lb.rotation + 4),
    );
  };
  const toView = (m: ManifoldJson): ManifoldView3D => ({
    normal: m.normal,
    count: m.points.length,
    positions: m.points.flatMap((p) => p.position),
    depths: m.points.map((p) => p.depth),
    ids: m.points.map((p) => p.id),
  });
  const nearTies: T[] = [];
  const unexplained: T[] = [];
  const margin = Math.fround(scene.margin);
  for (const mm of mismatches) {
    const k = mm.index;
    if (k < 0 || !a[k] || !b[k]) {
      unexplained.push(mm);
      continue;
    }
    const sa = place(pairs[2 * k]);
    const sb = place(pairs[2 * k + 1]);
    const ok =
      checkManifoldValidity3D(sa, sb, toView(a[k]), margin).ok &&
      checkManifoldValidity3D(sa, sb, toView(b[k]), margin).ok;
    (ok ? nearTies : unexplained).push(mm);
  }
  return { nearTies, unexplained };
}
