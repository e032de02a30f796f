// Manifold reuse between frames, 2D (GPU mirror of src/cpu/reuse2d.ts, function for function; the
// method is told there). reuse.wgsl follows with the kernels and uses the names this file gives:
// RuBody, RuAnchor, RuManifold, ruReuse, ruAnchor and the struct words (ruManifoldWords,
// ruAnchorWords, ruManifoldFromWords, ruAnchorPrev, RU_COUNT_WORD). Needs the 2D narrowphase files
// before it (layout2d, manifold2d, sat2d, distance2d, clip2d, collide2d: the face query and the
// private shapes localA, localB of separatingAxis2D) and manifold-words2d.wgsl.

@group(0) @binding(9) var<storage, read> shapes: array<Shape2D>;

alias RuBody = Body2D;
alias RuAnchor = Anchor2D;
alias RuManifold = Manifold2D;

// Largest projection of a polygon's core vertices on d.
fn maxProjection2D(poly: ptr<private, Shape2D>, d: vec2f) -> f32 {
  var best = -F32_MAX;
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= (*poly).count) { break; }
    best = max(best, dot(d, (*poly).vertices[i]));
  }
  return best;
}

// B's farthest core vertex from B's origin: how far a turn of B about its origin can move its
// surface, per radian.
fn reach2D(index: u32) -> f32 {
  let count = shapes[index].count;
  var r2 = 0.0;
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= count) { break; }
    let v = shapes[index].vertices[i];
    r2 = max(r2, dot(v, v));
  }
  return sqrt(r2);
}

// Whether p (the shape's frame) lies within tol of one of its core vertices.
fn isCoreVertex2D(index: u32, p: vec2f, tol: f32) -> bool {
  let count = shapes[index].count;
  var hit = false;
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= count) { break; }
    let d = p - shapes[index].vertices[i];
    hit = hit || dot(d, d) <= tol * tol;
  }
  return hit;
}

// A separating axis of shape A (at identity) and shape B at xf (A's frame), and the separation of
// the rounded shapes along it (z): the best of A's face normals, B's face normals and the line of
// the vertex centroids, each exact along its axis.
fn separatingAxis2D(shapeA: u32, shapeB: u32, xf: Transform2D) -> vec3f {
  transformShape(shapeA, IDENTITY_2D, vec2f(0.0), &localA);
  transformShape(shapeB, xf, vec2f(0.0), &localB);
  let radius = localA.radius + localB.radius;
  var best = -F32_MAX;
  var axis = vec2f(0.0);
  if (localA.count > 1u) {
    let q = findMaxSeparation(&localA, &localB);
    if (q.separation - radius > best) {
      best = q.separation - radius;
      axis = localA.normals[q.edge];
    }
  }
  if (localB.count > 1u) {
    let q = findMaxSeparation(&localB, &localA);
    if (q.separation - radius > best) {
      best = q.separation - radius;
      axis = -localB.normals[q.edge];
    }
  }
  var d = vec2f(0.0);
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i < localB.count) { d += localB.vertices[i] / f32(localB.count); }
  }
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i < localA.count) { d -= localA.vertices[i] / f32(localA.count); }
  }
  let len = sqrt(dot(d, d));
  if (len > 0.0) {
    let u = d / len;
    let s = -maxProjection2D(&localB, -u) - maxProjection2D(&localA, u) - radius;
    if (s > best) {
      best = s;
      axis = u;
    }
  }
  return vec3f(axis, best);
}

// The anchor of manifold m (world space, as the narrowphase wrote it for shapes[shapeA] at xfA and
// shapes[shapeB] at xfB with `margin`).
fn anchorFromManifold2D(shapeA: u32, xfA: Transform2D, shapeB: u32, xfB: Transform2D, m: Manifold2D, margin: f32) -> Anchor2D {
  let pose = relativeTransform(xfA, vec2f(0.0), xfB);
  let extentA = shapes[shapeA].extent;
  let extentB = shapes[shapeB].extent;
  var a: Anchor2D;
  a.translation = pose.p;
  a.rotation = pose.q;
  a.shapeA = shapeA;
  a.shapeB = shapeB;
  a.scale = min(extentA, extentB);
  a.reach = reach2D(shapeB);
  a.countJoin = m.count;
  if (m.count == 0u) {
    let w = separatingAxis2D(shapeA, shapeB, pose);
    a.normal = w.xy;
    a.bound = w.z - REUSE_APART_SLACK * (extentA + extentB);
    return a;
  }
  a.bound = margin;
  // A's inverse rotation (world directions into A's frame), B's relative to A.
  let inv = vec2f(xfA.q.x, -xfA.q.y);
  let invPose = vec2f(pose.q.x, -pose.q.y);
  let n = rotate(inv, m.normal);
  a.normal = n;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < m.count) {
      let p = m.points[i];
      // B's surface point, A's frame (world offsets first: they are the large numbers).
      let x = rotate(inv, (p.position - xfA.p) - 0.5 * p.depth * m.normal) - pose.p;
      a.points[i] = AnchorPoint2D(rotate(invPose, x), p.depth, p.id);
    }
  }
  if (m.count == 1u) {
    // The core points: B's surface point + rB n (B's frame), A's surface point − rA n (A's frame).
    let rA = shapes[shapeA].radius;
    let rB = shapes[shapeB].radius;
    let l = a.points[0].local;
    let coreB = l + rB * rotate(invPose, n);
    let coreA = rotate(pose.q, l) + pose.p + (m.points[0].depth - rA) * n;
    let tol = CORE_SEPARATION * a.scale;
    // A's core point a vertex of A's core, then B's of B's: one call site (a loop to the constant 2
    // alone would be unrolled into two copies).
    var joins = true;
    for (var side = 0u; side < 2u && joins; side++) {
      joins = isCoreVertex2D(select(shapeA, shapeB, side == 1u), select(coreA, coreB, side == 1u), tol);
    }
    if (joins) {
      a.countJoin = 1u | ANCHOR_JOIN;
      a.points[0] = AnchorPoint2D(coreB, rB, a.points[0].id);
      a.points[1] = AnchorPoint2D(coreA, rA, 0u);
    }
  }
  return a;
}

// A join contact at the current pose (B's in A's frame: xf), as vertexContact makes it.
fn reuseJoin2D(a: Anchor2D, xf: Transform2D, xfA: Transform2D, margin: f32, out: ptr<function, Manifold2D>) -> u32 {
  let d = rotate(xf.q, a.points[0].local) + xf.p - a.points[1].local;
  let dist = sqrt(dot(d, d));
  if (!(dist > CORE_SEPARATION * a.scale)) { return REUSE_COLLIDE; }
  let n = d / dist;
  let rB = a.points[0].depth;
  let rA = a.points[1].depth;
  let depth = rA + rB - dist;
  let e = n - a.normal;
  if (sqrt(dot(e, e)) > REUSE_ROTATION || depth < -margin) { return REUSE_COLLIDE; }
  let k = 0.5 * (rA - rB + dist);
  let p = a.points[1].local + k * n;
  var m: Manifold2D;
  m.count = 1u;
  m.normal = rotate(xfA.q, n);
  m.points[0] = ManifoldPoint2D(xfA.p + rotate(xfA.q, p), depth, a.points[0].id);
  *out = m;
  return REUSE_KEPT;
}

// Reuses anchor a at the current poses: writes the manifold into out (world space) and returns
// REUSE_KEPT, or REUSE_APART (out empty), or REUSE_COLLIDE (out untouched).
fn reuseManifold2D(a: Anchor2D, shapeA: u32, xfA: Transform2D, shapeB: u32, xfB: Transform2D, margin: f32, out: ptr<function, Manifold2D>) -> u32 {
  if (shapeA != a.shapeA || shapeB != a.shapeB) { return REUSE_COLLIDE; }
  let pose = relativeTransform(xfA, vec2f(0.0), xfB);
  let dt = pose.p - a.translation;
  // The rotation's change as a complex number: (R1 − R0) v = dq ⊗ v, and |dq| = 2 sin(θ/2).
  let dq = pose.q - a.rotation;
  let moved = sqrt(dot(dt, dt));
  let turned = sqrt(dot(dq, dq));
  let count = a.countJoin & 0xffu;
  if (count == 0u) {
    if (a.bound - (moved + turned * a.reach) > margin) {
      *out = Manifold2D();
      return REUSE_APART;
    }
    return REUSE_COLLIDE;
  }
  if (a.bound != margin || moved > REUSE_TRANSLATION * a.scale || turned > REUSE_ROTATION) { return REUSE_COLLIDE; }
  if ((a.countJoin & ANCHOR_JOIN) != 0u) { return reuseJoin2D(a, pose, xfA, margin, out); }
  let n = a.normal;
  var m: Manifold2D;
  var kept = 0u;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    let p = a.points[i];
    // How far B's point moved, A's frame.
    let delta = rotate(dq, p.local) + dt;
    let depth = p.depth - dot(delta, n);
    let slide = abs(n.x * delta.y - n.y * delta.x);
    if (i < count && depth >= -margin && slide <= REUSE_SLIDE * a.scale) {
      // Midway between A's surface point (built pose + normal × depth) and B's moved one.
      let mid = rotate(a.rotation, p.local) + a.translation + 0.5 * (n * p.depth + delta);
      let point = ManifoldPoint2D(xfA.p + rotate(xfA.q, mid), depth, p.id);
      // Constant indices (registers, not a per-lane scatter).
      for (var j = 0u; j < MAX_MANIFOLD_POINTS_2D; j++) {
        if (j == kept) { m.points[j] = point; }
      }
      kept++;
    }
  }
  if (kept == 0u) { return REUSE_COLLIDE; }
  m.count = kept;
  m.normal = rotate(xfA.q, n);
  *out = m;
  return REUSE_KEPT;
}

// The kernels' calls (reuse.wgsl).
fn ruReuse(a: Anchor2D, bodyA: Body2D, bodyB: Body2D, margin: f32, out: ptr<function, Manifold2D>) -> u32 {
  return reuseManifold2D(a, bodyA.shape, Transform2D(bodyA.position, bodyA.rotation), bodyB.shape, Transform2D(bodyB.position, bodyB.rotation), margin, out);
}

fn ruAnchor(bodyA: Body2D, bodyB: Body2D, m: Manifold2D, margin: f32) -> Anchor2D {
  return anchorFromManifold2D(bodyA.shape, Transform2D(bodyA.position, bodyA.rotation), bodyB.shape, Transform2D(bodyB.position, bodyB.rotation), m, margin);
}

// Manifold2D and Anchor2D as 16-byte words, in their storage layout (layout2d.wgsl): the first
// RU_MANIFOLD_WORDS or RU_ANCHOR_WORDS of an array as long as the longer (RU_STAGE_WORDS).
const RU_MANIFOLD_WORDS: u32 = MANIFOLD_WORDS_2D;
const RU_ANCHOR_WORDS: u32 = 5u;
const RU_STAGE_WORDS: u32 = 5u;
const RU_COUNT_WORD: u32 = 1u;                         // the word whose w is countJoin

fn ruManifoldWords(m: Manifold2D) -> array<vec4u, RU_STAGE_WORDS> {
  let mw = manifoldWords2D(m);
  var w: array<vec4u, RU_STAGE_WORDS>;
  for (var i = 0u; i < RU_MANIFOLD_WORDS; i++) { w[i] = mw[i]; }
  return w;
}

fn ruManifoldFromWords(w: array<vec4u, RU_MANIFOLD_WORDS>) -> Manifold2D {
  return manifoldFromWords2D(w);
}

// Last frame's anchor of slot p, read as its words; `marked`: whether it carries ANCHOR_TWIN.
fn ruAnchorPrev(p: u32, marked: ptr<function, bool>) -> Anchor2D {
  let b = p * RU_ANCHOR_WORDS;
  var a: Anchor2D;
  let w0 = ruAnchorsPrev[b];
  a.translation = bitcast<vec2f>(w0.xy);
  a.rotation = bitcast<vec2f>(w0.zw);
  let w1 = ruAnchorsPrev[b + 1u];
  a.normal = bitcast<vec2f>(w1.xy);
  a.bound = bitcast<f32>(w1.z);
  a.countJoin = w1.w & ~ANCHOR_TWIN;
  *marked = (w1.w & ANCHOR_TWIN) != 0u;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    let q = ruAnchorsPrev[b + 2u + i];
    a.points[i] = AnchorPoint2D(bitcast<vec2f>(q.xy), bitcast<f32>(q.z), q.w);
  }
  let w4 = ruAnchorsPrev[b + 4u];
  a.shapeA = w4.x;
  a.shapeB = w4.y;
  a.scale = bitcast<f32>(w4.z);
  a.reach = bitcast<f32>(w4.w);
  return a;
}

fn ruAnchorWords(a: Anchor2D) -> array<vec4u, RU_STAGE_WORDS> {
  var w: array<vec4u, RU_STAGE_WORDS>;
  w[0] = vec4u(bitcast<vec2u>(a.translation), bitcast<vec2u>(a.rotation));
  w[1] = vec4u(bitcast<vec2u>(a.normal), bitcast<u32>(a.bound), a.countJoin);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    let p = a.points[i];
    w[2u + i] = vec4u(bitcast<vec2u>(p.local), bitcast<u32>(p.depth), p.id);
  }
  w[4] = vec4u(a.shapeA, a.shapeB, bitcast<u32>(a.scale), bitcast<u32>(a.reach));
  return w;
}
