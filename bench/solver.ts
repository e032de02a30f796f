// `npm run bench -- --scene solver`: whole GPU world steps (collision frame + colouring + soft
// step, src/solver/) on dense piles, where the solver's colouring matters most.
//
// 2D: the demo's mixed pour (boxes, polygons, circles, capsules from a seeded pool; 20k bodies by
// default) but packed tight (grid spacing 1.4 sizes, overlapping a little, no starting speed), so every body touches
// its neighbours from the first step, as in a settled pile. 3D: cubes of 1 in a brick bond on a
// static floor (see boxPile3D), 10k by default: each rests on 4 and carries 4.
// Per pile: `--warm` untimed steps, then `--steps` timed steps; reported: the median wall time of
// world.step() (submit, wait, read the counts), of the collision frame alone on the same bodies
// (GpuFrame.encode + submit + read counts), their difference (≈ colouring + solver), the GPU
// timestamps of the colouring and solver passes (median; when the device has them), and the last
// step's colouring: constraints, colours used, overflow (uncoloured: solved by mass splitting).
//
//   npm run bench -- --scene solver                    # 2D 20k and 3D 10k
//   npm run bench -- --scene solver --dim 2 --bodies2d 5000 --steps 3

import { Command, InvalidArgumentError } from 'commander';
import { randomShapePool2D } from '../demo/scenes/shapes2d.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { rng } from '../src/random2d.ts';
import type { Shape2DInput } from '../src/shapes2d.ts';
import type { Shape3DInput, Vec3 } from '../src/shapes3d.ts';
import { GpuWorld2D, type WorldBody2D } from '../src/solver/world2d.ts';
import { GpuWorld3D, type WorldBody3D } from '../src/solver/world3d.ts';

const DT = 1 / 60;

function int(v: string): number {
  const n = Number(v.replace(/k$/i, '000'));
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`not a positive integer: ${v}`);
  return n;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The demo's mixed shapes (seeded pool of 64, half size 0.5) on a tight square-ish block in a static box. */
function mixedPile2D(
  count: number,
  seed: number,
): { shapes: Shape2DInput[]; bodies: WorldBody2D[] } {
  const random = rng(seed);
  const size = 0.5;
  const shapes = randomShapePool2D(random, 64, size);
  const step = 1.4 * size;
  const cols = Math.ceil(Math.sqrt(count * 1.6));
  const rows = Math.ceil(count / cols);
  const width = cols * step;
  const height = rows * step;
  const floor = shapes.length;
  shapes.push({ type: 'box', halfExtents: [width / 2 + 2, 1] });
  const wall = shapes.length;
  shapes.push({ type: 'box', halfExtents: [1, height] });
  const bodies: WorldBody2D[] = [
    { shape: floor, position: [0, -1], angle: 0, density: 0 },
    { shape: wall, position: [-width / 2 - 1, height], angle: 0, density: 0 },
    { shape: wall, position: [width / 2 + 1, height], angle: 0, density: 0 },
  ];
  for (let k = 0; k < count; k++) {
    const col = k % cols;
    const row = Math.floor(k / cols);
    bodies.push({
      shape: Math.floor(random() * 64),
      position: [-width / 2 + (col + 0.5) * step, (row + 0.5) * step],
      angle: 2 * Math.PI * random(),
    });
  }
  return { shapes, bodies };
}

/**
 * Cubes of 1 laid in a brick bond on a static floor: layers 1 apart, columns 1.12 apart (gaps
 * beyond the margin, so no side contacts), every other layer shifted half a column in x and z, so
 * each cube rests on 4 below and carries 4 above (about 8 contacts per cube, as in a pile).
 */
function boxPile3D(count: number, seed: number): { shapes: Shape3DInput[]; bodies: WorldBody3D[] } {
  const random = rng(seed);
  const side = Math.max(2, Math.ceil(Math.cbrt(count) * 1.5));
  const pitch = 1.12;
  const shapes: Shape3DInput[] = [
    { type: 'box', halfExtents: [side * pitch, 0.5, side * pitch] },
    { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
  ];
  const bodies: WorldBody3D[] = [{ shape: 0, position: [0, -0.5, 0], density: 0 }];
  const j = (): number => 0.002 * (random() - 0.5);
  for (let k = 0; k < count; k++) {
    const y = Math.floor(k / (side * side));
    const shift = y % 2 === 1 ? pitch / 2 : 0;
    const x = (k % side) * pitch + shift - (side * pitch) / 2;
    const z = (Math.floor(k / side) % side) * pitch + shift - (side * pitch) / 2;
    bodies.push({ shape: 1, position: [x + j(), y + 0.5 + Math.abs(j()), z + j()] as Vec3 });
  }
  return { shapes, bodies };
}

interface World {
  step(dt: number): Promise<unknown>;
  readColorStats(): Promise<{
    constraints: number;
    colors: number;
    overflow: number;
    sizes: number[];
    rounds?: number;
  }>;
  readCounts(): Promise<unknown>;
  enablePassTimes(): void;
  readPassTimes(): Promise<{ coloring: number; solver: number } | null>;
  destroy(): void;
}

async function timeWorld(
  label: string,
  timestamps: boolean,
  world: World,
  frameOnly: () => Promise<void>,
  warm: number,
  steps: number,
): Promise<void> {
  if (timestamps) world.enablePassTimes();
  for (let i = 0; i < warm; i++) await world.step(DT);
  const stepMs: number[] = [];
  const frameMs: number[] = [];
  const coloringMs: number[] = [];
  const solverMs: number[] = [];
  for (let i = 0; i < steps; i++) {
    let t = performance.now();
    await world.step(DT);
    stepMs.push(performance.now() - t);
    const gpu = await world.readPassTimes();
    if (gpu) {
      coloringMs.push(gpu.coloring);
      solverMs.push(gpu.solver);
    }
    t = performance.now();
    await frameOnly();
    frameMs.push(performance.now() - t);
  }
  const stats = await world.readColorStats();
  const s = median(stepMs);
  const f = median(frameMs);
  console.log(
    `${label}: step ${s.toFixed(1)} ms (median of ${steps}), frame alone ${f.toFixed(1)} ms, colouring+solver ≈ ${(s - f).toFixed(1)} ms; ` +
      `${stats.constraints} constraints, ${stats.colors} colours [${stats.sizes.join(' ')}], ${stats.overflow} overflow` +
      (stats.rounds !== undefined ? `, ${stats.rounds} colouring rounds` : '') +
      (coloringMs.length
        ? `; GPU: colouring ${median(coloringMs).toFixed(1)} ms, solver ${median(solverMs).toFixed(1)} ms`
        : '; no GPU timestamps'),
  );
}

export async function solverMain(argv: string[]): Promise<void> {
  const program = new Command('bench --scene solver')
    .option('--scene <name>', 'solver')
    .option('--dim <d>', '2, 3 or both', 'both')
    .option('--bodies2d <n>', 'bodies of the 2D pile', int, 20_000)
    .option('--bodies3d <n>', 'bodies of the 3D pile', int, 10_000)
    .option('--warm <n>', 'untimed steps first', (v) => Number(v), 2)
    .option('--steps <n>', 'timed steps', int, 3)
    .parse(argv);
  const o = program.opts<{
    dim: string;
    bodies2d: number;
    bodies3d: number;
    warm: number;
    steps: number;
  }>();
  const { device, adapter, timestamps } = await acquireDevice();
  console.log(`adapter: ${JSON.stringify(adapter)}`);
  if (o.dim !== '3') {
    const { shapes, bodies } = mixedPile2D(o.bodies2d, 1);
    const world = await GpuWorld2D.create(device, shapes, bodies);
    const frameOnly = async (): Promise<void> => {
      const enc = device.createCommandEncoder();
      world.frame.encode(enc, world.frameInputs());
      device.queue.submit([enc.finish()]);
      await world.frame.readCounts();
    };
    await timeWorld(
      `2D mixed pile, ${o.bodies2d} bodies`,
      timestamps,
      world,
      frameOnly,
      o.warm,
      o.steps,
    );
    world.destroy();
  }
  if (o.dim !== '2') {
    const { shapes, bodies } = boxPile3D(o.bodies3d, 1);
    const world = await GpuWorld3D.create(device, shapes, bodies);
    const frameOnly = async (): Promise<void> => {
      const enc = device.createCommandEncoder();
      world.frame.encode(enc, world.frameInputs());
      device.queue.submit([enc.finish()]);
      await world.frame.readCounts();
    };
    await timeWorld(
      `3D box pile, ${o.bodies3d} bodies`,
      timestamps,
      world,
      frameOnly,
      o.warm,
      o.steps,
    );
    world.destroy();
  }
  device.destroy();
}
