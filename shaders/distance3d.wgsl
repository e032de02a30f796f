// Closest points of two segments in 3D (GPU mirror of src/cpu/distance3d.ts).

struct SegmentClosest3D {
  s: f32,                                              // parameter on segment 1
  t: f32,                                              // parameter on segment 2
  c1: vec3f,                                           // p1 + s (q1 - p1)
  c2: vec3f,                                           // p2 + t (q2 - p2)
}

// Closest points of segments p1–q1 and p2–q2 (Ericson 5.1.9). Handles segments that are points.
fn closestSegments3D(p1: vec3f, q1: vec3f, p2: vec3f, q2: vec3f) -> SegmentClosest3D {
  let d1 = q1 - p1;
  let d2 = q2 - p2;
  let r = p1 - p2;
  let a = dot(d1, d1);
  let e = dot(d2, d2);
  let f = dot(d2, r);
  var s = 0.0;
  var t = 0.0;
  if (a <= 0.0 && e <= 0.0) {
    s = 0.0;
    t = 0.0;
  } else if (a <= 0.0) {
    s = 0.0;
    t = clamp(f / e, 0.0, 1.0);
  } else {
    let c = dot(d1, r);
    if (e <= 0.0) {
      t = 0.0;
      s = clamp(-c / a, 0.0, 1.0);
    } else {
      let b = dot(d1, d2);
      // a e − b² = |d1 × d2|² and b f − c e = −(d1 × d2) · (r × d2) (Lagrange's identity): the
      // cross products keep their digits for nearly parallel segments, where a e − b² cancels.
      let n = cross(d1, d2);
      let m = cross(r, d2);
      let denom = dot(n, n);
      s = select(0.0, clamp(-dot(n, m) / denom, 0.0, 1.0), denom > 0.0);
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return SegmentClosest3D(s, t, p1 + d1 * s, p2 + d2 * t);
}
