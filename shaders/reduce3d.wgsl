// Contact reduction (GPU mirror of src/cpu/reduce3d.ts): the clipped candidate points of a face
// contact reduced to at most MAX_MANIFOLD_POINTS_3D that keep the deepest point and the largest
// area (seed 003's recipe with Box3D's hysteresis).

// Candidate points before reduction: position (working frame) and separation in one vec4f, feature id.
var<private> cand: array<vec4f, MAX_CLIP_POINTS_3D>;
var<private> candId: array<u32, MAX_CLIP_POINTS_3D>;
// Indices of the kept candidates, written by reduceManifold3d.
var<private> chosen: array<u32, MAX_MANIFOLD_POINTS_3D>;

// Reduces candidates (n > 4) to 4 in `chosen`: the deepest point, the one farthest from it, the
// one making the largest triangle with both, the one adding the largest area outside that
// triangle. Each pick takes the first candidate within REDUCTION_HYSTERESIS_3D of the best score,
// so equal-merit points are chosen in a stable order. Returns the number chosen.
fn reduceManifold3d(n: u32, normal: vec3f, scale: f32) -> u32 {
  // 1. Deepest (smallest separation), first within the depth tolerance.
  var lo = F32_MAX_3D;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    lo = min(lo, cand[i].w);
  }
  var i0 = 0u;
  let tolDepth = lo + REDUCTION_DEPTH_TOLERANCE_3D * scale;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    if (cand[i].w <= tolDepth) {
      i0 = i;
      break;
    }
  }
  let a = cand[i0].xyz;
  // 2. Farthest from it.
  var hi = 0.0;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let d = cand[i].xyz - a;
    hi = max(hi, dot(d, d));
  }
  chosen[0] = i0;
  if (!(hi > 0.0)) { return 1u; }
  var i1 = 0u;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let d = cand[i].xyz - a;
    if (dot(d, d) >= REDUCTION_HYSTERESIS_3D * hi) {
      i1 = i;
      break;
    }
  }
  chosen[1] = i1;
  let b = cand[i1].xyz;
  // 3. Largest |signed area| of (a, b, p) around the normal.
  let ab = b - a;
  hi = 0.0;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    hi = max(hi, abs(dot(normal, cross(ab, cand[i].xyz - a))));
  }
  if (!(hi > 0.0)) { return 2u; }
  var i2 = 0u;
  var sign = 1.0;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    let area = dot(normal, cross(ab, cand[i].xyz - a));
    if (abs(area) >= REDUCTION_HYSTERESIS_3D * hi) {
      i2 = i;
      sign = select(-1.0, 1.0, area > 0.0);
      break;
    }
  }
  chosen[2] = i2;
  // 4. Largest area added outside triangle (a, b, c) (wound by `sign` around the normal): first
  // the best score, then the first candidate within the hysteresis of it.
  let c = cand[i2].xyz;
  hi = 0.0;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    if (i == i0 || i == i1 || i == i2) { continue; }
    hi = max(hi, addedArea3d(i, a, b, c, normal, sign));
  }
  if (!(hi > 0.0)) { return 3u; }
  var found = false;
  for (var i = 0u; i < MAX_CLIP_POINTS_3D; i++) {
    if (i >= n) { break; }
    if (i == i0 || i == i1 || i == i2) { continue; }
    if (addedArea3d(i, a, b, c, normal, sign) >= REDUCTION_HYSTERESIS_3D * hi) {
      chosen[3] = i;
      found = true;
      break;
    }
  }
  if (!found) { return 3u; }
  return 4u;
}

// Area candidate i adds outside triangle (a, b, c) wound by `sign` around n: the largest area of
// the triangles it makes with the edges it lies outside of (0 inside).
fn addedArea3d(i: u32, a: vec3f, b: vec3f, c: vec3f, normal: vec3f, sign: f32) -> f32 {
  let p = cand[i].xyz;
  var added = 0.0;
  added = max(added, -sign * dot(normal, cross(b - a, p - a)));
  added = max(added, -sign * dot(normal, cross(c - b, p - b)));
  added = max(added, -sign * dot(normal, cross(a - c, p - c)));
  return added;
}
