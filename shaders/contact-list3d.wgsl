// The 3D types of the dense contact list's kernels (contact-list.wgsl follows and uses these names).
alias CtManifold = Manifold3D;
alias CtUserValues = ContactUserValues3D;
alias CtUserValue = vec4f;                             // one point's
const CT_MAX_POINTS: u32 = MAX_MANIFOLD_POINTS_3D;
const CT_MANIFOLD_WORDS: u32 = MANIFOLD_WORDS_3D;

fn ctManifoldFromWords(w: array<vec4u, MANIFOLD_WORDS_3D>) -> CtManifold {
  return manifoldFromWords3D(w);
}

// Point i's feature id.
fn ctPointId(m: CtManifold, i: u32) -> u32 {
  return m.ids[i];
}
