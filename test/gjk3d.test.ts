// The closest points of two hulls apart (src/cpu/gjk3d.ts, the CPU reference of shaders/gjk3d.wgsl;
// the GPU side runs in test/gpu-vs-cpu3d.test.ts's sets of hulls apart). Seeded random hulls and
// boxes in random poses, apart by 1e-3 to 1 of their size or more: the distance must equal an
// independent brute force over features (src/validity3d.ts), the witness points must lie on the
// two surfaces that distance apart, and the feature ids must hold them (validity3d's own checks).
// A coverage guard asserts that every kind of closest-feature pair came up.

import { describe, expect, it } from 'vitest';
import { FEATURE_EDGE_3D, FEATURE_FACE_3D } from '../src/constants3d.ts';
import { closestHulls3D, emptyHullClosest3D } from '../src/cpu/gjk3d.ts';
import { emptyHull3D, quatToMatrix3D } from '../src/cpu/manifold3d.ts';
import { makeShape3D, type Shape3D } from '../src/shapes3d.ts';
import {
  featureProblem,
  hullSignedDistance,
  placeShape3D,
  surfaceDistance3D,
  type PlacedShape3D,
} from '../src/validity3d.ts';
import {
  mulberry32,
  randomBox3D,
  randomHull3D,
  randomQuat,
  uniform,
  type Rng,
} from './helpers/random3d.ts';

type V3 = [number, number, number];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number =>
  a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const sub = (a: ArrayLike<number>, b: ArrayLike<number>): V3 => [
  a[0]! - b[0]!,
  a[1]! - b[1]!,
  a[2]! - b[2]!,
];
const len = (a: ArrayLike<number>): number => Math.sqrt(dot(a, a));

function randomShape(rng: Rng, index: number): Shape3D {
  const size = uniform(rng, 0.5, 2);
  return makeShape3D(rng() < 0.3 ? randomBox3D(rng, size) : randomHull3D(rng, size), index);
}

describe('GJK: closest points of two hulls apart', () => {
  it('matches a brute-force distance on 3000 random pairs, points on both surfaces, ids holding them', () => {
    const rng = mulberry32(0x61c3);
    const kinds: Record<string, number> = {};
    const problems: string[] = [];
    let checked = 0;
    for (let k = 0; k < 3000; k++) {
      const P = randomShape(rng, 0);
      const Q = randomShape(rng, 1);
      const qP = randomQuat(rng);
      const qQ = randomQuat(rng);
      // Q's centre along a random direction u.
      const dir = randomQuat(rng).slice(0, 3) as V3;
      const dl = len(dir);
      const u: V3 = [dir[0] / dl, dir[1] / dl, dir[2] / dl];
      const cP = sub([0, 0, 0], rotate(qP, P.center));
      const pp = placeShape3D(P, cP, qP);
      const extent = Math.max(P.extent, Q.extent);
      // Q's centre at t u, t such that the hulls' extents along u leave a gap of 1e-3..1 × the size
      // between them (so they are apart by at least that).
      const gap = extent * Math.exp(uniform(rng, Math.log(1e-3), 0));
      const placeQ = (t: number): PlacedShape3D =>
        placeShape3D(Q, sub([u[0] * t, u[1] * t, u[2] * t], rotate(qQ, Q.center)), qQ);
      const q0 = placeQ(0);
      const t =
        gap + Math.max(...pp.v.map((v) => dot(u, v))) + Math.max(...q0.v.map((v) => -dot(u, v)));
      const pq = placeQ(t);
      const expected = surfaceDistance3D(pp, pq);
      // The working frame: P's shape frame (P at identity), Q relative to it.
      const A = emptyHull3D(P);
      const B = emptyHull3D(Q);
      const mP = new Float64Array(9);
      const mQ = new Float64Array(9);
      quatToMatrix3D(qP, mP);
      quatToMatrix3D(qQ, mQ);
      // rot_B = R_P^T R_Q, pos_B = R_P^T (c_Q − c_P), c_P = 0.
      for (let r = 0; r < 3; r++)
        for (let c = 0; c < 3; c++)
          B.rot[3 * r + c] = mP[r]! * mQ[c]! + mP[3 + r]! * mQ[3 + c]! + mP[6 + r]! * mQ[6 + c]!;
      const cQ: V3 = [u[0] * t, u[1] * t, u[2] * t];
      for (let r = 0; r < 3; r++)
        B.pos[r] = mP[r]! * cQ[0] + mP[3 + r]! * cQ[1] + mP[6 + r]! * cQ[2];
      const hc = closestHulls3D(A, B, u, Math.min(P.extent, Q.extent), emptyHullClosest3D());
      checked++;
      const tol = 1e-9 * extent;
      if (!(Math.abs(hc.distance - expected) <= 1e-5 * expected + tol))
        problems.push(`pair ${k}: distance ${hc.distance}, brute force ${expected}`);
      // Witness points back in world space (the working frame is P's, rotated by qP about the origin).
      const p = applyM(mP, hc.p);
      const q = applyM(mP, hc.q);
      if (!(Math.abs(len(sub(q, p)) - hc.distance) <= tol))
        problems.push(`pair ${k}: witness points ${len(sub(q, p))} apart, distance ${hc.distance}`);
      const onP = hullSignedDistance(pp, p);
      const onQ = hullSignedDistance(pq, q);
      if (!(Math.abs(onP) <= 1e-6 * extent && Math.abs(onQ) <= 1e-6 * extent))
        problems.push(`pair ${k}: witness points off the surfaces by ${onP}, ${onQ}`);
      const fp = featureProblem(pp, hc.featureP, p, 1e-6 * extent);
      const fq = featureProblem(pq, hc.featureQ, q, 1e-6 * extent);
      if (fp) problems.push(`pair ${k}: P's ${fp}`);
      if (fq) problems.push(`pair ${k}: Q's ${fq}`);
      const kind = (f: number): string =>
        f < FEATURE_EDGE_3D ? 'vertex' : f < FEATURE_FACE_3D ? 'edge' : 'face';
      const key = [kind(hc.featureP), kind(hc.featureQ)].sort().join('-');
      kinds[key] = (kinds[key] ?? 0) + 1;
    }
    console.log(`GJK: ${checked} pairs apart, closest-feature kinds ${JSON.stringify(kinds)}`);
    expect(problems.length, problems.slice(0, 5).join('\n')).toBe(0);
    // Coverage: vertex–face and edge–edge are the generic closest pairs of random hulls; boxes
    // and merged faces give the degenerate kinds (face–face, edge–face) too.
    expect(kinds['face-vertex'] ?? 0, 'vertex over a face').toBeGreaterThan(500);
    expect(kinds['edge-edge'] ?? 0, 'crossing edges').toBeGreaterThan(500);
  });

  it('two boxes corner to corner: the corners, their distance, vertex ids', () => {
    // Axis-aligned unit cubes offset along the diagonal by 1 + 0.05 / sqrt 3: corners 0.05 apart.
    const cube = makeShape3D({ type: 'box', halfExtents: [0.5, 0.5, 0.5] }, 0);
    const s = 1 + 0.05 / Math.sqrt(3);
    const A = emptyHull3D(cube);
    const B = emptyHull3D(cube);
    B.pos.set([s, s, s]);
    const hc = closestHulls3D(A, B, [1, 0, 0], 1, emptyHullClosest3D());
    expect(hc.distance).toBeCloseTo(0.05, 9);
    expect(Array.from(hc.p)).toEqual([0.5, 0.5, 0.5].map((x) => expect.closeTo(x, 9)));
    expect(Array.from(hc.q)).toEqual([s - 0.5, s - 0.5, s - 0.5].map((x) => expect.closeTo(x, 9)));
    expect(hc.featureP).toBeLessThan(FEATURE_EDGE_3D);
    expect(hc.featureQ).toBeLessThan(FEATURE_EDGE_3D);
  });
});

function rotate(q: ArrayLike<number>, v: ArrayLike<number>): V3 {
  const m = new Float64Array(9);
  quatToMatrix3D(q, m);
  return applyM(m, v);
}

function applyM(m: Float64Array, v: ArrayLike<number>): V3 {
  return [
    m[0]! * v[0]! + m[1]! * v[1]! + m[2]! * v[2]!,
    m[3]! * v[0]! + m[4]! * v[1]! + m[5]! * v[2]!,
    m[6]! * v[0]! + m[7]! * v[1]! + m[8]! * v[2]!,
  ];
}
