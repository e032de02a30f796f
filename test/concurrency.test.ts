// Calls in flight on one narrowphase: every collide() resolves with exactly what it gives alone,
// 2D and 3D mixed, 20 at once (before, 18 of 20 rejected with an empty OperationError: the pooled
// readback buffer was submitted while still mapped). Also the packed runners, and destroy() and
// rebuild() with calls in flight: those calls complete, later ones are refused with a message
// that says what to do.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { createNarrowphase, type CollideResult, type Narrowphase } from '../src/narrowphase.ts';
import { packScene2D } from '../src/pack2d.ts';
import { randomPairScene } from '../src/random2d.ts';
import { randomPairScene3D } from '../src/random3d.ts';
import { parseScene, type Scene2D } from '../src/scene.ts';

/** 20 scenes: 2D pair lists, 2D broadphase scenes and 3D pair lists (boxes and every shape type), of different sizes. */
const SCENES: unknown[] = Array.from({ length: 20 }, (_, i) => {
  if (i % 4 === 1)
    return randomPairScene3D(100 + i, 60 + 10 * i, i % 8 === 1 ? 'box3d' : 'mixed3d');
  const scene = randomPairScene(i, 200 + 50 * i, i % 4 === 2 ? 'box' : 'mixed');
  if (i % 4 === 3) delete scene.pairs; // the host broadphase finds the pairs
  return scene;
});

let np: Narrowphase;
beforeAll(async () => {
  np = await createNarrowphase({ backend: 'gpu' });
});
afterAll(() => np?.destroy());

/** The calls' results made one at a time, after each other. */
async function alone(
  n: Narrowphase,
  scenes: readonly unknown[],
): Promise<CollideResult['manifolds'][]> {
  const out: CollideResult['manifolds'][] = [];
  for (const s of scenes) out.push((await n.collide(s)).manifolds);
  return out;
}

describe('calls in flight on one narrowphase', () => {
  it('20 collide() calls at once, 2D and 3D mixed, each resolve with what the call gives alone', async () => {
    const together = await Promise.allSettled(SCENES.map((s) => np.collide(s)));
    const rejected = together.flatMap((r, i) =>
      r.status === 'rejected' ? [`${i}: ${String(r.reason)}`] : [],
    );
    expect(rejected).toEqual([]);
    const expected = await alone(np, SCENES);
    together.forEach((r, i) =>
      expect((r as PromiseFulfilledResult<CollideResult>).value.manifolds, `scene ${i}`).toEqual(
        expected[i],
      ),
    );
    // The scenes differ (so a mixed-up result would show), and touch.
    expect(new Set(expected.map((m) => m.length)).size).toBeGreaterThan(10);
    expect(expected.every((m) => m.some((x) => x.points.length > 0))).toBe(true);
  }, 900_000);

  it('the packed runner (GpuNarrowphase2D.run) queues its calls too', async () => {
    const device = (await acquireDevice()).device;
    try {
      const runner = await GpuNarrowphase2D.create(device);
      const packed = [1, 2, 3, 4, 5].map((seed) => {
        const scene = parseScene(randomPairScene(seed, 3000, 'mixed')) as Scene2D;
        return packScene2D(scene, scene.pairs!);
      });
      const together = await Promise.all(packed.map((p) => runner.run(p)));
      for (const [i, p] of packed.entries()) {
        expect(new Uint8Array(together[i]!.manifolds), `run ${i}`).toEqual(
          new Uint8Array((await runner.run(p)).manifolds),
        );
      }
      runner.destroy();
    } finally {
      device.destroy();
    }
  });

  it('destroy() lets the calls in flight complete, then refuses collide() and rebuild()', async () => {
    const own = await createNarrowphase({ backend: 'gpu' });
    // 2D and boxes (a fresh device compiles its kernels again; the general 3D one is slow on lavapipe).
    const scenes = SCENES.filter((_, i) => i < 8 && i % 8 !== 5);
    const inFlight = scenes.map((s) => own.collide(s));
    own.destroy();
    const results = await Promise.all(inFlight);
    expect(results.map((r) => r.manifolds)).toEqual(await alone(np, scenes));
    await expect(own.collide(scenes[0])).rejects.toThrow(
      /^this narrowphase was destroyed \(destroy\(\)\); create a new one with createNarrowphase\(\)$/,
    );
    await expect(own.rebuild()).rejects.toThrow(/this narrowphase was destroyed/);
    // Its own device is destroyed once those calls settled.
    expect((await own.lost).reason).toBe('destroyed');
  });

  it('the CPU backend refuses calls after destroy() too', async () => {
    const cpu = await createNarrowphase({ backend: 'cpu' });
    const inFlight = cpu.collide(SCENES[0]);
    cpu.destroy();
    expect((await inFlight).manifolds.length).toBeGreaterThan(0);
    await expect(cpu.collide(SCENES[0])).rejects.toThrow(/this narrowphase was destroyed/);
    await expect(cpu.rebuild()).rejects.toThrow(/this narrowphase was destroyed/);
  });

  it('rebuild() with calls in flight: they complete on the old device, later calls run on the new one', async () => {
    const own = await createNarrowphase({ backend: 'gpu' });
    try {
      const scenes = SCENES.slice(0, 4); // 2D and boxes
      const old = own.device!;
      const inFlight = scenes.map((s) => own.collide(s));
      await own.rebuild();
      expect(own.device).not.toBe(old);
      const expected = await alone(np, scenes);
      expect((await Promise.all(inFlight)).map((r) => r.manifolds)).toEqual(expected);
      expect((await old.lost).reason).toBe('destroyed');
      expect((await own.collide(scenes[0])).manifolds).toEqual(expected[0]);
    } finally {
      own.destroy();
    }
  });
});
