// The 3D collide functions (GPU mirror of src/cpu/collide3d.ts, function for function):
//   hull–hull (boxes are hulls): collideHulls3D (SAT in sat3d.wgsl, face contacts in clip3d.wgsl,
//     closest points of hulls apart in gjk3d.wgsl, edge contacts here)
//   hull–sphere, hull–capsule:   collideHullRound3D (round3d.wgsl)
//   sphere/capsule pairs:        collideRounds3D (round3d.wgsl)
// Conventions: normal from A to B; depth > 0 penetration; depth in [-margin, 0) speculative.

// What edgeContact3D did (src/cpu/collide3d.ts: the same constants).
const EDGE_FAILED = 0u;
const EDGE_MADE = 1u;
const EDGE_NEEDS_CLOSEST = 2u;                         // hulls apart, closest points off the edges

// Edge contact from the edge query's best pair: one point midway between the closest points of
// the two edges, with the SAT separation (EDGE_MADE). When those closest points lie off either
// edge: for hulls apart along the axis, EDGE_NEEDS_CLOSEST; for clamped points that touch, those;
// else EDGE_FAILED.
fn edgeContact3D(A: Hull3D, B: Hull3D, query: EdgeQuery3D, scale: f32) -> u32 {
  if (query.edgeA < 0) { return EDGE_FAILED; }
  let ea = u32(query.edgeA);
  let eb = query.edgeB;
  let edgeA = hullEdge(A, ea);
  let edgeB = hullEdge(B, eb);
  let c = closestSegments3D(hullVertexW(A, edgeA.x), hullVertexW(A, edgeA.y), hullVertexW(B, edgeB.x), hullVertexW(B, edgeB.y));
  if (!(c.s > 0.0 && c.s < 1.0 && c.t > 0.0 && c.t < 1.0)) {
    // Clamped parameters: the lines' closest points lie off the edges. Hulls apart along the axis:
    // the SAT's edge pair need not hold the closest features (two corners). Overlapping hulls: no
    // edge contact, unless the clamped points touch (vertex on vertex): then they are the contact,
    // along the SAT axis.
    if (query.separation > 0.0) { return EDGE_NEEDS_CLOSEST; }
    let d = c.c2 - c.c1;
    let dist = sqrt(dot(d, d));
    if (!(dist <= CORE_DISTANCE_3D * scale)) { return EDGE_FAILED; }
    lm.kind = CONTACT_CLOSEST_3D;
    setJoinNormal3D(d, dist, query.axis, scale);
  } else {
    lm.kind = CONTACT_EDGE_3D;
    setNormal3D(query.axis);
  }
  // Within both edges the features are the edges themselves (one push site for both contacts).
  pushPoint3D(0.5 * (c.c1 + c.c2), query.separation, makeId3D(edgeFeature3D(A, ea, c.s), edgeFeature3D(B, eb, c.t)));
  return EDGE_MADE;
}

// The SAT of two hulls: the best face axis of A against B, of B against A, and the best edge pair
// above the face axes less the hysteresis. `separated` when one of them parts the hulls by more
// than the margin (the later queries are then not run).
struct HullSat3D {
  queryA: FaceQuery3D,
  queryB: FaceQuery3D,
  queryE: EdgeQuery3D,
  separated: bool,
}

fn satHulls3D(A: Hull3D, B: Hull3D, margin: f32, scale: f32) -> HullSat3D {
  var sat: HullSat3D;
  sat.separated = true;
  // Face axes of A against B, then of B against A, until one parts the hulls: one call site (a
  // loop to the constant 2 alone would be unrolled into two copies of the query).
  var parted = false;
  for (var side = 0u; side < 2u && !parted; side++) {
    let q = queryFaceDirections3D(pickHull3D(side == 0u, A, B), pickHull3D(side == 0u, B, A), margin, scale);
    parted = q.separation > margin;
    if (side == 0u) {
      sat.queryA = q;
    } else {
      sat.queryB = q;
    }
  }
  if (parted) { return sat; }
  // Edge axes matter only above the best face axis less the hysteresis: the query skips the rest.
  if (CLASS_BOXES_ONLY_3D || (CLASS_BOX_PAIRS_3D && A.isBox && B.isBox)) {
    sat.queryE = queryBoxEdges3D(A, B, margin);
  } else {
    sat.queryE = queryEdgeDirections3D(A, B, margin, max(sat.queryA.separation, sat.queryB.separation) - EDGE_HYSTERESIS_3D * scale, scale);
  }
  sat.separated = sat.queryE.separation > margin;
  return sat;
}

// Hull–hull (boxes included), A the working frame's own hull: the SAT, then the contact.
fn collideHulls3D(A: Hull3D, B: Hull3D, margin: f32, scale: f32) {
  let sat = satHulls3D(A, B, margin, scale);
  if (!sat.separated) { contactHulls3D(A, B, sat, margin, scale); }
}

// The contact of two hulls the SAT found within the margin.
//
// The CPU's sequence of attempts (edge contact first where the edge axis is clearly best; the face
// contact; the edge contact where the face clipped to nothing; the face again around the deepest
// vertex; that vertex alone) runs here as one loop over its steps, so that each large function has
// one call site: the compiler inlines every call site, and a second copy of the clip, the
// reduction or the SAT doubles what the driver compiles (lavapipe: seconds per copy). A module
// without the rare steps (CLASS_RARE_STEPS_3D false: collide()'s box–box class kernel) stops where
// the contact needs more than the register-held clip and the edge contact (the retry, the vertex
// contact, the fallback clip, the closest points) and asks its closest pass to make it.
fn contactHulls3D(A: Hull3D, B: Hull3D, sat: HullSat3D, margin: f32, scale: f32) {
  let queryA = sat.queryA;
  let queryB = sat.queryB;
  let queryE = sat.queryE;
  let sepA = queryA.separation;
  let sepB = queryB.separation;
  let sepE = queryE.separation;
  let sep = max(max(sepA, sepB), sepE);
  let edgeFirst = sepE > max(sepA, sepB) + EDGE_HYSTERESIS_3D * scale;
  // Reference hull R and incident hull I of a face contact.
  let flip = sepB > sepA + FACE_HYSTERESIS_3D * scale;
  let R = pickHull3D(!flip, A, B);
  let I = pickHull3D(!flip, B, A);
  let refFace = select(queryA.face, queryB.face, flip);
  let n = planeW3D(R, refFace).xyz;
  var edge = EDGE_FAILED;
  // Whether the hulls' closest points may make the contact instead (hulls apart only).
  var closest = false;
  var count = 0u;
  var clips = 0u;                                      // face contacts tried
  var inc = 0u;
  var deepest = 0u;                                    // I's deepest vertex along -n, from the retry on
  var tryEdge = edgeFirst;
  loop {
    if (tryEdge) {
      edge = edgeContact3D(A, B, queryE, scale);
      closest = edge == EDGE_NEEDS_CLOSEST;
      if (edge == EDGE_MADE || closest) { break; }
      tryEdge = false;
    }
    // The incident face; the second time, the one around I's deepest vertex (when it differs).
    var face = 0u;
    if (clips == 0u) {
      face = incidentFace3D(I, n);
    } else if (!CLASS_RARE_STEPS_3D) {
      closestAsk.redo = true;
      break;
    } else {
      deepest = deepestVertex3D(I, n);
      face = faceAroundVertex3D(I, deepest, n);
    }
    if (clips > 0u && face == inc) { break; }
    inc = face;
    count = clipFaceContact3D(R, refFace, I, inc, !flip, margin, scale);
    clips++;
    if (count > 0u || clips == 2u || redoAsked3D()) { break; }
    // Nothing of that face lies over the reference face. An edge axis within the hysteresis of
    // the face axis is the contact then; else retry with a face at the deepest vertex, then take
    // that vertex alone (keeps the SAT normal and depth), or for hulls apart their closest points.
    tryEdge = !edgeFirst && sepE > max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale;
  }
  if (redoAsked3D()) { return; }
  if (edge != EDGE_MADE && !closest) {
    if (count == 0u && CLASS_RARE_STEPS_3D) {
      // Reached only after the retry: `deepest` is set.
      closest = vertexContact3D(R, refFace, I, deepest, !flip, margin);
    }
    // Hulls apart whose face contact lies farther than the SAT's separation (by more than the
    // hysteresis) everywhere: the closest features may be others.
    if (count > 0u && sep > 0.0 && minSeparation3D() > sep + EDGE_HYSTERESIS_3D * scale) {
      closest = true;
    }
  }
  if (closest && !CLASS_RARE_STEPS_3D) {
    closestAsk.redo = true;
  } else if (closest) {
    let axis = closestAxis3D(A, B, queryA, queryB, queryE);
    if (CLASS_CLOSEST_PASS_3D) {
      closestAsk = ClosestAsk3D(true, axis, sep, false);
    } else {
      closestPointsContact3D(A, B, axis, sep, margin, scale);
    }
  }
}

// A pair whose closest points the class's closest pass settles (narrowphaseClosest3D): the SAT's
// best axis and separation. No CPU counterpart: the CPU runs closestPointsContact3D in place.
// `redo`: the pair needs a step its module leaves out (CLASS_RARE_STEPS_3D); the closest pass
// makes its contact again from the SAT's result, with every step.
struct ClosestAsk3D {
  asked: bool,
  axis: vec3f,
  separation: f32,
  redo: bool,
}

var<private> closestAsk: ClosestAsk3D;

// Whether the pair asked for its contact again; never where the module keeps every step. An `if`
// on the constant, not `&&`: scripts/private-bytes.ts prunes constant branches only, and would
// count closestAsk in modules that never read it.
fn redoAsked3D() -> bool {
  var redo = false;
  if (!CLASS_RARE_STEPS_3D) { redo = closestAsk.redo; }
  return redo;
}

// The SAT's best axis (A to B), which names the features if the hulls' closest points touch.
fn closestAxis3D(A: Hull3D, B: Hull3D, queryA: FaceQuery3D, queryB: FaceQuery3D, queryE: EdgeQuery3D) -> vec3f {
  if (queryE.separation >= max(queryA.separation, queryB.separation)) { return queryE.axis; }
  return select(-planeW3D(B, queryB.face).xyz, planeW3D(A, queryA.face).xyz, queryA.separation >= queryB.separation);
}

// Hulls apart whose SAT features need not hold their closest points: those (gjk3d.wgsl; see the
// CPU file). Farther apart than the margin, no contact. The contact is those points alone when
// they are farther apart than the SAT's best separation `sep` by more than the edge hysteresis, or
// when the face contact's nearest point is farther than they are by more than it; else the SAT's
// contact stays. Returns whether the local manifold changed.
fn closestPointsContact3D(A: Hull3D, B: Hull3D, axis: vec3f, sep: f32, margin: f32, scale: f32) -> bool {
  let c = closestHulls3D(A, B, axis, scale);
  if (c.distance > margin) {
    resetLocalManifold3D();
    return true;
  }
  let hysteresis = EDGE_HYSTERESIS_3D * scale;
  if (lm.count == 0u || c.distance > sep + hysteresis || minSeparation3D() > c.distance + hysteresis) {
    resetLocalManifold3D();
    closestContact3D(c, axis, scale);
    return true;
  }
  return false;
}

fn isHull3D(kind: u32) -> bool {
  return CLASS_BOXES_ONLY_3D || kind == SHAPE_KIND_HULL || kind == SHAPE_KIND_BOX;
}

// The two shapes of a pair in the working frame: X, the more complex (solved first, in its frame),
// and Y at its pose relative to X; whether that exchanged A and B; the pair's size for tolerances.
struct PlacedPair3D {
  X: Hull3D,
  Y: Hull3D,
  kindX: u32,
  kindY: u32,
  swap: bool,
  scale: f32,
}

fn placePair3D(shapeA: u32, xfA: Transform3D, shapeB: u32, xfB: Transform3D) -> PlacedPair3D {
  let kindA = shapes[shapeA].kind;
  let kindB = shapes[shapeB].kind;
  // Hull–round is always hull first.
  let swap = !isHull3D(kindA) && isHull3D(kindB);
  let x = select(shapeA, shapeB, swap);
  let y = select(shapeB, shapeA, swap);
  var xfX = xfA;
  var xfY = xfB;
  if (swap) {
    xfX = xfB;
    xfY = xfA;
  }
  let kindX = select(kindA, kindB, swap);
  let kindY = select(kindB, kindA, swap);
  let hullX = makeHull3D(x, kindX);
  var hullY = makeHull3D(y, kindY);
  let pose = relativePose3D(shapes[x].center, xfX, shapes[y].center, xfY);
  hullY.rot = pose.rot;
  hullY.pos = pose.pos;
  return PlacedPair3D(hullX, hullY, kindX, kindY, swap, min(shapes[x].extent, shapes[y].extent));
}

// The manifold of shapes[shapeA] at xfA against shapes[shapeB] at xfB, in world space, computed
// in the shape frame of the more complex shape. Returns the point count.
fn collide3D(shapeA: u32, xfA: Transform3D, shapeB: u32, xfB: Transform3D, margin: f32, out: ptr<function, Manifold3D>) -> u32 {
  let p = placePair3D(shapeA, xfA, shapeB, xfB);
  resetLocalManifold3D();
  // A class pipeline holds its class's path alone; the general one picks by the kinds (X is a hull
  // whenever Y is).
  if (CLASS_HULL_PAIRS_3D && (!CLASS_GENERAL_3D || (isHull3D(p.kindX) && isHull3D(p.kindY)))) {
    collideHulls3D(p.X, p.Y, margin, p.scale);
  } else if (CLASS_ROUND_HULL_3D && (!CLASS_GENERAL_3D || isHull3D(p.kindX))) {
    collideHullRound3D(p.X, p.Y, margin, p.scale);
  } else if (CLASS_ROUNDS_3D) {
    collideRounds3D(p.X, p.Y, margin, p.scale);
  }
  return manifoldToWorld3D(out, p.swap);
}
