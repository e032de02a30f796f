// A Manifold3D as the 16-byte words of its storage layout (shaders/layout3d.wgsl) and back,
// for the kernels that move manifolds word by word (the reuse stage, the dense contact list: a
// workgroup's words in order, coalesced). Needs layout3d.wgsl before it.

const MANIFOLD_WORDS_3D: u32 = 10u;

fn manifoldWords3D(m: Manifold3D) -> array<vec4u, MANIFOLD_WORDS_3D> {
  var w: array<vec4u, MANIFOLD_WORDS_3D>;
  w[0] = vec4u(bitcast<vec3u>(m.normal), m.count);
  w[1] = vec4u(m.kind, 0u, 0u, 0u);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    let p = m.points[i];
    w[2u + 2u * i] = vec4u(bitcast<vec3u>(p.position), bitcast<u32>(p.depth));
    w[3u + 2u * i] = vec4u(p.id, 0u, 0u, 0u);
  }
  return w;
}

// The manifold of its storage words (the inverse of manifoldWords3D).
fn manifoldFromWords3D(w: array<vec4u, MANIFOLD_WORDS_3D>) -> Manifold3D {
  var m: Manifold3D;
  m.normal = bitcast<vec3f>(w[0].xyz);
  m.count = w[0].w;
  m.kind = w[1].x;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
    let p = w[2u + 2u * i];
    m.points[i] = ManifoldPoint3D(bitcast<vec3f>(p.xyz), bitcast<f32>(p.w), w[3u + 2u * i].x);
  }
  return m;
}
