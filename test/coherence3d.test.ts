// Frame-to-frame coherence of resting 3D contacts (CPU reference; the WGSL mirrors it and the
// GPU-vs-CPU tests hold the two together). A solver warm-starts each point from last frame's
// point with the same feature id, so a resting pair whose kept points change from frame to frame
// loses its warm start and creeps. Families of resting pairs, each posed at random and then
// wobbled for 100 frames by up to 1e-3 rad and moved by up to 1e-3 of its size each frame (what a
// resting box does under a solver); the test counts frames whose point set (count and ids)
// differs from the frame before. Some changes are geometry, not flicker: a corner that crosses a
// side plane, two candidates whose reduction scores cross the 0.95 hysteresis ratio, a hull
// hanging over its support's edge. The bounds sit at 1.4–2.6 times the highest rate measured.

import { describe, expect, it } from 'vitest';
import { makeShape3D, type Quat, type Shape3D, type Shape3DInput, type Vec3 } from '../src/shapes3d.ts';
import { collide3D } from '../src/cpu/collide3d.ts';
import { emptyManifold3D } from '../src/cpu/manifold3d.ts';
import { axisAngle, mulberry32, quatMul, randomBox3D, randomCapsule3D, randomHull3D, rotate, uniform, type Rng } from './helpers/random3d.ts';

const I: Quat = [0, 0, 0, 1];
const WOBBLE = 1e-3;
const POSES = 300;
const FRAMES = 100;

interface Family {
  /** A on the ground (its top face up), B on it, B's xy offset. */
  pose(rng: Rng): { a: Shape3DInput; b: Shape3DInput; offset: [number, number] };
  /** Most frames changed, as a fraction (1.4–2.6 times the highest rate measured). */
  bound: number;
  /** Coverage: most frames must have at least this many points (a face resting on a face). */
  points?: number;
}

const FAMILIES: Record<string, Family> = {
  // Measured (frames changed of 29,700 per seed, seeds 1, 2, 7), now; then with the reduction
  // before (depth tolerance 5e-4 of the size, picks in clip order; seed 1, where it failed first).
  // Two unit cubes at any yaw: their faces overlap in an octagon, 8 clip points, 4 kept.
  // 0–80; 11,532 (the deepest corner followed the wobble; 468 with only the tolerance changed).
  'equal cubes stacked': { pose: () => ({ a: CUBE, b: CUBE, offset: [0, 0] }), bound: 0.006 },
  // Random boxes, B overhanging an edge or a corner of A: a 1e-3 rad tilt moves the reference
  // face between A and B, and the clip order with it: 181–266; 2,429 (764 with only the tolerance
  // changed).
  'box over a box edge': {
    pose: (rng) => ({ a: randomBox3D(rng, 0.5), b: randomBox3D(rng, 0.5), offset: [uniform(rng, -0.6, 0.6), uniform(rng, -0.6, 0.6)] }),
    bound: 0.02,
  },
  // A random hull on a face of it, on a big box: 0–64; 233.
  'hull on a box': {
    pose: (rng) => ({ a: GROUND, b: randomHull3D(rng, 0.5), offset: [uniform(rng, -1, 1), uniform(rng, -1, 1)] }),
    bound: 0.006,
  },
  // A box on a face of a random hull (often smaller than the box): 322–596; 1,784.
  'box on a hull': { pose: (rng) => ({ a: randomHull3D(rng, 1.5), b: randomBox3D(rng, 0.3), offset: [0, 0] }), bound: 0.03 },
  // A hull on a face of another: 360–641; 766–1,050.
  'hull on a hull': { pose: (rng) => ({ a: randomHull3D(rng, 0.7), b: randomHull3D(rng, 0.5), offset: [0, 0] }), bound: 0.03 },
  // A capsule lying on a face of a random hull, often longer than the face: its contact is that
  // face clipped to the capsule (2 points), not its single closest point: 336–493; 6,954 (the
  // face axis and the edge axes of the face's boundary tie, and the edges won the tie).
  'capsule on a hull': { pose: (rng) => ({ a: randomHull3D(rng, 1.5), b: randomCapsule3D(rng, 0.5), offset: [0, 0] }), bound: 0.03, points: 2 },
};
const CUBE: Shape3DInput = { type: 'box', halfExtents: [0.5, 0.5, 0.5] };
const GROUND: Shape3DInput = { type: 'box', halfExtents: [3, 3, 0.5] };

/** A rotation turning face f of s (a random one for hulls; boxes keep their -z/+z faces) to `to`. */
function faceTo(rng: Rng, s: Shape3D, input: Shape3DInput, to: Vec3): Quat {
  if (input.type !== 'hull') return I;
  const f = Math.floor(rng() * s.faceCount);
  const n: Vec3 = [s.planes[4 * f]!, s.planes[4 * f + 1]!, s.planes[4 * f + 2]!];
  const axis: Vec3 = [n[1] * to[2] - n[2] * to[1], n[2] * to[0] - n[0] * to[2], n[0] * to[1] - n[1] * to[0]];
  const l = Math.hypot(...axis);
  return l < 1e-12 ? I : axisAngle(axis, Math.atan2(l, n[0] * to[0] + n[1] * to[1] + n[2] * to[2]));
}

/** Highest (sign 1) or lowest (sign -1) z of s turned by q (its centre and radius included). */
function reach(s: Shape3D, q: Quat, sign: number): number {
  let best = -Infinity;
  for (let i = 0; i < s.vertexCount; i++) {
    const v = rotate(q, [s.vertices[3 * i]! + s.center[0], s.vertices[3 * i + 1]! + s.center[1], s.vertices[3 * i + 2]! + s.center[2]]);
    best = Math.max(best, sign * v[2]);
  }
  return sign * (best + s.radius);
}

function run(family: Family, seed: number): { changed: number; frames: number; multi: number } {
  const points = family.points ?? 3;
  const rng = mulberry32(seed);
  const m = emptyManifold3D();
  let changed = 0;
  let frames = 0;
  let multi = 0;
  for (let c = 0; c < POSES; c++) {
    const yaw = axisAngle([0, 0, 1], uniform(rng, 0, 2 * Math.PI));
    const { a, b, offset } = family.pose(rng);
    const sa = makeShape3D(a, 0);
    const sb = makeShape3D(b, 1);
    const qa = faceTo(rng, sa, a, [0, 0, 1]);
    const qb = quatMul(yaw, faceTo(rng, sb, b, [0, 0, -1]));
    // B's lowest point 0.005 below A's top face.
    const z = reach(sa, qa, 1) - reach(sb, qb, -1) - 0.005;
    let last = '';
    for (let s = 0; s < FRAMES; s++) {
      const q = quatMul(axisAngle([Math.sin(s * 1.7), Math.cos(s * 0.3), 0.2], WOBBLE * Math.sin(s * 0.9)), qb);
      const p: Vec3 = [offset[0] + WOBBLE * Math.sin(s * 1.3), offset[1] + WOBBLE * Math.cos(s * 0.7), z + WOBBLE * Math.sin(s * 0.5)];
      collide3D(sa, { position: [0, 0, 0], rotation: qa }, sb, { position: p, rotation: q }, 0.01, m);
      if (m.count >= points) multi++;
      const key = `${m.count}:${Array.from(m.ids.subarray(0, m.count)).sort().join()}`;
      if (s > 0) {
        frames++;
        if (key !== last) changed++;
      }
      last = key;
    }
  }
  return { changed, frames, multi };
}

describe('resting 3D contacts keep their points from frame to frame', () => {
  for (const [name, family] of Object.entries(FAMILIES)) {
    it(`${name}: wobbling by 1e-3, at most ${100 * family.bound}% of frames change their point set`, () => {
      for (const seed of [1, 2, 7]) {
        const { changed, frames, multi } = run(family, seed);
        console.log(`${name}, seed ${seed}: ${changed} of ${frames} frames changed their points; ${multi} of ${POSES * FRAMES} frames had ${family.points ?? 3} or more`);
        // Coverage: the family rests on faces (most frames have that many points).
        expect(multi).toBeGreaterThan(0.4 * POSES * FRAMES);
        expect(changed).toBeLessThanOrEqual(family.bound * frames);
      }
    });
  }
});
