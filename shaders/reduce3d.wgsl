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
  // Each pass reads cand[i] once, and a pick keeps its id's order key (firstById3D) instead of
  // reading it again: every run-time-indexed read is a gather the driver compiles per site.
  // 1. Deepest (smallest separation), within the depth tolerance; and the candidates' centroid.
  var lo = F32_MAX_3D;
  var g = vec3f(0.0);
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let p = cand[i];
    lo = min(lo, p.w);
    g += p.xyz;
  }
  let tolDepth = lo + REDUCTION_DEPTH_TOLERANCE_3D * scale;
  // Of those, the one farthest out from the centroid (a corner of the region).
  g /= f32(n);
  var far = 0.0;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let p = cand[i];
    if (p.w > tolDepth) { continue; }
    let d = p.xyz - g;
    far = max(far, dot(d, d));
  }
  var i0 = NO_PICK_3D;
  var key = 0u;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let p = cand[i];
    let d = p.xyz - g;
    let k = idOrder3D(candId[i]);
    if (p.w <= tolDepth && dot(d, d) >= REDUCTION_HYSTERESIS_3D * far && firstById3D(k, i0, key)) {
      i0 = i;
      key = k;
    }
  }
  let a = cand[i0].xyz;
  // 2. Farthest from it.
  var hi = 0.0;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let d = cand[i].xyz - a;
    hi = max(hi, dot(d, d));
  }
  chosen[0] = i0;
  if (!(hi > 0.0)) { return 1u; }
  var i1 = NO_PICK_3D;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let d = cand[i].xyz - a;
    let k = idOrder3D(candId[i]);
    if (dot(d, d) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, i1, key)) {
      i1 = i;
      key = k;
    }
  }
  chosen[1] = i1;
  let b = cand[i1].xyz;
  // 3. Largest |signed area| of (a, b, p) around the normal.
  let ab = b - a;
  hi = 0.0;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    hi = max(hi, abs(dot(normal, cross(ab, cand[i].xyz - a))));
  }
  if (!(hi > 0.0)) { return 2u; }
  var i2 = NO_PICK_3D;
  var sign = 1.0;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let area = dot(normal, cross(ab, cand[i].xyz - a));
    let k = idOrder3D(candId[i]);
    if (abs(area) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, i2, key)) {
      i2 = i;
      key = k;
      sign = select(-1.0, 1.0, area > 0.0);
    }
  }
  chosen[2] = i2;
  // 4. Largest area added outside triangle (a, b, c) (wound by `sign` around the normal): the
  // best score, then the candidate within the hysteresis of it first in id order.
  let c = cand[i2].xyz;
  hi = 0.0;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    if (i == i0 || i == i1 || i == i2) { continue; }
    hi = max(hi, addedArea3D(cand[i].xyz, a, b, c, normal, sign));
  }
  if (!(hi > 0.0)) { return 3u; }
  var i3 = NO_PICK_3D;
  for (var i = 0u; i < CLASS_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    if (i == i0 || i == i1 || i == i2) { continue; }
    let k = idOrder3D(candId[i]);
    if (addedArea3D(cand[i].xyz, a, b, c, normal, sign) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, i3, key)) {
      i3 = i;
      key = k;
    }
  }
  if (i3 == NO_PICK_3D) { return 3u; }
  chosen[3] = i3;
  return 4u;
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
