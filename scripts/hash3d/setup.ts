// Vitest setup file of ./vitest.config.ts: wraps collide3D and buildHull3D so that every result a
// test file produces is hashed (its inputs follow from the seeded test, its results are what a
// refactor must keep), and writes `test:<file>` hashes to $HASH3D_OUT/<file>.json after the file.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, expect, vi } from 'vitest';
import { hashManifold3D, hashShape3D } from './hash.ts';

const manifolds = createHash('sha256');
const hulls = createHash('sha256');
let calls = 0;
let built = 0;

vi.mock('../../src/cpu/collide3d.ts', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/cpu/collide3d.ts')>();
  return {
    ...mod,
    collide3D: (...a: Parameters<typeof mod.collide3D>): number => {
      const n = mod.collide3D(...a);
      hashManifold3D(manifolds, a[5]);
      calls++;
      return n;
    },
  };
});

vi.mock('../../src/hull3d.ts', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/hull3d.ts')>();
  return {
    ...mod,
    buildHull3D: (...a: Parameters<typeof mod.buildHull3D>): ReturnType<typeof mod.buildHull3D> => {
      let hull: ReturnType<typeof mod.buildHull3D>;
      try {
        hull = mod.buildHull3D(...a);
      } catch (e) {
        hulls.update(`error ${(e as Error).message}`);
        built++;
        throw e;
      }
      hashShape3D(hulls, hull);
      built++;
      return hull;
    },
  };
});

afterAll(() => {
  const dir = process.env.HASH3D_OUT;
  const file = basename(expect.getState().testPath ?? 'unknown', '.test.ts');
  if (!dir) return;
  const out: Record<string, string> = {};
  if (calls > 0) out[`test:${file} collide3D (${calls})`] = manifolds.digest('hex').slice(0, 32);
  if (built > 0) out[`test:${file} buildHull3D (${built})`] = hulls.digest('hex').slice(0, 32);
  writeFileSync(join(dir, `${file}.json`), JSON.stringify(out));
});
