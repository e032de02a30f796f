// The 3D GPU broadphase (src/gpu/broadphase3d.ts: shaders/aabb3d.wgsl before the sort, scan and
// sweep shared with 2D) against the host's sweepAndPrune3D.
//
// As in 2D (test/broadphase-gpu2d.test.ts), the GPU sees f32 bodies and shapes, the host f64, so
// the pair sets may differ only in pairs whose f64 boxes overlap or miss by less than 1e-6 of their
// size: on random scenes with f32 positions (mixed boxes, hulls, spheres, capsules in random
// rotations, huge bodies, bodies 1e5 away, bodies stacked on one spot) none do, and the sets are
// equal. Also: scenes exact in f32 (axis-aligned boxes at multiples of 1/8, many touching exactly),
// no pairs, overflow and rerun, byte-identical pairs from run to run, only the first bodyCount
// bodies of a buffer, and a group long enough to be heap-sorted (the list in (bodyA, bodyB) order).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyAabbs3D, sweepAndPrune3D } from '../src/broadphase3d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuBroadphase3D, type GpuBroadphaseResult3D } from '../src/gpu/broadphase3d.ts';
import { packBodies3D, packShapes3D } from '../src/pack3d.ts';
import { rng } from '../src/random2d.ts';
import { randomRotation3D, randomShape3D } from '../src/random3d.ts';
import { parseScene, type Scene3D, type SceneJson3D } from '../src/scene.ts';
import type { Shape3DInput, Vec3 } from '../src/shapes3d.ts';
import { expectFilteredLikeHost } from './helpers/filters.ts';

let gpu: AcquiredDevice;
let bp: GpuBroadphase3D;

beforeAll(async () => {
  gpu = await acquireDevice();
  bp = await GpuBroadphase3D.create(gpu.device);
});

afterAll(() => {
  bp?.destroy();
  gpu?.device.destroy();
});

interface RandomSceneOptions3D {
  n: number;
  /** Side of the cube the ordinary bodies are scattered over. */
  spread: number;
  margin: number;
  /** Boxes of size 1e3..5e3 among the others. */
  huge?: number;
  /** Fraction of bodies in a small cluster 1e5 away. */
  far?: number;
  /** Fraction of bodies stacked exactly on an earlier body. */
  stacked?: number;
}

const f32v = (v: Vec3): Vec3 => [Math.fround(v[0]), Math.fround(v[1]), Math.fround(v[2])];

export function randomScene3D(seed: number, o: RandomSceneOptions3D): Scene3D {
  const r = rng(seed);
  const shapes: Shape3DInput[] = Array.from({ length: 48 }, () => randomShape3D(r, 'mixed3d'));
  const hugeShape = shapes.length;
  for (let k = 0; k < (o.huge ?? 0); k++)
    shapes.push({ type: 'box', halfExtents: [1e3 + 4e3 * r(), 1e3 + 4e3 * r(), 1e3 + 4e3 * r()] });
  const bodies: SceneJson3D['bodies'] = [];
  for (let i = 0; i < o.n; i++) {
    const kind = r();
    if (i > 0 && kind < (o.stacked ?? 0)) {
      bodies.push({ ...bodies[Math.floor(r() * i)]! });
    } else if (kind < (o.stacked ?? 0) + (o.far ?? 0)) {
      bodies.push({
        shape: Math.floor(r() * 48),
        position: f32v([1e5 + 12 * r(), -1e5 + 12 * r(), 1e5 + 12 * r()]),
        rotation: randomRotation3D(r),
      });
    } else {
      bodies.push({
        shape: Math.floor(r() * 48),
        position: f32v([o.spread * r(), o.spread * r(), o.spread * r()]),
        rotation: randomRotation3D(r),
      });
    }
  }
  for (let k = 0; k < (o.huge ?? 0); k++) {
    bodies[Math.floor(r() * o.n)] = {
      shape: hugeShape + k,
      position: f32v([o.spread * r(), o.spread * r(), o.spread * r()]),
      rotation: randomRotation3D(r),
    };
  }
  return parseScene({ dim: 3, margin: o.margin, shapes, bodies }) as Scene3D;
}

/** Axis-aligned boxes, positions and sizes in multiples of 1/8: every coordinate exact in f32. */
function dyadicScene3D(seed: number, n: number, side: number, margin: number): Scene3D {
  const r = rng(seed);
  const eighth = (lo: number, hi: number): number => Math.floor(lo * 8 + r() * (hi - lo) * 8) / 8;
  const shapes: Shape3DInput[] = Array.from({ length: 16 }, () => ({
    type: 'box',
    halfExtents: [eighth(0.25, 1.5), eighth(0.25, 1.5), eighth(0.25, 1.5)] as Vec3,
  }));
  const bodies = Array.from({ length: n }, () => ({
    shape: Math.floor(r() * shapes.length),
    position: [eighth(0, side), eighth(0, side), eighth(0, side)] as Vec3,
  }));
  return parseScene({ dim: 3, margin, shapes, bodies }) as Scene3D;
}

async function gpuPairs(
  scene: Scene3D,
  options: { capacity?: number } = {},
): Promise<GpuBroadphaseResult3D> {
  return bp.run(
    packShapes3D(scene.shapes),
    packBodies3D(scene),
    scene.bodyShape.length,
    scene.margin,
    options,
  );
}

/** The pairs on which the GPU and the host differ, with the f64 overlap and the f32 tolerance (1e-6 of the boxes' size). */
function differences(
  scene: Scene3D,
  gpuPairs: Uint32Array,
  host: Uint32Array,
): { pair: [number, number]; overlap: number; tol: number }[] {
  const n = scene.bodyShape.length;
  const keys = (p: Uint32Array): Set<number> => {
    const s = new Set<number>();
    for (let k = 0; k < p.length; k += 2) s.add(p[k]! * n + p[k + 1]!);
    return s;
  };
  const g = keys(gpuPairs);
  const h = keys(host);
  const box = bodyAabbs3D(scene, scene.margin);
  const out: { pair: [number, number]; overlap: number; tol: number }[] = [];
  for (const key of [...[...g].filter((k) => !h.has(k)), ...[...h].filter((k) => !g.has(k))]) {
    const a = Math.floor(key / n);
    const b = key % n;
    let overlap = Infinity;
    let size = 0;
    for (let k = 0; k < 3; k++) {
      overlap = Math.min(
        overlap,
        Math.min(box[6 * a + 3 + k]!, box[6 * b + 3 + k]!) -
          Math.max(box[6 * a + k]!, box[6 * b + k]!),
      );
      size += box[6 * a + 3 + k]! - box[6 * a + k]! + box[6 * b + 3 + k]! - box[6 * b + k]!;
    }
    out.push({ pair: [a, b], overlap, tol: 1e-6 * size });
  }
  return out;
}

async function expectHostPairs(
  scene: Scene3D,
): Promise<{ gpu: GpuBroadphaseResult3D; host: Uint32Array; borderline: number }> {
  const result = await gpuPairs(scene);
  const host = sweepAndPrune3D(scene);
  expect(result.pairCount).toBe(result.pairs.length / 2);
  const diff = differences(scene, result.pairs, host);
  const wrong = diff.filter((d) => Math.abs(d.overlap) > d.tol);
  expect(
    wrong.slice(0, 5),
    `${wrong.length} pairs differ from the host's by more than the f32 rounding of the input`,
  ).toEqual([]);
  return { gpu: result, host, borderline: diff.length };
}

describe('GPU broadphase 3D equals the host sweep-and-prune', () => {
  it('on scenes exact in f32, with many exactly touching boxes: identical pair lists', async () => {
    for (const [seed, margin] of [
      [1, 0],
      [2, 1 / 8],
    ] as const) {
      const scene = dyadicScene3D(seed, 3000, 24, margin);
      const result = await gpuPairs(scene);
      const host = sweepAndPrune3D(scene);
      expect(host.length / 2).toBeGreaterThan(1000);
      expect(result.pairs).toEqual(host);
    }
  });

  const SCENES: [string, number, RandomSceneOptions3D][] = [
    ['mixed shapes', 1, { n: 2000, spread: 14, margin: 0.02 }],
    ['crowded, large margin', 2, { n: 1500, spread: 8, margin: 0.5 }],
    ['huge bodies among small ones', 3, { n: 3000, spread: 18, margin: 0.01, huge: 4 }],
    ['bodies 1e5 away', 4, { n: 3000, spread: 16, margin: 0.02, far: 0.2 }],
    ['bodies stacked on one spot', 5, { n: 3000, spread: 16, margin: 0, stacked: 0.3 }],
    [
      'everything at once',
      6,
      { n: 4000, spread: 18, margin: 0.05, huge: 2, far: 0.05, stacked: 0.05 },
    ],
  ];
  it('with collision filters: the same pairs, those the filters forbid left out', async () => {
    await expectFilteredLikeHost(
      randomScene3D(7, { n: 3000, spread: 14, margin: 0.02 }),
      sweepAndPrune3D,
      expectHostPairs,
      rng(77),
    );
  });

  it.each(SCENES)('on random scenes: %s', async (_name, seed, options) => {
    const { host, borderline } = await expectHostPairs(randomScene3D(seed, options));
    expect(host.length / 2).toBeGreaterThan(options.n / 4);
    expect(borderline).toBe(0);
    // Bands: many where all bodies are small and near the origin (pairs cross band borders);
    // few where a huge or far body makes them tall.
    const bands = await bp.readBands();
    if (!options.huge && !options.far && options.spread >= 14)
      expect(bands.count).toBeGreaterThan(5);
  });

  it('on a pile on a wide ground box: identical pairs, many bands (the ground widens only its own band)', async () => {
    const r = rng(9);
    const shapes: Shape3DInput[] = [
      { type: 'box', halfExtents: [60, 0.5, 60] },
      ...Array.from({ length: 8 }, () => randomShape3D(r, 'mixed3d', 0.4)),
    ];
    const bodies: SceneJson3D['bodies'] = [{ shape: 0, position: [50, -0.5, 50] }];
    for (let i = 0; i < 3000; i++) {
      bodies.push({
        shape: 1 + Math.floor(8 * r()),
        position: f32v([100 * r(), 0.4 + 12 * r(), 100 * r()]),
        rotation: randomRotation3D(r),
      });
    }
    const scene = parseScene({ dim: 3, margin: 0.02, shapes, bodies }) as Scene3D;
    const { host, borderline } = await expectHostPairs(scene);
    expect(borderline).toBe(0);
    let onGround = 0;
    for (let k = 0; k < host.length; k += 2) if (host[k] === 0) onGround++;
    expect(onGround).toBeGreaterThan(10);
    expect((await bp.readBands()).count).toBeGreaterThan(5);
  });

  it('with a body of more partners than a group sorts by insertion: its group heap-sorted, in order', async () => {
    // A 40 × 40 ground slab (top at y = 0) under a 12 × 12 grid of boxes resting on it, 1.25 apart
    // (no two boxes touch): body 0's group holds 144 pairs, past BP_HEAPSORT_MIN (64,
    // shaders/broadphase.wgsl), so a rebuild heap-sorts it; a second layer pairs with the first.
    const r = rng(21);
    const shapes: Shape3DInput[] = [
      { type: 'box', halfExtents: [20, 0.5, 20] },
      { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
    ];
    const bodies: SceneJson3D['bodies'] = [{ shape: 0, position: [0, -0.5, 0] }];
    for (let layer = 0; layer < 2; layer++) {
      for (let i = 0; i < 144; i++) {
        const x = -7 + 1.25 * (i % 12) + 0.05 * r();
        const z = -7 + 1.25 * Math.floor(i / 12) + 0.05 * r();
        bodies.push({ shape: 1, position: f32v([x, 0.5 + layer, z]) });
      }
    }
    const scene = parseScene({ dim: 3, margin: 0.02, shapes, bodies }) as Scene3D;
    const { gpu, borderline } = await expectHostPairs(scene);
    expect(borderline).toBe(0);
    const p = gpu.pairs;
    let onGround = 0;
    let unordered = -1;
    for (let k = 0; k < p.length; k += 2) {
      if (p[k] === 0) onGround++;
      const ordered = k === 0 || p[k - 2]! < p[k]! || (p[k - 2] === p[k] && p[k - 1]! < p[k + 1]!);
      if (!ordered && unordered < 0) unordered = k / 2;
    }
    expect(unordered, 'the first pair out of (bodyA, bodyB) order').toBe(-1);
    expect(onGround).toBe(144);
  });

  it('with bodies that do not touch, one body and none: no pairs', async () => {
    const apart = parseScene({
      dim: 3,
      margin: 0.1,
      shapes: [{ type: 'box', halfExtents: [1, 1, 1] }],
      bodies: Array.from({ length: 512 }, (_, i) => ({
        shape: 0,
        position: [3 * (i % 8), 3 * (Math.floor(i / 8) % 8), 3 * Math.floor(i / 64)] as Vec3,
      })),
    }) as Scene3D;
    const one: Scene3D = {
      ...apart,
      bodyShape: apart.bodyShape.slice(0, 1),
      bodyPosition: apart.bodyPosition.slice(0, 3),
      bodyRotation: apart.bodyRotation.slice(0, 4),
    };
    const none: Scene3D = {
      ...apart,
      bodyShape: new Uint32Array(0),
      bodyPosition: new Float64Array(0),
      bodyRotation: new Float64Array(0),
    };
    for (const scene of [apart, one, none]) {
      const r = await gpuPairs(scene);
      expect(r.pairCount).toBe(0);
      expect(sweepAndPrune3D(scene).length).toBe(0);
    }
  });
});

describe('GPU broadphase 3D output', () => {
  const scene = randomScene3D(21, { n: 4000, spread: 16, margin: 0.02, stacked: 0.1, huge: 1 });

  it('is byte-identical across runs, and equal after an overflow and rerun', async () => {
    const full = await gpuPairs(scene, { capacity: 1 << 20 });
    expect(full.runs).toBe(1);
    expect(full.pairCount).toBeGreaterThan(4000);
    const again = await gpuPairs(scene);
    expect(Buffer.from(again.gpuPairs.buffer).equals(Buffer.from(full.gpuPairs.buffer))).toBe(true);
    const grown = await gpuPairs(scene, { capacity: 7 });
    expect(grown.runs).toBe(2);
    expect(Buffer.from(grown.gpuPairs.buffer).equals(Buffer.from(full.gpuPairs.buffer))).toBe(true);
    if (gpu.timestamps)
      console.log(`4000 bodies, ${full.pairCount} pairs: GPU ${full.timings!.total.toFixed(1)} ms`);
  });

  it('reads only the first bodyCount bodies of a caller buffer', async () => {
    const part: Scene3D = {
      ...scene,
      bodyShape: scene.bodyShape.slice(0, 2500),
      bodyPosition: scene.bodyPosition.slice(0, 7500),
      bodyRotation: scene.bodyRotation.slice(0, 10000),
    };
    const r = await bp.run(packShapes3D(scene.shapes), packBodies3D(scene), 2500, scene.margin);
    expect(r.pairs).toEqual((await gpuPairs(part)).pairs);
    expect(r.pairs).toEqual(sweepAndPrune3D(part));
  });
});
