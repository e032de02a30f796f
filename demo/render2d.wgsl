// The 2D renderer (demo/render2d.ts). Prepended by the library's layouts (layout2d.wgsl,
// contact-list-layout.wgsl, contact-list2d-layout.wgsl): bodies, shapes and the contact list are read
// straight from the buffers the collision frame (or the solver's world) owns.
//
// Bodies: one instance per body, a quad over the shape's bounding box; the fragment shader
// computes the signed distance to the rounded convex polygon (circle: 1 core vertex, capsule: 2)
// and draws a filled, outlined, antialiased shape (circles with a spoke showing their rotation).
// Contacts: one instance per possible point of the written entries (2 each; the instance count
// comes from the list's counts through an indirect draw, demo/contact-draws.ts); points past the
// manifold's count collapse off screen.

struct View2D {
  scale: vec2f,        // world units -> clip
  offset: vec2f,       // clip of the world origin
  pixel: f32,          // one device pixel in world units
  normalLength: f32,   // drawn normal, world units
  _pad0: f32,
  _pad1: f32,
}

@group(0) @binding(0) var<storage, read> shapes: array<Shape2D>;
@group(0) @binding(1) var<storage, read> bodies: array<Body2D>;
@group(0) @binding(2) var<uniform> view: View2D;

const CORNERS = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
/** Shapes narrower than this many pixels skip the distance field. */
const TINY_PIXELS = 4.0;
const KIND_COLOURS = array<vec3f, 4>(vec3f(0.65, 0.49, 0.95), vec3f(0.31, 0.56, 0.97), vec3f(0.25, 0.76, 0.65), vec3f(0.95, 0.65, 0.25));

struct BodyOut {
  @builtin(position) clip: vec4f,
  @location(0) local: vec2f,
  @location(1) @interpolate(flat) shape: u32,
  @location(2) @interpolate(flat) colour: vec3f,
  @location(3) @interpolate(flat) tiny: u32,           // a few pixels across: drawn as a flat quad
}

fn toClip(world: vec2f) -> vec4f {
  return vec4f(world * view.scale + view.offset, 0.0, 1.0);
}

@vertex
fn vsBody(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> BodyOut {
  let body = bodies[i];
  let s = shapes[body.shape];
  // The quad: the core vertices' bounding box grown by the radius (and 2 pixels for the edge's
  // antialiasing), tight for long walls.
  var lo = vec2f(1e30);
  var hi = vec2f(-1e30);
  for (var k = 0u; k < MAX_POLYGON_VERTICES; k++) {
    if (k < s.count) {
      lo = min(lo, s.vertices[k]);
      hi = max(hi, s.vertices[k]);
    }
  }
  // Shapes a few pixels across (100k particles) are flat quads of their size: no distance field.
  let tiny = max(hi.x - lo.x, hi.y - lo.y) + 2.0 * s.radius < TINY_PIXELS * view.pixel;
  let grow = vec2f(s.radius + select(2.0 * view.pixel, 0.0, tiny));
  lo -= grow;
  hi += grow;
  let local = mix(lo, hi, 0.5 * (CORNERS[v] + 1.0));
  let r = body.rotation;
  let world = body.position + vec2f(r.x * local.x - r.y * local.y, r.y * local.x + r.x * local.y);
  // A little variation per body so neighbours of one kind stay apart.
  let shade = 0.8 + 0.2 * f32((i * 2654435761u) >> 28u) / 15.0;
  var out: BodyOut;
  out.clip = toClip(world);
  out.local = local;
  out.shape = body.shape;
  out.colour = KIND_COLOURS[min(s.kind, 3u)] * shade;
  out.tiny = select(0u, 1u, tiny);
  return out;
}

fn segmentDistance(p: vec2f, a: vec2f, b: vec2f) -> f32 {
  let ab = b - a;
  let t = clamp(dot(p - a, ab) / max(dot(ab, ab), 1e-20), 0.0, 1.0);
  return length(p - a - t * ab);
}

/** Signed distance from `p` (shape frame) to the rounded convex polygon: < 0 inside. */
fn shapeDistance(s: Shape2D, p: vec2f) -> f32 {
  var outside = -1e30;
  var nearest = 1e30;
  for (var k = 0u; k < MAX_POLYGON_VERTICES; k++) {
    if (k < s.count) {
      let a = s.vertices[k];
      let b = s.vertices[select(k + 1u, 0u, k + 1u >= s.count)];
      nearest = min(nearest, segmentDistance(p, a, b));
      outside = max(outside, dot(s.normals[k], p - a));
    }
  }
  let inside = s.count >= 3u && outside <= 0.0;
  return select(nearest, -nearest, inside) - s.radius;
}

@fragment
fn fsBody(in: BodyOut) -> @location(0) vec4f {
  if (in.tiny != 0u) { return vec4f(in.colour, 1.0); }
  let s = shapes[in.shape];
  let d = shapeDistance(s, in.local);
  // Antialiasing over one pixel (rotation keeps lengths: a local unit is a world unit).
  let aa = view.pixel;
  // Circles get a spoke (from the centre along local +x) to show their rotation.
  let spoke = select(1e30, segmentDistance(in.local, s.vertices[0], s.vertices[0] + vec2f(0.7 * s.radius, 0.0)), s.kind == 2u);
  let coverage = clamp(0.5 - d / aa, 0.0, 1.0);
  if (coverage <= 0.0) { discard; }
  let edge = clamp(1.0 - abs(d + aa) / aa, 0.0, 1.0);
  let mark = clamp(1.0 - spoke / aa, 0.0, 1.0) * 0.5;
  let fill = in.colour * 0.55;
  let colour = mix(mix(fill, in.colour, edge), vec3f(1.0), mark);
  return vec4f(colour * coverage, coverage);
}

// ---- contacts -------------------------------------------------------------------------------

@group(0) @binding(3) var<storage, read> contacts: array<ContactManifold2D>;
@group(0) @binding(4) var<storage, read> counts: ContactCounts;

struct ContactOut {
  @builtin(position) clip: vec4f,
  @location(0) corner: vec2f,
  @location(1) @interpolate(flat) colour: vec3f,
}

const HIDDEN = vec4f(4.0, 4.0, 4.0, 1.0);

/** Point `i` of the list (entry i / 2, point i % 2), or false when there is none. */
fn contactPoint(i: u32, p: ptr<function, ManifoldPoint2D>, normal: ptr<function, vec2f>) -> bool {
  let entry = i / MAX_MANIFOLD_POINTS_2D;
  let k = i % MAX_MANIFOLD_POINTS_2D;
  if (entry >= counts.written) { return false; }
  let m = contacts[entry].manifold;
  if (k >= m.count) { return false; }
  *p = m.points[k];
  *normal = m.normal;
  return true;
}

fn depthColour(depth: f32) -> vec3f {
  return select(vec3f(1.0, 0.69, 0.13), vec3f(1.0, 0.3, 0.3), depth > 0.0);
}

@vertex
fn vsContactDot(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> ContactOut {
  var p: ManifoldPoint2D;
  var n: vec2f;
  var out: ContactOut;
  out.corner = CORNERS[v];
  if (!contactPoint(i, &p, &n)) {
    out.clip = HIDDEN;
    return out;
  }
  out.clip = toClip(p.position + CORNERS[v] * 2.5 * view.pixel);
  out.colour = depthColour(p.depth);
  return out;
}

@fragment
fn fsContactDot(in: ContactOut) -> @location(0) vec4f {
  let a = clamp((1.0 - length(in.corner)) * 3.0, 0.0, 1.0);
  if (a <= 0.0) { discard; }
  return vec4f(in.colour * a, a);
}

@vertex
fn vsContactNormal(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> ContactOut {
  var p: ManifoldPoint2D;
  var n: vec2f;
  var out: ContactOut;
  if (!contactPoint(i, &p, &n)) {
    out.clip = HIDDEN;
    return out;
  }
  out.clip = toClip(p.position + f32(v) * view.normalLength * n);
  out.colour = vec3f(0.96, 0.97, 0.98);
  return out;
}

@fragment
fn fsContactNormal(in: ContactOut) -> @location(0) vec4f {
  return vec4f(in.colour, 1.0);
}
