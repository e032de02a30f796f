// Host and shader agree on the 2D buffer layouts (shaders/layout2d.wgsl).
//
// 1. A WGSL test kernel, assembled here from constantsWgsl() + wgslFile('layout2d') (the very
//    structs the narrowphase kernel uses), reads Shape2D / Body2D / Params2D from buffers the host
//    packer wrote (packShapes2D / packBodies2D / LAYOUT_2D.params) and copies every field, in a
//    fixed order, into flat array<f32> / array<u32> outputs; the host compares field by field.
//    It also writes Manifold2D slots with known values that the host reads back with
//    unpackManifolds2D (and raw, through LAYOUT_2D). arrayLength() of each struct array, bound
//    with exactly the host's byte size, checks that the host's strides are WGSL's.
// 2. LAYOUT_2D's sizes and offsets (reflected from the WGSL by wgsl_reflect) against WGSL's own
//    alignment rules (WGSL spec, "Alignment and Size"), computed here independently.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MANIFOLD_POINTS_2D, MAX_POLYGON_VERTICES, constantsWgsl } from '../src/constants.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { wgslFile } from '../src/gpu/shaders.ts';
import { LAYOUT_2D, STRUCTS_2D } from '../src/layout2d.ts';
import { manifoldBytes2D, packBodies2D, packShapes2D, unpackManifolds2D } from '../src/pack2d.ts';
import { makeShape2D, type Shape2D, type Shape2DInput } from '../src/shapes2d.ts';

const f32 = Math.fround;

// Per shape: count, kind (u32); radius, extent, then per vertex slot vertex.xy and normal.xy (f32).
// Per body: shape, flags (u32); position.xy, rotation.xy (f32).
// Params: pairCount, rowPitch, first (u32); margin (f32).
const KERNEL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> shapes: array<Shape2D>;
@group(0) @binding(1) var<storage, read> bodies: array<Body2D>;
@group(0) @binding(2) var<storage, read_write> outF: array<f32>;
@group(0) @binding(3) var<storage, read_write> outU: array<u32>;
@group(0) @binding(4) var<storage, read_write> manifolds: array<Manifold2D>;
@group(0) @binding(5) var<uniform> params: Params2D;

@compute @workgroup_size(1)
fn main() {
  let shapeCount = arrayLength(&shapes);
  let bodyCount = arrayLength(&bodies);
  let manifoldCount = arrayLength(&manifolds);
  outU[0] = shapeCount;
  outU[1] = bodyCount;
  outU[2] = manifoldCount;
  outU[3] = params.pairCount;
  outU[4] = params.rowPitch;
  outU[5] = params.first;
  outF[0] = params.margin;
  var fi = 1u;
  var ui = 6u;
  for (var i = 0u; i < shapeCount; i++) {
    let s = shapes[i];
    outU[ui] = s.count;
    outU[ui + 1u] = s.kind;
    ui += 2u;
    outF[fi] = s.radius;
    outF[fi + 1u] = s.extent;
    fi += 2u;
    for (var v = 0u; v < MAX_POLYGON_VERTICES; v++) {
      outF[fi] = s.vertices[v].x;
      outF[fi + 1u] = s.vertices[v].y;
      outF[fi + 2u] = s.normals[v].x;
      outF[fi + 3u] = s.normals[v].y;
      fi += 4u;
    }
  }
  for (var i = 0u; i < bodyCount; i++) {
    let b = bodies[i];
    outU[ui] = b.shape;
    outU[ui + 1u] = b.flags;
    ui += 2u;
    outF[fi] = b.position.x;
    outF[fi + 1u] = b.position.y;
    outF[fi + 2u] = b.rotation.x;
    outF[fi + 3u] = b.rotation.y;
    fi += 4u;
  }
  // Known manifolds: slot k has count k % 3, every point slot filled (used or not).
  for (var k = 0u; k < manifoldCount; k++) {
    var m: Manifold2D;
    let fk = f32(k);
    m.normal = vec2f(fk + 0.25, -fk - 0.5);
    m.count = k % 3u;
    m.flags = 0xf00u + k;
    for (var j = 0u; j < MAX_MANIFOLD_POINTS_2D; j++) {
      let fj = f32(j);
      m.points[j] = ManifoldPoint2D(vec2f(10.0 * fk + fj + 0.125, -3.0 * fk - fj - 0.375), 0.5 * fk + 0.0625 * fj - 0.75, (k << 8u) | (j + 1u));
    }
    manifolds[k] = m;
  }
}
`;

/** The values the kernel writes into manifold slot k, point j. */
function knownManifold(k: number) {
  return {
    normal: [f32(k + 0.25), f32(-k - 0.5)],
    count: k % 3,
    flags: 0xf00 + k,
    points: Array.from({ length: MAX_MANIFOLD_POINTS_2D }, (_, j) => ({
      position: [f32(10 * k + j + 0.125), f32(-3 * k - j - 0.375)],
      depth: f32(0.5 * k + 0.0625 * j - 0.75),
      id: (k << 8) | (j + 1),
    })),
  };
}

// Shapes that fill every field: all 8 vertex slots, a rounding radius, an offset circle center,
// a slanted capsule (both normals), a box, a triangle (5 unused slots, packed as zeros).
const SHAPE_INPUTS: Shape2DInput[] = [
  {
    type: 'polygon',
    vertices: Array.from(
      { length: 8 },
      (_, k) =>
        [Math.cos(0.3 + (k * Math.PI) / 4) * 1.7, Math.sin(0.3 + (k * Math.PI) / 4) * 1.3] as [
          number,
          number,
        ],
    ),
    radius: 0.05,
  },
  { type: 'box', halfExtents: [1.25, 0.3], radius: 0.125 },
  { type: 'circle', radius: 0.7, center: [0.25, -0.5] },
  { type: 'capsule', a: [-1, 0.5], b: [2, -0.25], radius: 0.3 },
  {
    type: 'polygon',
    vertices: [
      [0, 0],
      [3, 0.1],
      [0.2, 2],
    ],
  },
];
const SHAPES: Shape2D[] = SHAPE_INPUTS.map((s, i) => makeShape2D(s, i));
const BODIES = {
  bodyShape: Uint32Array.from([4, 0, 3, 1, 2, 0, 2]),
  bodyPosition: Float64Array.from([
    0, 0, 1.5, -2.25, -1e6, 3e5, 0.1, 0.2, 12345.678, -0.001, 7, 7, -3, 4,
  ]),
  bodyAngle: Float64Array.from([0, 0.3, -2.5, Math.PI, 1e3, -1e-4, 0.5]),
};
const MANIFOLD_COUNT = 5;
const PARAMS = { pairCount: 123456, margin: 0.0375, rowPitch: 65535 * 64 };

let gpu: AcquiredDevice;

interface KernelOutput {
  f: Float32Array;
  u: Uint32Array;
  manifolds: ArrayBuffer;
}
let out: KernelOutput;

async function runKernel(device: GPUDevice): Promise<KernelOutput> {
  const code = `${constantsWgsl()}\n${wgslFile('layout2d')}\n${KERNEL}`;
  device.pushErrorScope('validation');
  const module = device.createShaderModule({ label: 'layout2d-test', code });
  const info = await module.getCompilationInfo();
  const errors = info.messages
    .filter((m) => m.type === 'error')
    .map((m) => `${m.lineNum}:${m.linePos} ${m.message}`);
  expect(errors).toEqual([]);
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });

  const shapesData = packShapes2D(SHAPES);
  const bodiesData = packBodies2D(BODIES);
  const params = new ArrayBuffer(LAYOUT_2D.params.bytes);
  new Uint32Array(params)[LAYOUT_2D.params.pairCount] = PARAMS.pairCount;
  new Float32Array(params)[LAYOUT_2D.params.margin] = PARAMS.margin;
  new Uint32Array(params)[LAYOUT_2D.params.rowPitch] = PARAMS.rowPitch;
  const outWords = 4096;
  const manifoldBytes = manifoldBytes2D(MANIFOLD_COUNT);

  const storage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
  const upload = (data: ArrayBuffer, usage = storage) => {
    const buf = device.createBuffer({ size: data.byteLength, usage });
    device.queue.writeBuffer(buf, 0, data);
    return buf;
  };
  // Exactly the host's sizes: arrayLength() is then the element count only if the strides agree.
  const shapesBuf = upload(shapesData);
  const bodiesBuf = upload(bodiesData);
  const outF = device.createBuffer({ size: outWords * 4, usage: storage });
  const outU = device.createBuffer({ size: outWords * 4, usage: storage });
  const manifolds = device.createBuffer({ size: manifoldBytes, usage: storage });
  const paramsBuf = upload(params, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [shapesBuf, bodiesBuf, outF, outU, manifolds, paramsBuf].map((buffer, binding) => ({
      binding,
      resource: { buffer },
    })),
  });
  const read = [outF, outU, manifolds].map((b) =>
    device.createBuffer({ size: b.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
  );
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(1);
  pass.end();
  [outF, outU, manifolds].forEach((b, i) => encoder.copyBufferToBuffer(b, 0, read[i]!, 0, b.size));
  device.queue.submit([encoder.finish()]);
  const error = await device.popErrorScope();
  expect(error?.message ?? null).toBeNull();
  const bytes: ArrayBuffer[] = [];
  for (const r of read) {
    await r.mapAsync(GPUMapMode.READ);
    bytes.push(r.getMappedRange().slice(0));
    r.unmap();
  }
  for (const b of [shapesBuf, bodiesBuf, outF, outU, manifolds, paramsBuf, ...read]) b.destroy();
  return { f: new Float32Array(bytes[0]!), u: new Uint32Array(bytes[1]!), manifolds: bytes[2]! };
}

beforeAll(async () => {
  gpu = await acquireDevice();
  out = await runKernel(gpu.device);
});

afterAll(() => {
  gpu?.device.destroy();
});

describe('host and shader agree on the 2D layouts (GPU round trip)', () => {
  it('arrays of the host-packed structs have the element counts the host packed (same strides)', () => {
    expect(out.u[0]).toBe(SHAPES.length);
    expect(out.u[1]).toBe(BODIES.bodyShape.length);
    expect(out.u[2]).toBe(MANIFOLD_COUNT);
  });

  it('Params2D: pairCount, margin, rowPitch as the host wrote them', () => {
    expect(out.u[3]).toBe(PARAMS.pairCount);
    expect(out.f[0]).toBe(f32(PARAMS.margin));
    expect(out.u[4]).toBe(PARAMS.rowPitch);
    expect(out.u[5]).toBe(0);
  });

  it('Shape2D: every field of every shape, unused vertex slots zero', () => {
    let fi = 1;
    let ui = 6;
    SHAPES.forEach((s, i) => {
      const what = `shapes[${i}] (${SHAPE_INPUTS[i]!.type})`;
      expect(out.u[ui], `${what}.count`).toBe(s.count);
      expect(out.u[ui + 1], `${what}.kind`).toBe(s.kind);
      ui += 2;
      expect(out.f[fi], `${what}.radius`).toBe(f32(s.radius));
      expect(out.f[fi + 1], `${what}.extent`).toBe(f32(s.extent));
      fi += 2;
      for (let v = 0; v < MAX_POLYGON_VERTICES; v++) {
        const used = v < s.count;
        const got = [out.f[fi], out.f[fi + 1], out.f[fi + 2], out.f[fi + 3]];
        const want = used
          ? [
              s.vertices[2 * v]!,
              s.vertices[2 * v + 1]!,
              s.normals[2 * v]!,
              s.normals[2 * v + 1]!,
            ].map(f32)
          : [0, 0, 0, 0];
        expect(got, `${what} vertex/normal slot ${v}`).toEqual(want);
        fi += 4;
      }
    });
  });

  it('Body2D: every field of every body (rotation = (cos, sin) of the angle)', () => {
    let fi = 1 + SHAPES.length * (2 + 4 * MAX_POLYGON_VERTICES);
    let ui = 6 + 2 * SHAPES.length;
    for (let i = 0; i < BODIES.bodyShape.length; i++) {
      expect(out.u[ui], `bodies[${i}].shape`).toBe(BODIES.bodyShape[i]);
      expect(out.u[ui + 1], `bodies[${i}].flags`).toBe(0);
      ui += 2;
      const a = BODIES.bodyAngle[i]!;
      expect([out.f[fi], out.f[fi + 1], out.f[fi + 2], out.f[fi + 3]], `bodies[${i}]`).toEqual(
        [
          BODIES.bodyPosition[2 * i]!,
          BODIES.bodyPosition[2 * i + 1]!,
          Math.cos(a),
          Math.sin(a),
        ].map(f32),
      );
      fi += 4;
    }
  });

  it('Manifold2D written by the shader reads back through unpackManifolds2D', () => {
    const pairs = Uint32Array.from({ length: 2 * MANIFOLD_COUNT }, (_, i) => 100 + i);
    const all = unpackManifolds2D(out.manifolds, pairs, false);
    expect(all.length).toBe(MANIFOLD_COUNT);
    for (let k = 0; k < MANIFOLD_COUNT; k++) {
      const e = knownManifold(k);
      const m = all[k]!;
      expect(m.pair).toEqual([100 + 2 * k, 101 + 2 * k]);
      // unpack reports the normal only for slots with points (count 0: [0, 0]).
      expect(m.normal).toEqual(e.count > 0 ? e.normal : [0, 0]);
      expect(m.points).toEqual(e.points.slice(0, e.count));
    }
    // touchingOnly leaves out the slots without points (k % 3 === 0).
    const touching = unpackManifolds2D(out.manifolds, pairs, true);
    expect(touching.map((m) => m.pair[0])).toEqual([1, 2, 4].map((k) => 100 + 2 * k));
  });

  it('Manifold2D raw words through LAYOUT_2D: normal, count, flags, both point slots', () => {
    const f = new Float32Array(out.manifolds);
    const u = new Uint32Array(out.manifolds);
    const M = LAYOUT_2D.manifold;
    expect(out.manifolds.byteLength).toBe(MANIFOLD_COUNT * M.words * 4);
    for (let k = 0; k < MANIFOLD_COUNT; k++) {
      const e = knownManifold(k);
      const o = k * M.words;
      expect([f[o + M.normal], f[o + M.normal + 1]]).toEqual(e.normal);
      expect(u[o + M.count]).toBe(e.count);
      expect(u[o + M.flags]).toBe(e.flags);
      for (let j = 0; j < MAX_MANIFOLD_POINTS_2D; j++) {
        const p = o + M.points + j * M.pointStride;
        expect({
          position: [f[p + M.pointPosition], f[p + M.pointPosition + 1]],
          depth: f[p + M.pointDepth],
          id: u[p + M.pointId],
        }).toEqual(e.points[j]);
      }
    }
  });
});

// ---- WGSL's alignment and size rules, independently of wgsl_reflect ----

interface TypeLayout {
  align: number;
  size: number;
  /** For arrays. */
  stride?: number;
  count?: number;
}

const CONSTS: Record<string, number> = { MAX_POLYGON_VERTICES, MAX_MANIFOLD_POINTS_2D };
const roundUp = (k: number, n: number) => Math.ceil(n / k) * k;

/** WGSL spec, "Alignment and Size" (storage address space), for the types layout2d.wgsl uses. */
function typeLayout(type: string, structs: Record<string, TypeLayout>): TypeLayout {
  type = type.trim();
  if (type === 'f32' || type === 'u32' || type === 'i32') return { align: 4, size: 4 };
  if (type === 'vec2f' || type === 'vec2u' || type === 'vec2<f32>') return { align: 8, size: 8 };
  if (type === 'vec4f' || type === 'vec4u') return { align: 16, size: 16 };
  const arr = /^array<(.+),\s*(\w+)\s*>$/.exec(type);
  if (arr) {
    const e = typeLayout(arr[1]!, structs);
    const n = /^\d+u?$/.test(arr[2]!) ? parseInt(arr[2]!, 10) : CONSTS[arr[2]!]!;
    expect(n, `array count ${arr[2]}`).toBeGreaterThan(0);
    const stride = roundUp(e.align, e.size);
    return { align: e.align, size: n * stride, stride, count: n };
  }
  const s = structs[type];
  if (!s) throw new Error(`no rule here for WGSL type ${type}`);
  return s;
}

/** Struct declarations of a WGSL source: member names and type strings, in order. */
function parseStructs(src: string): { name: string; members: { name: string; type: string }[] }[] {
  const code = src.replace(/\/\/[^\n]*/g, '');
  const out: { name: string; members: { name: string; type: string }[] }[] = [];
  for (const m of code.matchAll(/struct\s+(\w+)\s*\{([^}]*)\}/g)) {
    const members: { name: string; type: string }[] = [];
    // Split on top-level commas (array<vec2f, N> has one inside its angle brackets).
    let depth = 0;
    let cur = '';
    for (const ch of m[2]! + ',') {
      if (ch === '<') depth++;
      if (ch === '>') depth--;
      if (ch === ',' && depth === 0) {
        if (cur.trim()) {
          const [name, ...type] = cur.split(':');
          members.push({ name: name!.trim(), type: type.join(':').trim() });
        }
        cur = '';
      } else cur += ch;
    }
    out.push({ name: m[1]!, members });
  }
  return out;
}

describe('LAYOUT_2D against WGSL alignment rules', () => {
  const decls = parseStructs(wgslFile('layout2d'));

  it('layout2d.wgsl declares the seven 2D structs', () => {
    expect(decls.map((d) => d.name).sort()).toEqual([
      'Anchor2D',
      'AnchorPoint2D',
      'Body2D',
      'Manifold2D',
      'ManifoldPoint2D',
      'Params2D',
      'Shape2D',
    ]);
  });

  it('every member offset, size and array stride reflected by wgsl_reflect follows the rules', () => {
    const computed: Record<string, TypeLayout> = {};
    for (const d of decls) {
      let offset = 0;
      let align = 0;
      const reflected = STRUCTS_2D[d.name]!;
      expect(reflected, d.name).toBeDefined();
      expect(Object.keys(reflected.members)).toEqual(d.members.map((m) => m.name));
      for (const m of d.members) {
        const t = typeLayout(m.type, computed);
        offset = roundUp(t.align, offset);
        const r = reflected.members[m.name]!;
        expect({ offset: r.offset, size: r.size }, `${d.name}.${m.name}: ${m.type}`).toEqual({
          offset,
          size: t.size,
        });
        if (t.stride !== undefined)
          expect({ stride: r.stride, count: r.count }, `${d.name}.${m.name}`).toEqual({
            stride: t.stride,
            count: t.count,
          });
        offset += t.size;
        align = Math.max(align, t.align);
      }
      computed[d.name] = { align, size: roundUp(align, offset) };
      expect({ size: reflected.size, align: reflected.align }, d.name).toEqual(computed[d.name]);
    }
  });

  it('spot checks by hand: vec2f slots 8 bytes apart, struct sizes and strides', () => {
    // Shape2D: 4 scalars (16 bytes), then array<vec2f, 8> (align 8, stride 8) twice, then the two
    // u32 filter words.
    expect(LAYOUT_2D.shape.vertexStride * 4).toBe(8);
    expect(LAYOUT_2D.shape.vertices * 4).toBe(16);
    expect(LAYOUT_2D.shape.normals * 4).toBe(16 + 8 * MAX_POLYGON_VERTICES);
    expect([LAYOUT_2D.shape.categoryBits, LAYOUT_2D.shape.maskBits].map((w) => w * 4)).toEqual([
      16 + 16 * MAX_POLYGON_VERTICES,
      20 + 16 * MAX_POLYGON_VERTICES,
    ]);
    expect(LAYOUT_2D.shape.words * 4).toBe(16 + 2 * 8 * MAX_POLYGON_VERTICES + 8);
    // Body2D: vec2f, vec2f, u32, u32 = 24 bytes (a multiple of its align 8).
    expect(LAYOUT_2D.body.words * 4).toBe(24);
    expect(
      [
        LAYOUT_2D.body.position,
        LAYOUT_2D.body.rotation,
        LAYOUT_2D.body.shape,
        LAYOUT_2D.body.flags,
      ].map((w) => w * 4),
    ).toEqual([0, 8, 16, 20]);
    // ManifoldPoint2D: vec2f, f32, u32 = 16 bytes; Manifold2D: vec2f, u32, u32, then the points
    // at offset 16 with stride 16.
    expect(
      [
        LAYOUT_2D.manifold.pointPosition,
        LAYOUT_2D.manifold.pointDepth,
        LAYOUT_2D.manifold.pointId,
      ].map((w) => w * 4),
    ).toEqual([0, 8, 12]);
    expect(LAYOUT_2D.manifold.pointStride * 4).toBe(16);
    expect(
      [
        LAYOUT_2D.manifold.normal,
        LAYOUT_2D.manifold.count,
        LAYOUT_2D.manifold.flags,
        LAYOUT_2D.manifold.points,
      ].map((w) => w * 4),
    ).toEqual([0, 8, 12, 16]);
    expect(LAYOUT_2D.manifold.words * 4).toBe(16 + 16 * MAX_MANIFOLD_POINTS_2D);
    // Params2D, a uniform: four 4-byte scalars, 16 bytes (uniform buffers need a multiple of 16).
    expect(LAYOUT_2D.params.bytes).toBe(16);
    expect(
      [LAYOUT_2D.params.pairCount, LAYOUT_2D.params.margin, LAYOUT_2D.params.rowPitch].map(
        (w) => w * 4,
      ),
    ).toEqual([0, 4, 8]);
  });
});
