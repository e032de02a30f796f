// Random collision filters for the broadphase tests (src/filter.ts): shape i is in category
// 1 << (i % 4); a quarter of the shapes meet every category, a quarter every one but their own, a
// quarter only their own, a quarter categories 1 and 3 (bits 0 and 2). Seeded, so reproducible.

import { expect } from 'vitest';
import { shouldCollide } from '../../src/filter.ts';

export function assignRandomFilters(
  shapes: { categoryBits: number; maskBits: number }[],
  r: () => number,
): void {
  shapes.forEach((s, i) => {
    s.categoryBits = 1 << (i % 4);
    const u = r();
    s.maskBits =
      u < 0.25 ? 0xffffffff : u < 0.5 ? ~s.categoryBits >>> 0 : u < 0.75 ? s.categoryBits : 0x5;
  });
}

/** How many of `pairs` the shapes' filters let collide, for coverage guards. */
export function passingPairs(
  pairs: Uint32Array,
  bodyShape: Uint32Array,
  shapes: readonly { categoryBits: number; maskBits: number }[],
): number {
  let n = 0;
  for (let k = 0; k < pairs.length; k += 2) {
    const a = shapes[bodyShape[pairs[k]!]!]!;
    const b = shapes[bodyShape[pairs[k + 1]!]!]!;
    if (shouldCollide(a.categoryBits, a.maskBits, b.categoryBits, b.maskBits)) n++;
  }
  return n;
}

type Filtered = { categoryBits: number; maskBits: number };

/**
 * Gives the scene's shapes random filters, then checks the GPU against the host with
 * `expectHostPairs` (the per-dimension test's): no borderline pairs, exactly the unfiltered pairs
 * that pass, and (coverage) many removed and many kept.
 */
export async function expectFilteredLikeHost<
  S extends { shapes: Filtered[]; bodyShape: Uint32Array },
>(
  scene: S,
  sweep: (scene: S) => Uint32Array,
  expectHostPairs: (scene: S) => Promise<{ host: Uint32Array; borderline: number }>,
  r: () => number,
): Promise<void> {
  const unfiltered = sweep(scene);
  assignRandomFilters(scene.shapes, r);
  const { host, borderline } = await expectHostPairs(scene);
  expect(borderline).toBe(0);
  expect(host.length / 2).toBe(passingPairs(unfiltered, scene.bodyShape, scene.shapes));
  expect(host.length / 2).toBeGreaterThan(0.2 * (unfiltered.length / 2));
  expect(host.length / 2).toBeLessThan(0.8 * (unfiltered.length / 2));
}
