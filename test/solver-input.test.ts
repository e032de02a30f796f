// Bad input to the GPU rigid-body worlds (src/solver/world2d.ts, world3d.ts): each case must fail in
// create() with an InputError naming the offending item and the reason (step() with a RangeError
// for a bad dt), and a world refused a bad dt must still step afterwards.

import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuWorld2D, GpuWorld3D, type WorldBody2D, type WorldBody3D } from '../src/solver/index.ts';
import type { Shape2DInput } from '../src/shapes2d.ts';
import type { Shape3DInput } from '../src/shapes3d.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});

const shapes2: Shape2DInput[] = [
  { type: 'box', halfExtents: [5, 0.5] },
  { type: 'box', halfExtents: [0.5, 0.5] },
];
const ground2: WorldBody2D = { shape: 0, position: [0, -0.5], angle: 0, density: 0 };
const box2: WorldBody2D = { shape: 1, position: [0, 0.5], angle: 0 };

const shapes3: Shape3DInput[] = [
  { type: 'box', halfExtents: [5, 0.5, 5] },
  { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
];
const ground3: WorldBody3D = { shape: 0, position: [0, -0.5, 0], density: 0 };
const box3: WorldBody3D = { shape: 1, position: [0, 0.5, 0] };

// [what, shapes, bodies, options, path the error must name, words its reason must contain]
type Case<S, B, O> = [string, S[], B[], O, string, string];

const cases2: Case<Shape2DInput, WorldBody2D, Record<string, unknown>>[] = [
  ['no shapes', [], [ground2], {}, 'shapes', 'non-empty'],
  ['no bodies', shapes2, [], {}, 'bodies', 'non-empty'],
  [
    'shape index out of range',
    shapes2,
    [ground2, { ...box2, shape: 2 }],
    {},
    'bodies[1]',
    'index into the 2 shapes',
  ],
  ['fractional shape index', shapes2, [ground2, { ...box2, shape: 0.5 }], {}, 'bodies[1]', 'index'],
  [
    'timestamps neither true, false nor span',
    shapes2,
    [ground2, box2],
    { timestamps: 'stages' },
    'options.timestamps',
    "must be true, false or 'span', got stages",
  ],
  [
    'NaN position',
    shapes2,
    [ground2, { ...box2, position: [0, NaN] }],
    {},
    'bodies[1]',
    'position',
  ],
  ['infinite angle', shapes2, [ground2, { ...box2, angle: Infinity }], {}, 'bodies[1]', 'angle'],
  ['negative density', shapes2, [ground2, { ...box2, density: -1 }], {}, 'bodies[1]', 'density'],
  ['NaN friction', shapes2, [ground2, { ...box2, friction: NaN }], {}, 'bodies[1]', 'friction'],
  ['negative margin', shapes2, [ground2, box2], { margin: -0.1 }, 'options', 'margin'],
  ['zero substeps', shapes2, [ground2, box2], { substeps: 0 }, 'options', 'substeps'],
  // Keys the solver does not know are refused, not ignored (src/keys.ts).
  [
    'a mass instead of a density',
    shapes2,
    [ground2, { ...box2, mass: 2 } as WorldBody2D],
    {},
    'bodies[1]',
    'unknown key "mass" (a body\'s mass comes from its shape and "density"',
  ],
  [
    "a 3D body's rotation",
    shapes2,
    [ground2, { ...box2, rotation: [0, 0, 0, 1] } as WorldBody2D],
    {},
    'bodies[1]',
    'unknown key "rotation" (a 2D body turns by "angle"',
  ],
  [
    'a body that is not an object',
    shapes2,
    [ground2, null as unknown as WorldBody2D],
    {},
    'bodies[1]',
    'must be an object, got null',
  ],
  [
    'a misspelt option',
    shapes2,
    [ground2, box2],
    { subSteps: 8 },
    'options',
    'unknown key "subSteps"; a world\'s options takes gravity, margin, substeps, maxRotation',
  ],
  [
    'clockwise polygon',
    [
      shapes2[0]!,
      {
        type: 'polygon',
        vertices: [
          [0, 0],
          [0, 1],
          [1, 0],
        ],
      },
    ],
    [ground2, box2],
    {},
    'shapes[1] (polygon)',
    'clockwise',
  ],
];

const cases3: Case<Shape3DInput, WorldBody3D, Record<string, unknown>>[] = [
  ['no shapes', [], [ground3], {}, 'shapes', 'non-empty'],
  ['no bodies', shapes3, [], {}, 'bodies', 'non-empty'],
  [
    'timestamps a number',
    shapes3,
    [ground3, box3],
    { timestamps: 1 },
    'options.timestamps',
    'got 1',
  ],
  [
    'shape index out of range',
    shapes3,
    [ground3, { ...box3, shape: -1 }],
    {},
    'bodies[1]',
    'index into the 2 shapes',
  ],
  [
    'position of two numbers',
    shapes3,
    [ground3, { ...box3, position: [0, 1] as never }],
    {},
    'bodies[1]',
    'position',
  ],
  [
    'non-unit rotation',
    shapes3,
    [ground3, { ...box3, rotation: [0, 0, 0, 2] }],
    {},
    'bodies[1]',
    'unit quaternion',
  ],
  [
    'NaN angular velocity',
    shapes3,
    [ground3, { ...box3, angularVelocity: [0, NaN, 0] }],
    {},
    'bodies[1]',
    'angularVelocity',
  ],
  [
    'negative friction',
    shapes3,
    [ground3, { ...box3, friction: -0.5 }],
    {},
    'bodies[1]',
    'friction',
  ],
  [
    'infinite gravity',
    shapes3,
    [ground3, box3],
    { gravity: [0, -Infinity, 0] },
    'options',
    'gravity',
  ],
  ['fractional substeps', shapes3, [ground3, box3], { substeps: 2.5 }, 'options', 'substeps'],
  [
    "a 2D body's angle",
    shapes3,
    [ground3, { ...box3, angle: 1 } as WorldBody3D],
    {},
    'bodies[1]',
    'unknown key "angle" (a 3D body turns by "rotation"',
  ],
  [
    'restitution',
    shapes3,
    [ground3, { ...box3, restitution: 0.5 } as WorldBody3D],
    {},
    'bodies[1]',
    'unknown key "restitution"; a 3D world body takes shape, position, rotation',
  ],
  [
    'degenerate hull',
    [
      shapes3[0]!,
      {
        type: 'hull',
        vertices: [
          [0, 0, 0],
          [1, 0, 0],
          [0, 1, 0],
          [1, 1, 0],
        ],
      },
    ],
    [ground3, box3],
    {},
    'shapes[1] (hull)',
    'coplanar',
  ],
];

function expectInputError(error: unknown, path: string, words: string): void {
  expect(error).toBeInstanceOf(InputError);
  const e = error as InputError;
  expect(e.path).toBe(path);
  expect(e.reason).toContain(words);
}

describe('GPU rigid-body worlds: bad input', () => {
  it.each(cases2)('2D: %s', async (_what, shapes, bodies, options, path, words) => {
    const error = await GpuWorld2D.create(device, shapes, bodies, options).then(
      () => null,
      (e: unknown) => e,
    );
    expectInputError(error, path, words);
  });

  it.each(cases3)('3D: %s', async (_what, shapes, bodies, options, path, words) => {
    const error = await GpuWorld3D.create(device, shapes, bodies, options).then(
      () => null,
      (e: unknown) => e,
    );
    expectInputError(error, path, words);
  });

  it('step() refuses a dt that is not a finite number > 0; the world still steps afterwards', async () => {
    const world = await GpuWorld3D.create(device, shapes3, [ground3, box3]);
    try {
      for (const dt of [0, -1 / 60, NaN, Infinity])
        await expect(world.step(dt)).rejects.toThrow(RangeError);
      const counts = await world.step(1 / 60);
      expect(counts.contacts).toBe(1);
    } finally {
      world.destroy();
    }
  });
});
