// A Manifold3D as the 16-byte words of its storage layout (shaders/layout3d.wgsl) and back,
// for the kernels that move manifolds word by word (the reuse stage, the dense contact list: a
// workgroup's words in order, coalesced). Needs layout3d.wgsl before it.

const MANIFOLD_WORDS_3D: u32 = 7u;

fn manifoldWords3D(m: Manifold3D) -> array<vec4u, MANIFOLD_WORDS_3D> {
  var w: array<vec4u, MANIFOLD_WORDS_3D>;
  w[0] = vec4u(bitcast<vec3u>(m.normal), m.count);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    w[1u + i] = vec4u(bitcast<vec3u>(m.points[i].position), bitcast<u32>(m.points[i].depth));
  }
  w[5] = vec4u(m.ids[0], m.ids[1], m.ids[2], m.ids[3]);
  w[6] = vec4u(m.kind, 0u, 0u, 0u);
  return w;
}

// The manifold of its storage words (the inverse of manifoldWords3D).
fn manifoldFromWords3D(w: array<vec4u, MANIFOLD_WORDS_3D>) -> Manifold3D {
  var m: Manifold3D;
  m.normal = bitcast<vec3f>(w[0].xyz);
  m.count = w[0].w;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    m.points[i] = ManifoldPoint3D(bitcast<vec3f>(w[1u + i].xyz), bitcast<f32>(w[1u + i].w));
  }
  m.ids = array<u32, MAX_MANIFOLD_POINTS_3D>(w[5].x, w[5].y, w[5].z, w[5].w);
  m.kind = w[6].x;
  return m;
}
