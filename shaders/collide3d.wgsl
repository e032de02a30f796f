// The 3D collide functions (GPU mirror of src/cpu/collide3d.ts, function for function):
//   hull–hull (boxes are hulls): collideHulls3d (SAT in sat3d.wgsl, face contacts in clip3d.wgsl,
//     edge contacts here)
//   hull–sphere, hull–capsule:   collideHullRound3d (round3d.wgsl)
//   sphere/capsule pairs:        collideRounds3d (round3d.wgsl)
// Conventions: normal from A to B; depth > 0 penetration; depth in [-margin, 0) speculative.

// Edge contact from the edge query's best pair: one point midway between the closest points of
// the two edges, with the SAT separation. When those closest points lie off either edge: for hulls
// apart along the axis, or clamped points that touch, the clamped closest points; else it fails
// (false). faceFallback: a face axis is as good, so clamped points beyond the margin leave the
// face fallbacks to decide.
fn edgeContact3d(A: Hull3D, B: Hull3D, query: EdgeQuery3D, margin: f32, scale: f32, faceFallback: bool) -> bool {
  if (query.edgeA < 0) { return false; }
  let ea = u32(query.edgeA);
  let eb = query.edgeB;
  let edgeA = hullEdge(A, ea);
  let edgeB = hullEdge(B, eb);
  let c = closestSegments3d(hullVertexW(A, edgeA.x), hullVertexW(A, edgeA.y), hullVertexW(B, edgeB.x), hullVertexW(B, edgeB.y));
  if (!(c.s > 0.0 && c.s < 1.0 && c.t > 0.0 && c.t < 1.0)) {
    // Clamped parameters: the lines' closest points lie off the edges. Hulls apart along the axis:
    // the edges' closest points are the speculative contact; farther apart than the margin, other
    // features may still be closer (with a face axis as good, the face fallbacks decide).
    // Overlapping hulls: no edge contact, unless the clamped points touch (vertex on vertex): then
    // they are the contact, along the SAT axis.
    let d = c.c2 - c.c1;
    let dist = sqrt(dot(d, d));
    let apart = query.separation > 0.0;
    if (!apart && !(dist <= CORE_DISTANCE_3D * scale)) { return false; }
    if (dist > margin) { return !faceFallback; }
    lm.kind = CONTACT_CLOSEST_3D;
    setJoinNormal3d(d, dist, query.axis, scale);
    pushPoint3d(0.5 * (c.c1 + c.c2), select(query.separation, dist, apart), makeId3d(edgeFeature3d(A, ea, c.s), edgeFeature3d(B, eb, c.t)));
    return true;
  }
  lm.kind = CONTACT_EDGE_3D;
  setNormal3d(query.axis);
  pushPoint3d(0.5 * (c.c1 + c.c2), query.separation, makeId3d(FEATURE_EDGE_3D + ea, FEATURE_EDGE_3D + eb));
  return true;
}

// Hull–hull (boxes included), A the working frame's own hull.
fn collideHulls3d(A: Hull3D, B: Hull3D, margin: f32, scale: f32) {
  let queryA = queryFaceDirections3d(A, B, margin, scale);
  if (queryA.separation > margin) { return; }
  let queryB = queryFaceDirections3d(B, A, margin, scale);
  if (queryB.separation > margin) { return; }
  let sepA = queryA.separation;
  let sepB = queryB.separation;
  // Edge axes matter only above the best face axis less the hysteresis: the query skips the rest.
  var queryE: EdgeQuery3D;
  if (BOXES_ONLY_3D || (A.isBox && B.isBox)) {
    queryE = queryBoxEdges3d(A, B, margin);
  } else {
    queryE = queryEdgeDirections3d(A, B, margin, max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale, scale);
  }
  if (queryE.separation > margin) { return; }
  let sepE = queryE.separation;
  let edgeFirst = sepE > max(sepA, sepB) + EDGE_HYSTERESIS_3D * scale;
  if (edgeFirst && edgeContact3d(A, B, queryE, margin, scale, false)) { return; }
  let flip = sepB > sepA + FACE_HYSTERESIS_3D * scale;
  // Reference hull R and incident hull I (WGSL picks structs, not pointers).
  var R = A;
  var I = B;
  var refFace = queryA.face;
  if (flip) {
    R = B;
    I = A;
    refFace = queryB.face;
  }
  let n = planeW3d(R, refFace).xyz;
  let inc = incidentFace3d(I, n, false);
  if (clipFaceContact3d(R, refFace, I, inc, !flip, margin, scale) > 0u) { return; }
  // Nothing of that face lies over the reference face. An edge axis within the hysteresis of the
  // face axis is the contact then; else retry with a face at the deepest vertex, then take that
  // vertex alone (keeps the SAT normal and depth).
  if (!edgeFirst && sepE > max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale && edgeContact3d(A, B, queryE, margin, scale, true)) { return; }
  let inc2 = incidentFace3d(I, n, true);
  if (inc2 != inc && clipFaceContact3d(R, refFace, I, inc2, !flip, margin, scale) > 0u) { return; }
  vertexContact3d(R, refFace, I, inc, !flip, margin, scale);
}

fn isHull3d(kind: u32) -> bool {
  return BOXES_ONLY_3D || kind == SHAPE_KIND_HULL || kind == SHAPE_KIND_BOX;
}

// The manifold of shapes[shapeA] at xfA against shapes[shapeB] at xfB, in world space, computed
// in the shape frame of the more complex shape. Returns the point count.
fn collide3D(shapeA: u32, xfA: Transform3D, shapeB: u32, xfB: Transform3D, margin: f32, out: ptr<function, Manifold3D>) -> u32 {
  let kindA = shapes[shapeA].kind;
  let kindB = shapes[shapeB].kind;
  // The more complex shape is solved first (in its frame); hull–round is always hull first.
  let swap = !isHull3d(kindA) && isHull3d(kindB);
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
  let pose = relativePose3d(shapes[x].center, xfX, shapes[y].center, xfY);
  hullY.rot = pose.rot;
  hullY.pos = pose.pos;
  let scale = min(shapes[x].extent, shapes[y].extent);
  resetLocalManifold3d();
  if (isHull3d(kindX)) {
    if (BOXES_ONLY_3D || isHull3d(kindY)) {
      collideHulls3d(hullX, hullY, margin, scale);
    } else {
      collideHullRound3d(hullX, hullY, margin, scale);
    }
  } else {
    collideRounds3d(hullX, hullY, margin, scale);
  }
  return manifoldToWorld3d(out, swap);
}
