// The 3D renderer (demo/render3d.ts). Prepended by the library's 3D layouts (layout3d.wgsl,
// contact-list-layout.wgsl, contact-list3d-layout.wgsl): the bodies and the contact list are read
// straight from the world's and the collision frame's buffers. One draw per shape: its triangle mesh (body
// frame, flat face normals) instanced over the bodies of that shape (the scene keeps each shape's
// bodies contiguous; instance_index counts from the draw's first instance). A directional light
// and a sky/ground ambient.

struct Camera3D {
  viewProj: mat4x4f,
  eye: vec4f,
  light: vec4f,        // xyz: unit direction towards the light; w: drawn contact normal length
}

@group(0) @binding(0) var<storage, read> bodies: array<Body3D>;
@group(0) @binding(1) var<uniform> camera: Camera3D;
// Per shape: rgb, and w = 1 for a static shape's (floor, walls), drawn as is.
@group(0) @binding(2) var<storage, read> shapeColours: array<vec4f>;

struct MeshIn {
  @location(0) position: vec3f,
  @location(1) normal: vec3f,
}

struct BodyOut {
  @builtin(position) clip: vec4f,
  @location(0) normal: vec3f,
  @location(1) @interpolate(flat) colour: vec3f,
}

/** v rotated by the unit quaternion q = (x, y, z, w). */
fn rotate(q: vec4f, v: vec3f) -> vec3f {
  let t = 2.0 * cross(q.xyz, v);
  return v + q.w * t + cross(q.xyz, t);
}

fn shapeColour(shape: u32, body: u32) -> vec3f {
  let c = shapeColours[shape];
  // Moving bodies: a little variation per body so neighbours of one shape stay apart.
  return c.rgb * select(0.85 + 0.15 * f32((body * 2246822519u) >> 28u) / 15.0, 1.0, c.w > 0.5);
}

@vertex
fn vsBody(in: MeshIn, @builtin(instance_index) i: u32) -> BodyOut {
  let body = bodies[i];
  let world = body.position + rotate(body.rotation, in.position);
  var out: BodyOut;
  out.clip = camera.viewProj * vec4f(world, 1.0);
  out.normal = rotate(body.rotation, in.normal);
  out.colour = shapeColour(body.shape, i);
  return out;
}

@fragment
fn fsBody(in: BodyOut) -> @location(0) vec4f {
  let n = normalize(in.normal);
  let diffuse = max(dot(n, camera.light.xyz), 0.0);
  let ambient = mix(0.18, 0.32, 0.5 + 0.5 * n.y);
  return vec4f(in.colour * (ambient + 0.75 * diffuse), 1.0);
}

// ---- contacts: one instance per possible point of the written entries (MAX_MANIFOLD_POINTS_3D
// each, an indirect draw: demo/contact-draws.ts), 8 line vertices each: the normal (white), then a
// small cross (red: penetrating, amber: speculative). Points past the manifold's count collapse
// off screen.

@group(0) @binding(3) var<storage, read> contacts: array<ContactManifold3D>;
@group(0) @binding(4) var<storage, read> counts: ContactCounts;

struct LineOut {
  @builtin(position) clip: vec4f,
  @location(0) colour: vec3f,
}

const CROSS = array<vec3f, 6>(vec3f(-1.0, 0.0, 0.0), vec3f(1.0, 0.0, 0.0), vec3f(0.0, -1.0, 0.0), vec3f(0.0, 1.0, 0.0), vec3f(0.0, 0.0, -1.0), vec3f(0.0, 0.0, 1.0));

@vertex
fn vsContact(@builtin(vertex_index) v: u32, @builtin(instance_index) i: u32) -> LineOut {
  var out: LineOut;
  out.clip = vec4f(4.0, 4.0, 4.0, 1.0);
  let entry = i / MAX_MANIFOLD_POINTS_3D;
  let k = i % MAX_MANIFOLD_POINTS_3D;
  if (entry >= counts.written) { return out; }
  let m = contacts[entry].manifold;
  if (k >= m.count) { return out; }
  let p = m.points[k];
  let length = camera.light.w;
  var world = p.position;
  if (v < 2u) {
    world += f32(v) * length * m.normal;
    out.colour = vec3f(0.96, 0.97, 0.98);
  } else {
    world += 0.25 * length * CROSS[v - 2u];
    out.colour = select(vec3f(1.0, 0.69, 0.13), vec3f(1.0, 0.3, 0.3), p.depth > 0.0);
  }
  out.clip = camera.viewProj * vec4f(world, 1.0);
  // Drawn over the bodies they sit on: pulled a little towards the camera.
  out.clip.z = out.clip.z * 0.999;
  return out;
}

@fragment
fn fsContact(in: LineOut) -> @location(0) vec4f {
  return vec4f(in.colour, 1.0);
}
