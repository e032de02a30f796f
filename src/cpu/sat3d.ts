// Separating-axis queries of two hulls (mirror of shaders/sat3d.wgsl, function for function).
//
//   queryFaceDirections3D: the face normals of one hull against the vertices of the other. The
//     face plane is moved into the other hull's shape frame, so its vertices are read as stored.
//   queryEdgeDirections3D: the cross products of edge pairs that build a face of the Minkowski
//     difference (their Gauss-map arcs cross, Gregorius, GDC 2013).
//
// Pruning (exact: the result is the one the full loops give wherever it is used). Every hull
// reaches at least its inradius ρ from its centre c in every direction, so along a unit axis n
// the other hull's lowest point is at most n · c − ρ. Hence
//   - face f of R (plane n · x = d in I's frame, I's centre at 0) separates by at most −d − ρ_I:
//     a face whose bound is below the separation of the face with the highest bound is skipped;
//   - an edge pair's axis n lies on A's edge arc (between its face normals) and −n on B's; it
//     separates by at most max over A's arc of n · (c_B − p_A) − ρ_B and by at most max over B's
//     arc of m · (c_A − q_B) − ρ_A (arcMax3D). The caller passes the threshold below which an edge
//     axis is never used (the best face separation less the edge hysteresis); edges whose bound
//     falls under it (less SAT_PRUNE_SLACK_3D) are skipped. For touching hulls that leaves the
//     edges that face the other hull, about a quarter on each side: a sixteenth of the pairs.
// Both hulls' surviving edges are listed first (the WGSL keeps B's with their face normals in
// private arrays, A's in a 128-bit mask, so each SIMD lane loops over its own survivors only);
// work happens in B's shape frame, A's edge moved there once per surviving A edge.
//
// Boxes (the one topology of src/box3d.ts): a face's separation against a box is its support
// −Σ h_k |n_k| rather than the minimum over 8 vertices, and two boxes take queryBoxEdges3D: the 9
// cross products of their axes (Gottschalk's OBB test), each oriented towards B, with the support
// edges read from the box topology.
//
// The loops over faces, vertices and edge pairs keep their vectors in locals (x, y, z): V8 holds
// those in registers, where the ops of ./vec3.ts store and reload each vector through scratch;
// they read the hull arrays the accessors read.

import { BOX_EDGE_BY_AXIS } from '../box3d.ts';
import {
  MAX_HULL_EDGES,
  MAX_HULL_FACES,
  PARALLEL_EDGE_SINE_3D,
  SAT_PRUNE_SLACK_3D,
  SHAPE_KIND_3D,
} from '../constants3d.ts';
import {
  emptyRigidTransform3D,
  hullVertex,
  relativeTransform3D,
  type Hull3D,
  type RigidTransform3D,
} from './manifold3d.ts';
import { mat3, vec3, type Mat3, type Vec3, type Vec3Like } from './vec3.ts';

/** Result of queryFaceDirections3D (WGSL: `struct FaceQuery3D`). */
export interface FaceQuery3D {
  separation: number;
  face: number;
}

export function emptyFaceQuery3D(): FaceQuery3D {
  return { separation: 0, face: 0 };
}

/** Result of the edge queries (WGSL: `struct EdgeQuery3D`). */
export interface EdgeQuery3D {
  separation: number;
  /** -1: no edge pair. */
  edgeA: number;
  edgeB: number;
  /** Working frame, pointing away from A's centre. */
  axis: Vec3;
}

export function emptyEdgeQuery3D(): EdgeQuery3D {
  return { separation: 0, edgeA: -1, edgeB: -1, axis: vec3.create() };
}

/** B's edges that survive the edge query's pruning, ascending (the WGSL lists them with their face normals). */
const candEdgeB = new Uint8Array(MAX_HULL_EDGES);
/** A's edges that survive it, ascending (the WGSL's 128-bit mask). */
const candEdgeA = new Uint8Array(MAX_HULL_EDGES);
/** R's faces that survive the face query's pruning, ascending (the WGSL's 64-bit face mask). */
const candFaces = new Uint8Array(MAX_HULL_FACES);

const xf = emptyRigidTransform3D();
const xfBA = emptyRigidTransform3D();
const n = vec3.create();
const u = vec3.create();
const v = vec3.create();
const r0 = vec3.create();
const e1 = vec3.create();
const e2 = vec3.create();
const axis = vec3.create();

/** The power of two scaling (x, y, z) to a largest component in [0.5, 1) (WGSL: frexp, ldexp). */
function unitScale3D(x: number, y: number, z: number): number {
  const m = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  return m > 0 ? 2 ** -(Math.floor(Math.log2(m)) + 1) : 1;
}

/**
 * The unit axis d1 × d2 of two edge directions, turned so that axis · toward >= 0, into `dst`;
 * false (WGSL: w = 0) when the edges are parallel, |d1 × d2| < PARALLEL_EDGE_SINE_3D |d1| |d2|
 * (too short to normalise in f32; parallel edges are covered by the face axes). Shared by the
 * edge–edge axes here and the hull edge × capsule segment axes of round3d.ts. Both directions
 * are first scaled by powers of two to order 1 (exact): the WGSL must, as the test's |d1|² |d2|²
 * falls below f32's normal range at the smallest edges; in f64 nothing changes.
 */
export function edgeAxis3D(e1: Vec3Like, e2: Vec3Like, toward: Vec3Like, dst: Vec3): boolean {
  const k1 = unitScale3D(e1[0], e1[1], e1[2]);
  const k2 = unitScale3D(e2[0], e2[1], e2[2]);
  const d1x = e1[0] * k1,
    d1y = e1[1] * k1,
    d1z = e1[2] * k1;
  const d2x = e2[0] * k2,
    d2y = e2[1] * k2,
    d2z = e2[2] * k2;
  const nx = d1y * d2z - d1z * d2y;
  const ny = d1z * d2x - d1x * d2z;
  const nz = d1x * d2y - d1y * d2x;
  const l2 = nx * nx + ny * ny + nz * nz;
  if (
    l2 <
    PARALLEL_EDGE_SINE_3D *
      PARALLEL_EDGE_SINE_3D *
      ((d1x * d1x + d1y * d1y + d1z * d1z) * (d2x * d2x + d2y * d2y + d2z * d2z))
  )
    return false;
  const inv = 1 / Math.sqrt(l2);
  const sg = nx * inv * toward[0] + ny * inv * toward[1] + nz * inv * toward[2] < 0 ? -inv : inv;
  dst[0] = nx * sg;
  dst[1] = ny * sg;
  dst[2] = nz * sg;
  return true;
}

/**
 * Largest value of m · w over unit m on the shorter great arc from unit u to unit v: the
 * projection of w on the arc's plane where its direction lies on the arc, else the better end.
 */
export function arcMax3D(
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
  wx: number,
  wy: number,
  wz: number,
): number {
  let best = Math.max(ux * wx + uy * wy + uz * wz, vx * wx + vy * wy + vz * wz);
  const kx = uy * vz - uz * vy;
  const ky = uz * vx - ux * vz;
  const kz = ux * vy - uy * vx;
  const kk = kx * kx + ky * ky + kz * kz;
  if (kk > 0) {
    const h = (wx * kx + wy * ky + wz * kz) / kk;
    const px = wx - h * kx,
      py = wy - h * ky,
      pz = wz - h * kz;
    // p is on the arc when it lies on u's and v's inner sides: (u × p) · k >= 0 and (p × v) · k >= 0.
    const a = (uy * pz - uz * py) * kx + (uz * px - ux * pz) * ky + (ux * py - uy * px) * kz;
    const b = (py * vz - pz * vy) * kx + (pz * vx - px * vz) * ky + (px * vy - py * vx) * kz;
    if (a >= 0 && b >= 0) best = Math.max(best, Math.sqrt(px * px + py * py + pz * pz));
  }
  return best;
}

/** Separation of I's vertices from face f of R, the plane moved into I's frame by xf. */
export function faceSeparation3D(R: Hull3D, f: number, xf: RigidTransform3D, I: Hull3D): number {
  const m = xf.rot;
  const t = xf.pos;
  const rp = R.shape.planes;
  const x = rp[4 * f],
    y = rp[4 * f + 1],
    z = rp[4 * f + 2];
  const nx = m[0] * x + m[1] * y + m[2] * z;
  const ny = m[3] * x + m[4] * y + m[5] * z;
  const nz = m[6] * x + m[7] * y + m[8] * z;
  const d = rp[4 * f + 3] + (nx * t[0] + ny * t[1] + nz * t[2]);
  const iv = I.shape.vertices;
  if (I.shape.kind === SHAPE_KIND_3D.box) {
    // A box's lowest point along n: its support −Σ h_k |n_k| (h = vertex 7).
    return -(iv[21] * Math.abs(nx) + iv[22] * Math.abs(ny) + iv[23] * Math.abs(nz)) - d;
  }
  let lo = Infinity;
  for (let i = 0, c = I.shape.vertexCount; i < c; i++) {
    const v = nx * iv[3 * i] + ny * iv[3 * i + 1] + nz * iv[3 * i + 2];
    if (v < lo) lo = v;
  }
  return lo - d;
}

/**
 * Largest separation over the face normals of hull R against the vertices of hull I into `out`.
 * A result above `limit` only says the hulls are apart by more than it. `scale`: the pair's
 * length scale (for the pruning slack).
 */
export function queryFaceDirections3D(
  R: Hull3D,
  I: Hull3D,
  limit: number,
  scale: number,
  out: FaceQuery3D,
): FaceQuery3D {
  relativeTransform3D(R, I, xf); // R's frame -> I's frame
  const m = xf.rot;
  const m0 = m[0],
    m1 = m[1],
    m2 = m[2],
    m3 = m[3],
    m4 = m[4],
    m5 = m[5],
    m6 = m[6],
    m7 = m[7],
    m8 = m[8];
  const tx = xf.pos[0],
    ty = xf.pos[1],
    tz = xf.pos[2];
  const rp = R.shape.planes;
  const fc = R.shape.faceCount;
  const rho = I.shape.inradius;
  // Pass 1: the face with the highest bound −d − ρ (d: the plane's offset in I's frame), and its separation.
  let top = 0;
  let topBound = -Infinity;
  for (let f = 0; f < fc; f++) {
    const x = rp[4 * f],
      y = rp[4 * f + 1],
      z = rp[4 * f + 2];
    const d =
      rp[4 * f + 3] +
      ((m0 * x + m1 * y + m2 * z) * tx +
        (m3 * x + m4 * y + m5 * z) * ty +
        (m6 * x + m7 * y + m8 * z) * tz);
    const bound = -d - rho;
    if (bound > topBound) {
      topBound = bound;
      top = f;
    }
  }
  const floor = faceSeparation3D(R, top, xf, I);
  out.separation = floor;
  out.face = top;
  if (floor > limit) return out;
  // Pass 2: the faces whose bound reaches that separation (less the slack: the bound assumes a
  // unit normal, the f32 rotation is unit to ~1e-7), listed (the WGSL's 64-bit face mask).
  const cut = floor - SAT_PRUNE_SLACK_3D * scale;
  let nf = 0;
  for (let f = 0; f < fc; f++) {
    const x = rp[4 * f],
      y = rp[4 * f + 1],
      z = rp[4 * f + 2];
    const d =
      rp[4 * f + 3] +
      ((m0 * x + m1 * y + m2 * z) * tx +
        (m3 * x + m4 * y + m5 * z) * ty +
        (m6 * x + m7 * y + m8 * z) * tz);
    if (-d - rho >= cut) candFaces[nf++] = f;
  }
  // Pass 3, in face order: their separations.
  out.separation = -Infinity;
  out.face = 0;
  for (let k = 0; k < nf; k++) {
    const f = candFaces[k];
    const s = faceSeparation3D(R, f, xf, I);
    if (s > out.separation) {
      out.separation = s;
      out.face = f;
      if (s > limit) break;
    }
  }
  return out;
}

/**
 * Largest separation over the edge–edge axes of hulls A and B, for edge pairs whose Gauss-map
 * arcs cross, into `out` (axis pointing away from A's centre, in the working frame). Edge pairs
 * that cannot separate by `threshold` are skipped (their result is never used); a result above
 * `limit` only says the hulls are apart by more than it.
 */
export function queryEdgeDirections3D(
  A: Hull3D,
  B: Hull3D,
  limit: number,
  threshold: number,
  scale: number,
  out: EdgeQuery3D,
): EdgeQuery3D {
  relativeTransform3D(A, B, xf); // A's frame -> B's frame
  relativeTransform3D(B, A, xfBA); // B's frame -> A's frame
  const cut = threshold - SAT_PRUNE_SLACK_3D * scale;
  // Both hulls' surviving edges listed first (the WGSL keeps B's normals in private arrays and
  // loops over each lane's own surviving A edges).
  const nb = pruneEdgesB3D(A, B, xf.pos, cut);
  const na = nb > 0 ? pruneEdgesA3D(A, B, xfBA.pos, cut) : 0;
  const m = xf.rot;
  const m0 = m[0],
    m1 = m[1],
    m2 = m[2],
    m3 = m[3],
    m4 = m[4],
    m5 = m[5],
    m6 = m[6],
    m7 = m[7],
    m8 = m[8];
  const sa = A.shape;
  const av = sa.vertices;
  const ap = sa.planes;
  const sb = B.shape;
  const bp = sb.planes;
  let best = -Infinity;
  let bestA = -1;
  let bestB = -1;
  vec3.set(0, 0, 0, axis);
  outer: for (let t = 0; t < na; t++) {
    const i = candEdgeA[t];
    const fa = 4 * sa.edgeF0[i];
    const fb = 4 * sa.edgeF1[i];
    const i0 = 3 * sa.edgeV0[i];
    const i1 = 3 * sa.edgeV1[i];
    // A's edge in B's frame: its face normals u, v, its end points relative to A's centre.
    const ux = m0 * ap[fa] + m1 * ap[fa + 1] + m2 * ap[fa + 2];
    const uy = m3 * ap[fa] + m4 * ap[fa + 1] + m5 * ap[fa + 2];
    const uz = m6 * ap[fa] + m7 * ap[fa + 1] + m8 * ap[fa + 2];
    const vx = m0 * ap[fb] + m1 * ap[fb + 1] + m2 * ap[fb + 2];
    const vy = m3 * ap[fb] + m4 * ap[fb + 1] + m5 * ap[fb + 2];
    const vz = m6 * ap[fb] + m7 * ap[fb + 1] + m8 * ap[fb + 2];
    // b × a: the normal of the plane of A's arc.
    const bax = vy * uz - vz * uy;
    const bay = vz * ux - vx * uz;
    const baz = vx * uy - vy * ux;
    const rx0 = m0 * av[i0] + m1 * av[i0 + 1] + m2 * av[i0 + 2];
    const ry0 = m3 * av[i0] + m4 * av[i0 + 1] + m5 * av[i0 + 2];
    const rz0 = m6 * av[i0] + m7 * av[i0 + 1] + m8 * av[i0 + 2];
    const e1x = m0 * av[i1] + m1 * av[i1 + 1] + m2 * av[i1 + 2] - rx0;
    const e1y = m3 * av[i1] + m4 * av[i1 + 1] + m5 * av[i1 + 2] - ry0;
    const e1z = m6 * av[i1] + m7 * av[i1 + 1] + m8 * av[i1 + 2] - rz0;
    const px = rx0 + xf.pos[0],
      py = ry0 + xf.pos[1],
      pz = rz0 + xf.pos[2];
    vec3.set(e1x, e1y, e1z, e1);
    vec3.set(rx0, ry0, rz0, r0);
    for (let k = 0; k < nb; k++) {
      const j = candEdgeB[k];
      const c0 = 4 * sb.edgeF0[j];
      const c1 = 4 * sb.edgeF1[j];
      if (!arcsCross3D(ux, uy, uz, vx, vy, vz, bax, bay, baz, bp, c0, c1)) continue;
      const s = edgePairSeparation3D(B, j, e1, r0, px, py, pz, n);
      if (s > best) {
        best = s;
        bestA = i;
        bestB = j;
        vec3.copy(n, axis);
        if (s > limit) break outer;
      }
    }
  }
  // The axis back into the working frame.
  return setEdgeQuery3D(best, bestA, bestB, B.rot, axis, out);
}

/** Lists in candEdgeB B's edges that can face A (c_A: A's centre in B's frame); returns how many. */
function pruneEdgesB3D(A: Hull3D, B: Hull3D, cA: Vec3Like, cut: number): number {
  return pruneEdges3D(B, A.shape.inradius, cA, cut, candEdgeB);
}

/**
 * Lists in candEdgeA A's edges that can face B (c_B: B's centre in A's frame); returns how many.
 * (The WGSL keeps A's as a bit mask, B's as a list; the host lists both.)
 */
function pruneEdgesA3D(A: Hull3D, B: Hull3D, cB: Vec3Like, cut: number): number {
  return pruneEdges3D(A, B.shape.inradius, cB, cut, candEdgeA);
}

/**
 * Lists in `out` the edges of H that can face the other hull (inradius ρ, centre c in H's frame):
 * those whose bound, max over the edge's arc of n · (c − p) − ρ, reaches `cut`. Returns how many.
 */
function pruneEdges3D(H: Hull3D, rho: number, c: Vec3Like, cut: number, out: Uint8Array): number {
  const sh = H.shape;
  const hv = sh.vertices;
  const hp = sh.planes;
  const cx = c[0],
    cy = c[1],
    cz = c[2];
  let count = 0;
  for (let k = 0, edges = sh.edgeCount; k < edges; k++) {
    const f0 = 4 * sh.edgeF0[k];
    const f1 = 4 * sh.edgeF1[k];
    const p = 3 * sh.edgeV0[k];
    const bound =
      arcMax3D(
        hp[f0],
        hp[f0 + 1],
        hp[f0 + 2],
        hp[f1],
        hp[f1 + 1],
        hp[f1 + 2],
        cx - hv[p],
        cy - hv[p + 1],
        cz - hv[p + 2],
      ) - rho;
    if (bound >= cut) out[count++] = k;
  }
  return count;
}

/**
 * Whether the Gauss-map arc of A's edge (face normals u, v; ba = v × u, its plane's normal)
 * crosses that of B's edge, whose face normals n(f0), n(f1) are at c0, c1 of B's planes (WGSL:
 * the two normals). With c = -n(f0), d = -n(f1): c and d lie on opposite sides of A's arc plane,
 * a = u and b = v on opposite sides of B's, and c, b on the same hemisphere (sign tests, not
 * products: f32 products of tiny dots underflow).
 */
function arcsCross3D(
  ux: number,
  uy: number,
  uz: number,
  vx: number,
  vy: number,
  vz: number,
  bax: number,
  bay: number,
  baz: number,
  bp: Float64Array,
  c0: number,
  c1: number,
): boolean {
  const nax = bp[c0],
    nay = bp[c0 + 1],
    naz = bp[c0 + 2];
  const nbx = bp[c1],
    nby = bp[c1 + 1],
    nbz = bp[c1 + 2];
  const cba = -(nax * bax + nay * bay + naz * baz);
  const dba = -(nbx * bax + nby * bay + nbz * baz);
  if (!((cba < 0 && dba > 0) || (cba > 0 && dba < 0))) return false;
  // d × c = n(f1) × n(f0).
  const dcx = nby * naz - nbz * nay;
  const dcy = nbz * nax - nbx * naz;
  const dcz = nbx * nay - nby * nax;
  const adc = ux * dcx + uy * dcy + uz * dcz;
  const bdc = vx * dcx + vy * dcy + vz * dcz;
  if (!((adc < 0 && bdc > 0) || (adc > 0 && bdc < 0))) return false;
  return (cba < 0 && bdc < 0) || (cba > 0 && bdc > 0);
}

/**
 * The separation along the axis of A's edge (direction e1, start r0 relative to A's centre, p in
 * B's frame) and B's edge j, whose arcs cross (a face of the Minkowski difference): axis e1 × e2
 * pointing away from A's centre into `n`; -Infinity (never a best) when the edges are parallel.
 */
function edgePairSeparation3D(
  B: Hull3D,
  j: number,
  e1: Vec3Like,
  r0: Vec3Like,
  px: number,
  py: number,
  pz: number,
  n: Vec3,
): number {
  const bv = B.shape.vertices;
  const j0 = 3 * B.shape.edgeV0[j];
  const j1 = 3 * B.shape.edgeV1[j];
  const qx = bv[j0],
    qy = bv[j0 + 1],
    qz = bv[j0 + 2];
  if (!edgeAxis3D(e1, vec3.set(bv[j1] - qx, bv[j1 + 1] - qy, bv[j1 + 2] - qz, e2), r0, n))
    return -Infinity;
  return n[0] * (qx - px) + n[1] * (qy - py) + n[2] * (qz - pz);
}

/** Writes an edge query result with its axis turned by rot (WGSL: `EdgeQuery3D(best, edgeA, edgeB, rot * axis)`). */
function setEdgeQuery3D(
  best: number,
  edgeA: number,
  edgeB: number,
  rot: Mat3,
  a: Vec3Like,
  out: EdgeQuery3D,
): EdgeQuery3D {
  out.separation = best;
  out.edgeA = edgeA;
  out.edgeB = edgeB;
  mat3.mulVec(rot, a, out.axis);
  return out;
}

/** Box topology: the edge along axis a whose other coordinates have the signs of vertex mask m. */
export function boxEdgeByAxis3D(a: number, m: number): number {
  return BOX_EDGE_BY_AXIS[8 * a + m];
}

/**
 * The edge–edge axes of two boxes: the 9 cross products of A's and B's axes (skipping nearly
 * parallel ones as the general query does), each oriented towards B's centre, whose separation is
 * |L · t| − r_A − r_B; writes `out` like queryEdgeDirections3D, the support edges of A along the
 * axis and of B against it read from the box topology. A result above `limit` only says the
 * boxes are apart by more than it.
 */
export function queryBoxEdges3D(
  A: Hull3D,
  B: Hull3D,
  limit: number,
  out: EdgeQuery3D,
): EdgeQuery3D {
  const m = relativeTransform3D(B, A, xfBA).rot; // B's frame -> A's frame
  // The half extents: vertex 7 of a box.
  const ha = hullVertex(A, 7, u);
  const hb = hullVertex(B, 7, v);
  const hax = ha[0],
    hay = ha[1],
    haz = ha[2];
  const hbx = hb[0],
    hby = hb[1],
    hbz = hb[2];
  const tx = xfBA.pos[0],
    ty = xfBA.pos[1],
    tz = xfBA.pos[2];
  let best = -Infinity;
  let bestA = -1;
  let bestB = -1;
  vec3.set(0, 0, 0, axis);
  // The 9 pairs of axes, A's axis a the outer: one loop, as the WGSL's.
  for (let k = 0; k < 9; k++) {
    const a = Math.floor(k / 3);
    const b = k % 3;
    // B's axis b in A's frame (column b), and L = e_a × it.
    const ex = m[b],
      ey = m[3 + b],
      ez = m[6 + b];
    let nx = a === 0 ? 0 : a === 1 ? ez : -ey;
    let ny = a === 0 ? -ez : a === 1 ? 0 : ex;
    let nz = a === 0 ? ey : a === 1 ? -ex : 0;
    const l2 = nx * nx + ny * ny + nz * nz;
    if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * (ex * ex + ey * ey + ez * ez))
      continue;
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
    const bx = m[0] * nx + m[3] * ny + m[6] * nz;
    const by = m[1] * nx + m[4] * ny + m[7] * nz;
    const bz = m[2] * nx + m[5] * ny + m[8] * nz;
    const s =
      nx * tx +
      ny * ty +
      nz * tz -
      (hax * Math.abs(nx) + hay * Math.abs(ny) + haz * Math.abs(nz)) -
      (hbx * Math.abs(bx) + hby * Math.abs(by) + hbz * Math.abs(bz));
    if (s > best) {
      best = s;
      // A's support edge along n: along axis a, the other coordinates on n's side; B's against n.
      const maskA =
        (a !== 0 && nx > 0 ? 1 : 0) | (a !== 1 && ny > 0 ? 2 : 0) | (a !== 2 && nz > 0 ? 4 : 0);
      const maskB =
        (b !== 0 && bx < 0 ? 1 : 0) | (b !== 1 && by < 0 ? 2 : 0) | (b !== 2 && bz < 0 ? 4 : 0);
      bestA = boxEdgeByAxis3D(a, maskA);
      bestB = boxEdgeByAxis3D(b, maskB);
      vec3.set(nx, ny, nz, axis);
      if (s > limit) break;
    }
  }
  // The axis back into the working frame.
  return setEdgeQuery3D(best, bestA, bestB, A.rot, axis, out);
}
