// The dense contact list (src/gpu/contact-list2d.ts, shaders/contact-list.wgsl) against its CPU reference
// (src/cpu/contact-list2d.ts) and against a plain filter, on manifolds from the real narrowphase
// (collidePacked2D) of random scenes: disjoint random pairs, and piles whose bodies have several
// neighbours (pairs from sweepAndPrune2D), listed in (a, b) order or shuffled.
//   - the list: the touching slots in pair order, each with its pair's bodies and manifold; GPU
//     and CPU byte for byte;
//   - determinism: byte-identical lists run after run;
//   - persistence over 3 frames of a slowly moving pile, its pairs listed in a new order each
//     frame: the user values written for frame f are carried to frame f + 1 for the points whose
//     pair and feature id match, 0 for the others; `previous` and `matched` say so; a guard that
//     many were carried and some were new;
//   - contact events: the pairs that began and stopped touching, as set differences of the
//     frames' touching pairs, in list order (GPU and CPU);
//   - capacity: a list too small reports the real total and overflow; run() grows it and runs the
//     frame again, with the same result as an unconstrained run (also mid-sequence, persistence
//     included);
//   - encode() into the caller's encoder with the pair count read from a GPU buffer (no readback),
//     surplus pair slots ignored; rows of workgroups; empty inputs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAndPrune2D } from '../src/broadphase2d.ts';
import {
  CONTACT_NONE,
  CONTACTS_LAYOUT_2D,
  CpuContacts2D,
  unpackContacts2D,
  type ContactsResult2D,
  type ContactsRunOptions2D,
} from '../src/cpu/contact-list2d.ts';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { REUSE_STATUS } from '../src/constants.ts';
import { GpuContacts2D } from '../src/gpu/contact-list2d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { dispatchLimits, MAX_GROUPS_PER_DIMENSION, readBuffer } from '../src/gpu/buffers.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { packScene2D } from '../src/pack2d.ts';
import { randomPairScene, randomShape, rng } from '../src/random2d.ts';
import { parseScene, type Scene2D, type SceneJson2D } from '../src/scene.ts';

const M = LAYOUT_2D.manifold;
const C = CONTACTS_LAYOUT_2D.contact;
const U = CONTACTS_LAYOUT_2D.userValues;
const K = CONTACTS_LAYOUT_2D.counts;

let gpu: AcquiredDevice;
let contacts: GpuContacts2D;

beforeAll(async () => {
  gpu = await acquireDevice();
  contacts = await GpuContacts2D.create(gpu.device);
});

afterAll(() => {
  dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
  contacts?.destroy();
  gpu?.device.destroy();
});

// ---- inputs ---------------------------------------------------------------------------------

interface Frame {
  manifolds: ArrayBuffer;
  pairs: Uint32Array;
  bodyCount: number;
}

/** `pairs` listed in a random order (orientation kept). */
function shuffledPairs(pairs: Uint32Array, seed: number): Uint32Array {
  const r = rng(seed);
  const n = pairs.length / 2;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const out = new Uint32Array(2 * n);
  order.forEach((k, i) => {
    out[2 * i] = pairs[2 * k]!;
    out[2 * i + 1] = pairs[2 * k + 1]!;
  });
  return out;
}

/** The narrowphase's manifold slots (CPU reference) of `pairs` in `scene`. */
function collide(scene: Scene2D, pairs: Uint32Array): Frame {
  const packed = packScene2D(scene, pairs);
  return {
    manifolds: collidePacked2D(prepareCpu2D(packed, scene.shapes.length), packed),
    pairs,
    bodyCount: scene.bodyShape.length,
  };
}

/** randomPairScene's disjoint pairs, shuffled (a negative shuffleSeed: as listed). */
function pairFrame(seed: number, n: number, shuffleSeed = seed + 1): Frame {
  const scene = parseScene(randomPairScene(seed, n, 'mixed')) as Scene2D;
  return collide(scene, shuffleSeed < 0 ? scene.pairs! : shuffledPairs(scene.pairs!, shuffleSeed));
}

interface Pile {
  json: SceneJson2D;
  velocity: Float64Array;
  spin: Float64Array;
}

/** `n` mixed shapes scattered densely over a square (several neighbours each), with slow velocities. */
function pile(seed: number, n: number): Pile {
  const r = rng(seed);
  const shapes = Array.from({ length: 32 }, () => randomShape(r, 'mixed'));
  const side = 0.8 * Math.sqrt(n);
  const bodies = Array.from({ length: n }, () => ({
    shape: Math.floor(r() * shapes.length),
    position: [Math.fround(side * r()), Math.fround(side * r())] as [number, number],
    angle: 2 * Math.PI * r(),
  }));
  const velocity = Float64Array.from({ length: 2 * n }, () => 0.04 * (r() - 0.5));
  const spin = Float64Array.from({ length: n }, () => 0.04 * (r() - 0.5));
  return { json: { dim: 2, margin: 0.02, shapes, bodies }, velocity, spin };
}

/** Frame `f` of a moving pile: bodies moved f steps; pairs from the broadphase, shuffled (a negative seed: in (a, b) order). */
function pileFrame(p: Pile, f: number, shuffleSeed: number): Frame {
  const json: SceneJson2D = {
    ...p.json,
    bodies: p.json.bodies.map((b, i) => ({
      shape: b.shape,
      position: [
        Math.fround(b.position[0] + f * p.velocity[2 * i]!),
        Math.fround(b.position[1] + f * p.velocity[2 * i + 1]!),
      ] as [number, number],
      angle: (b.angle ?? 0) + f * p.spin[i]!,
    })),
  };
  const scene = parseScene(json) as Scene2D;
  const pairs = sweepAndPrune2D(scene);
  return collide(scene, shuffleSeed < 0 ? pairs : shuffledPairs(pairs, shuffleSeed));
}

// ---- expectations ---------------------------------------------------------------------------

function bytesEqual(a: ArrayBuffer | ArrayBufferView, b: ArrayBuffer | ArrayBufferView): boolean {
  const x = ArrayBuffer.isView(a)
    ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
    : new Uint8Array(a);
  const y = ArrayBuffer.isView(b)
    ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
    : new Uint8Array(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The first entry where two lists differ, for messages. */
function firstDifference(a: ArrayBuffer, b: ArrayBuffer): string {
  const x = new Uint32Array(a);
  const y = new Uint32Array(b);
  if (x.length !== y.length) return `${x.length / C.words} entries vs ${y.length / C.words}`;
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i]) {
      const j = Math.floor(i / C.words);
      return `entry ${j} word ${i % C.words}: ${JSON.stringify(unpackContacts2D(a.slice(j * C.bytes, (j + 1) * C.bytes)))} vs ${JSON.stringify(unpackContacts2D(b.slice(j * C.bytes, (j + 1) * C.bytes)))}`;
    }
  }
  return 'none';
}

function expectSameResult(gpuResult: ContactsResult2D, cpuResult: ContactsResult2D): void {
  expect(gpuResult.total).toBe(cpuResult.total);
  expect(
    bytesEqual(gpuResult.dense, cpuResult.dense),
    firstDifference(gpuResult.dense, cpuResult.dense),
  ).toBe(true);
  expect(bytesEqual(gpuResult.userValues, cpuResult.userValues)).toBe(true);
  expect(Array.from(gpuResult.began)).toEqual(Array.from(cpuResult.began));
  expect(Array.from(gpuResult.ended)).toEqual(Array.from(cpuResult.ended));
}

/**
 * The list from first principles: the touching slots in pair order, each its pair's bodies and
 * manifold words (previous and matched are not checked here).
 */
function expectList(frame: Frame, result: ContactsResult2D): void {
  const mu = new Uint32Array(frame.manifolds);
  const touching: number[] = [];
  for (let k = 0; k < frame.pairs.length / 2; k++)
    if (mu[k * M.words + M.count]! > 0) touching.push(k);
  const p = frame.pairs;
  expect(result.total).toBe(touching.length);
  const d = new Uint32Array(result.dense);
  for (let j = 0; j < touching.length; j++) {
    const k = touching[j]!;
    const o = j * C.words;
    if (d[o + C.bodyA] !== p[2 * k] || d[o + C.bodyB] !== p[2 * k + 1]) {
      throw new Error(
        `entry ${j}: bodies (${d[o + C.bodyA]}, ${d[o + C.bodyB]}), want pair ${k} (${p[2 * k]}, ${p[2 * k + 1]})`,
      );
    }
    if (
      !bytesEqual(
        d.subarray(o + C.manifold, o + C.words),
        mu.subarray(k * M.words, (k + 1) * M.words),
      )
    ) {
      throw new Error(`entry ${j}: the manifold differs from pair ${k}'s slot`);
    }
  }
}

/** Runs one frame on both backends (each with its own history) and checks they agree. */
async function both(
  cpu: CpuContacts2D,
  frame: Frame,
  options: ContactsRunOptions2D = {},
  g: GpuContacts2D = contacts,
): Promise<ContactsResult2D> {
  const c = cpu.run(frame.manifolds, frame.pairs, options);
  const r = await g.run(frame.manifolds, frame.pairs, options);
  expectSameResult(r, c);
  return r;
}

// ---- tests ----------------------------------------------------------------------------------

describe('contact list layouts', () => {
  it('are reflected from the WGSL: 64-byte entries ending with the Manifold2D, 16 bytes of user values', () => {
    expect(C.bytes).toBe(64);
    expect(C.manifold + M.words).toBe(C.words);
    expect(U.bytes).toBe(16);
    expect(U.pointStride).toBe(2);
    expect(K.bytes).toBe(32);
  });
});

describe('dense contact list: GPU against CPU and first principles', () => {
  it('random pairs, shuffled and not: the list in pair order, byte for byte', async () => {
    for (const frame of [pairFrame(11, 30_000), pairFrame(12, 20_000, -1)]) {
      const cpu = new CpuContacts2D();
      contacts.reset();
      const r = await both(cpu, frame, { bodyCount: frame.bodyCount });
      expectList(frame, r);
      expect(r.runs).toBe(1);
      // The first frame: every touching pair begins, none ends.
      expect(r.began.length / 2).toBe(r.total);
      expect(r.ended.length).toBe(0);
      // Most of randomPairScene's pairs touch; not all.
      expect(r.total).toBeGreaterThan(0.3 * (frame.pairs.length / 2));
      expect(r.total).toBeLessThan(frame.pairs.length / 2);
    }
  });

  it('a pile (several neighbours per body), broadphase pairs shuffled and in (a, b) order', async () => {
    const p = pile(5, 4000);
    for (const frame of [pileFrame(p, 0, 99), pileFrame(p, 0, -1)]) {
      const options = { bodyCount: frame.bodyCount };
      contacts.reset();
      const r = await both(new CpuContacts2D(), frame, options);
      expectList(frame, r);
      const d = unpackContacts2D(r.dense, r.userValues);
      // Bodies with several contacts each: the ordering is not trivial.
      const perBody = new Map<number, number>();
      for (const e of d) perBody.set(e.bodyA, (perBody.get(e.bodyA) ?? 0) + 1);
      expect(Math.max(...perBody.values())).toBeGreaterThanOrEqual(3);
      expect(
        d.every(
          (e) =>
            e.previous === CONTACT_NONE &&
            e.matched === 0 &&
            e.points.every((q) => q.userValue[0] === 0 && q.userValue[1] === 0),
        ),
      ).toBe(true);
    }
  });

  it('staged and direct entry stores give the same bytes: batches, two pages, an overflow', async () => {
    const p = pile(5, 4000);
    const frames = [pileFrame(p, 0, -1), pileFrame(p, 1, -1)];
    for (const stores of ['staged', 'direct'] as const) {
      const g = await GpuContacts2D.create(gpu.device, undefined, stores);
      const cpu = new CpuContacts2D();
      // Pages of 4096 entries and batches of 1000 pairs (not a multiple of the workgroup): the
      // staged writes meet a page's end and batches that end mid-workgroup.
      g.setPageEntries(4096);
      const r0 = await both(
        cpu,
        frames[0]!,
        { bodyCount: frames[0]!.bodyCount, batchPairs: 1000 },
        g,
      );
      expectList(frames[0]!, r0);
      expect(r0.total).toBeGreaterThan(4096);
      // A capacity cut inside a workgroup's entries, then the rerun: as the CPU's.
      const r1 = await both(
        cpu,
        frames[1]!,
        { bodyCount: frames[1]!.bodyCount, capacity: 1000 },
        g,
      );
      expect(r1.runs).toBe(2);
      g.destroy();
    }
  });

  it('empty inputs: no pairs, and pairs none of which touch', async () => {
    contacts.reset();
    const none = await both(new CpuContacts2D(), {
      manifolds: new ArrayBuffer(0),
      pairs: new Uint32Array(0),
      bodyCount: 0,
    });
    expect(none.total).toBe(0);
    const apart = parseScene({
      dim: 2,
      shapes: [{ type: 'circle', radius: 0.5 }],
      bodies: [0, 1, 2, 3].map((i) => ({ shape: 0, position: [3 * i, 0] as [number, number] })),
    }) as Scene2D;
    const frame = collide(apart, Uint32Array.from([0, 1, 1, 2, 2, 3, 0, 3]));
    const r = await both(new CpuContacts2D(), frame);
    expect(r.total).toBe(0);
    expect(r.dense.byteLength).toBe(0);
  });

  it('rows of workgroups (at most 3 a row) give the same list', async () => {
    const frame = pileFrame(pile(6, 1500), 0, 7);
    contacts.reset();
    const plain = await contacts.run(frame.manifolds, frame.pairs);
    dispatchLimits.maxGroupsPerDimension = 3;
    try {
      contacts.reset();
      const rows = await contacts.run(frame.manifolds, frame.pairs);
      expect(bytesEqual(rows.dense, plain.dense), firstDifference(rows.dense, plain.dense)).toBe(
        true,
      );
    } finally {
      dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
    }
    expectList(frame, plain);
  });
});

describe('determinism', () => {
  it('byte-identical lists in 3 runs (GPU and CPU), in the order of the pairs given', async () => {
    const p = pile(21, 3000);
    const base = pileFrame(p, 0, 1);
    const lists: ArrayBuffer[] = [];
    for (let run = 0; run < 3; run++) {
      contacts.reset();
      lists.push(
        (await contacts.run(base.manifolds, base.pairs, { bodyCount: base.bodyCount })).dense,
      );
      lists.push(new CpuContacts2D().run(base.manifolds, base.pairs).dense);
    }
    expect(new Uint32Array(lists[0]!).length).toBeGreaterThan(1000 * C.words);
    for (const l of lists)
      expect(bytesEqual(l, lists[0]!), firstDifference(l, lists[0]!)).toBe(true);
    // Another order of the same pairs: the same entries, in that order.
    const other = pileFrame(p, 0, 2);
    contacts.reset();
    const r = await contacts.run(other.manifolds, other.pairs);
    expectList(other, r);
    expect(r.total * C.words).toBe(new Uint32Array(lists[0]!).length);
  });
});

// ---- persistence ----------------------------------------------------------------------------

/** User values the solver writes for frame f: unique per entry and point, exact in f32. */
function solverValues(total: number, f: number): Float32Array {
  const v = new Float32Array(total * U.words);
  for (let j = 0; j < total; j++) {
    for (let i = 0; i < 2; i++) {
      v[j * U.words + U.points + i * U.pointStride] = 1000 * f + j + 0.5;
      v[j * U.words + U.points + i * U.pointStride + 1] = -(i + 1) - 0.25 * f;
    }
  }
  return v;
}

interface Carried {
  carried: number;
  fresh: number;
}

/** Checks frame `cur` against the previous frame's list and the values written for it. */
function expectCarried(
  prev: ContactsResult2D,
  written: Float32Array,
  cur: ContactsResult2D,
): Carried {
  const before = unpackContacts2D(prev.dense, written);
  const index = new Map(before.map((e, j) => [`${e.bodyA},${e.bodyB}`, j]));
  let carried = 0;
  let fresh = 0;
  unpackContacts2D(cur.dense, cur.userValues).forEach((e, j) => {
    const q = index.get(`${e.bodyA},${e.bodyB}`);
    const where = `entry ${j} (${e.bodyA}, ${e.bodyB})`;
    expect(e.previous, where).toBe(q ?? CONTACT_NONE);
    let matched = 0;
    e.points.forEach((pt, i) => {
      const old = q === undefined ? undefined : before[q]!.points.find((o) => o.id === pt.id);
      if (old) {
        matched |= 1 << i;
        carried++;
        expect(pt.userValue, `${where} point ${i}`).toEqual(old.userValue);
      } else {
        fresh++;
        expect(pt.userValue, `${where} point ${i}`).toEqual([0, 0]);
      }
    });
    expect(e.matched, where).toBe(matched);
  });
  // Unused point slots carry nothing.
  const u = cur.userValues;
  const d = new Uint32Array(cur.dense);
  for (let j = 0; j < cur.total; j++) {
    for (let i = d[j * C.words + C.count]!; i < 2; i++) {
      expect([
        u[j * U.words + U.points + i * U.pointStride],
        u[j * U.words + U.points + i * U.pointStride + 1],
      ]).toEqual([0, 0]);
    }
  }
  return { carried, fresh };
}

/** Contact events from first principles: began = pairs of `cur` not in `prev`, ended = the reverse, each in its list's order. */
function expectEvents(
  prev: ContactsResult2D,
  cur: ContactsResult2D,
): { began: number; ended: number } {
  const key = (e: { bodyA: number; bodyB: number }): string => `${e.bodyA},${e.bodyB}`;
  const before = unpackContacts2D(prev.dense);
  const now = unpackContacts2D(cur.dense);
  const had = new Set(before.map(key));
  const has = new Set(now.map(key));
  const began = now.filter((e) => !had.has(key(e))).flatMap((e) => [e.bodyA, e.bodyB]);
  const ended = before.filter((e) => !has.has(key(e))).flatMap((e) => [e.bodyA, e.bodyB]);
  expect(Array.from(cur.began)).toEqual(began);
  expect(Array.from(cur.ended)).toEqual(ended);
  return { began: began.length / 2, ended: ended.length / 2 };
}

describe('persistent contacts', () => {
  it('events: false, GPU and CPU: no events, the same list; the frame after has them whole', async () => {
    const p = pile(32, 3000);
    const cpu = new CpuContacts2D();
    contacts.reset();
    let prev: ContactsResult2D | null = null;
    for (let f = 0; f < 3; f++) {
      const frame = pileFrame(p, f, 200 + f);
      const events = f === 2;
      const r = await both(cpu, frame, { bodyCount: frame.bodyCount, events });
      expectList(frame, r);
      if (!events) expect([r.began.length, r.ended.length]).toEqual([0, 0]);
      else {
        const e = expectEvents(prev!, r);
        expect(e.began).toBeGreaterThan(0);
        expect(e.ended).toBeGreaterThan(0);
      }
      prev = r;
    }
  });

  it('3 frames of a slowly moving pile: user values follow pair and feature id; GPU equals CPU', async () => {
    const p = pile(31, 3000);
    const cpu = new CpuContacts2D();
    contacts.reset();
    let prev: ContactsResult2D | null = null;
    let values: Float32Array | null = null;
    const stats: Carried[] = [];
    for (let f = 0; f < 3; f++) {
      const frame = pileFrame(p, f, 100 + f);
      const r = await both(cpu, frame, { bodyCount: frame.bodyCount });
      expectList(frame, r);
      if (prev && values) {
        stats.push(expectCarried(prev, values, r));
        const events = expectEvents(prev, r);
        expect(events.began).toBeGreaterThan(0);
        expect(events.ended).toBeGreaterThan(0);
      } else expect(unpackContacts2D(r.dense).every((e) => e.previous === CONTACT_NONE)).toBe(true);
      // The solver's values for this frame, for the next to carry.
      values = solverValues(r.total, f + 1);
      contacts.setUserValues(values);
      cpu.setUserValues(values);
      prev = r;
    }
    for (const s of stats) {
      // Coverage: most points were carried, some were new (new pairs or new features).
      expect(s.carried).toBeGreaterThan(0.7 * (s.carried + s.fresh));
      expect(s.fresh).toBeGreaterThan(0);
    }
  });

  it('values the solver writes into the GPU buffer (part of the list) are carried', async () => {
    const p = pile(32, 1000);
    contacts.reset();
    const f0 = pileFrame(p, 0, 1);
    const r0 = await contacts.run(f0.manifolds, f0.pairs);
    const out = contacts.lastOutputs()!;
    // A solver writing entries 10.. on the GPU (here: a copy into the documented buffer).
    const values = solverValues(r0.total, 7).subarray(10 * U.words);
    const staging = gpu.device.createBuffer({
      size: values.byteLength,
      usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    gpu.device.queue.writeBuffer(staging, 0, values);
    const encoder = gpu.device.createCommandEncoder();
    encoder.copyBufferToBuffer(staging, 0, out.userValues, 10 * U.bytes, values.byteLength);
    gpu.device.queue.submit([encoder.finish()]);
    const written = new Float32Array(r0.total * U.words);
    written.set(values, 10 * U.words);
    const r1 = await contacts.run(f0.manifolds, f0.pairs);
    const s = expectCarried(r0, written, r1);
    // The same manifolds again: every point is carried.
    expect(s.fresh).toBe(0);
    staging.destroy();
  });
});

// ---- capacity -------------------------------------------------------------------------------

describe('capacity', () => {
  it('an overflowing list reports the real total; run() grows it and equals an unconstrained run', async () => {
    const frame = pairFrame(41, 5000);
    contacts.reset();
    const free = await contacts.run(frame.manifolds, frame.pairs);
    contacts.reset();
    const small = await contacts.run(frame.manifolds, frame.pairs, { capacity: 100 });
    expect(small.runs).toBe(2);
    expect(small.capacity).toBeGreaterThanOrEqual(free.total);
    expect(small.total).toBe(free.total);
    expect(bytesEqual(small.dense, free.dense)).toBe(true);
    expect(bytesEqual(small.userValues, free.userValues)).toBe(true);
    const cpu = new CpuContacts2D().run(frame.manifolds, frame.pairs, { capacity: 100 });
    expect(cpu.runs).toBe(2);
    expect(bytesEqual(cpu.dense, free.dense)).toBe(true);

    // The counts of the overflowing run itself.
    const encoder = gpu.device.createCommandEncoder();
    const m = gpu.device.createBuffer({
      size: frame.manifolds.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    const pb = gpu.device.createBuffer({
      size: frame.pairs.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    gpu.device.queue.writeBuffer(m, 0, frame.manifolds);
    gpu.device.queue.writeBuffer(pb, 0, frame.pairs);
    const out = contacts.encode(encoder, {
      manifolds: m,
      pairs: pb,
      pairCount: frame.pairs.length / 2,
      capacity: 100,
    });
    gpu.device.queue.submit([encoder.finish()]);
    const counts = new Uint32Array(await readBuffer(gpu.device, out.counts, K.bytes));
    expect([counts[K.total], counts[K.written], counts[K.overflow], counts[K.pairCount]]).toEqual([
      free.total,
      100,
      1,
      5000,
    ]);
    m.destroy();
    pb.destroy();
  });

  it('an overflow mid-sequence: the rerun reads the same last frame (values carried as unconstrained)', async () => {
    const p = pile(42, 2000);
    const frames = [0, 1, 2].map((f) => pileFrame(p, f, 200 + f));
    const runSequence = async (
      g: GpuContacts2D,
      capacities: (number | undefined)[],
    ): Promise<ContactsResult2D[]> => {
      g.reset();
      const out: ContactsResult2D[] = [];
      for (let f = 0; f < 3; f++) {
        const cap = capacities[f];
        const r = await g.run(
          frames[f]!.manifolds,
          frames[f]!.pairs,
          cap === undefined ? {} : { capacity: cap },
        );
        g.setUserValues(solverValues(r.total, f + 1));
        out.push(r);
      }
      return out;
    };
    const free = await runSequence(contacts, [undefined, undefined, undefined]);
    const other = await GpuContacts2D.create(gpu.device);
    try {
      const tight = await runSequence(other, [undefined, 50, 10]);
      expect(tight.map((r) => r.runs)).toEqual([1, 2, 2]);
      for (let f = 0; f < 3; f++) {
        expect(
          bytesEqual(tight[f]!.dense, free[f]!.dense),
          firstDifference(tight[f]!.dense, free[f]!.dense),
        ).toBe(true);
        expect(bytesEqual(tight[f]!.userValues, free[f]!.userValues)).toBe(true);
      }
      const s = expectCarried(free[1]!, solverValues(free[1]!.total, 2), free[2]!);
      expect(s.carried).toBeGreaterThan(0);
    } finally {
      other.destroy();
    }
  });

  it('setCapacity: the grown capacity is kept for the frames after', async () => {
    const other = await GpuContacts2D.create(gpu.device);
    try {
      const frame = pairFrame(43, 2000);
      other.setCapacity(10);
      const a = await other.run(frame.manifolds, frame.pairs);
      expect(a.runs).toBe(2);
      const b = await other.run(frame.manifolds, frame.pairs);
      expect(b.runs).toBe(1);
      expect(b.capacity).toBe(a.capacity);
    } finally {
      other.destroy();
    }
  });
});

// ---- encode ---------------------------------------------------------------------------------

describe("encode into the caller's encoder", () => {
  it('pair count from a GPU buffer (no readback); surplus pair slots ignored', async () => {
    const device = gpu.device;
    const frame = pileFrame(pile(51, 2000), 0, 3);
    const pairCount = frame.pairs.length / 2;
    // Slots past the pair count hold touching manifolds that must not be listed.
    const slots = pairCount + 300;
    const extra = pairFrame(52, 300);
    const manifolds = new Uint8Array(slots * M.words * 4);
    manifolds.set(new Uint8Array(frame.manifolds));
    manifolds.set(new Uint8Array(extra.manifolds), pairCount * M.words * 4);
    const pairs = new Uint32Array(2 * slots);
    pairs.set(frame.pairs);
    pairs.set(extra.pairs, 2 * pairCount);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;
    const mb = device.createBuffer({ size: manifolds.byteLength, usage: S });
    const pb = device.createBuffer({ size: pairs.byteLength, usage: S });
    const countBuf = device.createBuffer({ size: 32, usage: S });
    device.queue.writeBuffer(mb, 0, manifolds);
    device.queue.writeBuffer(pb, 0, pairs);
    device.queue.writeBuffer(countBuf, 0, Uint32Array.from([7, 7, 7, pairCount, 7]));

    const reference = new CpuContacts2D().run(frame.manifolds, frame.pairs);
    const other = await GpuContacts2D.create(device);
    try {
      const encoder = device.createCommandEncoder();
      const out = other.encode(encoder, {
        manifolds: mb,
        pairs: pb,
        pairCountSource: { buffer: countBuf, offset: 12 },
      });
      expect(out.capacity).toBe(slots);
      device.queue.submit([encoder.finish()]);
      const counts = new Uint32Array(await readBuffer(device, out.counts, K.bytes));
      expect([counts[K.total], counts[K.written], counts[K.overflow], counts[K.pairCount]]).toEqual(
        [reference.total, reference.total, 0, pairCount],
      );
      const dense = await readBuffer(device, out.contacts, reference.total * C.bytes);
      expect(bytesEqual(dense, reference.dense), firstDifference(dense, reference.dense)).toBe(
        true,
      );
      const timings = await other.readTimings();
      if (gpu.timestamps) expect(timings!.total).toBeGreaterThanOrEqual(0);
    } finally {
      other.destroy();
      mb.destroy();
      pb.destroy();
      countBuf.destroy();
    }
  });

  it("a batch's reuse status: kept slots listed, apart ones left out, unread, the others counted; GPU equals CPU", async () => {
    // Slots the status calls kept or apart are listed or left out by it alone: a status true to
    // the manifolds gives the reference list; one that lies about some slots (an empty slot
    // "kept", touching ones "apart") shows it was read, and GPU and CPU agree on what it says.
    const device = gpu.device;
    const frame = pileFrame(pile(53, 1500), 0, -1);
    const n = frame.pairs.length / 2;
    const m = new Uint32Array(frame.manifolds);
    const r = rng(54);
    const { kept, collide, apart } = REUSE_STATUS;
    const truthful = Uint32Array.from({ length: n }, (_, k) =>
      r() < 0.3 ? collide : m[k * M.words + M.count]! > 0 ? kept : apart,
    );
    const lying = truthful.slice();
    const empty = truthful.findIndex((s, k) => s === apart && m[k * M.words + M.count] === 0);
    lying[empty] = kept;
    let liedApart = 0;
    for (let k = 0; k < n && liedApart < 40; k += 7)
      if (truthful[k] === kept) {
        lying[k] = apart;
        liedApart++;
      }
    const reference = new CpuContacts2D().run(frame.manifolds, frame.pairs);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    const mb = device.createBuffer({ size: frame.manifolds.byteLength, usage: S });
    const pb = device.createBuffer({ size: frame.pairs.byteLength, usage: S });
    const sb = device.createBuffer({ size: 4 * n, usage: S });
    const cb = device.createBuffer({ size: 8, usage: S | GPUBufferUsage.COPY_SRC });
    // The slots left to the collide, and those of them whose manifold has points.
    const collided = [...truthful].filter((s) => s === collide).length;
    const collidedTouching = [...truthful].filter(
      (s, k) => s === collide && m[k * M.words + M.count]! > 0,
    ).length;
    expect(collidedTouching, 'some collided slots touch, some do not').toBeGreaterThan(0);
    expect(collidedTouching).toBeLessThan(collided);
    device.queue.writeBuffer(mb, 0, frame.manifolds);
    device.queue.writeBuffer(pb, 0, frame.pairs);
    for (const stores of ['staged', 'direct'] as const) {
      const other = await GpuContacts2D.create(device, undefined, stores);
      try {
        for (const [status, total] of [
          [truthful, reference.total],
          [lying, reference.total + 1 - liedApart],
        ] as const) {
          device.queue.writeBuffer(sb, 0, status);
          device.queue.writeBuffer(cb, 0, new Uint32Array([7, 0]));
          other.reset();
          const encoder = device.createCommandEncoder();
          other.begin(encoder, { pairSlots: n, pairCount: n });
          other.compactBatch({
            manifolds: mb,
            pairs: pb,
            pairsOffset: 0,
            first: 0,
            slots: n,
            status: { buffer: sb },
            statusCounts: { buffer: cb },
          });
          const out = other.finish();
          device.queue.submit([encoder.finish()]);
          const counts = new Uint32Array(await readBuffer(device, out.counts, K.bytes));
          const cpuCounts = new Uint32Array([7, 0]);
          const cpu = new CpuContacts2D().runFrame(
            frame.manifolds,
            frame.pairs,
            new Uint32Array(n),
            { status, statusCounts: cpuCounts },
          );
          // Added to what the buffer held (7): the lies are about kept and apart slots alone.
          const want = [7 + collided, collidedTouching];
          expect([...new Uint32Array(await readBuffer(device, cb, 8))], stores).toEqual(want);
          expect([...cpuCounts]).toEqual(want);
          expect([counts[K.total], cpu.total], stores).toEqual([total, total]);
          const dense = await readBuffer(device, out.contacts, total * C.bytes);
          expect(bytesEqual(dense, cpu.dense), firstDifference(dense, cpu.dense)).toBe(true);
          if (status === truthful) expect(bytesEqual(dense, reference.dense)).toBe(true);
        }
      } finally {
        other.destroy();
      }
    }
    expect(liedApart).toBe(40);
    mb.destroy();
    pb.destroy();
    sb.destroy();
    cb.destroy();
  });

  it('refuses inconsistent inputs before any GPU work', async () => {
    const device = gpu.device;
    const b = device.createBuffer({ size: 480, usage: GPUBufferUsage.STORAGE });
    const encoder = device.createCommandEncoder();
    expect(() => contacts.encode(encoder, { manifolds: b, pairs: b })).toThrow(
      /pairCount or pairCountSource/,
    );
    expect(() => contacts.encode(encoder, { manifolds: b, pairs: b, pairCount: 11 })).toThrow(
      /pairCount must be/,
    );
    expect(() =>
      contacts.encode(encoder, { manifolds: b, pairs: b, pairCount: 1, pairSlots: 11 }),
    ).toThrow(/pairSlots must be/);
    expect(() =>
      contacts.encode(encoder, {
        manifolds: b,
        pairs: b,
        pairCountSource: { buffer: b, offset: 2 },
      }),
    ).toThrow(/multiple of 4/);
    expect(() => contacts.begin(encoder, { pairSlots: 1, pairCount: 0 }, 0)).toThrow(
      /batches must be an integer >= 1/,
    );
    // A frame of its own, left open: a refused batch is not one of its batches.
    const other = await GpuContacts2D.create(device);
    other.begin(encoder, { pairSlots: 4, pairCount: 4 });
    const batch = { manifolds: b, pairs: b, pairsOffset: 0, first: 0, slots: 4 };
    expect(() => other.compactBatch({ ...batch, statusCounts: { buffer: b } })).toThrow(
      /statusCounts: counted from the status, and no status was given/,
    );
    expect(() =>
      other.compactBatch({
        ...batch,
        status: { buffer: b },
        statusCounts: { buffer: b, offset: 476 },
      }),
    ).toThrow(/statusCounts must hold 8 bytes/);
    other.destroy();
    await expect(
      contacts.run(new ArrayBuffer(96), Uint32Array.from([0, 5, 1, 2]), { bodyCount: 4 }),
    ).rejects.toThrow(/names body 5/);
    encoder.finish();
    b.destroy();
  });
});
