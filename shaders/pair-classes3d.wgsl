// The 3D half of the pair classifier (src/gpu/pair-classes.ts; the shared kernels are in
// pair-classes.wgsl): the shapes and bodies, and the class of a pair (pairClass3D in
// src/gpu/pair-classes3d.ts, the same rule).

@group(0) @binding(0) var<storage, read> shapes: array<Shape3D>;
@group(0) @binding(1) var<storage, read> bodies: array<Body3D>;

// Class kernels' workgroup size: the indirect dispatch arguments count in it.
const PC_NARROWPHASE_WORKGROUP: u32 = WORKGROUP_SIZE_3D;

fn pcIsHull(kind: u32) -> bool {
  return kind == SHAPE_KIND_HULL || kind == SHAPE_KIND_BOX;
}

// The class of the pair of bodies (a, b).
fn pcPairClass(pair: vec2u) -> u32 {
  let a = shapes[bodies[pair.x].shape].kind;
  let b = shapes[bodies[pair.y].shape].kind;
  if (a == SHAPE_KIND_BOX && b == SHAPE_KIND_BOX) { return PAIR_CLASS_BOX_BOX_3D; }
  if (pcIsHull(a) && pcIsHull(b)) { return PAIR_CLASS_HULL_HULL_3D; }
  if (pcIsHull(a) || pcIsHull(b)) { return PAIR_CLASS_ROUND_HULL_3D; }
  return PAIR_CLASS_ROUND_ROUND_3D;
}
