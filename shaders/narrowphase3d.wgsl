// The 3D narrowphase kernels: one invocation per pair, one fixed manifold slot per pair (no lost or
// reordered results). Mirrors the loop of src/cpu/narrowphase3d.ts. Eight storage buffers, the
// WebGPU default per stage: shapes and the four flat hull buffers, bodies, pairs, manifolds.
//   narrowphase3D       pair k of `pairs` into slot k (the general kernel: every class's path)
//   narrowphaseClass3D  one pair class's list (src/gpu/pair-classes.ts), each pair into its slot;
//                       compiled once per class with that class's constants (pair-classes3d.ts)
//   narrowphaseContact3D  after it, for a class with a contact pass (CLASS_CONTACT_PASS_3D): the
//                       class kernel runs the SAT alone and leaves its result in the slot; this
//                       pass clips and reduces (the SAT's and the clip's arrays in two kernels)
//   narrowphaseClosest3D  after them, for a class with a closest pass (CLASS_CLOSEST_PASS_3D): the
//                       pairs whose closest points it left to settle (GJK), the rare path kept out
//                       of the class kernel's registers and compile; with CLASS_REDO_RARE_3D also
//                       the contact of pairs that need a rare step (compiled from a module that
//                       keeps them, CLASS_RARE_STEPS_3D)

@group(0) @binding(0) var<storage, read> shapes: array<Shape3D>;
@group(0) @binding(1) var<storage, read> hullVertices: array<vec4f>;
@group(0) @binding(2) var<storage, read> hullPlanes: array<vec4f>;
@group(0) @binding(3) var<storage, read> hullFaces: array<u32>;
@group(0) @binding(4) var<storage, read> hullIndices: array<u32>;
@group(0) @binding(5) var<storage, read> bodies: array<Body3D>;
// Read only, but declared as the class kernels' list at the same binding is (one layout serves both).
@group(0) @binding(6) var<storage, read_write> pairs: array<vec2u>;
// The class kernels' list at binding 6 instead: (slot, body A, body B, state: ENTRY_*) per pair,
// then as many words for the closest pass: (SAT axis, SAT separation) of each pair that asked,
// then one word whose component CLASS_ASKED_WORD_3D is 1 when a pair of the class asked (a caller
// that runs the pass only when needed reads it).
@group(0) @binding(6) var<storage, read_write> classPairs: array<vec4u>;
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

// What a class list entry's last word says between a class's kernels.
const ENTRY_CLOSEST_ASKED: u32 = 1u;                   // the closest pass settles the pair
const ENTRY_NEEDS_CONTACT: u32 = 2u;                   // the slot holds the SAT's result; the contact pass makes the manifold
const ENTRY_REDO: u32 = 3u;                            // the slot holds the SAT's result; the closest pass makes the contact (CLASS_REDO_RARE_3D)

@compute @workgroup_size(WORKGROUP_SIZE_3D)
fn narrowphaseClass3D(@builtin(global_invocation_id) gid: vec3u) {
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let at = params.first + k;
  let e = classPairs[at];
  // A one-class list's entries for pairs of other classes name no slot (pair-classes.wgsl's pcList).
  if (e.x >= arrayLength(&manifolds)) { return; }
  if (CLASS_CONTACT_PASS_3D || CLASS_REDO_RARE_3D) {
    // The SAT, and with CLASS_REDO_RARE_3D the contact's common steps. A pair within the margin
    // whose contact this kernel does not make keeps the SAT's result in its slot for the pass that
    // makes it: the contact pass, or the closest pass for a pair that needs a rare step. One store
    // for every pair: a store site is a per-lane scatter of every word on SIMD backends, which
    // lavapipe compiles per site.
    let p = placeBodies3D(e.y, e.z);
    resetLocalManifold3D();
    let sat = satHulls3D(p.X, p.Y, params.margin, p.scale);
    if (CLASS_REDO_RARE_3D && !sat.separated) {
      contactHulls3D(p.X, p.Y, sat, params.margin, p.scale);
    }
    var m: Manifold3D;
    if (!sat.separated && (CLASS_CONTACT_PASS_3D || redoAsked3D())) {
      m = satToSlot3D(sat);
    } else {
      m = worldManifold3D(p.swap);
    }
    if (CLASS_CONTACT_PASS_3D && !sat.separated) {
      classPairs[at].w = ENTRY_NEEDS_CONTACT;
    }
    manifolds[e.x] = m;
  } else {
    manifolds[e.x] = collidePair3D(e.y, e.z);
  }
  // A SAT-only kernel asks nothing: its contact pass does.
  if (!CLASS_CONTACT_PASS_3D) { storeClosestAsk3D(at); }
}

// The contact step of the pairs the class kernel's SAT left within the margin (CLASS_CONTACT_PASS_3D),
// from the SAT's result in their slot.
@compute @workgroup_size(WORKGROUP_SIZE_3D)
fn narrowphaseContact3D(@builtin(global_invocation_id) gid: vec3u) {
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let at = params.first + k;
  let e = classPairs[at];
  if (e.w != ENTRY_NEEDS_CONTACT) { return; }
  let p = placeBodies3D(e.y, e.z);
  let sat = satFromSlot3D(manifolds[e.x]);
  resetLocalManifold3D();
  contactHulls3D(p.X, p.Y, sat, params.margin, p.scale);
  manifolds[e.x] = worldManifold3D(p.swap);
  storeClosestAsk3D(at);
}

// Bodies a and b placed as collide3D places their shapes.
fn placeBodies3D(a: u32, b: u32) -> PlacedPair3D {
  let bodyA = bodies[a];
  let bodyB = bodies[b];
  return placePair3D(bodyA.shape, Transform3D(bodyA.position, bodyA.rotation),
                     bodyB.shape, Transform3D(bodyB.position, bodyB.rotation));
}

// The local manifold in world space, as collide3D returns it.
fn worldManifold3D(swap: bool) -> Manifold3D {
  var m: Manifold3D;
  manifoldToWorld3D(&m, swap);
  return m;
}

// Entry `at`'s ask for the closest pass, when its pair made one (CLASS_CLOSEST_PASS_3D): its
// closest points, or its contact (CLASS_REDO_RARE_3D: the slot holds the SAT's result).
fn storeClosestAsk3D(at: u32) {
  if (CLASS_CLOSEST_PASS_3D && (closestAsk.asked || redoAsked3D())) {
    let words = arrayLength(&classPairs);
    if (redoAsked3D()) {
      classPairs[at].w = ENTRY_REDO;
    } else {
      classPairs[at].w = ENTRY_CLOSEST_ASKED;
      classPairs[words / 2u + at] = bitcast<vec4u>(vec4f(closestAsk.axis, closestAsk.separation));
    }
    // Every asking invocation stores the same value: the word's bytes do not depend on the order.
    classPairs[words - 1u][CLASS_ASKED_WORD_3D] = 1u;
  }
}

// The SAT's result as a pair's slot holds it between the class kernel and its contact pass, each
// value in a field of its own type. No CPU counterpart: the CPU runs the contact in place.
fn satToSlot3D(sat: HullSat3D) -> Manifold3D {
  var m: Manifold3D;
  m.normal = sat.queryE.axis;
  m.count = sat.queryA.face;
  m.kind = sat.queryB.face;
  let seps = vec3f(sat.queryA.separation, sat.queryB.separation, sat.queryE.separation);
  m.points[0] = ManifoldPoint3D(seps, 0.0);
  m.ids[0] = bitcast<u32>(sat.queryE.edgeA);
  m.ids[1] = sat.queryE.edgeB;
  return m;
}

fn satFromSlot3D(m: Manifold3D) -> HullSat3D {
  let seps = m.points[0].position;
  let queryE = EdgeQuery3D(seps.z, bitcast<i32>(m.ids[0]), m.ids[1], m.normal);
  return HullSat3D(FaceQuery3D(seps.x, m.count), FaceQuery3D(seps.y, m.kind), queryE, false);
}

// The closest step of the pairs that asked (collideHulls3D), on the SAT's manifold their slot
// holds: its point count and separations are all that closestPointsContact3D reads of it, and
// the slot is rewritten only when that step replaces it, so the bytes are the general kernel's.
// A pair to redo (CLASS_REDO_RARE_3D) gets its contact first, from the SAT's result in its slot
// (this module keeps every step), and goes on to the closest step when that contact asks for it.
@compute @workgroup_size(WORKGROUP_SIZE_3D)
fn narrowphaseClosest3D(@builtin(global_invocation_id) gid: vec3u) {
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  let at = params.first + k;
  let e = classPairs[at];
  if (e.w != ENTRY_CLOSEST_ASKED && e.w != ENTRY_REDO) { return; }
  let p = placeBodies3D(e.y, e.z);
  resetLocalManifold3D();
  let held = manifolds[e.x];
  var ask: vec4f;
  var redone = false;
  var closestStep = true;
  if (CLASS_REDO_RARE_3D && e.w == ENTRY_REDO) {
    contactHulls3D(p.X, p.Y, satFromSlot3D(held), params.margin, p.scale);
    ask = vec4f(closestAsk.axis, closestAsk.separation);
    redone = true;
    closestStep = closestAsk.asked;
  } else {
    ask = bitcast<vec4f>(classPairs[arrayLength(&classPairs) / 2u + at]);
    lm.count = held.count;
    for (var i = 0u; i < MAX_MANIFOLD_POINTS_3D; i++) {
      lm.separations[i] = -held.points[i].depth;
    }
  }
  var changed = false;
  if (closestStep) {
    changed = closestPointsContact3D(p.X, p.Y, ask.xyz, ask.w, params.margin, p.scale);
  }
  // One store site for both (a store site is a per-lane scatter of every word on SIMD backends).
  if (redone || changed) {
    manifolds[e.x] = worldManifold3D(p.swap);
  }
}
