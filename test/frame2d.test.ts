// The whole GPU frame (broadphase → indirect narrowphase → dense contacts with persistence) against
// the host path on the same scene: sweep and prune → CPU narrowphase → CPU contact stage. The
// frame must find the same touching pairs in the same (bodyA, bodyB) order, the same points and
// ids (f32 tolerance on positions and depths), carry user values by feature id, and give the same
// result when its buffers start too small (overflow → grow → rerun).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAndPrune2D } from '../src/broadphase2d.ts';
import { compareManifolds2D } from '../src/compare-manifolds.ts';
import { CpuContacts2D, unpackContacts2D, type ContactJson2D } from '../src/cpu/contact-list2d.ts';
import { CpuFrame2D } from '../src/cpu/frame.ts';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuFrame2D, type FrameInputs2D } from '../src/gpu/frame2d.ts';
import type { FrameCounts } from '../src/gpu/frame.ts';
import { packScene2D, type ManifoldJson } from '../src/pack2d.ts';
import { rng, randomShape } from '../src/random2d.ts';

/** What a frame's list says, whatever the broadphase did to find it (moved bodies, rebuilds differ on a retry). */
function listCounts(c: FrameCounts): Omit<FrameCounts, 'moved' | 'rebuilt' | 'stale'> {
  const { moved: _moved, rebuilt: _rebuilt, stale: _stale, ...rest } = c;
  return rest;
}
import { parseScene, type Scene2D, type SceneJson2D } from '../src/scene.ts';

/** A loose pile: `n` mixed shapes on a jittered grid tight enough that most have neighbours. */
function pile(seed: number, n: number, shift = 0): SceneJson2D {
  const random = rng(seed);
  const shapes = Array.from({ length: 64 }, () => randomShape(random, 'mixed', 0.5));
  const side = Math.ceil(Math.sqrt(n));
  const bodies = Array.from({ length: n }, (_, i) => ({
    shape: Math.floor(random() * shapes.length),
    position: [
      1.2 * (i % side) + 0.3 * random() + shift,
      1.2 * Math.floor(i / side) + 0.3 * random(),
    ] as [number, number],
    angle: 2 * Math.PI * random(),
  }));
  return { dim: 2, margin: 0.02, shapes, bodies };
}

function asManifolds(list: ContactJson2D[]): ManifoldJson[] {
  return list.map((c) => ({
    pair: [c.bodyA, c.bodyB],
    normal: c.normal,
    points: c.points.map(({ position, depth, id }) => ({ position, depth, id })),
  }));
}

function hostFrame(scene: Scene2D, contacts: CpuContacts2D): ContactJson2D[] {
  const pairs = sweepAndPrune2D(scene);
  const packed = packScene2D(scene, pairs);
  const manifolds = collidePacked2D(prepareCpu2D(packed, scene.shapes.length), packed);
  const r = contacts.run(manifolds, pairs, { bodyCount: scene.bodyShape.length });
  return unpackContacts2D(r.dense, r.userValues);
}

let device: GPUDevice;
let frame: GpuFrame2D;

beforeAll(async () => {
  device = (await acquireDevice()).device;
  frame = await GpuFrame2D.create(device);
});
afterAll(() => frame?.destroy());

function upload(scene: Scene2D): FrameInputs2D & { destroy(): void } {
  const packed = packScene2D(scene, new Uint32Array(0));
  const make = (data: ArrayBuffer): GPUBuffer => {
    const b = device.createBuffer({
      size: data.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const shapes = make(packed.shapes);
  const bodies = make(packed.bodies);
  return {
    shapes,
    bodies,
    bodyCount: scene.bodyShape.length,
    margin: scene.margin,
    destroy: () => (shapes.destroy(), bodies.destroy()),
  };
}

describe('GPU collision frame (2D)', () => {
  it('finds the touching pairs, points and ids of the host path, in (bodyA, bodyB) order', async () => {
    const scene = parseScene(pile(11, 3000));
    const inputs = upload(scene);
    frame.reset();
    const gpu = await frame.step(inputs);
    const cpu = hostFrame(scene, new CpuContacts2D());
    const got = unpackContacts2D(gpu.contacts.slice(0, gpu.counts.contacts * 64));
    console.log(
      `pairs ${gpu.counts.pairs}, touching ${gpu.counts.contacts}, runs ${gpu.runs}, timings ${JSON.stringify(gpu.timings)}`,
    );
    const t = gpu.timings;
    // The frame's span on the GPU holds every stage (timestamps in empty passes before and after).
    if (t)
      expect(gpu.spanMs).toBeGreaterThanOrEqual(
        Math.max(t.broadphase, t.narrowphase, t.compaction, t.persistence),
      );
    expect(cpu.length).toBeGreaterThan(1000); // a pile: most bodies touch a neighbour
    expect(got.map((c) => `${c.bodyA},${c.bodyB}`)).toEqual(
      cpu.map((c) => `${c.bodyA},${c.bodyB}`),
    );
    expect(compareManifolds2D(asManifolds(got), asManifolds(cpu))).toEqual([]);
    inputs.destroy();
  });

  it('gives the same result when its pair and contact buffers start too small', async () => {
    const scene = parseScene(pile(12, 2000));
    const inputs = upload(scene);
    frame.reset();
    const roomy = await frame.step(inputs);
    frame.reset();
    frame.broadphase.setCapacity(16);
    frame.contacts.setCapacity(8);
    const tight = await frame.step(inputs);
    expect(tight.runs).toBeGreaterThan(1);
    expect(listCounts(tight.counts)).toEqual(listCounts(roomy.counts));
    expect(new Uint8Array(tight.contacts.slice(0, roomy.counts.contacts * 64))).toEqual(
      new Uint8Array(roomy.contacts.slice(0, roomy.counts.contacts * 64)),
    );
    frame.broadphase.setCapacity(0);
    inputs.destroy();
  });

  it("reports what the device refused of a frame's commands; the next frame starts afresh", async () => {
    const scene = parseScene(pile(13, 1000));
    const inputs = upload(scene);
    frame.reset();
    const before = await frame.step(inputs);
    // A destroyed input: the device refuses the submit, and the counts of the frame before stay
    // in their buffers, where step() would have read them as this frame's.
    const gone = upload(scene);
    gone.bodies.destroy();
    await expect(frame.step(gone)).rejects.toThrow(
      /frame2d: the device refused the frame's commands: .*destroyed/s,
    );
    const after = await frame.step(inputs);
    // Forgotten: nothing carried over the refused frame, which runs as the first did.
    expect(after.counts.reused).toBe(0);
    expect(listCounts(after.counts)).toEqual(listCounts(before.counts));
    const bytes = before.counts.contacts * 64;
    expect(new Uint8Array(after.contacts.slice(0, bytes))).toEqual(
      new Uint8Array(before.contacts.slice(0, bytes)),
    );
    // Input the host refuses throws before the submit, and leaves no error scope pushed.
    await expect(frame.step({ ...inputs, margin: -1 })).rejects.toThrow(/margin/);
    await expect(device.popErrorScope()).rejects.toThrow();
    gone.destroy();
    inputs.destroy();
  });

  it("times the span alone with timestamps 'span', and nothing with false, the same bytes", async () => {
    expect(device.features.has('timestamp-query')).toBe(true);
    const scene = parseScene(pile(13, 3000));
    const inputs = upload(scene);
    frame.reset();
    const stages = await frame.step(inputs);
    expect(stages.timings).not.toBeNull();
    expect(stages.spanMs).toBeGreaterThan(0);
    // An engine that records with encode() reads the same times after its submit.
    expect(await frame.readTimings()).toEqual({ timings: stages.timings, spanMs: stages.spanMs });
    const n = stages.counts.contacts;
    expect(n).toBeGreaterThan(700);
    for (const timestamps of ['span', false] as const) {
      const other = await GpuFrame2D.create(device, timestamps);
      try {
        await expect(other.readTimings()).rejects.toThrow(/before any encode/);
        const r = await other.step(inputs);
        expect(await other.readTimings()).toEqual({ timings: null, spanMs: r.spanMs });
        expect(r.timings).toBeNull();
        if (timestamps === 'span') expect(r.spanMs).toBeGreaterThan(0);
        else expect(r.spanMs).toBeNull();
        expect(listCounts(r.counts)).toEqual(listCounts(stages.counts));
        expect(new Uint8Array(r.contacts.slice(0, n * 64))).toEqual(
          new Uint8Array(stages.contacts.slice(0, n * 64)),
        );
      } finally {
        other.destroy();
      }
    }
    inputs.destroy();
  });

  it("hands its lists over in kept host memory with results: 'kept', the same bytes as copies", async () => {
    const scene = parseScene(pile(13, 2000));
    const inputs = upload(scene);
    frame.reset();
    const c0 = await frame.step(inputs);
    const c1 = await frame.step(inputs);
    frame.reset();
    const k0 = await frame.step(inputs, { results: 'kept' });
    const k0Bytes = k0.contacts.slice();
    const k1 = await frame.step(inputs, { results: 'kept' });
    const same = (a: ArrayBuffer | Uint8Array, b: ArrayBuffer | Uint8Array): boolean =>
      Buffer.from(a instanceof Uint8Array ? a : new Uint8Array(a)).equals(
        Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)),
      );
    expect(c1.counts.contacts).toBeGreaterThan(300);
    expect(same(k0Bytes, c0.contacts)).toBe(true);
    expect(k0.began.length).toBe(2 * c0.counts.began);
    expect(same(k1.contacts, c1.contacts)).toBe(true);
    expect(same(k1.userValues, c1.userValues)).toBe(true);
    expect(Array.from(k1.began)).toEqual(Array.from(c1.began));
    expect(Array.from(k1.ended)).toEqual(Array.from(c1.ended));
    expect(unpackContacts2D(k1.contacts)).toEqual(unpackContacts2D(c1.contacts));
    // Kept: the second frame's lists in the first's memory (its views now show the second frame).
    expect(k1.contacts.buffer).toBe(k0.contacts.buffer);
    expect(k1.userValues.buffer).toBe(k0.userValues.buffer);
    expect(k1.contacts.byteLength).toBe(64 * c1.counts.contacts);
    inputs.destroy();
  });

  it('with events: false records no contact events, the same lists otherwise; the next frame has them whole', async () => {
    const a = upload(parseScene(pile(13, 2000)));
    const b = upload(parseScene(pile(14, 2000)));
    const frames = [a, b, a];
    frame.reset();
    const on = [];
    for (const inputs of frames) on.push(await frame.step(inputs));
    frame.reset();
    const off = [];
    for (const [i, inputs] of frames.entries())
      off.push(await frame.step({ ...inputs, events: i === 2 }));
    const same = (x: ArrayBuffer, y: ArrayBuffer): boolean => Buffer.from(x).equals(Buffer.from(y));
    // Coverage: the second frame begins and ends contacts.
    expect(on[1]!.counts.began).toBeGreaterThan(100);
    expect(on[1]!.counts.ended).toBeGreaterThan(100);
    for (let i = 0; i < frames.length; i++) {
      expect(off[i]!.counts.contacts).toBe(on[i]!.counts.contacts);
      expect(same(off[i]!.contacts, on[i]!.contacts), `frame ${i}: contacts`).toBe(true);
      expect(same(off[i]!.userValues, on[i]!.userValues), `frame ${i}: user values`).toBe(true);
    }
    for (const r of off.slice(0, 2)) {
      expect([r.counts.began, r.counts.ended, r.began.length, r.ended.length]).toEqual([
        0, 0, 0, 0,
      ]);
    }
    expect(off[2]!.counts.began).toBe(on[2]!.counts.began);
    expect(Array.from(off[2]!.began)).toEqual(Array.from(on[2]!.began));
    expect(Array.from(off[2]!.ended)).toEqual(Array.from(on[2]!.ended));
    expect(on[2]!.counts.ended).toBeGreaterThan(100);
    a.destroy();
    b.destroy();
  });

  it('with userValues: false carries and reads back none, the same lists otherwise; the next frame starts at 0', async () => {
    const a = upload(parseScene(pile(13, 2000)));
    const b = upload(parseScene(pile(13, 2000, 1e-4)));
    const same = (x: ArrayBuffer, y: ArrayBuffer): boolean => Buffer.from(x).equals(Buffer.from(y));
    const run = async (values: boolean[]) => {
      frame.reset();
      const out = [];
      for (const [i, inputs] of [a, b, a].entries()) {
        out.push(await frame.step({ ...inputs, userValues: values[i] }));
        // A solver's impulses, where the frame has values to carry.
        if (values[i])
          frame.contacts.setUserValues(new Float32Array(out[i]!.userValues.byteLength / 4).fill(2));
        // Without values the frame binds no list-sized buffer for them (16 bytes: one entry's).
        else expect(frame.contacts.lastOutputs()!.userValues.size).toBe(16);
      }
      return out;
    };
    const on = await run([true, true, true]);
    const off = await run([true, false, true]);
    for (let i = 0; i < 3; i++) {
      expect(off[i]!.counts.contacts).toBe(on[i]!.counts.contacts);
      expect(same(off[i]!.contacts, on[i]!.contacts), `frame ${i}: contacts`).toBe(true);
    }
    expect(off[1]!.userValues.byteLength).toBe(0);
    expect(() => frame.contacts.setUserValues(new Float32Array(4))).not.toThrow();
    // Frame 2 finds no values in frame 1: every point starts at 0, where frame 1 carried frame 0's.
    const nonzero = (x: ArrayBuffer) => new Float32Array(x).filter((v) => v !== 0).length;
    expect(nonzero(on[2]!.userValues)).toBeGreaterThan(0.5 * on[2]!.counts.contacts);
    expect(nonzero(off[2]!.userValues)).toBe(0);
    // The CPU frame the same: none read back, none carried.
    const cpu = new CpuFrame2D();
    const scenes = [parseScene(pile(13, 2000)), parseScene(pile(13, 2000, 1e-4))] as Scene2D[];
    const c0 = cpu.step(scenes[0]!).contacts;
    cpu.contacts.setUserValues(new Float32Array(c0.userValues.length).fill(2));
    const c1 = cpu.step(scenes[1]!, { userValues: false }).contacts;
    expect(c1.userValues.length).toBe(0);
    expect(() => cpu.contacts.setUserValues(new Float32Array(4))).toThrow(/userValues: false/);
    const c2 = cpu.step(scenes[0]!).contacts;
    expect(c2.total).toBe(off[2]!.counts.contacts);
    expect(c2.userValues.every((v) => v === 0)).toBe(true);
    a.destroy();
    b.destroy();
  });

  it('gives byte-identical lists when forced into tiny batches of pairs and binding pages', async () => {
    const scene = parseScene(pile(14, 3000));
    const inputs = upload(scene);
    frame.reset();
    const whole = await frame.step(inputs);
    frame.reset();
    frame.setBatchPairs(300); // rounded down to 256 pairs a batch
    frame.contacts.setPageEntries(768); // and the dense list in two binding pages
    const batched = await frame.step(inputs);
    frame.setBatchPairs(0);
    frame.contacts.setPageEntries(0);
    expect(whole.counts.contacts).toBeGreaterThan(768);
    expect(whole.batches).toBe(1);
    expect(batched.batches).toBe(Math.ceil(frame.broadphase.defaultCapacity(3000) / 256));
    expect(listCounts(batched.counts)).toEqual(listCounts(whole.counts));
    const n = whole.counts.contacts * 64;
    expect(
      Buffer.from(batched.contacts.slice(0, n)).equals(Buffer.from(whole.contacts.slice(0, n))),
    ).toBe(true);
    expect(
      Buffer.from(batched.userValues.slice(0, whole.counts.contacts * 16)).equals(
        Buffer.from(whole.userValues.slice(0, whole.counts.contacts * 16)),
      ),
    ).toBe(true);
    inputs.destroy();
  });

  it('carries user values to the next frame by pair and feature id', async () => {
    const scene0 = parseScene(pile(13, 2000));
    const scene1 = parseScene(pile(13, 2000, 1e-4)); // everything moved a hair: the same features touch
    frame.reset();
    const in0 = upload(scene0);
    const f0 = await frame.step(in0);
    const n0 = f0.counts.contacts;
    // A solver writes each point's impulses: here (entry index, point index + 1).
    const values = new Float32Array(n0 * 4);
    for (let j = 0; j < n0; j++) values.set([j, 1, j, 2], 4 * j);
    frame.contacts.setUserValues(values);
    const in1 = upload(scene1);
    const f1 = await frame.step(in1);
    const list0 = unpackContacts2D(f0.contacts.slice(0, n0 * 64));
    const list1 = unpackContacts2D(
      f1.contacts.slice(0, f1.counts.contacts * 64),
      new Float32Array(f1.userValues),
    );
    const before = new Map(list0.map((c, j) => [`${c.bodyA},${c.bodyB}`, { c, j }]));
    let carried = 0;
    let fresh = 0;
    for (const c of list1) {
      const old = before.get(`${c.bodyA},${c.bodyB}`);
      c.points.forEach((p) => {
        const k = old ? old.c.points.findIndex((q) => q.id === p.id) : -1;
        if (k >= 0) {
          expect(p.userValue).toEqual([old!.j, k + 1]);
          carried++;
        } else {
          expect(p.userValue).toEqual([0, 0]);
          fresh++;
        }
      });
    }
    console.log(`carried ${carried}, new ${fresh}`);
    expect(carried).toBeGreaterThan(0.9 * (carried + fresh));
    in0.destroy();
    in1.destroy();
  });
});
