// Seeded random 3D scenes: the CLI's `validate` (and the benchmark) draw from these, so a seed
// names the same scene everywhere. Half the pairs are nearly axis aligned (multiples of 90° plus
// up to 0.01 rad): random poses alone rarely give face–face contacts.

import { rng } from './random2d.ts';
import type { SceneJson3D } from './scene.ts';
import type { Quat, Shape3DInput, Vec3 } from './shapes3d.ts';

export type ShapeMix3D = 'box3d' | 'hull3d' | 'mixed3d';
export const SHAPE_MIXES_3D: readonly ShapeMix3D[] = ['box3d', 'hull3d', 'mixed3d'];

function randomUnit(random: () => number): Vec3 {
  for (;;) {
    const v: Vec3 = [2 * random() - 1, 2 * random() - 1, 2 * random() - 1];
    const l = Math.hypot(v[0], v[1], v[2]);
    if (l > 0.1 && l <= 1) return [v[0] / l, v[1] / l, v[2] / l];
  }
}

/** A random unit quaternion, or (half the time) a multiple of 90° about an axis plus a little. */
export function randomRotation3D(random: () => number): Quat {
  if (random() < 0.5) {
    const u1 = random(),
      u2 = random(),
      u3 = random();
    const a = Math.sqrt(1 - u1),
      b = Math.sqrt(u1);
    return [
      a * Math.sin(2 * Math.PI * u2),
      a * Math.cos(2 * Math.PI * u2),
      b * Math.sin(2 * Math.PI * u3),
      b * Math.cos(2 * Math.PI * u3),
    ];
  }
  const angle = (Math.PI / 2) * Math.floor(4 * random()) + 0.01 * (random() - 0.5);
  const axis = Math.floor(3 * random());
  const s = Math.sin(angle / 2);
  return [axis === 0 ? s : 0, axis === 1 ? s : 0, axis === 2 ? s : 0, Math.cos(angle / 2)];
}

/** `n` points on an ellipsoid of about `size` (a convex hull of n vertices, mostly triangles). */
export function randomHullPoints3D(random: () => number, n: number, size: number): Vec3[] {
  const ax = size * (0.6 + 0.6 * random()),
    ay = size * (0.6 + 0.6 * random()),
    az = size * (0.6 + 0.6 * random());
  return Array.from({ length: n }, () => {
    const u = randomUnit(random);
    return [ax * u[0], ay * u[1], az * u[2]] as Vec3;
  });
}

export function randomShape3D(random: () => number, mix: ShapeMix3D, size = 0.5): Shape3DInput {
  const box = (): Shape3DInput => ({
    type: 'box',
    halfExtents: [size * (0.5 + random()), size * (0.5 + random()), size * (0.5 + random())],
  });
  if (mix === 'box3d') return box();
  if (mix === 'hull3d')
    return {
      type: 'hull',
      vertices: randomHullPoints3D(random, 8 + Math.floor(25 * random()), size),
    };
  const k = Math.floor(random() * 4);
  if (k === 0) return box();
  if (k === 1)
    return {
      type: 'hull',
      vertices: randomHullPoints3D(random, 8 + Math.floor(25 * random()), size),
    };
  if (k === 2) return { type: 'sphere', radius: size * (0.5 + random()) };
  const h = size * (0.3 + random());
  return { type: 'capsule', a: [-h, 0, 0], b: [h, 0, 0], radius: size * (0.2 + 0.5 * random()) };
}

/**
 * `pairCount` pairs of fresh bodies placed close enough to overlap or nearly touch, as a
 * broadphase would hand them over; shapes are shared from a pool of `min(pairCount, 256)`.
 */
export function randomPairScene3D(
  seed: number,
  pairCount: number,
  mix: ShapeMix3D,
  margin = 0.02,
): SceneJson3D {
  const random = rng(seed);
  const poolSize = Math.max(2, Math.min(256, pairCount));
  const shapes = Array.from({ length: poolSize }, () => randomShape3D(random, mix));
  const bodies: SceneJson3D['bodies'] = [];
  const pairs: [number, number][] = [];
  const side = Math.ceil(Math.cbrt(pairCount));
  for (let k = 0; k < pairCount; k++) {
    const p: Vec3 = [
      10 * (k % side),
      10 * (Math.floor(k / side) % side),
      10 * Math.floor(k / (side * side)),
    ];
    const u = randomUnit(random);
    const d = 0.4 + 1.1 * random();
    bodies.push({
      shape: Math.floor(random() * poolSize),
      position: p,
      rotation: randomRotation3D(random),
    });
    bodies.push({
      shape: Math.floor(random() * poolSize),
      position: [p[0] + d * u[0], p[1] + d * u[1], p[2] + d * u[2]],
      rotation: randomRotation3D(random),
    });
    pairs.push([2 * k, 2 * k + 1]);
  }
  return { dim: 3, margin, shapes, bodies, pairs };
}
