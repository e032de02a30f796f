// Determinism of both 2D backends: a fixed, seeded 100k-pair scene of every shape-pair type gives
// a bit-identical manifold buffer (SHA-256) on every run. The GPU runs: twice on one
// GpuNarrowphase2D, then once more on it after a larger, different scene has left stale data in
// its pooled buffers, and once on a fresh instance. The CPU runs: into fresh buffers and into a
// buffer pre-filled with garbage (every word of every slot must be written).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { manifoldBytes2D, packScene2D, type Packed2D } from '../src/pack2d.ts';
import { parseScene2D } from '../src/scene.ts';
import { mixedScene } from './helpers/random2d.ts';

const PAIRS = 100_000;
const SEED = 0xd37e2;

function sha256(buf: ArrayBuffer): string {
  return createHash('sha256').update(new Uint8Array(buf)).digest('hex');
}

function packMixed(seed: number, pairs: number): { packed: Packed2D; shapeCount: number } {
  const parsed = parseScene2D(mixedScene(seed, pairs).scene());
  return { packed: packScene2D(parsed, parsed.pairs!), shapeCount: parsed.shapes.length };
}

let acquired: AcquiredDevice;
let scene: { packed: Packed2D; shapeCount: number };

beforeAll(async () => {
  acquired = await acquireDevice();
  scene = packMixed(SEED, PAIRS);
});

afterAll(() => {
  acquired?.device.destroy();
});

describe(`2D determinism: a seeded ${PAIRS}-pair mixed scene`, () => {
  it('hashes identically on every GPU run', async () => {
    const gpu = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps);
    const hashes: string[] = [];
    const touching: number[] = [];
    try {
      for (let run = 0; run < 3; run++) {
        if (run === 2) {
          // Stale data: a larger, different scene through the same pooled buffers first.
          const other = packMixed(SEED + 1, PAIRS + 20_000);
          await gpu.run(other.packed);
        }
        const out = (await gpu.run(scene.packed)).manifolds;
        expect(out.byteLength).toBe(manifoldBytes2D(PAIRS));
        hashes.push(sha256(out));
        touching.push(countTouching(out));
      }
    } finally {
      gpu.destroy();
    }
    const fresh = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps);
    try {
      hashes.push(sha256((await fresh.run(scene.packed)).manifolds));
    } finally {
      fresh.destroy();
    }
    console.log(
      `GPU (${acquired.adapter.name}) manifold SHA-256, ${PAIRS} pairs, ${touching[0]} touching:\n  ${hashes.join('\n  ')}`,
    );
    expect(new Set(hashes).size, `GPU hashes differ: ${hashes.join(', ')}`).toBe(1);
    expect(touching[0], 'the scene is not trivially empty').toBeGreaterThan(PAIRS / 2);
  });

  it('hashes identically on every CPU run', () => {
    const hashes: string[] = [];
    for (let run = 0; run < 3; run++) {
      const prepared = prepareCpu2D(scene.packed, scene.shapeCount);
      let out: ArrayBuffer;
      if (run === 2) {
        out = new ArrayBuffer(manifoldBytes2D(PAIRS));
        new Uint8Array(out).fill(0xa5); // garbage: a word the reference forgets to write shows up
        collidePacked2D(prepared, scene.packed, out);
      } else {
        out = collidePacked2D(prepared, scene.packed);
      }
      hashes.push(sha256(out));
    }
    console.log(`CPU reference manifold SHA-256, ${PAIRS} pairs:\n  ${hashes.join('\n  ')}`);
    expect(new Set(hashes).size, `CPU hashes differ: ${hashes.join(', ')}`).toBe(1);
  });

  it('the scene itself is reproducible from its seed', () => {
    const again = packMixed(SEED, PAIRS);
    expect(sha256(again.packed.shapes)).toBe(sha256(scene.packed.shapes));
    expect(sha256(again.packed.bodies)).toBe(sha256(scene.packed.bodies));
    expect(sha256(again.packed.pairs.slice().buffer)).toBe(
      sha256(scene.packed.pairs.slice().buffer),
    );
  });
});

function countTouching(buf: ArrayBuffer): number {
  const u = new Uint32Array(buf);
  const M = LAYOUT_2D.manifold;
  let n = 0;
  for (let k = 0; k < PAIRS; k++) if (u[k * M.words + M.count]! > 0) n++;
  return n;
}
