// Separating axis test over the face normals of one polygon (GPU mirror of src/cpu/sat2d.ts).

struct FaceQuery {
  separation: f32,
  edge: u32,
}

// Max over the faces of poly1 of the min over the vertices of poly2 of n_i · (v2_j − v1_i).
fn findMaxSeparation(poly1: ptr<private, Shape2D>, poly2: ptr<private, Shape2D>) -> FaceQuery {
  let count2 = (*poly2).count;
  var bestEdge = 0u;
  var maxSeparation = -F32_MAX;
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= (*poly1).count) { break; }
    let n = (*poly1).normals[i];
    let o = (*poly1).vertices[i];
    var si = F32_MAX;
    for (var j = 0u; j < MAX_POLYGON_VERTICES; j++) {
      if (j >= count2) { break; }
      si = min(si, dot(n, (*poly2).vertices[j] - o));
    }
    if (si > maxSeparation) {
      maxSeparation = si;
      bestEdge = i;
    }
  }
  return FaceQuery(maxSeparation, bestEdge);
}
