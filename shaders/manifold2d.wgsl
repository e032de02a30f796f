// Transforms and feature ids (GPU mirror of src/cpu/manifold2d.ts).

// A rigid transform: position p and rotation q = (cos, sin).
struct Transform2D {
  p: vec2f,
  q: vec2f,
}

// Marks a vertex (rather than a face) in a feature byte where both could be meant (polygon–circle).
const VERTEX_FEATURE: u32 = 0x80u;

fn rotate(q: vec2f, v: vec2f) -> vec2f {
  return vec2f(q.x * v.x - q.y * v.y, q.y * v.x + q.x * v.y);
}

// The vertex after i, counter-clockwise (the end of edge i).
fn nextVertex(i: u32, count: u32) -> u32 {
  return select(0u, i + 1u, i + 1u < count);
}

// Feature id of a point made by feature a of body A and feature b of body B.
fn makeId(a: u32, b: u32) -> u32 {
  return ((a & 0xffu) << 8u) | (b & 0xffu);
}

// B's transform relative to A's, with A's frame moved to `origin` (a point of A, A's local frame).
fn relativeTransform(xfA: Transform2D, origin: vec2f, xfB: Transform2D) -> Transform2D {
  // Subtract the world positions first: they are the large numbers (see the CPU mirror).
  let d = (xfB.p - xfA.p) - rotate(xfA.q, origin);
  let c = xfA.q.x;
  let s = xfA.q.y;
  return Transform2D(
    vec2f(c * d.x + s * d.y, -s * d.x + c * d.y),
    vec2f(c * xfB.q.x + s * xfB.q.y, c * xfB.q.y - s * xfB.q.x),
  );
}

// Moves a manifold from the frame xf shifted to `origin` into world space. `swap`: the collide
// function ran with the shapes swapped; negate the normal and exchange the id halves.
fn manifoldToWorld(m: ptr<function, Manifold2D>, xf: Transform2D, origin: vec2f, swap: bool) {
  let sign = select(1.0, -1.0, swap);
  (*m).normal = sign * rotate(xf.q, (*m).normal);
  for (var i = 0u; i < MAX_MANIFOLD_POINTS_2D; i++) {
    if (i < (*m).count) {
      (*m).points[i].position = xf.p + rotate(xf.q, (*m).points[i].position + origin);
      let id = (*m).points[i].id;
      if (swap) {
        (*m).points[i].id = ((id & 0xffu) << 8u) | ((id >> 8u) & 0xffu);
      }
    }
  }
}
