// The host broadphase (sweepAndPrune2D) and scenes given without `pairs`.
//
// 1. On seeded random scenes (mixed shapes, rounding radii, margins, huge bodies, bodies a million
//    units away, bodies stacked at one spot) sweep-and-prune returns exactly the brute-force set of
//    pairs whose grown AABBs overlap, as (a < b) sorted by a then b; it contains every pair whose
//    exact AABBs (computed here independently) overlap, and every pair the narrowphase finds
//    touching when given all pairs.
// 2. A scene without `pairs` gives one manifold per touching pair only, sorted by pair, identical
//    to the manifolds of those pairs given explicitly, on both backends.
import { describe, expect, it } from 'vitest';
import { bodyAabbs2D, sweepAndPrune2D } from '../src/broadphase2d.ts';
import type { Backend } from '../src/narrowphase.ts';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { packScene2D, unpackManifolds2D, type ManifoldJson } from '../src/pack2d.ts';
import { rng } from '../src/random2d.ts';
import { parseScene2D as parseScene, type Scene2D } from '../src/scene.ts';
import { BACKENDS, useNarrowphases, type Json, type V } from './helpers/collide2d.ts';

const { np } = useNarrowphases();

// ---- random scenes (seeded with mulberry32, so every run sees the same scenes) ----

/** A random valid shape of size about `size`. */
function randomShape(r: () => number, size: number): Json {
  const radius = r() < 0.3 ? 0.1 * size * r() : 0;
  switch (Math.floor(r() * 4)) {
    case 0:
      return { type: 'box', halfExtents: [size * (0.2 + r()), size * (0.2 + r())], radius };
    case 1:
      return {
        type: 'circle',
        radius: size * (0.2 + r()),
        center: r() < 0.3 ? [size * (r() - 0.5), size * (r() - 0.5)] : [0, 0],
      };
    case 2: {
      const a: V = [size * (r() - 0.5), size * (r() - 0.5)];
      const t = 2 * Math.PI * r();
      const len = size * (0.3 + r());
      return {
        type: 'capsule',
        a,
        b: [a[0] + len * Math.cos(t), a[1] + len * Math.sin(t)],
        radius: size * (0.05 + 0.5 * r()),
      };
    }
    default: {
      // A regular n-gon stretched along x and y: convex and counter-clockwise.
      const n = 3 + Math.floor(r() * 6);
      const sx = size * (0.3 + r());
      const sy = size * (0.3 + r());
      const phase = r();
      return {
        type: 'polygon',
        vertices: Array.from({ length: n }, (_, k) => [
          sx * Math.cos(phase + (2 * Math.PI * k) / n),
          sy * Math.sin(phase + (2 * Math.PI * k) / n),
        ]),
        radius,
      };
    }
  }
}

/**
 * A random scene: `n` bodies of ordinary size scattered over a field of `spread` units; a few
 * huge bodies (size 1e3..1e4) among them, a few a million units away (in a small cluster of their
 * own, so they do have pairs), and some bodies stacked on the same spot.
 */
function randomScene(seed: number, n: number, spread: number, margin: number): Json {
  const r = rng(seed);
  const shapes: Json[] = [];
  const bodies: Json[] = [];
  for (let i = 0; i < n; i++) {
    const kind = r();
    let size = 0.5 + r();
    let position: V = [spread * r(), spread * r()];
    if (kind < 0.03)
      size = 1e3 + 9e3 * r(); // huge
    else if (kind < 0.1)
      position = [1e6 + 5 * r(), -1e6 + 5 * r()]; // far away, clustered
    else if (kind < 0.15 && bodies.length > 0)
      position = [...(bodies[Math.floor(r() * bodies.length)]!.position as V)]; // stacked
    shapes.push(randomShape(r, size));
    bodies.push({ shape: i, position, angle: 2 * Math.PI * (r() - 0.5) });
  }
  return { dim: 2, margin, shapes, bodies };
}

// ---- reference pair sets ----

type Aabb = [number, number, number, number];

/** Brute force over the broadphase's own (grown, padded) AABBs: closed-interval overlap. */
function bruteForce(box: Float64Array, n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      if (
        box[4 * a]! <= box[4 * b + 2]! &&
        box[4 * b]! <= box[4 * a + 2]! &&
        box[4 * a + 1]! <= box[4 * b + 3]! &&
        box[4 * b + 1]! <= box[4 * a + 3]!
      ) {
        out.push([a, b]);
      }
    }
  }
  return out;
}

/** Exact world AABBs of the validated shapes, computed here (rounding radius and margin added). */
function exactAabbs(scene: Scene2D, grow: number): Aabb[] {
  return Array.from({ length: scene.bodyShape.length }, (_, i) => {
    const s = scene.shapes[scene.bodyShape[i]!]!;
    const c = Math.cos(scene.bodyAngle[i]!);
    const sn = Math.sin(scene.bodyAngle[i]!);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let v = 0; v < s.count; v++) {
      const x = s.vertices[2 * v]!;
      const y = s.vertices[2 * v + 1]!;
      xs.push(scene.bodyPosition[2 * i]! + c * x - sn * y);
      ys.push(scene.bodyPosition[2 * i + 1]! + sn * x + c * y);
    }
    const g = s.radius + grow;
    return [
      Math.min(...xs) - g,
      Math.min(...ys) - g,
      Math.max(...xs) + g,
      Math.max(...ys) + g,
    ] as Aabb;
  });
}

const overlap = (p: Aabb, q: Aabb, pad = 0): boolean =>
  p[0] - pad <= q[2] + pad &&
  q[0] - pad <= p[2] + pad &&
  p[1] - pad <= q[3] + pad &&
  q[1] - pad <= p[3] + pad;

function pairList(pairs: Uint32Array): [number, number][] {
  return Array.from(
    { length: pairs.length / 2 },
    (_, k) => [pairs[2 * k]!, pairs[2 * k + 1]!] as [number, number],
  );
}

function allPairs(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) out.push([a, b]);
  return out;
}

function expectSortedUnique(pairs: [number, number][]): void {
  for (const [a, b] of pairs) expect(a).toBeLessThan(b);
  for (let k = 1; k < pairs.length; k++) {
    const [a0, b0] = pairs[k - 1]!;
    const [a1, b1] = pairs[k]!;
    expect(
      a0 < a1 || (a0 === a1 && b0 < b1),
      `pairs ${k - 1} and ${k}: [${a0},${b0}] then [${a1},${b1}]`,
    ).toBe(true);
  }
}

const SCENES = [
  { seed: 1, n: 300, spread: 40, margin: 0 },
  { seed: 2, n: 300, spread: 25, margin: 0.05 },
  { seed: 3, n: 200, spread: 10, margin: 0.5 },
  { seed: 4, n: 400, spread: 200, margin: 0 },
  { seed: 5, n: 60, spread: 3, margin: 0.01 }, // crowded: most pairs overlap
];

describe('sweepAndPrune2D', () => {
  it.each(SCENES)(
    'equals brute force on random scene $seed ($n bodies, spread $spread, margin $margin)',
    ({ seed, n, spread, margin }) => {
      const scene = parseScene(randomScene(seed, n, spread, margin));
      const sap = pairList(sweepAndPrune2D(scene));
      expectSortedUnique(sap);
      const brute = bruteForce(bodyAabbs2D(scene, scene.margin), n);
      expect(sap).toEqual(brute);
      // Not a vacuous comparison: the scene has pairs, and not every pair.
      expect(sap.length).toBeGreaterThan(0);
      expect(sap.length).toBeLessThan((n * (n - 1)) / 2);
    },
  );

  it.each(SCENES)(
    'is complete and tight against exact AABBs on random scene $seed',
    ({ seed, n, spread, margin }) => {
      const scene = parseScene(randomScene(seed, n, spread, margin));
      const sap = new Set(pairList(sweepAndPrune2D(scene)).map(([a, b]) => `${a},${b}`));
      const exact = exactAabbs(scene, margin);
      for (const [a, b] of allPairs(n)) {
        const ea = exact[a]!;
        const eb = exact[b]!;
        // Complete: exact AABBs (grown by the margin) that overlap are always reported.
        if (overlap(ea, eb)) expect(sap.has(`${a},${b}`), `pair [${a},${b}] missing`).toBe(true);
        // Tight: a reported pair's AABBs overlap once padded by a hair (the broadphase pads by
        // 1e-6 of a shape's extent against f32 rounding).
        if (sap.has(`${a},${b}`)) {
          // ...and by 4 f32 steps of its coordinates (the narrowphase sees f32-rounded positions).
          const padOf = (i: number): number => {
            const extent = scene.shapes[scene.bodyShape[i]!]!.extent;
            return (
              1e-6 * extent +
              4 *
                2 ** -23 *
                (Math.abs(scene.bodyPosition[2 * i]!) +
                  Math.abs(scene.bodyPosition[2 * i + 1]!) +
                  extent)
            );
          };
          const pad = 2 * Math.max(padOf(a), padOf(b));
          expect(overlap(ea, eb, pad), `pair [${a},${b}] reported without overlapping AABBs`).toBe(
            true,
          );
        }
      }
    },
  );

  it.each(SCENES)(
    'contains every pair the narrowphase finds touching (cpu, all pairs) on random scene $seed',
    async ({ seed, n, spread, margin }) => {
      const json = randomScene(seed, n, spread, margin);
      const sap = new Set(pairList(sweepAndPrune2D(parseScene(json))).map(([a, b]) => `${a},${b}`));
      const { manifolds } = await np.cpu.collide({ ...json, pairs: allPairs(n) });
      const touching = manifolds.filter((m) => m.points.length > 0);
      expect(touching.length).toBeGreaterThan(0);
      for (const m of touching)
        expect(sap.has(`${m.pair[0]},${m.pair[1]}`), `touching pair [${m.pair}] missing`).toBe(
          true,
        );
    },
  );

  it('huge and far-away bodies: the expected pairs by construction', () => {
    // 0: huge box (half 5000) at the origin; 1: small box inside it; 2: small box far outside
    // (1e6 away); 3: a circle touching 2's AABB; 4: a circle just outside the huge box's corner
    // region along x (AABB gap 0.5); 5: a capsule straddling the huge box's right face.
    const scene = parseScene({
      dim: 2,
      margin: 0,
      shapes: [
        { type: 'box', halfExtents: [5000, 5000] },
        { type: 'box', halfExtents: [1, 1] },
        { type: 'circle', radius: 1 },
        { type: 'capsule', a: [-2, 0], b: [2, 0], radius: 0.5 },
      ],
      bodies: [
        { shape: 0, position: [0, 0] },
        { shape: 1, position: [10, -20] },
        { shape: 1, position: [1e6, 1e6] },
        { shape: 2, position: [1e6 + 2, 1e6] },
        { shape: 2, position: [5001.5, 0] },
        { shape: 3, position: [5000, 4000] },
      ],
    });
    expect(pairList(sweepAndPrune2D(scene))).toEqual([
      [0, 1],
      [0, 5],
      [2, 3],
    ]);
  });

  it('far from the origin, finds the pairs the f32-packed narrowphase sees touching', async () => {
    // Circles r = 1 at x = 1000000.04 and r = 1.01 at x = 1000002.08: 0.03 apart in f64, but the
    // packed f32 positions are 1000000.0625 and 1000002.0625 (f32 spacing there is 0.0625), so the
    // packed path (the packed API, the GPU frames) collides them 0.01 deep. The broadphase pads by
    // the f32 spacing at the bodies' positions, so it keeps the pair. collide() computes such far
    // pairs relative to body A's position in f64 (src/precision.ts) and finds them 0.03 apart.
    const json = {
      dim: 2,
      shapes: [
        { type: 'circle', radius: 1 },
        { type: 'circle', radius: 1.01 },
      ],
      bodies: [
        { shape: 0, position: [1000000.04, 0] },
        { shape: 1, position: [1000002.08, 0] },
      ],
    };
    const scene = parseScene(json);
    expect(pairList(sweepAndPrune2D(scene))).toEqual([[0, 1]]);
    const pairs = new Uint32Array([0, 1]);
    const packed = packScene2D(scene, pairs);
    const f32 = unpackManifolds2D(
      collidePacked2D(prepareCpu2D(packed, scene.shapes.length), packed),
      pairs,
      false,
    );
    expect(f32[0]!.points[0]!.depth).toBeCloseTo(0.01, 5);
    const explicit = await np.cpu.collide({ ...json, pairs: [[0, 1]] });
    expect(explicit.manifolds[0]!.points).toEqual([]);
    expect(explicit.stats.rebasedPairs).toBe(1);
    expect((await np.cpu.collide(json)).manifolds).toEqual([]);
  });
});

// ---- scenes without pairs ----

/**
 * A hand-made scene, bodies numbered out of x order so the sort matters:
 *   0  ground box (4, 0.5) at (0, 0), top face y = 0.5
 *   1  box (0.5, 0.5) at (0, 0.99): resting on the ground, 0.01 deep          -> touching 0
 *   2  circle r 0.5 at (4.4, 0.9): diagonally off the ground's corner (4, 0.5), 0.566 from it:
 *      the AABBs overlap but the shapes are 0.066 apart                        -> touching 0 only with margin ≥ 0.066
 *   3  box (1, 1) at (100, 100): alone
 *   4  circle r 0.5 at (−3, 1.05): 0.05 above the ground                      -> touching 0 only with margin ≥ 0.05
 *   5  box (0.5, 0.5) at (0.6, 1.98): on box 1, 0.01 deep                      -> touching 1
 */
const HAND_SCENE = {
  dim: 2,
  shapes: [
    { type: 'box', halfExtents: [4, 0.5] },
    { type: 'box', halfExtents: [0.5, 0.5] },
    { type: 'circle', radius: 0.5 },
    { type: 'box', halfExtents: [1, 1] },
  ],
  bodies: [
    { shape: 0, position: [0, 0] },
    { shape: 1, position: [0, 0.99] },
    { shape: 2, position: [4.4, 0.9] },
    { shape: 3, position: [100, 100] },
    { shape: 2, position: [-3, 1.05] },
    { shape: 1, position: [0.6, 1.98] },
  ],
};

/** The manifolds of the same scene with every pair (a < b) given explicitly, those with points. */
async function touchingByAllPairs(backend: Backend, json: Json): Promise<ManifoldJson[]> {
  const n = (json.bodies as unknown[]).length;
  const { manifolds } = await np[backend].collide({ ...json, pairs: allPairs(n) });
  return manifolds.filter((m) => m.points.length > 0);
}

describe.each(BACKENDS)('scenes without pairs (%s backend)', (backend) => {
  it('margin 0: only the touching pairs [0,1] and [1,5], sorted; the AABB-only pair [0,2] is left out', async () => {
    expect(pairList(sweepAndPrune2D(parseScene({ ...HAND_SCENE, margin: 0 })))).toContainEqual([
      0, 2,
    ]);
    const { manifolds, stats } = await np[backend].collide({ ...HAND_SCENE, margin: 0 });
    expect(manifolds.map((m) => m.pair)).toEqual([
      [0, 1],
      [1, 5],
    ]);
    expect(stats.pairs).toBeGreaterThanOrEqual(3); // the broadphase's pairs, [0,2] among them
    for (const m of manifolds) {
      expect(m.normal[1]).toBeCloseTo(1, 5); // from the lower body up to the upper one
      expect(m.points.length).toBe(2);
      for (const p of m.points) expect(p.depth).toBeCloseTo(0.01, 5);
    }
  });

  it('margin 0.1: the speculative pairs [0,2] and [0,4] join, still sorted', async () => {
    const { manifolds } = await np[backend].collide({ ...HAND_SCENE, margin: 0.1 });
    expect(manifolds.map((m) => m.pair)).toEqual([
      [0, 1],
      [0, 2],
      [0, 4],
      [1, 5],
    ]);
    const m02 = manifolds[1]!;
    expect(m02.points.length).toBe(1);
    expect(m02.points[0]!.depth).toBeCloseTo(0.5 - Math.hypot(0.4, 0.4), 5);
    const m04 = manifolds[2]!;
    expect(m04.points[0]!.depth).toBeCloseTo(-0.05, 5);
  });

  it.each([{ margin: 0 }, { margin: 0.1 }])(
    'hand scene, margin $margin: identical to the touching pairs given explicitly',
    async ({ margin }) => {
      const json = { ...HAND_SCENE, margin };
      expect((await np[backend].collide(json)).manifolds).toEqual(
        await touchingByAllPairs(backend, json),
      );
    },
  );

  it.each(SCENES.filter((s) => s.n <= 300).map((s) => ({ ...s, n: Math.min(s.n, 120) })))(
    'random scene $seed ($n bodies): touching pairs only, sorted, identical to all pairs given explicitly',
    async ({ seed, n, spread, margin }) => {
      const json = randomScene(seed, n, spread, margin);
      const { manifolds } = await np[backend].collide(json);
      const pairs = manifolds.map((m) => m.pair);
      expectSortedUnique(pairs);
      for (const m of manifolds) expect(m.points.length).toBeGreaterThan(0);
      expect(manifolds).toEqual(await touchingByAllPairs(backend, json));
      expect(manifolds.length).toBeGreaterThan(0);
    },
  );

  it('collision filters: of three boxes on one spot, only the two whose categories meet', async () => {
    // Box 0 is in category 1 and meets 2; box 1 in 2 and meets 1; box 2 in 4 and meets everything,
    // but neither 0 nor 1 meets 4. Given explicitly, pairs are not filtered.
    const json = {
      dim: 2,
      shapes: [
        { type: 'box', halfExtents: [1, 1], filter: { categoryBits: 1, maskBits: 2 } },
        { type: 'box', halfExtents: [1, 1], filter: { categoryBits: 2, maskBits: 1 } },
        { type: 'box', halfExtents: [1, 1], filter: { categoryBits: 4 } },
      ],
      bodies: [
        { shape: 0, position: [0, 0] },
        { shape: 1, position: [0.5, 0] },
        { shape: 2, position: [0, 0.5] },
      ],
    };
    expect((await np[backend].collide(json)).manifolds.map((m) => m.pair)).toEqual([[0, 1]]);
    const all = await np[backend].collide({
      ...json,
      pairs: [
        [0, 1],
        [0, 2],
        [1, 2],
      ],
    });
    expect(all.manifolds.filter((m) => m.points.length > 0).map((m) => m.pair)).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
  });

  it('a scene without pairs where nothing touches gives no manifolds', async () => {
    const { manifolds } = await np[backend].collide({
      dim: 2,
      shapes: [{ type: 'circle', radius: 1 }],
      bodies: [
        { shape: 0, position: [0, 0] },
        { shape: 0, position: [5, 0] },
        { shape: 0, position: [0, 5] },
      ],
    });
    expect(manifolds).toEqual([]);
  });

  it('an empty pair list (given explicitly) gives no manifolds', async () => {
    const { manifolds } = await np[backend].collide({ ...HAND_SCENE, pairs: [] });
    expect(manifolds).toEqual([]);
  });
});
