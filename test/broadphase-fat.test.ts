// The GPU broadphase across frames, with fat boxes (src/gpu/broadphase.ts): each body keeps a box
// grown by fatMargin × its extent, and its pairs stand while its tight box stays inside.
// Sequences of frames where most bodies wobble (1e-3 of their size and 1e-3 rad, inside their fat
// boxes) and some jump (out of them), 2D and 3D, with collision filters:
//   - every frame's pairs are exactly the pairs of overlapping fat boxes (a brute force over the
//     fat boxes the GPU kept, read back), in (a, b) order, whichever mode the frame ran in;
//   - every fat box holds its body's tight box (the host's bodyAabbs2D/3D);
//   - prevSlot names the same pair in last frame's list, or none when it was not there;
//   - frames where nothing left its fat box keep the list; a few movers update it; many rebuild
//     (coverage guards on the modes);
//   - two instances given the same frames write the same bytes, and so do ones whose update
//     frames are recorded as the frames' step() records them: without the rebuild's sorts
//     (deferRebuild), and held-only after a frame that kept its list (expectHeld; held, or
//     deferred and retried).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyAabbs2D } from '../src/broadphase2d.ts';
import { bodyAabbs3D } from '../src/broadphase3d.ts';
import { BROADPHASE_PAIR_CACHE } from '../src/constants.ts';
import { shouldCollide } from '../src/filter.ts';
import {
  BROADPHASE_LAYOUT,
  BROADPHASE_MODE,
  finderCacheSlots,
  PREV_SLOT_NONE,
  type GpuBroadphase,
} from '../src/gpu/broadphase.ts';
import { GpuBroadphase2D } from '../src/gpu/broadphase2d.ts';
import { GpuBroadphase3D } from '../src/gpu/broadphase3d.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { packBodies2D, packShapes2D } from '../src/pack2d.ts';
import { packBodies3D, packShapes3D } from '../src/pack3d.ts';
import { randomShape, rng } from '../src/random2d.ts';
import { randomRotation3D, randomShape3D } from '../src/random3d.ts';
import {
  parseScene,
  type Scene2D,
  type Scene3D,
  type SceneJson2D,
  type SceneJson3D,
} from '../src/scene.ts';
import { assignRandomFilters } from './helpers/filters.ts';

const FAT = 0.1;
let device: GPUDevice;

beforeAll(async () => {
  device = (await acquireDevice()).device;
});
afterAll(() => device?.destroy());

/** A loose block of `n` bodies on a jittered grid, a third of the shapes filtered. */
function scene3D(seed: number, n: number): Scene3D {
  const r = rng(seed);
  const shapes = Array.from({ length: 24 }, () => randomShape3D(r, 'mixed3d', 0.4));
  const side = Math.ceil(Math.cbrt(n));
  const bodies: SceneJson3D['bodies'] = Array.from({ length: n }, (_, i) => ({
    shape: Math.floor(r() * shapes.length),
    position: [
      0.8 * (i % side) + 0.1 * r(),
      0.8 * (Math.floor(i / side) % side) + 0.1 * r(),
      0.8 * Math.floor(i / (side * side)) + 0.1 * r(),
    ],
    rotation: randomRotation3D(r),
  }));
  const scene = parseScene({ dim: 3, margin: 0.02, shapes, bodies }) as Scene3D;
  assignRandomFilters(scene.shapes.slice(0, 8), r);
  return scene;
}

function scene2D(seed: number, n: number): Scene2D {
  const r = rng(seed);
  const shapes = Array.from({ length: 24 }, () => randomShape(r, 'mixed', 0.4));
  const side = Math.ceil(Math.sqrt(n));
  const bodies: SceneJson2D['bodies'] = Array.from({ length: n }, (_, i) => ({
    shape: Math.floor(r() * shapes.length),
    position: [0.8 * (i % side) + 0.1 * r(), 0.8 * Math.floor(i / side) + 0.1 * r()],
    angle: 2 * Math.PI * r(),
  }));
  const scene = parseScene({ dim: 2, margin: 0.02, shapes, bodies }) as Scene2D;
  assignRandomFilters(scene.shapes.slice(0, 8), r);
  return scene;
}

/** Moves the bodies of `scene` for one frame: `jumps` of them by 0.3 of a unit, the rest by 1e-3. */
function move(scene: Scene2D | Scene3D, r: () => number, jumps: number): void {
  const n = scene.bodyShape.length;
  const d = scene.dim;
  for (let i = 0; i < n; i++) {
    const step = r() < jumps / n ? 0.3 : 1e-3;
    for (let c = 0; c < d; c++) scene.bodyPosition[d * i + c]! += step * (2 * r() - 1);
    if (scene.dim === 2) {
      scene.bodyAngle[i]! += 1e-3 * (2 * r() - 1);
    } else {
      const q = scene.bodyRotation;
      const o = 4 * i;
      const w = [1e-3 * (2 * r() - 1), 1e-3 * (2 * r() - 1), 1e-3 * (2 * r() - 1)];
      // q += 0.5 (w, 0) q, then normalised: a small turn.
      const [x, y, z, qw] = [q[o]!, q[o + 1]!, q[o + 2]!, q[o + 3]!];
      const nx = x + 0.5 * (w[0]! * qw + w[1]! * z - w[2]! * y);
      const ny = y + 0.5 * (w[1]! * qw + w[2]! * x - w[0]! * z);
      const nz = z + 0.5 * (w[2]! * qw + w[0]! * y - w[1]! * x);
      const nw = qw - 0.5 * (w[0]! * x + w[1]! * y + w[2]! * z);
      const len = Math.hypot(nx, ny, nz, nw);
      q.set([nx / len, ny / len, nz / len, nw / len], o);
    }
  }
}

interface FrameRead {
  pairs: Uint32Array;
  prevSlot: Uint32Array;
  mode: number;
  moved: number;
  fat: Awaited<ReturnType<GpuBroadphase['readFatBoxes']>>;
}

/**
 * Runs frames of `scene` on `bp`, moving it before each but the first; reads each frame back.
 * `defer(f)`: frame f is recorded without the rebuild's sorts (deferRebuild, as the frames' step()
 * records an update it expects), which runs the kernels of such recordings (bpAabb without the
 * extremes).
 */
async function runFrames(
  bp: GpuBroadphase,
  scene: Scene2D | Scene3D,
  frames: number,
  seed: number,
  jumps: (f: number) => number,
  defer: (f: number) => boolean = () => false,
  speculate?: { held: number; failed: number },
): Promise<FrameRead[]> {
  const r = rng(seed);
  const n = scene.bodyShape.length;
  const packed =
    scene.dim === 2
      ? { shapes: packShapes2D(scene.shapes), hullVertices: undefined }
      : packShapes3D(scene.shapes);
  const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const shapes = device.createBuffer({ size: packed.shapes.byteLength, usage: S });
  device.queue.writeBuffer(shapes, 0, packed.shapes);
  let hullVertices: GPUBuffer | undefined;
  if (packed.hullVertices) {
    hullVertices = device.createBuffer({
      size: Math.max(16, packed.hullVertices.byteLength),
      usage: S,
    });
    device.queue.writeBuffer(hullVertices, 0, packed.hullVertices);
  }
  const out: FrameRead[] = [];
  let bodies: GPUBuffer | null = null;
  for (let f = 0; f < frames; f++) {
    if (f > 0) move(scene, r, jumps(f));
    const data = scene.dim === 2 ? packBodies2D(scene) : packBodies3D(scene);
    bodies ??= device.createBuffer({ size: data.byteLength, usage: S });
    device.queue.writeBuffer(bodies, 0, data);
    const C = BROADPHASE_LAYOUT.counts;
    // With `speculate`, as the frames' step(): a frame after one whose list was last frame's is
    // recorded held-only, and again (a retry) when a body left its box.
    const last = out[out.length - 1];
    const expectHeld =
      speculate !== undefined && last?.moved === 0 && last.mode === BROADPHASE_MODE.update;
    const record = async (retry: boolean) => {
      const encoder = device.createCommandEncoder();
      const o = bp.encode(encoder, {
        shapes,
        bodies: bodies!,
        ...(hullVertices ? { hullVertices } : {}),
        bodyCount: n,
        margin: scene.margin,
        fatMargin: FAT,
        capacity: 16 * n,
        deferRebuild: defer(f),
        expectHeld: expectHeld && !retry,
        retry,
      });
      device.queue.submit([encoder.finish()]);
      return { o, counts: new Uint32Array(await readBuffer(device, o.counts, C.bytes)) };
    };
    let { o, counts } = await record(false);
    if (expectHeld && speculate) {
      if (counts[C.mode] === BROADPHASE_MODE.deferred) {
        speculate.failed++;
        expect(counts[C.written], `frame ${f}: a deferred frame hands on no pairs`).toBe(0);
        ({ o, counts } = await record(true));
        expect(counts[C.mode], `frame ${f}: its retry updates`).toBe(BROADPHASE_MODE.update);
      } else {
        speculate.held++;
      }
    }
    expect(counts[C.overflow]).toBe(0);
    expect(counts[C.mode], `frame ${f}: not deferred`).not.toBe(BROADPHASE_MODE.deferred);
    const written = counts[C.written]!;
    out.push({
      pairs: new Uint32Array(await readBuffer(device, o.pairs, 8 * written)),
      prevSlot: new Uint32Array(await readBuffer(device, o.prevSlot, 4 * written)),
      mode: counts[C.mode]!,
      moved: counts[C.moved]!,
      fat: await bp.readFatBoxes(n),
    });
  }
  shapes.destroy();
  hullVertices?.destroy();
  bodies?.destroy();
  return out;
}

/** The pairs (a < b) of overlapping fat boxes the filters allow, by brute force, in (a, b) order. */
function bruteForce(fat: FrameRead['fat'], n: number): Uint32Array {
  const out: number[] = [];
  const b = fat.boxes;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let overlap = true;
      for (let c = 0; c < 3 && overlap; c++)
        overlap = b[6 * i + c]! <= b[6 * j + 3 + c]! && b[6 * j + c]! <= b[6 * i + 3 + c]!;
      if (
        overlap &&
        shouldCollide(
          fat.categoryBits[i]!,
          fat.maskBits[i]!,
          fat.categoryBits[j]!,
          fat.maskBits[j]!,
        )
      )
        out.push(i, j);
    }
  }
  return Uint32Array.from(out);
}

/** Checks a whole sequence; returns how many frames ran in each mode and how many kept their list. */
function checkFrames(
  frames: FrameRead[],
  scene: Scene2D | Scene3D,
  tight: Float64Array[],
): { update: number; rebuild: number; still: number } {
  const n = scene.bodyShape.length;
  let update = 0;
  let rebuild = 0;
  let still = 0;
  frames.forEach((fr, f) => {
    expect(Array.from(fr.pairs), `frame ${f}: the pairs of the fat boxes, in (a, b) order`).toEqual(
      Array.from(bruteForce(fr.fat, n)),
    );
    // The fat boxes hold the tight ones (up to the f32 rounding of their world coordinates).
    const t = tight[f]!;
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < scene.dim; c++) {
        const tol = 1e-6 * (1 + Math.abs(fr.fat.boxes[6 * i + c]!));
        expect(fr.fat.boxes[6 * i + c]!).toBeLessThanOrEqual(t[6 * i + c]! + tol);
        expect(fr.fat.boxes[6 * i + 3 + c]!).toBeGreaterThanOrEqual(t[6 * i + 3 + c]! - tol);
      }
    }
    const last = frames[f - 1];
    for (let k = 0; k < fr.prevSlot.length; k++) {
      const s = fr.prevSlot[k]!;
      if (!last) {
        expect(s).toBe(PREV_SLOT_NONE);
        continue;
      }
      const where = findPair(last.pairs, fr.pairs[2 * k]!, fr.pairs[2 * k + 1]!);
      expect(s, `frame ${f}, pair ${k}`).toBe(where < 0 ? PREV_SLOT_NONE : where);
    }
    if (f === 0) return;
    if (fr.mode === BROADPHASE_MODE.update) update++;
    else rebuild++;
    if (fr.moved === 0) {
      still++;
      expect(fr.mode).toBe(BROADPHASE_MODE.update);
      expect(Array.from(fr.prevSlot)).toEqual(
        fr.prevSlot.map((_, k) => k).reduce((a: number[], k) => (a.push(k), a), []),
      );
    }
  });
  return { update, rebuild, still };
}

/** The shapes and bodies buffers of a 2D scene (the bodies written by each frame2D). */
function buffers2D(scene: Scene2D): { shapes: GPUBuffer; bodies: GPUBuffer } {
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
  const packed = packShapes2D(scene.shapes);
  const shapes = device.createBuffer({ size: packed.byteLength, usage });
  device.queue.writeBuffer(shapes, 0, packed);
  const bodies = device.createBuffer({ size: packBodies2D(scene).byteLength, usage });
  return { shapes, bodies };
}

/** One frame of `bp` over `scene`'s bodies, its list and counts read back. */
async function frame2D(
  bp: GpuBroadphase,
  buffers: { shapes: GPUBuffer; bodies: GPUBuffer },
  scene: Scene2D,
  capacity: number,
  retry = false,
): Promise<{ pairs: Uint32Array; prevSlot: Uint32Array; total: number; moved: number }> {
  device.queue.writeBuffer(buffers.bodies, 0, packBodies2D(scene));
  const encoder = device.createCommandEncoder();
  const o = bp.encode(encoder, {
    ...buffers,
    bodyCount: scene.bodyShape.length,
    margin: scene.margin,
    fatMargin: FAT,
    capacity,
    retry,
  });
  device.queue.submit([encoder.finish()]);
  const C = BROADPHASE_LAYOUT.counts;
  const counts = new Uint32Array(await readBuffer(device, o.counts, C.bytes));
  const written = counts[C.written]!;
  return {
    pairs: new Uint32Array(await readBuffer(device, o.pairs, 8 * written)),
    prevSlot: new Uint32Array(await readBuffer(device, o.prevSlot, 4 * written)),
    total: counts[C.total]!,
    moved: counts[C.moved]!,
  };
}

function findPair(pairs: Uint32Array, a: number, b: number): number {
  for (let k = 0; k < pairs.length; k += 2) if (pairs[k] === a && pairs[k + 1] === b) return k / 2;
  return -1;
}

// Frames 1-3 still (wobble only), 4-9 a few jumpers (update), 10 many (rebuild), then a few again.
const JUMPS =
  (n: number) =>
  (f: number): number =>
    f <= 3 ? 0 : f === 10 ? n / 2 : 3;

/** The frames of JUMPS that an update serves: all but the first and the one where many jump. */
const UPDATES = (f: number): boolean => f > 0 && f !== 10;

/**
 * `frames` (a JUMPS sequence of `scene()` moved with `seed`) run again on fresh instances as the
 * frames' step() records them: the update frames without the rebuild's sorts, then also held-only
 * after a frame that kept its list (held, or deferred and retried). The same bytes every frame.
 */
async function expectSameRecorded(
  create: () => Promise<GpuBroadphase>,
  scene: () => Scene2D | Scene3D,
  seed: number,
  frames: FrameRead[],
): Promise<void> {
  const speculated = { held: 0, failed: 0 };
  for (const speculate of [undefined, speculated]) {
    const bp = await create();
    const s = scene();
    const run = await runFrames(
      bp,
      s,
      frames.length,
      seed,
      JUMPS(s.bodyShape.length),
      UPDATES,
      speculate,
    );
    run.forEach((fr, f) => {
      expect(fr.pairs, `frame ${f}`).toEqual(frames[f]!.pairs);
      expect(fr.prevSlot, `frame ${f}`).toEqual(frames[f]!.prevSlot);
    });
    bp.destroy();
  }
  expect(speculated.held, 'held-only frames that were held').toBeGreaterThanOrEqual(2);
  expect(speculated.failed, 'held-only frames deferred and retried').toBeGreaterThanOrEqual(1);
}

describe('GPU broadphase with fat boxes, frame to frame', () => {
  it("3D: every frame the pairs of the fat boxes, in order, with last frame's slots", async () => {
    const n = 700;
    const bp = await GpuBroadphase3D.create(device);
    const scene = scene3D(11, n);
    const tight: Float64Array[] = [];
    const frames = await runFrames(bp, scene, 14, 5, JUMPS(n));
    // The tight boxes of each frame, recomputed on the host from the same moves.
    const replay = scene3D(11, n);
    const r = rng(5);
    for (let f = 0; f < 14; f++) {
      if (f > 0) move(replay, r, JUMPS(n)(f));
      tight.push(bodyAabbs3D(replay, replay.margin));
    }
    const modes = checkFrames(frames, scene, tight);
    console.log(
      `3D: ${frames.map((f) => f.pairs.length / 2).join(' ')} pairs; modes ${JSON.stringify(modes)}`,
    );
    expect(modes.still).toBeGreaterThanOrEqual(3);
    expect(modes.update).toBeGreaterThanOrEqual(9);
    expect(modes.rebuild).toBeGreaterThanOrEqual(1);
    expect(frames[5]!.pairs.length).toBeGreaterThan(2 * n);

    // Another instance, the same frames: the same bytes.
    const again = await GpuBroadphase3D.create(device);
    const frames2 = await runFrames(again, scene3D(11, n), 14, 5, JUMPS(n));
    frames2.forEach((fr, f) => {
      expect(fr.pairs).toEqual(frames[f]!.pairs);
      expect(fr.prevSlot).toEqual(frames[f]!.prevSlot);
    });
    await expectSameRecorded(
      () => GpuBroadphase3D.create(device),
      () => scene3D(11, n),
      5,
      frames,
    );
    bp.destroy();
    again.destroy();
  });

  it('renumbered bodies (some removed, some added): prevSlot follows them through the remap', async () => {
    const n = 600;
    const bp = await GpuBroadphase3D.create(device);
    const scene = scene3D(21, n);
    const frames = await runFrames(bp, scene, 2, 9, () => 3);
    const last = frames[1]!;
    // Remove every 7th body, append 20 copies of others moved a little: the new numbering.
    const keep = Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 !== 3);
    const added = Array.from({ length: 20 }, (_, k) => (13 * k) % n);
    const json: SceneJson3D = {
      dim: 3,
      margin: scene.margin,
      shapes: [],
      bodies: [...keep, ...added].map((i, j) => ({
        shape: scene.bodyShape[i]!,
        position: [
          scene.bodyPosition[3 * i]! + (j >= keep.length ? 0.05 : 0),
          scene.bodyPosition[3 * i + 1]!,
          scene.bodyPosition[3 * i + 2]!,
        ],
        rotation: Array.from(scene.bodyRotation.subarray(4 * i, 4 * i + 4)) as [
          number,
          number,
          number,
          number,
        ],
      })),
    };
    const renumbered: Scene3D = {
      ...scene,
      bodyShape: new Uint32Array(json.bodies.map((b) => b.shape)),
      bodyPosition: Float64Array.from(json.bodies.flatMap((b) => b.position)),
      bodyRotation: Float64Array.from(json.bodies.flatMap((b) => b.rotation!)),
    };
    const remap = Uint32Array.from([...keep, ...added.map(() => PREV_SLOT_NONE)]);
    const m = renumbered.bodyShape.length;
    const packed = packShapes3D(renumbered.shapes);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const make = (data: ArrayBuffer | ArrayBufferView): GPUBuffer => {
      const b = device.createBuffer({ size: Math.max(16, data.byteLength), usage: S });
      device.queue.writeBuffer(b, 0, ArrayBuffer.isView(data) ? data : new Uint8Array(data));
      return b;
    };
    const [shapes, hullVertices, bodies] = [
      make(packed.shapes),
      make(packed.hullVertices),
      make(packBodies3D(renumbered)),
    ];
    const encoder = device.createCommandEncoder();
    const o = bp.encode(encoder, {
      shapes,
      bodies,
      hullVertices,
      bodyCount: m,
      margin: renumbered.margin,
      fatMargin: FAT,
      capacity: 16 * m,
      remap,
    });
    device.queue.submit([encoder.finish()]);
    const C = BROADPHASE_LAYOUT.counts;
    const written = new Uint32Array(await readBuffer(device, o.counts, C.bytes))[C.written]!;
    const pairs = new Uint32Array(await readBuffer(device, o.pairs, 8 * written));
    const prevSlot = new Uint32Array(await readBuffer(device, o.prevSlot, 4 * written));
    expect(Array.from(pairs)).toEqual(Array.from(bruteForce(await bp.readFatBoxes(m), m)));
    let found = 0;
    for (let k = 0; k < written; k++) {
      const [a, b] = [remap[pairs[2 * k]!]!, remap[pairs[2 * k + 1]!]!];
      const where = a === PREV_SLOT_NONE || b === PREV_SLOT_NONE ? -1 : findPair(last.pairs, a, b);
      expect(prevSlot[k], `pair ${k}`).toBe(where < 0 ? PREV_SLOT_NONE : where);
      if (where >= 0) found++;
    }
    // Coverage: most pairs were there last frame under their old numbers.
    expect(found).toBeGreaterThan(0.8 * written);
    expect(found).toBeLessThan(written);
    for (const b of [shapes, hullVertices, bodies]) b.destroy();
    bp.destroy();
  });

  it("a retry after an overflow reads last frame's list, not the run it replaces", async () => {
    // Frames: a dense pile twice (its list in both of the instance's lists), the pile spread out
    // (few pairs: the list it writes over the first frame's keeps that one's tail), then the dense
    // pile into a buffer too small, and again with room (the retry). The retry's prevSlot must
    // name pairs of the spread frame's list; the first frame's tail, past that list's end, holds
    // the same pairs at the same slots and must not be read.
    const n = 900;
    const bp = await GpuBroadphase2D.create(device);
    const dense = scene2D(3, n);
    const spread = scene2D(3, n);
    for (let i = 0; i < 2 * n; i++) spread.bodyPosition[i]! *= 3;
    const buffers = buffers2D(dense);
    const frame = (scene: Scene2D, capacity: number, retry = false) =>
      frame2D(bp, buffers, scene, capacity, retry);
    const first = await frame(dense, 16 * n);
    await frame(dense, 16 * n);
    const few = await frame(spread, 16 * n);
    const total = first.pairs.length / 2;
    expect(few.pairs.length / 2).toBeLessThan(total / 4);
    const cut = await frame(dense, Math.floor(total / 2));
    expect(cut.total).toBe(total);
    const retried = await frame(dense, 16 * n, true);
    expect(retried.pairs).toEqual(first.pairs);
    for (let k = 0; k < total; k++) {
      const where = findPair(few.pairs, retried.pairs[2 * k]!, retried.pairs[2 * k + 1]!);
      expect(retried.prevSlot[k], `pair ${k}`).toBe(where < 0 ? PREV_SLOT_NONE : where);
    }
    buffers.shapes.destroy();
    buffers.bodies.destroy();
    bp.destroy();
  });

  it('a list kept two frames running is not written again, unless its buffers were replaced', async () => {
    // A still pile: from the second frame on every list is last frame's. From the third, this
    // frame's buffers already hold it (bpListHeld) and bpPrevSlots is not dispatched, unless the
    // buffers were just grown (a larger capacity): those start empty and must be written.
    const n = 600;
    const bp = await GpuBroadphase2D.create(device);
    const scene = scene2D(5, n);
    const buffers = buffers2D(scene);
    const frame = (capacity: number) => frame2D(bp, buffers, scene, capacity);
    const first = await frame(16 * n);
    expect(first.pairs.length).toBeGreaterThan(2 * n);
    const identity = Array.from({ length: first.pairs.length / 2 }, (_, k) => k);
    for (const capacity of [16 * n, 16 * n, 16 * n, 64 * n, 64 * n, 64 * n, 64 * n]) {
      const f = await frame(capacity);
      expect(f.moved).toBe(0);
      expect(f.pairs, `capacity ${capacity}`).toEqual(first.pairs);
      expect(Array.from(f.prevSlot), `capacity ${capacity}`).toEqual(identity);
    }
    buffers.shapes.destroy();
    buffers.bodies.destroy();
    bp.destroy();
  });

  it('2D: the same', async () => {
    const n = 900;
    const bp = await GpuBroadphase2D.create(device);
    const scene = scene2D(3, n);
    const frames = await runFrames(bp, scene, 14, 8, JUMPS(n));
    const replay = scene2D(3, n);
    const r = rng(8);
    const tight: Float64Array[] = [];
    for (let f = 0; f < 14; f++) {
      if (f > 0) move(replay, r, JUMPS(n)(f));
      const t2 = bodyAabbs2D(replay, replay.margin);
      const t = new Float64Array(6 * n);
      for (let i = 0; i < n; i++)
        t.set([t2[4 * i]!, t2[4 * i + 1]!, 0, t2[4 * i + 2]!, t2[4 * i + 3]!, 0], 6 * i);
      tight.push(t);
    }
    const modes = checkFrames(frames, scene, tight);
    console.log(
      `2D: ${frames.map((f) => f.pairs.length / 2).join(' ')} pairs; modes ${JSON.stringify(modes)}`,
    );
    expect(modes.still).toBeGreaterThanOrEqual(3);
    expect(modes.update).toBeGreaterThanOrEqual(9);
    expect(modes.rebuild).toBeGreaterThanOrEqual(1);
    await expectSameRecorded(
      () => GpuBroadphase2D.create(device),
      () => scene2D(3, n),
      8,
      frames,
    );
    bp.destroy();
  });
});

describe("the finders' pair cache", () => {
  it('fits one binding with the finders beside it, and is as large as fits', () => {
    // 128 MiB (lavapipe, WebGPU's default) and 2 GiB - 4 (an H200) for 1 to 2^24 finders.
    for (const limit of [2 ** 27, 2 ** 31 - 4]) {
      for (const finders of [1, 1000, 10_000, 1_000_000, 987_000, 2_000_000, 2 ** 24]) {
        const slots = finderCacheSlots(limit, finders);
        const at = `limit ${limit}, ${finders} finders`;
        expect(slots, at).toBeLessThanOrEqual(BROADPHASE_PAIR_CACHE);
        expect(8 * finders * (1 + slots), at).toBeLessThanOrEqual(limit);
        if (slots < BROADPHASE_PAIR_CACHE && slots > 0)
          expect(8 * finders * (2 + slots), at).toBeGreaterThan(limit);
      }
    }
    // A 1M-body pile on lavapipe: 15 pairs cached per body; 16 overran the binding.
    expect(finderCacheSlots(2 ** 27, 1_000_000)).toBe(15);
  });
});
