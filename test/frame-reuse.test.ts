// The frame across frames (src/gpu/frame.ts) against its CPU reference (src/cpu/frame.ts): piles
// that wobble as a settled pile does (every body moved by up to 1e-3 of its size and turned by up
// to 1e-3 rad about its rest pose each frame) while a few bodies jump (out of their fat boxes:
// new pairs, kept pairs, reused and fresh manifolds in one frame), 2D and 3D:
//   - every frame the same pairs as the host's fat boxes give (the GPU finds them incrementally),
//     the same reuse decisions but for near-ties, and the same dense list: pairs in (a, b) order,
//     point ids, depths and positions within f32 of each other;
//   - contact events: the pairs that began and stopped touching are the set differences of the
//     frames' lists, GPU equal to CPU;
//   - coverage: most pairs are reused or proven apart in wobble frames, some are collided, some new;
//   - two GPU frames given the same frames write byte-identical lists (reuse is deterministic), and
//     so does one recording them in batches of 256 pairs, one whose pairs overflow mid-run (the
//     frame run again: its first run discarded, the retry reads last frame's list), and one with
//     the stores GPUs get ('staged': a workgroup's words leave through workgroup memory);
//   - a burst (half the bodies jump in one frame, more than an update carries): step() records the
//     update without the rebuild's sorts, finds the rebuild deferred and runs the frame again.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CpuFrame2D, CpuFrame3D, type CpuFrameResult } from '../src/cpu/frame.ts';
import { unpackContacts2D } from '../src/cpu/contact-list2d.ts';
import { unpackContacts3D } from '../src/cpu/contact-list3d.ts';
import { acquireDevice, defaultStoreMode, type StoreMode } from '../src/gpu/device.ts';
import type { FrameResult } from '../src/gpu/frame.ts';
import { GpuFrame2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D } from '../src/gpu/frame3d.ts';
import { REUSE_DIMENSION_2D, REUSE_DIMENSION_3D } from '../src/gpu/reuse.ts';
import { anchorAlignment, anchorWindow } from '../src/gpu/anchor-window.ts';
import { packBodies2D, packShapes2D } from '../src/pack2d.ts';
import { packBodies3D, packShapes3D } from '../src/pack3d.ts';
import { randomShape, rng } from '../src/random2d.ts';
import { randomRotation3D, randomShape3D } from '../src/random3d.ts';
import { parseScene, type Scene2D, type Scene3D } from '../src/scene.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});
afterAll(() => device?.destroy());

const FRAMES = 8;
const JUMPERS = 4;

/** A pile at rest: a jittered grid, spacing a little under the shapes' size. */
function pile2D(seed: number, n: number): Scene2D {
  const r = rng(seed);
  const shapes = Array.from({ length: 16 }, () => randomShape(r, 'mixed', 0.45));
  const side = Math.ceil(Math.sqrt(n));
  const bodies = Array.from({ length: n }, (_, i) => ({
    shape: Math.floor(r() * shapes.length),
    position: [0.85 * (i % side) + 0.05 * r(), 0.85 * Math.floor(i / side) + 0.05 * r()] as [
      number,
      number,
    ],
    angle: 2 * Math.PI * r(),
  }));
  return parseScene({ dim: 2, margin: 0.02, shapes, bodies }) as Scene2D;
}

function pile3D(seed: number, n: number): Scene3D {
  const r = rng(seed);
  const shapes = Array.from({ length: 16 }, () => randomShape3D(r, 'mixed3d', 0.42));
  const side = Math.ceil(Math.cbrt(n));
  const bodies = Array.from({ length: n }, (_, i) => ({
    shape: Math.floor(r() * shapes.length),
    position: [
      0.8 * (i % side) + 0.05 * r(),
      0.8 * (Math.floor(i / side) % side) + 0.05 * r(),
      0.8 * Math.floor(i / (side * side)) + 0.05 * r(),
    ] as [number, number, number],
    rotation: randomRotation3D(r),
  }));
  return parseScene({ dim: 3, margin: 0.02, shapes, bodies }) as Scene3D;
}

/**
 * Frame f's poses: the rest poses wobbled by 1e-3 (f32, as the GPU sees them), and JUMPERS bodies
 * moved 0.3 for good; with `burst`, every other body moved 0.3 as well (this frame only).
 */
function pose(rest: Scene2D | Scene3D, scene: Scene2D | Scene3D, f: number, burst = false): void {
  const r = rng(1000 + f);
  const d = rest.dim;
  const n = rest.bodyShape.length;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++)
      scene.bodyPosition[d * i + c] = Math.fround(
        rest.bodyPosition[d * i + c]! + 1e-3 * (2 * r() - 1),
      );
  }
  for (let j = 0; j < JUMPERS * f; j++)
    scene.bodyPosition[d * ((7919 * j) % n)] = Math.fround(
      scene.bodyPosition[d * ((7919 * j) % n)]! + 0.3,
    );
  if (burst)
    for (let i = 0; i < n; i += 2)
      scene.bodyPosition[d * i + 1] = Math.fround(scene.bodyPosition[d * i + 1]! + 0.3);
  if (rest.dim === 2 && scene.dim === 2) {
    for (let i = 0; i < n; i++) scene.bodyAngle[i] = rest.bodyAngle[i]! + 1e-3 * (2 * r() - 1);
  } else if (rest.dim === 3 && scene.dim === 3) {
    for (let i = 0; i < n; i++) {
      const q = rest.bodyRotation.subarray(4 * i, 4 * i + 4);
      const w = [1e-3 * (2 * r() - 1), 1e-3 * (2 * r() - 1), 1e-3 * (2 * r() - 1)];
      const out = [
        q[0]! + 0.5 * (w[0]! * q[3]! + w[1]! * q[2]! - w[2]! * q[1]!),
        q[1]! + 0.5 * (w[1]! * q[3]! + w[2]! * q[0]! - w[0]! * q[2]!),
        q[2]! + 0.5 * (w[2]! * q[3]! + w[0]! * q[1]! - w[1]! * q[0]!),
        q[3]! - 0.5 * (w[0]! * q[0]! + w[1]! * q[1]! + w[2]! * q[2]!),
      ];
      const len = Math.hypot(...out);
      scene.bodyRotation.set(
        out.map((x) => x / len),
        4 * i,
      );
    }
  }
}

interface Compared {
  pairs: number;
  reused: number;
  apart: number;
  collided: number;
  nearTies: number;
  differing: number;
  began: number;
  runs: number;
}

type Entry = {
  bodyA: number;
  bodyB: number;
  normal: number[];
  points: { id: number; depth: number; position: number[] }[];
};

/** One frame's GPU result against the CPU's; returns the counts and near-ties. */
function compare(g: FrameResult, c: CpuFrameResult, unpack: (b: ArrayBuffer) => Entry[]): Compared {
  expect(g.counts.pairs).toBe(c.pairs.length / 2);
  const gl = unpack(
    g.contacts.slice(
      0,
      g.counts.contacts * (g.contacts.byteLength / Math.max(1, g.counts.contacts)),
    ),
  );
  const cl = unpack(c.contacts.dense);
  // Near-ties: a reuse decision or a pair's touching that f32 and f64 break differently.
  const reuseTies =
    Math.abs(g.counts.reused - c.reuse.kept) + Math.abs(g.counts.collided - c.reuse.collide);
  const key = (e: Entry): string => `${e.bodyA},${e.bodyB}`;
  const cpu = new Map(cl.map((e) => [key(e), e]));
  const gpu = new Map(gl.map((e) => [key(e), e]));
  let differing = Math.abs(gl.length - cl.length);
  for (const e of gl) {
    const o = cpu.get(key(e));
    const same =
      o !== undefined &&
      o.points.length === e.points.length &&
      e.points.every(
        (p, i) =>
          p.id === o.points[i]!.id &&
          Math.abs(p.depth - o.points[i]!.depth) < 2e-4 &&
          p.position.every((x, k) => Math.abs(x - o.points[i]!.position[k]!) < 2e-4),
      ) &&
      e.normal.every((x, k) => Math.abs(x - o.normal[k]!) < 2e-4);
    if (!same) differing++;
  }
  // Lists in (a, b) order on both.
  const order = (l: Entry[]): boolean =>
    l.every(
      (e, j) =>
        j === 0 ||
        l[j - 1]!.bodyA < e.bodyA ||
        (l[j - 1]!.bodyA === e.bodyA && l[j - 1]!.bodyB < e.bodyB),
    );
  expect(order(gl) && order(cl)).toBe(true);
  expect(gpu.size).toBe(gl.length);
  expect(Array.from(g.began)).toEqual(Array.from(c.contacts.began));
  expect(Array.from(g.ended)).toEqual(Array.from(c.contacts.ended));
  return {
    pairs: g.counts.pairs,
    reused: g.counts.reused,
    apart: g.counts.apart,
    collided: g.counts.collided,
    nearTies: reuseTies,
    differing,
    began: g.counts.began,
    runs: g.runs,
  };
}

/**
 * The frames on a new GPU frame (in batches of `batchPairs` pairs when given, per frame when a
 * function) and the CPU frame;
 * frame `burstAt` a burst (pose); before frame `squeezeAt` the pair capacity set to half the
 * pairs (an overflow, the frame run again); with `otherStores`, the frame's kernels store the
 * way the device's default does not.
 */
async function sequence(
  dim: 2 | 3,
  batchPairs: number | ((frame: number) => number) = 0,
  burstAt = -1,
  squeezeAt = -1,
  otherStores = false,
): Promise<{ stats: Compared[]; bytes: ArrayBuffer[] }> {
  const rest = dim === 2 ? pile2D(5, 900) : pile3D(6, 512);
  const scene = dim === 2 ? pile2D(5, 900) : pile3D(6, 512);
  const stores: StoreMode | undefined = otherStores
    ? defaultStoreMode(device) === 'direct'
      ? 'staged'
      : 'direct'
    : undefined;
  const options = stores ? { stores } : {};
  const frame =
    dim === 2
      ? await GpuFrame2D.create(device, undefined, options)
      : await GpuFrame3D.create(device, undefined, options);
  const cpu = dim === 2 ? new CpuFrame2D() : new CpuFrame3D();
  const packed =
    scene.dim === 2 ? { shapes: packShapes2D(scene.shapes) } : packShapes3D(scene.shapes);
  const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const make = (data: ArrayBuffer | ArrayBufferView): GPUBuffer => {
    const b = device.createBuffer({ size: Math.max(16, data.byteLength), usage: S });
    device.queue.writeBuffer(b, 0, ArrayBuffer.isView(data) ? data : new Uint8Array(data));
    return b;
  };
  const shapes = make(packed.shapes);
  const hull =
    'hullVertices' in packed
      ? {
          hullVertices: make(packed.hullVertices),
          hullPlanes: make(packed.hullPlanes),
          hullFaces: make(packed.hullFaces),
          hullIndices: make(packed.hullIndices),
        }
      : null;
  const bodies = make(scene.dim === 2 ? packBodies2D(scene) : packBodies3D(scene));
  const unpack = (b: ArrayBuffer): Entry[] =>
    (dim === 2 ? unpackContacts2D(b) : unpackContacts3D(b)) as unknown as Entry[];
  const stats: Compared[] = [];
  const bytes: ArrayBuffer[] = [];
  for (let f = 0; f < FRAMES; f++) {
    if (f > 0) pose(rest, scene, f, f === burstAt);
    device.queue.writeBuffer(
      bodies,
      0,
      scene.dim === 2 ? packBodies2D(scene) : packBodies3D(scene),
    );
    const inputs = {
      shapes,
      bodies,
      bodyCount: scene.bodyShape.length,
      margin: scene.margin,
      ...(hull ?? {}),
    };
    frame.setBatchPairs(typeof batchPairs === 'number' ? batchPairs : batchPairs(f));
    if (f === squeezeAt)
      frame.broadphase.setCapacity(Math.floor(stats[f - 1]!.pairs / 2 / 256) * 256);
    const g = await (frame as GpuFrame3D).step(inputs as Parameters<GpuFrame3D['step']>[0]);
    const c = (cpu as CpuFrame3D).step(scene as Scene3D);
    stats.push(compare(g, c, unpack));
    bytes.push(g.contacts.slice(0, g.counts.contacts * (dim === 2 ? 64 : 176)));
  }
  frame.destroy();
  for (const b of [shapes, bodies, ...Object.values(hull ?? {})]) b.destroy();
  return { stats, bytes };
}

describe('the frame across frames: fat boxes, reuse, events; GPU against the CPU frame', () => {
  for (const dim of [2, 3] as const) {
    it(`${dim}D: wobbling pile with a few jumpers, ${FRAMES} frames`, async () => {
      const { stats, bytes } = await sequence(dim);
      console.log(`${dim}D frames: ${JSON.stringify(stats)}`);
      expect(stats[0]!.reused).toBe(0);
      for (const s of stats.slice(1)) {
        // Coverage: most pairs reused or proven apart; some collided (the jumpers' and new pairs).
        expect(s.reused).toBeGreaterThan(0.2 * s.pairs);
        expect(s.collided).toBeLessThan(0.15 * s.pairs);
        expect(s.collided).toBeGreaterThan(0);
        // Some proven apart (the reuse's bound), frame after frame.
        expect(s.apart).toBeGreaterThan(0.05 * s.pairs);
        // Near-ties only: a handful of a thousand pairs.
        expect(s.nearTies).toBeLessThanOrEqual(Math.max(3, 0.003 * s.pairs));
        expect(s.differing).toBeLessThanOrEqual(Math.max(3, 0.003 * s.pairs));
      }
      expect(stats.slice(1).some((s) => s.began > 0)).toBe(true);
      // Deterministic: the same frames again on a new GPU frame, the same bytes; and in batches
      // of 256 pairs (anchors carried in place per batch window, twins included); and switching
      // to batches for two frames and back (the batches share one set of manifold slots).
      const again = await sequence(dim);
      const batched = await sequence(dim, 256);
      const switched = await sequence(dim, (f) => (f === 2 || f === 3 ? 256 : 0));
      const squeezed = await sequence(dim, 0, -1, 5);
      // The other stores (on a GPU adapter 'direct', on a CPU one 'staged'), batches switched too.
      const otherStores = await sequence(dim, (f) => (f === 2 || f === 3 ? 256 : 0), -1, -1, true);
      expect(squeezed.stats.map((s) => s.runs)).toEqual(
        stats.map((s, f) => (f === 5 ? 2 : s.runs)),
      );
      for (const run of [again, batched, switched, squeezed, otherStores]) {
        run.bytes.forEach((b, f) =>
          expect(Buffer.from(b).equals(Buffer.from(bytes[f]!)), `frame ${f}`).toBe(true),
        );
        // The reuse counts, summed over the batches' anchor passes, as one batch's.
        const counts = (r: Compared[]): number[][] => r.map((s) => [s.reused, s.collided]);
        expect(counts(run.stats)).toEqual(counts(stats));
      }
    });

    it(`${dim}D: a batch's anchors fit one binding, as its manifold slots do`, async () => {
      // Batches sized by their manifolds alone bound more anchors than one binding holds.
      const frame = dim === 2 ? await GpuFrame2D.create(device) : await GpuFrame3D.create(device);
      const { anchorBytes, manifoldBytes } = dim === 2 ? REUSE_DIMENSION_2D : REUSE_DIMENSION_3D;
      const limit = device.limits.maxStorageBufferBindingSize;
      const pairs = frame.maxBatchPairs();
      expect(anchorBytes).toBeGreaterThan(manifoldBytes);
      expect(pairs * anchorBytes).toBeLessThanOrEqual(limit);
      // As many as fit, to the batches' alignment.
      expect((pairs + 256) * anchorBytes).toBeGreaterThan(limit);
      frame.destroy();
    });

    it(`${dim}D: a batch binds the window of last frame's anchors around its own slots`, () => {
      const { anchorBytes } = dim === 2 ? REUSE_DIMENSION_2D : REUSE_DIMENSION_3D;
      const align = anchorAlignment(anchorBytes, 256);
      // 144 and 80 bytes: 16 anchors are the first whole number on a 256-byte offset.
      expect(align).toBe(16);
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1 << 20 }),
          fc.integer({ min: 1, max: 1 << 20 }),
          fc.integer({ min: align, max: 1 << 20 }),
          fc.integer({ min: 0, max: 1 << 20 }),
          (anchors, slots, reach, at) => {
            const first = at % anchors;
            const w = anchorWindow(first, slots, anchors, reach, align);
            expect(w.first % align).toBe(0);
            expect(w.count).toBeLessThanOrEqual(reach);
            expect(w.first + w.count).toBeLessThanOrEqual(anchors);
            if (anchors <= reach) expect(w).toEqual({ first: 0, count: anchors });
            // With an alignment's room on each side, the batch's own slots lie inside.
            const end = Math.min(first + slots, anchors);
            if (reach >= slots + 2 * align) {
              expect(w.first).toBeLessThanOrEqual(first);
              expect(w.first + w.count).toBeGreaterThanOrEqual(end);
            }
          },
        ),
        { seed: 16 + dim, numRuns: 2000 },
      );
    });

    it(`${dim}D: a burst defers the rebuild; step() runs that frame again`, async () => {
      const { stats } = await sequence(dim, 0, 4);
      console.log(`${dim}D burst frames: ${JSON.stringify(stats)}`);
      // Frame 4 recorded without sorts, deferred, run again; frame 5 (the bodies back) is
      // recorded with them after a burst and rebuilds in one run; the rest update in one.
      expect(stats[4]!.runs).toBe(2);
      for (const f of [1, 2, 3, 5, 6, 7]) expect(stats[f]!.runs, `frame ${f}`).toBe(1);
      for (const s of stats) {
        expect(s.nearTies).toBeLessThanOrEqual(Math.max(3, 0.003 * s.pairs));
        expect(s.differing).toBeLessThanOrEqual(Math.max(3, 0.003 * s.pairs));
      }
    });
  }
});
