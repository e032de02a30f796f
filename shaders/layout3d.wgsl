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
  id: u32,                                             // feature id (see the header)
}

struct Manifold3D {
  normal: vec3f,                                       // world, unit, from A to B
  count: u32,                                          // points used, 0..MAX_MANIFOLD_POINTS_3D
  kind: u32,                                           // CONTACT_KIND_3D of src/cpu/collide3d.ts
  points: array<ManifoldPoint3D, MAX_MANIFOLD_POINTS_3D>, // the first `count` are used
}

struct Params3D {
  pairCount: u32,
  margin: f32,                                         // speculative distance, scene units
  rowPitch: u32,                                       // invocations per dispatch row (2D dispatch for > 65535 groups)
  first: u32,                                          // class kernels: the class's first entry of classPairs
}
