// Closest points between two segments (CPU mirror of shaders/distance2d.wgsl). Used when the core
// polygons are apart: if the closest features of the reference and incident edges are two
// vertices, the contact normal must join them, not be a face normal (Box2D v3 b2CollidePolygons).
// Method: Ericson, Real-Time Collision Detection, 5.1.9, with both segments of non-zero length
// (validation guarantees it).

export interface SegmentDistance {
  /** Parameter of the closest point on segment 1, in [0, 1]; exactly 0 or 1 at a vertex. */
  fraction1: number;
  /** Parameter of the closest point on segment 2, in [0, 1]; exactly 0 or 1 at a vertex. */
  fraction2: number;
  distanceSquared: number;
}

function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function segmentDistance(
  p1x: number,
  p1y: number,
  q1x: number,
  q1y: number,
  p2x: number,
  p2y: number,
  q2x: number,
  q2y: number,
  out: SegmentDistance,
): void {
  const d1x = q1x - p1x;
  const d1y = q1y - p1y;
  const d2x = q2x - p2x;
  const d2y = q2y - p2y;
  const rx = p1x - p2x;
  const ry = p1y - p2y;
  const a = d1x * d1x + d1y * d1y;
  const e = d2x * d2x + d2y * d2y;
  const f = d2x * rx + d2y * ry;
  const c = d1x * rx + d1y * ry;
  const b = d1x * d2x + d1y * d2y;
  // a e − b² = (d1 × d2)² and b f − c e = −(d1 × d2)(r × d2) (Lagrange's identity, as
  // distance3d.ts): never negative, and it keeps its digits for nearly parallel segments, where
  // a e − b² cancels (and a GPU that fuses it into one rounding can leave an ulp of either sign).
  const n = d1x * d2y - d1y * d2x;
  const m = rx * d2y - ry * d2x;
  const denom = n * n;
  // Parallel segments (denom = 0): any s works; s = 0 then projects p1 onto segment 2.
  let s = denom > 0 ? clamp01(-(n * m) / denom) : 0;
  let t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = clamp01(-c / a);
  } else if (t > 1) {
    t = 1;
    s = clamp01((b - c) / a);
  }
  const dx = p1x + d1x * s - (p2x + d2x * t);
  const dy = p1y + d1y * s - (p2y + d2y * t);
  out.fraction1 = s;
  out.fraction2 = t;
  out.distanceSquared = dx * dx + dy * dy;
}
