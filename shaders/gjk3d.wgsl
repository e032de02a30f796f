// Closest points of two hulls that are apart (GPU mirror of src/cpu/gjk3d.ts, function for
// function; see there for the method): GJK on the Minkowski difference Q − P, the features read
// off the vertices the final simplex uses on each hull, the witness points from those features in
// closed form. A rare path (hulls apart whose SAT features need not hold their closest points,
// collideHulls3D); the simplex lives in function-scope arrays, every one indexed by constants (a
// select per slot, as pushPoint3D does), so that it stays in registers: an index known only at
// run time puts an array in memory, per lane, on SIMD backends and real GPUs alike.

struct HullClosest3D {
  distance: f32,
  p: vec3f,                                            // on P, working frame
  q: vec3f,                                            // on Q
  featureP: u32,
  featureQ: u32,
}

// The simplex: per point its P and Q vertices (working frame) and their indices (P | Q << 8).
struct Simplex3D {
  p: array<vec3f, 4>,
  q: array<vec3f, 4>,
  ids: array<u32, 4>,
  l: array<f32, 4>,                                    // weights of the nearest point
}

// Weights of the point of segment a–b nearest the origin (x, y) and its squared distance (z).
fn gjkSegment3D(a: vec3f, b: vec3f) -> vec3f {
  let e = b - a;
  let ee = dot(e, e);
  var t = 0.0;
  if (ee > 0.0) { t = clamp(-dot(a, e) / ee, 0.0, 1.0); }
  let x = a + t * e;
  return vec3f(1.0 - t, t, dot(x, x));
}

// Weights of the point of triangle a, b, c nearest the origin (xyz) and its squared distance (w).
// An edge of zero length (two support pairs can give the same point) takes its first end.
fn gjkTriangle3D(a: vec3f, b: vec3f, c: vec3f) -> vec4f {
  let ab = b - a;
  let ac = c - a;
  let d1 = -dot(ab, a);
  let d2 = -dot(ac, a);
  let d3 = -dot(ab, b);
  let d4 = -dot(ac, b);
  let d5 = -dot(ab, c);
  let d6 = -dot(ac, c);
  let va = d3 * d6 - d5 * d4;
  let vb = d5 * d2 - d1 * d6;
  let vc = d1 * d4 - d3 * d2;
  var l = vec3f(0.0);
  if (d1 <= 0.0 && d2 <= 0.0) {
    l.x = 1.0;
  } else if (d3 >= 0.0 && d4 <= d3) {
    l.y = 1.0;
  } else if (d6 >= 0.0 && d5 <= d6) {
    l.z = 1.0;
  } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    l.y = select(0.0, d1 / (d1 - d3), d1 - d3 > 0.0);
    l.x = 1.0 - l.y;
  } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    l.z = select(0.0, d2 / (d2 - d6), d2 - d6 > 0.0);
    l.x = 1.0 - l.z;
  } else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    l.z = select(0.0, (d4 - d3) / (d4 - d3 + (d5 - d6)), d4 - d3 + (d5 - d6) > 0.0);
    l.y = 1.0 - l.z;
  } else if (va > 0.0 && vb > 0.0 && vc > 0.0) {
    let inv = 1.0 / (va + vb + vc);
    l.y = vb * inv;
    l.z = vc * inv;
    l.x = 1.0 - l.y - l.z;
  } else {
    // No region holds the origin consistently (a sliver): the nearest edge.
    let sAB = gjkSegment3D(a, b);
    l = vec3f(sAB.xy, 0.0);
    var best = sAB.z;
    let sAC = gjkSegment3D(a, c);
    if (sAC.z < best) {
      best = sAC.z;
      l = vec3f(sAC.x, 0.0, sAC.y);
    }
    let sBC = gjkSegment3D(b, c);
    if (sBC.z < best) {
      l = vec3f(0.0, sBC.x, sBC.y);
    }
  }
  let x = l.x * a + l.y * b + l.z * c;
  return vec4f(l, dot(x, x));
}

// The simplex's nearest point to the origin: weights into s.l (unused points 0), the unused points
// dropped. Returns the new point count; 0 when a tetrahedron holds the origin (weights those of
// the origin).
fn solveSimplex3D(s: ptr<function, Simplex3D>, n: u32) -> u32 {
  var w: array<vec3f, 4>;
  for (var k = 0u; k < 4u; k++) {
    w[k] = (*s).q[k] - (*s).p[k];
    (*s).l[k] = 0.0;
  }
  if (n == 1u) {
    (*s).l[0] = 1.0;
  } else if (n == 2u) {
    let r = gjkSegment3D(w[0], w[1]);
    (*s).l[0] = r.x;
    (*s).l[1] = r.y;
  } else {
    // A triangle: its nearest point. A tetrahedron: the origin strictly inside (beyond no face
    // plane): the hulls touch; else the nearest of the faces' nearest points: all four are tried,
    // as a face's side test is rounding where the origin lies nearly in its plane (the face
    // holding the last estimate, often). One loop over the faces (the triangle is face 0 of it),
    // so gjkTriangle3D has one call site.
    var best = F32_MAX_3D;
    var inside = true;
    var bestL = vec4f(0.0);
    let faces = select(1u, 4u, n == 4u);
    for (var t = 0u; t < faces; t++) {
      let omit = 3u - t;
      let i = select(0u, 1u, omit == 0u);
      let j = select(1u, 2u, omit <= 1u);
      let k = select(2u, 3u, omit <= 2u);
      // w[i], w[j], w[k], w[omit], picked by selects.
      let a = select(w[0], w[1], omit == 0u);
      let b = select(w[1], w[2], omit <= 1u);
      let c = select(w[2], w[3], omit <= 2u);
      let o = select(select(w[3], w[2], omit == 2u), select(w[1], w[0], omit == 0u), omit <= 1u);
      let nrm = cross(b - a, c - a);
      if (!(-dot(nrm, a) * dot(nrm, o - a) > 0.0)) { inside = false; }
      let r = gjkTriangle3D(a, b, c);
      if (r.w < best || n == 3u) {
        best = r.w;
        bestL = vec4f(0.0);
        bestL[i] = r.x;
        bestL[j] = r.y;
        bestL[k] = r.z;
      }
    }
    if (n == 4u && inside) {
      let l = originWeights3D(w);
      for (var k = 0u; k < 4u; k++) {
        (*s).l[k] = l[k];
      }
      return 0u;
    }
    for (var k = 0u; k < 4u; k++) {
      (*s).l[k] = bestL[k];
    }
  }
  // The points in use moved to the front, in order (slot m written by a select per slot).
  var m = 0u;
  for (var k = 0u; k < 4u; k++) {
    let l = (*s).l[k];
    if (k < n && l > 0.0) {
      let p = (*s).p[k];
      let q = (*s).q[k];
      let id = (*s).ids[k];
      for (var t = 0u; t < 4u; t++) {
        if (t == m) {
          (*s).p[t] = p;
          (*s).q[t] = q;
          (*s).ids[t] = id;
          (*s).l[t] = l;
        }
      }
      m++;
    }
  }
  return m;
}

// Weights of the origin in the tetrahedron w (it lies inside): ratios of volumes about w[3].
fn originWeights3D(w: array<vec3f, 4>) -> vec4f {
  let d = w[3];
  let a = w[0] - d;
  let b = w[1] - d;
  let c = w[2] - d;
  let vol = dot(a, cross(b, c));
  let l0 = dot(-d, cross(b, c)) / vol;
  let l1 = dot(a, cross(-d, c)) / vol;
  let l2 = dot(a, cross(b, -d)) / vol;
  return vec4f(l0, l1, l2, 1.0 - l0 - l1 - l2);
}

// Feature of hull h holding the simplex's points on it: `count` distinct vertices, the first two
// i0, i1. One: that vertex; two joined by an edge: the edge; else the face around i0 that faces
// direction dir (working frame) the most, or the nearly coplanar neighbour h's closest point x
// lies over (faceOverPoint3D).
fn simplexFeature3D(h: Hull3D, i0: u32, i1: u32, count: u32, dir: vec3f, x: vec3f) -> u32 {
  if (count == 1u) { return FEATURE_VERTEX_3D + i0; }
  if (count == 2u) {
    for (var e = 0u; e < MAX_HULL_EDGES; e++) {
      if (e >= h.edgeCount) { break; }
      let edge = hullEdge(h, e);
      if ((edge.x == i0 && edge.y == i1) || (edge.x == i1 && edge.y == i0)) { return FEATURE_EDGE_3D + e; }
    }
  }
  return FEATURE_FACE_3D + faceOverPoint3D(h, faceAroundVertex3D(h, i0, -dir), x);
}

// Distinct vertices among the first n simplex ids of one hull (byte `shift` of each): count
// (at most 4), first, second.
fn distinctVertices3D(ids: array<u32, 4>, n: u32, shift: u32) -> vec3u {
  var c = 0u;
  var a = 0xffffffffu;
  var b = 0xffffffffu;
  // No break: a loop of fixed trip count is unrolled, and ids indexed by constants.
  for (var k = 0u; k < 4u; k++) {
    let i = (ids[k] >> shift) & 0xffu;
    if (k >= n || i == a || i == b) { continue; }
    if (c == 0u) {
      a = i;
    } else if (c == 1u) {
      b = i;
    }
    c++;
  }
  return vec3u(c, a, b);
}

// Closest points of hulls P and Q (working frame), which are apart. `axis` (unit, from P towards
// Q: the SAT's) names the faces when the points touch (closer than CORE_DISTANCE_3D × scale).
fn closestHulls3D(P: Hull3D, Q: Hull3D, axis: vec3f, scale: f32) -> HullClosest3D {
  let touch = CORE_DISTANCE_3D * scale * (CORE_DISTANCE_3D * scale);
  var s: Simplex3D;
  // v starts as the centres' join (a point of Q − P); the simplex is empty.
  var v = Q.pos - P.pos;
  var n = 0u;
  for (var it = 0u; it < GJK_MAX_ITERATIONS_3D; it++) {
    let vv = dot(v, v);
    if (n > 0u && vv <= touch) { break; }
    // Support of Q − P against v: P's vertex farthest along v, Q's farthest against it (a loop
    // over the two hulls: one call site, pairSides3D).
    var support = vec2u(0u);
    for (var side = 0u; side < pairSides3D(Q); side++) {
      support[side] = deepestVertex3D(pickHull3D(side == 0u, P, Q), select(v, -v, side == 0u));
    }
    let ip = support.x;
    let iq = support.y;
    let a = hullVertexW(P, ip);
    let b = hullVertexW(Q, iq);
    // Converged: the new support point brings v no nearer than the tolerance; or it is in the simplex.
    if (n > 0u && vv - dot(v, b - a) <= GJK_TOLERANCE_3D * vv) { break; }
    let id = ip | (iq << 8u);
    var repeated = false;
    for (var k = 0u; k < 4u; k++) {
      if (k < n && s.ids[k] == id) { repeated = true; }
    }
    if (repeated) { break; }
    let before = s;
    let m = n;
    for (var k = 0u; k < 4u; k++) {
      if (k == n) {
        s.p[k] = a;
        s.q[k] = b;
        s.ids[k] = id;
      }
    }
    n = solveSimplex3D(&s, n + 1u);
    if (n == 0u) {
      // A tetrahedron holds the origin: the hulls touch (by rounding); its four points are the mix.
      n = 4u;
      break;
    }
    var next = vec3f(0.0);
    for (var k = 0u; k < 4u; k++) {
      if (k < n) { next += s.l[k] * (s.q[k] - s.p[k]); }
    }
    // No nearer than before (rounding): the previous simplex is the answer.
    if (m > 0u && dot(next, next) >= vv) {
      s = before;
      n = m;
      break;
    }
    v = next;
  }
  // Witness points: the simplex's weights applied to its P and Q vertices.
  var p = vec3f(0.0);
  var q = vec3f(0.0);
  for (var k = 0u; k < 4u; k++) {
    if (k < n) {
      p += s.l[k] * s.p[k];
      q += s.l[k] * s.q[k];
    }
  }
  let d = q - p;
  let dist = sqrt(dot(d, d));
  // The direction from P to Q: the join, or the SAT axis where the points touch.
  var u = axis;
  if (dist > CORE_DISTANCE_3D * scale) { u = d / dist; }
  // The features on P (facing u) and on Q (facing -u), in a loop: one call site (pairSides3D).
  var features = vec2u(0u);
  for (var side = 0u; side < pairSides3D(Q); side++) {
    let d = distinctVertices3D(s.ids, n, 8u * side);
    features[side] = simplexFeature3D(pickHull3D(side == 0u, P, Q), d.y, d.z, d.x, select(-u, u, side == 0u), select(q, p, side == 0u));
  }
  return polishClosest3D(P, Q, HullClosest3D(dist, p, q, features.x, features.y));
}

// End points of feature f of hull h (working frame) as a segment: a vertex twice, an edge's ends.
fn featureSegment3D(h: Hull3D, f: u32) -> array<vec3f, 2> {
  var v0 = f;
  var v1 = f;
  if (f >= FEATURE_EDGE_3D) {
    let edge = hullEdge(h, f - FEATURE_EDGE_3D);
    v0 = edge.x;
    v1 = edge.y;
  }
  return array<vec3f, 2>(hullVertexW(h, v0), hullVertexW(h, v1));
}

// The witness points again, in closed form from the named features (see the CPU file): a face on
// either side, the other point moved onto its plane; else the closest points of the two features
// as segments.
fn polishClosest3D(P: Hull3D, Q: Hull3D, c: HullClosest3D) -> HullClosest3D {
  var r = c;
  if (c.featureP >= FEATURE_FACE_3D || c.featureQ >= FEATURE_FACE_3D) {
    let onP = c.featureP >= FEATURE_FACE_3D;
    let h = pickHull3D(onP, P, Q);
    let f = select(c.featureQ, c.featureP, onP);
    let x = select(c.p, c.q, onP);
    let plane = planeW3D(h, f - FEATURE_FACE_3D);
    let d = dot(plane.xyz, x) - plane.w;
    let y = x - d * plane.xyz;
    r.p = select(c.p, y, onP);
    r.q = select(y, c.q, onP);
    r.distance = max(d, 0.0);
    return r;
  }
  let a = featureSegment3D(P, c.featureP);
  let b = featureSegment3D(Q, c.featureQ);
  let cs = closestSegments3D(a[0], a[1], b[0], b[1]);
  r.p = cs.c1;
  r.q = cs.c2;
  r.distance = length(cs.c2 - cs.c1);
  return r;
}

// The contact of closestHulls3D's result c for hulls A (P) and B (Q) within the margin: one point
// midway between the closest points, the distance as its separation, the normal along their join,
// or along `axis`, from A towards B, where they touch.
fn closestContact3D(c: HullClosest3D, axis: vec3f, scale: f32) {
  lm.kind = CONTACT_CLOSEST_3D;
  setJoinNormal3D(c.q - c.p, c.distance, axis, scale);
  pushPoint3D(0.5 * (c.p + c.q), c.distance, makeId3D(c.featureP, c.featureQ));
}
