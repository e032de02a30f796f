// The pairs of test/sweep3d.test.ts (random shapes of every pair type, random and nearly aligned
// poses, overlapping to touching), as a generator: the sweep runs the CPU reference on them, and
// test/pair-classes.test.ts runs them through the GPU's pair classes and the general kernel.

import { rng } from '../../src/random2d.ts';
import {
  makeShape3D,
  type Quat,
  type Shape3D,
  type Shape3DInput,
  type Vec3,
} from '../../src/shapes3d.ts';

function randQuat(r: () => number): Quat {
  // Half random, half within ~0.01 rad of a multiple of 90° about a random axis (face-face cases).
  if (r() < 0.5) {
    const u1 = r(),
      u2 = r(),
      u3 = r();
    const a = Math.sqrt(1 - u1),
      b = Math.sqrt(u1);
    return [
      a * Math.sin(2 * Math.PI * u2),
      a * Math.cos(2 * Math.PI * u2),
      b * Math.sin(2 * Math.PI * u3),
      b * Math.cos(2 * Math.PI * u3),
    ];
  }
  const k = Math.floor(r() * 4) * (Math.PI / 2) + 0.01 * (r() - 0.5);
  const axis = Math.floor(r() * 3);
  const s = Math.sin(k / 2);
  return [axis === 0 ? s : 0, axis === 1 ? s : 0, axis === 2 ? s : 0, Math.cos(k / 2)];
}

function randomShapeInput(r: () => number, type: string): Shape3DInput {
  const s = 0.3 + r();
  switch (type) {
    case 'box':
      return { type: 'box', halfExtents: [s, 0.3 + r(), 0.3 + r()] };
    case 'hull':
      return {
        type: 'hull',
        vertices: Array.from(
          { length: 6 + Math.floor(r() * 20) },
          () => [s * (2 * r() - 1), 2 * r() - 1, 2 * r() - 1] as Vec3,
        ),
      };
    case 'sphere':
      return { type: 'sphere', radius: 0.2 + r() };
    default:
      return { type: 'capsule', a: [-s, 0, 0], b: [s, 0, 0], radius: 0.1 + 0.5 * r() };
  }
}

export const SWEEP_KINDS_3D = ['box', 'hull', 'sphere', 'capsule'];

/** Two shapes (as given and as made) posed for collide3D, and the margin. */
export interface PosedPair3D {
  inputA: Shape3DInput;
  inputB: Shape3DInput;
  a: Shape3D;
  b: Shape3D;
  xa: { position: Vec3; rotation: Quat };
  xb: { position: Vec3; rotation: Quat };
  margin: number;
}

export interface SweepPair3D extends PosedPair3D {
  ta: string;
  tb: string;
}

/** `count` pairs: pair i of types SWEEP_KINDS_3D[i % 4] and SWEEP_KINDS_3D[⌊i / 4⌋ % 4]. */
export function* sweepPairs3D(seed: number, count: number): Generator<SweepPair3D> {
  const r = rng(seed);
  for (let i = 0; i < count; i++) {
    const ta = SWEEP_KINDS_3D[i % 4]!;
    const tb = SWEEP_KINDS_3D[Math.floor(i / 4) % 4]!;
    const inputA = randomShapeInput(r, ta);
    const a = makeShape3D(inputA, 0);
    const inputB = randomShapeInput(r, tb);
    const b = makeShape3D(inputB, 1);
    const qa = randQuat(r);
    const qb = randQuat(r);
    const d = (a.extent + b.extent) * 0.8 * r();
    const dir = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
    const l = Math.hypot(dir[0]!, dir[1]!, dir[2]!);
    const pa: Vec3 = [10 * r(), -5 * r(), 3];
    const pb: Vec3 = [
      pa[0] + (dir[0]! / l) * d,
      pa[1] + (dir[1]! / l) * d,
      pa[2] + (dir[2]! / l) * d,
    ];
    const margin = r() < 0.5 ? 0 : 0.05 * Math.min(a.extent, b.extent);
    yield {
      ta,
      tb,
      inputA,
      inputB,
      a,
      b,
      xa: { position: pa, rotation: qa },
      xb: { position: pb, rotation: qb },
      margin,
    };
  }
}
