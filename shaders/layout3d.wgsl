// Buffer layouts of the 3D narrowphase: the one definition. The host reads every offset, size and
// stride from here through wgsl_reflect; nothing is copied by hand. Constants come from
// src/constants3d.ts (constants3dWgsl(), prepended).
//
// Conventions: lengths in scene units, right-handed, quaternions [x, y, z, w]. A manifold normal
// points from body A (pair.x) to body B (pair.y); depth > 0 is penetration, depth < 0 a
// speculative contact within the margin. Point ids are (feature of A) << 8 | (feature of B) with
// feature codes vertex v -> v, edge e -> FEATURE_EDGE_3D + e, face f -> FEATURE_FACE_3D + f.
//
// Hull data of all shapes lives in four flat buffers (WebGPU allows 8 storage buffers per stage):
//   hullVertices: array<vec4f>  xyz relative to the shape's centre, w unused
//   hullPlanes:   array<vec4f>  outward unit normal xyz, offset w (n . x = w on the face)
//   hullFaces:    array<u32>    per face: firstFaceVertex | size << 16 (size <= 32)
//   hullIndices:  array<u32>    per face vertex: vertex | edge << 8 (edge = face vertex i to i + 1);
//                               then per unique edge: v0 | v1 << 8 | f0 << 16 | f1 << 24
// Indices inside a hull are local; Shape3D holds each hull's offsets into the four buffers.

struct Shape3D {
  center: vec3f,                                       // shape-frame origin in the body frame
  kind: u32,                                           // SHAPE_KIND_HULL, _BOX, _SPHERE, _CAPSULE
  radius: f32,                                         // rounding radius (sphere, capsule), 0 for hulls
  extent: f32,                                         // size for relative tolerances
  vertexCount: u32,                                    // 1 sphere, 2 capsule, 4..MAX_HULL_VERTICES
  faceCount: u32,                                      // 0 for spheres and capsules
  edgeCount: u32,                                      // unique edges (capsule: 1, sphere: 0)
  vertexOffset: u32,                                   // into hullVertices
  faceOffset: u32,                                     // into hullPlanes and hullFaces
  indexOffset: u32,                                    // into hullIndices: face vertices first
  edgeOffset: u32,                                     // into hullIndices: the unique edges
  inradius: f32,                                       // hulls: centre to the nearest face plane; 0 otherwise
  categoryBits: u32,                                   // collision filter (src/filter.ts): the shape's categories
  maskBits: u32,                                       // the categories it collides with
}

// A rigid body: where its shape is.
struct Body3D {
  position: vec3f,                                     // world position of the body's origin
  shape: u32,                                          // index into the shapes buffer
  rotation: vec4f,                                     // unit quaternion [x, y, z, w]
}

struct ManifoldPoint3D {
  position: vec3f,                                     // world, midway between the two surfaces
  depth: f32,                                          // penetration along the normal
}

// The points' ids sit together after the points (as an anchor's do), so that no word is mostly
// padding: a manifold moves between buffers every frame (reuse, the dense list).
struct Manifold3D {
  normal: vec3f,                                       // world, unit, from A to B
  count: u32,                                          // points used, 0..MAX_MANIFOLD_POINTS_3D
  points: array<ManifoldPoint3D, MAX_MANIFOLD_POINTS_3D>, // the first `count` are used
  ids: array<u32, MAX_MANIFOLD_POINTS_3D>,             // point i's feature id (see the header)
  kind: u32,                                           // CONTACT_KIND_3D of src/cpu/collide3d.ts
}

// One point of an anchor: B's surface point in B's body frame and the depth when the anchor was
// built (A's surface point is then that point, in A's frame at the build pose, + normal × depth).
// A join contact (kind CONTACT_CLOSEST_3D: one point whose normal joins the closest core points)
// keeps its two core points instead: point 0 B's (B's frame) with B's radius as depth, point 1
// A's (A's frame) with A's radius.
struct AnchorPoint3D {
  local: vec3f,                                        // B's body frame
  depth: f32,                                          // depth when built
}

// What the next frames need to reuse a pair's manifold (src/cpu/reuse3d.ts, shaders/reuse3d.wgsl):
// one per pair slot, written after a full collide and carried unchanged while the pair is reused.
// Frames are the bodies' own (origin at Body3D.position).
struct Anchor3D {
  rotation: vec4f,                                     // B's rotation relative to A's, conj(qA) qB, when built
  translation: vec3f,                                  // B's origin in A's body frame when built
  bound: f32,                                          // count > 0: the margin built with; count 0: a lower bound of the separation along `normal`
  normal: vec3f,                                       // A's frame: the normal (count > 0) or a separating axis (count 0)
  countKind: u32,                                      // count | kind << 8 (kind: CONTACT_KIND_3D)
  points: array<AnchorPoint3D, MAX_MANIFOLD_POINTS_3D>, // the first `count` are used (a join contact: 2)
  ids: array<u32, MAX_MANIFOLD_POINTS_3D>,             // their feature ids, as the manifold's
  shapeA: u32,                                         // the bodies' shapes when built (a changed shape never reuses)
  shapeB: u32,
  scale: f32,                                          // the pair's length scale, min(extent A, extent B)
  reach: f32,                                          // B's farthest core point from its origin (the lever of its turns)
}

struct Params3D {
  pairCount: u32,
  margin: f32,                                         // speculative distance, scene units
  rowPitch: u32,                                       // invocations per dispatch row (2D dispatch for > 65535 groups)
  first: u32,                                          // class kernels: the class's first entry of classPairs
}
