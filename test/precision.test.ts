// World size and f32. Both backends collide f32-packed positions, and far from the origin f32
// loses what a contact needs: at 1e6 a step is 0.0625, and a box–circle pair overlapping by 0.1
// reported depth 0.125. The contract (src/constants.ts F32_WORLD_RANGE, README "World size"):
//   - within 4096 × the smaller shape's size of the origin, f32 positions hold every manifold to
//     the linear slop (0.005 × size): the packed API and the GPU frames rely on it;
//   - collide() computes pairs lying farther out relative to body A's position (src/precision.ts)
//     and holds them to 1e-4 × size anywhere up to the coordinate limit (1e7), as near the origin;
//     stats.rebasedPairs counts them.
// Checked against the same scenes at the origin (results moved back by the offset in f64), with
// the packed path far out as the check that fails without the rebasing.

import { describe, expect, it } from 'vitest';
import { compareManifolds2D, type Mismatch } from '../src/compare-manifolds.ts';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { collidePacked3D, prepareCpu3D } from '../src/cpu/narrowphase3d.ts';
import { F32_WORLD_RANGE } from '../src/constants.ts';
import { createNarrowphase, type Narrowphase } from '../src/narrowphase.ts';
import { packScene2D, unpackManifolds2D, type ManifoldJson } from '../src/pack2d.ts';
import { packScene3D, unpackManifolds3D } from '../src/pack3d.ts';
import { randomPairScene } from '../src/random2d.ts';
import { randomPairScene3D } from '../src/random3d.ts';
import { parseScene, type SceneJson2D, type SceneJson3D } from '../src/scene.ts';

type SceneJson = SceneJson2D | SceneJson3D;

/** The scene with every body moved by `offset`. */
function moved<S extends SceneJson>(scene: S, offset: readonly number[]): S {
  const out = structuredClone(scene);
  for (const b of out.bodies)
    b.position = b.position.map((v, i) => v + offset[i]!) as typeof b.position;
  return out;
}

/** Manifolds moved back by `offset` (in f64). */
function back(manifolds: readonly ManifoldJson[], offset: readonly number[]): ManifoldJson[] {
  return manifolds.map((m) => ({
    ...m,
    points: m.points.map((p) => ({ ...p, position: p.position.map((v, i) => v - offset[i]!) })),
  }));
}

/** The packed path, positions as f32 world coordinates (what the frames see). */
function packedRun(json: SceneJson): ManifoldJson[] {
  const s = parseScene(json);
  if (s.dim === 2) {
    const p = packScene2D(s, s.pairs!);
    return unpackManifolds2D(collidePacked2D(prepareCpu2D(p, s.shapes.length), p), s.pairs!, false);
  }
  const p = packScene3D(s, s.pairs!);
  return unpackManifolds3D(collidePacked3D(prepareCpu3D(p), p), s.pairs!, false);
}

/** Per pair, the smaller shape's extent (the size the tolerances scale with). */
function pairSizes(json: SceneJson): number[] {
  const s = parseScene(json);
  return Array.from({ length: s.pairs!.length / 2 }, (_, k) =>
    Math.min(
      s.shapes[s.bodyShape[s.pairs![2 * k]!]!]!.extent,
      s.shapes[s.bodyShape[s.pairs![2 * k + 1]!]!]!.extent,
    ),
  );
}

/** Mismatches where the geometry differs (normal, position, depth), apart from near-ties that picked other features (point count, id). */
const geometric = (mm: readonly Mismatch[]): Mismatch[] =>
  mm.filter((m) => /normal|position|depth/.test(m.reason));

const SETS: [string, SceneJson][] = [
  ['2D', randomPairScene(3, 3000, 'mixed')],
  ['3D', randomPairScene3D(3, 1500, 'mixed3d')],
];

describe('world size and f32', () => {
  it("the issue's pair at 1e6: depth 0.1, not 0.125, on both backends", async () => {
    const pair = (x: number): SceneJson2D => ({
      dim: 2,
      shapes: [
        { type: 'box', halfExtents: [0.5, 0.5] },
        { type: 'circle', radius: 0.5 },
      ],
      bodies: [
        { shape: 0, position: [x, x] },
        { shape: 1, position: [x, x + 0.9] },
      ],
      pairs: [[0, 1]],
    });
    for (const backend of ['cpu', 'gpu'] as const) {
      const np = await createNarrowphase({ backend });
      for (const x of [0, 1e6, 9e6]) {
        const { manifolds, stats } = await np.collide(pair(x));
        const p = manifolds[0]!.points[0]!;
        expect(p.depth, `${backend} at ${x}`).toBeCloseTo(0.1, 6);
        expect(p.position[0]! - x).toBeCloseTo(0, 6);
        expect(p.position[1]! - x).toBeCloseTo(0.45, 6);
        expect(manifolds[0]!.normal).toEqual([0, 1]);
        expect(stats.rebasedPairs).toBe(x === 0 ? 0 : 1);
      }
      np.destroy();
    }
    // The packed path (no rebasing) shows what f32 does there.
    expect(packedRun(pair(1e6))[0]!.points[0]!.depth).toBe(0.125);
  });

  for (const [name, scene] of SETS) {
    it(`${name}: within ${F32_WORLD_RANGE} × size f32 holds to the slop; beyond, collide() holds to 1e-4 × size up to 1e7`, async () => {
      const dim = scene.dim;
      const sizes = pairSizes(scene);
      const reference = packedRun(scene);
      const offset = (x: number): number[] => [x, -x, x].slice(0, dim);
      // Every pair at the edge of the range of the set's smallest shape (F32_WORLD_RANGE × that size).
      const edge = F32_WORLD_RANGE * Math.min(...sizes);
      const atEdge = compareManifolds2D(
        reference,
        back(packedRun(moved(scene, offset(edge))), offset(edge)),
        0.005,
        sizes,
      );
      expect(geometric(atEdge), JSON.stringify(atEdge.slice(0, 3))).toEqual([]);
      expect(atEdge.length).toBeLessThanOrEqual(0.002 * sizes.length);
      const cpu = await createNarrowphase({ backend: 'cpu' });
      for (const x of [1e5, 1e6, 9e6]) {
        const far = moved(scene, offset(x));
        const { manifolds, stats } = await cpu.collide(far);
        expect(stats.rebasedPairs).toBe(sizes.length);
        const mm = compareManifolds2D(reference, back(manifolds, offset(x)), 1e-4, sizes);
        expect(mm, `${name} at ${x}: ${JSON.stringify(mm.slice(0, 3))}`).toEqual([]);
        // Without the rebasing (the packed path) the same pairs miss even the slop.
        const unrebased = compareManifolds2D(
          reference,
          back(packedRun(far), offset(x)),
          0.005,
          sizes,
        );
        expect(unrebased.length, `${name} at ${x}, packed`).toBeGreaterThan(0.05 * sizes.length);
      }
    });
  }

  it('2D on the GPU, pair lists and the broadphase, at 1e6: what the same scene gives at the origin', async () => {
    const np: Narrowphase = await createNarrowphase({ backend: 'gpu' });
    try {
      const scene = SETS[0]![1] as SceneJson2D;
      const sizes = pairSizes(scene);
      const off = [1e6, -1e6];
      const reference = (await np.collide(scene)).manifolds;
      const far = await np.collide(moved(scene, off));
      expect(compareManifolds2D(reference, back(far.manifolds, off), 1e-4, sizes)).toEqual([]);
      // Broadphase scenes: the touching pairs found are the same, their manifolds too.
      const { pairs: _, ...open } = scene;
      const near = (await np.collide(open)).manifolds;
      const found = (await np.collide(moved(open, off))).manifolds;
      expect(found.map((m) => m.pair)).toEqual(near.map((m) => m.pair));
      expect(compareManifolds2D(near, back(found, off), 1e-4).length).toBeLessThanOrEqual(2);
    } finally {
      np.destroy();
    }
  });
});
