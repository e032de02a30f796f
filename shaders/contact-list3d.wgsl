// The 3D types of the dense contact list's kernels (contact-list.wgsl follows and uses these names).
alias CtManifold = Manifold3D;
alias CtContact = ContactManifold3D;
alias CtUserValues = ContactUserValues3D;
const CT_MAX_POINTS: u32 = MAX_MANIFOLD_POINTS_3D;
