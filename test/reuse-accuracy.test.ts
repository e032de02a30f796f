// What manifold reuse costs against fresh manifolds (CPU reference; the GPU equals it, see
// test/reuse-gpu-vs-cpu.test.ts), on wobbling settled piles and on the coherence families, frame
// by frame (test/helpers/reuse-frames.ts has the scenes and the measures). The bounds are the
// solver's slops (Box2D: linear slop 0.005 × size, angular slop 2°) and the reuse rates a
// wobbling pile must keep; the measured values (docs/manifold-reuse.md) sit well inside them.

import { describe, expect, it } from 'vitest';
import { REUSE_ROTATION } from '../src/constants.ts';
import { REUSE_ROTATION_3D } from '../src/constants3d.ts';
import {
  COHERENCE_FAMILIES,
  LINEAR_SLOP,
  coherenceFamily,
  measureReuse,
  pile2D,
  pile3D,
  type ReuseCost,
  type ReuseWorld,
} from './helpers/reuse-frames.ts';

const FRAMES = 30;
const ANGULAR_SLOP = (2 * Math.PI) / 180;

function row(world: ReuseWorld, c: ReuseCost): string {
  const pf = c.pairs * c.frames;
  const pct = (x: number, of: number): string => (of > 0 ? `${((100 * x) / of).toFixed(1)}%` : '–');
  const deg = (x: number): string => `${((x * 180) / Math.PI).toFixed(2)}°`;
  return (
    `| ${world.name} | ${c.pairs} | ${pct(c.kept + c.apart, pf)} (${pct(c.kept, pf)} / ${pct(c.apart, pf)}) | ${pct(c.touchingReused, c.touching)} | ${pct(c.apart, pf - c.touching)} | ` +
    `${deg(c.normalError)} | ${c.depthError.toExponential(1)} | ${c.switched} (${c.switchedDepthError.toExponential(1)}) | ${c.dropped} | ` +
    `${c.missing} / ${c.stale} of ${c.freshPoints} | ${c.missing > 0 ? c.missingDeepest.toFixed(3) : '–'} | ${c.phantom} | ${c.apartWrong} |`
  );
}

const HEADER =
  '| scene | pairs | reused (kept / apart) | touching reused | empty proven apart | normal error | deepest-depth error / scale | switched (depth error) | points dropped | missing / stale | deepest missing / scale | phantom | apart wrong |';

function expectWithinSlops(world: ReuseWorld, c: ReuseCost, minTouchingReused: number): void {
  const rotation = world.dim === 2 ? REUSE_ROTATION : REUSE_ROTATION_3D;
  // The proof that a pair is apart is exact: a fresh collide never finds a contact there.
  expect(c.apartWrong, world.name).toBe(0);
  expect(c.phantom, world.name).toBeLessThanOrEqual(1e-4 * c.kept);
  // Agreeing normals: off by at most the relative turn since the anchor, far inside 2°.
  expect(c.normalError, world.name).toBeLessThanOrEqual(2 * rotation);
  expect(c.normalError, world.name).toBeLessThan(ANGULAR_SLOP);
  // The deepest depth within the linear slop on every reused pair-frame, agreeing or switched.
  expect(c.depthOverSlop, world.name).toBe(0);
  expect(Math.max(c.depthError, c.switchedDepthError), world.name).toBeLessThan(LINEAR_SLOP);
  // Points the reused manifold lacks are few.
  expect(c.missing, world.name).toBeLessThan(0.03 * c.freshPoints);
  expect(c.touchingReused / c.touching, world.name).toBeGreaterThan(minTouchingReused);
}

describe('what manifold reuse costs against fresh manifolds (CPU)', () => {
  it('wobbling piles (the bench wobble: 1e-3 of the size, 1e-3 rad, every body, every frame)', async () => {
    const lines = [HEADER, `|${' --- |'.repeat(13)}`];
    for (const world of [
      pile2D(20, false),
      pile2D(20, true),
      pile3D(7, 'bricks'),
      pile3D(7, 'block'),
      pile3D(7, 'mixed'),
    ]) {
      const c = await measureReuse(world, FRAMES);
      lines.push(row(world, c));
      expectWithinSlops(world, c, 0.97);
    }
    console.log(lines.join('\n'));
  });

  it('the coherence families of test/coherence3d.test.ts', async () => {
    const lines = [HEADER, `|${' --- |'.repeat(13)}`];
    for (const name of Object.keys(COHERENCE_FAMILIES)) {
      const world = coherenceFamily(name, 100);
      const c = await measureReuse(world, FRAMES);
      lines.push(row(world, c));
      expectWithinSlops(world, c, 0.9);
    }
    console.log(lines.join('\n'));
  });
});
