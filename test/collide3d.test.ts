// Analytic fixtures of the 3D CPU reference (in the spirit of Box3D's test_manifold.c): every case
// states its geometry and the exact manifold it must give.

import { describe, expect, it } from 'vitest';
import { makeShape3D, type Quat, type Shape3D, type Vec3 } from '../src/shapes3d.ts';
import { collide3D } from '../src/cpu/collide3d.ts';
import { CONTACT_KIND_3D, emptyManifold3D, type Manifold3D } from '../src/cpu/manifold3d.ts';
import { checkManifold3D } from '../src/validity3d.ts';
import { FEATURE_EDGE_3D, FEATURE_FACE_3D } from '../src/constants3d.ts';

const I: Quat = [0, 0, 0, 1];
const axisAngle = (x: number, y: number, z: number, angle: number): Quat => {
  const l = Math.hypot(x, y, z);
  const s = Math.sin(angle / 2) / l;
  return [x * s, y * s, z * s, Math.cos(angle / 2)];
};
const mul = (a: Quat, b: Quat): Quat => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];

function run(
  a: Shape3D,
  pa: Vec3,
  qa: Quat,
  b: Shape3D,
  pb: Vec3,
  qb: Quat,
  margin = 0,
  tol = 1e-8,
): Manifold3D {
  const m = emptyManifold3D();
  collide3D(a, { position: pa, rotation: qa }, b, { position: pb, rotation: qb }, margin, m);
  const problem = checkManifold3D(
    m,
    a,
    { position: pa, rotation: qa },
    b,
    { position: pb, rotation: qb },
    tol,
  );
  expect(problem).toBeNull();
  return m;
}
const pts = (m: Manifold3D): number[][] =>
  Array.from({ length: m.count }, (_, k) => [
    m.positions[3 * k]!,
    m.positions[3 * k + 1]!,
    m.positions[3 * k + 2]!,
  ]);
const sorted = (p: number[][]): number[][] =>
  [...p].sort((u, v) => u[0]! - v[0]! || u[1]! - v[1]! || u[2]! - v[2]!);
function expectClose(actual: ArrayLike<number>, expected: number[], tol = 1e-12): void {
  for (let i = 0; i < expected.length; i++)
    expect(Math.abs(actual[i]! - expected[i]!)).toBeLessThan(tol);
}

const ground = makeShape3D({ type: 'box', halfExtents: [5, 5, 1] }, 0); // top face at z = 1
const cube = makeShape3D({ type: 'box', halfExtents: [0.5, 0.5, 0.5] }, 1);

describe('box–box', () => {
  it('a box resting on a larger box: its 4 bottom corners, equal depth', () => {
    // Unit cube whose bottom face sinks 0.01 into the ground's top face (z = 1).
    const m = run(ground, [0, 0, 0], I, cube, [0.25, -0.5, 1.49], I);
    expect(m.kind).toBe(CONTACT_KIND_3D.faceA);
    expectClose(m.normal, [0, 0, 1]);
    expect(m.count).toBe(4);
    expect(sorted(pts(m))).toEqual(
      sorted([
        [-0.25, -1, 0.995],
        [0.75, -1, 0.995],
        [-0.25, 0, 0.995],
        [0.75, 0, 0.995],
      ]).map((p) => p.map((x) => expect.closeTo(x, 12))),
    );
    for (let k = 0; k < 4; k++) expect(m.depths[k]).toBeCloseTo(0.01, 12);
    expect(new Set(m.ids).size).toBe(4);
  });

  it('swapping A and B negates the normal, keeps the points and swaps the id halves', () => {
    const m1 = run(ground, [0, 0, 0], I, cube, [0.25, -0.5, 1.49], I);
    const m2 = run(cube, [0.25, -0.5, 1.49], I, ground, [0, 0, 0], I);
    expectClose(m2.normal, [0, 0, -1]);
    expect(m2.count).toBe(4);
    expect(sorted(pts(m2))).toEqual(
      sorted(pts(m1)).map((p) => p.map((x) => expect.closeTo(x, 12))),
    );
    const swapId = (id: number): number => ((id & 0xff) << 8) | (id >> 8);
    expect(new Set(Array.from(m2.ids).map(swapId))).toEqual(new Set(m1.ids));
  });

  it('a box balanced on its edge across another box: 2 points at the edge ends', () => {
    // Cube rotated 45° about x: its lowest edge runs along x at height z = center - √2/2.
    const h = Math.SQRT1_2;
    const m = run(
      ground,
      [0, 0, 0],
      I,
      cube,
      [0, 0, 1 + h - 0.01],
      axisAngle(1, 0, 0, Math.PI / 4),
    );
    expectClose(m.normal, [0, 0, 1]);
    expect(m.count).toBe(2);
    expect(sorted(pts(m))).toEqual(
      [
        [-0.5, 0, 0.995],
        [0.5, 0, 0.995],
      ].map((p) => p.map((x) => expect.closeTo(x, 12))),
    );
    expect(m.depths[0]).toBeCloseTo(0.01, 12);
    expect(m.depths[1]).toBeCloseTo(0.01, 12);
  });

  it('two boxes edge to edge at right angles: 1 point at the closest points of the edges', () => {
    // A: cube rotated 45° about x (top edge along x at z = √2/2). B: cube rotated 45° about y
    // (bottom edge along y), lowered so the edges cross with 0.02 overlap, offset by (0.1, 0.2).
    const h = Math.SQRT1_2;
    const m = run(
      cube,
      [0, 0, 0],
      axisAngle(1, 0, 0, Math.PI / 4),
      cube,
      [0.1, 0.2, 2 * h - 0.02],
      axisAngle(0, 1, 0, Math.PI / 4),
    );
    expect(m.kind).toBe(CONTACT_KIND_3D.edge);
    expect(m.count).toBe(1);
    expectClose(m.normal, [0, 0, 1]);
    // A's edge point (0.1, 0, h), B's (0.1, 0.2 - 0.2 = ..) -> both at x = 0.1, y = 0: midway at h - 0.01.
    expectClose(m.positions, [0.1, 0, h - 0.01]);
    expect(m.depths[0]).toBeCloseTo(0.02, 12);
    expect(m.ids[0]! >> 8).toBeGreaterThanOrEqual(FEATURE_EDGE_3D);
    expect(m.ids[0]! >> 8).toBeLessThan(FEATURE_FACE_3D);
  });

  it('two boxes corner to corner, apart by less than the margin: one speculative point joining the corners', () => {
    // Axis-aligned unit cubes offset along the diagonal: the corners (0.5, 0.5, 0.5) of A and
    // (-0.5, -0.5, -0.5) of B are 0.05 apart; every face axis separates them by 0.05 / sqrt 3 and
    // B's -x face has four vertices tied as the deepest.
    const d = 0.05;
    const s = 1 / Math.sqrt(3);
    const m = run(cube, [0, 0, 0], I, cube, [1 + d * s, 1 + d * s, 1 + d * s], I, 0.1);
    expect(m.kind).toBe(CONTACT_KIND_3D.closest);
    expect(m.count).toBe(1);
    expectClose(m.normal, [s, s, s], 1e-9);
    expect(m.depths[0]).toBeCloseTo(-d, 9);
    expectClose(m.positions, [0.5 + 0.5 * d * s, 0.5 + 0.5 * d * s, 0.5 + 0.5 * d * s], 1e-9);
    // Without the margin: nothing.
    expect(run(cube, [0, 0, 0], I, cube, [1 + d * s, 1 + d * s, 1 + d * s], I, 0).count).toBe(0);
  });

  it('a box tilted on a face: the per-point depths differ', () => {
    // Cube rotated by θ about y; its lowest bottom edge (x = +0.5) sinks 0.02 into the ground; the
    // other bottom edge is sin θ higher, speculative within the margin.
    const t = 0.1;
    const zc = 1 + 0.5 * (Math.sin(t) + Math.cos(t)) - 0.02;
    const m = run(ground, [0, 0, 0], I, cube, [0, 0, zc], axisAngle(0, 1, 0, t), 0.1);
    expect(m.count).toBe(4);
    const depths = Array.from(m.depths).sort((a, b) => a - b);
    expect(depths[0]).toBeCloseTo(0.02 - Math.sin(t), 12);
    expect(depths[1]).toBeCloseTo(0.02 - Math.sin(t), 12);
    expect(depths[2]).toBeCloseTo(0.02, 12);
    expect(depths[3]).toBeCloseTo(0.02, 12);
  });

  it('no contact when farther apart than the margin; speculative points within it', () => {
    expect(run(ground, [0, 0, 0], I, cube, [0, 0, 1.6], I, 0.05).count).toBe(0);
    const m = run(ground, [0, 0, 0], I, cube, [0, 0, 1.53], I, 0.05);
    expect(m.count).toBe(4);
    for (let k = 0; k < 4; k++) expect(m.depths[k]).toBeCloseTo(-0.03, 12);
  });

  it('two equal boxes stacked with an offset: the overlap square, reduced to its 4 corners', () => {
    // Equal cubes, B shifted by (0.3, 0.2) and rotated 45° about z: the clip polygon has 8
    // vertices; the reduction keeps 4 of them, all at the same depth.
    const m = run(cube, [0, 0, 0], I, cube, [0.3, 0.2, 0.99], axisAngle(0, 0, 1, Math.PI / 4));
    expect(m.count).toBe(4);
    for (let k = 0; k < 4; k++) expect(m.depths[k]).toBeCloseTo(0.01, 12);
  });

  it('scales 1e-3 and 1e3 give the same manifold, scaled', () => {
    const ref = run(ground, [0, 0, 0], I, cube, [0.1, 0.2, 1.49], axisAngle(1, 2, 3, 0.05), 0.1);
    for (const s of [1e-3, 1e3]) {
      const g = makeShape3D({ type: 'box', halfExtents: [5 * s, 5 * s, s] }, 0);
      const c = makeShape3D({ type: 'box', halfExtents: [0.5 * s, 0.5 * s, 0.5 * s] }, 1);
      const m = emptyManifold3D();
      collide3D(
        g,
        { position: [0, 0, 0], rotation: I },
        c,
        { position: [0.1 * s, 0.2 * s, 1.49 * s], rotation: axisAngle(1, 2, 3, 0.05) },
        0.1 * s,
        m,
      );
      expect(m.count).toBe(ref.count);
      expect(Array.from(m.ids)).toEqual(Array.from(ref.ids));
      for (let k = 0; k < m.count; k++) expect(m.depths[k]! / s).toBeCloseTo(ref.depths[k]!, 9);
    }
  });
});

describe('resting contact is stable', () => {
  it('a resting box moved by tiny steps keeps its 4 ids and count', () => {
    const base = run(ground, [0, 0, 0], I, cube, [0, 0, 1.495], I);
    const ids = new Set(base.ids);
    expect(ids.size).toBe(4);
    let changed = 0;
    for (let step = 0; step < 500; step++) {
      // Drift a little, wobble by up to ~1e-3 rad, sink/rise by up to 2 mm.
      const q = mul(
        axisAngle(0, 0, 1, 1e-3 * Math.sin(step * 0.37)),
        axisAngle(1, 0.3, 0, 5e-4 * Math.sin(step * 0.11)),
      );
      const m = run(
        ground,
        [0, 0, 0],
        I,
        cube,
        [1e-4 * step, -5e-5 * step, 1.495 + 0.002 * Math.sin(step * 0.05)],
        q,
      );
      if (m.count !== 4 || !Array.from(m.ids).every((id) => ids.has(id))) changed++;
    }
    expect(changed).toBe(0);
  });

  it('two equal cubes stacked flush keep their 4 corner ids under f32-sized noise (clip slop)', () => {
    // B sits exactly on A, corners on corners: B's bottom corners lie on A's top face's side
    // planes. Noise of 1e-7 (what f32 transforms add) must not cut a corner into edge-crossing
    // points with other ids from one frame to the next: a stack of cubes would lose its warm start.
    const base = run(cube, [0, 0, 0], I, cube, [0, 0, 0.999], I);
    expect(base.count).toBe(4);
    const ids = new Set(base.ids);
    let changed = 0;
    for (let step = 0; step < 200; step++) {
      const e = 1e-7;
      const q = axisAngle(Math.sin(step), Math.cos(step * 1.3), 1, e * Math.sin(step * 0.7));
      const m = run(
        cube,
        [0, 0, 0],
        I,
        cube,
        [e * Math.sin(step * 1.1), e * Math.cos(step * 0.9), 0.999],
        q,
      );
      if (m.count !== 4 || !Array.from(m.ids).every((id) => ids.has(id))) changed++;
    }
    expect(changed).toBe(0);
  });

  it('a vertex lying on a side plane, its face running out across it, is one point under f32-sized noise', () => {
    // B's bottom face is the triangle (0, 0.1) (1, 0) (0, 1) (local z = 0), resting 0.001 deep on
    // the cube A's top face with its vertex (0, 0.1) on A's side plane y = 0.5 (world (0.3, 0.5)).
    // The edge to (1, 0) runs inside and leaves across x = 0.5; the edge to (0, 1) leaves across
    // y = 0.5 at the vertex itself. Kept: the vertex, the crossing (0.5, 0.48) and A's corner
    // (0.5, 0.5). Noise of 1e-7 puts the vertex on either side of y = 0.5: outside it is in the
    // slop band, kept and clamped; inside it must be kept alone too, not with a crossing of the
    // outgoing edge a few 1e-8 from it (the same point twice, under two ids, frame to frame).
    const tri = makeShape3D(
      {
        type: 'hull',
        vertices: [
          [0, 0.1, 0],
          [1, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
          [0.6, 0.6, 0.6],
        ],
      },
      2,
    );
    const base = run(cube, [0, 0, 0], I, tri, [0.3, 0.4, 0.499], I);
    expect(base.count).toBe(3);
    expect(sorted(pts(base))).toEqual(
      sorted([
        [0.3, 0.5, 0.4995],
        [0.5, 0.48, 0.4995],
        [0.5, 0.5, 0.4995],
      ]).map((p) => p.map((x) => expect.closeTo(x, 9))),
    );
    const ids = new Set(base.ids);
    let changed = 0;
    let closest = Infinity;
    for (let step = 0; step < 200; step++) {
      const e = 1e-7;
      const q = axisAngle(Math.sin(step), Math.cos(step * 1.3), 1, e * Math.sin(step * 0.7));
      // Clamped onto the plane, the vertex moves off itself by the noise: check within 1e-6.
      const m = run(
        cube,
        [0, 0, 0],
        I,
        tri,
        [0.3 + e * Math.sin(step * 1.1), 0.4 + e * Math.cos(step * 0.9), 0.499],
        q,
        0,
        1e-6,
      );
      if (m.count !== 3 || !Array.from(m.ids).every((id) => ids.has(id))) changed++;
      const p = pts(m);
      for (let a = 0; a < p.length; a++)
        for (let b = a + 1; b < p.length; b++)
          closest = Math.min(
            closest,
            Math.hypot(p[a]![0]! - p[b]![0]!, p[a]![1]! - p[b]![1]!, p[a]![2]! - p[b]![2]!),
          );
    }
    expect(changed).toBe(0);
    expect(closest).toBeGreaterThan(0.01);
  });

  it('a box above another, flush with its side: the two faces share a segment, its 2 ends once each', () => {
    // B (half extents 0.3, 0.4, 0.3) hovers 0.02 above the unit cube A (margin 0.05), its left face
    // in A's right face plane x = 0.5: the faces' overlap is the segment x = 0.5, y from -0.1 to
    // 0.5. Clipping leaves a 2-point polygon on the side plane x = 0.5; its one edge crosses A's side
    // plane y = 0.5 once (the closing edge is the same segment back and must not cross it again).
    const b = makeShape3D({ type: 'box', halfExtents: [0.3, 0.4, 0.3] }, 2);
    const m = run(cube, [0, 0, 0], I, b, [0.8, 0.3, 0.82], I, 0.05);
    expect(m.kind).toBe(CONTACT_KIND_3D.faceA);
    expectClose(m.normal, [0, 0, 1]);
    expect(m.count).toBe(2);
    expect(sorted(pts(m))).toEqual(
      sorted([
        [0.5, -0.1, 0.51],
        [0.5, 0.5, 0.51],
      ]).map((p) => p.map((x) => expect.closeTo(x, 9))),
    );
    for (let k = 0; k < 2; k++) expect(m.depths[k]).toBeCloseTo(-0.02, 9);
  });

  it('two equal boxes resting face to face keep A as the reference face (hysteresis)', () => {
    // With identical faces the A and B face separations tie; a tiny tilt must not flip to B.
    for (let i = 0; i < 50; i++) {
      const m = run(
        cube,
        [0, 0, 0],
        I,
        cube,
        [0.2, 0.1, 0.999],
        axisAngle(1, 1, 0, 1e-5 * Math.sin(i)),
      );
      expect(m.kind).toBe(CONTACT_KIND_3D.faceA);
    }
  });
});

describe('round shapes', () => {
  const sphere = makeShape3D({ type: 'sphere', radius: 0.5 }, 2);
  const capsule = makeShape3D({ type: 'capsule', a: [-1, 0, 0], b: [1, 0, 0], radius: 0.25 }, 3);

  it('a sphere on a face: one point below its centre', () => {
    const m = run(ground, [0, 0, 0], I, sphere, [1, 2, 1.45], I);
    expect(m.count).toBe(1);
    expectClose(m.normal, [0, 0, 1]);
    expectClose(m.positions, [1, 2, 0.975]);
    expect(m.depths[0]).toBeCloseTo(0.05, 12);
  });

  it('a sphere whose centre is inside a box pushes out through the nearest face', () => {
    const m = run(cube, [0, 0, 0], I, sphere, [0.1, 0.05, 0.4], I);
    expect(m.count).toBe(1);
    expectClose(m.normal, [0, 0, 1]);
    expect(m.depths[0]).toBeCloseTo(0.5 + 0.1, 12);
  });

  it('a sphere against a box corner: the normal joins the corner and the centre', () => {
    const d = 0.45 / Math.sqrt(3);
    const m = run(cube, [0, 0, 0], I, sphere, [0.5 + d, 0.5 + d, 0.5 + d], I);
    expect(m.count).toBe(1);
    const s = 1 / Math.sqrt(3);
    expectClose(m.normal, [s, s, s]);
    expect(m.depths[0]).toBeCloseTo(0.05, 12);
  });

  it('a capsule lying on a face: 2 points at its ends', () => {
    const m = run(ground, [0, 0, 0], I, capsule, [0, 0, 1.24], I);
    expect(m.count).toBe(2);
    expectClose(m.normal, [0, 0, 1]);
    expect(sorted(pts(m))).toEqual(
      [
        [-1, 0, 0.995],
        [1, 0, 0.995],
      ].map((p) => p.map((x) => expect.closeTo(x, 12))),
    );
    expect(m.depths[0]).toBeCloseTo(0.01, 12);
  });

  it('a capsule sunk into a face and tilted: 2 points with different depths', () => {
    // Both ends are clipped points; the upper end's point lies r (1 - cos t) inside the capsule
    // (its true deepest point is not straight below the end), the usual clipped-capsule error.
    const t = 0.05;
    const m = run(
      ground,
      [0, 0, 0],
      I,
      capsule,
      [0, 0, 1.1],
      axisAngle(0, 1, 0, t),
      0,
      0.25 * (1 - Math.cos(t)) + 1e-9,
    );
    expect(m.count).toBe(2);
    const depths = Array.from(m.depths.subarray(0, 2)).sort();
    expect(depths[0]).toBeCloseTo(0.15 - Math.sin(t), 12);
    expect(depths[1]).toBeCloseTo(0.15 + Math.sin(t), 12);
  });

  it('a capsule standing on a face: 1 point', () => {
    const m = run(ground, [0, 0, 0], I, capsule, [0, 0, 2.2], axisAngle(0, 1, 0, Math.PI / 2));
    expect(m.count).toBe(1);
    expect(m.depths[0]).toBeCloseTo(0.05, 12);
  });

  it('a capsule across a box edge: 1 point on the edge', () => {
    // Box edge along y at x = z = 0.5; capsule along y above it at 45°, sunk 0.01.
    const d = 0.24 / Math.SQRT2;
    const m = run(
      cube,
      [0, 0, 0],
      I,
      capsule,
      [0.5 + d, 0, 0.5 + d],
      axisAngle(0, 0, 1, Math.PI / 2),
    );
    expect(m.count).toBe(1);
    expectClose(m.normal, [Math.SQRT1_2, 0, Math.SQRT1_2]);
    expect(m.depths[0]).toBeCloseTo(0.01, 12);
  });

  it('sphere–sphere, sphere–capsule, crossing and parallel capsules', () => {
    let m = run(sphere, [0, 0, 0], I, sphere, [0.3, 0.4, 0.5], I);
    expect(m.count).toBe(1);
    const l = Math.hypot(0.3, 0.4, 0.5);
    expectClose(m.normal, [0.3 / l, 0.4 / l, 0.5 / l]);
    expect(m.depths[0]).toBeCloseTo(1 - l, 12);
    m = run(sphere, [0, 0, 0], I, capsule, [0.3, 0, 0.7], I);
    expect(m.count).toBe(1);
    expectClose(m.normal, [0, 0, 1]);
    expect(m.depths[0]).toBeCloseTo(0.05, 12);
    m = run(capsule, [0, 0, 0], I, capsule, [0.2, 0.1, 0.45], axisAngle(0, 0, 1, Math.PI / 2));
    expect(m.count).toBe(1);
    expectClose(
      m.positions,
      [0.1, 0, 0.225].map((x, i) => (i === 0 ? 0.2 : i === 1 ? 0 : x)),
    );
    m = run(capsule, [0, 0, 0], I, capsule, [1.5, 0, 0.45], I);
    expect(m.count).toBe(2);
    expect(sorted(pts(m))).toEqual(
      [
        [0.5, 0, 0.225],
        [1, 0, 0.225],
      ].map((p) => p.map((x) => expect.closeTo(x, 12))),
    );
  });
});
