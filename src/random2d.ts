// Seeded random 2D scenes: the CLI's `validate`, the benchmark and the demo draw from these, so a
// seed names the same scene everywhere.

import type { Shape2DInput, Vec2 } from './shapes2d.ts';
import type { SceneJson2D } from './scene.ts';

/** mulberry32: a small, fast, seedable PRNG with a full 2^32 period. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A convex CCW polygon with `n` vertices on a jittered ellipse (angles kept apart, so no collinear vertices). */
export function randomPolygon(random: () => number, n: number, size: number): Vec2[] {
  const angles: number[] = [];
  const step = (2 * Math.PI) / n;
  const start = random() * step;
  for (let i = 0; i < n; i++) angles.push(start + i * step + (random() - 0.5) * 0.5 * step);
  const rx = size * (0.6 + 0.4 * random());
  const ry = size * (0.6 + 0.4 * random());
  return angles.map((t) => [rx * Math.cos(t), ry * Math.sin(t)] as Vec2);
}

export type ShapeMix = 'box' | 'ngon' | 'mixed';

export function randomShape(random: () => number, mix: ShapeMix, size = 0.5): Shape2DInput {
  if (mix === 'box')
    return { type: 'box', halfExtents: [size * (0.5 + random()), size * (0.5 + random())] };
  if (mix === 'ngon') return { type: 'polygon', vertices: randomPolygon(random, 8, size) };
  const k = Math.floor(random() * 5);
  if (k === 0)
    return { type: 'box', halfExtents: [size * (0.5 + random()), size * (0.5 + random())] };
  if (k === 1)
    return {
      type: 'polygon',
      vertices: randomPolygon(random, 3 + Math.floor(random() * 6), size),
      radius: random() < 0.3 ? 0.1 * size : 0,
    };
  if (k === 2) return { type: 'circle', radius: size * (0.5 + random()) };
  const h = size * (0.3 + random());
  if (k === 3)
    return { type: 'capsule', a: [-h, 0], b: [h, 0], radius: size * (0.2 + 0.5 * random()) };
  return { type: 'polygon', vertices: randomPolygon(random, 8, size) };
}

/**
 * `pairCount` pairs of fresh bodies placed close enough to overlap or nearly touch, as a
 * broadphase would hand them over; shapes are shared from a pool of `min(pairCount, 256)`.
 */
export function randomPairScene(
  seed: number,
  pairCount: number,
  mix: ShapeMix,
  margin = 0.02,
): SceneJson2D {
  const random = rng(seed);
  const poolSize = Math.max(2, Math.min(256, pairCount));
  const shapes = Array.from({ length: poolSize }, () => randomShape(random, mix));
  const bodies: SceneJson2D['bodies'] = [];
  const pairs: [number, number][] = [];
  const side = Math.ceil(Math.sqrt(pairCount));
  for (let k = 0; k < pairCount; k++) {
    const x = 10 * (k % side);
    const y = 10 * Math.floor(k / side);
    const d = 0.3 + 0.9 * random();
    const t = 2 * Math.PI * random();
    bodies.push({
      shape: Math.floor(random() * poolSize),
      position: [x, y],
      angle: 2 * Math.PI * random(),
    });
    bodies.push({
      shape: Math.floor(random() * poolSize),
      position: [x + d * Math.cos(t), y + d * Math.sin(t)],
      angle: 2 * Math.PI * random(),
    });
    pairs.push([2 * k, 2 * k + 1]);
  }
  return { dim: 2, margin, shapes, bodies, pairs };
}
