// Separating-axis queries of two hulls (mirror of shaders/sat3d.wgsl, function for function).
//
//   queryFaceDirections3d: the face normals of one hull against the vertices of the other. The
//     face plane is moved into the other hull's shape frame, so its vertices are read as stored.
//   queryEdgeDirections3d: the cross products of edge pairs that build a face of the Minkowski
//     difference (their Gauss-map arcs cross, Gregorius, GDC 2013).
//
// Pruning (exact: the result is the one the full loops give wherever it is used). Every hull
// reaches at least its inradius ρ from its centre c in every direction, so along a unit axis n
// the other hull's lowest point is at most n · c − ρ. Hence
//   - face f of R (plane n · x = d in I's frame, I's centre at 0) separates by at most −d − ρ_I:
//     a face whose bound is below the separation of the face with the highest bound is skipped;
//   - an edge pair's axis n lies on A's edge arc (between its face normals) and −n on B's; it
//     separates by at most max over A's arc of n · (c_B − p_A) − ρ_B and by at most max over B's
//     arc of m · (c_A − q_B) − ρ_A (arcMax3d). The caller passes the threshold below which an edge
//     axis is never used (the best face separation less the edge hysteresis); edges whose bound
//     falls under it (less SAT_PRUNE_SLACK_3D) are skipped. For touching hulls that leaves the
//     edges that face the other hull, about a quarter on each side: a sixteenth of the pairs.
// Both hulls' surviving edges are listed first (the WGSL keeps B's with their face normals in
// private arrays, A's in a 128-bit mask, so each SIMD lane loops over its own survivors only);
// work happens in B's shape frame, A's edge moved there once per surviving A edge.
//
// Boxes (the one topology of src/box3d.ts): a face's separation against a box is its support
// −Σ h_k |n_k| rather than the minimum over 8 vertices, and two boxes take queryBoxEdges3d: the 9
// cross products of their axes (Gottschalk's OBB test), each oriented towards B, with the support
// edges read from the box topology.

import { BOX_EDGE_BY_AXIS } from '../box3d.ts';
import { MAX_HULL_EDGES, MAX_HULL_FACES, PARALLEL_EDGE_SINE_3D, SAT_PRUNE_SLACK_3D, SHAPE_KIND_3D } from '../constants3d.ts';
import { relativeTransform3d, type Hull3D } from './manifold3d.ts';

/** Face query result: separation, face (WGSL: `struct FaceQuery3D`). */
export const qf = new Float64Array(2);
/** Edge query result: separation, edge of A (-1: none), edge of B, axis xyz in the working frame. */
export const qe = new Float64Array(6);

const xf = new Float64Array(12);
const xfBA = new Float64Array(12);
/** B's and A's edges that survive the pruning, ascending (the WGSL's candidate lists). */
const candidatesB = new Uint8Array(MAX_HULL_EDGES);
const candidatesA = new Uint8Array(MAX_HULL_EDGES);
/** R's faces that survive the face query's pruning, ascending (the WGSL's face mask). */
const candidateFaces = new Uint8Array(MAX_HULL_FACES);

/** The axis of the last edgeAxis3d call (WGSL: its result's xyz). */
export const edgeAxis = new Float64Array(3);

/** The power of two scaling (x, y, z) to a largest component in [0.5, 1) (WGSL: frexp, ldexp). */
function unitScale3d(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  return m > 0 ? 2 ** -(Math.floor(Math.log2(m)) + 1) : 1;
}

/**
 * The unit axis d1 × d2 of two edge directions, turned so that axis · toward >= 0, into
 * `edgeAxis`; false (WGSL: w = 0) when the edges are parallel, |d1 × d2| < PARALLEL_EDGE_SINE_3D
 * |d1| |d2| (too short to normalise in f32; parallel edges are covered by the face axes). Shared
 * by the edge–edge axes here and the hull edge × capsule segment axes of round3d.ts. Both
 * directions are first scaled by powers of two to order 1 (exact): the WGSL must, as the test's
 * |d1|² |d2|² falls below f32's normal range at the smallest edges; in f64 nothing changes.
 */
export function edgeAxis3d(
  e1x: number, e1y: number, e1z: number, e2x: number, e2y: number, e2z: number, tx: number, ty: number, tz: number,
): boolean {
  const k1 = unitScale3d(e1x, e1y, e1z);
  const k2 = unitScale3d(e2x, e2y, e2z);
  const d1x = e1x * k1, d1y = e1y * k1, d1z = e1z * k1;
  const d2x = e2x * k2, d2y = e2y * k2, d2z = e2z * k2;
  const nx = d1y * d2z - d1z * d2y;
  const ny = d1z * d2x - d1x * d2z;
  const nz = d1x * d2y - d1y * d2x;
  const l2 = nx * nx + ny * ny + nz * nz;
  if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * ((d1x * d1x + d1y * d1y + d1z * d1z) * (d2x * d2x + d2y * d2y + d2z * d2z))) return false;
  const inv = 1 / Math.sqrt(l2);
  const sg = (nx * inv) * tx + (ny * inv) * ty + (nz * inv) * tz < 0 ? -inv : inv;
  edgeAxis[0] = nx * sg;
  edgeAxis[1] = ny * sg;
  edgeAxis[2] = nz * sg;
  return true;
}

/**
 * Largest value of m · w over unit m on the shorter great arc from unit u to unit v: the
 * projection of w on the arc's plane where its direction lies on the arc, else the better end.
 */
export function arcMax3d(
  ux: number, uy: number, uz: number, vx: number, vy: number, vz: number, wx: number, wy: number, wz: number,
): number {
  let best = Math.max(ux * wx + uy * wy + uz * wz, vx * wx + vy * wy + vz * wz);
  const kx = uy * vz - uz * vy;
  const ky = uz * vx - ux * vz;
  const kz = ux * vy - uy * vx;
  const kk = kx * kx + ky * ky + kz * kz;
  if (kk > 0) {
    const h = (wx * kx + wy * ky + wz * kz) / kk;
    const px = wx - h * kx, py = wy - h * ky, pz = wz - h * kz;
    // p is on the arc when it lies on u's and v's inner sides: (u × p) · k >= 0 and (p × v) · k >= 0.
    const a = (uy * pz - uz * py) * kx + (uz * px - ux * pz) * ky + (ux * py - uy * px) * kz;
    const b = (py * vz - pz * vy) * kx + (pz * vx - px * vz) * ky + (px * vy - py * vx) * kz;
    if (a >= 0 && b >= 0) best = Math.max(best, Math.sqrt(px * px + py * py + pz * pz));
  }
  return best;
}

/**
 * Largest separation over the face normals of hull R against the vertices of hull I; writes
 * qf = [separation, face]. A result above `limit` only says the hulls are apart by more than it.
 * `scale`: the pair's length scale (for the pruning slack).
 */
export function queryFaceDirections3d(R: Hull3D, I: Hull3D, limit: number, scale: number): void {
  relativeTransform3d(R, I, xf); // R's frame -> I's frame
  const m0 = xf[0]!, m1 = xf[1]!, m2 = xf[2]!, m3 = xf[3]!, m4 = xf[4]!, m5 = xf[5]!;
  const m6 = xf[6]!, m7 = xf[7]!, m8 = xf[8]!, tx = xf[9]!, ty = xf[10]!, tz = xf[11]!;
  const rp = R.shape.planes;
  const iv = I.shape.vertices;
  const ic = I.shape.vertexCount;
  const fc = R.shape.faceCount;
  const rho = I.shape.inradius;
  // Pass 1: the face with the highest bound −d − ρ, and its separation.
  let top = 0;
  let topBound = -Infinity;
  for (let f = 0; f < fc; f++) {
    const x = rp[4 * f]!, y = rp[4 * f + 1]!, z = rp[4 * f + 2]!;
    const d = rp[4 * f + 3]! + ((m0 * x + m1 * y + m2 * z) * tx + (m3 * x + m4 * y + m5 * z) * ty + (m6 * x + m7 * y + m8 * z) * tz);
    const bound = -d - rho;
    if (bound > topBound) {
      topBound = bound;
      top = f;
    }
  }
  const floor = faceSeparation3d(rp, top, m0, m1, m2, m3, m4, m5, m6, m7, m8, tx, ty, tz, iv, ic, I);
  if (floor > limit) {
    qf[0] = floor;
    qf[1] = top;
    return;
  }
  // Pass 2: the faces whose bound reaches that separation (less the slack: the bound assumes a
  // unit normal, the f32 rotation is unit to ~1e-7), listed (the WGSL's 64-bit face mask).
  const cut = floor - SAT_PRUNE_SLACK_3D * scale;
  let nf = 0;
  for (let f = 0; f < fc; f++) {
    const x = rp[4 * f]!, y = rp[4 * f + 1]!, z = rp[4 * f + 2]!;
    const d = rp[4 * f + 3]! + ((m0 * x + m1 * y + m2 * z) * tx + (m3 * x + m4 * y + m5 * z) * ty + (m6 * x + m7 * y + m8 * z) * tz);
    if (-d - rho >= cut) candidateFaces[nf++] = f;
  }
  // Pass 3, in face order: their separations.
  let best = -Infinity;
  let bestFace = 0;
  for (let k = 0; k < nf; k++) {
    const f = candidateFaces[k]!;
    const s = faceSeparation3d(rp, f, m0, m1, m2, m3, m4, m5, m6, m7, m8, tx, ty, tz, iv, ic, I);
    if (s > best) {
      best = s;
      bestFace = f;
      if (s > limit) break;
    }
  }
  qf[0] = best;
  qf[1] = bestFace;
}

/** Separation of I's vertices (iv, ic) from face f of R (planes rp), the plane moved by (m, t). */
export function faceSeparation3d(
  rp: Float64Array, f: number,
  m0: number, m1: number, m2: number, m3: number, m4: number, m5: number, m6: number, m7: number, m8: number,
  tx: number, ty: number, tz: number, iv: Float64Array, ic: number, I: Hull3D,
): number {
  const x = rp[4 * f]!, y = rp[4 * f + 1]!, z = rp[4 * f + 2]!;
  const nx = m0 * x + m1 * y + m2 * z;
  const ny = m3 * x + m4 * y + m5 * z;
  const nz = m6 * x + m7 * y + m8 * z;
  const d = rp[4 * f + 3]! + (nx * tx + ny * ty + nz * tz);
  if (I.shape.kind === SHAPE_KIND_3D.box) {
    // A box's lowest point along n: its support −Σ h_k |n_k| (h = vertex 7).
    return -(iv[21]! * Math.abs(nx) + iv[22]! * Math.abs(ny) + iv[23]! * Math.abs(nz)) - d;
  }
  let lo = Infinity;
  for (let i = 0; i < ic; i++) {
    const v = nx * iv[3 * i]! + ny * iv[3 * i + 1]! + nz * iv[3 * i + 2]!;
    if (v < lo) lo = v;
  }
  return lo - d;
}

/**
 * Largest separation over the edge–edge axes of hulls A and B, for edge pairs whose Gauss-map
 * arcs cross; writes qe (axis pointing away from A's centre, in the working frame). Edge pairs
 * that cannot separate by `threshold` are skipped (their result is never used); a result above
 * `limit` only says the hulls are apart by more than it.
 */
export function queryEdgeDirections3d(A: Hull3D, B: Hull3D, limit: number, threshold: number, scale: number): void {
  relativeTransform3d(A, B, xf); // A's frame -> B's frame
  relativeTransform3d(B, A, xfBA); // B's frame -> A's frame
  const m0 = xf[0]!, m1 = xf[1]!, m2 = xf[2]!, m3 = xf[3]!, m4 = xf[4]!, m5 = xf[5]!;
  const m6 = xf[6]!, m7 = xf[7]!, m8 = xf[8]!, tx = xf[9]!, ty = xf[10]!, tz = xf[11]!;
  const sa = A.shape;
  const sb = B.shape;
  const av = sa.vertices;
  const ap = sa.planes;
  const bv = sb.vertices;
  const bp = sb.planes;
  const cut = threshold - SAT_PRUNE_SLACK_3D * scale;
  // B's edges that can face A: bound max over the arc of m · (c_A − q) − ρ_A, c_A = (tx, ty, tz).
  let nb = 0;
  for (let j = 0, eb = sb.edgeCount; j < eb; j++) {
    const c0 = 4 * sb.edgeF0[j]!;
    const c1 = 4 * sb.edgeF1[j]!;
    const q = 3 * sb.edgeV0[j]!;
    const bound = arcMax3d(bp[c0]!, bp[c0 + 1]!, bp[c0 + 2]!, bp[c1]!, bp[c1 + 1]!, bp[c1 + 2]!, tx - bv[q]!, ty - bv[q + 1]!, tz - bv[q + 2]!) - sa.inradius;
    if (bound >= cut) candidatesB[nb++] = j;
  }
  // A's edges that can face B: bound max over the arc of n · (c_B − p) − ρ_B, in A's frame.
  // Listed first, like B's (the WGSL keeps B's normals in private arrays and loops over each
  // lane's own surviving A edges).
  let na = 0;
  const cbx = xfBA[9]!, cby = xfBA[10]!, cbz = xfBA[11]!;
  for (let i = 0, ea = nb > 0 ? sa.edgeCount : 0; i < ea; i++) {
    const fa = 4 * sa.edgeF0[i]!;
    const fb = 4 * sa.edgeF1[i]!;
    const i0 = 3 * sa.edgeV0[i]!;
    const bound = arcMax3d(ap[fa]!, ap[fa + 1]!, ap[fa + 2]!, ap[fb]!, ap[fb + 1]!, ap[fb + 2]!, cbx - av[i0]!, cby - av[i0 + 1]!, cbz - av[i0 + 2]!) - sb.inradius;
    if (bound >= cut) candidatesA[na++] = i;
  }
  let best = -Infinity;
  let bestA = -1;
  let bestB = -1;
  let ax = 0, ay = 0, az = 0;
  outer: for (let t = 0; t < na; t++) {
    const i = candidatesA[t]!;
    const fa = 4 * sa.edgeF0[i]!;
    const fb = 4 * sa.edgeF1[i]!;
    const i0 = 3 * sa.edgeV0[i]!;
    const i1 = 3 * sa.edgeV1[i]!;
    // A's edge in B's frame: its face normals u, v, its end points relative to A's centre.
    const ux = m0 * ap[fa]! + m1 * ap[fa + 1]! + m2 * ap[fa + 2]!;
    const uy = m3 * ap[fa]! + m4 * ap[fa + 1]! + m5 * ap[fa + 2]!;
    const uz = m6 * ap[fa]! + m7 * ap[fa + 1]! + m8 * ap[fa + 2]!;
    const vx = m0 * ap[fb]! + m1 * ap[fb + 1]! + m2 * ap[fb + 2]!;
    const vy = m3 * ap[fb]! + m4 * ap[fb + 1]! + m5 * ap[fb + 2]!;
    const vz = m6 * ap[fb]! + m7 * ap[fb + 1]! + m8 * ap[fb + 2]!;
    // b × a: the normal of the plane of A's arc.
    const bax = vy * uz - vz * uy;
    const bay = vz * ux - vx * uz;
    const baz = vx * uy - vy * ux;
    const rx0 = m0 * av[i0]! + m1 * av[i0 + 1]! + m2 * av[i0 + 2]!;
    const ry0 = m3 * av[i0]! + m4 * av[i0 + 1]! + m5 * av[i0 + 2]!;
    const rz0 = m6 * av[i0]! + m7 * av[i0 + 1]! + m8 * av[i0 + 2]!;
    const e1x = m0 * av[i1]! + m1 * av[i1 + 1]! + m2 * av[i1 + 2]! - rx0;
    const e1y = m3 * av[i1]! + m4 * av[i1 + 1]! + m5 * av[i1 + 2]! - ry0;
    const e1z = m6 * av[i1]! + m7 * av[i1 + 1]! + m8 * av[i1 + 2]! - rz0;
    const px = rx0 + tx, py = ry0 + ty, pz = rz0 + tz;
    for (let k = 0; k < nb; k++) {
      const j = candidatesB[k]!;
      const c0 = 4 * sb.edgeF0[j]!;
      const c1 = 4 * sb.edgeF1[j]!;
      const nax = bp[c0]!, nay = bp[c0 + 1]!, naz = bp[c0 + 2]!;
      const nbx = bp[c1]!, nby = bp[c1 + 1]!, nbz = bp[c1 + 2]!;
      // c = -n(f0), d = -n(f1). The arcs cross where c and d lie on opposite sides of A's arc
      // plane, a and b on opposite sides of B's, and c, b on the same hemisphere (sign tests,
      // not products: f32 products of tiny dots underflow).
      const cba = -(nax * bax + nay * bay + naz * baz);
      const dba = -(nbx * bax + nby * bay + nbz * baz);
      if (!((cba < 0 && dba > 0) || (cba > 0 && dba < 0))) continue;
      // d × c = n(f1) × n(f0).
      const dcx = nby * naz - nbz * nay;
      const dcy = nbz * nax - nbx * naz;
      const dcz = nbx * nay - nby * nax;
      const adc = ux * dcx + uy * dcy + uz * dcz;
      const bdc = vx * dcx + vy * dcy + vz * dcz;
      if (!((adc < 0 && bdc > 0) || (adc > 0 && bdc < 0))) continue;
      if (!((cba < 0 && bdc < 0) || (cba > 0 && bdc > 0))) continue;
      // A face of the Minkowski difference: axis e1 × e2, pointing away from A's centre.
      const j0 = 3 * sb.edgeV0[j]!;
      const j1 = 3 * sb.edgeV1[j]!;
      const qx = bv[j0]!, qy = bv[j0 + 1]!, qz = bv[j0 + 2]!;
      const e2x = bv[j1]! - qx, e2y = bv[j1 + 1]! - qy, e2z = bv[j1 + 2]! - qz;
      if (!edgeAxis3d(e1x, e1y, e1z, e2x, e2y, e2z, rx0, ry0, rz0)) continue;
      const nx = edgeAxis[0]!, ny = edgeAxis[1]!, nz = edgeAxis[2]!;
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
  // The axis back into the working frame.
  setEdgeQuery3d(best, bestA, bestB, B.rot, ax, ay, az);
}

/**
 * The edge–edge axes of two boxes: the 9 cross products of A's and B's axes (skipping nearly
 * parallel ones as the general query does), each oriented towards B's centre, whose separation is
 * |L · t| − r_A − r_B; writes qe like queryEdgeDirections3d, the support edges of A along the
 * axis and of B against it read from the box topology. A result above `limit` only says the
 * boxes are apart by more than it.
 */
export function queryBoxEdges3d(A: Hull3D, B: Hull3D, limit: number): void {
  relativeTransform3d(B, A, xfBA); // B's frame -> A's frame
  const ha = A.shape.vertices;
  const hb = B.shape.vertices;
  const hax = ha[21]!, hay = ha[22]!, haz = ha[23]!;
  const hbx = hb[21]!, hby = hb[22]!, hbz = hb[23]!;
  const tx = xfBA[9]!, ty = xfBA[10]!, tz = xfBA[11]!;
  let best = -Infinity;
  let bestA = -1;
  let bestB = -1;
  let ax = 0, ay = 0, az = 0;
  outer: for (let a = 0; a < 3; a++) {
    for (let b = 0; b < 3; b++) {
      // B's axis b in A's frame (column b), and L = e_a × it.
      const ex = xfBA[b]!, ey = xfBA[3 + b]!, ez = xfBA[6 + b]!;
      let nx = a === 0 ? 0 : a === 1 ? ez : -ey;
      let ny = a === 0 ? -ez : a === 1 ? 0 : ex;
      let nz = a === 0 ? ey : a === 1 ? -ex : 0;
      const l2 = nx * nx + ny * ny + nz * nz;
      if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * (ex * ex + ey * ey + ez * ez)) continue;
      const inv = 1 / Math.sqrt(l2);
      nx *= inv;
      ny *= inv;
      nz *= inv;
      if (nx * tx + ny * ty + nz * tz < 0) {
        nx = -nx;
        ny = -ny;
        nz = -nz;
      }
      // n in B's frame.
      const bx = xfBA[0]! * nx + xfBA[3]! * ny + xfBA[6]! * nz;
      const by = xfBA[1]! * nx + xfBA[4]! * ny + xfBA[7]! * nz;
      const bz = xfBA[2]! * nx + xfBA[5]! * ny + xfBA[8]! * nz;
      const s = nx * tx + ny * ty + nz * tz - (hax * Math.abs(nx) + hay * Math.abs(ny) + haz * Math.abs(nz)) - (hbx * Math.abs(bx) + hby * Math.abs(by) + hbz * Math.abs(bz));
      if (s > best) {
        best = s;
        // A's support edge along n: along axis a, the other coordinates on n's side; B's against n.
        const maskA = (a !== 0 && nx > 0 ? 1 : 0) | (a !== 1 && ny > 0 ? 2 : 0) | (a !== 2 && nz > 0 ? 4 : 0);
        const maskB = (b !== 0 && bx < 0 ? 1 : 0) | (b !== 1 && by < 0 ? 2 : 0) | (b !== 2 && bz < 0 ? 4 : 0);
        bestA = BOX_EDGE_BY_AXIS[8 * a + maskA]!;
        bestB = BOX_EDGE_BY_AXIS[8 * b + maskB]!;
        ax = nx;
        ay = ny;
        az = nz;
        if (s > limit) break outer;
      }
    }
  }
  // The axis back into the working frame.
  setEdgeQuery3d(best, bestA, bestB, A.rot, ax, ay, az);
}

/** Writes the edge query result (WGSL: `EdgeQuery3D(best, edgeA, edgeB, rot * axis)`). */
function setEdgeQuery3d(best: number, edgeA: number, edgeB: number, r: Float64Array, ax: number, ay: number, az: number): void {
  qe[0] = best;
  qe[1] = edgeA;
  qe[2] = edgeB;
  qe[3] = r[0]! * ax + r[1]! * ay + r[2]! * az;
  qe[4] = r[3]! * ax + r[4]! * ay + r[5]! * az;
  qe[5] = r[6]! * ax + r[7]! * ay + r[8]! * az;
}
