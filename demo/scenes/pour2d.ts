// The 2D scenes: "2d" (mixed boxes, polygons, circles and capsules poured into a container, 20k
// bodies by default) and "particles" (100k+ small shapes in a wide tank). Bodies start on a
// jittered grid above the container's floor with random velocities and spins; three static
// boxes make the container. Shapes come from a seeded pool, so a seed names the same scene.

import { rng } from '../../src/random2d.ts';
import { GpuWorld2D } from '../../src/solver/world2d.ts';
import { makeShape2D, type Shape2DInput, type Vec2 } from '../../src/shapes2d.ts';
import { KinematicWorld2D } from './kinematic2d.ts';
import type { WorldBody2D } from '../../src/solver/world2d.ts';
import type { SceneOptions } from './scene.ts';
import { randomShapePool2D } from './shapes2d.ts';
import { WorldScene2D } from './world2d-scene.ts';

export interface PourLayout2D {
  /** Typical shape size (half extent). */
  size: number;
  /** Grid spacing in sizes. */
  spacing: number;
  /** Container width over the grid's height. */
  aspect: number;
  /** Shapes in the pool the bodies share. */
  pool: number;
  /** Starting speed, scene units per second. */
  speed: number;
}

export const POUR_2D: PourLayout2D = { size: 0.5, spacing: 2.4, aspect: 1.6, pool: 64, speed: 4 };
export const PARTICLES_2D: PourLayout2D = {
  size: 0.12,
  spacing: 2.6,
  aspect: 2,
  pool: 32,
  speed: 2,
};

/** The container and the bodies' starting state for `count` moving bodies. */
export function pourBodies2D(
  layout: PourLayout2D,
  count: number,
  seed: number,
): { shapes: Shape2DInput[]; bodies: WorldBody2D[]; bounds: { min: Vec2; max: Vec2 } } {
  const random = rng(seed);
  const shapes = randomShapePool2D(random, layout.pool, layout.size);
  const step = layout.spacing * layout.size;
  const cols = Math.max(1, Math.ceil(Math.sqrt(count * layout.aspect)));
  const rows = Math.ceil(count / cols);
  const width = cols * step;
  const height = rows * step;
  const wall = Math.max(layout.size, 0.02 * width);
  // Three static boxes: floor, left and right wall (shapes after the pool).
  const floorShape = shapes.length;
  shapes.push({ type: 'box', halfExtents: [width / 2 + 2 * wall, wall] });
  const wallShape = shapes.length;
  shapes.push({ type: 'box', halfExtents: [wall, (1.25 * height) / 2 + wall] });
  const bodies: WorldBody2D[] = [
    { shape: floorShape, position: [0, -wall], angle: 0, density: 0 },
    { shape: wallShape, position: [-width / 2 - wall, (1.25 * height) / 2], angle: 0, density: 0 },
    { shape: wallShape, position: [width / 2 + wall, (1.25 * height) / 2], angle: 0, density: 0 },
  ];
  for (let k = 0; k < count; k++) {
    const col = k % cols;
    const row = Math.floor(k / cols);
    const a = 2 * Math.PI * random();
    bodies.push({
      shape: Math.floor(random() * layout.pool),
      position: [
        -width / 2 + (col + 0.5 + 0.2 * (random() - 0.5)) * step,
        (row + 0.5 + 0.2 * (random() - 0.5)) * step,
      ],
      angle: 2 * Math.PI * random(),
      velocity: [layout.speed * Math.cos(a), layout.speed * Math.sin(a)],
      angularVelocity: 2 * (random() - 0.5),
      density: 1,
      friction: 0.6,
    });
  }
  return {
    shapes,
    bodies,
    bounds: {
      min: [-width / 2 - 2 * wall, -2 * wall],
      max: [width / 2 + 2 * wall, 1.25 * height + wall],
    },
  };
}

/** The scene on the solver's GpuWorld2D, or on KinematicWorld2D (no contact response) when asked. */
export async function createPourScene2D(
  device: GPUDevice,
  format: GPUTextureFormat,
  layout: PourLayout2D,
  options: SceneOptions,
): Promise<WorldScene2D> {
  const { shapes, bodies, bounds } = pourBodies2D(layout, options.bodies, options.seed);
  const worldOptions = { gravity: [0, -10] as Vec2, margin: options.margin };
  const world =
    options.motion === 'kinematic'
      ? await KinematicWorld2D.create(device, shapes, bodies, worldOptions)
      : await GpuWorld2D.create(device, shapes, bodies, worldOptions);
  return new WorldScene2D(
    world,
    shapes.map((s, i) => makeShape2D(s, i)),
    options.margin,
    bounds,
    options.motion,
    format,
  );
}
