// Sphere and capsule contacts (GPU mirror of src/cpu/round3d.ts, function for function): a hull
// against a round shape's core (sphere: a point, capsule: a segment), and two round shapes. The
// first shape is the working frame's own shape (read as stored); the second is placed by its
// Hull3D transform.

struct CoreEnds3D {
  p: vec3f,
  q: vec3f,                                            // = p for a sphere
}

struct HullCoreClosest3D {
  distance: f32,
  hullPoint: vec3f,
  corePoint: vec3f,
  feature: u32,                                        // hull feature code
  param: f32,                                          // core parameter (0 for a sphere)
}

// R's 1 or 2 core vertices placed by R's transform.
fn roundCore3D(R: Hull3D) -> CoreEnds3D {
  return CoreEnds3D(hullVertexW(R, 0u), hullVertexW(R, select(0u, 1u, R.vertexCount == 2u)));
}

// Exact closest points between hull H (own frame) and the segment p–q (a point when p = q): those
// of H's edges first to end - 1, then with `overFaces` the end points over a face's interior.
// Every edge and the faces: the closest points of a core that lies outside H; one edge: the
// points of an edge contact (one call site for both: the compiler inlines each).
fn closestHullCore3D(H: Hull3D, p: vec3f, q: vec3f, isSegment: bool, first: u32, end: u32, overFaces: bool) -> HullCoreClosest3D {
  var out = HullCoreClosest3D(0.0, vec3f(0.0), vec3f(0.0), 0u, 0.0);
  var best = closestCoreEdges3D(H, p, q, isSegment, first, end, &out);
  if (overFaces) { best = closestCoreFaces3D(H, p, q, isSegment, best, &out); }
  out.distance = sqrt(best);
  return out;
}

// Hull edges first to end - 1 against the core: the closest pair of points into `out`, returns its
// squared distance. The CPU reference first skips edges whose face planes are farther from the
// core than the best so far (planeGap3D there; the same answer): a SIMD lane gains nothing from
// skipping while its neighbours go on, and the plane reads cost more than they save
// (docs/tuning.md).
fn closestCoreEdges3D(H: Hull3D, p: vec3f, q: vec3f, isSegment: bool, first: u32, end: u32, out: ptr<function, HullCoreClosest3D>) -> f32 {
  var best = F32_MAX_3D;
  for (var e = first; e < MAX_HULL_EDGES; e++) {
    if (e >= end) { break; }
    let edge = hullEdge(H, e);
    let c = closestSegments3D(hullVertex(H, edge.x), hullVertex(H, edge.y), p, q);
    let d = c.c2 - c.c1;
    let d2 = dot(d, d);
    if (d2 < best) {
      best = d2;
      (*out).hullPoint = c.c1;
      (*out).corePoint = c.c2;
      (*out).feature = edgeFeature3D(H, e, c.s);
      (*out).param = select(0.0, c.t, isSegment);
    }
  }
  return best;
}

// Core end points over a face's interior, closer than `best` (a squared distance): the closest
// into `out`; returns the new best.
fn closestCoreFaces3D(H: Hull3D, p: vec3f, q: vec3f, isSegment: bool, best0: f32, out: ptr<function, HullCoreClosest3D>) -> f32 {
  var best = best0;
  let ends = select(1u, 2u, isSegment);
  for (var f = 0u; f < MAX_HULL_FACES; f++) {
    if (f >= H.faceCount) { break; }
    let pl = hullPlane(H, f);
    let n = pl.xyz;
    for (var k = 0u; k < 2u; k++) {
      if (k >= ends) { break; }
      let x = select(q, p, k == 0u);
      let s = dot(n, x) - pl.w;
      if (s <= 0.0 || s * s >= best) { continue; }
      if (!pointOverFace3D(H, f, n, x)) { continue; }
      best = s * s;
      (*out).hullPoint = x - s * n;
      (*out).corePoint = x;
      (*out).feature = FEATURE_FACE_3D + f;
      (*out).param = f32(k);
    }
  }
  return best;
}

// Whether point x lies over face f of H (normal n): inside each of its side planes.
fn pointOverFace3D(H: Hull3D, f: u32, n: vec3f, x: vec3f) -> bool {
  let face = hullFace(H, f);
  for (var j = 0u; j < MAX_FACE_VERTICES; j++) {
    if (j >= face.y) { break; }
    let va = hullVertex(H, faceEntry(H, face.x + j).x);
    let vb = hullVertex(H, faceEntry(H, face.x + select(j + 1u, 0u, j + 1u == face.y)).x);
    if (dot(cross(vb - va, n), x - va) > 0.0) { return false; }
  }
  return true;
}

// Clips the core segment p–q (radius r) against face f of hull H and keeps the points within the
// margin; normal n(f). A clipped piece shorter than CORE_DISTANCE_3D × scale (an end at the face's
// boundary) is one point. Returns the number of points written.
fn clipSegmentToFace3D(H: Hull3D, f: u32, p: vec3f, q: vec3f, radius: f32, margin: f32, scale: f32) -> u32 {
  let pl = hullPlane(H, f);
  let n = pl.xyz;
  let face = hullFace(H, f);
  var t0 = 0.0;
  var t1 = 1.0;
  var side0 = -1;
  var side1 = -1;
  for (var j = 0u; j < MAX_FACE_VERTICES; j++) {
    if (j >= face.y) { break; }
    let va = hullVertex(H, faceEntry(H, face.x + j).x);
    let vb = hullVertex(H, faceEntry(H, face.x + select(j + 1u, 0u, j + 1u == face.y)).x);
    let s = cross(vb - va, n);
    let off = dot(s, va);
    let d0 = dot(s, p) - off;
    let d1 = dot(s, q) - off;
    if (d0 > 0.0 && d1 > 0.0) { return 0u; }
    if (d0 > 0.0) {
      let t = d0 / (d0 - d1);
      if (t > t0) {
        t0 = t;
        side0 = i32(j);
      }
    } else if (d1 > 0.0) {
      let t = d0 / (d0 - d1);
      if (t < t1) {
        t1 = t;
        side1 = i32(j);
      }
    }
  }
  if (t0 > t1) { return 0u; }
  let ends = select(1u, 2u, (t1 - t0) * length(q - p) > CORE_DISTANCE_3D * scale);
  var written = 0u;
  for (var k = 0u; k < 2u; k++) {
    if (k >= ends) { break; }
    let t = select(t1, t0, k == 0u);
    let side = select(side1, side0, k == 0u);
    let x = p + t * (q - p);
    let s = dot(n, x) - pl.w - radius;
    if (s > margin) { continue; }
    var fa = FEATURE_FACE_3D + f;
    var fb = FEATURE_VERTEX_3D + k;
    if (side >= 0) {
      fa = FEATURE_EDGE_3D + faceEntry(H, face.x + u32(side)).y;
      fb = FEATURE_EDGE_3D;
    }
    // Midway between the face (x - (s + r) n) and the round surface (x - r n).
    let h = radius + 0.5 * s;
    pushPoint3D(x - h * n, s, makeId3D(fa, fb));
    written++;
  }
  return written;
}

// Result of queryCoreEdges3D.
struct CoreEdgeQuery3D {
  separation: f32,
  edge: u32,
  axis: vec3f,                                         // working frame, pointing away from the hull
}

// Hull H (the working frame's own shape) against a sphere or capsule R placed by its transform.
fn collideHullRound3D(H: Hull3D, R: Hull3D, margin: f32, scale: f32) {
  let isSegment = R.vertexCount == 2u;
  let r = R.radius;
  let reach = r + margin;
  let ends = roundCore3D(R);
  let p = ends.p;
  let q = ends.q;
  let faces = queryCoreFaces3D(H, p, q);
  if (faces.separation > reach) { return; }
  let edges = queryCoreEdges3D(H, p, q - p, isSegment);
  if (edges.separation > reach) { return; }
  let sepF = faces.separation;
  let faceF = faces.face;
  let sepE = edges.separation;
  // Separated cores: exact closest points. Overlapping cores: SAT, where a hull edge's axis makes
  // one point on that edge's closest point to the capsule. Both may clip the capsule to face F,
  // through one call site (the compiler inlines each).
  let separated = max(sepF, sepE) > CORE_DISTANCE_3D * scale;
  let edgeContact = !separated && isSegment && sepE > sepF + EDGE_HYSTERESIS_3D * scale;
  var c: HullCoreClosest3D;
  if (separated || edgeContact) {
    let first = select(0u, edges.edge, edgeContact);
    let end = select(H.edgeCount, edges.edge + 1u, edgeContact);
    c = closestHullCore3D(H, p, q, isSegment, first, end, separated);
    if (separated && c.distance > reach) { return; }
  }
  if (edgeContact) {
    lm.kind = CONTACT_EDGE_3D;
    pushCoreContact3D(&c, edges.axis, sepE - r, isSegment);
    return;
  }
  // Separated: face F's axis realises the distance (within the hysteresis), so the capsule is
  // closest to F, at its interior or its boundary. Clip it to the face; each end within the
  // margin is a point (a capsule lying on F gets two). An edge axis does not veto it: a capsule
  // lying across F's edges ties F's axis with those edges' (both realise the distance).
  let clipToFace = isSegment && (!separated || sepF >= c.distance - EDGE_HYSTERESIS_3D * scale);
  let pl = hullPlane(H, faceF);
  if (clipToFace || !separated) {
    lm.kind = CONTACT_FACE_A_3D;
    setNormal3D(pl.xyz);
  }
  if (clipToFace && clipSegmentToFace3D(H, faceF, p, q, r, margin, scale) > 0u) { return; }
  if (separated) {
    lm.count = 0u;
    lm.kind = CONTACT_CLOSEST_3D;
    pushCoreContact3D(&c, (c.corePoint - c.hullPoint) * (1.0 / c.distance), c.distance - r, isSegment);
    return;
  }
  pushDeepestEnd3D(faceF, pl, p, q, isSegment, r, margin);
}

// The face axes of H against the core p–q: the core's support along -n is its lower end point.
fn queryCoreFaces3D(H: Hull3D, p: vec3f, q: vec3f) -> FaceQuery3D {
  var sepF = -F32_MAX_3D;
  var faceF = 0u;
  for (var f = 0u; f < MAX_HULL_FACES; f++) {
    if (f >= H.faceCount) { break; }
    let pl = hullPlane(H, f);
    let s = min(dot(pl.xyz, p), dot(pl.xyz, q)) - pl.w;
    if (s > sepF) {
      sepF = s;
      faceF = f;
    }
  }
  return FaceQuery3D(sepF, faceF);
}

// The edge axes of a capsule (segment from p along u): hull edge × segment where the edge's arc
// crosses the segment's great circle. A sphere has none (separation -F32_MAX_3D).
fn queryCoreEdges3D(H: Hull3D, p: vec3f, u: vec3f, isSegment: bool) -> CoreEdgeQuery3D {
  var sepE = -F32_MAX_3D;
  var edgeE = 0u;
  var axisE = vec3f(0.0);
  if (isSegment) {
    for (var e = 0u; e < MAX_HULL_EDGES; e++) {
      if (e >= H.edgeCount) { break; }
      let edge = hullEdge(H, e);
      let au = dot(hullPlane(H, edge.z).xyz, u);
      let bu = dot(hullPlane(H, edge.w).xyz, u);
      if (!((au < 0.0 && bu > 0.0) || (au > 0.0 && bu < 0.0))) { continue; }
      let v = hullVertex(H, edge.x);
      let d = hullVertex(H, edge.y) - v;
      let axis = edgeAxis3D(d, u, v);
      if (axis.w == 0.0) { continue; }
      let n = axis.xyz;
      let s = dot(n, p - v);
      if (s > sepE) {
        sepE = s;
        edgeE = e;
        axisE = n;
      }
    }
  }
  return CoreEdgeQuery3D(sepE, edgeE, axisE);
}

// A one-point contact at c's hull point: normal n, separation sep.
fn pushCoreContact3D(c: ptr<function, HullCoreClosest3D>, n: vec3f, sep: f32, isSegment: bool) {
  setNormal3D(n);
  pushPoint3D((*c).hullPoint + (0.5 * sep) * n, sep, makeId3D((*c).feature, coreFeature3D(isSegment, (*c).param)));
}

// A sphere centre (or a segment that clips away) inside the hull: its deepest end point below
// face F (plane pl), if within the margin.
fn pushDeepestEnd3D(faceF: u32, pl: vec4f, p: vec3f, q: vec3f, isSegment: bool, r: f32, margin: f32) {
  let n = pl.xyz;
  let sp = dot(n, p) - pl.w;
  let sq = dot(n, q) - pl.w;
  let useQ = isSegment && sq < sp;
  let x = select(p, q, useQ);
  let s = select(sp, sq, useQ) - r;
  if (s > margin) { return; }
  let h = r + 0.5 * s;
  pushPoint3D(x - h * n, s, makeId3D(FEATURE_FACE_3D + faceF, FEATURE_VERTEX_3D + select(0u, 1u, useQ)));
}

// Two cores (point or segment) with radii: A the working frame's own shape, B placed by its
// transform.
fn collideRounds3D(A: Hull3D, B: Hull3D, margin: f32, scale: f32) {
  let segA = A.vertexCount == 2u;
  let segB = B.vertexCount == 2u;
  let p1 = hullVertex(A, 0u);
  let q1 = hullVertex(A, select(0u, 1u, segA));
  let ends = roundCore3D(B);
  let p2 = ends.p;
  let q2 = ends.q;
  let ra = A.radius;
  let rb = B.radius;
  let c = closestSegments3D(p1, q1, p2, q2);
  var n = c.c2 - c.c1;
  let dist = sqrt(dot(n, n));
  if (dist > ra + rb + margin) { return; }
  let d1 = q1 - p1;
  let d2 = q2 - p2;
  let l1 = sqrt(dot(d1, d1));
  let l2 = sqrt(dot(d2, d2));
  var cr = cross(d1, d2);
  let cl = sqrt(dot(cr, cr));
  if (dist > CORE_DISTANCE_3D * scale) {
    n = n * (1.0 / dist);
  } else if (segA && segB && cl > PARALLEL_EDGE_SINE_3D * l1 * l2) {
    // Crossing segments: the common perpendicular, pointing towards B.
    cr = cr / cl;
    let side = dot(cr, 0.5 * (p2 + q2));
    n = select(cr, -cr, side < 0.0);
  } else {
    // Coincident cores: any direction perpendicular to A's segment (or +z for spheres).
    var u = vec3f(0.0, 0.0, 1.0);
    if (segA) {
      u = d1 / l1;
    } else if (segB) {
      u = d2 / l2;
    }
    // Perpendicular: cross with the axis least aligned.
    let ax = select(0.0, 1.0, abs(u.x) < 0.6);
    let ay = select(0.0, 1.0, ax == 0.0 && abs(u.y) < 0.6);
    let az = select(0.0, 1.0, ax == 0.0 && ay == 0.0);
    if (!segA && !segB) {
      n = vec3f(0.0, 0.0, 1.0);
    } else {
      n = cross(u, vec3f(ax, ay, az));
      n = n / sqrt(dot(n, n));
    }
  }
  setNormal3D(n);
  if (segA && segB && cl <= SEGMENT_PARALLEL_SINE_3D * l1 * l2) {
    // Parallel capsules: clip B's segment to A's extent along A's axis; up to 2 points.
    let u = d1 / l1;
    let s0 = dot(u, p2 - p1) / l1;
    let s1 = dot(u, q2 - p1) / l1;
    let a = max(min(s0, s1), 0.0);
    let b = min(max(s0, s1), 1.0);
    if (b - a > CORE_DISTANCE_3D * scale / l1) {
      lm.kind = CONTACT_PARALLEL_3D;
      for (var k = 0u; k < 2u; k++) {
        let s = select(b, a, k == 0u);
        let x = p1 + s * d1;
        // B's point at the same place along the axis.
        let tb = (s - s0) / (s1 - s0);
        let t = clamp(tb, 0.0, 1.0);
        let bp = p2 + t * d2;
        let sep = dot(n, bp - x) - ra - rb;
        if (sep > margin) { continue; }
        let h = ra + 0.5 * sep;
        var fa = FEATURE_EDGE_3D;
        if (s <= 0.0) { fa = FEATURE_VERTEX_3D; } else if (s >= 1.0) { fa = FEATURE_VERTEX_3D + 1u; }
        var fb = FEATURE_EDGE_3D;
        if (tb <= 0.0) { fb = FEATURE_VERTEX_3D; } else if (tb >= 1.0) { fb = FEATURE_VERTEX_3D + 1u; }
        pushPoint3D(x + h * n, sep, makeId3D(fa, fb));
      }
      if (lm.count > 0u) { return; }
    }
  }
  lm.kind = CONTACT_CLOSEST_3D;
  let sep = dist - ra - rb;
  let h = ra + 0.5 * sep;
  pushPoint3D(c.c1 + h * n, sep, makeId3D(coreFeature3D(segA, c.s), coreFeature3D(segB, c.t)));
}
