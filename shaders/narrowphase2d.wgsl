// The 2D narrowphase kernel: one invocation per pair, one fixed manifold slot per pair (no lost or
// reordered results). Mirrors the loop of src/cpu/narrowphase2d.ts.

@group(0) @binding(0) var<storage, read> shapes: array<Shape2D>;
@group(0) @binding(1) var<storage, read> bodies: array<Body2D>;
@group(0) @binding(2) var<storage, read> pairs: array<vec2u>;
@group(0) @binding(3) var<storage, read_write> manifolds: array<Manifold2D>;
@group(0) @binding(4) var<uniform> params: Params2D;

@compute @workgroup_size(WORKGROUP_SIZE_2D)
fn narrowphase2d(@builtin(global_invocation_id) gid: vec3u) {
  // Large runs dispatch rows of workgroups (at most 65535 per dimension).
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let pair = pairs[k];
  let bodyA = bodies[pair.x];
  let bodyB = bodies[pair.y];
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
  manifolds[k] = m;
}
