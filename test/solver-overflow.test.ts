// The solver's constraints beyond the colours (src/solver/world.ts, shaders/overflow.wgsl): a
// dynamic plank carrying 100 small boxes meets 101 contacts, at most one per colour (COLOR_COUNT);
// the rest (74 here) are the overflow, solved in parallel by mass splitting (before, serially by
// one invocation). The boxes must rest on the plank (no sinking, no sliding, no tilt) in 2D and
// 3D, and runs must be byte-identical. The tail (colours the host does not dispatch one by one,
// solved in one workgroup colour after colour) must give the same bodies as a dispatch per colour.

import { beforeAll, describe, expect, it } from 'vitest';
import { acquireDevice } from '../src/gpu/device.ts';
import {
  COLOR_COUNT,
  GpuWorld2D,
  GpuWorld3D,
  type WorldBody2D,
  type WorldBody3D,
} from '../src/solver/index.ts';
import type { Shape2DInput } from '../src/shapes2d.ts';
import type { Shape3DInput } from '../src/shapes3d.ts';

const DT = 1 / 60;
/** Half size of the small boxes, and of the plank's thickness. */
const HALF = 0.2;
const PLANK_HALF = 0.25;
/** Small boxes on the plank: more than COLOR_COUNT contacts at one body. */
const CARRIED = 100;
/** Where a carried box's centre rests: on the plank, on the ground. */
const REST_Y = 2 * PLANK_HALF + HALF;
/** Allowed drift and sinking: 1% of a small box. */
const DRIFT = 0.01 * 2 * HALF;

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});

/**
 * 2D: ground (top at y = 0), the plank on it, CARRIED boxes on the plank 0.6 apart (not
 * touching), `lift` above their rest.
 */
function plank2D(lift: number): { shapes: Shape2DInput[]; bodies: WorldBody2D[] } {
  const shapes: Shape2DInput[] = [
    { type: 'box', halfExtents: [40, 0.5] },
    { type: 'box', halfExtents: [31, PLANK_HALF] },
    { type: 'box', halfExtents: [HALF, HALF] },
  ];
  const bodies: WorldBody2D[] = [
    { shape: 0, position: [0, -0.5], angle: 0, density: 0 },
    { shape: 1, position: [0, PLANK_HALF], angle: 0 },
  ];
  for (let i = 0; i < CARRIED; i++)
    bodies.push({ shape: 2, position: [(i - (CARRIED - 1) / 2) * 0.6, REST_Y + lift], angle: 0 });
  return { shapes, bodies };
}

/** 3D: the same on a 10 × 10 grid 1.1 apart on a slab. */
function plank3D(lift: number): { shapes: Shape3DInput[]; bodies: WorldBody3D[] } {
  const shapes: Shape3DInput[] = [
    { type: 'box', halfExtents: [20, 0.5, 20] },
    { type: 'box', halfExtents: [6, PLANK_HALF, 6] },
    { type: 'box', halfExtents: [HALF, HALF, HALF] },
  ];
  const bodies: WorldBody3D[] = [
    { shape: 0, position: [0, -0.5, 0], density: 0 },
    { shape: 1, position: [0, PLANK_HALF, 0] },
  ];
  for (let i = 0; i < CARRIED; i++)
    bodies.push({
      shape: 2,
      position: [((i % 10) - 4.5) * 1.1, REST_Y + lift, (Math.floor(i / 10) - 4.5) * 1.1],
    });
  return { shapes, bodies };
}

type World = GpuWorld2D | GpuWorld3D;

async function run(world: World, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await world.step(DT);
}

/** Centre heights of the carried boxes and the plank's, and the largest tilt (radians). */
async function pose(world: World): Promise<{ ys: number[]; plankY: number; tilt: number }> {
  if (world instanceof GpuWorld2D) {
    const b = await world.readBodies();
    return {
      ys: b.slice(2).map((x) => x.position[1]),
      plankY: b[1]!.position[1],
      tilt: Math.max(...b.slice(1).map((x) => Math.abs(x.angle))),
    };
  }
  const b = await world.readBodies();
  // Tilt of a cube: the angle of its rotation (2 acos |w|).
  const tilt = Math.max(
    ...b.slice(1).map((x) => 2 * Math.acos(Math.min(1, Math.abs(x.rotation[3])))),
  );
  return { ys: b.slice(2).map((x) => x.position[1]), plankY: b[1]!.position[1], tilt };
}

/** The positions of all bodies, flattened (for drift). */
async function positions(world: World): Promise<number[]> {
  return (await world.readBodies()).flatMap((b) => [...b.position]);
}

/** Settles 1 s, then holds `hold` steps: the overflow count, the drift and the final pose. */
async function stand(world: World, label: string, hold: number): Promise<void> {
  await run(world, 60);
  const stats = await world.readColorStats();
  const settled = await positions(world);
  await run(world, hold);
  const end = await positions(world);
  const drift = Math.max(...end.map((x, i) => Math.abs(x - settled[i]!)));
  const { ys, plankY, tilt } = await pose(world);
  const sink = Math.max(...ys.map((y) => REST_Y - y));
  const rise = Math.max(...ys.map((y) => y - REST_Y));
  console.log(
    `${label}: ${stats.constraints} constraints, ${stats.colors} colours, ${stats.overflow} overflow; drift ${drift.toExponential(2)}, sink ${sink.toExponential(2)}, rise ${rise.toExponential(2)}, plank ${(PLANK_HALF - plankY).toExponential(2)} down, tilt ${tilt.toExponential(2)}`,
  );
  // 101 constraints at the plank: at most COLOR_COUNT coloured, the rest overflow.
  expect(stats.constraints).toBe(CARRIED + 1);
  expect(stats.colors).toBeLessThanOrEqual(COLOR_COUNT);
  expect(stats.overflow).toBeGreaterThanOrEqual(CARRIED + 1 - COLOR_COUNT);
  expect(drift).toBeLessThan(DRIFT);
  expect(sink).toBeLessThan(DRIFT);
  expect(rise).toBeLessThan(DRIFT);
  expect(PLANK_HALF - plankY).toBeLessThan(DRIFT);
  expect(tilt).toBeLessThan(0.01);
}

describe('solver overflow: a plank carrying 100 boxes', () => {
  it('2D: the boxes rest on the plank; the overflow is solved by mass splitting', async () => {
    const { shapes, bodies } = plank2D(0);
    const world = await GpuWorld2D.create(device, shapes, bodies);
    try {
      await stand(world, '2D plank', 120);
    } finally {
      world.destroy();
    }
  });

  it('3D: the cubes rest on the slab; the overflow is solved by mass splitting', async () => {
    const { shapes, bodies } = plank3D(0);
    const world = await GpuWorld3D.create(device, shapes, bodies);
    try {
      await stand(world, '3D slab', 60);
    } finally {
      world.destroy();
    }
  });

  it('2D: dropped boxes land; the same bodies whether colours are dispatched one by one, by the tail, or as recent steps need', async () => {
    // Dropped 0.3 m: the colours jump from 1 to COLOR_COUNT when they land, past what the
    // host dispatches one by one after the first steps (the tail takes the rest).
    const { shapes, bodies } = plank2D(0.3);
    const runOnce = async (passes: number | null): Promise<[Buffer, Buffer]> => {
      const world = await GpuWorld2D.create(device, shapes, bodies);
      try {
        world.pinColorPasses(passes);
        await run(world, 90);
        const { ys, tilt } = await pose(world);
        console.log(
          `dropped, ${passes} colour passes: heights ${Math.min(...ys).toFixed(4)} to ${Math.max(...ys).toFixed(4)}, tilt ${tilt.toExponential(2)}`,
        );
        expect(Math.max(...ys.map((y) => Math.abs(y - REST_Y)))).toBeLessThan(DRIFT);
        return [
          Buffer.from(await world.readBodyBytes()),
          Buffer.from(await world.readStateBytes()),
        ];
      } finally {
        world.destroy();
      }
    };
    const adaptive = await runOnce(null);
    for (const passes of [COLOR_COUNT, 0]) {
      const other = await runOnce(passes);
      expect(other[0].equals(adaptive[0]), `bodies, ${passes} colour passes`).toBe(true);
      expect(other[1].equals(adaptive[1]), `states, ${passes} colour passes`).toBe(true);
    }
  });

  it('3D: two runs give byte-identical bodies', async () => {
    const { shapes, bodies } = plank3D(0.05);
    const runOnce = async (): Promise<Buffer> => {
      const world = await GpuWorld3D.create(device, shapes, bodies);
      try {
        await run(world, 20);
        return Buffer.from(await world.readBodyBytes());
      } finally {
        world.destroy();
      }
    };
    expect((await runOnce()).equals(await runOnce())).toBe(true);
  });
});
