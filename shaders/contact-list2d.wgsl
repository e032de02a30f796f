// The 2D types of the dense contact list's kernels (contact-list.wgsl follows and uses these names).
alias CtManifold = Manifold2D;
alias CtUserValues = ContactUserValues2D;
alias CtUserValue = vec2f;                             // one point's
const CT_MAX_POINTS: u32 = MAX_MANIFOLD_POINTS_2D;
const CT_MANIFOLD_WORDS: u32 = MANIFOLD_WORDS_2D;

fn ctManifoldFromWords(w: array<vec4u, MANIFOLD_WORDS_2D>) -> CtManifold {
  return manifoldFromWords2D(w);
}

// Point i's feature id.
fn ctPointId(m: CtManifold, i: u32) -> u32 {
  return m.points[i].id;
}
