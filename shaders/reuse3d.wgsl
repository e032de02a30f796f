// Manifold reuse between frames, 3D (GPU mirror of src/cpu/reuse3d.ts, function for function; the
// method is told in src/cpu/reuse2d.ts). reuse.wgsl follows with the kernels and uses the names
// this file gives: RuBody, RuAnchor, RuManifold, ruReuse, ruAnchor and the struct words
// (ruManifoldWords, ruAnchorWords, ruManifoldFromWords, ruAnchorPrev, RU_COUNT_WORD). Needs the
// 3D narrowphase files before it, up to collide3d.wgsl (hull access, the face query,
// deepestVertex3D, isHull3D; the kernels call no collide function, so their code is not compiled
// in), and manifold-words3d.wgsl. The hull buffers are declared for manifold3d.wgsl's accessors;
// the anchor kernel reads shapes, hullVertices and hullPlanes only.

@group(0) @binding(9) var<storage, read> shapes: array<Shape3D>;
@group(0) @binding(10) var<storage, read> hullVertices: array<vec4f>;
@group(0) @binding(11) var<storage, read> hullPlanes: array<vec4f>;
@group(0) @binding(12) var<storage, read> hullFaces: array<u32>;
@group(0) @binding(13) var<storage, read> hullIndices: array<u32>;

alias RuBody = Body3D;
alias RuAnchor = Anchor3D;
alias RuManifold = Manifold3D;

// B's pose in A's body frame: rotation conj(qA) qB, translation R_Aᵀ (pB − pA); and R_A.
struct BodyPose3D {
  rotation: vec4f,
  translation: vec3f,
  rotA: mat3x3f,
}

// a ⊗ b for quaternions [x, y, z, w].
fn quatMul3D(a: vec4f, b: vec4f) -> vec4f {
  return vec4f(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz));
}

fn bodyPose3D(xfA: Transform3D, xfB: Transform3D) -> BodyPose3D {
  let rA = quatToMatrix3D(xfA.rotation);
  let q = quatMul3D(vec4f(-xfA.rotation.xyz, xfA.rotation.w), xfB.rotation);
  return BodyPose3D(q, transpose(rA) * (xfB.position - xfA.position), rA);
}

// B's farthest core point from B's origin (at most): |centre| + extent.
fn reach3D(index: u32) -> f32 {
  let c = shapes[index].center;
  return sqrt(dot(c, c)) + shapes[index].extent;
}

// Largest projection on unit u (working frame) of hull h's rounded surface.
fn supportAlong3D(h: Hull3D, u: vec3f) -> f32 {
  return dot(u, hullVertexW(h, deepestVertex3D(h, -u))) + h.radius;
}

// A separating axis of shapes A at xfA and B at xfB (A's frame) and the separation of the rounded
// shapes along it (w): the best of A's face normals, B's face normals (the narrowphase's face
// query) and the line of the shape centres, each exact along its axis.
fn separatingAxis3D(shapeA: u32, xfA: Transform3D, shapeB: u32, xfB: Transform3D, scale: f32) -> vec4f {
  let kindA = shapes[shapeA].kind;
  let kindB = shapes[shapeB].kind;
  let hA = makeHull3D(shapeA, kindA);
  var hB = makeHull3D(shapeB, kindB);
  let pose = relativePose3D(shapes[shapeA].center, xfA, shapes[shapeB].center, xfB);
  hB.rot = pose.rot;
  hB.pos = pose.pos;
  let radius = hA.radius + hB.radius;
  var best = -F32_MAX_3D;
  var axis = vec3f(0.0);
  // A's faces against B (side 0), then B's against A (side 1), the sides of hulls alone: one call
  // site in a loop to bounds known at run time (a call per side, or a loop of two known steps,
  // which the compiler unrolls, is a copy of the face query in the kernel).
  let last = select(1u, 2u, isHull3D(kindB));
  for (var side = select(1u, 0u, isHull3D(kindA)); side < last; side++) {
    let R = pickHull3D(side == 0u, hA, hB);
    let q = queryFaceDirections3D(R, pickHull3D(side == 0u, hB, hA), F32_MAX_3D, scale);
    if (q.separation - radius > best) {
      best = q.separation - radius;
      let n = hullPlane(R, q.face).xyz;
      axis = select(-(R.rot * n), n, side == 0u);
    }
  }
  let len = sqrt(dot(hB.pos, hB.pos));
  if (len > 0.0) {
    let u = hB.pos / len;
    // Radii are in the supports.
    let s = -supportAlong3D(hB, -u) - supportAlong3D(hA, u);
    if (s > best) {
      best = s;
      axis = u;
    }
  }
  return vec4f(axis, best);
}

// The anchor of manifold m (world space, as the narrowphase wrote it for shapes[shapeA] at xfA and
// shapes[shapeB] at xfB with `margin`).
fn anchorFromManifold3D(shapeA: u32, xfA: Transform3D, shapeB: u32, xfB: Transform3D, m: Manifold3D, margin: f32) -> Anchor3D {
  let pose = bodyPose3D(xfA, xfB);
  let extentA = shapes[shapeA].extent;
  let extentB = shapes[shapeB].extent;
  var a: Anchor3D;
  a.rotation = pose.rotation;
  a.translation = pose.translation;
  a.shapeA = shapeA;
  a.shapeB = shapeB;
  a.scale = min(extentA, extentB);
  a.reach = reach3D(shapeB);
  a.countKind = m.count | (m.kind << 8u);
  if (m.count == 0u) {
    let w = separatingAxis3D(shapeA, xfA, shapeB, xfB, a.scale);
    a.normal = w.xyz;
    a.bound = w.w - REUSE_APART_SLACK_3D * (extentA + extentB);
    return a;
  }
  a.bound = margin;
  let rT = transpose(pose.rotA);
  let n = rT * m.normal;
  a.normal = n;
  let r0 = quatToMatrix3D(pose.rotation);
  let r0T = transpose(r0);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    if (i < m.count) {
      let p = m.points[i];
      // B's surface point, A's frame (world offsets first: they are the large numbers).
      let x = rT * ((p.position - xfA.position) - 0.5 * p.depth * m.normal) - pose.translation;
      a.points[i] = AnchorPoint3D(r0T * x, p.depth);
      a.ids[i] = m.ids[i];
    }
  }
  if (m.kind == CONTACT_CLOSEST_3D) {
    // The core points: B's surface point + rB n (B's frame), A's surface point − rA n (A's frame).
    let rA = shapes[shapeA].radius;
    let rB = shapes[shapeB].radius;
    let l = a.points[0].local;
    a.points[1] = AnchorPoint3D(r0 * l + pose.translation + (m.points[0].depth - rA) * n, rA);
    a.points[0] = AnchorPoint3D(l + rB * (r0T * n), rB);
  }
  return a;
}

// A join contact at the current pose (B's rotation and origin in A's frame: rot, t).
fn reuseJoin3D(a: Anchor3D, rot: mat3x3f, t: vec3f, rotA: mat3x3f, xfA: Transform3D, margin: f32, out: ptr<function, Manifold3D>) -> u32 {
  let d = rot * a.points[0].local + t - a.points[1].local;
  let dist = sqrt(dot(d, d));
  if (!(dist > CORE_DISTANCE_3D * a.scale)) { return REUSE_COLLIDE; }
  let n = d / dist;
  let rB = a.points[0].depth;
  let rA = a.points[1].depth;
  let depth = rA + rB - dist;
  let e = n - a.normal;
  if (sqrt(dot(e, e)) > REUSE_ROTATION_3D || depth < -margin) { return REUSE_COLLIDE; }
  let k = 0.5 * (rA - rB + dist);
  let p = a.points[1].local + k * n;
  var m: Manifold3D;
  m.count = 1u;
  m.kind = CONTACT_CLOSEST_3D;
  m.normal = rotA * n;
  m.points[0] = ManifoldPoint3D(xfA.position + rotA * p, depth);
  m.ids[0] = a.ids[0];
  *out = m;
  return REUSE_KEPT;
}

// Reuses anchor a at the current poses: writes the manifold into out (world space) and returns
// REUSE_KEPT, or REUSE_APART (out empty), or REUSE_COLLIDE (out untouched).
fn reuseManifold3D(a: Anchor3D, shapeA: u32, xfA: Transform3D, shapeB: u32, xfB: Transform3D, margin: f32, out: ptr<function, Manifold3D>) -> u32 {
  if (shapeA != a.shapeA || shapeB != a.shapeB) { return REUSE_COLLIDE; }
  let pose = bodyPose3D(xfA, xfB);
  let dt = pose.translation - a.translation;
  let moved = sqrt(dot(dt, dt));
  // The turn since the build: q1 conj(q0), whose vector part is sin(θ/2) long.
  let dq = quatMul3D(pose.rotation, vec4f(-a.rotation.xyz, a.rotation.w));
  let turned = 2.0 * sqrt(dot(dq.xyz, dq.xyz));
  let count = a.countKind & 0xffu;
  let kind = a.countKind >> 8u;
  if (count == 0u) {
    if (a.bound - (moved + turned * a.reach) > margin) {
      *out = Manifold3D();
      return REUSE_APART;
    }
    return REUSE_COLLIDE;
  }
  if (a.bound != margin || moved > REUSE_TRANSLATION_3D * a.scale || turned > REUSE_ROTATION_3D) { return REUSE_COLLIDE; }
  let r1 = quatToMatrix3D(pose.rotation);
  if (kind == CONTACT_CLOSEST_3D) { return reuseJoin3D(a, r1, pose.translation, pose.rotA, xfA, margin, out); }
  let r0 = quatToMatrix3D(a.rotation);
  let dr = r1 - r0;
  let n = a.normal;
  var m: Manifold3D;
  var kept = 0u;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    let p = a.points[i];
    // How far B's point moved, A's frame.
    let delta = dr * p.local + dt;
    let dn = dot(delta, n);
    let depth = p.depth - dn;
    let s = delta - dn * n;
    let slide = sqrt(dot(s, s));
    if (i < count && depth >= -margin && slide <= REUSE_SLIDE_3D * a.scale) {
      // Midway between A's surface point (built pose + normal × depth) and B's moved one.
      let mid = r0 * p.local + a.translation + 0.5 * (n * p.depth + delta);
      let point = ManifoldPoint3D(xfA.position + pose.rotA * mid, depth);
      // Constant indices (registers, not a per-lane scatter).
      for (var j = 0u; j < MAX_MANIFOLD_POINTS_3D; j++) {
        if (j == kept) {
          m.points[j] = point;
          m.ids[j] = a.ids[i];
        }
      }
      kept++;
    }
  }
  if (kept == 0u) { return REUSE_COLLIDE; }
  m.count = kept;
  m.kind = kind;
  m.normal = pose.rotA * n;
  *out = m;
  return REUSE_KEPT;
}

// The kernels' calls (reuse.wgsl).
fn ruReuse(a: Anchor3D, bodyA: Body3D, bodyB: Body3D, margin: f32, out: ptr<function, Manifold3D>) -> u32 {
  return reuseManifold3D(a, bodyA.shape, Transform3D(bodyA.position, bodyA.rotation), bodyB.shape, Transform3D(bodyB.position, bodyB.rotation), margin, out);
}

fn ruAnchor(bodyA: Body3D, bodyB: Body3D, m: Manifold3D, margin: f32) -> Anchor3D {
  return anchorFromManifold3D(bodyA.shape, Transform3D(bodyA.position, bodyA.rotation), bodyB.shape, Transform3D(bodyB.position, bodyB.rotation), m, margin);
}

// Manifold3D and Anchor3D as 16-byte words, in their storage layout (layout3d.wgsl): the first
// RU_MANIFOLD_WORDS or RU_ANCHOR_WORDS of an array as long as the longer (RU_STAGE_WORDS),
// padding zero.
const RU_MANIFOLD_WORDS: u32 = MANIFOLD_WORDS_3D;
const RU_ANCHOR_WORDS: u32 = 9u;
const RU_STAGE_WORDS: u32 = 9u;
const RU_COUNT_WORD: u32 = 2u;                         // the word whose w is countKind

fn ruManifoldWords(m: Manifold3D) -> array<vec4u, RU_STAGE_WORDS> {
  let mw = manifoldWords3D(m);
  var w: array<vec4u, RU_STAGE_WORDS>;
  for (var i = 0u; i < RU_MANIFOLD_WORDS; i++) { w[i] = mw[i]; }
  return w;
}

fn ruManifoldFromWords(w: array<vec4u, RU_MANIFOLD_WORDS>) -> Manifold3D {
  return manifoldFromWords3D(w);
}

// Last frame's anchor of slot p, read as its words; `marked`: whether it carries ANCHOR_TWIN.
// An anchor without points (a pair apart) has zero point words: they are not read.
fn ruAnchorPrev(p: u32, marked: ptr<function, bool>) -> Anchor3D {
  let b = p * RU_ANCHOR_WORDS;
  var a: Anchor3D;
  a.rotation = bitcast<vec4f>(ruAnchorsPrev[b]);
  let w1 = ruAnchorsPrev[b + 1u];
  a.translation = bitcast<vec3f>(w1.xyz);
  a.bound = bitcast<f32>(w1.w);
  let w2 = ruAnchorsPrev[b + 2u];
  a.normal = bitcast<vec3f>(w2.xyz);
  a.countKind = w2.w & ~ANCHOR_TWIN;
  *marked = (w2.w & ANCHOR_TWIN) != 0u;
  if ((a.countKind & 0xffu) != 0u) {
    let ids = ruAnchorsPrev[b + 7u];
    for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
      let q = ruAnchorsPrev[b + 3u + i];
      a.points[i] = AnchorPoint3D(bitcast<vec3f>(q.xyz), bitcast<f32>(q.w));
      a.ids[i] = ids[i];
    }
  }
  let w8 = ruAnchorsPrev[b + 8u];
  a.shapeA = w8.x;
  a.shapeB = w8.y;
  a.scale = bitcast<f32>(w8.z);
  a.reach = bitcast<f32>(w8.w);
  return a;
}

fn ruAnchorWords(a: Anchor3D) -> array<vec4u, RU_STAGE_WORDS> {
  var w: array<vec4u, RU_STAGE_WORDS>;
  w[0] = bitcast<vec4u>(a.rotation);
  w[1] = vec4u(bitcast<vec3u>(a.translation), bitcast<u32>(a.bound));
  w[2] = vec4u(bitcast<vec3u>(a.normal), a.countKind);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    w[3u + i] = vec4u(bitcast<vec3u>(a.points[i].local), bitcast<u32>(a.points[i].depth));
  }
  w[7] = vec4u(a.ids[0], a.ids[1], a.ids[2], a.ids[3]);
  w[8] = vec4u(a.shapeA, a.shapeB, bitcast<u32>(a.scale), bitcast<u32>(a.reach));
  return w;
}
