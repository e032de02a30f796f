// 3D scenes through the product: parseScene validation (errors name the item), the host
// broadphase (sweepAndPrune3D against brute force), createNarrowphase().collide() on both
// backends (same JSON with 3-vectors; without pairs one manifold per touching pair), and the CLI
// (`collide` on a 3D scene file with both backends, `validate` with the 3D scene kinds).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyAabbs3D, sweepAndPrune3D } from '../src/broadphase3d.ts';
import { compareManifolds3D } from '../src/compare-manifolds.ts';
import { InputError } from '../src/errors.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { createNarrowphase, type Narrowphase } from '../src/narrowphase.ts';
import { packScene3D } from '../src/pack3d.ts';
import { randomPairScene3D } from '../src/random3d.ts';
import { parseScene, type SceneJson3D } from '../src/scene.ts';
import { mulberry32, randomShape3D, randomQuat } from './helpers/random3d.ts';

const root = new URL('..', import.meta.url).pathname;

/** A small scene: a ground box, a box resting on it, a sphere, a capsule lying on it, a tetrahedron, one far body. */
const SCENE: SceneJson3D = {
  dim: 3,
  margin: 0.01,
  shapes: [
    { type: 'box', halfExtents: [5, 5, 1] },
    { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
    { type: 'sphere', radius: 0.5 },
    { type: 'capsule', a: [-1, 0, 0], b: [1, 0, 0], radius: 0.25 },
    {
      type: 'hull',
      vertices: [
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    },
  ],
  bodies: [
    { shape: 0, position: [0, 0, 0] },
    { shape: 1, position: [0.25, -0.5, 1.49], rotation: [0, 0, 0, 1] },
    { shape: 2, position: [3, 2, 1.45] },
    { shape: 3, position: [-3, 0, 1.24] },
    { shape: 4, position: [2, -3, 0.995] },
    { shape: 1, position: [100, 0, 0], rotation: [0, 0, Math.SQRT1_2, Math.SQRT1_2] },
  ],
};

describe('parseScene (3D)', () => {
  const bad = (patch: (s: SceneJson3D) => unknown, path: string, reason: RegExp): void => {
    const s = JSON.parse(JSON.stringify(SCENE)) as SceneJson3D;
    const json = patch(s) ?? s;
    let err: unknown;
    try {
      parseScene(json);
    } catch (e) {
      err = e;
    }
    expect(err, `${path}: no error`).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(
      new RegExp(`^${path.replace(/[[\]().]/g, '\\$&')}`),
    );
    expect((err as InputError).message).toMatch(reason);
  };

  it('accepts dim 3 with box, hull, sphere, capsule and quaternion rotations', () => {
    const s = parseScene(SCENE);
    expect(s.dim).toBe(3);
    if (s.dim !== 3) return;
    expect(s.shapes.map((x) => x.kind)).toEqual([1, 1, 2, 3, 0]);
    expect(Array.from(s.bodyRotation.subarray(20, 24))).toEqual(
      [0, 0, Math.SQRT1_2, Math.SQRT1_2].map((x) => expect.closeTo(x, 12)),
    );
    expect(s.pairs).toBeNull();
  });

  it('names the item and the reason of every error', () => {
    bad(
      (s) =>
        void (s.shapes[4] = {
          type: 'hull',
          vertices: [
            [0, 0, 0],
            [1, 0, 0],
            [2, 0, 0],
            [3, 0, 0],
          ],
        }),
      'shapes[4] (hull)',
      /collinear/,
    );
    bad(
      (s) =>
        void (s.shapes[4] = {
          type: 'hull',
          vertices: [
            [0, 0, 0],
            [1, 0, 0],
            [0, 1, 0],
            [1, 1, 0],
          ],
        }),
      'shapes[4] (hull)',
      /coplanar/,
    );
    bad(
      (s) => void (s.shapes[1] = { type: 'box', halfExtents: [0.5, 0, 0.5] }),
      'shapes[1] (box)',
      /halfExtents\[1\]/,
    );
    bad(
      (s) => void (s.shapes[2] = { type: 'sphere', radius: Number.NaN }),
      'shapes[2] (sphere)',
      /finite/,
    );
    bad(
      (s) => void (s.shapes[3] = { type: 'capsule', a: [1, 1, 1], b: [1, 1, 1], radius: 0.2 }),
      'shapes[3] (capsule)',
      /coincide/,
    );
    bad(
      (s) => void ((s.shapes as unknown[])[0] = { type: 'cone' }),
      'shapes[0] (cone)',
      /unknown shape type/,
    );
    bad(
      (s) =>
        void (s.shapes[1] = {
          type: 'box',
          halfExtents: [0.5, 0.5, 0.5],
          filter: { maskBits: 0.5 },
        }),
      'shapes[1] (box)',
      /filter\.maskBits must be an integer/,
    );
    bad((s) => void (s.bodies[2]!.rotation = [0, 0, 0, 2]), 'bodies[2]', /unit quaternion/);
    bad(
      (s) => void (s.bodies[2]!.position = [0, 0] as unknown as [number, number, number]),
      'bodies[2]',
      /\[x, y, z\]/,
    );
    bad((s) => void (s.bodies[1]!.shape = 9), 'bodies[1]', /shape/);
    bad(
      (s) =>
        void (s.pairs = [
          [0, 1],
          [2, 2],
        ]),
      'pairs[1]',
      /itself/,
    );
    bad((s) => void (s.pairs = [[0, 7]]), 'pairs[0]', /does not exist/);
    bad((s) => void (s.margin = -1), 'margin', />= 0/);
    // Keys the format does not know are refused, not ignored (src/keys.ts).
    bad(
      (s) =>
        void ((s.shapes as unknown[])[1] = {
          type: 'box',
          halfExtents: [0.5, 0.5, 0.5],
          radius: 0.05,
        }),
      'shapes[1] (box)',
      /unknown key "radius" \(3D hulls and boxes are not rounded/,
    );
    bad(
      (s) => void ((s.shapes as unknown[])[4] = { type: 'hull', points: [[0, 0, 0]] }),
      'shapes[4] (hull)',
      /unknown key "points"; a hull takes type, vertices, filter/,
    );
    bad(
      (s) => void ((s.bodies as unknown[])[2] = { shape: 2, position: [0, 0, 0], angle: 1 }),
      'bodies[2]',
      /unknown key "angle" \(a 3D body turns by "rotation"/,
    );
    bad(
      (s) =>
        void ((s.shapes as unknown[])[2] = {
          type: 'sphere',
          radius: 0.5,
          filter: { categoryBits: 1, group: 2 },
        }),
      'shapes[2] (sphere)',
      /unknown key "filter.group"/,
    );
    bad(
      (s) => ({ ...s, bodyCount: 6 }),
      'scene',
      /unknown key "bodyCount"; a scene takes dim, margin, shapes, bodies, pairs/,
    );
  });
});

describe('3D packed API', () => {
  it('packScene3D checks the pairs a caller builds, naming the pair and the reason', () => {
    const parsed = parseScene(SCENE);
    if (parsed.dim !== 3) throw new Error('dim 3 expected');
    expect(() => packScene3D(parsed, Uint32Array.from([0, 1, 5, 6]))).toThrow(
      new InputError('pairs[1]', '[5,6] names a body that does not exist (the scene has 6 bodies)'),
    );
    expect(() => packScene3D(parsed, Uint32Array.from([2, 2]))).toThrow(
      new InputError('pairs[0]', 'pairs body 2 with itself'),
    );
    expect(packScene3D(parsed, Uint32Array.from([5, 0])).pairCount).toBe(1);
  });
});

describe('sweepAndPrune3D', () => {
  it('equals brute force over grown AABBs on random scenes, sorted (a < b)', () => {
    for (const [seed, n, spread] of [
      [1, 300, 20],
      [2, 200, 5],
      [3, 60, 2],
    ] as const) {
      const r = mulberry32(seed);
      const kinds = ['box', 'hull', 'sphere', 'capsule'] as const;
      const scene: SceneJson3D = { dim: 3, margin: 0.05, shapes: [], bodies: [] };
      for (let i = 0; i < n; i++) {
        scene.shapes.push(randomShape3D(r, kinds[i % 4]!, 0.5 + r()));
        scene.bodies.push({
          shape: i,
          position: [spread * r(), spread * r(), i % 17 === 0 ? 1e5 + r() : spread * r()],
          rotation: randomQuat(r),
        });
      }
      const parsed = parseScene(scene);
      if (parsed.dim !== 3) throw new Error('3D');
      const pairs = sweepAndPrune3D(parsed);
      const box = bodyAabbs3D(parsed, parsed.margin);
      const brute: number[] = [];
      for (let a = 0; a < n; a++) {
        for (let b = a + 1; b < n; b++) {
          let overlap = true;
          for (let k = 0; k < 3; k++)
            if (box[6 * a + k]! > box[6 * b + 3 + k]! || box[6 * b + k]! > box[6 * a + 3 + k]!)
              overlap = false;
          if (overlap) brute.push(a, b);
        }
      }
      expect(Array.from(pairs)).toEqual(brute);
      expect(pairs.length).toBeGreaterThan(0);
    }
  });

  it("honours the shapes' collision filters (JSON `filter`): of three boxes on one spot, the two whose categories meet", () => {
    const box = (filter: { categoryBits?: number; maskBits?: number }) => ({
      type: 'box' as const,
      halfExtents: [1, 1, 1] as [number, number, number],
      filter,
    });
    const scene = parseScene({
      dim: 3,
      shapes: [
        box({ categoryBits: 1, maskBits: 2 }),
        box({ categoryBits: 2, maskBits: 1 }),
        box({ categoryBits: 4 }),
      ],
      bodies: [
        { shape: 0, position: [0, 0, 0] },
        { shape: 1, position: [0.5, 0, 0] },
        { shape: 2, position: [0, 0.5, 0] },
      ],
    });
    if (scene.dim !== 3) throw new Error('3D');
    expect(Array.from(sweepAndPrune3D(scene))).toEqual([0, 1]);
    // Without filters (Box2D's defaults: category 1, every mask bit) all three pairs.
    for (const s of scene.shapes) Object.assign(s, { categoryBits: 1, maskBits: 0xffffffff });
    expect(Array.from(sweepAndPrune3D(scene))).toEqual([0, 1, 0, 2, 1, 2]);
  });
});

describe('createNarrowphase (3D) on both backends', () => {
  let device: AcquiredDevice;
  const np = {} as Record<'cpu' | 'gpu', Narrowphase>;
  beforeAll(async () => {
    device = await acquireDevice();
    np.cpu = await createNarrowphase({ backend: 'cpu' });
    np.gpu = await createNarrowphase({ backend: 'gpu', device: device.device });
  });
  afterAll(() => {
    np.cpu?.destroy();
    np.gpu?.destroy();
    device?.device.destroy();
  });

  it('without pairs: one manifold per touching pair, sorted, equal on both backends and to the explicit pairs', async () => {
    const cpu = await np.cpu.collide(SCENE);
    const gpu = await np.gpu.collide(SCENE);
    expect(cpu.manifolds.map((m) => m.pair)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
    ]);
    expect(compareManifolds3D(cpu.manifolds, gpu.manifolds)).toEqual([]);
    const resting = cpu.manifolds[0]!;
    expect(resting.normal).toEqual([0, 0, 1]);
    expect(resting.points.length).toBe(4);
    for (const p of resting.points) {
      expect(p.position.length).toBe(3);
      expect(p.depth).toBeCloseTo(0.01, 6);
    }
    expect(cpu.manifolds[2]!.points.length, 'capsule lying on the ground: 2 points').toBe(2);
    const explicit = await np.gpu.collide({
      ...SCENE,
      pairs: [
        [0, 1],
        [0, 2],
        [0, 3],
        [0, 4],
        [1, 5],
      ],
    });
    expect(explicit.manifolds.length).toBe(5);
    expect(explicit.manifolds[4]!.points).toEqual([]);
    expect(compareManifolds3D(explicit.manifolds.slice(0, 4), gpu.manifolds)).toEqual([]);
    expect(gpu.stats.backend).toBe('gpu');
    expect(gpu.stats.pairs).toBe(4);
  });

  it('2D and 3D scenes through one narrowphase', async () => {
    const two = await np.gpu.collide({
      dim: 2,
      shapes: [{ type: 'circle', radius: 1 }],
      bodies: [
        { shape: 0, position: [0, 0] },
        { shape: 0, position: [1.5, 0] },
      ],
    });
    expect(two.manifolds[0]!.normal).toEqual([1, 0]);
    const three = await np.gpu.collide(randomPairScene3D(7, 500, 'mixed3d'));
    const cpu = await np.cpu.collide(randomPairScene3D(7, 500, 'mixed3d'));
    expect(three.manifolds.length).toBe(500);
    expect(compareManifolds3D(cpu.manifolds, three.manifolds).length).toBeLessThan(3);
  });
});

describe('CLI (3D)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'np3d-'));
  const file = join(dir, 'scene3d.json');
  writeFileSync(file, JSON.stringify(SCENE));
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src/cli.ts'), ...args], {
      cwd: root,
      encoding: 'utf8',
    });

  it('collide prints the same manifolds on both backends, with stats', () => {
    const outs = (['cpu', 'gpu'] as const).map((backend) => {
      const r = cli('collide', '--backend', backend, '--stats', file);
      expect(r.status, r.stderr).toBe(0);
      const stats = JSON.parse(
        r.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .pop()!,
      );
      expect(stats.backend).toBe(backend);
      expect(stats.pairs).toBe(4);
      return JSON.parse(r.stdout) as {
        manifolds: { pair: number[]; normal: number[]; points: unknown[] }[];
      };
    });
    expect(outs[0]!.manifolds.map((m) => m.pair)).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
    ]);
    expect(compareManifolds3D(outs[0]!.manifolds as never, outs[1]!.manifolds as never)).toEqual(
      [],
    );
  });

  it('bad 3D input exits 2 naming the item', () => {
    const badFile = join(dir, 'bad.json');
    writeFileSync(
      badFile,
      JSON.stringify({
        ...SCENE,
        bodies: [{ shape: 0, position: [0, 0, 0], rotation: [1, 1, 0, 0] }],
      }),
    );
    const r = cli('collide', '--backend', 'cpu', badFile);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^error: bodies\[0\]: rotation must be a unit quaternion/m);
  });

  it('validate runs the 3D scene kinds on both backends without unexplained mismatches', () => {
    const r = cli('validate', '--pairs', '3000', '--mix', 'box3d,hull3d,mixed3d');
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('mismatches: 0');
    expect(lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l).mix)).toEqual([
      'box3d',
      'hull3d',
      'mixed3d',
    ]);
  });
});
