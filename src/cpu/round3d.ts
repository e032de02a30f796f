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
import { closestSegments3d, cp } from './distance3d.ts';
import { coreFeature3d, edgeFeature3d, lm, makeId3d, pushPoint3d, setNormal3d, type Hull3D } from './manifold3d.ts';
import { edgeAxis, edgeAxis3d } from './sat3d.ts';

/** Closest point of a hull to a core: distance, hull point xyz, core point xyz, hull feature, core param. */
export const hc = new Float64Array(9);

/** The core end points of round shape R in the working frame: p xyz, q xyz (q = p for a sphere). */
export const coreEnds = new Float64Array(6);

/** Writes `coreEnds` from R's 1 or 2 core vertices placed by R's transform. */
export function roundCore3d(R: Hull3D): void {
  const rv = R.shape.vertices;
  const r = R.rot;
  const t = R.pos;
  const k = R.shape.vertexCount === 2 ? 3 : 0;
  coreEnds[0] = r[0]! * rv[0]! + r[1]! * rv[1]! + r[2]! * rv[2]! + t[0]!;
  coreEnds[1] = r[3]! * rv[0]! + r[4]! * rv[1]! + r[5]! * rv[2]! + t[1]!;
  coreEnds[2] = r[6]! * rv[0]! + r[7]! * rv[1]! + r[8]! * rv[2]! + t[2]!;
  coreEnds[3] = r[0]! * rv[k]! + r[1]! * rv[k + 1]! + r[2]! * rv[k + 2]! + t[0]!;
  coreEnds[4] = r[3]! * rv[k]! + r[4]! * rv[k + 1]! + r[5]! * rv[k + 2]! + t[1]!;
  coreEnds[5] = r[6]! * rv[k]! + r[7]! * rv[k + 1]! + r[8]! * rv[k + 2]! + t[2]!;
}

/** Per face of the hull in closestHullCore3d: planeGap3d of the core. */
const faceGap = new Float64Array(MAX_HULL_FACES);

/**
 * The distance from the core p–q to the plane n · x = d: the smaller end distance, or 0 when the
 * core touches or crosses the plane. No point of the plane is closer to the core.
 */
function planeGap3d(nx: number, ny: number, nz: number, nd: number, px: number, py: number, pz: number, qx: number, qy: number, qz: number): number {
  const sp = nx * px + ny * py + nz * pz - nd;
  const sq = nx * qx + ny * qy + nz * qz - nd;
  return sp * sq <= 0 ? 0 : Math.min(Math.abs(sp), Math.abs(sq));
}

/**
 * Exact closest points between hull H (own frame) and the segment p–q (a point when p = q), for a
 * core that lies outside H. Writes hc = [distance, hull point xyz, core point xyz, hull feature, s].
 */
export function closestHullCore3d(
  Hh: Hull3D,
  px: number, py: number, pz: number, qx: number, qy: number, qz: number,
  isSegment: boolean,
): void {
  const H = Hh.shape;
  let best = Infinity;
  const hv = H.vertices;
  const hp = H.planes;
  for (let f = 0, n = H.faceCount; f < n; f++) {
    faceGap[f] = planeGap3d(hp[4 * f]!, hp[4 * f + 1]!, hp[4 * f + 2]!, hp[4 * f + 3]!, px, py, pz, qx, qy, qz);
  }
  // Hull edges against the core. An edge lies in the planes of its two faces, so it is no closer
  // to the core than the core is to either plane: edges that cannot beat the best are skipped
  // (the answer is the same; 1.17× on sphere–hull16 pairs). The WGSL loop does not skip: see there.
  for (let e = 0, n = H.edgeCount; e < n; e++) {
    const gap = Math.max(faceGap[H.edgeF0[e]!]!, faceGap[H.edgeF1[e]!]!);
    if (gap * gap >= best) continue;
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
    // No end point is closer to the plane than its gap.
    const gap = faceGap[f]!;
    if (gap * gap >= best) continue;
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
 * margin; normal n(f). A clipped piece shorter than CORE_DISTANCE_3D × scale (an end at the
 * face's boundary) is one point, not the same point twice. Returns the number of points written.
 */
export function clipSegmentToFace3d(
  Hh: Hull3D, f: number,
  px: number, py: number, pz: number, qx: number, qy: number, qz: number,
  radius: number, margin: number, scale: number,
): number {
  const H = Hh.shape;
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
  const ends = (t1 - t0) * Math.hypot(qx - px, qy - py, qz - pz) > CORE_DISTANCE_3D * scale ? 2 : 1;
  let written = 0;
  for (let k = 0; k < ends; k++) {
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
    pushPoint3d(x - h * nx, y - h * ny, z - h * nz, s, makeId3d(fa, fb));
    written++;
  }
  return written;
}

/**
 * Hull H (the working frame's own shape) against a sphere or capsule R placed by its transform.
 * Writes the local manifold.
 */
export function collideHullRound3d(Hh: Hull3D, Rh: Hull3D, margin: number, scale: number): void {
  const H = Hh.shape;
  const R = Rh.shape;
  const isSegment = R.vertexCount === 2;
  const r = R.radius;
  const reach = r + margin;
  roundCore3d(Rh);
  const px = coreEnds[0]!, py = coreEnds[1]!, pz = coreEnds[2]!;
  const qx = coreEnds[3]!, qy = coreEnds[4]!, qz = coreEnds[5]!;
  const ux = qx - px, uy = qy - py, uz = qz - pz;
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
      if (!((au < 0 && bu > 0) || (au > 0 && bu < 0))) continue;
      const a = 3 * H.edgeV0[e]!;
      const b = 3 * H.edgeV1[e]!;
      const vx = hv[a]!, vy = hv[a + 1]!, vz = hv[a + 2]!;
      const dx = hv[b]! - vx, dy = hv[b + 1]! - vy, dz = hv[b + 2]! - vz;
      if (!edgeAxis3d(dx, dy, dz, ux, uy, uz, vx, vy, vz)) continue;
      const nx = edgeAxis[0]!, ny = edgeAxis[1]!, nz = edgeAxis[2]!;
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
    closestHullCore3d(Hh, px, py, pz, qx, qy, qz, isSegment);
    const dist = hc[0]!;
    if (dist > reach) return;
    const fnx = hp[4 * faceF]!, fny = hp[4 * faceF + 1]!, fnz = hp[4 * faceF + 2]!;
    // Face F's axis realises the distance (within the hysteresis): the capsule is closest to F,
    // at its interior or its boundary. Clip it to the face; each end within the margin is a point
    // (a capsule lying on F gets two). An edge axis does not veto it: a capsule lying across F's
    // edges ties F's axis with those edges' (both realise the distance), and letting the edge win
    // the tie made it flicker between 2 points and 1 as it wobbled.
    if (isSegment && sepF >= dist - EDGE_HYSTERESIS_3D * scale) {
      lm.kind = CONTACT_KIND_3D.faceA;
      setNormal3d(fnx, fny, fnz);
      if (clipSegmentToFace3d(Hh, faceF, px, py, pz, qx, qy, qz, r, margin, scale) > 0) return;
    }
    lm.count = 0;
    lm.kind = CONTACT_KIND_3D.closest;
    const inv = 1 / dist;
    const nx = (hc[4]! - hc[1]!) * inv, ny = (hc[5]! - hc[2]!) * inv, nz = (hc[6]! - hc[3]!) * inv;
    setNormal3d(nx, ny, nz);
    const s = dist - r;
    const h = 0.5 * s;
    pushPoint3d(hc[1]! + h * nx, hc[2]! + h * ny, hc[3]! + h * nz, s, makeId3d(hc[7]!, coreFeature3d(isSegment, hc[8]!)));
    return;
  }
  // Overlapping cores: SAT.
  if (isSegment && sepE > sepF + EDGE_HYSTERESIS_3D * scale) {
    const a = 3 * H.edgeV0[edgeE]!;
    const b = 3 * H.edgeV1[edgeE]!;
    closestSegments3d(hv[a]!, hv[a + 1]!, hv[a + 2]!, hv[b]!, hv[b + 1]!, hv[b + 2]!, px, py, pz, qx, qy, qz);
    lm.kind = CONTACT_KIND_3D.edge;
    setNormal3d(ex, ey, ez);
    const s = sepE - r;
    // Midway between the hull edge point and the round surface (core point - r n).
    const h = 0.5 * s;
    pushPoint3d(cp[2]! + h * ex, cp[3]! + h * ey, cp[4]! + h * ez, s,
      makeId3d(edgeFeature3d(H, edgeE, cp[0]!), coreFeature3d(true, cp[1]!)));
    return;
  }
  const nx = hp[4 * faceF]!, ny = hp[4 * faceF + 1]!, nz = hp[4 * faceF + 2]!, nd = hp[4 * faceF + 3]!;
  lm.kind = CONTACT_KIND_3D.faceA;
  setNormal3d(nx, ny, nz);
  if (isSegment && clipSegmentToFace3d(Hh, faceF, px, py, pz, qx, qy, qz, r, margin, scale) > 0) return;
  // A sphere centre (or a segment that clips away) inside the hull: its deepest end point.
  const sp = nx * px + ny * py + nz * pz - nd;
  const sq = nx * qx + ny * qy + nz * qz - nd;
  const useQ = isSegment && sq < sp;
  const x = useQ ? qx : px, y = useQ ? qy : py, z = useQ ? qz : pz;
  const s = (useQ ? sq : sp) - r;
  if (s > margin) return;
  const h = r + 0.5 * s;
  pushPoint3d(x - h * nx, y - h * ny, z - h * nz, s, makeId3d(FEATURE_FACE_3D + faceF, FEATURE_VERTEX_3D + (useQ ? 1 : 0)));
}

// ---------------------------------------------------------------------------------------------
// Round shapes (spheres and capsules) against each other.

/** Two cores (point or segment) with radii: A the working frame's own shape, B placed by its transform. */
export function collideRounds3d(Ah: Hull3D, Bh: Hull3D, margin: number, scale: number): void {
  const A = Ah.shape;
  const B = Bh.shape;
  const segA = A.vertexCount === 2;
  const segB = B.vertexCount === 2;
  const av = A.vertices;
  const ka = segA ? 3 : 0;
  const p1x = av[0]!, p1y = av[1]!, p1z = av[2]!;
  const q1x = av[ka]!, q1y = av[ka + 1]!, q1z = av[ka + 2]!;
  roundCore3d(Bh);
  const p2x = coreEnds[0]!, p2y = coreEnds[1]!, p2z = coreEnds[2]!;
  const q2x = coreEnds[3]!, q2y = coreEnds[4]!, q2z = coreEnds[5]!;
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
  setNormal3d(nx, ny, nz);
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
      lm.kind = CONTACT_KIND_3D.parallel;
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
        pushPoint3d(x + h * nx, y + h * ny, z + h * nz, sep, makeId3d(fa, fb));
      }
      if (lm.count > 0) return;
    }
  }
  lm.kind = CONTACT_KIND_3D.closest;
  const sep = dist - ra - rb;
  const h = ra + 0.5 * sep;
  pushPoint3d(cp[2]! + h * nx, cp[3]! + h * ny, cp[4]! + h * nz, sep,
    makeId3d(coreFeature3d(segA, cp[0]!), coreFeature3d(segB, cp[1]!)));
}

