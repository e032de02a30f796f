// Closest points of two hulls that are apart (mirror of shaders/gjk3d.wgsl, function for function).
//
// GJK (Gilbert, Johnson, Keerthi 1988; van den Bergen's stopping rule): the point v of the
// Minkowski difference Q − P nearest the origin, found on a simplex of at most 4 support points
// w = q − p, each a vertex of Q and a vertex of P. Closest regions of a segment and a triangle
// as in Ericson, Real-Time Collision Detection, 5.1.2 and 5.1.5. The features are read off the
// vertices the final simplex uses on each hull (one: that vertex; two neighbours: their edge;
// more: the face through them, which faces the other hull), and the witness points computed from
// those features in closed form (polishClosest3d), not as the simplex's barycentric mix.
//
// Used where the SAT's features need not hold the closest points of hulls apart (collideHulls3d in
// src/cpu/collide3d.ts: a face contact that lies farther than the SAT's separation plus the
// hysteresis everywhere, or leaves nothing, an edge pair whose closest points are off its edges).
// The SAT axis separates the hulls, so the distance is positive and GJK ends in a few steps; the rare touching pair
// (distance within CORE_DISTANCE_3D × scale) stops early with points that touch. f32 (the WGSL)
// needs two guards: a tetrahedron's faces are all tried (a face's side test is rounding when the
// origin lies nearly in its plane), and a step that brings the estimate no nearer keeps the
// previous simplex (else rounding can cycle between simplices far from the answer).
//
// Everything in the working frame; nothing is allocated.

import { CORE_DISTANCE_3D, FEATURE_EDGE_3D, FEATURE_FACE_3D, FEATURE_VERTEX_3D, GJK_MAX_ITERATIONS_3D, GJK_TOLERANCE_3D } from '../constants3d.ts';
import { deepestVertex3d, faceAroundVertex3d, faceOverPoint3d, planeW, planeW3d } from './clip3d.ts';
import { closestSegments3d, cp } from './distance3d.ts';
import { CONTACT_KIND_3D, lm, makeId3d, pushPoint3d, setJoinNormal3d, type Hull3D } from './manifold3d.ts';

/** Result of closestHulls3d (WGSL: `struct HullClosest3D`): the distance, the point on P and on Q, their features. */
export const hc = { distance: 0, p: new Float64Array(3), q: new Float64Array(3), featureP: 0, featureQ: 0 };

/** A simplex (WGSL: struct Simplex3D): per point its P and Q vertices (working frame, x, y, z), their indices, its weight. */
interface Simplex3D {
  p: Float64Array;
  q: Float64Array;
  ip: Int32Array;
  iq: Int32Array;
  l: Float64Array;
}
function emptySimplex3d(): Simplex3D {
  return { p: new Float64Array(12), q: new Float64Array(12), ip: new Int32Array(4), iq: new Int32Array(4), l: new Float64Array(4) };
}
/** The simplex, and a copy of it before a step (kept when the step brings v no nearer). */
const sim = emptySimplex3d();
const before = emptySimplex3d();
function copySimplex3d(dst: Simplex3D, src: Simplex3D): void {
  dst.p.set(src.p);
  dst.q.set(src.q);
  dst.ip.set(src.ip);
  dst.iq.set(src.iq);
  dst.l.set(src.l);
}
/** Its points w = q − p (solveSimplex3d), and the closest point v of the simplex to the origin. */
const sw = new Float64Array(12);
const v = new Float64Array(3);
/** Weights of a segment or triangle solve (gjkSegment3d, gjkTriangle3d). */
const lam = new Float64Array(3);

/** Vertex i of hull h in the working frame, into out[o..o+2] (WGSL: hullVertexW). */
function vertexW3d(h: Hull3D, i: number, out: Float64Array, o: number): void {
  const m = h.rot;
  const t = h.pos;
  const vs = h.shape.vertices;
  const x = vs[3 * i]!, y = vs[3 * i + 1]!, z = vs[3 * i + 2]!;
  out[o] = m[0]! * x + m[1]! * y + m[2]! * z + t[0]!;
  out[o + 1] = m[3]! * x + m[4]! * y + m[5]! * z + t[1]!;
  out[o + 2] = m[6]! * x + m[7]! * y + m[8]! * z + t[2]!;
}

/**
 * Weights of the point of segment a–b nearest the origin into lam[0..1] (Ericson 5.1.2); returns
 * its squared distance. A segment of zero length is its first point.
 */
export function gjkSegment3d(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const ex = bx - ax, ey = by - ay, ez = bz - az;
  const ee = ex * ex + ey * ey + ez * ez;
  let t = 0;
  if (ee > 0) t = Math.min(Math.max(-(ax * ex + ay * ey + az * ez) / ee, 0), 1);
  lam[0] = 1 - t;
  lam[1] = t;
  const x = ax + t * ex, y = ay + t * ey, z = az + t * ez;
  return x * x + y * y + z * z;
}

/**
 * Weights of the point of triangle a, b, c nearest the origin into lam[0..2] (Ericson 5.1.5: the
 * vertex, edge or face region holding it); returns its squared distance. A triangle too thin for
 * its face region (rounding) takes the nearest of its edges; an edge of zero length (two support
 * pairs can give the same point) its first end. The weights are finite and sum to 1.
 */
export function gjkTriangle3d(
  ax: number, ay: number, az: number, bx: number, by: number, bz: number, cx: number, cy: number, cz: number,
): number {
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  const d1 = -(abx * ax + aby * ay + abz * az);
  const d2 = -(acx * ax + acy * ay + acz * az);
  const d3 = -(abx * bx + aby * by + abz * bz);
  const d4 = -(acx * bx + acy * by + acz * bz);
  const d5 = -(abx * cx + aby * cy + abz * cz);
  const d6 = -(acx * cx + acy * cy + acz * cz);
  const va = d3 * d6 - d5 * d4;
  const vb = d5 * d2 - d1 * d6;
  const vc = d1 * d4 - d3 * d2;
  let l0 = 0, l1 = 0, l2 = 0;
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
    let best = gjkSegment3d(ax, ay, az, bx, by, bz);
    l0 = lam[0]!;
    l1 = lam[1]!;
    const dAC = gjkSegment3d(ax, ay, az, cx, cy, cz);
    if (dAC < best) {
      best = dAC;
      l0 = lam[0]!;
      l1 = 0;
      l2 = lam[1]!;
    }
    if (gjkSegment3d(bx, by, bz, cx, cy, cz) < best) {
      l0 = 0;
      l1 = lam[0]!;
      l2 = lam[1]!;
    }
  }
  lam[0] = l0;
  lam[1] = l1;
  lam[2] = l2;
  const x = l0 * ax + l1 * bx + l2 * cx, y = l0 * ay + l1 * by + l2 * cy, z = l0 * az + l1 * bz + l2 * cz;
  return x * x + y * y + z * z;
}

/**
 * The simplex's nearest point to the origin: weights into sim.l (the points it does not use get 0),
 * the unused points dropped. Returns the new point count; 0 when a tetrahedron holds the origin
 * (the hulls touch or overlap; the weights those of the origin).
 */
function solveSimplex3d(n: number): number {
  for (let k = 0; k < 4; k++) {
    for (let c = 0; c < 3; c++) sw[3 * k + c] = sim.q[3 * k + c]! - sim.p[3 * k + c]!;
    sim.l[k] = 0;
  }
  if (n === 1) sim.l[0] = 1;
  else if (n === 2) {
    gjkSegment3d(sw[0]!, sw[1]!, sw[2]!, sw[3]!, sw[4]!, sw[5]!);
    sim.l[0] = lam[0]!;
    sim.l[1] = lam[1]!;
  } else if (n === 3) {
    gjkTriangle3d(sw[0]!, sw[1]!, sw[2]!, sw[3]!, sw[4]!, sw[5]!, sw[6]!, sw[7]!, sw[8]!);
    sim.l[0] = lam[0]!;
    sim.l[1] = lam[1]!;
    sim.l[2] = lam[2]!;
  } else {
    // The origin strictly inside (beyond no face plane): the hulls touch. Else the nearest of
    // the faces' nearest points: all four are tried, as a face's side test is rounding where the
    // origin lies nearly in its plane (the face holding the last estimate, often).
    let best = Infinity;
    let inside = true;
    for (let t = 0; t < 4; t++) {
      const omit = 3 - t;
      const i = 3 * (omit === 0 ? 1 : 0);
      const j = 3 * (omit <= 1 ? 2 : 1);
      const k = 3 * (omit <= 2 ? 3 : 2);
      const o = 3 * omit;
      const ax = sw[i]!, ay = sw[i + 1]!, az = sw[i + 2]!;
      const bx = sw[j]! - ax, by = sw[j + 1]! - ay, bz = sw[j + 2]! - az;
      const cx = sw[k]! - ax, cy = sw[k + 1]! - ay, cz = sw[k + 2]! - az;
      const nx = by * cz - bz * cy, ny = bz * cx - bx * cz, nz = bx * cy - by * cx;
      const sideO = -(nx * ax + ny * ay + nz * az);
      const sideD = nx * (sw[o]! - ax) + ny * (sw[o + 1]! - ay) + nz * (sw[o + 2]! - az);
      if (!(sideO * sideD > 0)) inside = false;
      const d = gjkTriangle3d(ax, ay, az, sw[j]!, sw[j + 1]!, sw[j + 2]!, sw[k]!, sw[k + 1]!, sw[k + 2]!);
      if (d < best) {
        best = d;
        sim.l.fill(0);
        sim.l[i / 3] = lam[0]!;
        sim.l[j / 3] = lam[1]!;
        sim.l[k / 3] = lam[2]!;
      }
    }
    if (inside) {
      originWeights3d();
      return 0;
    }
  }
  // The points in use moved to the front, in order.
  let m = 0;
  for (let k = 0; k < n; k++) {
    const l = sim.l[k]!;
    if (!(l > 0)) continue;
    for (let c = 0; c < 3; c++) {
      sim.p[3 * m + c] = sim.p[3 * k + c]!;
      sim.q[3 * m + c] = sim.q[3 * k + c]!;
    }
    sim.ip[m] = sim.ip[k]!;
    sim.iq[m] = sim.iq[k]!;
    sim.l[m] = l;
    m++;
  }
  return m;
}

/** Weights of the origin in the simplex's tetrahedron (it lies inside), into sim.l: ratios of volumes about the fourth point. */
function originWeights3d(): void {
  const dx = sw[9]!, dy = sw[10]!, dz = sw[11]!;
  const ax = sw[0]! - dx, ay = sw[1]! - dy, az = sw[2]! - dz;
  const bx = sw[3]! - dx, by = sw[4]! - dy, bz = sw[5]! - dz;
  const cx = sw[6]! - dx, cy = sw[7]! - dy, cz = sw[8]! - dz;
  // Triple product p · (q × r).
  const det = (px: number, py: number, pz: number, qx: number, qy: number, qz: number, rx: number, ry: number, rz: number): number =>
    px * (qy * rz - qz * ry) + py * (qz * rx - qx * rz) + pz * (qx * ry - qy * rx);
  const vol = det(ax, ay, az, bx, by, bz, cx, cy, cz);
  sim.l[0] = det(-dx, -dy, -dz, bx, by, bz, cx, cy, cz) / vol;
  sim.l[1] = det(ax, ay, az, -dx, -dy, -dz, cx, cy, cz) / vol;
  sim.l[2] = det(ax, ay, az, bx, by, bz, -dx, -dy, -dz) / vol;
  sim.l[3] = 1 - sim.l[0]! - sim.l[1]! - sim.l[2]!;
}

/**
 * Feature of hull h holding the simplex's points on it: `count` distinct vertices, the first two
 * i0, i1. One: that vertex; two joined by an edge: the edge; else the face around i0 that faces
 * direction (dx, dy, dz) the most (working frame), or the nearly coplanar neighbour h's closest
 * point x lies over (faceOverPoint3d): the closest points lie on a face whose normal is that
 * direction.
 */
export function simplexFeature3d(h: Hull3D, i0: number, i1: number, count: number, dx: number, dy: number, dz: number, x: Float64Array): number {
  if (count === 1) return FEATURE_VERTEX_3D + i0;
  const s = h.shape;
  if (count === 2) {
    for (let e = 0; e < s.edgeCount; e++) {
      const a = s.edgeV0[e]!, b = s.edgeV1[e]!;
      if ((a === i0 && b === i1) || (a === i1 && b === i0)) return FEATURE_EDGE_3D + e;
    }
  }
  return FEATURE_FACE_3D + faceOverPoint3d(h, faceAroundVertex3d(h, i0, -dx, -dy, -dz), x[0]!, x[1]!, x[2]!);
}

/** Distinct values among the first n of `idx` (at most 3 counted): [count, first, second] into `distinct`. */
const distinct = new Int32Array(3);
function distinctVertices3d(idx: Int32Array, n: number): void {
  let c = 0;
  let a = -1;
  let b = -1;
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    if (i === a || i === b) continue;
    if (c === 0) a = i;
    else if (c === 1) b = i;
    c++;
  }
  distinct[0] = c;
  distinct[1] = a;
  distinct[2] = b;
}

/**
 * Closest points of hulls P and Q (working frame), which are apart; fills `hc`. `axis` (unit, from
 * P towards Q: the SAT's) names the faces when the points touch (closer than CORE_DISTANCE_3D ×
 * scale, where their join has no direction).
 */
export function closestHulls3d(P: Hull3D, Q: Hull3D, ax: number, ay: number, az: number, scale: number): void {
  const touch = CORE_DISTANCE_3D * scale * (CORE_DISTANCE_3D * scale);
  // v starts as the centres' join (a point of Q − P); the simplex is empty.
  v[0] = Q.pos[0]! - P.pos[0]!;
  v[1] = Q.pos[1]! - P.pos[1]!;
  v[2] = Q.pos[2]! - P.pos[2]!;
  let n = 0;
  for (let it = 0; it < GJK_MAX_ITERATIONS_3D; it++) {
    const vv = v[0]! * v[0]! + v[1]! * v[1]! + v[2]! * v[2]!;
    if (n > 0 && vv <= touch) break;
    // Support of Q − P against v: P's vertex farthest along v, Q's farthest against it.
    const ip = deepestVertex3d(P, -v[0]!, -v[1]!, -v[2]!);
    const iq = deepestVertex3d(Q, v[0]!, v[1]!, v[2]!);
    vertexW3d(P, ip, sim.p, 3 * n);
    vertexW3d(Q, iq, sim.q, 3 * n);
    // Converged: the new support point brings v no nearer than the tolerance; or it is in the simplex.
    const vw = v[0]! * (sim.q[3 * n]! - sim.p[3 * n]!) + v[1]! * (sim.q[3 * n + 1]! - sim.p[3 * n + 1]!) + v[2]! * (sim.q[3 * n + 2]! - sim.p[3 * n + 2]!);
    if (n > 0 && vv - vw <= GJK_TOLERANCE_3D * vv) break;
    let repeated = false;
    for (let k = 0; k < n; k++) if (sim.ip[k] === ip && sim.iq[k] === iq) repeated = true;
    if (repeated) break;
    copySimplex3d(before, sim);
    const m = n;
    sim.ip[n] = ip;
    sim.iq[n] = iq;
    n = solveSimplex3d(n + 1);
    if (n === 0) {
      // A tetrahedron holds the origin: the hulls touch (by rounding); its four points are the mix.
      n = 4;
      break;
    }
    let nx = 0, ny = 0, nz = 0;
    for (let k = 0; k < n; k++) {
      const l = sim.l[k]!;
      nx += l * (sim.q[3 * k]! - sim.p[3 * k]!);
      ny += l * (sim.q[3 * k + 1]! - sim.p[3 * k + 1]!);
      nz += l * (sim.q[3 * k + 2]! - sim.p[3 * k + 2]!);
    }
    // No nearer than before (rounding): the previous simplex is the answer.
    if (m > 0 && nx * nx + ny * ny + nz * nz >= vv) {
      copySimplex3d(sim, before);
      n = m;
      break;
    }
    v[0] = nx;
    v[1] = ny;
    v[2] = nz;
  }
  // Witness points: the simplex's weights applied to its P and Q vertices.
  let px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0;
  for (let k = 0; k < n; k++) {
    const l = sim.l[k]!;
    px += l * sim.p[3 * k]!;
    py += l * sim.p[3 * k + 1]!;
    pz += l * sim.p[3 * k + 2]!;
    qx += l * sim.q[3 * k]!;
    qy += l * sim.q[3 * k + 1]!;
    qz += l * sim.q[3 * k + 2]!;
  }
  const dx = qx - px, dy = qy - py, dz = qz - pz;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  hc.distance = dist;
  hc.p[0] = px;
  hc.p[1] = py;
  hc.p[2] = pz;
  hc.q[0] = qx;
  hc.q[1] = qy;
  hc.q[2] = qz;
  // The direction from P to Q: the join, or the SAT axis where the points touch.
  let ux = ax, uy = ay, uz = az;
  if (dist > CORE_DISTANCE_3D * scale) {
    ux = dx / dist;
    uy = dy / dist;
    uz = dz / dist;
  }
  distinctVertices3d(sim.ip, n);
  hc.featureP = simplexFeature3d(P, distinct[1]!, distinct[2]!, distinct[0]!, ux, uy, uz, hc.p);
  distinctVertices3d(sim.iq, n);
  hc.featureQ = simplexFeature3d(Q, distinct[1]!, distinct[2]!, distinct[0]!, -ux, -uy, -uz, hc.q);
  polishClosest3d(P, Q);
}

/** Two segments for polishClosest3d: x, y, z of each end, P's feature then Q's. */
const seg = new Float64Array(12);

/** End points of feature f of hull h (working frame) as a segment into seg[o..o+5]: a vertex twice, an edge's two ends. */
function featureSegment3d(h: Hull3D, f: number, o: number): void {
  const s = h.shape;
  const e = f - FEATURE_EDGE_3D;
  vertexW3d(h, f < FEATURE_EDGE_3D ? f : s.edgeV0[e]!, seg, o);
  vertexW3d(h, f < FEATURE_EDGE_3D ? f : s.edgeV1[e]!, seg, o + 3);
}

/**
 * The witness points again, in closed form from the named features: the simplex's barycentric mix
 * loses digits where the Minkowski difference's closest feature is a sliver (two edges nearly
 * parallel; f32 turned such a normal by 2e-3 rad, enough to miss the best axis by a hull's
 * size times that). A face on either side: the other point moved onto its plane (the normal is
 * the face's); else the closest points of the two features as segments (a vertex is one of length
 * zero).
 */
function polishClosest3d(P: Hull3D, Q: Hull3D): void {
  const fp = hc.featureP;
  const fq = hc.featureQ;
  if (fp >= FEATURE_FACE_3D || fq >= FEATURE_FACE_3D) {
    const onP = fp >= FEATURE_FACE_3D;
    planeW3d(onP ? P : Q, (onP ? fp : fq) - FEATURE_FACE_3D);
    const nx = planeW[0]!, ny = planeW[1]!, nz = planeW[2]!;
    const x = onP ? hc.q : hc.p;
    const d = nx * x[0]! + ny * x[1]! + nz * x[2]! - planeW[3]!;
    const y = onP ? hc.p : hc.q;
    y[0] = x[0]! - d * nx;
    y[1] = x[1]! - d * ny;
    y[2] = x[2]! - d * nz;
    hc.distance = Math.max(d, 0);
    return;
  }
  featureSegment3d(P, fp, 0);
  featureSegment3d(Q, fq, 6);
  closestSegments3d(seg[0]!, seg[1]!, seg[2]!, seg[3]!, seg[4]!, seg[5]!, seg[6]!, seg[7]!, seg[8]!, seg[9]!, seg[10]!, seg[11]!);
  hc.p.set(cp.subarray(2, 5));
  hc.q.set(cp.subarray(5, 8));
  hc.distance = Math.hypot(cp[5]! - cp[2]!, cp[6]! - cp[3]!, cp[7]! - cp[4]!);
}

/**
 * The contact of closestHulls3d's result for hulls A (P) and B (Q) within the margin: one point
 * midway between the closest points, the distance as its separation, the normal along their join,
 * or along the axis (ax, ay, az), from A towards B, where they touch.
 */
export function closestContact3d(ax: number, ay: number, az: number, scale: number): void {
  const p = hc.p;
  const q = hc.q;
  lm.kind = CONTACT_KIND_3D.closest;
  setJoinNormal3d(q[0]! - p[0]!, q[1]! - p[1]!, q[2]! - p[2]!, hc.distance, ax, ay, az, scale);
  pushPoint3d(0.5 * (p[0]! + q[0]!), 0.5 * (p[1]! + q[1]!), 0.5 * (p[2]! + q[2]!), hc.distance, makeId3d(hc.featureP, hc.featureQ));
}
