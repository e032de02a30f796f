// The GPU reuse stage (src/gpu/reuse.ts, shaders/reuse*.wgsl) against its CPU mirror
// (src/cpu/reuse2d.ts, reuse3d.ts) on seeded wobble sequences of every shape kind, frame by
// frame: each GPU frame is rerun on the CPU from the GPU's own inputs (test/helpers/reuse-gpu.ts),
// so flags must be equal slot for slot, except near-ties: a decision within NEAR_TIE_GAP
// (relative) of a threshold, where f32 and f64 may part; those are counted, printed and bounded.
// Reused manifolds agree to f32 rounding, carried anchors byte for byte, new anchors to f32
// rounding (a join recognised on one side only, or two separating axes that tie, count as anchor
// near-ties). Then: reruns are byte-identical, a GPU pair count gives the host count's bytes,
// and reused manifolds keep the feature ids of the manifold their anchor was built from.
//
// Sequences: piles wobbled by the bench's 1e-3 (most pairs reused) and by 4e-3 (tolerances crossed
// all the time, anchors rebuilt), the margin raised for one frame; the coherence families.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REUSE_STATUS } from '../src/cpu/reuse.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import type { StoreMode } from '../src/gpu/device.ts';
import { GpuReuse, REUSE_DIMENSION_3D, type ReuseKernel } from '../src/gpu/reuse.ts';
import { REUSE_TRANSLATION } from '../src/constants.ts';
import {
  COHERENCE_FAMILIES,
  coherenceFamily,
  framesWorld2D,
  pile2D,
  pile3D,
  runFrames,
  type Pose2D,
  type ReuseFrame,
  type ReuseWorld,
} from './helpers/reuse-frames.ts';
import {
  GpuReuseRunner,
  NEAR_TIE_GAP,
  compareFrame,
  decisionGap,
  emptyComparison,
  slotsFlagged,
  type FrameComparison,
} from './helpers/reuse-gpu.ts';

let device: GPUDevice;

beforeAll(async () => {
  device = (await acquireDevice()).device;
});

afterAll(() => device?.destroy());

const FRAMES = 24;
/** The frame whose margin is 1.5 times the world's (its anchors with the old margin are not reused). */
const MARGIN_FRAME = 12;

interface SequenceResult {
  comparison: FrameComparison;
  /** Hash of every frame's outputs (manifolds, flags, counts, anchors). */
  hash: string;
  statuses: Record<number, number>;
  /** Kept pairs and touching fresh manifolds per pair kind; kept with fewer points than their anchor. */
  keptByKind: Map<string, number>;
  touchingByKind: Map<string, number>;
  dropped: number;
  /** Kept slots whose ids are not those of the manifold their anchor was built from. */
  idsLost: number;
  /** Frames (after the first) whose point set changed: reused stream, fresh stream. */
  idChanges: { reused: number; fresh: number; frames: number };
}

async function sequence(
  world: ReuseWorld,
  frames = FRAMES,
  gpuCount = false,
  stores?: StoreMode,
  kernel?: ReuseKernel,
  listing = false,
): Promise<SequenceResult> {
  const runner = await GpuReuseRunner.create(device, world, stores, kernel, listing);
  const comparison = emptyComparison();
  const hash = createHash('sha256');
  const statuses: Record<number, number> = { 0: 0, 1: 0, 2: 0 };
  const keptByKind = new Map<string, number>();
  const touchingByKind = new Map<string, number>();
  const builtIds: number[][] = [];
  let dropped = 0;
  let idsLost = 0;
  const idChanges = { reused: 0, fresh: 0, frames: 0 };
  let last: ReuseFrame | null = null;
  const key = (ids: number[]): string => [...ids].sort((a, b) => a - b).join();
  for (let f = 0; f < frames; f++) {
    const margin = f === MARGIN_FRAME ? 1.5 * world.margin : world.margin;
    const g = await runner.frame(margin, gpuCount);
    compareFrame(world, g, margin, comparison);
    // A listing stage lists the slots it flags collide, each once (in the order of its appends).
    if (listing) expect([...g.listed].sort((a, b) => a - b)).toEqual(slotsFlagged(g.flags));
    for (const buf of [g.manifolds, g.flags.buffer, g.anchors])
      hash.update(new Uint8Array(buf as ArrayBuffer));
    hash.update(JSON.stringify(g.counts));
    for (let k = 0; k < world.pairCount; k++) {
      const status = g.flags[k]!;
      statuses[status]!++;
      const m = world.slot(g.manifolds, k);
      const kind = world.kinds[k]!;
      if (world.slot(g.fresh, k).count > 0)
        touchingByKind.set(kind, (touchingByKind.get(kind) ?? 0) + 1);
      if (status === REUSE_STATUS.collide) builtIds[k] = m.ids;
      if (status === REUSE_STATUS.kept) {
        keptByKind.set(kind, (keptByKind.get(kind) ?? 0) + 1);
        const built = builtIds[k]!;
        if (m.count < built.length) dropped++;
        // In the build's order, a subsequence of its ids.
        let j = 0;
        for (const id of m.ids) {
          while (j < built.length && built[j] !== id) j++;
          if (j === built.length) idsLost++;
        }
      }
      if (last) {
        const before = world.slot(last.manifolds, k);
        const freshBefore = world.slot(last.fresh, k);
        if (key(before.ids) !== key(m.ids)) idChanges.reused++;
        if (key(freshBefore.ids) !== key(world.slot(g.fresh, k).ids)) idChanges.fresh++;
        idChanges.frames++;
      }
    }
    last = g;
  }
  runner.destroy();
  return {
    comparison,
    hash: hash.digest('hex'),
    statuses,
    keptByKind,
    touchingByKind,
    dropped,
    idsLost,
    idChanges,
  };
}

function report(world: ReuseWorld, r: SequenceResult): void {
  const c = r.comparison;
  console.log(
    `${world.name} (${world.pairCount} pairs × ${FRAMES} frames): kept ${r.statuses[0]}, collide ${r.statuses[1]}, apart ${r.statuses[2]}, dropped points in ${r.dropped}; ` +
      `flags equal ${c.sameFlags} of ${c.slots}, near-ties ${c.nearTies}, unexplained ${c.unexplained.length}; ` +
      `reused normal ${c.normal.toExponential(1)}, depth ${c.depth.toExponential(1)}, position ${c.position.toExponential(1)}; anchors ${c.anchor.toExponential(1)}, anchor near-ties ${c.anchorNearTies}; ` +
      `point sets changed: reused ${r.idChanges.reused}, fresh ${r.idChanges.fresh} of ${r.idChanges.frames}`,
  );
  for (const u of c.unexplained.slice(0, 10)) console.log(`  ${u}`);
}

/**
 * Coverage of kinds: every pair kind the sequence touched at least 20 times was reused, and every
 * shape kind of `shapeKinds` took part in a reused pair.
 */
function expectKindsReused(world: ReuseWorld, r: SequenceResult, shapeKinds: string[]): void {
  for (const [kind, touching] of r.touchingByKind) {
    if (touching >= 20)
      expect(
        r.keptByKind.get(kind) ?? 0,
        `${world.name}: no ${kind} pair reused (${touching} touching)`,
      ).toBeGreaterThan(0);
  }
  for (const s of shapeKinds)
    expect(
      [...r.keptByKind.keys()].some((k) => k.split('-').includes(s)),
      `${world.name}: no ${s} reused`,
    ).toBe(true);
}

function expectAgreement(world: ReuseWorld, r: SequenceResult): void {
  const c = r.comparison;
  expect(c.unexplained, world.name).toEqual([]);
  // Near-ties are rare: a decision within 2e-5 of its threshold.
  expect(c.nearTies, world.name).toBeLessThanOrEqual(Math.max(2, 1e-3 * c.slots));
  expect(c.anchorNearTies, world.name).toBeLessThanOrEqual(Math.max(2, 1e-3 * c.slots));
  expect(c.normal, world.name).toBeLessThan(1e-5);
  expect(c.depth, world.name).toBeLessThan(1e-5);
  expect(c.position, world.name).toBeLessThan(1e-5);
  expect(c.anchor, world.name).toBeLessThan(1e-5);
  expect(r.idsLost, world.name).toBe(0);
}

describe('manifold reuse, GPU against CPU on wobble sequences', () => {
  const worlds2D = [pile2D(10, true, 0x2d17), pile2D(10, true, 0x2d18, 4e-3)];
  const worlds3D = [
    pile3D(4, 'mixed', 0x3d17),
    pile3D(4, 'mixed', 0x3d18, 4e-3),
    pile3D(4, 'bricks', 0x3d19, 4e-3),
  ];

  /** A pile's sequence, and its coverage: every status, drops, every pair kind it touched reused. */
  async function checkPile(world: ReuseWorld, shapeKinds: string[]): Promise<void> {
    const r = await sequence(world);
    report(world, r);
    expectAgreement(world, r);
    expect(r.statuses[REUSE_STATUS.kept]).toBeGreaterThan(0.2 * world.pairCount * FRAMES);
    expect(r.statuses[REUSE_STATUS.collide]).toBeGreaterThan(world.pairCount);
    expect(r.statuses[REUSE_STATUS.apart]).toBeGreaterThan(0);
    expectKindsReused(world, r, shapeKinds);
    expect(r.dropped, `${world.name}: no reused manifold dropped a point`).toBeGreaterThan(0);
  }

  it('2D piles (polygons, boxes, circles, capsules): flags equal but for counted near-ties, every kind reused', async () => {
    for (const world of worlds2D) await checkPile(world, ['polygon', 'box', 'circle', 'capsule']);
  });

  it('3D piles (boxes, hulls, spheres, capsules): flags equal but for counted near-ties, every kind reused', async () => {
    for (const world of worlds3D)
      await checkPile(
        world,
        world.name.includes('mixed') ? ['box', 'hull', 'sphere', 'capsule'] : ['box'],
      );
  });

  it('the coherence families: flags equal, reuse keeps the point sets steadier than fresh collides', async () => {
    for (const name of Object.keys(COHERENCE_FAMILIES)) {
      const world = coherenceFamily(name, 30);
      const r = await sequence(world);
      report(world, r);
      expectAgreement(world, r);
      expect(r.idChanges.reused).toBeLessThanOrEqual(r.idChanges.fresh + 2);
    }
  });

  it('the near-tie measure sees a decision on its threshold (and not one far from it)', async () => {
    // A unit box resting on a wide box (depth 0.01) moved sideways by exactly REUSE_TRANSLATION ×
    // its scale (√0.5), then by half that.
    const box = (hx: number, hy: number) => ({
      type: 'box' as const,
      halfExtents: [hx, hy] as [number, number],
    });
    const at = (x: number): Pose2D[] => [
      { position: [0, 0], angle: 0 },
      { position: [x, 0.99], angle: 0 },
    ];
    const edge = REUSE_TRANSLATION * Math.SQRT1_2;
    const world = framesWorld2D(
      'threshold',
      [box(2, 0.5), box(0.5, 0.5)],
      [0, 1],
      [at(0), at(edge), at(edge / 2)],
      [[0, 1]],
      0.02,
    );
    const gaps: number[] = [];
    await runFrames(world, 3, (_frame, frame, anchorsPrev) => {
      if (anchorsPrev) gaps.push(decisionGap(world, frame.bodies, anchorsPrev, 0, world.margin));
    });
    expect(gaps[0]).toBeLessThan(NEAR_TIE_GAP);
    expect(gaps[1]).toBeGreaterThan(NEAR_TIE_GAP);
  });

  it('reruns are byte-identical, with a pair count on the GPU too, and with either kind of stores', async () => {
    for (const world of [worlds2D[1]!, worlds3D[1]!]) {
      const a = await sequence(world, 10);
      const b = await sequence(world, 10);
      const c = await sequence(world, 10, true);
      // The stores a GPU compiles (staged through workgroup memory) and a CPU adapter's (direct).
      const staged = await sequence(world, 10, false, 'staged');
      const direct = await sequence(world, 10, false, 'direct');
      expect(b.hash, world.name).toBe(a.hash);
      expect(c.hash, world.name).toBe(a.hash);
      expect(staged.hash, world.name).toBe(a.hash);
      expect(direct.hash, world.name).toBe(a.hash);
    }
  });

  it("the frames' listing stage: the counting stage's bytes, and the slots it flags listed", async () => {
    for (const world of [worlds2D[1]!, worlds3D[1]!]) {
      const counted = await sequence(world, 10);
      const listed = await sequence(world, 10, false, undefined, undefined, true);
      const staged = await sequence(world, 10, false, 'staged', undefined, true);
      expect(counted.statuses[REUSE_STATUS.collide], 'slots listed').toBeGreaterThan(0);
      expect(listed.hash, world.name).toBe(counted.hash);
      expect(staged.hash, world.name).toBe(counted.hash);
    }
  });

  it("a box pile through the box–box class's reuse module: the general module's bytes", async () => {
    // A box-only frame compiles its reuse module with the box–box class's constants.
    expect(REUSE_DIMENSION_3D.kernelFor(['boxBox'])).toBe('boxBox');
    expect(REUSE_DIMENSION_3D.kernelFor(['boxBox', 'hullHull'])).toBe('general');
    const world = worlds3D[2]!;
    const general = await sequence(world, 10);
    const boxes = await sequence(world, 10, false, undefined, 'boxBox');
    expect(general.statuses[REUSE_STATUS.apart], 'pairs proven apart').toBeGreaterThan(0);
    expect(general.statuses[REUSE_STATUS.collide], 'anchors built').toBeGreaterThan(0);
    expect(boxes.hash, world.name).toBe(general.hash);
  });

  it('counts and a work list only from stages compiled for them, anchors from whole slots; refused before any GPU work', async () => {
    // The frames' stages are compiled without the counting (its barrier costs a SIMD adapter).
    const stage = await GpuReuse.create(device, REUSE_DIMENSION_3D);
    const b = device.createBuffer({ size: 1152, usage: GPUBufferUsage.STORAGE });
    const encoder = device.createCommandEncoder();
    const inputs = {
      bodies: { buffer: b },
      pairs: { buffer: b, size: 64 },
      pairCount: 8,
      prevSlot: null,
      anchorsPrev: null,
      anchorsCur: { buffer: b },
      manifolds: { buffer: b, size: 896 },
      flags: { buffer: b, size: 32 },
      margin: 0.01,
    };
    expect(() =>
      stage.encodeReuse(encoder, { ...inputs, counts: { buffer: b, size: 16 } }),
    ).toThrow(/counts given to a stage compiled without them/);
    // The work list: only to a stage compiled to list, which needs one, whole, at a binding offset.
    expect(() => stage.encodeReuse(encoder, { ...inputs, workList: { buffer: b } })).toThrow(
      /workList given to a stage compiled without it/,
    );
    const listing = await GpuReuse.create(device, REUSE_DIMENSION_3D, { list: true });
    expect(() => listing.encodeReuse(encoder, inputs)).toThrow(/give workList/);
    expect(() =>
      listing.encodeReuse(encoder, { ...inputs, workList: { buffer: b, size: 256 } }),
    ).toThrow(/workList must hold 288 bytes for 8 slots/);
    expect(() =>
      listing.encodeReuse(encoder, { ...inputs, workList: { buffer: b, offset: 16 } }),
    ).toThrow(/multiple of 256/);
    await expect(
      GpuReuse.create(device, REUSE_DIMENSION_3D, { list: true, counts: true }),
    ).rejects.toThrow(/counts and list take the same binding/);
    // Last frame's anchors from an offset: it names the first slot bound, so it is whole anchors.
    const from = (offset: number) => ({ buffer: b, offset, size: 144 });
    expect(() => stage.encodeReuse(encoder, { ...inputs, anchorsPrev: from(256) })).toThrow(
      /anchorsPrev.offset must be a whole number of 144-byte anchors, got 256/,
    );
    encoder.finish();
    stage.destroy();
    listing.destroy();
    b.destroy();
  });
});
