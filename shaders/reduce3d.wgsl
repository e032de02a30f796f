// Contact reduction (GPU mirror of src/cpu/reduce3d.ts): the clipped candidate points of a face
// contact reduced to at most MAX_MANIFOLD_POINTS_3D that keep the deepest point (to within the
// linear slop) and the largest area (the recipe of Bullet's contact clipping,
// btPolyhedralContactClipping, with Box3D's hysteresis).

// Candidate points before reduction: position (working frame) and separation in one vec4f, feature
// id. As many as the clip buffers hold (CLASS_CLIP_POINTS_3D).
var<private> cand: array<vec4f, CLASS_CLIP_POINTS_3D>;
var<private> candId: array<u32, CLASS_CLIP_POINTS_3D>;
// Indices of the kept candidates, written by reduceManifold3D.
var<private> chosen: array<u32, MAX_MANIFOLD_POINTS_3D>;
// The picks loop to the candidate count, not to the arrays' size: a compiler unrolls a loop of
// constant trip count, and nine such loops over 19 slots swelled the box–box class's code and
// compile (docs/frame.md, *Cold start*).

// Reduces candidates (n > 4) to 4 in `chosen`: the deepest point, the one farthest from it, the
// one making the largest triangle with both, the one adding the largest area outside that
// triangle. Each pick takes, of the candidates within REDUCTION_HYSTERESIS_3D of the best score,
// the one first in feature id order (firstById3D): points of nearly equal merit are chosen by who
// they are, not by where the clip loop started, so the same points are kept when the reference
// face moves from A to B (ids are in A, B order either way) and when A and B are exchanged. The
// first pick is, of the points within REDUCTION_DEPTH_TOLERANCE_3D of the deepest, one farthest
// from the candidates' centroid: a resting pair's depths follow its wobble, its corners do not.
// Returns the number chosen.
fn reduceManifold3D(n: u32, normal: vec3f, scale: f32) -> u32 {
  // Each pick takes the points it has (a, b, c) as values: every run-time-indexed read of cand
  // is a gather the driver compiles per site.
  let i0 = pickDeepest3D(n, scale);
  chosen[0] = i0;
  let a = cand[i0].xyz;
  let i1 = pickFarthest3D(n, a);
  if (i1 == NO_PICK_3D) { return 1u; }
  chosen[1] = i1;
  let b = cand[i1].xyz;
  let widest = pickWidest3D(n, a, b, normal);
  let i2 = widest.index;
  if (i2 == NO_PICK_3D) { return 2u; }
  chosen[2] = i2;
  let c = cand[i2].xyz;
  let i3 = pickOutside3D(n, i0, i1, i2, a, b, c, normal, widest.sign);
  if (i3 == NO_PICK_3D) { return 3u; }
  chosen[3] = i3;
  return 4u;
}

// The third pick and the winding of (a, b, it) around the normal.
struct AreaPick3D {
  index: u32,                                          // NO_PICK_3D: every candidate on the line a–b
  sign: f32,
}

// Each pass of a pick reads cand[i] once, and the pick keeps its id's order key (firstById3D)
// instead of reading it again. A pick's key starts at 0: the first candidate compared is taken
// whatever the key (firstById3D with NO_PICK_3D).

// Pick 1: of the deepest candidates (within the depth tolerance of the smallest separation), the
// one farthest out from the candidates' centroid (a corner of the region).
fn pickDeepest3D(n: u32, scale: f32) -> u32 {
  var lo = F32_MAX_3D;
  var g = vec3f(0.0);
  for (var i = 0u; i < n; i++) {
    let p = cand[i];
    lo = min(lo, p.w);
    g += p.xyz;
  }
  let tolDepth = lo + REDUCTION_DEPTH_TOLERANCE_3D * scale;
  g /= f32(n);
  var far = 0.0;
  for (var i = 0u; i < n; i++) {
    let p = cand[i];
    if (p.w > tolDepth) { continue; }
    let d = p.xyz - g;
    far = max(far, dot(d, d));
  }
  var i0 = NO_PICK_3D;
  var key = 0u;
  for (var i = 0u; i < n; i++) {
    let p = cand[i];
    let d = p.xyz - g;
    let k = idOrder3D(candId[i]);
    if (p.w <= tolDepth && dot(d, d) >= REDUCTION_HYSTERESIS_3D * far && firstById3D(k, i0, key)) {
      i0 = i;
      key = k;
    }
  }
  return i0;
}

// Pick 2: the candidate farthest from pick a; NO_PICK_3D when every candidate is at a.
fn pickFarthest3D(n: u32, a: vec3f) -> u32 {
  var hi = 0.0;
  for (var i = 0u; i < n; i++) {
    let d = cand[i].xyz - a;
    hi = max(hi, dot(d, d));
  }
  if (!(hi > 0.0)) { return NO_PICK_3D; }
  var i1 = NO_PICK_3D;
  var key = 0u;
  for (var i = 0u; i < n; i++) {
    let d = cand[i].xyz - a;
    let k = idOrder3D(candId[i]);
    if (dot(d, d) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, i1, key)) {
      i1 = i;
      key = k;
    }
  }
  return i1;
}

// Pick 3: the candidate making the largest |signed area| of (a, b, p) around the normal, and the
// sign of that area (index NO_PICK_3D when all are on the line a–b).
fn pickWidest3D(n: u32, a: vec3f, b: vec3f, normal: vec3f) -> AreaPick3D {
  let ab = b - a;
  var hi = 0.0;
  for (var i = 0u; i < n; i++) {
    hi = max(hi, abs(dot(normal, cross(ab, cand[i].xyz - a))));
  }
  var i2 = NO_PICK_3D;
  var sign = 1.0;
  if (hi > 0.0) {
    var key = 0u;
    for (var i = 0u; i < n; i++) {
      let area = dot(normal, cross(ab, cand[i].xyz - a));
      let k = idOrder3D(candId[i]);
      if (abs(area) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, i2, key)) {
        i2 = i;
        key = k;
        sign = select(-1.0, 1.0, area > 0.0);
      }
    }
  }
  return AreaPick3D(i2, sign);
}

// Pick 4: the candidate adding the largest area outside triangle (a, b, c) = (i0, i1, i2), wound
// by `sign` around the normal: the best score, then the candidate within the hysteresis of it
// first in id order; NO_PICK_3D when none adds any.
fn pickOutside3D(n: u32, i0: u32, i1: u32, i2: u32, a: vec3f, b: vec3f, c: vec3f, normal: vec3f, sign: f32) -> u32 {
  var hi = 0.0;
  for (var i = 0u; i < n; i++) {
    if (i == i0 || i == i1 || i == i2) { continue; }
    hi = max(hi, addedArea3D(cand[i].xyz, a, b, c, normal, sign));
  }
  if (!(hi > 0.0)) { return NO_PICK_3D; }
  var i3 = NO_PICK_3D;
  var key = 0u;
  for (var i = 0u; i < n; i++) {
    if (i == i0 || i == i1 || i == i2) { continue; }
    let k = idOrder3D(candId[i]);
    if (addedArea3D(cand[i].xyz, a, b, c, normal, sign) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, i3, key)) {
      i3 = i;
      key = k;
    }
  }
  return i3;
}

// No candidate picked yet.
const NO_PICK_3D = 0xffffffffu;

// A feature id's place in id order: its two halves in ascending order, so that the order is the
// same with A and B exchanged.
fn idOrder3D(id: u32) -> u32 {
  return min(id, swapId3D(id));
}

// Whether a candidate of order key `k` comes before the current pick (NO_PICK_3D: none yet; its
// key `pickKey`) in feature id order.
fn firstById3D(k: u32, pick: u32, pickKey: u32) -> bool {
  return pick == NO_PICK_3D || k < pickKey;
}

// Area point p adds outside triangle (a, b, c) wound by `sign` around n: the largest area of the
// triangles it makes with the edges it lies outside of (0 inside).
fn addedArea3D(p: vec3f, a: vec3f, b: vec3f, c: vec3f, normal: vec3f, sign: f32) -> f32 {
  var added = 0.0;
  added = max(added, -sign * dot(normal, cross(b - a, p - a)));
  added = max(added, -sign * dot(normal, cross(c - b, p - b)));
  added = max(added, -sign * dot(normal, cross(a - c, p - c)));
  return added;
}
