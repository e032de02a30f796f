// The 3D dense contact list (src/gpu/contact-list3d.ts on the shared shaders/contact-list.wgsl) against its
// CPU twin (src/cpu/contact-list3d.ts on the shared src/cpu/contact-list.ts), on manifolds from the real 3D
// narrowphase (collidePacked3D) of a random pile whose pairs come from sweepAndPrune3D:
//   - GPU and CPU byte for byte (entries and user values), with one sort and with two;
//   - the same list for shuffled orders of the pairs, for batches of any size (GPU and CPU), and
//     with the touching and dense lists in two binding pages (GPU);
//   - persistence over 2 frames: vec4f user values follow pair and feature id, GPU equals CPU;
//   - a tiny capacity: overflow, grow, rerun, equal to an unconstrained run;
//   - frames without user values: none carried or written, the entries as with them;
//   - all of it with the entries stored staged (a GPU's default) and direct (a CPU adapter's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAndPrune3D } from '../src/broadphase3d.ts';
import { CONTACT_NONE } from '../src/cpu/contact-list.ts';
import { CONTACTS_LAYOUT_3D, CpuContacts3D, unpackContacts3D } from '../src/cpu/contact-list3d.ts';
import { collidePacked3D, prepareCpu3D } from '../src/cpu/narrowphase3d.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuContacts3D } from '../src/gpu/contact-list3d.ts';
import { packScene3D } from '../src/pack3d.ts';
import { rng } from '../src/random2d.ts';
import { randomRotation3D, randomShape3D } from '../src/random3d.ts';
import { parseScene, type Scene3D, type SceneJson3D } from '../src/scene.ts';

const U = CONTACTS_LAYOUT_3D.userValues;
let device: GPUDevice;
// Both kinds of entry stores, whatever this adapter's default.
const gpus: GpuContacts3D[] = [];

beforeAll(async () => {
  device = (await acquireDevice()).device;
  for (const stores of ['staged', 'direct'] as const)
    gpus.push(await GpuContacts3D.create(device, undefined, stores));
});
afterAll(() => gpus.forEach((g) => g.destroy()));

function pileScene(seed: number, n: number, shift: number): Scene3D {
  const r = rng(seed);
  const shapes = Array.from({ length: 24 }, () => randomShape3D(r, 'mixed3d', 0.4));
  const side = 0.75 * Math.cbrt(n);
  const bodies: SceneJson3D['bodies'] = Array.from({ length: n }, () => ({
    shape: Math.floor(r() * shapes.length),
    position: [Math.fround(side * r() + shift), Math.fround(side * r()), Math.fround(side * r())],
    rotation: randomRotation3D(r),
  }));
  return parseScene({ dim: 3, margin: 0.02, shapes, bodies }) as Scene3D;
}

function shuffled(pairs: Uint32Array, seed: number): Uint32Array {
  const r = rng(seed);
  const n = pairs.length / 2;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return Uint32Array.from(order.flatMap((k) => [pairs[2 * k]!, pairs[2 * k + 1]!]));
}

function collide(scene: Scene3D, pairs: Uint32Array): ArrayBuffer {
  const packed = packScene3D(scene, pairs);
  return collidePacked3D(prepareCpu3D(packed), packed);
}

const eq = (a: ArrayBuffer, b: ArrayBuffer): boolean => Buffer.from(a).equals(Buffer.from(b));

describe('3D dense contact list', () => {
  const scene = pileScene(5, 1500, 0);
  const pairs = sweepAndPrune3D(scene);
  const manifolds = collide(scene, pairs);
  // The next frame: everything moved a hair, the same features touch.
  const next = pileScene(5, 1500, 1e-4);
  const pairs1 = sweepAndPrune3D(next);
  const manifolds1 = collide(next, pairs1);

  it('GPU equals CPU byte for byte, in pair order, for shuffled pairs, batches and pages', async () => {
    const reference = new CpuContacts3D().run(manifolds, pairs, {
      bodyCount: scene.bodyShape.length,
    });
    expect(reference.total).toBeGreaterThan(1000);
    expect(reference.total).toBeLessThan(pairs.length / 2); // some pairs do not touch: compaction matters
    // Pages of 2048 entries: the dense list spans two bindings.
    expect(reference.total).toBeGreaterThan(2048);
    const byPair = (list: ArrayBuffer): Map<string, string> =>
      new Map(unpackContacts3D(list).map((e) => [`${e.bodyA},${e.bodyB}`, JSON.stringify(e)]));
    for (const [seed, batchPairs, pages, gpu] of [
      [0, undefined, 0, gpus[0]!],
      [1, 256, 0, gpus[0]!],
      [2, 1000, 2048, gpus[0]!],
      [3, 100_000, 2048, gpus[0]!],
      [0, undefined, 0, gpus[1]!],
      [2, 1000, 2048, gpus[1]!],
    ] as const) {
      const p = seed === 0 ? pairs : shuffled(pairs, seed);
      const m = seed === 0 ? manifolds : collide(scene, p);
      const options = { bodyCount: 1500, ...(batchPairs ? { batchPairs } : {}) };
      gpu.reset();
      gpu.setPageEntries(pages);
      const g = await gpu.run(m, p, options).finally(() => gpu.setPageEntries(0));
      const c = new CpuContacts3D().run(m, p, options);
      expect(g.total).toBe(reference.total);
      expect(eq(g.dense, c.dense), `GPU and CPU, order ${seed}, batches of ${batchPairs}`).toBe(
        true,
      );
      // The same entries in another order: pair order.
      if (seed === 0) expect(eq(g.dense, reference.dense)).toBe(true);
      else expect(byPair(g.dense)).toEqual(byPair(reference.dense));
    }
    const list = unpackContacts3D(reference.dense);
    expect(
      list.every((e) => e.previous === CONTACT_NONE && e.points.length > 0 && e.bodyA < e.bodyB),
    ).toBe(true);
  });

  it.each([0, 1])(
    'carries vec4f user values by pair and feature id (GPU equals CPU), and reruns after an overflow (stores %i)',
    async (g) => {
      const gpu = gpus[g]!;
      const cpu = new CpuContacts3D();
      gpu.reset();
      const g0 = await gpu.run(manifolds, pairs, { bodyCount: 1500 });
      const c0 = cpu.run(manifolds, pairs, { bodyCount: 1500 });
      const values = Float32Array.from({ length: g0.total * U.words }, (_, k) => k + 0.25);
      gpu.setUserValues(values);
      cpu.setUserValues(values);
      const g1 = await gpu.run(manifolds1, pairs1, { bodyCount: 1500, capacity: 5 });
      const c1 = cpu.run(manifolds1, pairs1, { bodyCount: 1500 });
      expect(g1.runs).toBe(2);
      expect(eq(g1.dense, c1.dense)).toBe(true);
      expect(eq(g1.userValues.buffer as ArrayBuffer, c1.userValues.buffer as ArrayBuffer)).toBe(
        true,
      );
      expect(Array.from(g1.began)).toEqual(Array.from(c1.began));
      expect(Array.from(g1.ended)).toEqual(Array.from(c1.ended));
      const list0 = unpackContacts3D(c0.dense);
      const list1 = unpackContacts3D(c1.dense, c1.userValues);
      let carried = 0;
      for (const e of list1) {
        if (e.previous === CONTACT_NONE) continue;
        const old = list0[e.previous]!;
        expect([old.bodyA, old.bodyB]).toEqual([e.bodyA, e.bodyB]);
        e.points.forEach((p) => {
          const q = old.points.findIndex((o) => o.id === p.id);
          if (q < 0) return;
          const at = e.previous * U.words + U.points + q * U.pointStride;
          expect(p.userValue).toEqual(Array.from(values.subarray(at, at + 4)));
          carried++;
        });
      }
      expect(carried).toBeGreaterThan(0.9 * list1.reduce((s, e) => s + e.points.length, 0));
    },
  );

  it.each([0, 1])(
    'a frame without user values carries none and leaves none to the next; the entries unchanged (stores %i)',
    async (g) => {
      const gpu = gpus[g]!;
      const frames = [
        [manifolds, pairs],
        [manifolds1, pairs1],
        [manifolds, pairs],
        [manifolds1, pairs1],
      ] as const;
      // Frames 1 and 2 without values: neither reads nor writes any, and frame 3 finds none in
      // frame 2 (whose buffer still holds frame 0's).
      const runs = async (values: readonly boolean[]) => {
        const cpu = new CpuContacts3D();
        gpu.reset();
        const out = [];
        for (let f = 0; f < frames.length; f++) {
          const [m, p] = frames[f]!;
          const options = { bodyCount: 1500, userValues: values[f] };
          const r = await gpu.run(m, p, options);
          const c = cpu.run(m, p, options);
          expect(eq(r.dense, c.dense), `frame ${f}`).toBe(true);
          const u8 = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
          expect(u8(r.userValues).equals(u8(c.userValues)), `frame ${f}`).toBe(true);
          if (values[f]) {
            const set = Float32Array.from({ length: r.total * U.words }, (_, k) => k + 0.5);
            gpu.setUserValues(set);
            cpu.setUserValues(set);
          } else {
            expect(() => gpu.setUserValues(new Float32Array(4))).toThrow(/userValues: false/);
            expect(() => cpu.setUserValues(new Float32Array(4))).toThrow(/userValues: false/);
          }
          out.push(r);
        }
        return out;
      };
      const all = await runs([true, true, true, true]);
      const some = await runs([true, false, false, true]);
      for (let f = 0; f < frames.length; f++) {
        // The entries (headers included: previous and matched by feature id) do not change.
        expect(eq(some[f]!.dense, all[f]!.dense), `frame ${f}`).toBe(true);
      }
      expect(some[1]!.userValues.length).toBe(0);
      expect(some[2]!.userValues.length).toBe(0);
      // Frame 3 starts from frame 2's values: it wrote none, so every point starts at 0 ...
      expect(some[3]!.userValues.length).toBe(all[3]!.userValues.length);
      expect(some[3]!.userValues.every((v) => v === 0)).toBe(true);
      // ... where with values each frame most carry (the check above can fail).
      expect(all[3]!.userValues.filter((v) => v !== 0).length).toBeGreaterThan(
        0.25 * all[3]!.userValues.length,
      );
    },
  );
});
