// Closest points of two segments in 3D (mirror of shaders/distance3d.wgsl).

import { vec3, type Vec3, type Vec3Like } from './vec3.ts';

/** Result of closestSegments3D (WGSL: `struct SegmentClosest3D`). */
export interface SegmentClosest3D {
  /** Parameter on segment 1. */
  s: number;
  /** Parameter on segment 2. */
  t: number;
  /** p1 + s (q1 − p1). */
  c1: Vec3;
  /** p2 + t (q2 − p2). */
  c2: Vec3;
}

export function emptySegmentClosest3D(): SegmentClosest3D {
  return { s: 0, t: 0, c1: vec3.create(), c2: vec3.create() };
}

/**
 * Closest points of segments p1–q1 and p2–q2 (Ericson 5.1.9) into `out`. Handles segments that
 * are points. (Scalars inside: it runs for every hull edge a round core may be closest to.)
 */
export function closestSegments3D(
  p1: Vec3Like,
  q1: Vec3Like,
  p2: Vec3Like,
  q2: Vec3Like,
  out: SegmentClosest3D,
): SegmentClosest3D {
  const p1x = p1[0],
    p1y = p1[1],
    p1z = p1[2];
  const p2x = p2[0],
    p2y = p2[1],
    p2z = p2[2];
  const d1x = q1[0] - p1x;
  const d1y = q1[1] - p1y;
  const d1z = q1[2] - p1z;
  const d2x = q2[0] - p2x;
  const d2y = q2[1] - p2y;
  const d2z = q2[2] - p2z;
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
      // a e − b² = |d1 × d2|² and b f − c e = −(d1 × d2) · (r × d2) (Lagrange's identity): the
      // cross products keep their digits for nearly parallel segments, where a e − b² cancels.
      const nx = d1y * d2z - d1z * d2y;
      const ny = d1z * d2x - d1x * d2z;
      const nz = d1x * d2y - d1y * d2x;
      const mx = ry * d2z - rz * d2y;
      const my = rz * d2x - rx * d2z;
      const mz = rx * d2y - ry * d2x;
      const denom = nx * nx + ny * ny + nz * nz;
      s = denom > 0 ? Math.min(Math.max(-(nx * mx + ny * my + nz * mz) / denom, 0), 1) : 0;
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
  out.s = s;
  out.t = t;
  vec3.set(p1x + d1x * s, p1y + d1y * s, p1z + d1z * s, out.c1);
  vec3.set(p2x + d2x * t, p2y + d2y * t, p2z + d2z * t, out.c2);
  return out;
}
