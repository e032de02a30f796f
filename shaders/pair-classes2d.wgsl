// The 2D half of the pair classifier (src/gpu/pair-classes.ts; the shared kernels are in
// pair-classes.wgsl): the shapes and bodies, and the class of a pair (pairClass2D in
// src/gpu/pair-classes2d.ts, the same rule: collide2d.wgsl's path, by the core vertex counts).

@group(0) @binding(0) var<storage, read> shapes: array<Shape2D>;
@group(0) @binding(1) var<storage, read> bodies: array<Body2D>;

// Class kernels' workgroup size: the indirect dispatch arguments count in it.
const PC_NARROWPHASE_WORKGROUP: u32 = WORKGROUP_SIZE_2D;

// The class of the pair of bodies (a, b): a circle (one core vertex) on either side, or none.
fn pcPairClass(pair: vec2u) -> u32 {
  let a = shapes[bodies[pair.x].shape].count;
  let b = shapes[bodies[pair.y].shape].count;
  return select(PAIR_CLASS_POLYGONS_2D, PAIR_CLASS_CIRCLES_2D, a == 1u || b == 1u);
}
