// Closest points of two segments in 3D (mirror of shaders/distance3d.wgsl).

/** Result of closestSegments3d: s, t, c1 xyz, c2 xyz (WGSL: `struct SegmentClosest3D`). */
export const cp = new Float64Array(8);

/**
 * Closest points of segments p1–q1 and p2–q2 (Ericson 5.1.9); writes cp = [s, t, c1, c2] with
 * c1 = p1 + s (q1 − p1) and c2 = p2 + t (q2 − p2). Handles segments that are points.
 */
export function closestSegments3d(
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
  cp[0] = s;
  cp[1] = t;
  cp[2] = p1x + d1x * s;
  cp[3] = p1y + d1y * s;
  cp[4] = p1z + d1z * s;
  cp[5] = p2x + d2x * t;
  cp[6] = p2y + d2y * t;
  cp[7] = p2z + d2z * t;
}
