// Closest points between two segments (GPU mirror of src/cpu/distance2d.ts; Ericson 5.1.9).

struct SegmentDistance {
  fraction1: f32,       // in [0, 1]; exactly 0 or 1 at a vertex
  fraction2: f32,
  distanceSquared: f32,
}

fn segmentDistance(p1: vec2f, q1: vec2f, p2: vec2f, q2: vec2f) -> SegmentDistance {
  let d1 = q1 - p1;
  let d2 = q2 - p2;
  let r = p1 - p2;
  let a = dot(d1, d1);
  let e = dot(d2, d2);
  let f = dot(d2, r);
  let c = dot(d1, r);
  let b = dot(d1, d2);
  // a e − b² = (d1 × d2)² and b f − c e = −(d1 × d2)(r × d2) (Lagrange's identity, as
  // distance3d.wgsl): never negative, and it keeps its digits for nearly parallel segments, where
  // a e − b² cancels (and a GPU that fuses it into one rounding can leave an ulp of either sign).
  let n = d1.x * d2.y - d1.y * d2.x;
  let m = r.x * d2.y - r.y * d2.x;
  let denom = n * n;
  // Parallel segments (denom = 0): any s works; s = 0 then projects p1 onto segment 2.
  var s = select(0.0, clamp(-(n * m) / denom, 0.0, 1.0), denom > 0.0);
  var t = (b * s + f) / e;
  if (t < 0.0) {
    t = 0.0;
    s = clamp(-c / a, 0.0, 1.0);
  } else if (t > 1.0) {
    t = 1.0;
    s = clamp((b - c) / a, 0.0, 1.0);
  }
  let d = p1 + d1 * s - (p2 + d2 * t);
  return SegmentDistance(s, t, dot(d, d));
}
