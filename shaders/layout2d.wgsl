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

// One point of an anchor: B's surface point in B's body frame and the depth when the anchor was
// built (A's surface point is then that point, in A's frame at the build pose, + normal × depth).
// A join contact (one point whose normal joins a core vertex of A to one of B: vertex–vertex,
// circles, capsule ends) keeps its two core vertices instead: point 0 B's (B's frame) with B's
// radius as depth, point 1 A's (A's frame) with A's radius.
struct AnchorPoint2D {
  local: vec2f,                                        // B's body frame
  depth: f32,                                          // depth when built
  id: u32,                                             // feature id, as the manifold's
}

// What the next frames need to reuse a pair's manifold (src/cpu/reuse2d.ts, shaders/reuse2d.wgsl):
// one per pair slot, written after a full collide and carried unchanged while the pair is reused.
// Frames are the bodies' own (origin at Body2D.position).
struct Anchor2D {
  translation: vec2f,                                  // B's origin in A's body frame when built
  rotation: vec2f,                                     // B's rotation relative to A's, (cos, sin), when built
  normal: vec2f,                                       // A's frame: the normal (count > 0) or a separating axis (count 0)
  bound: f32,                                          // count > 0: the margin built with; count 0: a lower bound of the separation along `normal`
  countJoin: u32,                                      // points (0..MAX_MANIFOLD_POINTS_2D) | ANCHOR_JOIN for a join contact
  points: array<AnchorPoint2D, MAX_MANIFOLD_POINTS_2D>, // the first `count` are used (a join contact: both)
  shapeA: u32,                                         // the bodies' shapes when built (a changed shape never reuses)
  shapeB: u32,
  scale: f32,                                          // the pair's length scale, min(extent A, extent B)
  reach: f32,                                          // B's farthest core vertex from its origin (the lever of its turns)
}

struct Params2D {
  pairCount: u32,
  margin: f32,                                         // speculative distance, scene units
  rowPitch: u32,                                       // invocations per dispatch row (2D dispatch for > 65535 groups)
  first: u32,                                          // class kernels: the class's first entry of classPairs
}
