// The resting pairs of test/coherence3d.test.ts (families of pairs posed at random, then wobbled
// for FRAMES frames), as a generator of frames: the coherence test runs the CPU reference on them,
// and test/pair-classes.test.ts runs them through the GPU's pair classes and the general kernel.

import {
  makeShape3D,
  type Quat,
  type Shape3D,
  type Shape3DInput,
  type Vec3,
} from '../../src/shapes3d.ts';
import type { PosedPair3D } from './sweep3d.ts';
import {
  axisAngle,
  mulberry32,
  quatMul,
  randomBox3D,
  randomCapsule3D,
  randomHull3D,
  rotate,
  uniform,
  type Rng,
} from './random3d.ts';

const I: Quat = [0, 0, 0, 1];
export const WOBBLE = 1e-3;
export const POSES = 300;
export const FRAMES = 100;

export interface Family {
  /** A on the ground (its top face up), B on it, B's xy offset. */
  pose(rng: Rng): { a: Shape3DInput; b: Shape3DInput; offset: [number, number] };
  /** Most frames changed, as a fraction (1.4–2.6 times the highest rate measured). */
  bound: number;
  /** Coverage: most frames must have at least this many points (a face resting on a face). */
  points?: number;
}

export const FAMILIES: Record<string, Family> = {
  // Measured (frames changed of 29,700 per seed, seeds 1, 2, 7), now; then with the reduction
  // before (depth tolerance 5e-4 of the size, picks in clip order; seed 1, where it failed first).
  // Two unit cubes at any yaw: their faces overlap in an octagon, 8 clip points, 4 kept.
  // 0–80; 11,532 (the deepest corner followed the wobble; 468 with only the tolerance changed).
  'equal cubes stacked': { pose: () => ({ a: CUBE, b: CUBE, offset: [0, 0] }), bound: 0.006 },
  // Random boxes, B overhanging an edge or a corner of A: a 1e-3 rad tilt moves the reference
  // face between A and B, and the clip order with it: 181–266; 2,429 (764 with only the tolerance
  // changed).
  'box over a box edge': {
    pose: (rng) => ({
      a: randomBox3D(rng, 0.5),
      b: randomBox3D(rng, 0.5),
      offset: [uniform(rng, -0.6, 0.6), uniform(rng, -0.6, 0.6)],
    }),
    bound: 0.02,
  },
  // A random hull on a face of it, on a big box: 0–64; 233.
  'hull on a box': {
    pose: (rng) => ({
      a: GROUND,
      b: randomHull3D(rng, 0.5),
      offset: [uniform(rng, -1, 1), uniform(rng, -1, 1)],
    }),
    bound: 0.006,
  },
  // A box on a face of a random hull (often smaller than the box): 322–596; 1,784.
  'box on a hull': {
    pose: (rng) => ({ a: randomHull3D(rng, 1.5), b: randomBox3D(rng, 0.3), offset: [0, 0] }),
    bound: 0.03,
  },
  // A hull on a face of another: 360–641; 766–1,050.
  'hull on a hull': {
    pose: (rng) => ({ a: randomHull3D(rng, 0.7), b: randomHull3D(rng, 0.5), offset: [0, 0] }),
    bound: 0.03,
  },
  // A capsule lying on a face of a random hull, often longer than the face: its contact is that
  // face clipped to the capsule (2 points), not its single closest point: 336–493; 6,954 (the
  // face axis and the edge axes of the face's boundary tie, and the edges won the tie).
  'capsule on a hull': {
    pose: (rng) => ({ a: randomHull3D(rng, 1.5), b: randomCapsule3D(rng, 0.5), offset: [0, 0] }),
    bound: 0.03,
    points: 2,
  },
};
const CUBE: Shape3DInput = { type: 'box', halfExtents: [0.5, 0.5, 0.5] };
const GROUND: Shape3DInput = { type: 'box', halfExtents: [3, 3, 0.5] };

/** A rotation turning face f of s (a random one for hulls; boxes keep their -z/+z faces) to `to`. */
function faceTo(rng: Rng, s: Shape3D, input: Shape3DInput, to: Vec3): Quat {
  if (input.type !== 'hull') return I;
  const f = Math.floor(rng() * s.faceCount);
  const n: Vec3 = [s.planes[4 * f]!, s.planes[4 * f + 1]!, s.planes[4 * f + 2]!];
  const axis: Vec3 = [
    n[1] * to[2] - n[2] * to[1],
    n[2] * to[0] - n[0] * to[2],
    n[0] * to[1] - n[1] * to[0],
  ];
  const l = Math.hypot(...axis);
  return l < 1e-12 ? I : axisAngle(axis, Math.atan2(l, n[0] * to[0] + n[1] * to[1] + n[2] * to[2]));
}

/** Highest (sign 1) or lowest (sign -1) z of s turned by q (its centre and radius included). */
function reach(s: Shape3D, q: Quat, sign: number): number {
  let best = -Infinity;
  for (let i = 0; i < s.vertexCount; i++) {
    const v = rotate(q, [
      s.vertices[3 * i]! + s.center[0],
      s.vertices[3 * i + 1]! + s.center[1],
      s.vertices[3 * i + 2]! + s.center[2],
    ]);
    best = Math.max(best, sign * v[2]);
  }
  return sign * (best + s.radius);
}

export interface RestingFrame3D extends PosedPair3D {
  /** Frame number within its pose (0 at each new pose). */
  frame: number;
}

/** `poses` poses of `family` (seeded), FRAMES wobbling frames each. */
export function* restingFrames3D(
  family: Family,
  seed: number,
  poses = POSES,
): Generator<RestingFrame3D> {
  const rng = mulberry32(seed);
  for (let c = 0; c < poses; c++) {
    const yaw = axisAngle([0, 0, 1], uniform(rng, 0, 2 * Math.PI));
    const { a, b, offset } = family.pose(rng);
    const sa = makeShape3D(a, 0);
    const sb = makeShape3D(b, 1);
    const qa = faceTo(rng, sa, a, [0, 0, 1]);
    const qb = quatMul(yaw, faceTo(rng, sb, b, [0, 0, -1]));
    // B's lowest point 0.005 below A's top face.
    const z = reach(sa, qa, 1) - reach(sb, qb, -1) - 0.005;
    for (let s = 0; s < FRAMES; s++) {
      const q = quatMul(
        axisAngle([Math.sin(s * 1.7), Math.cos(s * 0.3), 0.2], WOBBLE * Math.sin(s * 0.9)),
        qb,
      );
      const p: Vec3 = [
        offset[0] + WOBBLE * Math.sin(s * 1.3),
        offset[1] + WOBBLE * Math.cos(s * 0.7),
        z + WOBBLE * Math.sin(s * 0.5),
      ];
      yield {
        inputA: a,
        inputB: b,
        a: sa,
        b: sb,
        xa: { position: [0, 0, 0], rotation: qa },
        xb: { position: p, rotation: q },
        margin: 0.01,
        frame: s,
      };
    }
  }
}
