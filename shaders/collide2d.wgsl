// The 2D collide functions (GPU mirror of src/cpu/collide2d.ts). Every shape is a rounded convex
// polygon (circle: 1 vertex, capsule: 2, polygon: 3..8):
//   polygon–polygon (also capsule–capsule and capsule–polygon): collidePolygons
//   polygon–circle (also capsule–circle):                        collidePolygonAndCircle
//   circle–circle:                                                collideCircles
// Conventions: normal from A to B; depth > 0 penetration; depth in [-margin, 0) speculative.

// Reads `shapes` (array<Shape2D>, declared by the kernel module, shaders/narrowphase2d.wgsl).

// Scratch shapes in the working frame (per invocation).
var<private> localA: Shape2D;
var<private> localB: Shape2D;

// Copies shapes[index] into `out` moved by xf, after subtracting origin. Reads the storage buffer
// directly (not a Shape2D by value): a box touches 4 of the 8 vertex slots, not all of them.
fn transformShape(index: u32, xf: Transform2D, origin: vec2f, out: ptr<private, Shape2D>) {
  let count = shapes[index].count;
  (*out).count = count;
  (*out).radius = shapes[index].radius;
  (*out).extent = shapes[index].extent;
  (*out).kind = shapes[index].kind;
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= count) { break; }
    (*out).vertices[i] = rotate(xf.q, shapes[index].vertices[i] - origin) + xf.p;
    (*out).normals[i] = rotate(xf.q, shapes[index].normals[i]);
  }
}

// A single contact between vertex a of poly1 and vertex b of poly2, cores apart.
fn vertexContact(m: ptr<function, Manifold2D>, a: vec2f, b: vec2f, r1: f32, r2: f32, margin: f32, flip: bool, id: u32) {
  let d = b - a;
  let dist = sqrt(dot(d, d));
  (*m).count = 0u;
  if (dist - r1 - r2 > margin) { return; }
  let n = d / dist;
  let k = 0.5 * (r1 - r2 + dist);
  (*m).normal = select(n, -n, flip);
  (*m).points[0] = ManifoldPoint2D(a + k * n, r1 + r2 - dist, id);
  (*m).count = 1u;
}

// Polygon against polygon, both in A's (shifted) frame: SAT with hysteresis, reference edge from
// the face's owner, incident edge by the clipping article's best edge, vertex–vertex when the cores
// are apart and their closest features are vertices, else the three clips.
fn collidePolygons(polyA: ptr<private, Shape2D>, polyB: ptr<private, Shape2D>, margin: f32, m: ptr<function, Manifold2D>) {
  (*m).count = 0u;
  let radius = (*polyA).radius + (*polyB).radius;
  // Either axis separating by more than the margin ends the test: no need for the other one.
  let queryA = findMaxSeparation(polyA, polyB);
  if (queryA.separation > margin + radius) { return; }
  let queryB = findMaxSeparation(polyB, polyA);
  if (queryB.separation > margin + radius) { return; }
  let scale = min((*polyA).extent, (*polyB).extent);
  let flip = queryB.separation > queryA.separation + AXIS_HYSTERESIS * scale;
  if (flip) {
    collideFaces(polyB, polyA, queryB, flip, margin, m);
  } else {
    collideFaces(polyA, polyB, queryA, flip, margin, m);
  }
}

// The part of collidePolygons after the reference face is known (poly1 owns it). WGSL cannot pick
// between two pointers at run time, so the CPU's `poly1 = flip ? polyB : polyA` becomes this call.
fn collideFaces(poly1: ptr<private, Shape2D>, poly2: ptr<private, Shape2D>, query: FaceQuery, flip: bool, margin: f32, m: ptr<function, Manifold2D>) {
  let scale = min((*poly1).extent, (*poly2).extent);
  let edge1 = query.edge;
  let edge2 = findBestEdge(poly2, -(*poly1).normals[edge1]);
  if (query.separation > CORE_SEPARATION * scale && closestEdgesContact(poly1, poly2, edge1, edge2, flip, margin, true, m)) {
    return;
  }
  clipPolygons(poly1, poly2, edge1, edge2, flip, margin, m);
  if ((*m).count == 0u && margin + (*poly1).radius + (*poly2).radius > 0.0) {
    closestEdgesContact(poly1, poly2, edge1, edge2, flip, margin, false, m);
  }
}

// A single contact joining the closest points of the reference and incident edges; with
// `verticesOnly` only when both are vertices (cores apart), else the fallback when clipping left
// nothing (two capsules end to end on one line). Returns whether it decided the manifold.
fn closestEdgesContact(poly1: ptr<private, Shape2D>, poly2: ptr<private, Shape2D>, edge1: u32, edge2: u32, flip: bool, margin: f32, verticesOnly: bool, m: ptr<function, Manifold2D>) -> bool {
  let i11 = edge1;
  let i12 = nextVertex(edge1, (*poly1).count);
  let i21 = edge2;
  let i22 = nextVertex(edge2, (*poly2).count);
  let a = (*poly1).vertices[i11];
  let b = (*poly2).vertices[i21];
  let e1 = (*poly1).vertices[i12] - a;
  let e2 = (*poly2).vertices[i22] - b;
  let distance = segmentDistance(a, a + e1, b, b + e2);
  let f1 = distance.fraction1;
  let f2 = distance.fraction2;
  let atVertices = (f1 == 0.0 || f1 == 1.0) && (f2 == 0.0 || f2 == 1.0);
  if ((verticesOnly && !atVertices) || !(distance.distanceSquared > 0.0)) { return false; }
  let j1 = select(i12, i11, f1 < 0.5);
  let j2 = select(i22, i21, f2 < 0.5);
  vertexContact(m, a + f1 * e1, b + f2 * e2, (*poly1).radius, (*poly2).radius, margin, flip,
    select(makeId(j1, j2), makeId(j2, j1), flip));
  return true;
}

// Polygon (or capsule) against circle, both in the polygon's frame: the face of max separation,
// then the Voronoi region of the circle's center.
fn collidePolygonAndCircle(poly: ptr<private, Shape2D>, circle: ptr<private, Shape2D>, margin: f32, m: ptr<function, Manifold2D>) {
  (*m).count = 0u;
  let c = (*circle).vertices[0];
  let radius = (*poly).radius + (*circle).radius;
  let count = (*poly).count;
  var edge = 0u;
  var separation = -F32_MAX;
  for (var i = 0u; i < MAX_POLYGON_VERTICES; i++) {
    if (i >= count) { break; }
    let s = dot((*poly).normals[i], c - (*poly).vertices[i]);
    if (s > separation) {
      separation = s;
      edge = i;
    }
  }
  if (separation - radius > margin) { return; }
  let i2 = nextVertex(edge, count);
  let v1 = (*poly).vertices[edge];
  let v2 = (*poly).vertices[i2];
  let u1 = dot(c - v1, v2 - v1);
  let u2 = dot(c - v2, v1 - v2);
  if (separation >= 0.0 && (u1 < 0.0 || u2 < 0.0)) {
    let v = select(v2, v1, u1 < 0.0);
    vertexContact(m, v, c, (*poly).radius, (*circle).radius, margin, false, makeId(VERTEX_FEATURE | select(i2, edge, u1 < 0.0), 0u));
    return;
  }
  let n = (*poly).normals[edge];
  let k = 0.5 * ((*poly).radius - (*circle).radius - separation);
  (*m).normal = n;
  (*m).points[0] = ManifoldPoint2D(c + k * n, radius - separation, makeId(edge, 0u));
  (*m).count = 1u;
}

// Circle against circle, both in A's frame: one point on the line of centers.
fn collideCircles(circleA: ptr<private, Shape2D>, circleB: ptr<private, Shape2D>, margin: f32, m: ptr<function, Manifold2D>) {
  (*m).count = 0u;
  let a = (*circleA).vertices[0];
  let b = (*circleB).vertices[0];
  let d = b - a;
  let dist = sqrt(dot(d, d));
  if (dist > 0.0) {
    vertexContact(m, a, b, (*circleA).radius, (*circleB).radius, margin, false, 0u);
    return;
  }
  // Concentric: every direction is a normal; take A's local +y so the answer is deterministic.
  (*m).normal = vec2f(0.0, 1.0);
  (*m).points[0] = ManifoldPoint2D(a + vec2f(0.0, 0.5 * ((*circleA).radius - (*circleB).radius)), (*circleA).radius + (*circleB).radius, 0u);
  (*m).count = 1u;
}

// The manifold of shapes[shapeA] at xfA against shapes[shapeB] at xfB, in world space, computed in
// the frame of the polygon side moved to its vertex 0.
fn collideShapes2D(shapeA: u32, xfA: Transform2D, shapeB: u32, xfB: Transform2D, margin: f32, m: ptr<function, Manifold2D>) {
  let swap = shapes[shapeA].count == 1u && shapes[shapeB].count > 1u;
  let first = select(shapeA, shapeB, swap);
  let second = select(shapeB, shapeA, swap);
  var xfFirst = xfA;
  var xfSecond = xfB;
  if (swap) {
    xfFirst = xfB;
    xfSecond = xfA;
  }
  let origin = shapes[first].vertices[0];
  let xfRel = relativeTransform(xfFirst, origin, xfSecond);
  transformShape(first, IDENTITY_2D, origin, &localA);
  transformShape(second, xfRel, vec2f(0.0), &localB);
  // A class pipeline holds its class's path alone (CLASS_*_2D, src/gpu/pair-classes2d.ts); the
  // general one picks by the vertex counts (the second shape is a circle whenever the first is).
  if (CLASS_CIRCLES_2D && (!CLASS_GENERAL_2D || localB.count == 1u)) {
    if (localA.count == 1u) {
      collideCircles(&localA, &localB, margin, m);
    } else {
      collidePolygonAndCircle(&localA, &localB, margin, m);
    }
  } else if (CLASS_POLYGONS_2D) {
    collidePolygons(&localA, &localB, margin, m);
  }
  manifoldToWorld(m, xfFirst, origin, swap);
}

const IDENTITY_2D = Transform2D(vec2f(0.0), vec2f(1.0, 0.0));
