// Face contacts of two hulls (GPU mirror of src/cpu/clip3d.ts, function for function): the
// incident face, Sutherland–Hodgman clipping against the side planes of the reference face, the
// points below the reference plane (+ margin) with their own depth, reduced to at most 4; and the
// fallback when nothing of the incident face lies over the reference face (the deepest vertex, or
// for hulls apart their closest points, gjk3d.wgsl). Everything happens in the working
// frame. A clip point carries one feature word: ref | inc << 8 | side << 16 | seg << 24 (see the
// CPU file for the ids).

// Clip buffers: two halves of CLASS_CLIP_POINTS_3D points, ping-ponged (one array, so that the
// clip step has one call site). Sized by the pair class: for hulls MAX_CLIP_POINTS_3D, as each of
// the reference face's <= 32 side planes adds at most one vertex to the clipped incident face
// (<= 32 vertices); for two boxes BOX_CLIP_FALLBACK_POINTS_3D. A clip point is one vec4u: its
// position's bits in xyz (bitcast, exact), its feature word in w; one private access per point.
var<private> clipBuffer: array<vec4u, 2 * CLASS_CLIP_POINTS_3D>;

fn clipPoint3D(p: vec3f, feature: u32) -> vec4u {
  return vec4u(bitcast<vec3u>(p), feature);
}

fn clipFeature3D(refFeature: u32, incFeature: u32, side: u32, seg: u32) -> u32 {
  return refFeature | (incFeature << 8u) | (side << 16u) | (seg << 24u);
}

// Index of the vertex of hull I deepest along -n (n in the working frame); first of equals.
fn deepestVertex3D(I: Hull3D, n: vec3f) -> u32 {
  let l = transpose(I.rot) * n;
  var lo = F32_MAX_3D;
  var deepest = 0u;
  for (var i = 0u; i < MAX_HULL_VERTICES; i++) {
    if (i >= I.vertexCount) { break; }
    let d = dot(l, hullVertex(I, i));
    if (d < lo) {
      lo = d;
      deepest = i;
    }
  }
  return deepest;
}

// Incident face of hull I for reference normal n (working frame): the most anti-parallel face. (The
// retry when it clips to nothing takes faceAroundVertex3D at I's deepest vertex along -n.)
fn incidentFace3D(I: Hull3D, n: vec3f) -> u32 {
  let l = transpose(I.rot) * n;
  var incFace = 0u;
  var lo = F32_MAX_3D;
  for (var f = 0u; f < MAX_HULL_FACES; f++) {
    if (f >= I.faceCount) { break; }
    let d = dot(l, hullPlane(I, f).xyz);
    if (d < lo) {
      lo = d;
      incFace = f;
    }
  }
  return incFace;
}

// The face of hull h around vertex v most anti-parallel to n (working frame); first of equals.
fn faceAroundVertex3D(h: Hull3D, v: u32, n: vec3f) -> u32 {
  let l = transpose(h.rot) * n;
  var face = 0u;
  var lo = F32_MAX_3D;
  for (var e = 0u; e < MAX_HULL_EDGES; e++) {
    if (e >= h.edgeCount) { break; }
    let edge = hullEdge(h, e);
    if (edge.x != v && edge.y != v) { continue; }
    let d0 = dot(l, hullPlane(h, edge.z).xyz);
    let d1 = dot(l, hullPlane(h, edge.w).xyz);
    if (d0 < lo) {
      lo = d0;
      face = edge.z;
    }
    if (d1 < lo) {
      lo = d1;
      face = edge.w;
    }
  }
  return face;
}

// Face f of hull h, or where point x (working frame) lies outside it the face across the side x
// is farthest outside of, when that face's normal is within NEAR_COPLANAR_SINE_3D of f's (see the
// CPU file).
fn faceOverPoint3D(h: Hull3D, f: u32, x: vec3f) -> u32 {
  let side = farthestOutsideSide3D(h, f, planeW3D(h, f).xyz, x);
  if (side < 0) { return f; }
  let edge = hullEdge(h, faceEntry(h, hullFace(h, f).x + u32(side)).y);
  let across = select(edge.z, edge.w, edge.z == f);
  let c = cross(hullPlane(h, across).xyz, hullPlane(h, f).xyz);
  return select(f, across, dot(c, c) <= NEAR_COPLANAR_SINE_3D * NEAR_COPLANAR_SINE_3D);
}

// The feature word of the point where a clipped segment crosses side plane j of the reference
// face (refFirst, refSize), from the word `feat` of the segment's first point. An incident edge
// crossing reference edge j: (edge j, that incident edge); a run along side `side` meeting side j:
// the reference vertex they share, inside the incident face. Leaving (the first point inside),
// the outgoing segment runs along side j; entering, it is the rest of the incident segment.
fn crossingFeature3D(R: Hull3D, refFirst: u32, refSize: u32, j: u32, incFace: u32, feat: u32, leaving: bool) -> u32 {
  let side = (feat >> 16u) & 0xffu;
  let seg = feat >> 24u;
  var refF = 0u;
  var incF = 0u;
  if (side == NO_SIDE_3D) {
    refF = FEATURE_EDGE_3D + faceEntry(R, refFirst + j).y;
    incF = seg;
  } else {
    let last = refSize - 1u;
    var corner = j;
    if (side + 1u == j || (side == last && j == 0u)) {
      corner = j;
    } else if (j + 1u == side || (j == last && side == 0u)) {
      corner = side;
    }
    refF = FEATURE_VERTEX_3D + faceEntry(R, refFirst + corner).x;
    incF = FEATURE_FACE_3D + incFace;
  }
  return select(clipFeature3D(refF, incF, side, seg), clipFeature3D(refF, incF, j, 0u), leaving);
}

// One Sutherland–Hodgman step: keeps the part of polygon src (m points of clipBuffer from src on,
// into dst on) where dot(s, p) <= off,
// the side plane of reference side j; a point within the slack (sideSlack3D) of the plane, on
// either side, counts as on it: it is kept (clamped onto the plane from outside), and no crossing
// is made next to it (crossesSide3D). Crossings lie on the true plane.
// Writes dst and returns its size. Each point is read once:
// the edge k -> k + 1 carries point k + 1 (and its plane distance) to the next step.
fn clipPolygonToPlane3D(
  src: u32, dst: u32, m: u32, s: vec3f, off: f32, slack: f32, R: Hull3D, refFirst: u32, refSize: u32, j: u32, incFace: u32,
) -> u32 {
  var o = 0u;
  var cur = clipBuffer[src];
  var p0 = bitcast<vec3f>(cur.xyz);
  var dp = dot(s, p0) - off;
  for (var k = 0u; k < CLASS_CLIP_POINTS_3D; k++) {
    if (k >= m) { break; }
    let next = clipBuffer[src + select(k + 1u, 0u, k + 1u == m)];
    let q0 = bitcast<vec3f>(next.xyz);
    let dq = dot(s, q0) - off;
    let feat = cur.w;
    if (dp <= slack) {
      clipBuffer[dst + o] = clipPoint3D(sideClamp3D(p0, s, dp), bandFeature3D(feat, dp, dq, slack, j));
      o++;
    }
    // A 2-point polygon (a segment) has one edge: its closing edge is the same segment back.
    if (crossesSide3D(dp, dq, slack) && (m > 2u || k == 0u)) {
      let t = dp / (dp - dq);
      clipBuffer[dst + o] = clipPoint3D(p0 + t * (q0 - p0), crossingFeature3D(R, refFirst, refSize, j, incFace, feat, dp < 0.0));
      o++;
    }
    cur = next;
    p0 = q0;
    dp = dq;
  }
  return o;
}

// The slack of a reference side plane (CLIP_SIDE_SLOP_3D × scale, in units of s, whose length is
// the side's): a point outside the plane by no more than this counts as on it, so a corner lying
// on the side plane is kept whatever its f32 noise and its id holds frame to frame; sideClamp3D
// moves such a point onto the plane, so every point stays on the reference face.
fn sideSlack3D(s: vec3f, scale: f32) -> f32 {
  return CLIP_SIDE_SLOP_3D * scale * length(s);
}

// Whether the segment from p to q (plane distances dp, dq) crosses the side plane: both ends lie
// beyond the slack band, on opposite sides. An end within the band is on the plane and is kept
// itself; a crossing beside it would repeat it under another feature id (f32 noise of 1e-7 puts a
// vertex lying on the plane on either side, and the ids would flicker).
fn crossesSide3D(dp: f32, dq: f32, slack: f32) -> bool {
  return (dp < -slack && dq > slack) || (dp > slack && dq < -slack);
}

// The feature word of a kept point p (plane distance dp, its successor's dq): a point in the slack
// band whose successor is outside is where the polygon leaves along side j (the word says so, for
// the crossings later planes make on that run); any other keeps its own word.
fn bandFeature3D(feat: u32, dp: f32, dq: f32, slack: f32, j: u32) -> u32 {
  return select(feat, clipFeature3D(feat & 0xffu, (feat >> 8u) & 0xffu, j, 0u), dp >= -slack && dq > slack);
}

// p moved onto the side plane when it is outside by d = dot(s, p) - off > 0.
fn sideClamp3D(p: vec3f, s: vec3f, d: f32) -> vec3f {
  return p - (max(d, 0.0) / dot(s, s)) * s;
}

// Box against box: the same Sutherland–Hodgman steps as clipPolygonToPlane3D, bit for bit, on a
// polygon held in registers. A box face is a quad clipped by 4 side planes, so BOX_CLIP_POINTS_3D
// (8) points suffice; loops of fixed bound and writes through a select per slot keep every index
// constant (a per-lane index into a private array is a per-lane scatter or gather on SIMD backends
// such as lavapipe). Leaves the polygon in clipBuffer's first half (constant indices) and returns its size, or
// returns BOX_CLIP_POINTS_3D + 1 when rounding made a step emit more points than that (the
// caller then clips the general way).
fn clipBoxPolygon3D(R: Hull3D, refFace: u32, I: Hull3D, incFace: u32, n: vec3f, scale: f32) -> u32 {
  let inc = hullFace(I, incFace);
  let refLoop = hullFace(R, refFace);
  let rFirst = refLoop.x;
  var poly: array<vec4u, BOX_CLIP_POINTS_3D>;
  for (var k = 0u; k < 4u; k++) {
    let entry = faceEntry(I, inc.x + k);
    poly[k] = clipPoint3D(hullVertexW(I, entry.x), clipFeature3D(FEATURE_FACE_3D + refFace, FEATURE_VERTEX_3D + entry.x, NO_SIDE_3D, FEATURE_EDGE_3D + entry.y));
  }
  var m = 4u;
  for (var j = 0u; j < 4u; j++) {
    let a = hullVertexW(R, faceEntry(R, rFirst + j).x);
    let b = hullVertexW(R, faceEntry(R, rFirst + select(j + 1u, 0u, j + 1u == 4u)).x);
    let s = cross(b - a, n);
    let off = dot(s, a);
    let slack = sideSlack3D(s, scale);
    var out: array<vec4u, BOX_CLIP_POINTS_3D>;
    var o = 0u;
    // Point k is always poly[0]: the polygon shifts down one slot per step (the compiler does not
    // unroll this loop, and a read at index k would be a per-lane gather).
    let first = poly[0];
    for (var k = 0u; k < BOX_CLIP_POINTS_3D; k++) {
      let cur = poly[0];
      let next = select(poly[1], first, k + 1u == m);
      for (var i = 0u; i + 1u < BOX_CLIP_POINTS_3D; i++) {
        poly[i] = poly[i + 1u];
      }
      let p0 = bitcast<vec3f>(cur.xyz);
      let q0 = bitcast<vec3f>(next.xyz);
      let dp = dot(s, p0) - off;
      let dq = dot(s, q0) - off;
      let live = k < m;
      let keep = live && dp <= slack;
      let cross1 = live && crossesSide3D(dp, dq, slack) && (m > 2u || k == 0u);
      // The crossing point (as clipPolygonToPlane3D computes it).
      let t = dp / (dp - dq);
      let feat = cur.w;
      let kept = clipPoint3D(sideClamp3D(p0, s, dp), bandFeature3D(feat, dp, dq, slack, j));
      let xp = clipPoint3D(p0 + t * (q0 - p0), crossingFeature3D(R, rFirst, 4u, j, incFace, feat, dp < 0.0));
      let o1 = o + select(0u, 1u, keep);
      for (var u = 0u; u < BOX_CLIP_POINTS_3D; u++) {
        if (keep && u == o) { out[u] = kept; }
        if (cross1 && u == o1) { out[u] = xp; }
      }
      o = o1 + select(0u, 1u, cross1);
    }
    if (o > BOX_CLIP_POINTS_3D) { return BOX_CLIP_POINTS_3D + 1u; }
    poly = out;
    m = o;
  }
  for (var k = 0u; k < BOX_CLIP_POINTS_3D; k++) {
    clipBuffer[k] = poly[k];
  }
  return m;
}

// The reference plane of face f of hull R in the working frame: normal xyz, offset w.
fn planeW3D(R: Hull3D, f: u32) -> vec4f {
  let pl = hullPlane(R, f);
  let n = R.rot * pl.xyz;
  return vec4f(n, pl.w + dot(n, R.pos));
}

// Face contact: clips face incFace of hull I against the side planes of reference face refFace of
// hull R, keeps points below the reference plane + margin and reduces them to 4. `refIsA` says
// whether R is body A. Returns the number of points written.
fn clipFaceContact3D(R: Hull3D, refFace: u32, I: Hull3D, incFace: u32, refIsA: bool, margin: f32, scale: f32) -> u32 {
  let plane = planeW3D(R, refFace);
  let n = plane.xyz;
  let nd = plane.w;
  var m = BOX_CLIP_POINTS_3D + 1u;
  // The polygon's half of clipBuffer: first (0) or second (CLASS_CLIP_POINTS_3D).
  var at = 0u;
  if (CLASS_BOXES_ONLY_3D || (CLASS_BOX_PAIRS_3D && R.isBox && I.isBox)) {
    m = clipBoxPolygon3D(R, refFace, I, incFace, n, scale);
  }
  if (m > BOX_CLIP_POINTS_3D) {
    if (!CLASS_RARE_STEPS_3D) {
      // Rounding overflowed the register-held clip: the closest pass clips the general way.
      closestAsk.redo = true;
      return 0u;
    }
    // Incident polygon (working frame) into the first half.
    let inc = hullFace(I, incFace);
    m = inc.y;
    for (var k = 0u; k < MAX_FACE_VERTICES; k++) {
      if (k >= m) { break; }
      let entry = faceEntry(I, inc.x + k);
      clipBuffer[k] = clipPoint3D(hullVertexW(I, entry.x), clipFeature3D(FEATURE_FACE_3D + refFace, FEATURE_VERTEX_3D + entry.x, NO_SIDE_3D, FEATURE_EDGE_3D + entry.y));
    }
    // Sutherland–Hodgman against each side plane of the reference face, ping-ponging the halves.
    let refLoop = hullFace(R, refFace);
    let rFirst = refLoop.x;
    let rSize = refLoop.y;
    for (var j = 0u; j < MAX_FACE_VERTICES; j++) {
      if (j >= rSize || m == 0u) { break; }
      let a = hullVertexW(R, faceEntry(R, rFirst + j).x);
      let b = hullVertexW(R, faceEntry(R, rFirst + select(j + 1u, 0u, j + 1u == rSize)).x);
      // Outward side normal: edge × n (counter-clockwise face).
      let s = cross(b - a, n);
      let off = dot(s, a);
      let slack = sideSlack3D(s, scale);
      let next = CLASS_CLIP_POINTS_3D - at;
      m = clipPolygonToPlane3D(at, next, m, s, off, slack, R, rFirst, rSize, j, incFace);
      at = next;
    }
  }
  // Keep points below the reference plane + margin, moved midway to it.
  var count = 0u;
  for (var k = 0u; k < CLASS_CLIP_POINTS_3D; k++) {
    if (k >= m) { break; }
    let c = clipBuffer[at + k];
    let p = bitcast<vec3f>(c.xyz);
    let feat = c.w;
    let sep = dot(n, p) - nd;
    if (sep > margin) { continue; }
    cand[count] = vec4f(p - 0.5 * sep * n, sep);
    let rf = feat & 0xffu;
    let inf = (feat >> 8u) & 0xffu;
    candId[count] = select(makeId3D(inf, rf), makeId3D(rf, inf), refIsA);
    count++;
  }
  lm.kind = select(CONTACT_FACE_B_3D, CONTACT_FACE_A_3D, refIsA);
  setNormal3D(select(-n, n, refIsA));
  if (count == 0u) { return 0u; }
  return reduceManifold3D(count, n, scale);
}

// Last resort of a face contact whose clipping left nothing: vertex bi of I, the deepest along -n
// (deepestVertex3D), projected midway to the reference plane. When the hulls are apart along n
// and the vertex does not project into the reference face, returns true: the hulls' closest
// points make the contact (collideHulls3D).
fn vertexContact3D(R: Hull3D, refFace: u32, I: Hull3D, bi: u32, refIsA: bool, margin: f32) -> bool {
  let plane = planeW3D(R, refFace);
  let n = plane.xyz;
  let x = hullVertexW(I, bi);
  let s = dot(n, x) - plane.w;
  if (s > margin) { return false; }
  if (s > 0.0 && farthestOutsideSide3D(R, refFace, n, x) >= 0) { return true; }
  let v = FEATURE_VERTEX_3D + bi;
  let f = FEATURE_FACE_3D + refFace;
  pushPoint3D(x - 0.5 * s * n, s, select(makeId3D(v, f), makeId3D(f, v), refIsA));
  return false;
}

// Loop vertex k of face f of h, in the working frame.
fn faceVertexW3D(h: Hull3D, f: u32, k: u32) -> vec3f {
  return hullVertexW(h, faceEntry(h, hullFace(h, f).x + k).x);
}

// The side of face f of h (outward normal n) that point x lies farthest outside of (its distance
// to the side plane, edge × n), or -1 when x lies over the face (see the CPU file). Side j runs
// from loop vertex j to j + 1: each vertex is read once, the end of one side carried to the next.
fn farthestOutsideSide3D(h: Hull3D, f: u32, n: vec3f, x: vec3f) -> i32 {
  let size = hullFace(h, f).y;
  var worst = 0.0;
  var side = -1;
  let first = faceVertexW3D(h, f, 0u);
  var a = first;
  for (var j = 0u; j < MAX_FACE_VERTICES; j++) {
    if (j >= size) { break; }
    var b = first;
    if (j + 1u < size) { b = faceVertexW3D(h, f, j + 1u); }
    let s = cross(b - a, n);
    let outside = dot(s, x - a) / sqrt(dot(s, s));
    if (outside > worst) {
      worst = outside;
      side = i32(j);
    }
    a = b;
  }
  return side;
}
