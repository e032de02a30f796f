// The 2D narrowphase kernels: one invocation per pair, one fixed manifold slot per pair (no lost or
// reordered results). Mirrors the loop of src/cpu/narrowphase2d.ts.
//   narrowphase2D       pair k of `pairs` into slot k (the general kernel: every class's path)
//   narrowphaseClass2D  one pair class's list (src/gpu/pair-classes.ts), each pair into its slot;
//                       compiled once per class with that class's constants (pair-classes2d.ts)

@group(0) @binding(0) var<storage, read> shapes: array<Shape2D>;
@group(0) @binding(1) var<storage, read> bodies: array<Body2D>;
@group(0) @binding(2) var<storage, read> pairs: array<vec2u>;
// The class kernel's list at binding 2 instead: (slot, body A, body B, unused) per pair.
@group(0) @binding(2) var<storage, read> classPairs: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> manifolds: array<Manifold2D>;
@group(0) @binding(4) var<uniform> params: Params2D;

// The manifold of bodies a and b.
fn collidePair2D(a: u32, b: u32) -> Manifold2D {
  let bodyA = bodies[a];
  let bodyB = bodies[b];
  var m: Manifold2D;
  collideShapes2D(bodyA.shape, Transform2D(bodyA.position, bodyA.rotation),
                  bodyB.shape, Transform2D(bodyB.position, bodyB.rotation), params.margin, &m);
  if (m.count == 0u) {
    m.normal = vec2f(0.0);
  }
  // Fixed bounds (unrolled by the compiler): unused point slots are written as zeros.
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i >= m.count) {
      m.points[i] = ManifoldPoint2D(vec2f(0.0), 0.0, 0u);
    }
  }
  m.flags = 0u;
  return m;
}

@compute @workgroup_size(WORKGROUP_SIZE_2D)
fn narrowphase2D(@builtin(global_invocation_id) gid: vec3u) {
  // Large runs dispatch rows of workgroups (at most 65535 per dimension).
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let pair = pairs[k];
  manifolds[k] = collidePair2D(pair.x, pair.y);
}

@compute @workgroup_size(WORKGROUP_SIZE_2D)
fn narrowphaseClass2D(@builtin(global_invocation_id) gid: vec3u) {
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let e = classPairs[params.first + k];
  // A one-class list's entries for pairs of other classes name no slot (pair-classes.wgsl's pcList).
  if (e.x >= arrayLength(&manifolds)) { return; }
  manifolds[e.x] = collidePair2D(e.y, e.z);
}
