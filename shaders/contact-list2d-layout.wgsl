// Buffer layouts of the 2D dense contact list (src/gpu/contact-list2d.ts, src/cpu/contact-list2d.ts): the
// one definition. The host reads every offset, size and stride from here through wgsl_reflect;
// nothing is copied by hand. Needs layout2d.wgsl (Manifold2D) and contact-list-layout.wgsl before it.
//
// The dense list holds the touching manifolds (count > 0) of one frame in the order of their pairs:
// the frames' broadphase lists pairs in (bodyA, bodyB) order (bodyA < bodyB), so the list is
// ordered by (bodyA, bodyB) with no sort.

// One entry of the dense list.
struct ContactManifold2D {
  bodyA: u32,                                          // pair.x: the normal points from A to B
  bodyB: u32,                                          // pair.y
  previous: u32,                                       // index of the same pair in last frame's list, or CONTACT_NONE
  matched: u32,                                        // bit i: point i matched last frame's point with its id (its user value carried, where both frames have them)
  manifold: Manifold2D,                                // as the narrowphase wrote it (count > 0)
}

// The user values of one dense entry, one vec2f per point, for the solver to write (e.g. normal
// and tangent impulse, for warm starting). Entry j of frame f+1 starts with the values the solver
// wrote for frame f's entry of the same pair, point by point where the feature ids match; 0 for
// new points, unused points and new pairs.
struct ContactUserValues2D {
  points: array<vec2f, MAX_MANIFOLD_POINTS_2D>,
}
