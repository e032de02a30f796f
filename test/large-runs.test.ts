// Runs larger than one binding: collide() and the packed runners go in batches of pairs, as the
// GPU frame does, instead of refusing (before, ~2.8M 2D or ~838k 3D pairs on lavapipe's 128 MiB
// bindings got a CapacityError). Batched slots are byte-identical to an unbatched run's: forced
// small batches on small runs, and a real 2-batch run whose pairs repeat one block of distinct
// pairs, so that every copy across the batch boundary must equal the first. Limits still hit
// (an input no binding holds) are refused naming the buffer and its size in bytes.

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacityError } from '../src/errors.ts';
import { getGpu } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { createNarrowphase } from '../src/narrowphase.ts';
import { packScene2D, type Packed2D } from '../src/pack2d.ts';
import { packScene3D } from '../src/pack3d.ts';
import { randomPairScene } from '../src/random2d.ts';
import { randomPairScene3D } from '../src/random3d.ts';
import { parseScene, type Scene2D, type Scene3D } from '../src/scene.ts';

// WebGPU's default limits (128 MiB bindings, 256 MiB buffers) whatever the adapter allows, so that
// the runs beyond one binding stay this size on any GPU.
let device: GPUDevice;
beforeAll(async () => {
  const adapter = await (await getGpu()).requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  device = await adapter.requestDevice();
  expect(device.limits.maxStorageBufferBindingSize).toBe(2 ** 27);
});
afterAll(() => device?.destroy());

const sha = (b: ArrayBuffer): string =>
  createHash('sha256').update(new Uint8Array(b)).digest('hex');

describe('batches', () => {
  it('2D and 3D runs in forced small batches give the bytes of one batch', async () => {
    const scene2 = parseScene(randomPairScene(11, 3000, 'mixed')) as Scene2D;
    const packed2 = packScene2D(scene2, scene2.pairs!);
    const whole2 = await GpuNarrowphase2D.create(device);
    const small2 = await GpuNarrowphase2D.create(device, undefined, { maxPairsPerDispatch: 600 });
    expect(small2.maxPairsPerDispatch).toBe(512);
    expect(sha((await small2.run(packed2)).manifolds)).toBe(
      sha((await whole2.run(packed2)).manifolds),
    );
    const scene3 = parseScene(randomPairScene3D(12, 1000, 'box3d')) as Scene3D;
    const packed3 = packScene3D(scene3, scene3.pairs!);
    const whole3 = await GpuNarrowphase3D.create(device);
    const small3 = await GpuNarrowphase3D.create(device, undefined, { maxPairsPerDispatch: 256 });
    expect(sha((await small3.run(packed3)).manifolds)).toBe(
      sha((await whole3.run(packed3)).manifolds),
    );
    for (const r of [whole2, small2, whole3, small3]) r.destroy();
  });

  it('collide() of more 2D pairs than one binding holds runs in batches, every repeat of a pair equal', async () => {
    const slot = LAYOUT_2D.manifold.words * 4;
    const perBinding = Math.floor(device.limits.maxStorageBufferBindingSize / slot);
    const block = 5000;
    const scene = parseScene(randomPairScene(13, block, 'mixed')) as Scene2D;
    const copies = Math.ceil((perBinding * 1.05) / block);
    const pairs = new Uint32Array(2 * block * copies);
    for (let c = 0; c < copies; c++) pairs.set(scene.pairs!, 2 * block * c);
    const np = await createNarrowphase({ device });
    try {
      const t0 = performance.now();
      const { manifolds, stats } = await np.collideLazy({ ...scene, pairs });
      console.log(
        `collide of ${stats.pairs} 2D pairs (${perBinding} per binding): ${(performance.now() - t0).toFixed(0)} ms, kernel ${stats.computeMs === null ? '(no timestamps)' : `${stats.computeMs.toFixed(1)} ms`}`,
      );
      expect(stats.pairs).toBeGreaterThan(perBinding);
      expect(manifolds.length).toBe(stats.pairs);
      const first: string[] = [];
      let k = 0;
      let touching = 0;
      let differ = 0;
      for (const m of manifolds) {
        const text = JSON.stringify(m);
        if (k < block) first.push(text);
        else if (text !== first[k % block]) differ++;
        if (m.points.length > 0) touching++;
        k++;
      }
      expect(k).toBe(stats.pairs);
      expect(differ).toBe(0);
      expect(touching).toBeGreaterThan(0.3 * k);
    } finally {
      np.destroy();
    }
  });

  it('an input no binding can hold is refused before any GPU work, in bytes', async () => {
    const runner = await GpuNarrowphase2D.create(device);
    const limit = device.limits.maxStorageBufferBindingSize;
    const bodyBytes = LAYOUT_2D.body.words * 4;
    const tooMany: Packed2D = {
      shapes: new ArrayBuffer(LAYOUT_2D.shape.words * 4),
      bodies: new ArrayBuffer(Math.ceil((limit + 1) / bodyBytes) * bodyBytes),
      pairs: new Uint32Array([0, 1]),
      pairCount: 1,
      margin: 0,
    };
    const err = await runner.run(tooMany).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CapacityError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^bodies: ${tooMany.bodies.byteLength} bytes \\(\\d+ MiB\\) of bodies; this device binds at most ${limit} bytes \\(128 MiB\\) per buffer`,
      ),
    );
    runner.destroy();
  });
});
