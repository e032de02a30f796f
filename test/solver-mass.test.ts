// Host mass properties of the solver's shapes (src/solver/mass2d.ts, mass3d.ts) against closed
// forms: a w × h box has area wh and inertia m(w² + h²)/12; a disc m r²/2; a capsule is a
// rectangle plus a disc; a 3D box has diagonal inertia m(b² + c²)/12 whatever its hull's
// triangulation; a rotated hull gives the rotated tensor; sphere 2/5 m r².

import { describe, expect, it } from 'vitest';
import { makeShape2D } from '../src/shapes2d.ts';
import { makeShape3D } from '../src/shapes3d.ts';
import { shapeMass2D } from '../src/solver/mass2d.ts';
import { invertMat3, shapeMass3D } from '../src/solver/mass3d.ts';

describe('solver mass properties', () => {
  it('2D: box, offset polygon, disc, capsule', () => {
    const box = shapeMass2D(makeShape2D({ type: 'box', halfExtents: [1, 0.5] }, 0));
    expect(box.area).toBeCloseTo(2, 12);
    expect(box.center[0]).toBeCloseTo(0, 12);
    expect(box.inertia).toBeCloseTo((2 * (4 + 1)) / 12, 12);
    // The same box as a polygon far from its frame's origin: same inertia about its centre.
    const far = shapeMass2D(
      makeShape2D(
        {
          type: 'polygon',
          vertices: [
            [9, 4.5],
            [11, 4.5],
            [11, 5.5],
            [9, 5.5],
          ],
        },
        0,
      ),
    );
    expect(far.area).toBeCloseTo(2, 9);
    expect(far.center).toEqual([expect.closeTo(10, 9), expect.closeTo(5, 9)]);
    expect(far.inertia).toBeCloseTo(box.inertia, 8);
    const disc = shapeMass2D(makeShape2D({ type: 'circle', radius: 2, center: [1, 0] }, 0));
    expect(disc.area).toBeCloseTo(4 * Math.PI, 12);
    expect(disc.center).toEqual([1, 0]);
    expect(disc.inertia).toBeCloseTo(0.5 * 4 * Math.PI * 4, 10);
    const cap = shapeMass2D(
      makeShape2D({ type: 'capsule', a: [-1, 0], b: [1, 0], radius: 0.5 }, 0),
    );
    expect(cap.area).toBeCloseTo(2 + Math.PI / 4, 12);
    // Rounded box (radius 0.1): between the core box and the mitred offset box.
    const round = shapeMass2D(makeShape2D({ type: 'box', halfExtents: [1, 0.5], radius: 0.1 }, 0));
    expect(round.area).toBeCloseTo(2.2 * 1.2, 9);
  });

  it('3D: box, rotated box hull, sphere, capsule', () => {
    const box = shapeMass3D(makeShape3D({ type: 'box', halfExtents: [1, 0.5, 0.25] }, 0));
    const m = 2 * 1 * 0.5;
    expect(box.volume).toBeCloseTo(m, 10);
    const expected = [(m * (1 + 0.25)) / 12, (m * (4 + 0.25)) / 12, (m * (4 + 1)) / 12];
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++)
        expect(box.inertia[3 * i + j]).toBeCloseTo(i === j ? expected[i]! : 0, 10);
    // A cube given as a hull offset by (5, 0, 0): centre there, same tensor.
    const cube = shapeMass3D(
      makeShape3D(
        {
          type: 'hull',
          vertices: [0, 1].flatMap((x) =>
            [0, 1].flatMap((y) =>
              [0, 1].map((z) => [5 + x - 0.5, y - 0.5, z - 0.5] as [number, number, number]),
            ),
          ),
        },
        0,
      ),
    );
    expect(cube.volume).toBeCloseTo(1, 10);
    expect(cube.center.map((x) => +x.toFixed(9))).toEqual([5, 0, 0]);
    for (let i = 0; i < 3; i++) expect(cube.inertia[4 * i]).toBeCloseTo(1 / 6, 10);
    // A 2 × 1 × 1 box rotated 45° about z: off-diagonal xy = (Iy - Ix)/2 ... sign by orientation.
    const c = Math.SQRT1_2;
    const rot = (x: number, y: number, z: number): [number, number, number] => [
      c * x - c * y,
      c * x + c * y,
      z,
    ];
    const tilted = shapeMass3D(
      makeShape3D(
        {
          type: 'hull',
          vertices: [-1, 1].flatMap((x) =>
            [-0.5, 0.5].flatMap((y) => [-0.5, 0.5].map((z) => rot(x, y, z))),
          ),
        },
        0,
      ),
    );
    const [ix, iy] = [(2 * (1 + 1)) / 12, (2 * (4 + 1)) / 12];
    expect(tilted.inertia[0]).toBeCloseTo((ix + iy) / 2, 10);
    expect(Math.abs(tilted.inertia[1]!)).toBeCloseTo((iy - ix) / 2, 10);
    const inv = invertMat3(tilted.inertia);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let k = 0; k < 3; k++) s += tilted.inertia[3 * i + k]! * inv[3 * k + j]!;
        expect(s).toBeCloseTo(i === j ? 1 : 0, 10);
      }
    }
    const ball = shapeMass3D(makeShape3D({ type: 'sphere', radius: 2 }, 0));
    expect(ball.volume).toBeCloseTo((4 / 3) * Math.PI * 8, 10);
    expect(ball.inertia[0]).toBeCloseTo(0.4 * ball.volume * 4, 10);
    const cap = shapeMass3D(
      makeShape3D({ type: 'capsule', a: [0, -1, 0], b: [0, 1, 0], radius: 0.5 }, 0),
    );
    expect(cap.volume).toBeCloseTo(Math.PI * 0.25 * 2 + (4 / 3) * Math.PI * 0.125, 10);
    expect(cap.inertia[4]).toBeCloseTo(
      0.5 * Math.PI * 0.25 * 2 * 0.25 + 0.4 * (4 / 3) * Math.PI * 0.125 * 0.25,
      10,
    ); // about the axis (y)
    expect(cap.inertia[0]).toBeGreaterThan(cap.inertia[4]!);
  });
});
