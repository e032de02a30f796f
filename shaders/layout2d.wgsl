// Buffer layouts of the 2D narrowphase: the one definition. The host reads every offset, size and
// stride from here through wgsl_reflect (src/gpu/layout.ts); nothing is copied by hand.
//
// Conventions: lengths in scene units, right-handed, counter-clockwise polygons. A manifold normal
// points from body A (pair.x) to body B (pair.y); depth > 0 is penetration, depth < 0 a
// speculative contact within the margin.

// Every 2D shape is a rounded convex polygon: a circle has 1 vertex, a capsule 2 (its segment),
// a box 4 and a polygon 3 to 8. The rounding radius inflates the core polygon.
struct Shape2D {
  count: u32,                                          // core vertices, 1..8
  radius: f32,                                         // rounding radius, >= 0
  extent: f32,                                         // size for relative tolerances: max |vertex - centroid| + radius
  kind: u32,                                           // user type: 0 polygon, 1 box, 2 circle, 3 capsule
  vertices: array<vec2f, MAX_POLYGON_VERTICES>,        // local frame, counter-clockwise
  normals: array<vec2f, MAX_POLYGON_VERTICES>,         // outward unit normal of edge i (vertex i to i+1)
  categoryBits: u32,                                   // collision filter (src/filter.ts): the shape's categories
  maskBits: u32,                                       // the categories it collides with
}

// A rigid body: where its shape is. rotation = (cos angle, sin angle).
struct Body2D {
  position: vec2f,                                     // world position of the body's origin (its shape's local frame)
  rotation: vec2f,                                     // (cos angle, sin angle), angle counter-clockwise
  shape: u32,                                          // index into the shapes buffer
  flags: u32,                                          // reserved, 0
}

struct ManifoldPoint2D {
  position: vec2f,                                     // world, midway between the two surfaces
  depth: f32,                                          // penetration along the normal
  id: u32,                                             // feature id: (feature of A) << 8 | (feature of B)
}

struct Manifold2D {
  normal: vec2f,                                       // world, unit, from A to B
  count: u32,                                          // points used, 0..2
  flags: u32,                                          // reserved, 0
  points: array<ManifoldPoint2D, MAX_MANIFOLD_POINTS_2D>, // the first `count` are used
}

struct Params2D {
  pairCount: u32,
  margin: f32,                                         // speculative distance, scene units
  rowPitch: u32,                                       // invocations per dispatch row (2D dispatch for > 65535 groups)
  first: u32,                                          // class kernels: the class's first entry of classPairs
}
