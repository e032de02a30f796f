// A Manifold2D as the 16-byte words of its storage layout (shaders/layout2d.wgsl) and back,
// for the kernels that move manifolds word by word (the reuse stage, the dense contact list: a
// workgroup's words in order, coalesced). Needs layout2d.wgsl before it.

const MANIFOLD_WORDS_2D: u32 = 3u;

fn manifoldWords2D(m: Manifold2D) -> array<vec4u, MANIFOLD_WORDS_2D> {
  var w: array<vec4u, MANIFOLD_WORDS_2D>;
  w[0] = vec4u(bitcast<vec2u>(m.normal), m.count, m.flags);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    let p = m.points[i];
    w[1u + i] = vec4u(bitcast<vec2u>(p.position), bitcast<u32>(p.depth), p.id);
  }
  return w;
}

// The manifold of its storage words (the inverse of manifoldWords2D).
fn manifoldFromWords2D(w: array<vec4u, MANIFOLD_WORDS_2D>) -> Manifold2D {
  var m: Manifold2D;
  m.normal = bitcast<vec2f>(w[0].xy);
  m.count = w[0].z;
  m.flags = w[0].w;
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    let p = w[1u + i];
    m.points[i] = ManifoldPoint2D(bitcast<vec2f>(p.xy), bitcast<f32>(p.z), p.w);
  }
  return m;
}
