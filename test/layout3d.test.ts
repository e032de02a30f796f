// Host and shader agree on the 3D buffer layouts (shaders/layout3d.wgsl, the one definition).
//
// 1. Static: the layout parses with the generated constants prepended, its structs have the sizes
//    and offsets WGSL's alignment rules give (vec3f fields are 16-byte aligned), and LAYOUT_3D
//    (reflected by wgsl_reflect) matches them; the assembled kernel binds at most 8 storage
//    buffers (WebGPU's default per stage) and one uniform.
// 2. GPU round trip: a WGSL test kernel, assembled from constants3dWgsl() + layout3d.wgsl +
//    manifold3d.wgsl (the very structs and hull accessors the narrowphase kernel uses), reads
//    shapes, the four flat hull buffers, bodies and params that the host packers wrote
//    (packShapes3D / packBodies3D / LAYOUT_3D.params) and copies every field, every vertex and
//    plane, every face's vertex loop and every edge, in a fixed order, into flat outputs; the
//    host compares them with its Shape3D arrays. It also writes Manifold3D slots with known
//    values that the host reads back with unpackManifolds3D and raw through LAYOUT_3D.
//    arrayLength() of each struct array, bound with exactly the host's byte size, checks that
//    the host's strides are WGSL's.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { constants3dWgsl, MAX_MANIFOLD_POINTS_3D } from '../src/constants3d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { classConstantsWgsl3D } from '../src/gpu/pair-classes3d.ts';
import { assembleWgsl3D, NARROWPHASE_3D_FILES, wgslFile } from '../src/gpu/shaders.ts';
import { LAYOUT_3D } from '../src/layout3d.ts';
import {
  manifoldBytes3D,
  packBodies3D,
  packShapes3D,
  unpackManifolds3D,
  unpackShapes3D,
} from '../src/pack3d.ts';
import { makeShape3D, type Shape3D, type Shape3DInput } from '../src/shapes3d.ts';

const f32 = Math.fround;

describe('layout3d.wgsl (static)', () => {
  const src =
    constants3dWgsl() + readFileSync(new URL('../shaders/layout3d.wgsl', import.meta.url), 'utf8');
  const reflect = new WgslReflect(src);
  const struct = (name: string) => {
    const s = reflect.structs.find((x) => x.name === name);
    expect(s, name).toBeDefined();
    return s!;
  };
  const member = (s: ReturnType<typeof struct>, name: string) =>
    s.members.find((m) => m.name === name)!;

  it('reflects every struct with vec3f-aligned sizes', () => {
    expect(struct('Shape3D').size).toBe(64);
    expect(struct('Body3D').size).toBe(32);
    expect(member(struct('Body3D'), 'rotation').offset).toBe(16);
    expect(struct('ManifoldPoint3D').size).toBe(16);
    const m = struct('Manifold3D');
    expect(member(m, 'count').offset).toBe(12);
    expect(member(m, 'points').offset).toBe(16);
    // The ids together after the points, then the kind: no word mostly padding but the last.
    expect(member(m, 'ids').offset).toBe(16 + 16 * MAX_MANIFOLD_POINTS_3D);
    expect(member(m, 'kind').offset).toBe(16 + 20 * MAX_MANIFOLD_POINTS_3D);
    expect(m.size).toBe(32 + 20 * MAX_MANIFOLD_POINTS_3D);
    expect(struct('Params3D').size).toBe(16);
  });

  it('LAYOUT_3D is the reflected layout, in words', () => {
    const s = struct('Shape3D');
    expect(LAYOUT_3D.shape.words * 4).toBe(s.size);
    for (const name of [
      'center',
      'kind',
      'radius',
      'extent',
      'vertexCount',
      'faceCount',
      'edgeCount',
      'vertexOffset',
      'faceOffset',
      'indexOffset',
      'edgeOffset',
      'inradius',
    ] as const) {
      expect(LAYOUT_3D.shape[name] * 4, `Shape3D.${name}`).toBe(member(s, name).offset);
    }
    const b = struct('Body3D');
    expect(LAYOUT_3D.body.words * 4).toBe(b.size);
    for (const name of ['position', 'shape', 'rotation'] as const)
      expect(LAYOUT_3D.body[name] * 4, `Body3D.${name}`).toBe(member(b, name).offset);
    const m = struct('Manifold3D');
    const p = struct('ManifoldPoint3D');
    expect(LAYOUT_3D.manifold.words * 4).toBe(m.size);
    expect(LAYOUT_3D.manifold.pointStride * 4).toBe(p.size);
    expect(LAYOUT_3D.manifold.pointCapacity).toBe(MAX_MANIFOLD_POINTS_3D);
    for (const name of ['normal', 'count', 'kind', 'points', 'ids'] as const)
      expect(LAYOUT_3D.manifold[name] * 4, `Manifold3D.${name}`).toBe(member(m, name).offset);
    expect(LAYOUT_3D.manifold.pointPosition * 4).toBe(member(p, 'position').offset);
    expect(LAYOUT_3D.manifold.pointDepth * 4).toBe(member(p, 'depth').offset);
    expect(LAYOUT_3D.manifold.idStride * 4).toBe(member(m, 'ids').stride);
    expect(LAYOUT_3D.params.bytes).toBe(struct('Params3D').size);
  });

  it('the assembled kernel binds 8 storage buffers and 1 uniform per entry point, with the layout structs', () => {
    const kernel = new WgslReflect(
      assembleWgsl3D(NARROWPHASE_3D_FILES, classConstantsWgsl3D('general')),
    );
    // The general entry point reads the pairs, a class kernel its class list, at one binding.
    for (const e of kernel.entry.compute)
      expect(e.resources.filter((r) => r.name !== 'params').length, e.name).toBeLessThanOrEqual(8);
    expect(kernel.storage.map((v) => v.name).sort()).toEqual([
      'bodies',
      'classPairs',
      'hullFaces',
      'hullIndices',
      'hullPlanes',
      'hullVertices',
      'manifolds',
      'pairs',
      'shapes',
    ]);
    expect(kernel.uniforms.map((v) => v.name)).toEqual(['params']);
    for (const name of ['Shape3D', 'Body3D', 'Manifold3D', 'ManifoldPoint3D', 'Params3D']) {
      expect(kernel.structs.find((s) => s.name === name)?.size, name).toBe(struct(name).size);
    }
    // Every storage array's element stride is the one the host packs with.
    const stride = (name: string) =>
      (kernel.storage.find((v) => v.name === name)!.type as unknown as { stride: number }).stride;
    expect(stride('hullVertices')).toBe(4 * LAYOUT_3D.hullVertexWords);
    expect(stride('hullPlanes')).toBe(4 * LAYOUT_3D.hullPlaneWords);
    expect(stride('shapes')).toBe(4 * LAYOUT_3D.shape.words);
    expect(stride('bodies')).toBe(4 * LAYOUT_3D.body.words);
    expect(stride('manifolds')).toBe(4 * LAYOUT_3D.manifold.words);
  });
});

// ---- GPU round trip --------------------------------------------------------------------------

const KERNEL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> shapes: array<Shape3D>;
@group(0) @binding(1) var<storage, read> hullVertices: array<vec4f>;
@group(0) @binding(2) var<storage, read> hullPlanes: array<vec4f>;
@group(0) @binding(3) var<storage, read> hullFaces: array<u32>;
@group(0) @binding(4) var<storage, read> hullIndices: array<u32>;
@group(0) @binding(5) var<storage, read> bodies: array<Body3D>;
// One output buffer (8 storage buffers per stage): u32 words from 0, f32 words (bit casts) from F_BASE.
@group(0) @binding(6) var<storage, read_write> outWords: array<u32>;
@group(0) @binding(7) var<storage, read_write> manifolds: array<Manifold3D>;
@group(0) @binding(8) var<uniform> params: Params3D;
const F_BASE: u32 = 4096u;
var<private> fi: u32 = 1u;
var<private> ui: u32 = 6u;

fn putU(x: u32) {
  outWords[ui] = x;
  ui += 1u;
}

fn putF(x: f32) {
  outWords[F_BASE + fi] = bitcast<u32>(x);
  fi += 1u;
}

@compute @workgroup_size(1)
fn main() {
  let shapeCount = arrayLength(&shapes);
  let bodyCount = arrayLength(&bodies);
  let manifoldCount = arrayLength(&manifolds);
  outWords[0] = shapeCount;
  outWords[1] = bodyCount;
  outWords[2] = manifoldCount;
  outWords[3] = params.pairCount;
  outWords[4] = params.rowPitch;
  outWords[5] = params.first;
  outWords[F_BASE] = bitcast<u32>(params.margin);
  for (var i = 0u; i < shapeCount; i++) {
    let s = shapes[i];
    let h = makeHull3D(i, s.kind);
    putU(s.kind);
    putU(h.vertexCount);
    putU(h.faceCount);
    putU(h.edgeCount);
    putF(s.center.x);
    putF(s.center.y);
    putF(s.center.z);
    putF(h.radius);
    putF(s.extent);
    putF(s.inradius);
    for (var v = 0u; v < h.vertexCount; v++) {
      let p = hullVertex(h, v);
      putF(p.x);
      putF(p.y);
      putF(p.z);
    }
    for (var f = 0u; f < h.faceCount; f++) {
      let pl = hullPlane(h, f);
      putF(pl.x);
      putF(pl.y);
      putF(pl.z);
      putF(pl.w);
      let face = hullFace(h, f);
      putU(face.x);
      putU(face.y);
      for (var k = 0u; k < face.y; k++) {
        let e = faceEntry(h, face.x + k);
        putU(e.x);
        putU(e.y);
      }
    }
    for (var e = 0u; e < h.edgeCount; e++) {
      let edge = hullEdge(h, e);
      putU(edge.x);
      putU(edge.y);
      putU(edge.z);
      putU(edge.w);
    }
  }
  for (var i = 0u; i < bodyCount; i++) {
    let b = bodies[i];
    putU(b.shape);
    putF(b.position.x);
    putF(b.position.y);
    putF(b.position.z);
    putF(b.rotation.x);
    putF(b.rotation.y);
    putF(b.rotation.z);
    putF(b.rotation.w);
  }
  putU(0xabcdefu);
  putF(1234.5);
  // Known manifolds: slot k has count k % 5, every point slot filled (used or not).
  for (var k = 0u; k < manifoldCount; k++) {
    var m: Manifold3D;
    let fk = f32(k);
    m.normal = vec3f(fk + 0.25, -fk - 0.5, 2.0 * fk + 0.125);
    m.count = k % 5u;
    m.kind = 0x700u + k;
    for (var j = 0u; j < MAX_MANIFOLD_POINTS_3D; j++) {
      let fj = f32(j);
      m.points[j] = ManifoldPoint3D(vec3f(10.0 * fk + fj + 0.125, -3.0 * fk - fj - 0.375, fk - 2.0 * fj), 0.5 * fk + 0.0625 * fj - 0.75);
      m.ids[j] = (k << 8u) | (j + 1u);
    }
    manifolds[k] = m;
  }
}
`;

function knownManifold(k: number) {
  return {
    normal: [f32(k + 0.25), f32(-k - 0.5), f32(2 * k + 0.125)],
    count: k % 5,
    kind: 0x700 + k,
    points: Array.from({ length: MAX_MANIFOLD_POINTS_3D }, (_, j) => ({
      position: [f32(10 * k + j + 0.125), f32(-3 * k - j - 0.375), f32(k - 2 * j)],
      depth: f32(0.5 * k + 0.0625 * j - 0.75),
      id: (k << 8) | (j + 1),
    })),
  };
}

// Shapes that fill every field: a box off its centre, a hull with merged polygonal faces, a
// random-ish hull, a sphere with a centre, a slanted capsule.
const SHAPE_INPUTS: Shape3DInput[] = [
  { type: 'box', halfExtents: [1.25, 0.3, 0.7] },
  {
    type: 'hull',
    vertices: [
      [0, 0, 0],
      [2, 0, 0],
      [2, 1, 0],
      [0, 1, 0],
      [0, 0, 1.5],
      [2, 0, 1.5],
      [2, 1, 1.5],
      [0, 1, 1.5],
      [1, 0.5, 2.5],
    ],
  },
  {
    type: 'hull',
    vertices: Array.from(
      { length: 20 },
      (_, k) =>
        [Math.cos(k * 2.4) * (1 + 0.1 * k), Math.sin(k * 2.4) * 0.8, (k - 10) * 0.13] as [
          number,
          number,
          number,
        ],
    ),
  },
  { type: 'sphere', radius: 0.7, center: [0.25, -0.5, 3] },
  { type: 'capsule', a: [-1, 0.5, 0.25], b: [2, -0.25, 1], radius: 0.3 },
];
const SHAPES: Shape3D[] = SHAPE_INPUTS.map((s, i) => makeShape3D(s, i));
const BODIES = {
  bodyShape: Uint32Array.from([4, 0, 3, 1, 2, 0]),
  bodyPosition: Float64Array.from([
    0, 0, 0, 1.5, -2.25, 3, -1e6, 3e5, 7, 0.1, 0.2, 0.3, 12345.678, -0.001, 5, 7, 7, -7,
  ]),
  bodyRotation: Float64Array.from([
    0,
    0,
    0,
    1,
    0.5,
    0.5,
    0.5,
    0.5,
    0,
    0.6,
    0,
    0.8,
    0.1,
    0.2,
    0.3,
    Math.sqrt(1 - 0.14),
    0,
    0,
    1,
    0,
    -0.5,
    0.5,
    -0.5,
    0.5,
  ]),
};
const MANIFOLD_COUNT = 7;
const PARAMS = { pairCount: 123456, margin: 0.0375, rowPitch: 65535 * 64 };

let gpu: AcquiredDevice;
let out: { f: Float32Array; u: Uint32Array; manifolds: ArrayBuffer };
const packedShapes = packShapes3D(SHAPES);
/** The shapes as the kernel sees them (f32). */
const seen = unpackShapes3D(packedShapes);

async function runKernel(device: GPUDevice) {
  const code = `${constants3dWgsl()}\n${classConstantsWgsl3D('general')}\n${wgslFile('layout3d')}\n${wgslFile('manifold3d')}\n${KERNEL}`;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label: 'layout3d-test', code });
  const info = await module.getCompilationInfo();
  expect(
    info.messages
      .filter((m) => m.type === 'error')
      .map((m) => `${m.lineNum}:${m.linePos} ${m.message}`),
  ).toEqual([]);
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });
  const params = new ArrayBuffer(LAYOUT_3D.params.bytes);
  new Uint32Array(params)[LAYOUT_3D.params.pairCount] = PARAMS.pairCount;
  new Float32Array(params)[LAYOUT_3D.params.margin] = PARAMS.margin;
  new Uint32Array(params)[LAYOUT_3D.params.rowPitch] = PARAMS.rowPitch;
  const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const upload = (data: ArrayBuffer | ArrayBufferView, usage = storage) => {
    const bytes = ArrayBuffer.isView(data)
      ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      : data;
    const buf = device.createBuffer({ size: bytes.byteLength, usage });
    device.queue.writeBuffer(buf, 0, bytes);
    return buf;
  };
  const outWords = device.createBuffer({ size: 8192 * 4, usage: storage });
  const inputs = [
    packedShapes.shapes,
    packedShapes.hullVertices,
    packedShapes.hullPlanes,
    packedShapes.hullFaces,
    packedShapes.hullIndices,
    packBodies3D(BODIES),
  ].map((d) => upload(d));
  const manifolds = device.createBuffer({ size: manifoldBytes3D(MANIFOLD_COUNT), usage: storage });
  const paramsBuf = upload(params, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const group0 = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [...inputs, outWords, manifolds, paramsBuf].map((buffer, binding) => ({
      binding,
      resource: { buffer },
    })),
  });
  const read = [outWords, manifolds].map((b) =>
    device.createBuffer({ size: b.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
  );
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group0);
  pass.dispatchWorkgroups(1);
  pass.end();
  [outWords, manifolds].forEach((b, i) => encoder.copyBufferToBuffer(b, 0, read[i]!, 0, b.size));
  device.queue.submit([encoder.finish()]);
  expect((await device.popErrorScope())?.message ?? null).toBeNull();
  const bytes: ArrayBuffer[] = [];
  for (const r of read) {
    await r.mapAsync(GPUMapMode.READ);
    bytes.push(r.getMappedRange().slice(0));
    r.unmap();
  }
  for (const b of [...inputs, outWords, manifolds, paramsBuf, ...read]) b.destroy();
  return {
    f: new Float32Array(bytes[0]!, 4096 * 4),
    u: new Uint32Array(bytes[0]!, 0, 4096),
    manifolds: bytes[1]!,
  };
}

beforeAll(async () => {
  gpu = await acquireDevice();
  out = await runKernel(gpu.device);
});

afterAll(() => {
  gpu?.device.destroy();
});

describe('host and shader agree on the 3D layouts (GPU round trip)', () => {
  it('array lengths and params: the host strides are WGSL strides', () => {
    expect(Array.from(out.u.subarray(0, 6))).toEqual([
      SHAPES.length,
      BODIES.bodyShape.length,
      MANIFOLD_COUNT,
      PARAMS.pairCount,
      PARAMS.rowPitch,
      0,
    ]);
    expect(out.f[0]).toBe(f32(PARAMS.margin));
  });

  it('every shape field, vertex, plane, face loop and edge reads back through the kernel accessors', () => {
    const F: number[] = [];
    const U: number[] = [];
    for (const s of seen) {
      U.push(s.kind, s.vertexCount, s.faceCount, s.edgeCount);
      F.push(...s.center, s.radius, s.extent, s.inradius);
      F.push(...s.vertices);
      for (let f = 0; f < s.faceCount; f++) {
        F.push(...s.planes.subarray(4 * f, 4 * f + 4));
        U.push(s.faceFirst[f]!, s.faceSize[f]!);
        for (let k = 0; k < s.faceSize[f]!; k++)
          U.push(s.faceVertices[s.faceFirst[f]! + k]!, s.faceEdges[s.faceFirst[f]! + k]!);
      }
      for (let e = 0; e < s.edgeCount; e++)
        U.push(s.edgeV0[e]!, s.edgeV1[e]!, s.edgeF0[e]!, s.edgeF1[e]!);
    }
    for (let i = 0; i < BODIES.bodyShape.length; i++) {
      U.push(BODIES.bodyShape[i]!);
      F.push(
        ...BODIES.bodyPosition.subarray(3 * i, 3 * i + 3),
        ...BODIES.bodyRotation.subarray(4 * i, 4 * i + 4),
      );
    }
    U.push(0xabcdef);
    F.push(1234.5);
    expect(Array.from(out.u.subarray(6, 6 + U.length))).toEqual(U);
    expect(Array.from(out.f.subarray(1, 1 + F.length))).toEqual(F.map(f32));
    // The f32 shapes are the host's shapes rounded, topology unchanged.
    SHAPES.forEach((s, i) => {
      const t = seen[i]!;
      expect(Array.from(t.faceVertices)).toEqual(Array.from(s.faceVertices));
      expect(Array.from(t.edgeF1)).toEqual(Array.from(s.edgeF1));
      expect(Array.from(t.vertices)).toEqual(Array.from(s.vertices).map(f32));
    });
  });

  it('manifold slots written by WGSL read back field by field (raw and through unpackManifolds3D)', () => {
    const f = new Float32Array(out.manifolds);
    const u = new Uint32Array(out.manifolds);
    const M = LAYOUT_3D.manifold;
    for (let k = 0; k < MANIFOLD_COUNT; k++) {
      const want = knownManifold(k);
      const o = k * M.words;
      expect(Array.from(f.subarray(o + M.normal, o + M.normal + 3))).toEqual(want.normal);
      expect(u[o + M.count]).toBe(want.count);
      expect(u[o + M.kind]).toBe(want.kind);
      for (let j = 0; j < MAX_MANIFOLD_POINTS_3D; j++) {
        const p = o + M.points + j * M.pointStride;
        expect(Array.from(f.subarray(p + M.pointPosition, p + M.pointPosition + 3))).toEqual(
          want.points[j]!.position,
        );
        expect(f[p + M.pointDepth]).toBe(want.points[j]!.depth);
        expect(u[o + M.ids + j * M.idStride]).toBe(want.points[j]!.id);
      }
    }
    const pairs = Uint32Array.from(Array.from({ length: 2 * MANIFOLD_COUNT }, (_, i) => i));
    const json = unpackManifolds3D(out.manifolds, pairs, false);
    json.forEach((m, k) => {
      const want = knownManifold(k);
      expect(m.pair).toEqual([2 * k, 2 * k + 1]);
      expect(m.points.length).toBe(want.count);
      if (want.count > 0) expect(m.normal).toEqual(want.normal);
      m.points.forEach((p, j) => expect(p).toEqual(want.points[j]));
    });
    expect(unpackManifolds3D(out.manifolds, pairs, true).map((m) => m.pair[0] / 2)).toEqual([
      1, 2, 3, 4, 6,
    ]);
  });
});
