// Separating-axis queries of two hulls (mirror of shaders/sat3d.wgsl, function for function).
//
//   queryFaceDirections3d: the face normals of one hull against the vertices of the other. The
//     face plane is moved into the other hull's shape frame, so its vertices are read as stored.
//   queryEdgeDirections3d: the cross products of edge pairs that build a face of the Minkowski
//     difference (their Gauss-map arcs cross, Gregorius, GDC 2013). Work happens in B's shape
//     frame: A's edge (normals, vertices) is moved there once per A edge, B's data is read as
//     stored. Per A edge, one pass over B's faces records on which side of the plane of A's arc
//     each of B's face normals lies (two 64-bit masks); an edge of B is a candidate only when its
//     two faces lie on opposite sides, so the arc test costs a bit test for all other edges.

import { MAX_HULL_FACES, PARALLEL_EDGE_SINE_3D } from '../constants3d.ts';
import { relativeTransform3d, type Hull3D } from './manifold3d.ts';

/** Face query result: separation, face (WGSL: `struct FaceQuery3D`). */
export const qf = new Float64Array(2);
/** Edge query result: separation, edge of A (-1: none), edge of B, axis xyz in the working frame. */
export const qe = new Float64Array(6);

const xf = new Float64Array(12);
/** Per face of B: n_f · (b × a) of the current A edge (the sign masks of the WGSL). */
const faceDot = new Float64Array(MAX_HULL_FACES);

/**
 * Largest separation over the face normals of hull R against the vertices of hull I; writes
 * qf = [separation, face]. Stops early once a face separates by more than `limit`.
 */
export function queryFaceDirections3d(R: Hull3D, I: Hull3D, limit: number): void {
  relativeTransform3d(R, I, xf); // R's frame -> I's frame
  const m0 = xf[0]!, m1 = xf[1]!, m2 = xf[2]!, m3 = xf[3]!, m4 = xf[4]!, m5 = xf[5]!;
  const m6 = xf[6]!, m7 = xf[7]!, m8 = xf[8]!, tx = xf[9]!, ty = xf[10]!, tz = xf[11]!;
  const rp = R.shape.planes;
  const iv = I.shape.vertices;
  const ic = I.shape.vertexCount;
  let best = -Infinity;
  let bestFace = 0;
  for (let f = 0, fc = R.shape.faceCount; f < fc; f++) {
    const x = rp[4 * f]!, y = rp[4 * f + 1]!, z = rp[4 * f + 2]!;
    const nx = m0 * x + m1 * y + m2 * z;
    const ny = m3 * x + m4 * y + m5 * z;
    const nz = m6 * x + m7 * y + m8 * z;
    const d = rp[4 * f + 3]! + (nx * tx + ny * ty + nz * tz);
    let lo = Infinity;
    for (let i = 0; i < ic; i++) {
      const v = nx * iv[3 * i]! + ny * iv[3 * i + 1]! + nz * iv[3 * i + 2]!;
      if (v < lo) lo = v;
    }
    const s = lo - d;
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
 * Largest separation over the edge–edge axes of hulls A and B, for edge pairs whose Gauss-map
 * arcs cross; writes qe (axis pointing away from A's centre, in the working frame). Stops early
 * once an axis separates by more than `limit`.
 */
export function queryEdgeDirections3d(A: Hull3D, B: Hull3D, limit: number): void {
  relativeTransform3d(A, B, xf); // A's frame -> B's frame
  const m0 = xf[0]!, m1 = xf[1]!, m2 = xf[2]!, m3 = xf[3]!, m4 = xf[4]!, m5 = xf[5]!;
  const m6 = xf[6]!, m7 = xf[7]!, m8 = xf[8]!, tx = xf[9]!, ty = xf[10]!, tz = xf[11]!;
  const sa = A.shape;
  const sb = B.shape;
  const av = sa.vertices;
  const ap = sa.planes;
  const bv = sb.vertices;
  const bp = sb.planes;
  const faceCountB = sb.faceCount;
  const edgeCountB = sb.edgeCount;
  const bF0 = sb.edgeF0;
  const bF1 = sb.edgeF1;
  let best = -Infinity;
  let bestA = -1;
  let bestB = -1;
  let ax = 0, ay = 0, az = 0;
  outer: for (let i = 0, ea = sa.edgeCount; i < ea; i++) {
    // A's edge in B's frame: its face normals a, b, its end points (p0, p1 relative to A's centre).
    const fa = 4 * sa.edgeF0[i]!;
    const fb = 4 * sa.edgeF1[i]!;
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
    // Which side of that plane each of B's face normals is on.
    for (let f = 0; f < faceCountB; f++) faceDot[f] = bp[4 * f]! * bax + bp[4 * f + 1]! * bay + bp[4 * f + 2]! * baz;
    const i0 = 3 * sa.edgeV0[i]!;
    const i1 = 3 * sa.edgeV1[i]!;
    const rx0 = m0 * av[i0]! + m1 * av[i0 + 1]! + m2 * av[i0 + 2]!;
    const ry0 = m3 * av[i0]! + m4 * av[i0 + 1]! + m5 * av[i0 + 2]!;
    const rz0 = m6 * av[i0]! + m7 * av[i0 + 1]! + m8 * av[i0 + 2]!;
    const e1x = m0 * av[i1]! + m1 * av[i1 + 1]! + m2 * av[i1 + 2]! - rx0;
    const e1y = m3 * av[i1]! + m4 * av[i1 + 1]! + m5 * av[i1 + 2]! - ry0;
    const e1z = m6 * av[i1]! + m7 * av[i1 + 1]! + m8 * av[i1 + 2]! - rz0;
    const px = rx0 + tx, py = ry0 + ty, pz = rz0 + tz;
    const l1 = e1x * e1x + e1y * e1y + e1z * e1z;
    for (let j = 0; j < edgeCountB; j++) {
      // c = -n(f0), d = -n(f1): c · (b × a) = -faceDot[f0]. The arcs cross where c and d lie
      // on opposite sides of A's arc plane, a and b on opposite sides of B's, and c, b on the
      // same hemisphere (sign tests, not products: f32 products of tiny dots underflow).
      const cba = -faceDot[bF0[j]!]!;
      const dba = -faceDot[bF1[j]!]!;
      if (!((cba < 0 && dba > 0) || (cba > 0 && dba < 0))) continue;
      // d × c = n(f1) × n(f0).
      const c0 = 4 * bF0[j]!;
      const c1 = 4 * bF1[j]!;
      const nax = bp[c0]!, nay = bp[c0 + 1]!, naz = bp[c0 + 2]!;
      const nbx = bp[c1]!, nby = bp[c1 + 1]!, nbz = bp[c1 + 2]!;
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
      if (nx * rx0 + ny * ry0 + nz * rz0 < 0) {
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
  // The axis back into the working frame.
  const r = B.rot;
  qe[0] = best;
  qe[1] = bestA;
  qe[2] = bestB;
  qe[3] = r[0]! * ax + r[1]! * ay + r[2]! * az;
  qe[4] = r[3]! * ax + r[4]! * ay + r[5]! * az;
  qe[5] = r[6]! * ax + r[7]! * ay + r[8]! * az;
}
