// The local manifold, transforms, quaternions, hull access and feature ids of the 3D narrowphase
// (GPU mirror of src/cpu/manifold3d.ts, function for function).
//
// Frames: a pair is solved in the shape frame of its first (most complex) shape X, origin at X's
// centre. Each shape of the pair is a Hull3D: its offsets into the packed hull buffers and the
// rigid transform of its shape frame into that working frame (identity for X).
//
// Reads the hull buffers declared by the kernel module (shaders/narrowphase3d.wgsl):
// shapes, hullVertices, hullPlanes, hullFaces, hullIndices.

// Where a body is: position and unit quaternion [x, y, z, w].
struct Transform3D {
  position: vec3f,
  rotation: vec4f,
}

// A rigid transform: p' = rot * p + pos.
struct RigidTransform3D {
  rot: mat3x3f,
  pos: vec3f,
}

// A shape of the pair placed in the working frame.
struct Hull3D {
  rot: mat3x3f,                                        // shape frame -> working frame
  pos: vec3f,
  shape: u32,
  vertexOffset: u32,
  faceOffset: u32,
  indexOffset: u32,
  edgeOffset: u32,
  vertexCount: u32,
  faceCount: u32,
  edgeCount: u32,
  radius: f32,
  isBox: bool,                                         // a box: features computed from `half`
  half: vec3f,                                         // a box's half extents (its vertex 7)
  inradius: f32,                                       // Shape3D.inradius
}

// The local manifold in the working frame; separations are negated depths.
struct LocalManifold3D {
  normal: vec3f,
  count: u32,
  kind: u32,
  positions: array<vec3f, MAX_MANIFOLD_POINTS_3D>,
  separations: array<f32, MAX_MANIFOLD_POINTS_3D>,
  ids: array<u32, MAX_MANIFOLD_POINTS_3D>,
}

var<private> lm: LocalManifold3D;

// X's rotation and centre in world space (set by relativePose3D).
struct WorkingFrame3D {
  rot: mat3x3f,
  origin: vec3f,
}

var<private> workingFrame: WorkingFrame3D;

// The pair class a pipeline is compiled for: the CLASS_*_3D constants, prepended by the host
// (src/gpu/pair-classes3d.ts; no CPU counterpart). Conditions on them are constant, so the
// compiler drops the paths and private arrays a class never reaches: the box–box class knows every
// hull is a box (CLASS_BOXES_ONLY_3D), the hull–hull class that no pair is two boxes.

// ---- hull access (packed layout: shaders/layout3d.wgsl) -------------------------------------
//
// Every box has the one topology of src/box3d.ts: its vertices, planes, face loops and edges are
// computed from its half extents (bit-identical to the packed data) instead of read from memory,
// in the kernels where boxes meet boxes (CLASS_BOX_FEATURES_3D). The other classes read a box's
// features from memory like a hull's (the same bits): every access site then holds one path,
// which is what the driver compiles.

fn makeHull3D(index: u32, kind: u32) -> Hull3D {
  // Only the fields a shape uses are read (each storage read at a per-lane address is costly on
  // SIMD backends): a box's counts are its topology's and its features come from `half`, where the
  // class computes box features; elsewhere a box is read as a hull and keeps `half` and isBox for
  // its support function (faceSeparation3D).
  let isBox = CLASS_BOXES_ONLY_3D || kind == SHAPE_KIND_BOX;
  let vertexOffset = shapes[index].vertexOffset;
  var h = Hull3D(mat3x3f(vec3f(1.0, 0.0, 0.0), vec3f(0.0, 1.0, 0.0), vec3f(0.0, 0.0, 1.0)), vec3f(0.0), index,
    vertexOffset, 0u, 0u, 0u, BOX_VERTEX_COUNT_3D, BOX_FACE_COUNT_3D, BOX_EDGE_COUNT_3D, 0.0, true, vec3f(0.0), 0.0);
  if (isBox) {
    h.half = hullVertices[vertexOffset + 7u].xyz;
    h.inradius = shapes[index].inradius;
  }
  if (!isBox || !CLASS_BOX_FEATURES_3D) {
    h.isBox = isBox;
    h.faceOffset = shapes[index].faceOffset;
    h.indexOffset = shapes[index].indexOffset;
    h.edgeOffset = shapes[index].edgeOffset;
    h.vertexCount = shapes[index].vertexCount;
    h.faceCount = shapes[index].faceCount;
    h.edgeCount = shapes[index].edgeCount;
    h.radius = shapes[index].radius;
    h.inradius = shapes[index].inradius;
  }
  return h;
}

// The two shapes of a pair, 2, as a loop bound the compiler cannot see (a shape's index is below
// 2^32 - 1; a box's vertex count is a constant in the box classes, and a bound from it folds): a
// loop over both shapes to the constant 2 is unrolled into a copy of its body per shape, where the
// loop is there to make one call site of what it calls. No CPU counterpart.
fn pairSides3D(h: Hull3D) -> u32 {
  return select(1u, 2u, h.shape != 0xffffffffu);
}

// `a` when `first`, else `b`: the CPU's `first ? a : b` (WGSL's select takes no structs). A value,
// not a variable: nothing to hold in memory.
fn pickHull3D(first: bool, a: Hull3D, b: Hull3D) -> Hull3D {
  if (first) { return a; }
  return b;
}

// Vertex i in the shape frame.
fn hullVertex(h: Hull3D, i: u32) -> vec3f {
  if (CLASS_BOX_FEATURES_3D && h.isBox) {
    return select(-h.half, h.half, vec3<bool>((i & 1u) != 0u, (i & 2u) != 0u, (i & 4u) != 0u));
  }
  return hullVertices[h.vertexOffset + i].xyz;
}

// Vertex i in the working frame.
fn hullVertexW(h: Hull3D, i: u32) -> vec3f {
  return h.rot * hullVertex(h, i) + h.pos;
}

// Face plane f in the shape frame: outward unit normal xyz, offset w.
fn hullPlane(h: Hull3D, f: u32) -> vec4f {
  if (CLASS_BOX_FEATURES_3D && h.isBox) {
    let axis = f >> 1u;
    let s = select(-1.0, 1.0, (f & 1u) != 0u);
    let n = vec3f(select(0.0, s, axis == 0u), select(0.0, s, axis == 1u), select(0.0, s, axis == 2u));
    return vec4f(n, select(select(h.half.z, h.half.y, axis == 1u), h.half.x, axis == 0u));
  }
  return hullPlanes[h.faceOffset + f];
}

// Face f: (first entry in the face-vertex list, vertex count).
fn hullFace(h: Hull3D, f: u32) -> vec2u {
  if (CLASS_BOX_FEATURES_3D && h.isBox) {
    return vec2u(4u * f, 4u);
  }
  let w = hullFaces[h.faceOffset + f];
  return vec2u(w & 0xffffu, w >> 16u);
}

// Word i (0..5) of a box topology table.
fn boxWord3D(c0: u32, c1: u32, c2: u32, c3: u32, c4: u32, c5: u32, i: u32) -> u32 {
  return select(select(select(select(select(c5, c4, i == 4u), c3, i == 3u), c2, i == 2u), c1, i == 1u), c0, i == 0u);
}

// Entry k of the face-vertex list: (vertex, edge from it to the next face vertex).
fn faceEntry(h: Hull3D, k: u32) -> vec2u {
  if (CLASS_BOX_FEATURES_3D && h.isBox) {
    let w = boxWord3D(BOX_FACE_ENTRIES_0, BOX_FACE_ENTRIES_1, BOX_FACE_ENTRIES_2, BOX_FACE_ENTRIES_3, BOX_FACE_ENTRIES_4, BOX_FACE_ENTRIES_5, k >> 2u);
    let b = (w >> (8u * (k & 3u))) & 0xffu;
    return vec2u(b & 0xfu, b >> 4u);
  }
  let w = hullIndices[h.indexOffset + k];
  return vec2u(w & 0xffu, (w >> 8u) & 0xffu);
}

// Unique edge e: (v0, v1, f0, f1).
fn hullEdge(h: Hull3D, e: u32) -> vec4u {
  if (CLASS_BOX_FEATURES_3D && h.isBox) {
    let w = boxWord3D(BOX_EDGES_0, BOX_EDGES_1, BOX_EDGES_2, BOX_EDGES_3, BOX_EDGES_4, BOX_EDGES_5, e >> 1u);
    let b = (w >> (16u * (e & 1u))) & 0xffffu;
    return vec4u(b & 0xfu, (b >> 4u) & 0xfu, (b >> 8u) & 0xfu, b >> 12u);
  }
  let w = hullIndices[h.edgeOffset + e];
  return vec4u(w & 0xffu, (w >> 8u) & 0xffu, (w >> 16u) & 0xffu, w >> 24u);
}

// ---- local manifold ----------------------------------------------------------------------------

fn resetLocalManifold3D() {
  lm.count = 0u;
  lm.kind = CONTACT_NONE_3D;
}

fn setNormal3D(n: vec3f) {
  lm.normal = n;
}

// The normal along the join d, of length dist, of two closest points; closer than
// CORE_DISTANCE_3D × scale, along the SAT axis f instead: the join of two points that (nearly)
// touch points anywhere, its direction the rounding of their coordinates.
fn setJoinNormal3D(d: vec3f, dist: f32, f: vec3f, scale: f32) {
  setNormal3D(select(f, d * (1.0 / dist), dist > CORE_DISTANCE_3D * scale));
}

// The smallest separation of the local manifold's points (F32_MAX_3D when it has none).
fn minSeparation3D() -> f32 {
  var lo = F32_MAX_3D;
  for (var k = 0u; k < MAX_MANIFOLD_POINTS_3D; k++) {
    if (k < lm.count) { lo = min(lo, lm.separations[k]); }
  }
  return lo;
}

fn pushPoint3D(p: vec3f, sep: f32, id: u32) {
  // Constant indices only (a select per slot): lm then lives in registers, where a write at a
  // per-lane index would be a per-lane scatter through memory on SIMD backends (lavapipe).
  let i = lm.count;
  for (var k = 0u; k < MAX_MANIFOLD_POINTS_3D; k++) {
    if (k == i) {
      lm.positions[k] = p;
      lm.separations[k] = sep;
      lm.ids[k] = id;
    }
  }
  lm.count = i + 1u;
}

// ---- ids ---------------------------------------------------------------------------------------

fn makeId3D(a: u32, b: u32) -> u32 {
  return ((a & 0xffu) << 8u) | (b & 0xffu);
}

fn swapId3D(id: u32) -> u32 {
  return ((id & 0xffu) << 8u) | ((id >> 8u) & 0xffu);
}

// Feature code of a point at parameter s along edge e (v0 -> v1) of a hull.
fn edgeFeature3D(h: Hull3D, e: u32, s: f32) -> u32 {
  let edge = hullEdge(h, e);
  if (s <= 0.0) { return FEATURE_VERTEX_3D + edge.x; }
  if (s >= 1.0) { return FEATURE_VERTEX_3D + edge.y; }
  return FEATURE_EDGE_3D + e;
}

// Feature code of a point at parameter s along a round shape's core (sphere: its point).
fn coreFeature3D(isSegment: bool, s: f32) -> u32 {
  if (!isSegment) { return FEATURE_VERTEX_3D; }
  if (s <= 0.0) { return FEATURE_VERTEX_3D; }
  if (s >= 1.0) { return FEATURE_VERTEX_3D + 1u; }
  return FEATURE_EDGE_3D;
}

// ---- transforms --------------------------------------------------------------------------------

// Rotation matrix of unit quaternion q = [x, y, z, w] (columns).
fn quatToMatrix3D(q: vec4f) -> mat3x3f {
  let x = q.x;
  let y = q.y;
  let z = q.z;
  let w = q.w;
  let xx = x * x;
  let yy = y * y;
  let zz = z * z;
  let xy = x * y;
  let xz = x * z;
  let yz = y * z;
  let wx = w * x;
  let wy = w * y;
  let wz = w * z;
  return mat3x3f(
    vec3f(1.0 - 2.0 * (yy + zz), 2.0 * (xy + wz), 2.0 * (xz - wy)),
    vec3f(2.0 * (xy - wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz + wx)),
    vec3f(2.0 * (xz + wy), 2.0 * (yz - wx), 1.0 - 2.0 * (xx + yy)),
  );
}

// The transform taking `src`'s shape frame into `dst`'s shape frame.
fn relativeTransform3D(src: Hull3D, dst: Hull3D) -> RigidTransform3D {
  let t = transpose(dst.rot);
  return RigidTransform3D(t * src.rot, t * (src.pos - dst.pos));
}

// Places shape Y (at xfY, centre cY) in the working frame of shape X (at xfX, centre cX): sets
// workingFrame and returns Y's transform. The centre offsets are rotated before the body
// positions are subtracted, so nearby bodies far from the origin keep their digits.
fn relativePose3D(cX: vec3f, xfX: Transform3D, cY: vec3f, xfY: Transform3D) -> RigidTransform3D {
  let rX = quatToMatrix3D(xfX.rotation);
  let rY = quatToMatrix3D(xfY.rotation);
  let ox = rX * cX;
  let oy = rY * cY;
  workingFrame = WorkingFrame3D(rX, xfX.position + ox);
  let d = xfY.position - xfX.position + (oy - ox);
  let t = transpose(rX);
  return RigidTransform3D(t * rY, t * d);
}

// Moves the local manifold into `out`, world space. `swap`: the pair was solved with the shapes
// exchanged; negate the normal, exchange the A/B face kinds and the id halves.
fn manifoldToWorld3D(out: ptr<function, Manifold3D>, swap: bool) -> u32 {
  let n = lm.count;
  let kind = lm.kind;
  (*out).count = n;
  var k = kind;
  if (n == 0u) {
    k = CONTACT_NONE_3D;
  } else if (swap && kind == CONTACT_FACE_A_3D) {
    k = CONTACT_FACE_B_3D;
  } else if (swap && kind == CONTACT_FACE_B_3D) {
    k = CONTACT_FACE_A_3D;
  }
  (*out).kind = k;
  if (n == 0u) { return 0u; }
  let sg = select(1.0, -1.0, swap);
  (*out).normal = sg * (workingFrame.rot * lm.normal);
  // Every slot written, unused ones zeroed, at constant indices (see pushPoint3D).
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    let used = i < n;
    let id = lm.ids[i];
    (*out).points[i] = ManifoldPoint3D(select(vec3f(0.0), workingFrame.origin + workingFrame.rot * lm.positions[i], used),
      select(0.0, -lm.separations[i], used));
    (*out).ids[i] = select(0u, select(id, swapId3D(id), swap), used);
  }
  return n;
}
