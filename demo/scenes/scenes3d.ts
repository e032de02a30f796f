// The 3D scenes: "3d" (boxes and convex hulls falling onto a floor inside a low rim, 10k bodies by
// default) and "pyramid" (a box pyramid that must stand still), on the solver's GpuWorld3D or,
// with ?motion=kinematic, on KinematicWorld3D. Shapes come from a seeded pool, so a seed names the
// same scene. Bodies are listed shape by shape (the renderer draws one instanced mesh per shape).

import { rng } from '../../src/random2d.ts';
import { randomHullPoints3D, randomRotation3D } from '../../src/random3d.ts';
import type { Shape3DInput, Vec3 } from '../../src/shapes3d.ts';
import { makeShape3D } from '../../src/shapes3d.ts';
import { GpuWorld3D, type WorldBody3D } from '../../src/solver/world3d.ts';
import { KinematicWorld3D } from './kinematic3d.ts';
import type { SceneBounds, SceneOptions } from './scene.ts';
import { WorldScene3D } from './world3d-scene.ts';

const SIZE = 0.5;
const POOL = 24;

function byShape(bodies: WorldBody3D[]): WorldBody3D[] {
  return bodies
    .map((b, i) => ({ b, i }))
    .sort((x, y) => x.b.shape - y.b.shape || x.i - y.i)
    .map((x) => x.b);
}

/** Static boxes: a floor of half size `half` (x, z) at y = 0 and a rim of walls `rim` high. */
function floorWithRim(shapes: Shape3DInput[], half: number, rim: number): WorldBody3D[] {
  const t = 0.5;
  const floor = shapes.push({ type: 'box', halfExtents: [half + 2 * t, t, half + 2 * t] }) - 1;
  const wallX = shapes.push({ type: 'box', halfExtents: [t, rim / 2, half] }) - 1;
  const wallZ = shapes.push({ type: 'box', halfExtents: [half + 2 * t, rim / 2, t] }) - 1;
  const q: [number, number, number, number] = [0, 0, 0, 1];
  return [
    { shape: floor, position: [0, -t, 0], rotation: q, density: 0 },
    { shape: wallX, position: [-half - t, rim / 2, 0], rotation: q, density: 0 },
    { shape: wallX, position: [half + t, rim / 2, 0], rotation: q, density: 0 },
    { shape: wallZ, position: [0, rim / 2, -half - t], rotation: q, density: 0 },
    { shape: wallZ, position: [0, rim / 2, half + t], rotation: q, density: 0 },
  ];
}

export async function createFall3D(
  device: GPUDevice,
  format: GPUTextureFormat,
  options: SceneOptions,
): Promise<WorldScene3D> {
  const random = rng(options.seed);
  const shapes: Shape3DInput[] = Array.from({ length: POOL }, (_, i): Shape3DInput =>
    i % 2 === 0
      ? {
          type: 'box',
          halfExtents: [
            SIZE * (0.5 + 0.6 * random()),
            SIZE * (0.5 + 0.6 * random()),
            SIZE * (0.5 + 0.6 * random()),
          ],
        }
      : {
          type: 'hull',
          vertices: randomHullPoints3D(random, 8 + Math.floor(16 * random()), SIZE * 1.1),
        },
  );
  // A column of bodies on a jittered grid, footprint about twice its height, falling from rest.
  const n = options.bodies;
  const step = 2.6 * SIZE;
  const side = Math.max(1, Math.ceil(Math.cbrt(2 * n)));
  const layers = Math.ceil(n / (side * side));
  const half = (side * step) / 2;
  const moving: WorldBody3D[] = [];
  for (let k = 0; k < n; k++) {
    const x = k % side;
    const z = Math.floor(k / side) % side;
    const y = Math.floor(k / (side * side));
    const jitter = (): number => 0.3 * step * (random() - 0.5);
    moving.push({
      shape: Math.floor(random() * POOL),
      position: [
        -half + (x + 0.5) * step + jitter(),
        2 + (y + 0.5) * step * 1.5,
        -half + (z + 0.5) * step + jitter(),
      ],
      rotation: randomRotation3D(random),
      velocity: [2 * (random() - 0.5), 0, 2 * (random() - 0.5)],
      angularVelocity: [2 * (random() - 0.5), 2 * (random() - 0.5), 2 * (random() - 0.5)],
      density: 1,
    });
  }
  // The walls half a step out: no body starts overlapping one.
  const bodies = [...floorWithRim(shapes, half + step / 2, 2 * step), ...byShape(moving)];
  const top = 2 + layers * step * 1.5;
  return createWorldScene3D(
    device,
    format,
    options,
    shapes,
    bodies,
    [0, -10, 0],
    { min: [-half, 0, -half], max: [half, Math.min(top, 2 * half), half] },
    SIZE,
  );
}

/** The scene on the solver's world, or the kinematic one when the options ask. */
async function createWorldScene3D(
  device: GPUDevice,
  format: GPUTextureFormat,
  options: SceneOptions,
  shapes: Shape3DInput[],
  bodies: WorldBody3D[],
  gravity: Vec3,
  bounds: SceneBounds,
  normalLength: number,
): Promise<WorldScene3D> {
  const worldOptions = { gravity, margin: options.margin };
  const world =
    options.motion === 'kinematic'
      ? await KinematicWorld3D.create(device, shapes, bodies, worldOptions)
      : await GpuWorld3D.create(device, shapes, bodies, worldOptions);
  const moving = new Set(bodies.filter((b) => b.density !== 0).map((b) => b.shape));
  const layout = {
    shapes: shapes.map((s, i) => makeShape3D(s, i)),
    bodyShape: Uint32Array.from(bodies, (b) => b.shape),
    staticShapes: new Set(bodies.filter((b) => !moving.has(b.shape)).map((b) => b.shape)),
  };
  return new WorldScene3D(
    world,
    layout,
    options.margin,
    bounds,
    options.motion,
    format,
    normalLength,
  );
}

/** Rows of a pyramid with at least `bodies` boxes. */
export function pyramidRows(bodies: number): number {
  let rows = 1;
  while ((rows * (rows + 1)) / 2 < bodies) rows++;
  return rows;
}

export async function createPyramid3D(
  device: GPUDevice,
  format: GPUTextureFormat,
  options: SceneOptions,
): Promise<WorldScene3D> {
  const shapes: Shape3DInput[] = [];
  const rows = pyramidRows(options.bodies);
  const h = SIZE;
  const half = rows * h + 2;
  const statics = floorWithRim(shapes, half, 0.4);
  const box = shapes.push({ type: 'box', halfExtents: [h, h, h] }) - 1;
  // Boxes resting exactly on one another (touching faces: contacts at depth 0) in a wall-like
  // pyramid, one box deep; the next row sits on the gaps of the one below.
  const gap = 0.02 * h;
  const boxes: WorldBody3D[] = [];
  for (let row = 0; row < rows; row++) {
    const count = rows - row;
    for (let k = 0; k < count; k++) {
      const x = (k - (count - 1) / 2) * (2 * h + gap);
      boxes.push({
        shape: box,
        position: [x, h + row * 2 * h, 0] as Vec3,
        rotation: [0, 0, 0, 1],
        density: 1,
        friction: 0.6,
      });
    }
  }
  // The solver must hold it up under gravity; kinematically (no contact response) it floats.
  const gravity: Vec3 = options.motion === 'kinematic' ? [0, 0, 0] : [0, -10, 0];
  const width = rows * (2 * h + gap);
  return createWorldScene3D(
    device,
    format,
    options,
    shapes,
    [...statics, ...boxes],
    gravity,
    { min: [-width / 2, 0, -h], max: [width / 2, rows * 2 * h, h] },
    h,
  );
}
