// The GPU broadphase (src/gpu/broadphase2d.ts) against the host's sweepAndPrune2D.
//
// The GPU sees the packed (f32) bodies and shapes, the host the scene's f64 numbers, so the two
// pair sets may differ in pairs whose boxes touch to within that rounding, and only there:
//   - on scenes whose coordinates are exact in f32 (multiples of 1/8, right angles) the sets are
//     equal, though many boxes touch exactly (the pads decide those pairs, on both sides alike);
//   - on random scenes with f32 positions, as an engine's (rotated mixed shapes, huge bodies,
//     bodies 1e5 away, bodies stacked on one spot, 100k bodies), they are equal but for pairs
//     whose f64 boxes overlap or miss by less than 1e-6 of their size: none in these scenes;
//   - with f64 positions far from the origin, the GPU's boxes sit where the f32 positions put
//     them, and pairs may differ by up to an f32 step of the coordinates (and do, at 1e5).
// Also: empty and one-body scenes, a scene without pairs, overflow of the pairs buffer (the count
// still says the real total; run() grows the buffer and reruns), the counts and indirect dispatch
// arguments a later stage consumes, rows of workgroups, caller-owned body buffers, and a pairs
// buffer that is byte-identical from run to run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyAabbs2D, sweepAndPrune2D } from '../src/broadphase2d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import {
  BROADPHASE_LAYOUT_2D,
  BROADPHASE_STAGES_2D,
  GpuBroadphase2D,
  type GpuBroadphaseResult2D,
} from '../src/gpu/broadphase2d.ts';
import { dispatchLimits, MAX_GROUPS_PER_DIMENSION, readBuffer } from '../src/gpu/buffers.ts';
import { compileKernel } from '../src/gpu/pipelines.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { packBodies2D, packShapes2D } from '../src/pack2d.ts';
import { randomShape, rng } from '../src/random2d.ts';
import { parseScene, type Scene2D, type SceneJson2D } from '../src/scene.ts';
import type { Shape2DInput, Vec2 } from '../src/shapes2d.ts';
import { WORKGROUP_SIZE_2D } from '../src/constants.ts';
import { expectFilteredLikeHost } from './helpers/filters.ts';

let gpu: AcquiredDevice;
let bp: GpuBroadphase2D;

beforeAll(async () => {
  gpu = await acquireDevice();
  bp = await GpuBroadphase2D.create(gpu.device);
});

afterAll(() => {
  dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
  bp?.destroy();
  gpu?.device.destroy();
});

// ---- scenes ----

interface RandomSceneOptions {
  n: number;
  /** Side of the square the ordinary bodies are scattered over. */
  spread: number;
  margin: number;
  /** Bodies of size 1e3..5e3 among the others. */
  huge?: number;
  /** Fraction of bodies in a small cluster 1e5 away. */
  far?: number;
  /** Fraction of bodies stacked exactly on an earlier body (same shape, position, angle). */
  stacked?: number;
  /** Keep f64 positions (default: rounded to f32, as the GPU gets them). */
  f64Positions?: boolean;
}

function randomScene(seed: number, o: RandomSceneOptions): Scene2D {
  const r = rng(seed);
  const f = o.f64Positions ? (x: number): number => x : Math.fround;
  const shapes: Shape2DInput[] = Array.from({ length: 64 }, () => randomShape(r, 'mixed'));
  const hugeShape = shapes.length;
  for (let k = 0; k < (o.huge ?? 0); k++)
    shapes.push({ type: 'box', halfExtents: [1e3 + 4e3 * r(), 1e3 + 4e3 * r()] });
  const bodies: SceneJson2D['bodies'] = [];
  for (let i = 0; i < o.n; i++) {
    const kind = r();
    if (i > 0 && kind < (o.stacked ?? 0)) {
      bodies.push({ ...bodies[Math.floor(r() * i)]! });
    } else if (kind < (o.stacked ?? 0) + (o.far ?? 0)) {
      bodies.push({
        shape: Math.floor(r() * 64),
        position: [f(1e5 + 30 * r()), f(-1e5 + 30 * r())],
        angle: 2 * Math.PI * r(),
      });
    } else {
      bodies.push({
        shape: Math.floor(r() * 64),
        position: [f(o.spread * r()), f(o.spread * r())],
        angle: 2 * Math.PI * r(),
      });
    }
  }
  for (let k = 0; k < (o.huge ?? 0); k++) {
    bodies[Math.floor(r() * o.n)] = {
      shape: hugeShape + k,
      position: [f(o.spread * r()), f(o.spread * r())],
      angle: r(),
    };
  }
  return parseScene({ dim: 2, margin: o.margin, shapes, bodies }) as Scene2D;
}

/** Axis-aligned shapes, positions and sizes in multiples of 1/8: every coordinate exact in f32. */
function dyadicScene(seed: number, n: number, side: number, margin: number): Scene2D {
  const r = rng(seed);
  const eighth = (lo: number, hi: number): number => Math.floor(lo * 8 + r() * (hi - lo) * 8) / 8;
  const shapes: Shape2DInput[] = Array.from({ length: 24 }, (_, k): Shape2DInput => {
    if (k % 3 === 0) return { type: 'circle', radius: eighth(0.125, 1) };
    if (k % 3 === 1) {
      const h = eighth(0.125, 1);
      return { type: 'capsule', a: [-h, 0], b: [h, 0], radius: eighth(0.125, 0.5) };
    }
    return { type: 'box', halfExtents: [eighth(0.125, 1.5), eighth(0.125, 1.5)] as Vec2 };
  });
  const bodies = Array.from({ length: n }, () => ({
    shape: Math.floor(r() * shapes.length),
    position: [eighth(0, side), eighth(0, side)] as Vec2,
    angle: (Math.PI / 2) * Math.floor(r() * 4),
  }));
  return parseScene({ dim: 2, margin, shapes, bodies }) as Scene2D;
}

async function gpuPairs(
  scene: Scene2D,
  options: { capacity?: number } = {},
): Promise<GpuBroadphaseResult2D> {
  return bp.run(
    packShapes2D(scene.shapes),
    packBodies2D(scene),
    scene.bodyShape.length,
    scene.margin,
    options,
  );
}

// ---- comparison ----

function pairKeys(pairs: Uint32Array, n: number): Set<number> {
  const out = new Set<number>();
  for (let k = 0; k < pairs.length; k += 2) out.add(pairs[k]! * n + pairs[k + 1]!);
  return out;
}

/**
 * The pairs on which the GPU and the host differ, each with its f64 overlap (the smaller of the x
 * and y overlaps of the host's boxes; negative: apart) and the tolerance of the GPU's f32 inputs:
 * 1e-6 of the boxes' size (rotations and vertices rounded to f32), plus half an f32 step of each
 * position coordinate that is not an f32 number.
 */
function differences(
  scene: Scene2D,
  gpu: Uint32Array,
  host: Uint32Array,
): { pair: [number, number]; overlap: number; tol: number }[] {
  const n = scene.bodyShape.length;
  const g = pairKeys(gpu, n);
  const h = pairKeys(host, n);
  const box = bodyAabbs2D(scene, scene.margin);
  const out: { pair: [number, number]; overlap: number; tol: number }[] = [];
  for (const key of [...[...g].filter((k) => !h.has(k)), ...[...h].filter((k) => !g.has(k))]) {
    const a = Math.floor(key / n);
    const b = key % n;
    const A = box.subarray(4 * a, 4 * a + 4);
    const B = box.subarray(4 * b, 4 * b + 4);
    const ox = Math.min(A[2]!, B[2]!) - Math.max(A[0]!, B[0]!);
    const oy = Math.min(A[3]!, B[3]!) - Math.max(A[1]!, B[1]!);
    const size = A[2]! - A[0]! + A[3]! - A[1]! + B[2]! - B[0]! + B[3]! - B[1]!;
    let positionRounding = 0;
    for (const i of [a, b]) {
      for (const x of [scene.bodyPosition[2 * i]!, scene.bodyPosition[2 * i + 1]!])
        positionRounding += Math.abs(x - Math.fround(x));
    }
    out.push({ pair: [a, b], overlap: Math.min(ox, oy), tol: 1e-6 * size + positionRounding });
  }
  return out;
}

/** Pairs (a < b), sorted by a then b, no duplicates. */
function expectSorted(pairs: Uint32Array): void {
  let bad = -1;
  for (let k = 0; k < pairs.length && bad < 0; k += 2) {
    const ordered = pairs[k]! < pairs[k + 1]!;
    const after =
      k === 0 ||
      pairs[k - 2]! < pairs[k]! ||
      (pairs[k - 2] === pairs[k] && pairs[k - 1]! < pairs[k + 1]!);
    if (!ordered || !after) bad = k / 2;
  }
  expect(bad, `pair ${bad} is not (a < b) after its predecessor`).toBe(-1);
}

/** GPU pairs equal the host's, but for pairs within f32 rounding of touching. Returns how many. */
async function expectHostPairs(
  scene: Scene2D,
): Promise<{ gpu: GpuBroadphaseResult2D; host: Uint32Array; borderline: number }> {
  const result = await gpuPairs(scene);
  const host = sweepAndPrune2D(scene);
  expectSorted(result.pairs);
  expect(result.pairCount).toBe(result.pairs.length / 2);
  const diff = differences(scene, result.pairs, host);
  const wrong = diff.filter((d) => Math.abs(d.overlap) > d.tol);
  expect(
    wrong.slice(0, 5),
    `${wrong.length} pairs differ from the host's by more than the f32 rounding of the input`,
  ).toEqual([]);
  return { gpu: result, host, borderline: diff.length };
}

// ---- tests ----

describe('GPU broadphase 2D equals the host sweep-and-prune', () => {
  it('on scenes exact in f32, with many exactly touching boxes: identical pair sets', async () => {
    for (const [seed, margin] of [
      [1, 0],
      [2, 1 / 16],
      [3, 1 / 8],
    ] as const) {
      const scene = dyadicScene(seed, 3000, 48, margin);
      const result = await gpuPairs(scene);
      const host = sweepAndPrune2D(scene);
      expect(host.length).toBeGreaterThan(1000);
      expect(result.pairs).toEqual(host);
    }
  });

  const SCENES: [string, number, RandomSceneOptions][] = [
    ['mixed shapes', 1, { n: 2000, spread: 60, margin: 0.02 }],
    ['crowded, large margin', 2, { n: 1500, spread: 15, margin: 0.5 }],
    ['huge bodies among small ones', 3, { n: 3000, spread: 80, margin: 0.01, huge: 6 }],
    ['bodies 1e5 away', 4, { n: 3000, spread: 70, margin: 0.02, far: 0.2 }],
    ['bodies stacked on one spot', 5, { n: 3000, spread: 70, margin: 0, stacked: 0.3 }],
    [
      'everything at once',
      6,
      { n: 5000, spread: 90, margin: 0.05, huge: 3, far: 0.05, stacked: 0.05 },
    ],
  ];
  it('with collision filters: the same pairs, those the filters forbid left out', async () => {
    await expectFilteredLikeHost(
      randomScene(7, { n: 3000, spread: 14, margin: 0.02 }),
      sweepAndPrune2D,
      expectHostPairs,
      rng(77),
    );
  });

  it.each(SCENES)('on random scenes: %s', async (_name, seed, options) => {
    const { host, borderline } = await expectHostPairs(randomScene(seed, options));
    expect(host.length).toBeGreaterThan(0);
    expect(borderline).toBe(0);
  });

  it('with f64 positions 1e5 away: differing only where the f32 positions move the boxes', async () => {
    const { host, borderline } = await expectHostPairs(
      randomScene(8, { n: 3000, spread: 70, margin: 0.02, far: 0.3, f64Positions: true }),
    );
    expect(host.length).toBeGreaterThan(0);
    expect(borderline).toBeLessThan(host.length / 2 / 100);
  });

  it('with no bodies, one body, and bodies that do not touch: no pairs', async () => {
    const empty = parseScene({
      dim: 2,
      shapes: [{ type: 'circle', radius: 1 }],
      bodies: [],
    }) as Scene2D;
    const one = parseScene({
      dim: 2,
      shapes: [{ type: 'circle', radius: 1 }],
      bodies: [{ shape: 0, position: [3, 4] }],
    }) as Scene2D;
    const apart = parseScene({
      dim: 2,
      margin: 0.1,
      shapes: [{ type: 'box', halfExtents: [1, 1] }],
      bodies: Array.from({ length: 500 }, (_, i) => ({
        shape: 0,
        position: [3 * (i % 25), 3 * Math.floor(i / 25)] as Vec2,
      })),
    }) as Scene2D;
    for (const scene of [empty, one, apart]) {
      const r = await gpuPairs(scene);
      expect(r.pairCount).toBe(0);
      expect(r.pairs.length).toBe(0);
      expect(sweepAndPrune2D(scene).length).toBe(0);
    }
  });

  it('on a 100k-body scene, identically from run to run', async () => {
    const scene = randomScene(7, {
      n: 100_000,
      spread: 380,
      margin: 0.02,
      huge: 1,
      far: 0.01,
      stacked: 0.02,
    });
    const first = await expectHostPairs(scene);
    expect(first.host.length / 2).toBeGreaterThan(100_000);
    expect(first.borderline).toBe(0);
    const again = await gpuPairs(scene);
    expect(Buffer.from(again.gpuPairs.buffer).equals(Buffer.from(first.gpu.gpuPairs.buffer))).toBe(
      true,
    );
    if (gpu.timestamps) {
      const t = first.gpu.timings!;
      for (const s of BROADPHASE_STAGES_2D) expect(t[s]).toBeGreaterThanOrEqual(0);
      console.log(
        `100k bodies, ${first.gpu.pairCount} pairs: GPU ${t.total.toFixed(1)} ms`,
        Object.fromEntries(BROADPHASE_STAGES_2D.map((s) => [s, +t[s].toFixed(2)])),
      );
    }
  });
});

describe('GPU broadphase 2D output', () => {
  const scene = randomScene(21, { n: 4000, spread: 60, margin: 0.02, stacked: 0.1, huge: 1 });

  it('is byte-identical across 3 runs (sweep order, no atomics)', async () => {
    const runs = [await gpuPairs(scene), await gpuPairs(scene), await gpuPairs(scene)];
    for (const r of runs.slice(1)) {
      expect(Buffer.from(r.gpuPairs.buffer).equals(Buffer.from(runs[0]!.gpuPairs.buffer))).toBe(
        true,
      );
    }
  });

  it('reports the real total when the pairs overflow, and run() grows the buffer and reruns', async () => {
    const full = await gpuPairs(scene);
    expect(full.runs).toBe(1);
    const total = full.pairCount;
    expect(total).toBeGreaterThan(100);

    // One encode with room for 7 pairs: 7 written (the first 7 in sweep order), the count says all.
    const { device } = gpu;
    const shapes = packShapes2D(scene.shapes);
    const bodies = packBodies2D(scene);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const shapeBuf = device.createBuffer({ size: shapes.byteLength, usage: S });
    const bodyBuf = device.createBuffer({ size: bodies.byteLength, usage: S });
    device.queue.writeBuffer(shapeBuf, 0, shapes);
    device.queue.writeBuffer(bodyBuf, 0, bodies);
    const encoder = device.createCommandEncoder();
    const out = bp.encode(encoder, {
      shapes: shapeBuf,
      bodies: bodyBuf,
      bodyCount: scene.bodyShape.length,
      margin: scene.margin,
      capacity: 7,
    });
    device.queue.submit([encoder.finish()]);
    const C = BROADPHASE_LAYOUT_2D.counts;
    const counts = new Uint32Array(await readBuffer(device, out.counts, C.bytes));
    expect(out.capacity).toBe(7);
    expect(counts[C.total]).toBe(total);
    expect(counts[C.written]).toBe(7);
    expect(counts[C.overflow]).toBe(1);
    expect(counts[C.bodyCount]).toBe(scene.bodyShape.length);
    const written = new Uint32Array(await readBuffer(device, out.pairs, 8 * 7));
    expect(written).toEqual(full.gpuPairs.subarray(0, 14));
    const indirect = new Uint32Array(await readBuffer(device, out.indirect, 12));
    expect(Array.from(indirect)).toEqual([1, 1, 1]);
    shapeBuf.destroy();
    bodyBuf.destroy();

    // run() starting from 7: a second run with room for all, equal to the unconstrained run.
    const grown = await gpuPairs(scene, { capacity: 7 });
    expect(grown.runs).toBe(2);
    expect(grown.capacity).toBe(total);
    expect(grown.pairs).toEqual(full.pairs);
    expect(Buffer.from(grown.gpuPairs.buffer).equals(Buffer.from(full.gpuPairs.buffer))).toBe(true);
  });

  it('gives a later stage its Params2D and indirect dispatch arguments, with no readback', async () => {
    const { device } = gpu;
    const shapes = packShapes2D(scene.shapes);
    const bodies = packBodies2D(scene);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const shapeBuf = device.createBuffer({ size: shapes.byteLength, usage: S });
    const bodyBuf = device.createBuffer({ size: bodies.byteLength, usage: S });
    device.queue.writeBuffer(shapeBuf, 0, shapes);
    device.queue.writeBuffer(bodyBuf, 0, bodies);
    // A stand-in for the narrowphase: one invocation per pair (rows as narrowphase2d.wgsl), marks
    // each pair it is given; the pair count and row pitch come from the broadphase's Params2D.
    const code = `
struct Params2D { pairCount: u32, margin: f32, rowPitch: u32, _pad: u32 }
@group(0) @binding(0) var<uniform> params: Params2D;
@group(0) @binding(1) var<storage, read> pairs: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> marks: array<u32>;
@compute @workgroup_size(${WORKGROUP_SIZE_2D})
fn visit(@builtin(global_invocation_id) gid: vec3u) {
  let k = gid.x + gid.y * params.rowPitch;
  if (k >= params.pairCount) { return; }
  marks[k] = pairs[k].x * 65536u + pairs[k].y + 1u;
}`;
    const kernel = await compileKernel(device, 'indirect-test', code, 'visit');
    const total = (await gpuPairs(scene)).pairCount;
    const marks = device.createBuffer({
      size: 4 * (total + 64),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const params = device.createBuffer({
      size: LAYOUT_2D.params.bytes,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const encoder = device.createCommandEncoder();
    const out = bp.encode(encoder, {
      shapes: shapeBuf,
      bodies: bodyBuf,
      bodyCount: scene.bodyShape.length,
      margin: scene.margin,
      capacity: total + 10,
    });
    const C = BROADPHASE_LAYOUT_2D.counts;
    encoder.copyBufferToBuffer(out.counts, 4 * C.narrowphase, params, 0, C.narrowphaseBytes);
    const pass = encoder.beginComputePass();
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        layout: kernel.layout,
        entries: [
          { binding: 0, resource: { buffer: params } },
          { binding: 1, resource: { buffer: out.pairs } },
          { binding: 2, resource: { buffer: marks } },
        ],
      }),
    );
    pass.dispatchWorkgroupsIndirect(out.indirect, 0);
    pass.end();
    device.queue.submit([encoder.finish()]);
    const got = new Uint32Array(await readBuffer(device, marks, 4 * (total + 64)));
    const pairs = new Uint32Array(await readBuffer(device, out.pairs, 8 * total));
    for (let k = 0; k < total; k++)
      expect(got[k]).toBe(pairs[2 * k]! * 65536 + pairs[2 * k + 1]! + 1);
    expect(Array.from(got.subarray(total))).toEqual(new Array(64).fill(0));
    const narrow = new Uint32Array(await readBuffer(device, out.counts, C.bytes)).subarray(
      C.narrowphase,
    );
    expect(narrow[LAYOUT_2D.params.pairCount]).toBe(total);
    expect(narrow[LAYOUT_2D.params.rowPitch]).toBe(
      Math.ceil(total / WORKGROUP_SIZE_2D) * WORKGROUP_SIZE_2D,
    );
    expect(new Float32Array(narrow.buffer, narrow.byteOffset)[LAYOUT_2D.params.margin]).toBe(
      Math.fround(scene.margin),
    );
    for (const b of [shapeBuf, bodyBuf, marks, params]) b.destroy();
  });

  it('reads only the first bodyCount bodies of a caller buffer', async () => {
    const all = randomScene(22, { n: 3000, spread: 50, margin: 0.02 });
    const part: Scene2D = {
      ...all,
      bodyShape: all.bodyShape.slice(0, 2000),
      bodyPosition: all.bodyPosition.slice(0, 4000),
      bodyAngle: all.bodyAngle.slice(0, 2000),
    };
    const r = await bp.run(packShapes2D(all.shapes), packBodies2D(all), 2000, all.margin);
    expect(r.pairs).toEqual((await gpuPairs(part)).pairs);
  });

  it('dispatches rows of workgroups when one row is not enough', async () => {
    const normal = await gpuPairs(scene);
    dispatchLimits.maxGroupsPerDimension = 5;
    try {
      const rows = await gpuPairs(scene);
      expect(Buffer.from(rows.gpuPairs.buffer).equals(Buffer.from(normal.gpuPairs.buffer))).toBe(
        true,
      );
    } finally {
      dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
    }
  });
});
