// The 3D narrowphase kernels: one invocation per pair, one fixed manifold slot per pair (no lost or
// reordered results). Mirrors the loop of src/cpu/narrowphase3d.ts. Eight storage buffers, the
// WebGPU default per stage: shapes and the four flat hull buffers, bodies, pairs, manifolds.
//   narrowphase3D       pair k of `pairs` into slot k (the general kernel: every class's path)
//   narrowphaseClass3D  one pair class's list (src/gpu/pair-classes.ts), each pair into its slot;
//                       compiled once per class with that class's constants (pair-classes3d.ts)

@group(0) @binding(0) var<storage, read> shapes: array<Shape3D>;
@group(0) @binding(1) var<storage, read> hullVertices: array<vec4f>;
@group(0) @binding(2) var<storage, read> hullPlanes: array<vec4f>;
@group(0) @binding(3) var<storage, read> hullFaces: array<u32>;
@group(0) @binding(4) var<storage, read> hullIndices: array<u32>;
@group(0) @binding(5) var<storage, read> bodies: array<Body3D>;
@group(0) @binding(6) var<storage, read> pairs: array<vec2u>;
// The class kernel's list at binding 6 instead: (slot, body A, body B, unused) per pair.
@group(0) @binding(6) var<storage, read> classPairs: array<vec4u>;
@group(0) @binding(7) var<storage, read_write> manifolds: array<Manifold3D>;
@group(0) @binding(8) var<uniform> params: Params3D;

// The manifold of bodies a and b.
fn collidePair3D(a: u32, b: u32) -> Manifold3D {
  let bodyA = bodies[a];
  let bodyB = bodies[b];
  var m: Manifold3D;
  collide3D(bodyA.shape, Transform3D(bodyA.position, bodyA.rotation),
            bodyB.shape, Transform3D(bodyB.position, bodyB.rotation), params.margin, &m);
  // m starts zeroed; with contact, manifoldToWorld3D writes every point slot (unused ones zero),
  // so the slot is fully defined without a fix-up at per-lane indices.
  return m;
}

@compute @workgroup_size(WORKGROUP_SIZE_3D)
fn narrowphase3D(@builtin(global_invocation_id) gid: vec3u) {
  // Large runs dispatch rows of workgroups (at most 65535 per dimension).
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let pair = pairs[k];
  manifolds[k] = collidePair3D(pair.x, pair.y);
}

@compute @workgroup_size(WORKGROUP_SIZE_3D)
fn narrowphaseClass3D(@builtin(global_invocation_id) gid: vec3u) {
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let e = classPairs[params.first + k];
  // A one-class list's entries for pairs of other classes name no slot (pair-classes.wgsl's pcList).
  if (e.x >= arrayLength(&manifolds)) { return; }
  manifolds[e.x] = collidePair3D(e.y, e.z);
}
