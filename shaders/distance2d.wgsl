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
  let denom = a * e - b * b;
  // Parallel segments (denom = 0): any s works; s = 0 then projects p1 onto segment 2.
  var s = select(0.0, clamp((b * f - c * e) / denom, 0.0, 1.0), denom > 0.0);
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
