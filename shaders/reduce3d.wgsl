// Contact reduction (GPU mirror of src/cpu/reduce3d.ts): the clipped candidate points of a face
// contact reduced to at most MAX_MANIFOLD_POINTS_3D that keep the deepest point (to within the
// linear slop) and the largest area (the recipe of Bullet's contact clipping,
// btPolyhedralContactClipping, with Box3D's hysteresis). The CPU runs each pick as loops of its
// own (pickDeepest3D, pickFarthest3D, pickWidest3D, pickOutside3D: faster in JavaScript); here the
// picks are one loop over pickScore3D, the same scores compared in the same order.

// Candidate points before reduction: position (working frame) and separation in one vec4f, feature
// id. As many as the clip buffers hold (CLASS_CLIP_POINTS_3D).
var<private> cand: array<vec4f, CLASS_CLIP_POINTS_3D>;
var<private> candId: array<u32, CLASS_CLIP_POINTS_3D>;
// The picks loop to the candidate count, not to the arrays' size: a compiler unrolls a loop of
// constant trip count, and nine such loops over 19 slots swelled the box–box class's code and
// compile (docs/frame.md, *Cold start*).

// Pushes the n candidates (n > 0) onto the manifold (pushPoint3D), reduced to at most 4: up to 4
// are all kept, in order; of more, the deepest point, the one farthest from it, the one making
// the largest triangle with both, the one adding the largest area outside that triangle. Each
// pick takes, of the candidates within REDUCTION_HYSTERESIS_3D of the best score, the one first
// in feature id order (firstById3D): points of nearly equal merit are chosen by who they are, not
// by where the clip loop started, so the same points are kept when the reference face moves from
// A to B (ids are in A, B order either way) and when A and B are exchanged. The first pick is, of
// the points within REDUCTION_DEPTH_TOLERANCE_3D of the deepest, one farthest from the
// candidates' centroid: a resting pair's depths follow its wobble, its corners do not. Returns the
// number pushed.
//
// The picks are one loop, each pick two passes over the candidates (the best score, then the
// first in id order within the hysteresis of it) and one push, so that cand is read at three
// sites: each run-time-indexed read is a gather the driver compiles per site on SIMD backends.
fn reduceManifold3D(n: u32, normal: vec3f, scale: f32) -> u32 {
  var lo = F32_MAX_3D;
  var g = vec3f(0.0);
  for (var i = 0u; i < n; i++) {
    let p = cand[i];
    lo = min(lo, p.w);
    g += p.xyz;
  }
  var picks = Picks3D(n <= MAX_MANIFOLD_POINTS_3D, lo + REDUCTION_DEPTH_TOLERANCE_3D * scale, g / f32(n), normal, vec3u(NO_PICK_3D), vec3f(0.0), vec3f(0.0), vec3f(0.0), 1.0);
  var count = 0u;
  var found = true;
  for (var pick = 0u; pick < MAX_MANIFOLD_POINTS_3D && found; pick++) {
    var hi = 0.0;
    for (var i = 0u; i < n; i++) {
      let p = cand[i];
      hi = max(hi, pickScore3D(pick, i, p.xyz, p.w, picks));
    }
    // The first pick always takes a point (the deepest is within its own tolerance); a later one
    // none when no candidate scores above 0.
    var taken = NO_PICK_3D;
    var point = vec4f(0.0);
    var id = 0u;
    if (pick == 0u || hi > 0.0) {
      var key = 0u;
      for (var i = 0u; i < n; i++) {
        let p = cand[i];
        let pid = candId[i];
        let k = idOrder3D(pid);
        if (pickScore3D(pick, i, p.xyz, p.w, picks) >= REDUCTION_HYSTERESIS_3D * hi && firstById3D(k, taken, key)) {
          taken = i;
          key = k;
          point = p;
          id = pid;
        }
      }
    }
    found = taken != NO_PICK_3D;
    if (found) {
      pushPoint3D(point.xyz, point.w, id);
      takePick3D(pick, taken, point.xyz, &picks);
      count++;
    }
  }
  return count;
}

// What a pick scores by: the candidates' own measures, and the picks taken before it.
struct Picks3D {
  all: bool,                                           // at most 4 candidates: each kept, in order
  tolDepth: f32,                                       // the first pick's depth bound
  centroid: vec3f,                                     // the candidates' centroid
  normal: vec3f,
  index: vec3u,                                        // the first three picks' candidates
  a: vec3f,                                            // and their points
  b: vec3f,
  c: vec3f,
  sign: f32,                                           // the winding of (a, b, c) around the normal
}

// The score of candidate i (point p, separation sep) for pick `pick` (0 to 3), larger is better;
// -1 where the pick may not take it.
fn pickScore3D(pick: u32, i: u32, p: vec3f, sep: f32, picks: Picks3D) -> f32 {
  if (picks.all) { return select(-1.0, 1.0, i == pick); }
  if (pick == 0u) {
    // Of the deepest candidates, the one farthest out from the centroid (a corner of the region).
    let d = p - picks.centroid;
    return select(-1.0, dot(d, d), sep <= picks.tolDepth);
  }
  if (pick == 1u) {
    // The farthest from a.
    let d = p - picks.a;
    return dot(d, d);
  }
  if (pick == 2u) {
    // The largest |signed area| of (a, b, p) around the normal.
    return abs(dot(picks.normal, cross(picks.b - picks.a, p - picks.a)));
  }
  // The largest area added outside triangle (a, b, c).
  if (any(vec3u(i) == picks.index)) { return -1.0; }
  return addedArea3D(p, picks.a, picks.b, picks.c, picks.normal, picks.sign);
}

// Records pick `pick`: candidate i, at point p.
fn takePick3D(pick: u32, i: u32, p: vec3f, picks: ptr<function, Picks3D>) {
  if (pick == 0u) {
    (*picks).index.x = i;
    (*picks).a = p;
  } else if (pick == 1u) {
    (*picks).index.y = i;
    (*picks).b = p;
  } else if (pick == 2u) {
    (*picks).index.z = i;
    (*picks).c = p;
    (*picks).sign = select(-1.0, 1.0, dot((*picks).normal, cross((*picks).b - (*picks).a, p - (*picks).a)) > 0.0);
  }
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
