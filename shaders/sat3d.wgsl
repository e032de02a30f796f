// Separating-axis queries of two hulls (GPU mirror of src/cpu/sat3d.ts, function for function).
//
//   queryFaceDirections3D: the face normals of one hull against the vertices of the other. The
//     face plane is moved into the other hull's shape frame, so its vertices are read as stored.
//   queryEdgeDirections3D: the cross products of edge pairs that build a face of the Minkowski
//     difference (their Gauss-map arcs cross).
// Both skip faces and edges that cannot beat the best axis, with bounds from the hulls' centres
// and inradii (exact pruning; see the CPU file). B's surviving edges are listed with their face
// normals in private arrays, A's in a 128-bit mask, so each SIMD lane loops over its own
// survivors only (lanes of a SIMD backend run a loop as long as any of them needs it). Boxes:
// support −Σ h_k |n_k| in face queries, and queryBoxEdges3D for two boxes.

// B's edges that survive the edge query's pruning: index and face normals (B's frame). Sized by
// the pair class (CLASS_EDGE_CANDIDATES_3D: a hull's edges where hull–hull pairs occur).
var<private> candEdgeB: array<u32, CLASS_EDGE_CANDIDATES_3D>;
var<private> candNormal0B: array<vec3f, CLASS_EDGE_CANDIDATES_3D>;
var<private> candNormal1B: array<vec3f, CLASS_EDGE_CANDIDATES_3D>;

struct FaceQuery3D {
  separation: f32,
  face: u32,
}

struct EdgeQuery3D {
  separation: f32,
  edgeA: i32,                                          // -1: no edge pair
  edgeB: u32,
  axis: vec3f,                                         // working frame, pointing away from A's centre
}

// The lowest set bit of a 128-bit edge mask (not empty), cleared; returns its index.
fn takeLowestBit3D(mask: ptr<function, vec4u>) -> u32 {
  let m = *mask;
  let w = select(select(select(3u, 2u, m.z != 0u), 1u, m.y != 0u), 0u, m.x != 0u);
  let bits = m[w];
  (*mask)[w] = bits & (bits - 1u);
  return (w << 5u) + firstTrailingBit(bits);
}

// v scaled by a power of two (exact) to a largest component in [0.5, 1).
fn unitScale3D(v: vec3f) -> vec3f {
  return ldexp(v, vec3i(-frexp(max(abs(v.x), max(abs(v.y), abs(v.z)))).exp));
}

// The unit axis d1 × d2 of two edge directions, turned so that dot(axis, toward) >= 0, in xyz;
// w = 1, or all 0 when the edges are parallel (|d1 × d2| < PARALLEL_EDGE_SINE_3D |d1| |d2|: too
// short to normalise in f32; parallel edges are covered by the face axes). Shared by the
// edge–edge axes here and the hull edge × capsule segment axes of round3d.wgsl. The test compares
// quantities of order |d1|² |d2|²: the smallest edges accepted (MIN_EDGE_RELATIVE_3D of
// MIN_EXTENT_3D) put them near 1e-40, below f32's normal range, where a GPU that flushes
// subnormals reads 0. Scaled first by powers of two (exact, so the axis and the test are
// unchanged wherever nothing was subnormal), both directions are of order 1.
fn edgeAxis3D(e1: vec3f, e2: vec3f, toward: vec3f) -> vec4f {
  let d1 = unitScale3D(e1);
  let d2 = unitScale3D(e2);
  let n = cross(d1, d2);
  let l2 = dot(n, n);
  if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * (dot(d1, d1) * dot(d2, d2))) { return vec4f(0.0); }
  let u = n * (1.0 / sqrt(l2));
  return vec4f(select(u, -u, dot(u, toward) < 0.0), 1.0);
}

// Largest value of dot(m, w) over unit m on the shorter great arc from unit u to unit v.
fn arcMax3D(u: vec3f, v: vec3f, w: vec3f) -> f32 {
  var best = max(dot(u, w), dot(v, w));
  let k = cross(u, v);
  let kk = dot(k, k);
  if (kk > 0.0) {
    let p = w - (dot(w, k) / kk) * k;
    // p is on the arc when it lies on u's and v's inner sides.
    if (dot(cross(u, p), k) >= 0.0 && dot(cross(p, v), k) >= 0.0) {
      best = max(best, sqrt(dot(p, p)));
    }
  }
  return best;
}

// Separation of I's vertices from face f of R, the plane moved into I's frame by xf.
fn faceSeparation3D(R: Hull3D, f: u32, xf: RigidTransform3D, I: Hull3D) -> f32 {
  let pl = hullPlane(R, f);
  let n = xf.rot * pl.xyz;
  let d = pl.w + dot(n, xf.pos);
  if (CLASS_BOXES_ONLY_3D || I.isBox) {
    // A box's lowest point along n: its support −Σ h_k |n_k|.
    return -dot(I.half, abs(n)) - d;
  }
  var lo = F32_MAX_3D;
  for (var i = 0u; i < MAX_HULL_VERTICES; i++) {
    if (i >= I.vertexCount) { break; }
    lo = min(lo, dot(n, hullVertex(I, i)));
  }
  return lo - d;
}

// Largest separation over the face normals of hull R against the vertices of hull I. A result
// above `limit` only says the hulls are apart by more than it.
fn queryFaceDirections3D(R: Hull3D, I: Hull3D, limit: f32, scale: f32) -> FaceQuery3D {
  let xf = relativeTransform3D(R, I);
  let rho = I.inradius;
  // Pass 1: the face with the highest bound −d − ρ, and its separation.
  var top = 0u;
  var topBound = -F32_MAX_3D;
  for (var f = 0u; f < MAX_HULL_FACES; f++) {
    if (f >= R.faceCount) { break; }
    let pl = hullPlane(R, f);
    let d = pl.w + dot(xf.rot * pl.xyz, xf.pos);
    let bound = -d - rho;
    if (bound > topBound) {
      topBound = bound;
      top = f;
    }
  }
  // Step 0 of the loop below: that face's separation, the floor. Pass 2 (in step 0): the faces
  // whose bound reaches the floor (less the slack), as a 64-bit mask. Pass 3 (steps 1 on), in face
  // order: their separations (each lane loops over its own faces only). One loop for the floor
  // and pass 3, so that faceSeparation3D has one call site.
  var floor = 0.0;
  var mask = vec2u(0u);
  var best = -F32_MAX_3D;
  var bestFace = 0u;
  var f = top;
  for (var t = 0u; t <= MAX_HULL_FACES; t++) {
    let s = faceSeparation3D(R, f, xf, I);
    if (t == 0u) {
      floor = s;
      if (floor > limit) { break; }
      let cut = floor - SAT_PRUNE_SLACK_3D * scale;
      for (var g = 0u; g < MAX_HULL_FACES; g++) {
        if (g >= R.faceCount) { break; }
        let pl = hullPlane(R, g);
        let d = pl.w + dot(xf.rot * pl.xyz, xf.pos);
        if (-d - rho >= cut) {
          mask[g >> 5u] |= 1u << (g & 31u);
        }
      }
    } else if (s > best) {
      best = s;
      bestFace = f;
      if (s > limit) { break; }
    }
    if (all(mask == vec2u(0u))) { break; }
    let w = select(1u, 0u, mask.x != 0u);
    let bits = mask[w];
    mask[w] = bits & (bits - 1u);
    f = (w << 5u) + firstTrailingBit(bits);
  }
  if (floor > limit) { return FaceQuery3D(floor, top); }
  return FaceQuery3D(best, bestFace);
}

// Largest separation over the edge–edge axes of hulls A and B, for edge pairs whose Gauss-map arcs
// cross. Edge pairs that cannot separate by `threshold` are skipped; a result above `limit` only
// says the hulls are apart by more than it.
fn queryEdgeDirections3D(A: Hull3D, B: Hull3D, limit: f32, threshold: f32, scale: f32) -> EdgeQuery3D {
  let xf = relativeTransform3D(A, B);
  let cB = relativeTransform3D(B, A).pos;
  let cut = threshold - SAT_PRUNE_SLACK_3D * scale;
  // Both hulls' surviving edges listed first, so that SIMD lanes loop over their own only.
  let pruned = pruneEdgesBA3D(A, B, xf.pos, cB, cut);
  let countB = pruned.countB;
  var maskA = pruned.maskA;
  var best = -F32_MAX_3D;
  var bestA = -1;
  var bestB = 0u;
  var axis = vec3f(0.0);
  var done = false;
  for (var ta = 0u; ta < MAX_HULL_EDGES; ta++) {
    if (done || !any(maskA != vec4u(0u))) { break; }
    let i = takeLowestBit3D(&maskA);
    let ea = hullEdge(A, i);
    let ua = hullPlane(A, ea.z).xyz;
    let va = hullPlane(A, ea.w).xyz;
    let pa = hullVertex(A, ea.x);
    // A's edge in B's frame: its face normals u, v, its end points relative to A's centre.
    let u = xf.rot * ua;
    let v = xf.rot * va;
    // b × a: the normal of the plane of A's arc.
    let ba = cross(v, u);
    let r0 = xf.rot * pa;
    let e1 = xf.rot * hullVertex(A, ea.y) - r0;
    let p = r0 + xf.pos;
    for (var k = 0u; k < MAX_HULL_EDGES; k++) {
      if (k >= countB || done) { break; }
      if (!arcsCross3D(u, v, ba, candNormal0B[k], candNormal1B[k])) { continue; }
      let j = candEdgeB[k];
      let sep = edgePairSeparation3D(B, j, e1, r0, p);
      if (sep.w > best) {
        best = sep.w;
        bestA = i32(i);
        bestB = j;
        axis = sep.xyz;
        if (sep.w > limit) { done = true; }
      }
    }
  }
  // The axis back into the working frame.
  return EdgeQuery3D(best, bestA, bestB, B.rot * axis);
}

// The CPU's pruneEdgesB3D, then pruneEdgesA3D when B keeps any edge, in one loop (one copy of its
// storage reads, which lavapipe compiles per SIMD lane): B's edges that can face A listed with
// their face normals in the private arrays (the inner loop reads them once per A edge, and private
// reads are far cheaper than storage reads on SIMD backends), then A's that can face B as a
// 128-bit mask. An edge of H can face the other hull (centre c in H's frame, inradius ρ) when its
// bound, max over the edge's arc of n · (c − p) − ρ, reaches `cut` (cA: A's centre in B's frame,
// cB: B's in A's).
struct PrunedEdges3D {
  countB: u32,
  maskA: vec4u,
}

fn pruneEdgesBA3D(A: Hull3D, B: Hull3D, cA: vec3f, cB: vec3f, cut: f32) -> PrunedEdges3D {
  var out = PrunedEdges3D(0u, vec4u(0u));
  for (var t = 0u; t < 2u * MAX_HULL_EDGES; t++) {
    let onB = t < B.edgeCount;
    if (!onB && (out.countB == 0u || t >= B.edgeCount + A.edgeCount)) { break; }
    let H = pickHull3D(onB, B, A);
    let e = select(t - B.edgeCount, t, onB);
    let edge = hullEdge(H, e);
    let n0 = hullPlane(H, edge.z).xyz;
    let n1 = hullPlane(H, edge.w).xyz;
    let c = select(cB, cA, onB);
    let rho = select(B.inradius, A.inradius, onB);
    if (!(arcMax3D(n0, n1, c - hullVertex(H, edge.x)) - rho >= cut)) { continue; }
    if (onB) {
      candEdgeB[out.countB] = e;
      candNormal0B[out.countB] = n0;
      candNormal1B[out.countB] = n1;
      out.countB++;
    } else {
      out.maskA[e >> 5u] |= 1u << (e & 31u);
    }
  }
  return out;
}

// Whether the Gauss-map arc of A's edge (face normals u, v; ba = v × u, its plane's normal)
// crosses that of B's edge (face normals na = n(f0), nb = n(f1)). With c = -n(f0), d = -n(f1):
// c and d lie on opposite sides of A's arc plane, a = u and b = v on opposite sides of B's, and
// c, b on the same hemisphere.
fn arcsCross3D(u: vec3f, v: vec3f, ba: vec3f, na: vec3f, nb: vec3f) -> bool {
  let cba = -dot(na, ba);
  let dba = -dot(nb, ba);
  if (!((cba < 0.0 && dba > 0.0) || (cba > 0.0 && dba < 0.0))) { return false; }
  // d × c = n(f1) × n(f0).
  let dc = cross(nb, na);
  let adc = dot(u, dc);
  let bdc = dot(v, dc);
  if (!((adc < 0.0 && bdc > 0.0) || (adc > 0.0 && bdc < 0.0))) { return false; }
  return (cba < 0.0 && bdc < 0.0) || (cba > 0.0 && bdc > 0.0);
}

// The axis (xyz) and separation (w) of A's edge (direction e1, start r0 relative to A's centre,
// p in B's frame) and B's edge j, whose arcs cross (a face of the Minkowski difference): axis
// e1 × e2 pointing away from A's centre; w = -F32_MAX_3D (never a best) for parallel edges.
fn edgePairSeparation3D(B: Hull3D, j: u32, e1: vec3f, r0: vec3f, p: vec3f) -> vec4f {
  let eb = hullEdge(B, j);
  let q = hullVertex(B, eb.x);
  let e2 = hullVertex(B, eb.y) - q;
  let axisE = edgeAxis3D(e1, e2, r0);
  if (axisE.w == 0.0) { return vec4f(0.0, 0.0, 0.0, -F32_MAX_3D); }
  let n = axisE.xyz;
  return vec4f(n, dot(n, q - p));
}

// Box topology: the edge along axis a whose other coordinates have the signs of vertex mask m.
fn boxEdgeByAxis3D(a: u32, m: u32) -> u32 {
  let w = select(select(BOX_EDGE_BY_AXIS_2, BOX_EDGE_BY_AXIS_1, a == 1u), BOX_EDGE_BY_AXIS_0, a == 0u);
  return (w >> (4u * m)) & 0xfu;
}

// The edge–edge axes of two boxes: the 9 cross products of their axes, each oriented towards B's
// centre, separation |L · t| − r_A − r_B; the support edges from the box topology.
fn queryBoxEdges3D(A: Hull3D, B: Hull3D, limit: f32) -> EdgeQuery3D {
  let xf = relativeTransform3D(B, A);
  let t = xf.pos;
  var best = -F32_MAX_3D;
  var bestA = -1;
  var bestB = 0u;
  var axis = vec3f(0.0);
  // One loop over the 9 pairs of axes, A's axis a the outer: two nested loops of 3 are unrolled,
  // nine copies of the body. B's axis b is picked by selects (a run-time index would put the
  // matrix in memory).
  for (var k = 0u; k < 9u; k++) {
    let a = k / 3u;
    let b = k % 3u;
    // B's axis b in A's frame, and L = e_a × it.
    let e = select(select(xf.rot[2], xf.rot[1], b == 1u), xf.rot[0], b == 0u);
    var n = vec3f(select(select(-e.y, e.z, a == 1u), 0.0, a == 0u), select(select(e.x, 0.0, a == 1u), -e.z, a == 0u), select(select(0.0, -e.x, a == 1u), e.y, a == 0u));
    let l2 = dot(n, n);
    if (l2 < PARALLEL_EDGE_SINE_3D * PARALLEL_EDGE_SINE_3D * dot(e, e)) { continue; }
    n = n * (1.0 / sqrt(l2));
    if (dot(n, t) < 0.0) {
      n = -n;
    }
    let nb = transpose(xf.rot) * n;
    let s = dot(n, t) - dot(A.half, abs(n)) - dot(B.half, abs(nb));
    if (s > best) {
      best = s;
      // A's support edge along n: along axis a, the other coordinates on n's side; B's against n.
      let maskA = select(0u, 1u, a != 0u && n.x > 0.0) | select(0u, 2u, a != 1u && n.y > 0.0) | select(0u, 4u, a != 2u && n.z > 0.0);
      let maskB = select(0u, 1u, b != 0u && nb.x < 0.0) | select(0u, 2u, b != 1u && nb.y < 0.0) | select(0u, 4u, b != 2u && nb.z < 0.0);
      bestA = i32(boxEdgeByAxis3D(a, maskA));
      bestB = boxEdgeByAxis3D(b, maskB);
      axis = n;
      if (s > limit) { break; }
    }
  }
  return EdgeQuery3D(best, bestA, bestB, A.rot * axis);
}
