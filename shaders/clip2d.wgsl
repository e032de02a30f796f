// Feature selection and clipping, the method of dyn4j's "Contact Points Using Clipping" (GPU
// mirror of src/cpu/clip2d.ts).
// Both polygons are in the same frame; poly1 owns the reference edge, poly2 the incident edge.

// The best edge of `poly` for direction d: the vertex farthest along d, then of its two edges the
// one whose outward normal is most aligned with d (= the edge most perpendicular to d); near-ties
// keep the edge leaving the vertex (INCIDENT_EDGE_BIAS).
fn findBestEdge(poly: ptr<private, Shape2D>, d: vec2f) -> u32 {
  let count = (*poly).count;
  var best = 0u;
  var maxProjection = dot((*poly).vertices[0], d);
  for (var i = 1u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= count) { break; }
    let p = dot((*poly).vertices[i], d);
    if (p > maxProjection) {
      maxProjection = p;
      best = i;
    }
  }
  let prev = select(best - 1u, count - 1u, best == 0u);
  let dotPrev = dot((*poly).normals[prev], d);
  let dotNext = dot((*poly).normals[best], d);
  return select(best, prev, dotPrev > dotNext + INCIDENT_EDGE_BIAS);
}

// A segment being clipped (the incident edge).
struct ClipSegment {
  a: vec2f,
  b: vec2f,
}

// Keeps the part of segment ab where dir · p >= offset, replacing a clipped end by the crossing
// point. Returns false when both ends are outside.
fn clipSegmentToLine(seg: ptr<function, ClipSegment>, dir: vec2f, offset: f32) -> bool {
  let da = dot(dir, (*seg).a) - offset;
  let db = dot(dir, (*seg).b) - offset;
  if (da < 0.0 && db < 0.0) { return false; }
  if (da < 0.0) {
    let u = da / (da - db);
    (*seg).a += u * ((*seg).b - (*seg).a);
  } else if (db < 0.0) {
    let u = db / (db - da);
    (*seg).b += u * ((*seg).a - (*seg).b);
  }
  return true;
}

// Appends one clipped point: its per-point depth (the article's example 3) and midway position.
fn addClipPoint(m: ptr<function, Manifold2D>, p: vec2f, origin: vec2f, n: vec2f, r1: f32, r2: f32, margin: f32, id: u32) {
  let separation = dot(p - origin, n);
  let depth = r1 + r2 - separation;
  if (depth < -margin) { return; }
  let k = 0.5 * (r1 - r2 - separation);
  // Constant indices keep the manifold in registers (a run-time index makes it memory on lavapipe).
  let point = ManifoldPoint2D(p + k * n, depth, id);
  if ((*m).count == 0u) {
    (*m).points[0] = point;
  } else {
    (*m).points[1] = point;
  }
  (*m).count += 1u;
}

// The three clips of "Contact Points Using Clipping"; `flip` says poly1 is body B.
fn clipPolygons(poly1: ptr<private, Shape2D>, poly2: ptr<private, Shape2D>, edge1: u32, edge2: u32, flip: bool, margin: f32, m: ptr<function, Manifold2D>) {
  let i11 = edge1;
  let i12 = nextVertex(edge1, (*poly1).count);
  let i21 = edge2;
  let i22 = nextVertex(edge2, (*poly2).count);
  let v11 = (*poly1).vertices[i11];
  let v12 = (*poly1).vertices[i12];
  let n = (*poly1).normals[i11];
  // Edge direction of a counter-clockwise polygon: the left perpendicular of its outward normal.
  let t = vec2f(-n.y, n.x);
  var seg = ClipSegment((*poly2).vertices[i21], (*poly2).vertices[i22]);
  (*m).count = 0u;
  (*m).normal = select(n, -n, flip);
  if (!clipSegmentToLine(&seg, t, dot(t, v11))) { return; }
  if (!clipSegmentToLine(&seg, -t, -dot(t, v12))) { return; }
  let r1 = (*poly1).radius;
  let r2 = (*poly2).radius;
  // The incident edge runs against the reference edge, so its end b lies near v11 and a near v12.
  addClipPoint(m, seg.b, v11, n, r1, r2, margin, select(makeId(i11, i22), makeId(i22, i11), flip));
  addClipPoint(m, seg.a, v11, n, r1, r2, margin, select(makeId(i12, i21), makeId(i21, i12), flip));
}
