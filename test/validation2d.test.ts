// Bad 2D input: every case is refused on the host with an InputError that names the offending
// item by its JSON path (`path`) and says why (`reason`, also in `message` after the path), on both
// backends, and with the gpu backend no GPU work (no buffer, upload, bind group, encoder or
// submit) is issued for it.
import { beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.ts';
import { createNarrowphase } from '../src/narrowphase.ts';
import { packScene2D } from '../src/pack2d.ts';
import { parseScene2D } from '../src/scene.ts';
import { BACKENDS, useNarrowphases, type Json, type V } from './helpers/collide2d.ts';

const { np, device: gpuDevice } = useNarrowphases();

/** GPU calls issued through the narrowphase's device since the spies were installed. */
const gpuCalls: Record<string, number> = {};

// After the narrowphases are made (useNarrowphases' beforeAll runs first).
beforeAll(() => {
  // Spy on everything a run does on the device: creating buffers, bind groups and encoders,
  // uploading, submitting. (Dawn's objects accept own-property overrides; the queue object is
  // the same on every access.)
  const device = gpuDevice();
  const queue = device.queue;
  const spy = <T extends object>(target: T, name: keyof T & string, label: string) => {
    const original = target[name] as unknown as (...args: unknown[]) => unknown;
    gpuCalls[label] = 0;
    Object.defineProperty(target, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        gpuCalls[label]!++;
        return original.apply(this, args);
      },
    });
  };
  spy(device, 'createBuffer', 'device.createBuffer');
  spy(device, 'createBindGroup', 'device.createBindGroup');
  spy(device, 'createCommandEncoder', 'device.createCommandEncoder');
  spy(queue, 'writeBuffer', 'queue.writeBuffer');
  spy(queue, 'submit', 'queue.submit');
});

function resetGpuCalls(): void {
  for (const k of Object.keys(gpuCalls)) gpuCalls[k] = 0;
}
function totalGpuCalls(): number {
  return Object.values(gpuCalls).reduce((a, b) => a + b, 0);
}

// ---- the bad scenes ----

/**
 * A valid scene with shape `bad` at index 1 (used by body 1), so shape errors must name
 * `shapes[1]`: shape 0 is a unit box, body 0 at the origin, body 1 at (3, 0), pair [0, 1].
 */
function withShape(bad: unknown): Json {
  return {
    dim: 2,
    shapes: [{ type: 'box', halfExtents: [1, 1] }, bad],
    bodies: [
      { shape: 0, position: [0, 0] },
      { shape: 1, position: [3, 0] },
    ],
    pairs: [[0, 1]],
  };
}

/** A valid two-box scene with some fields replaced. */
function scene(patch: Json): Json {
  return {
    dim: 2,
    shapes: [
      { type: 'box', halfExtents: [1, 1] },
      { type: 'circle', radius: 0.5 },
    ],
    bodies: [
      { shape: 0, position: [0, 0] },
      { shape: 1, position: [1.2, 0] },
    ],
    pairs: [[0, 1]],
    ...patch,
  };
}

/** Body 1 of the valid scene with some fields replaced. */
function withBody1(patch: Json): Json {
  return scene({
    bodies: [
      { shape: 0, position: [0, 0] },
      { shape: 1, position: [1.2, 0], ...patch },
    ],
  });
}

const polygon = (vertices: unknown[]): Json => ({ type: 'polygon', vertices });
const regular = (n: number, r = 1): V[] =>
  Array.from(
    { length: n },
    (_, k) => [r * Math.cos((2 * Math.PI * k) / n), r * Math.sin((2 * Math.PI * k) / n)] as V,
  );

interface Case {
  name: string;
  scene: unknown;
  path: string;
  /** A meaningful part of the reason. */
  reason: string | RegExp;
}

const P1 = 'shapes[1] (polygon)';
const CASES: Case[] = [
  // Polygons. The arrow (0,0) (2,0) (2,2) (1,0.5) (0,2) is counter-clockwise but turns right at (1,0.5).
  // Collision filters: 32-bit integers.
  {
    name: 'negative filter category',
    scene: withShape({ type: 'box', halfExtents: [1, 1], filter: { categoryBits: -1 } }),
    path: 'shapes[1] (box)',
    reason: 'filter.categoryBits must be an integer from 0 to 0xffffffff',
  },
  {
    name: 'filter mask above 32 bits',
    scene: withShape({ type: 'circle', radius: 1, filter: { maskBits: 2 ** 32 } }),
    path: 'shapes[1] (circle)',
    reason: 'filter.maskBits must be an integer from 0 to 0xffffffff',
  },
  {
    name: 'filter not an object',
    scene: withShape({ type: 'box', halfExtents: [1, 1], filter: 3 }),
    path: 'shapes[1] (box)',
    reason: 'filter must be an object',
  },
  {
    name: 'non-convex polygon',
    scene: withShape(
      polygon([
        [0, 0],
        [2, 0],
        [2, 2],
        [1, 0.5],
        [0, 2],
      ]),
    ),
    path: P1,
    reason: 'polygon is not convex at vertex 3',
  },
  {
    name: 'clockwise polygon',
    scene: withShape(
      polygon([
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 0],
      ]),
    ),
    path: P1,
    reason: 'vertices are clockwise',
  },
  {
    name: 'duplicate vertices',
    scene: withShape(
      polygon([
        [0, 0],
        [1, 0],
        [1, 0],
        [0, 1],
      ]),
    ),
    path: P1,
    reason: 'vertices 1 and 2 coincide',
  },
  {
    name: 'duplicate vertices, not adjacent',
    scene: withShape(
      polygon([
        [0, 0],
        [1, 0],
        [0, 0],
        [0, 1],
      ]),
    ),
    path: P1,
    reason: /vertices 0 and 2 coincide/,
  },
  {
    name: 'collinear vertices',
    scene: withShape(
      polygon([
        [0, 0],
        [1, 0],
        [2, 0],
        [1, 1],
      ]),
    ),
    path: P1,
    reason: 'vertices 0, 1, 2 are collinear; remove vertex 1',
  },
  {
    name: '9 vertices',
    scene: withShape(polygon(regular(9))),
    path: P1,
    reason: 'has 9 vertices; a polygon takes 3 to 8',
  },
  {
    name: '2 vertices for a polygon',
    scene: withShape(
      polygon([
        [0, 0],
        [1, 0],
      ]),
    ),
    path: P1,
    reason: 'has 2 vertices; a polygon takes 3 to 8',
  },
  {
    name: 'vertices not an array',
    scene: withShape({ type: 'polygon', vertices: 'square' }),
    path: P1,
    reason: '"vertices" must be an array',
  },
  {
    name: 'a vertex that is not [x, y]',
    scene: withShape(
      polygon([
        [0, 0],
        [1, 0, 0],
        [0, 1],
      ]),
    ),
    path: P1,
    reason: 'vertices[1] must be [x, y]',
  },
  // A pentagram: the vertices of a regular pentagon taken in the order 0 2 4 1 3. Every turn is a
  // left turn of 144°, so only the total turning (720°) shows that it crosses itself.
  {
    name: 'self-intersecting star (pentagram order)',
    scene: withShape(polygon([0, 2, 4, 1, 3].map((k) => regular(5)[k]!))),
    path: P1,
    reason: 'polygon winds around more than once (self-intersecting)',
  },
  // Non-finite numbers.
  {
    name: 'NaN in vertices',
    scene: withShape(
      polygon([
        [0, 0],
        [NaN, 0],
        [0, 1],
      ]),
    ),
    path: P1,
    reason: 'vertices[1][0] must be a finite number, got NaN',
  },
  {
    name: 'Infinity in vertices',
    scene: withShape(
      polygon([
        [0, 0],
        [1, Infinity],
        [0, 1],
      ]),
    ),
    path: P1,
    reason: 'vertices[1][1] must be a finite number, got Infinity',
  },
  {
    name: 'a vertex beyond MAX_COORDINATE',
    scene: withShape(
      polygon([
        [0, 0],
        [2e7, 0],
        [0, 1],
      ]),
    ),
    path: P1,
    reason: /vertices\[1\]\[0\] is 20000000; magnitudes above/,
  },
  {
    name: 'NaN position',
    scene: withBody1({ position: [NaN, 0] }),
    path: 'bodies[1]',
    reason: 'position[0] must be a finite number, got NaN',
  },
  {
    name: 'Infinity position',
    scene: withBody1({ position: [0, -Infinity] }),
    path: 'bodies[1]',
    reason: 'position[1] must be a finite number, got -Infinity',
  },
  {
    name: 'position not [x, y]',
    scene: withBody1({ position: [1] }),
    path: 'bodies[1]',
    reason: 'position must be [x, y]',
  },
  {
    name: 'NaN angle',
    scene: withBody1({ angle: NaN }),
    path: 'bodies[1]',
    reason: 'angle must be a finite number, got NaN',
  },
  {
    name: 'Infinity angle',
    scene: withBody1({ angle: Infinity }),
    path: 'bodies[1]',
    reason: 'angle must be a finite number, got Infinity',
  },
  {
    name: 'NaN halfExtents',
    scene: withShape({ type: 'box', halfExtents: [NaN, 1] }),
    path: 'shapes[1] (box)',
    reason: 'halfExtents[0] must be a finite number, got NaN',
  },
  {
    name: 'Infinity halfExtents',
    scene: withShape({ type: 'box', halfExtents: [1, Infinity] }),
    path: 'shapes[1] (box)',
    reason: 'halfExtents[1] must be a finite number, got Infinity',
  },
  {
    name: 'NaN circle radius',
    scene: withShape({ type: 'circle', radius: NaN }),
    path: 'shapes[1] (circle)',
    reason: 'radius must be a finite number, got NaN',
  },
  {
    name: 'Infinity capsule radius',
    scene: withShape({ type: 'capsule', a: [0, 0], b: [1, 0], radius: Infinity }),
    path: 'shapes[1] (capsule)',
    reason: 'radius must be a finite number, got Infinity',
  },
  {
    name: 'NaN polygon rounding radius',
    scene: withShape({ type: 'polygon', vertices: regular(3), radius: NaN }),
    path: P1,
    reason: 'radius must be a finite number, got NaN',
  },
  {
    name: 'NaN circle center',
    scene: withShape({ type: 'circle', radius: 1, center: [0, NaN] }),
    path: 'shapes[1] (circle)',
    reason: 'center[1] must be a finite number, got NaN',
  },
  {
    name: 'NaN capsule end',
    scene: withShape({ type: 'capsule', a: [NaN, 0], b: [1, 0], radius: 0.5 }),
    path: 'shapes[1] (capsule)',
    reason: 'a[0] must be a finite number, got NaN',
  },
  // Sizes.
  {
    name: 'zero box size',
    scene: withShape({ type: 'box', halfExtents: [0, 1] }),
    path: 'shapes[1] (box)',
    reason: 'halfExtents[0] must be > 0, got 0',
  },
  {
    name: 'negative box size',
    scene: withShape({ type: 'box', halfExtents: [1, -1] }),
    path: 'shapes[1] (box)',
    reason: 'halfExtents[1] must be > 0, got -1',
  },
  {
    name: 'negative box rounding radius',
    scene: withShape({ type: 'box', halfExtents: [1, 1], radius: -0.1 }),
    path: 'shapes[1] (box)',
    reason: 'radius must be >= 0, got -0.1',
  },
  {
    name: 'zero circle radius',
    scene: withShape({ type: 'circle', radius: 0 }),
    path: 'shapes[1] (circle)',
    reason: 'radius must be > 0, got 0',
  },
  {
    name: 'negative circle radius',
    scene: withShape({ type: 'circle', radius: -1 }),
    path: 'shapes[1] (circle)',
    reason: 'radius must be > 0, got -1',
  },
  {
    name: 'zero capsule radius',
    scene: withShape({ type: 'capsule', a: [0, 0], b: [1, 0], radius: 0 }),
    path: 'shapes[1] (capsule)',
    reason: 'radius must be > 0, got 0',
  },
  {
    name: 'negative capsule radius',
    scene: withShape({ type: 'capsule', a: [0, 0], b: [1, 0], radius: -0.5 }),
    path: 'shapes[1] (capsule)',
    reason: 'radius must be > 0, got -0.5',
  },
  {
    name: 'zero-length capsule',
    scene: withShape({ type: 'capsule', a: [1, 2], b: [1, 2], radius: 0.5 }),
    path: 'shapes[1] (capsule)',
    reason: 'a and b coincide',
  },
  {
    name: 'a tiny polygon (below MIN_EXTENT)',
    scene: withShape(polygon(regular(3, 1e-7))),
    path: P1,
    reason: /shape is smaller than 0\.000001/,
  },
  // Structure.
  {
    name: 'unknown shape type',
    scene: withShape({ type: 'sphere', radius: 1 }),
    path: 'shapes[1] (sphere)',
    reason: 'unknown shape type; 2D types are polygon, box, circle, capsule',
  },
  {
    name: 'shape without a type',
    scene: withShape({ radius: 1 }),
    path: 'shapes[1] (undefined)',
    reason: 'unknown shape type',
  },
  {
    name: 'shape that is not an object',
    scene: withShape(null),
    path: 'shapes[1]',
    reason: 'must be an object with a "type"',
  },
  {
    name: 'shapes missing',
    scene: scene({ shapes: undefined }),
    path: 'shapes',
    reason: 'must be an array',
  },
  {
    name: 'body with a shape index out of range',
    scene: withBody1({ shape: 5 }),
    path: 'bodies[1]',
    reason: 'shape 5 is not a shape index (the scene has 2 shapes)',
  },
  {
    name: 'body with a negative shape index',
    scene: withBody1({ shape: -1 }),
    path: 'bodies[1]',
    reason: 'shape -1 is not a shape index',
  },
  {
    name: 'body with a fractional shape index',
    scene: withBody1({ shape: 0.5 }),
    path: 'bodies[1]',
    reason: 'shape 0.5 is not a shape index',
  },
  {
    name: 'bodies missing',
    scene: scene({ bodies: undefined }),
    path: 'bodies',
    reason: 'must be an array',
  },
  {
    name: 'pair naming a missing body',
    scene: scene({
      pairs: [
        [0, 1],
        [0, 7],
      ],
    }),
    path: 'pairs[1]',
    reason: '[0,7] names a body that does not exist (the scene has 2 bodies)',
  },
  {
    name: 'pair naming a negative body',
    scene: scene({ pairs: [[-1, 0]] }),
    path: 'pairs[0]',
    reason: 'names a body that does not exist',
  },
  {
    name: 'pair of a body with itself',
    scene: scene({
      pairs: [
        [0, 1],
        [1, 1],
      ],
    }),
    path: 'pairs[1]',
    reason: 'pairs body 1 with itself',
  },
  {
    name: 'pair that is not [a, b]',
    scene: scene({ pairs: [[0, 1, 2]] }),
    path: 'pairs[0]',
    reason: 'must be [a, b]',
  },
  {
    name: 'negative margin',
    scene: scene({ margin: -0.1 }),
    path: 'margin',
    reason: 'must be a finite number >= 0, got -0.1',
  },
  {
    name: 'NaN margin',
    scene: scene({ margin: NaN }),
    path: 'margin',
    reason: 'must be a finite number >= 0, got NaN',
  },
  { name: 'dim 4', scene: scene({ dim: 4 }), path: 'dim', reason: 'must be 2 or 3, got 4' },
  {
    name: 'no dim',
    scene: scene({ dim: undefined }),
    path: 'dim',
    reason: 'must be 2 or 3, got undefined',
  },
  // A string where a number belongs is shown quoted, so the message does not read "got 2" for "2".
  {
    name: 'dim as a string',
    scene: scene({ dim: '2' }),
    path: 'dim',
    reason: 'must be 2 or 3, got "2"',
  },
  {
    name: 'a position given as strings',
    scene: withBody1({ position: ['1', '0'] }),
    path: 'bodies[1]',
    reason: 'position[0] must be a finite number, got "1"',
  },
  {
    name: 'a scene that is not an object',
    scene: 'a box on a box',
    path: 'scene',
    reason: 'must be a JSON object',
  },
  // Keys the format does not know are refused, not ignored (src/keys.ts): each would otherwise fall
  // back to a default without a word.
  {
    name: "a 3D body's rotation on a 2D body",
    scene: withBody1({ rotation: [0, 0, 0, 1] }),
    path: 'bodies[1]',
    reason: 'unknown key "rotation" (a 2D body turns by "angle"',
  },
  {
    name: 'a misspelt shape key',
    scene: withShape({ type: 'box', halfExtents: [1, 1], radiuss: 0.1 }),
    path: 'shapes[1] (box)',
    reason: 'unknown key "radiuss"; a 2D box takes type, halfExtents, radius, filter',
  },
  {
    name: "a capsule's key on a circle",
    scene: withShape({ type: 'circle', radius: 1, a: [0, 0] }),
    path: 'shapes[1] (circle)',
    reason: 'unknown key "a"; a circle takes type, radius, center, filter',
  },
  {
    name: 'an unknown filter key',
    scene: withShape({ type: 'box', halfExtents: [1, 1], filter: { mask: 2 } }),
    path: 'shapes[1] (box)',
    reason: 'unknown key "filter.mask"; a filter takes categoryBits, maskBits',
  },
  {
    name: 'a misspelt scene key',
    scene: scene({ mergin: 0.02 }),
    path: 'scene',
    reason: 'unknown key "mergin"; a scene takes dim, margin, shapes, bodies, pairs',
  },
];

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('collide() resolved; expected it to reject with an InputError');
}

describe.each(BACKENDS)('2D input validation (%s backend)', (backend) => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    resetGpuCalls();
    const err = await rejection(np[backend].collide(c.scene));
    // An InputError and nothing else (not a TypeError from deeper down, not a GPU error).
    expect(err, String(err)).toBeInstanceOf(InputError);
    const e = err as InputError;
    expect(e.name).toBe('InputError');
    expect(e.path).toBe(c.path);
    if (typeof c.reason === 'string') expect(e.reason).toContain(c.reason);
    else expect(e.reason).toMatch(c.reason);
    expect(e.message).toBe(`${c.path}: ${e.reason}`);
    // Refused before any GPU work.
    expect({ ...gpuCalls }).toEqual(Object.fromEntries(Object.keys(gpuCalls).map((k) => [k, 0])));
  });

  it('the valid base scenes are accepted (the cases above differ from them only in the bad item)', async () => {
    for (const ok of [
      withShape({ type: 'polygon', vertices: regular(8) }),
      withShape({ type: 'box', halfExtents: [1, 2], radius: 0.1 }),
      withShape({ type: 'circle', radius: 1, center: [0.5, 0] }),
      withShape({
        type: 'capsule',
        a: [0, 0],
        b: [1, 0],
        radius: 0.5,
        filter: { categoryBits: 2, maskBits: 3 },
      }),
      withShape({ type: 'polygon', vertices: regular(3), radius: 0 }),
      scene({}),
      scene({ margin: 0 }),
      scene({ pairs: undefined }),
      withBody1({ angle: 1e3 }),
    ]) {
      await expect(np[backend].collide(ok)).resolves.toBeDefined();
    }
  });
});

describe('no GPU work for bad input', () => {
  it('the spies see the GPU work of a valid scene (so zero counts above mean something)', async () => {
    // A narrowphase of its own: its buffers, and so its bind groups, are new (the device keeps
    // the bind groups of the buffers bound before: cachedBindGroup).
    const fresh = await createNarrowphase({ backend: 'gpu', device: gpuDevice() });
    resetGpuCalls();
    await fresh.collide(scene({}));
    fresh.destroy();
    expect(gpuCalls['device.createBuffer']).toBeGreaterThan(0);
    expect(gpuCalls['queue.submit']).toBeGreaterThan(0);
    expect(gpuCalls['queue.writeBuffer']).toBeGreaterThan(0);
    expect(gpuCalls['device.createBindGroup']).toBeGreaterThan(0);
    expect(gpuCalls['device.createCommandEncoder']).toBeGreaterThan(0);
  });

  it('a run of every bad scene issues none, and a valid scene afterwards still works', async () => {
    resetGpuCalls();
    for (const c of CASES) {
      await expect(np.gpu.collide(c.scene)).rejects.toBeInstanceOf(InputError);
    }
    expect(totalGpuCalls()).toBe(0);
    const { manifolds } = await np.gpu.collide(scene({}));
    // Unit box at the origin, circle r = 0.5 at (1.2, 0): 0.3 deep into the box's right face.
    expect(manifolds.length).toBe(1);
    expect(manifolds[0]!.normal[0]).toBeCloseTo(1, 6);
    expect(manifolds[0]!.points[0]!.depth).toBeCloseTo(0.3, 5);
  });
});

describe('2D packed API: packScene2D checks the pairs a caller builds', () => {
  // The valid two-body scene; pairs come as a flat Uint32Array, not through the JSON.
  const parsed = parseScene2D(scene({ pairs: undefined }));
  const refused = (pairs: number[], path: string, reason: string): void => {
    expect(() => packScene2D(parsed, Uint32Array.from(pairs))).toThrow(
      new InputError(path, reason),
    );
  };
  it('names the pair and the reason, as the JSON pairs do', () => {
    refused(
      [0, 1, 1, 2],
      'pairs[1]',
      '[1,2] names a body that does not exist (the scene has 2 bodies)',
    );
    refused([1, 1], 'pairs[0]', 'pairs body 1 with itself');
    refused([0, 1, 0], 'pairs', 'holds 3 body indices, not an even number');
    expect(packScene2D(parsed, Uint32Array.from([1, 0, 0, 1])).pairCount).toBe(2);
  });
});
