// The 2D shape pool of the demo's scenes: boxes, convex polygons (some rounded), circles and
// capsules in about equal numbers, around `size` (half extent), from a seeded generator.

import { randomPolygon } from '../../src/random2d.ts';
import type { Shape2DInput } from '../../src/shapes2d.ts';

export function randomShapePool2D(
  random: () => number,
  count: number,
  size: number,
): Shape2DInput[] {
  const between = (lo: number, hi: number): number => lo + (hi - lo) * random();
  return Array.from({ length: count }, (_, i): Shape2DInput => {
    switch (i % 4) {
      case 0:
        return { type: 'box', halfExtents: [size * between(0.6, 1), size * between(0.4, 0.9)] };
      case 1: {
        const rounded = random() < 0.3;
        return {
          type: 'polygon',
          vertices: randomPolygon(random, 3 + Math.floor(random() * 6), size * (rounded ? 0.8 : 1)),
          ...(rounded ? { radius: 0.2 * size } : {}),
        };
      }
      case 2:
        return { type: 'circle', radius: size * between(0.5, 0.9) };
      default: {
        const h = size * between(0.35, 0.6);
        return { type: 'capsule', a: [-h, 0], b: [h, 0], radius: size * between(0.25, 0.4) };
      }
    }
  });
}
