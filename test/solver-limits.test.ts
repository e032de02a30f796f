// The solver's limits, stated (README "A GPU rigid-body solver", docs/solver-limits.md) and held:
//   - a time step beyond MAX_TIME_STEP (1/20 s) is refused (step(1e6) ran before);
//   - angular speed is clamped to maxRotation × substeps / dt (188.5 rad/s at 60 Hz, 4 substeps,
//     the default maxRotation π/4), and maxRotation is a world option;
//   - there is no continuous collision: a body is caught while one step carries it less than the
//     margin plus the half-thicknesses of it and what it hits (a unit box onto a 1 m floor at
//     60 Hz: 1.1 m a step, 66 m/s); faster it may pass through.

import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuWorld2D, SOLVER_LAYOUT_2D, solverConstants } from '../src/solver/index.ts';
import type { Shape2DInput } from '../src/shapes2d.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});

const SHAPES: Shape2DInput[] = [
  { type: 'box', halfExtents: [10, 0.5] },
  { type: 'box', halfExtents: [0.5, 0.5] },
];

describe('solver limits', () => {
  it('a time step beyond MAX_TIME_STEP is refused, and the world steps on afterwards', async () => {
    expect(solverConstants.MAX_TIME_STEP).toBe(1 / 20);
    const world = await GpuWorld2D.create(
      device,
      SHAPES,
      [{ shape: 1, position: [0, 0], angle: 0 }],
      { gravity: [0, 0] },
    );
    try {
      for (const dt of [1e6, 0.0501, 1])
        await expect(world.step(dt)).rejects.toThrow(
          /^dt is [\d.e+]+ s; a step is at most MAX_TIME_STEP = 0\.05 s \(20 Hz\)/,
        );
      await world.step(1 / 20);
      await world.step(1 / 60);
    } finally {
      world.destroy();
    }
  });

  it('angular speed is clamped to maxRotation × substeps / dt, maxRotation a world option', async () => {
    const spin = async (
      angularVelocity: number,
      options: { maxRotation?: number; substeps?: number },
    ): Promise<number> => {
      const world = await GpuWorld2D.create(
        device,
        SHAPES,
        [{ shape: 1, position: [0, 0], angle: 0, angularVelocity }],
        { gravity: [0, 0], ...options },
      );
      try {
        await world.step(1 / 60);
        return new Float32Array(await world.readStateBytes())[
          SOLVER_LAYOUT_2D.state.angularVelocity
        ]!;
      } finally {
        world.destroy();
      }
    };
    expect(await spin(1000, {})).toBeCloseTo(0.25 * Math.PI * 4 * 60, 2); // 188.5 rad/s
    expect(await spin(1000, { maxRotation: Math.PI / 8 })).toBeCloseTo((Math.PI / 8) * 4 * 60, 2);
    expect(await spin(1000, { maxRotation: Math.PI / 2, substeps: 8 })).toBeCloseTo(
      (Math.PI / 2) * 8 * 60,
      1,
    );
    expect(await spin(150, {})).toBeCloseTo(150, 3); // under the clamp: untouched
    for (const maxRotation of [0, -1, 2, Number.NaN, '0.5']) {
      await expect(
        GpuWorld2D.create(device, SHAPES, [{ shape: 1, position: [0, 0], angle: 0 }], {
          maxRotation,
        } as never),
      ).rejects.toThrow(InputError);
    }
  });

  it('no continuous collision: a unit box onto a 1 m floor at 60 Hz is caught below 66 m/s, may pass above', async () => {
    /** The box's height after 0.5 s, dropped from `height` (its bottom above the floor's top) at `speed`. */
    const drop = async (speed: number, height: number): Promise<number> => {
      const world = await GpuWorld2D.create(device, SHAPES, [
        { shape: 0, position: [0, -0.5], angle: 0, density: 0 },
        { shape: 1, position: [0, height + 0.5], angle: 0, velocity: [0, -speed] },
      ]);
      try {
        for (let i = 0; i < 30; i++) await world.step(1 / 60);
        return (await world.readBodies())[1]!.position[1];
      } finally {
        world.destroy();
      }
    };
    // Starting heights spread over one step's travel, so that steps begin at every phase.
    const phases = (speed: number): number[] =>
      [0, 0.25, 0.5, 0.75].map((f) => 1.5 + (f * speed) / 60);
    for (const speed of [20, 60]) {
      for (const h of phases(speed))
        expect(await drop(speed, h), `${speed} m/s from ${h}`).toBeGreaterThan(0.4);
    }
    const fast = await Promise.all(phases(90).map((h) => drop(90, h)));
    expect(
      fast.some((y) => y < -1),
      `90 m/s: ${fast.map((y) => y.toFixed(2)).join(', ')}`,
    ).toBe(true);
  });
});
