// Host broadphase for 3D scenes given without pairs: sweep-and-prune (src/broadphase.ts, shared
// with 2D) over world AABBs grown by the margin, so every pair whose surfaces are within the
// margin is reported. Output: pairs (a < b), sorted by a then b.

import { bodyFilters, sweepAndPruneBoxes } from './broadphase.ts';
import { AABB_F32_STEPS, AABB_RELATIVE_PAD } from './constants.ts';
import { coreVerticesBox3D } from './core-boxes.ts';
import { shapeKind3D } from './shape-kinds3d.ts';
import type { Scene3D } from './scene.ts';

/** World AABBs (minX, minY, minZ, maxX, maxY, maxZ per body) grown by `grow`. */
export function bodyAabbs3D(scene: Scene3D, grow: number): Float64Array {
  const n = scene.bodyShape.length;
  const out = new Float64Array(6 * n);
  const lo = [0, 0, 0];
  const hi = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const shape = scene.shapes[scene.bodyShape[i]];
    const x = scene.bodyRotation[4 * i];
    const y = scene.bodyRotation[4 * i + 1];
    const z = scene.bodyRotation[4 * i + 2];
    const w = scene.bodyRotation[4 * i + 3];
    // Rotation matrix rows.
    const m = [
      1 - 2 * (y * y + z * z),
      2 * (x * y - w * z),
      2 * (x * z + w * y),
      2 * (x * y + w * z),
      1 - 2 * (x * x + z * z),
      2 * (y * z - w * x),
      2 * (x * z - w * y),
      2 * (y * z + w * x),
      1 - 2 * (x * x + y * y),
    ];
    const p = [
      scene.bodyPosition[3 * i],
      scene.bodyPosition[3 * i + 1],
      scene.bodyPosition[3 * i + 2],
    ];
    const c = shape.center;
    // The kind's box of the core (src/shape-kinds3d.ts); one outside the table (a hand-built
    // shape, refused when packed) takes its core vertices' box.
    const box = shapeKind3D(shape.kind)?.box ?? coreVerticesBox3D;
    box(shape, m, p, lo, hi);
    // The narrowphase sees f32-rounded positions, rotations and vertices: pad by a few f32 steps
    // of the coordinates (as in 2D) and 1e-6 of the size (src/constants.ts; shaders/aabb3d.wgsl too).
    const f32Steps =
      AABB_F32_STEPS *
      2 ** -23 *
      (Math.abs(p[0]) +
        Math.abs(p[1]) +
        Math.abs(p[2]) +
        Math.hypot(c[0], c[1], c[2]) +
        shape.extent);
    const r = shape.radius + grow + AABB_RELATIVE_PAD * shape.extent + f32Steps;
    for (let k = 0; k < 3; k++) {
      out[6 * i + k] = lo[k] - r;
      out[6 * i + 3 + k] = hi[k] + r;
    }
  }
  return out;
}

/** All body pairs whose AABBs (grown by the margin) overlap and whose shapes' filters let them collide. */
export function sweepAndPrune3D(scene: Scene3D): Uint32Array {
  return sweepAndPruneBoxes(
    bodyAabbs3D(scene, scene.margin),
    scene.bodyShape.length,
    3,
    bodyFilters(scene.shapes, scene.bodyShape),
  );
}
