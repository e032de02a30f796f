// The 3D renderer (demo/render3d.ts). Prepended by the library's 3D layout (layout3d.wgsl): the
// bodies are read straight from an array<Body3D>. One draw per shape: its triangle mesh (body
// frame, flat face normals) instanced over the bodies of that shape (the scene keeps each shape's
// bodies contiguous; instance_index counts from the draw's first instance). A directional light
// and a sky/ground ambient. Contact points and normals are lines with a colour per vertex.

struct Camera3D {
  viewProj: mat4x4f,
  eye: vec4f,
  light: vec4f,        // unit direction towards the light
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

struct LineIn {
  @location(0) position: vec3f,
  @location(1) colour: vec3f,
}

struct LineOut {
  @builtin(position) clip: vec4f,
  @location(0) colour: vec3f,
}

@vertex
fn vsLine(in: LineIn) -> LineOut {
  var out: LineOut;
  out.clip = camera.viewProj * vec4f(in.position, 1.0);
  // Drawn over the bodies: pulled to the near plane's side a little.
  out.clip.z = out.clip.z * 0.999;
  out.colour = in.colour;
  return out;
}

@fragment
fn fsLine(in: LineOut) -> @location(0) vec4f {
  return vec4f(in.colour, 1.0);
}
