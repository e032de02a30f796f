// Host broadphase for 2D scenes given without pairs: sweep-and-prune over world AABBs. Boxes are
// grown by the margin, so every pair whose surfaces are within the margin is reported. Output:
// pairs (a < b), sorted by a then b, so results come out in a deterministic order.

import { AABB_F32_STEPS, AABB_RELATIVE_PAD } from './constants.ts';
import { bodyFilters, sweepAndPruneBoxes } from './broadphase.ts';
import { coreVerticesBox2D } from './core-boxes.ts';
import { shapeKind2D } from './shape-kinds2d.ts';
import type { Scene2D } from './scene.ts';

/** World AABBs (minX, minY, maxX, maxY per body) grown by `grow`. */
export function bodyAabbs2D(scene: Scene2D, grow: number): Float64Array {
  const n = scene.bodyShape.length;
  const out = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const shape = scene.shapes[scene.bodyShape[i]];
    const c = Math.cos(scene.bodyAngle[i]);
    const s = Math.sin(scene.bodyAngle[i]);
    const px = scene.bodyPosition[2 * i];
    const py = scene.bodyPosition[2 * i + 1];
    // The kind's box of the core (src/shape-kinds2d.ts); one outside the table (a hand-built
    // shape, refused when packed) takes its core vertices' box.
    const box = shapeKind2D(shape.kind)?.box ?? coreVerticesBox2D;
    box(shape, c, s, px, py, out, 4 * i);
    // The narrowphase sees f32-rounded positions and vertices: far from the origin a body moves by
    // up to half an f32 step of its coordinates (0.03 at 1e6). Pad by a few steps so no pair the
    // narrowphase finds touching is missed.
    const f32Steps = AABB_F32_STEPS * 2 ** -23 * (Math.abs(px) + Math.abs(py) + shape.extent);
    const r = shape.radius + grow + AABB_RELATIVE_PAD * shape.extent + f32Steps;
    out[4 * i] -= r;
    out[4 * i + 1] -= r;
    out[4 * i + 2] += r;
    out[4 * i + 3] += r;
  }
  return out;
}

/** All body pairs whose AABBs (grown by the margin) overlap and whose shapes' filters let them collide. */
export function sweepAndPrune2D(scene: Scene2D): Uint32Array {
  return sweepAndPruneBoxes(
    bodyAabbs2D(scene, scene.margin),
    scene.bodyShape.length,
    2,
    bodyFilters(scene.shapes, scene.bodyShape),
  );
}
