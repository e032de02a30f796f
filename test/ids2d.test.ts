// Feature ids are stable while the same features touch: a solver warm-starts each contact point
// from the previous frame's point with the same id, so a resting body moved or turned by tiny
// amounts must keep its point count and its ids, and each id must stay with the same physical
// point. Also the axis hysteresis: nearly parallel faces do not swap the reference face.
//
// Each test builds one scene holding every step: body 0 is the support, bodies 1..n are the moving
// body at each step, pairs [0, k]. Both backends.
//
// Ground G = box with half extents (4, 0.5) at the origin, top face y = 0.5.
import { describe, expect, it } from 'vitest';
import { AXIS_HYSTERESIS } from '../src/constants.ts';
import type { Backend } from '../src/narrowphase.ts';
import type { ManifoldJson } from '../src/pack2d.ts';
import { BACKENDS, GROUND, useNarrowphases, type Json, type V } from './helpers/collide2d.ts';

const { np } = useNarrowphases();

interface Placement {
  position: V;
  angle: number;
}

/** The manifolds of `mover` at every placement against `support` at the origin, in order. */
async function steps(
  backend: Backend,
  support: Json,
  mover: Json,
  placements: Placement[],
): Promise<ManifoldJson[]> {
  const { manifolds } = await np[backend].collide({
    dim: 2,
    shapes: [support, mover],
    bodies: [
      { shape: 0, position: [0, 0] },
      ...placements.map((p) => ({ shape: 1, position: p.position, angle: p.angle })),
    ],
    pairs: placements.map((_, k) => [0, k + 1]),
  });
  expect(manifolds.length).toBe(placements.length);
  return manifolds;
}

const hex = (ids: number[]) => ids.map((id) => `0x${id.toString(16)}`).join(', ');

/**
 * Every step has `count` points and the same ids as step 0, and from one step to the next the
 * point with a given id moves no further than `maxMove` (the ids follow the physical points
 * rather than trading places).
 */
function expectStableIds(
  ms: ManifoldJson[],
  placements: Placement[],
  count: number,
  maxMove: number,
): void {
  const ids0 = ms[0]!.points.map((p) => p.id).sort((a, b) => a - b);
  expect(ids0.length, `step 0: ${JSON.stringify(ms[0])}`).toBe(count);
  expect(new Set(ids0).size).toBe(count);
  for (let k = 0; k < ms.length; k++) {
    const m = ms[k]!;
    const where = `step ${k} (position [${placements[k]!.position}], angle ${placements[k]!.angle}): ${JSON.stringify(m)}`;
    expect(m.points.length, where).toBe(count);
    const ids = m.points.map((p) => p.id).sort((a, b) => a - b);
    expect(hex(ids), `ids at ${where}; step 0 had ${hex(ids0)}`).toBe(hex(ids0));
    if (k === 0) continue;
    for (const p of m.points) {
      const q = ms[k - 1]!.points.find((x) => x.id === p.id)!;
      const move = Math.hypot(p.position[0]! - q.position[0]!, p.position[1]! - q.position[1]!);
      expect(move, `point 0x${p.id.toString(16)} jumped at ${where}`).toBeLessThanOrEqual(maxMove);
    }
  }
}

const range = (n: number, f: (k: number) => Placement): Placement[] =>
  Array.from({ length: n }, (_, k) => f(k));

describe.each(BACKENDS)('feature id stability (%s backend)', (backend) => {
  // A box (1, 0.5) resting 0.01 deep on G at (0.3, 0.99): 2 points under its bottom vertices.
  // Its size is 2, so a step of 1e-4 of its size is 2e-4.
  const BOX: Json = { type: 'box', halfExtents: [1, 0.5] };
  const REST: V = [0.3, 0.99];
  const STEP = 2e-4;

  it('box resting on a box, moved horizontally by steps of 1e-4 of its size: same ids, 2 points', async () => {
    const ps = range(101, (k) => ({ position: [REST[0] + (k - 50) * STEP, REST[1]], angle: 0 }));
    expectStableIds(await steps(backend, GROUND, BOX, ps), ps, 2, 2 * STEP);
  });

  it('box resting on a box, turned by ±1e-4 rad (alternating, and a sweep): same ids, 2 points', async () => {
    const alternating = range(40, (k) => ({
      position: REST,
      angle: (k % 2 === 0 ? 1 : -1) * 1e-4,
    }));
    const sweep = range(41, (k) => ({ position: REST, angle: (k - 20) * 5e-6 }));
    // A point moves by at most |Δangle| · (distance to the center ≈ 1.1) per step.
    expectStableIds(await steps(backend, GROUND, BOX, alternating), alternating, 2, 3e-4);
    expectStableIds(await steps(backend, GROUND, BOX, sweep), sweep, 2, 1e-5);
  });

  it('box resting on a box, moved and turned together (a jittering stack): same ids, 2 points', async () => {
    const ps = range(60, (k) => ({
      position: [REST[0] + (((k * 7) % 11) - 5) * STEP, REST[1] + (((k * 3) % 5) - 2) * 1e-5],
      angle: (((k * 5) % 9) - 4) * 2.5e-5,
    }));
    expectStableIds(await steps(backend, GROUND, BOX, ps), ps, 2, 5e-3);
  });

  it('capsule lying on a box, moved by steps of 1e-4 of its length and turned by ±1e-4 rad: same ids, 2 points', async () => {
    // Capsule (−1, 0)–(1, 0), r = 0.25, at (0.2, 0.74): 0.01 deep, 2 points under the segment's ends.
    const CAPSULE: Json = { type: 'capsule', a: [-1, 0], b: [1, 0], radius: 0.25 };
    const moved = range(101, (k) => ({ position: [0.2 + (k - 50) * STEP, 0.74], angle: 0 }));
    const turned = range(40, (k) => ({
      position: [0.2, 0.74],
      angle: (k % 2 === 0 ? 1 : -1) * 1e-4,
    }));
    expectStableIds(await steps(backend, GROUND, CAPSULE, moved), moved, 2, 2 * STEP);
    expectStableIds(await steps(backend, GROUND, CAPSULE, turned), turned, 2, 3e-4);
  });

  describe('axis hysteresis: nearly parallel faces keep the reference face', () => {
    // A = a small box (1, 0.5) at the origin (top face y = 0.5, x ∈ [−1, 1]); B = a wide box
    // (4, 0.5) lying on it at (0, 0.99), turned by θ about its center. Unturned, both faces
    // separate by −0.01, a tie that A's face wins. Turned by θ, A's face sees B's far corner (4
    // from B's center) drop by ≈ 4 sin θ, while B's face sees A's corner (1 from the center) only
    // ≈ sin θ: B's face becomes better by ≈ 3 sin θ. The hysteresis keeps A's face (normal exactly
    // A's (0, 1)) until that exceeds AXIS_HYSTERESIS × the pair's length scale (the smaller extent,
    // A's: √(1 + 0.25)).
    const SMALL: Json = { type: 'box', halfExtents: [1, 0.5] };
    const WIDE: Json = { type: 'box', halfExtents: [4, 0.5] };
    const scale = Math.hypot(1, 0.5);
    const threshold = AXIS_HYSTERESIS * scale;

    /** SAT separations of A's best face and B's best face for B turned by θ (f64, exact geometry). */
    function separations(theta: number): { a: number; b: number } {
      const c = Math.cos(theta);
      const s = Math.sin(theta);
      const corners: V[] = [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ];
      const av = corners.map(([x, y]) => [x, 0.5 * y] as V);
      const bv = corners.map(
        ([x, y]) => [c * 4 * x - s * 0.5 * y, 0.99 + s * 4 * x + c * 0.5 * y] as V,
      );
      const face = (poly: V[], other: V[]) =>
        Math.max(
          ...poly.map((p, i) => {
            const q = poly[(i + 1) % 4]!;
            const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
            const n: V = [(q[1] - p[1]) / len, -(q[0] - p[0]) / len];
            return Math.min(...other.map((v) => n[0] * (v[0] - p[0]) + n[1] * (v[1] - p[1])));
          }),
        );
      return { a: face(av, bv), b: face(bv, av) };
    }

    it('the setup: B’s face is better than A’s by less than the hysteresis for |θ| ≤ 1.5e-4, by more at 1e-3', () => {
      for (const theta of [-1.5e-4, -1e-4, -5e-5, 5e-5, 1e-4, 1.5e-4]) {
        const { a, b } = separations(theta);
        expect(b, `θ = ${theta}`).toBeGreaterThan(a);
        expect(b - a, `θ = ${theta}`).toBeLessThan(threshold);
      }
      const { a, b } = separations(1e-3);
      expect(b - a).toBeGreaterThan(threshold);
    });

    it('turning B by up to ±1.5e-4 rad does not flip the reference face: normal (0, 1), ids unchanged', async () => {
      const ps = range(31, (k) => ({ position: [0, 0.99], angle: (k - 15) * 1e-5 }));
      const ms = await steps(backend, SMALL, WIDE, ps);
      expectStableIds(ms, ps, 2, 1e-4);
      for (const [k, m] of ms.entries()) {
        // A's face normal, not B's (−sin θ, cos θ): B's face would tilt it by up to 1.5e-4.
        expect(
          Math.abs(m.normal[0]!),
          `step ${k}, θ = ${ps[k]!.angle}: ${JSON.stringify(m)}`,
        ).toBeLessThan(2e-6);
        expect(m.normal[1]).toBeCloseTo(1, 6);
        // Both points on A's face's extent x ∈ [−1, 1] (B's edge clipped by A's side planes).
        expect(m.points.map((p) => Math.abs(p.position[0]!))).toEqual([
          expect.closeTo(1, 4),
          expect.closeTo(1, 4),
        ]);
      }
    });

    it('turned by 1e-3 rad, beyond the hysteresis, B’s face does become the reference (so the test above can tell)', async () => {
      const theta = 1e-3;
      const [m] = await steps(backend, SMALL, WIDE, [{ position: [0, 0.99], angle: theta }]);
      expect(m!.points.length).toBe(2);
      // Normal from A to B = −(B's bottom face normal (sin θ, −cos θ)).
      expect(m!.normal[0]).toBeCloseTo(-Math.sin(theta), 6);
      expect(m!.normal[1]).toBeCloseTo(Math.cos(theta), 6);
    });
  });

  describe('one-point contacts: a vertex on a face', () => {
    // The same two features touch at every step (one vertex of the moving body, G's top face), so
    // the one point keeps its id. The moving body's two edges at that vertex are equally good
    // incident edges when it is balanced; which one is taken must not change the id.
    it('box balanced on its corner, turned by ±1e-4 rad about 45°: 1 point, same id', async () => {
      // Box (0.5, 0.5) at (0.2, 0.5 + √2/2 − 0.01), angle π/4 ± 1e-4: its lowest vertex (vertex 0)
      // is 0.01 deep in G's top face at every step.
      const BOX_SMALL: Json = { type: 'box', halfExtents: [0.5, 0.5] };
      const ps = range(20, (k) => ({
        position: [0.2, 0.5 + Math.SQRT1_2 - 0.01],
        angle: Math.PI / 4 + (k % 2 === 0 ? 1 : -1) * 1e-4,
      }));
      const ms = await steps(backend, GROUND, BOX_SMALL, ps);
      // Every step: the same vertex–face contact, about 0.01 deep.
      for (const m of ms) expect(m.points.map((p) => p.depth)).toEqual([expect.closeTo(0.01, 4)]);
      expectStableIds(ms, ps, 1, 1e-3);
    });

    it('capsule standing on its end, turned by ±1e-4 rad: 1 point, same id', async () => {
      // Capsule (0, −0.5)–(0, 0.5), r = 0.25, at (0.3, 1.24): its lower end touches G 0.01 deep.
      const CAPSULE: Json = { type: 'capsule', a: [0, -0.5], b: [0, 0.5], radius: 0.25 };
      const ps = range(20, (k) => ({
        position: [0.3, 1.24],
        angle: (k % 2 === 0 ? 1 : -1) * 1e-4,
      }));
      const ms = await steps(backend, GROUND, CAPSULE, ps);
      for (const m of ms) expect(m.points.map((p) => p.depth)).toEqual([expect.closeTo(0.01, 4)]);
      expectStableIds(ms, ps, 1, 1e-3);
    });

    it('circle rolling along a box face by tiny steps: 1 point, same id', async () => {
      const ps = range(101, (k) => ({ position: [0.7 + (k - 50) * 1e-4, 0.99], angle: k * 1e-3 }));
      expectStableIds(
        await steps(backend, GROUND, { type: 'circle', radius: 0.5 }, ps),
        ps,
        1,
        2e-4,
      );
    });
  });
});
