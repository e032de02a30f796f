// The whole 3D GPU frame (src/gpu/frame3d.ts: broadphase → indirect 3D narrowphase → dense
// ContactManifold3D list with persistence) against the host path on random 3D piles of boxes,
// hulls, spheres and capsules: sweepAndPrune3D → narrowphase → CpuContacts3D.
//   - with the GPU kernel on the host's pairs (GpuNarrowphase3D.run), the frame's list is the CPU
//     contact stage's byte for byte: same pairs, same order, same manifolds;
//   - with the CPU narrowphase (collidePacked3D): the same touching pairs in the same order, the
//     same point counts and ids, positions and depths within f32 tolerance, but for near-ties that
//     f32 breaks differently (a guard bounds them);
//   - byte-identical from run to run; in batches (tiny, forced) equal to one batch; after overflows
//     (tiny capacities) equal to an unconstrained run;
//   - user values (vec4f per point) carried to the next frame by pair and feature id;
//   - the narrowphase's pair classes: the GPU's split equals the host's classes of the pairs; a
//     frame compiled for boxes alone runs a box pile, and refuses a scene needing other classes
//     (on the host, from the kinds given; on the GPU's count, when the kinds given were wrong).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAndPrune3D } from '../src/broadphase3d.ts';
import {
  CpuContacts3D,
  CONTACTS_LAYOUT_3D,
  unpackContacts3D,
  type ContactJson3D,
} from '../src/cpu/contact-list3d.ts';
import { collidePacked3D, prepareCpu3D } from '../src/cpu/narrowphase3d.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuFrame3D, type FrameInputs3D } from '../src/gpu/frame3d.ts';
import type { FrameCounts } from '../src/gpu/frame.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { REUSE_DIMENSION_3D } from '../src/gpu/reuse.ts';
import { MissingPairClassError } from '../src/gpu/pair-classes.ts';
import { PAIR_CLASSES_3D, pairClass3D } from '../src/gpu/pair-classes3d.ts';
import { packScene3D, packShapes3D } from '../src/pack3d.ts';
import { rng } from '../src/random2d.ts';
import { randomRotation3D, randomShape3D, type ShapeMix3D } from '../src/random3d.ts';

/** What a frame's list says, whatever the broadphase did to find it (moved bodies, rebuilds differ on a retry). */
function listCounts(c: FrameCounts): Omit<FrameCounts, 'moved' | 'rebuilt' | 'stale'> {
  const { moved: _moved, rebuilt: _rebuilt, stale: _stale, ...rest } = c;
  return rest;
}
import { parseScene, type Scene3D, type SceneJson3D } from '../src/scene.ts';
import { uploader } from './helpers/upload.ts';

const CB = CONTACTS_LAYOUT_3D.contact.bytes;

/** A loose 3D pile: `n` shapes (`mix`) on a jittered cubic grid tight enough that most have neighbours. */
function pile3D(seed: number, n: number, shift = 0, mix: ShapeMix3D = 'mixed3d'): Scene3D {
  const random = rng(seed);
  const shapes = Array.from({ length: 32 }, () => randomShape3D(random, mix, 0.4));
  const side = Math.ceil(Math.cbrt(n));
  const bodies: SceneJson3D['bodies'] = Array.from({ length: n }, (_, i) => ({
    shape: Math.floor(random() * shapes.length),
    position: [
      Math.fround(0.75 * (i % side) + 0.2 * random() + shift),
      Math.fround(0.75 * (Math.floor(i / side) % side) + 0.2 * random()),
      Math.fround(0.75 * Math.floor(i / (side * side)) + 0.2 * random()),
    ],
    rotation: randomRotation3D(random),
  }));
  return parseScene({ dim: 3, margin: 0.02, shapes, bodies }) as Scene3D;
}

let device: GPUDevice;
let frame: GpuFrame3D;
let kernel: GpuNarrowphase3D;

beforeAll(async () => {
  device = (await acquireDevice()).device;
  frame = await GpuFrame3D.create(device);
  kernel = await GpuNarrowphase3D.create(device);
});
afterAll(() => {
  frame?.destroy();
  kernel?.destroy();
});

function upload(scene: Scene3D): FrameInputs3D & { destroy(): void } {
  const packed = packScene3D(scene, new Uint32Array(0));
  const made: GPUBuffer[] = [];
  const make = uploader(device, made);
  return {
    shapes: make(packed.shapes),
    hullVertices: make(packed.hullVertices),
    hullPlanes: make(packed.hullPlanes),
    hullFaces: make(packed.hullFaces),
    hullIndices: make(packed.hullIndices),
    bodies: make(packed.bodies),
    bodyCount: scene.bodyShape.length,
    margin: scene.margin,
    destroy: () => made.forEach((b) => b.destroy()),
  };
}

/** The host path: sweep and prune, a narrowphase (GPU kernel or CPU reference) on its pairs, the CPU contact stage. */
async function hostFrame(
  scene: Scene3D,
  narrowphase: 'gpu' | 'cpu',
): Promise<{ dense: ArrayBuffer; list: ContactJson3D[] }> {
  const pairs = sweepAndPrune3D(scene);
  const packed = packScene3D(scene, pairs, packShapes3D(scene.shapes));
  const manifolds =
    narrowphase === 'gpu'
      ? (await kernel.run(packed)).manifolds
      : collidePacked3D(prepareCpu3D(packed), packed);
  const r = new CpuContacts3D().run(manifolds, pairs, { bodyCount: scene.bodyShape.length });
  return { dense: r.dense, list: unpackContacts3D(r.dense, r.userValues) };
}

const bytes = (b: ArrayBuffer, n: number): Buffer => Buffer.from(b.slice(0, n));

describe('GPU collision frame (3D)', () => {
  const scene = pile3D(31, 2500);

  it('equals the host path: byte for byte with the GPU kernel, within f32 of the CPU narrowphase', async () => {
    const inputs = upload(scene);
    frame.reset();
    const gpu = await frame.step(inputs);
    const n = gpu.counts.contacts;
    console.log(
      `pairs ${gpu.counts.pairs}, touching ${n}, runs ${gpu.runs}, batches ${gpu.batches}, timings ${JSON.stringify(gpu.timings)}`,
    );
    const t = gpu.timings;
    // The frame's span on the GPU holds every stage (timestamps in empty passes before and after).
    if (t)
      expect(gpu.spanMs).toBeGreaterThanOrEqual(
        Math.max(t.broadphase, t.narrowphase, t.compaction, t.persistence),
      );
    expect(n).toBeGreaterThan(2500); // a pile: most bodies touch a neighbour
    const kernelPath = await hostFrame(scene, 'gpu');
    expect(kernelPath.dense.byteLength).toBe(n * CB);
    expect(bytes(gpu.contacts, n * CB).equals(Buffer.from(kernelPath.dense))).toBe(true);

    const got = unpackContacts3D(gpu.contacts.slice(0, n * CB));
    const cpu = (await hostFrame(scene, 'cpu')).list;
    expect(got.map((c) => `${c.bodyA},${c.bodyB}`)).toEqual(
      cpu.map((c) => `${c.bodyA},${c.bodyB}`),
    );
    const kinds = new Set<number>();
    let differing = 0;
    for (let j = 0; j < got.length; j++) {
      const g = got[j]!;
      const c = cpu[j]!;
      kinds.add(g.kind);
      const same =
        g.points.length === c.points.length &&
        g.points.every(
          (p, i) =>
            p.id === c.points[i]!.id &&
            Math.abs(p.depth - c.points[i]!.depth) < 1e-4 &&
            p.position.every((x, k) => Math.abs(x - c.points[i]!.position[k]!) < 1e-4),
        ) &&
        g.normal.every((x, k) => Math.abs(x - c.normal[k]!) < 1e-4);
      if (!same) differing++;
    }
    console.log(
      `kinds ${[...kinds].sort()}, entries differing from the CPU narrowphase (near-ties): ${differing} of ${got.length}`,
    );
    expect(kinds.size).toBeGreaterThanOrEqual(4); // faces, edges, round shapes: coverage
    expect(differing).toBeLessThan(got.length / 100);
    inputs.destroy();
  });

  it('splits the pairs into classes on the GPU; a frame compiled for some classes refuses scenes that need others', async () => {
    // The classifier's counts (the table of the last batch: the whole frame in one batch) are the
    // host's classes of the broadphase's pairs (read back: fat boxes list more than the host's sweep).
    const framePairs = async (): Promise<Uint32Array> => {
      const counts = await frame.readCounts();
      return new Uint32Array(
        await readBuffer(device, frame.lastOutputs()!.broadphase.pairs, 8 * counts.pairs),
      );
    };
    const hostClasses = (pile: Scene3D, pairs: Uint32Array): Record<string, number> => {
      const out: Record<string, number> = {};
      for (let k = 0; k < pairs.length; k += 2) {
        const c = pairClass3D(
          pile.shapes[pile.bodyShape[pairs[k]!]!]!.kind,
          pile.shapes[pile.bodyShape[pairs[k + 1]!]!]!.kind,
        );
        out[c] = (out[c] ?? 0) + 1;
      }
      return out;
    };
    const gpuClasses = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        Object.entries(await frame.classes.readTable())
          .filter(([, r]) => r.pairCount > 0)
          .map(([c, r]) => [c, r.pairCount]),
      );
    const boxPile = pile3D(32, 2000, 0, 'box3d');
    for (const pile of [scene, boxPile]) {
      const inputs = upload(pile);
      frame.reset();
      await frame.step(inputs);
      inputs.destroy();
      expect(await gpuClasses()).toEqual(hostClasses(pile, await framePairs()));
    }
    expect(
      Object.keys(hostClasses(scene, sweepAndPrune3D(scene))).sort(),
      'the mixed pile forms every class',
    ).toEqual([...PAIR_CLASSES_3D].sort());
    expect(Object.keys(hostClasses(boxPile, sweepAndPrune3D(boxPile)))).toEqual(['boxBox']);
    expect(Object.keys(frame.compileMs).sort()).toEqual([...PAIR_CLASSES_3D].sort());

    // A frame for boxes alone compiles the box–box class only, runs a box pile as the host path
    // does (byte for byte), and refuses the mixed pile, naming the class it lacks.
    const boxes = await GpuFrame3D.create(device, undefined, { kinds: ['box'] });
    try {
      expect(boxes.classes.compiled).toEqual(['boxBox']);
      // Its reuse module too holds the box paths alone.
      expect(boxes.reuse.kernel).toBe('boxBox');
      const inputs = upload(boxPile);
      const gpu = await boxes.step({ ...inputs, kinds: ['box'] });
      expect(() => boxes.encode(device.createCommandEncoder(), inputs)).toThrow(
        MissingPairClassError,
      );
      inputs.destroy();
      const n = gpu.counts.contacts;
      expect(n).toBeGreaterThan(2000);
      expect(gpu.counts.uncollided).toBe(0);
      expect(
        bytes(gpu.contacts, n * CB).equals(Buffer.from((await hostFrame(boxPile, 'gpu')).dense)),
      ).toBe(true);
      const mixed = upload(scene);
      expect(() =>
        boxes.encode(device.createCommandEncoder(), { ...mixed, kinds: ['box', 'hull', 'sphere'] }),
      ).toThrow(/hullHull.*roundHull.*roundRound/s);
      // Kinds that lie: the GPU counts the pairs no pipeline took, and step() refuses the frame.
      await expect(boxes.step({ ...mixed, kinds: ['box'] })).rejects.toThrow(MissingPairClassError);
      // prepare() adds the missing classes, and the reuse module of every path; then the mixed
      // pile runs.
      await boxes.prepare(['box', 'hull', 'sphere', 'capsule']);
      expect(boxes.reuse.kernel).toBe('general');
      boxes.contacts.reset();
      const all = await boxes.step({ ...mixed, kinds: ['box', 'hull', 'sphere', 'capsule'] });
      mixed.destroy();
      expect(all.counts.uncollided).toBe(0);
      expect(
        bytes(all.contacts, all.counts.contacts * CB).equals(
          Buffer.from((await hostFrame(scene, 'gpu')).dense),
        ),
      ).toBe(true);
    } finally {
      boxes.destroy();
    }
  });

  it('is byte-identical from run to run, in forced tiny batches, and after overflows', async () => {
    const inputs = upload(scene);
    frame.reset();
    const roomy = await frame.step(inputs);
    expect(roomy.batches).toBe(1);
    const n = roomy.counts.contacts;
    frame.reset();
    const again = await frame.step(inputs);
    expect(bytes(again.contacts, n * CB).equals(bytes(roomy.contacts, n * CB))).toBe(true);

    frame.setBatchPairs(256);
    frame.reset();
    const batched = await frame.step(inputs);
    frame.setBatchPairs(0);
    expect(batched.batches).toBeGreaterThan(10);
    expect(listCounts(batched.counts)).toEqual(listCounts(roomy.counts));
    expect(bytes(batched.contacts, n * CB).equals(bytes(roomy.contacts, n * CB))).toBe(true);
    if (batched.timings)
      console.log(`in ${batched.batches} batches: ${JSON.stringify(batched.timings)}`);

    frame.reset();
    frame.broadphase.setCapacity(16);
    frame.contacts.setCapacity(8);
    const tight = await frame.step(inputs);
    frame.broadphase.setCapacity(0);
    frame.contacts.setCapacity(0);
    expect(tight.runs).toBeGreaterThan(1);
    expect(listCounts(tight.counts)).toEqual(listCounts(roomy.counts));
    expect(bytes(tight.contacts, n * CB).equals(bytes(roomy.contacts, n * CB))).toBe(true);
    inputs.destroy();
  });

  it("reuses the anchors one binding reaches when last frame's do not all fit", async () => {
    const scene1 = pile3D(31, 2500, 1e-4);
    const in0 = upload(scene);
    const in1 = upload(scene1);
    // The second frame's result, and the third's bytes (back at in0: anchors left in place).
    const frames = async (anchors: number, batchPairs = 0) => {
      frame.setAnchorBindingLimit(anchors * REUSE_DIMENSION_3D.anchorBytes);
      frame.setBatchPairs(batchPairs);
      frame.reset();
      await frame.step(in0);
      const second = await frame.step(in1);
      const third = await frame.step(in0);
      return { second, third: bytes(third.contacts, third.counts.contacts * CB) };
    };
    const all = await frames(0);
    const whole = all.second;
    const reach = Math.floor(whole.counts.pairs / 2);
    const part = (await frames(reach)).second;
    // Batches of 256 pairs, each binding the 512 anchors around its own slots.
    const batched = await frames(512, 256);
    const windows = batched.second;
    frame.setAnchorBindingLimit(0);
    frame.setBatchPairs(0);
    const kept = (r: typeof whole): number => r.counts.reused + r.counts.apart;
    console.log(
      `anchors reached: all ${kept(whole)}, ${reach} ${kept(part)}, 512 a batch ${kept(windows)} ` +
        `of ${whole.counts.pairs} pairs (${windows.batches} batches)`,
    );
    expect(kept(whole)).toBeGreaterThan(0.9 * whole.counts.pairs);
    // One batch: only pairs whose last slot the binding reaches keep their manifold; about half.
    expect(part.batches).toBe(1);
    expect(kept(part)).toBeLessThanOrEqual(reach);
    expect(kept(part)).toBeGreaterThan(0.8 * reach);
    // In batches, each reaches last frame's slots of its own pairs: nearly all are kept.
    expect(windows.batches).toBeGreaterThan(4);
    expect(kept(windows)).toBeGreaterThan(0.97 * kept(whole));
    const touching = (r: typeof whole): string[] =>
      unpackContacts3D(r.contacts.slice(0, r.counts.contacts * CB)).map(
        (c) => `${c.bodyA},${c.bodyB}`,
      );
    expect(touching(part)).toEqual(touching(whole));
    const n = whole.counts.contacts * CB;
    expect(bytes(windows.contacts, n).equals(bytes(whole.contacts, n))).toBe(true);
    expect(batched.third.equals(all.third)).toBe(true);
    in0.destroy();
    in1.destroy();
  });

  it('carries user values (a vec4f per point) to the next frame by pair and feature id, in batches too', async () => {
    const scene1 = pile3D(31, 2500, 1e-4); // everything moved a hair: the same features touch
    for (const batchPairs of [0, 512]) {
      frame.setBatchPairs(batchPairs);
      frame.reset();
      const in0 = upload(scene);
      const f0 = await frame.step(in0);
      const n0 = f0.counts.contacts;
      const U = CONTACTS_LAYOUT_3D.userValues;
      // A solver writes each point's impulses: (entry, point + 1, -entry, 0.5).
      const values = new Float32Array(n0 * U.words);
      for (let j = 0; j < n0; j++) {
        for (let i = 0; i < U.pointCount; i++)
          values.set([j, i + 1, -j, 0.5], j * U.words + U.points + i * U.pointStride);
      }
      frame.contacts.setUserValues(values);
      const in1 = upload(scene1);
      const f1 = await frame.step(in1);
      const list0 = unpackContacts3D(f0.contacts.slice(0, n0 * CB));
      const list1 = unpackContacts3D(
        f1.contacts.slice(0, f1.counts.contacts * CB),
        new Float32Array(f1.userValues),
      );
      const before = new Map(list0.map((c, j) => [`${c.bodyA},${c.bodyB}`, { c, j }]));
      let carried = 0;
      let fresh = 0;
      for (const c of list1) {
        const old = before.get(`${c.bodyA},${c.bodyB}`);
        c.points.forEach((p, i) => {
          const k = old ? old.c.points.findIndex((q) => q.id === p.id) : -1;
          if (k >= 0) {
            expect(p.userValue).toEqual([old!.j, k + 1, -old!.j, 0.5]);
            expect((c.matched >> i) & 1).toBe(1);
            carried++;
          } else {
            expect(p.userValue).toEqual([0, 0, 0, 0]);
            fresh++;
          }
        });
      }
      console.log(`batchPairs ${batchPairs}: carried ${carried}, new ${fresh}`);
      expect(carried).toBeGreaterThan(0.9 * (carried + fresh));
      in0.destroy();
      in1.destroy();
    }
    frame.setBatchPairs(0);
  });
});
