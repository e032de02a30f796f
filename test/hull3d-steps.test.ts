// The steps of hull building (src/hull3d-cloud.ts, src/hull3d-regions.ts, src/hull3d-faces.ts),
// each on its own, on analytic fixtures: a cube's corners and its 12 triangles, a flat L of three
// unit squares (a region that is not convex), a tetrahedron, and loops with points on edges.
// Whole hulls (random clouds, noisy faces, limits) are tested in test/shapes3d.test.ts.

import { describe, expect, it } from 'vitest';
import { COPLANAR_RELATIVE_3D } from '../src/constants3d.ts';
import { centreCloud, checkVolume, weldPoints, type P3 } from '../src/hull3d-cloud.ts';
import {
  centredVertices,
  collinearAt,
  dropCollinear,
  faceNormal,
  facePlanes,
  newellNormal,
  pairEdges,
  renumberFaces,
  usedVertices,
} from '../src/hull3d-faces.ts';
import {
  boundaryLoop,
  growConvex,
  isConvexLoop,
  mergeRegions,
  regionLoops,
  regionOrder,
  regrowNonConvex,
  spliceTriangle,
  triangleMesh,
  type LinkedLoop,
  type Regions,
} from '../src/hull3d-regions.ts';

const TOL = 1e-9;

// The cube [-1, 1]³: corner i has x = +1 where bit 0 of i is set, y bit 1, z bit 2.
const CUBE: P3[] = Array.from({ length: 8 }, (_, i) => [
  i & 1 ? 1 : -1,
  i & 2 ? 1 : -1,
  i & 4 ? 1 : -1,
]);
/** The cube's faces as quads, in cyclic order (wound either way): -x, +x, -y, +y, -z, +z. */
const CUBE_QUADS: number[][] = [0, 1, 2].flatMap((a) =>
  [0, 1].map((s) => {
    const base = s << a;
    const b1 = 1 << ((a + 1) % 3);
    const b2 = 1 << ((a + 2) % 3);
    return [base, base | b1, base | b1 | b2, base | b2];
  }),
);
/** Two triangles per quad, unoriented (triangleMesh turns the inward ones round). */
const cubeTriangles = (): number[][] =>
  CUBE_QUADS.flatMap(([a, b, c, d]) => [
    [a!, b!, c!],
    [a!, c!, d!],
  ]);

// A flat L of three unit squares in the plane z = 1 (the origin below it, so its normal is +z):
//   6 7        grid point (x, y) is index 3 y + x, but (2, 2) is left out:
//   3 4 5      squares (0,0)-(1,1), (1,0)-(2,1) and (0,1)-(1,2).
//   0 1 2
const L_POINTS: P3[] = [
  [0, 0, 1],
  [1, 0, 1],
  [2, 0, 1],
  [0, 1, 1],
  [1, 1, 1],
  [2, 1, 1],
  [0, 2, 1],
  [1, 2, 1],
];
const L_TRIANGLES = (): number[][] => [
  [0, 1, 4],
  [0, 4, 3],
  [1, 2, 5],
  [1, 5, 4],
  [3, 4, 7],
  [3, 7, 6],
];

describe('hull building: the cloud', () => {
  it('centres a cloud on its mean; reach is the largest distance from it', () => {
    const c = centreCloud('h', [
      [1, 2, 3],
      [3, 2, 3],
      [2, 2, 3],
      [2, 2, 5],
    ]);
    expect(c.mean).toEqual([2, 2, 3.5]);
    expect(c.reach).toBe(1.5);
    expect(c.local[3]).toEqual([0, 0, 1.5]);
    expect(() =>
      centreCloud('h', [
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
        [1, 1, 1],
      ]),
    ).toThrow(/^h: all points coincide \(size 0\)/);
  });

  it('welds points within the weld distance of an earlier kept point, keeping the first', () => {
    // 1 and 3 lie 1e-7 from 0 and 2; 4 lies 2e-6 from 2: kept.
    expect(
      weldPoints(
        [
          [0, 0, 0],
          [1e-7, 0, 0],
          [1, 0, 0],
          [1, 1e-7, 0],
          [1, 2e-6, 0],
        ],
        1e-6,
      ),
    ).toEqual([0, 2, 4]);
  });

  it('refuses clouds without volume: duplicates, a line, a plane', () => {
    const check = (pts: P3[], weld = 1e-6): void =>
      checkVolume(
        'h',
        pts,
        pts.map((_, i) => i),
        weld,
        1e-6,
      );
    expect(() =>
      check([
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ]),
    ).toThrow('h: all points coincide (duplicates only)');
    // Points 1e-7 apart, within the weld distance 1e-6 of the first.
    expect(() =>
      check([
        [0, 0, 0],
        [1e-7, 0, 0],
        [0, 1e-7, 0],
        [0, 0, 1e-7],
      ]),
    ).toThrow(/all points coincide/);
    expect(() =>
      check([
        [0, 0, 0],
        [1, 1, 1],
        [2, 2, 2],
        [3, 3, 3],
      ]),
    ).toThrow('h: points are collinear');
    // The fourth point 1e-7 off the plane z = 0 (within the tolerance 1e-6).
    expect(() =>
      check([
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [1, 1, 1e-7],
      ]),
    ).toThrow('h: points are coplanar');
    expect(() =>
      check([
        [0, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ]),
    ).not.toThrow();
  });
});

describe('hull building: regions of triangles', () => {
  it('orients triangles outward (away from the origin) with their planes, areas and half-edges', () => {
    const mesh = triangleMesh(CUBE, cubeTriangles());
    // Every triangle of a face of [-1, 1]³: unit axis normal, offset 1, twice its area 2.
    for (let t = 0; t < 12; t++) {
      expect(mesh.normal[t]!.map(Math.abs).sort()).toEqual([0, 0, 1]);
      expect(mesh.offset[t]).toBe(1);
      expect(mesh.area[t]).toBe(4);
      for (const v of mesh.tris[t]!)
        expect(
          mesh.normal[t]![0] * CUBE[v]![0] +
            mesh.normal[t]![1] * CUBE[v]![1] +
            mesh.normal[t]![2] * CUBE[v]![2],
        ).toBe(1);
    }
    // A closed surface: every half-edge has its twin.
    expect(mesh.halfEdge.size).toBe(36);
    for (const key of mesh.halfEdge.keys())
      expect(mesh.halfEdge.has((key % 8) * 8 + Math.floor(key / 8))).toBe(true);
  });

  it("merges the cube's 12 triangles into its 6 faces, each a convex loop of 4 from its lowest vertex", () => {
    const mesh = triangleMesh(CUBE, cubeTriangles());
    const regions = mergeRegions(mesh, regionOrder(mesh), TOL);
    expect(regions.normal).toHaveLength(6);
    for (let r = 0; r < 6; r++)
      expect(Array.from(regions.region).filter((x) => x === r)).toHaveLength(2);
    const loops = regionLoops(mesh, regions, TOL);
    for (const [r, loop] of loops.entries()) {
      expect(loop).toHaveLength(4);
      expect(loop![0]).toBe(Math.min(...loop!));
      // Counter-clockwise around the region's normal: (v1 − v0) × (v2 − v1) along it.
      const [a, b, c] = [CUBE[loop![0]!]!, CUBE[loop![1]!]!, CUBE[loop![2]!]!];
      const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const w = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
      const n = regions.normal[r]!;
      expect(
        (u[1]! * w[2]! - u[2]! * w[1]!) * n[0] +
          (u[2]! * w[0]! - u[0]! * w[2]!) * n[1] +
          (u[0]! * w[1]! - u[1]! * w[0]!) * n[2],
      ).toBe(4);
    }
  });

  it('finds a region whose boundary is not one simple loop (two triangles sharing one vertex)', () => {
    // Triangles (0, 1, 2) and (0, 3, 4) in the plane z = 1, touching at point 0 only.
    const mesh = triangleMesh(
      [
        [0, 0, 1],
        [1, 0, 1],
        [0, 1, 1],
        [-1, 0, 1],
        [0, -1, 1],
      ],
      [
        [0, 1, 2],
        [0, 3, 4],
      ],
    );
    expect(boundaryLoop(mesh, Int32Array.of(0, 0), 0)).toBeNull();
    expect(boundaryLoop(mesh, Int32Array.of(0, 1), 1)).toEqual([0, 3, 4]);
  });

  it('splices a triangle into a loop only where every corner stays convex', () => {
    // The unit square 0 (0,0) -> 1 (1,0) -> 2 (1,1) -> 3 (0,1) around +z; point 4 below edge 0 -> 1,
    // point 5 above it (inside the square: corner 5 would be reflex).
    const cloud: P3[] = [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0.5, -0.5, 0],
      [0.5, 0.3, 0],
    ];
    const square = (): LinkedLoop => ({
      next: new Map([
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 0],
      ]),
      prev: new Map([
        [1, 0],
        [2, 1],
        [3, 2],
        [0, 3],
      ]),
    });
    const outside = square();
    expect(spliceTriangle(cloud, outside, 0, 1, 4, [0, 0, 1], TOL)).toBe(true);
    expect([outside.next.get(0), outside.next.get(4), outside.prev.get(1)]).toEqual([4, 1, 4]);
    const reflex = square();
    expect(spliceTriangle(cloud, reflex, 0, 1, 5, [0, 0, 1], TOL)).toBe(false);
    expect(reflex.next.get(0)).toBe(1);
  });

  it('an L of three squares merges into one region that is not convex; regrowth splits it into a rectangle and a square', () => {
    const mesh = triangleMesh(L_POINTS, L_TRIANGLES());
    const order = regionOrder(mesh);
    const regions = mergeRegions(mesh, order, TOL);
    expect(Array.from(regions.region)).toEqual([0, 0, 0, 0, 0, 0]);
    const loops = regionLoops(mesh, regions, TOL);
    // The L's outline: 8 points (1 and 3 on straight sides), reflex at 4.
    expect(boundaryLoop(mesh, regions.region, 0)).toEqual([0, 1, 2, 5, 4, 7, 6, 3]);
    expect(loops).toEqual([null]);
    const regrown = regrowNonConvex(mesh, regions, order, loops, TOL);
    // Squares (0,0) and (1,0) grow from the first triangle into the rectangle 0-2-5-3; the third
    // square cannot join (corner 4 would turn reflex) and makes the second region.
    expect(Array.from(regions.region)).toEqual([0, 0, 0, 0, 1, 1]);
    expect(regrown).toEqual([
      [0, 1, 2, 5, 4, 3],
      [3, 4, 7, 6],
    ]);
    for (const loop of regrown) expect(isConvexLoop(L_POINTS, loop!, [0, 0, 1], TOL)).toBe(true);
  });

  it('growConvex takes only the triangles that keep the region convex', () => {
    const mesh = triangleMesh(L_POINTS, L_TRIANGLES());
    const regions: Regions = { region: new Int32Array(6).fill(-1), normal: [] };
    // Seeded in the top square: the square below it joins (the 1×2 rectangle 0-1-4-7-6-3); the
    // square to the right of that one would turn corner 4 reflex.
    growConvex(mesh, regions, 4, TOL);
    expect(Array.from(regions.region)).toEqual([0, 0, -1, -1, 0, 0]);
    expect(regions.normal).toEqual([[0, 0, 1]]);
  });
});

describe('hull building: faces, planes, edges', () => {
  it('drops a point in the middle of an edge, unless it is a corner of another face', () => {
    // The unit square with point 4 at the middle of edge 0 -> 1 (and 5 at the middle of 2 -> 3).
    const cloud: P3[] = [
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0.5, 0, 0],
      [0.5, 1, 0],
    ];
    expect(collinearAt(cloud, [0, 4, 1, 2, 3], 1, TOL)).toBe(true);
    expect(collinearAt(cloud, [0, 4, 1, 2, 3], 2, TOL)).toBe(false);
    expect(dropCollinear(cloud, [[0, 4, 1, 2, 5, 3]], TOL)).toEqual([[0, 1, 2, 3]]);
    // Point 5 is a corner of the triangle (5, 3, 0): kept in both loops.
    expect(
      dropCollinear(
        cloud,
        [
          [0, 4, 1, 2, 5, 3],
          [5, 3, 0],
        ],
        TOL,
      ),
    ).toEqual([
      [0, 1, 2, 5, 3],
      [5, 3, 0],
    ]);
  });

  it('numbers the used vertices in input order, centred on their mean', () => {
    const faces = [
      [5, 2, 7],
      [7, 2, 9],
    ];
    const used = usedVertices(faces);
    expect(used).toEqual([2, 5, 7, 9]);
    expect(renumberFaces(faces, used)).toEqual([
      [1, 0, 2],
      [2, 0, 3],
    ]);
    const cloud: P3[] = Array.from({ length: 10 }, (_, i) => [i, 0, 0]);
    const { vertices, mean, extent } = centredVertices(cloud, used);
    // Mean of x = 2, 5, 7, 9 (each divided by 4 before summing): 5.75.
    expect(mean).toEqual([5.75, 0, 0]);
    expect(Array.from(vertices)).toEqual([-3.75, 0, 0, -0.75, 0, 0, 1.25, 0, 0, 3.25, 0, 0]);
    expect(extent).toBe(3.75);
  });

  it("face normals: Newell's, refused when wound inward, the seed triangle's where an edge leaves the plane", () => {
    const square = Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0);
    expect(newellNormal(square, [0, 1, 2, 3])).toEqual([0, 0, 1]);
    expect(faceNormal('h', 0, square, [0, 1, 2, 3], [0, 0, 1])).toEqual([0, 0, 1]);
    expect(() => faceNormal('h', 3, square, [0, 3, 2, 1], [0, 0, 1])).toThrow(
      'h: hull face 3 is wound inward',
    );
    // Vertex 2 lifted by h = 8 COPLANAR_RELATIVE_3D: the Newell normal is about (-h/2, -h/2, 1), and
    // edge 1 -> 2, (0, 1, h), leaves its plane by h/2, more than twice the merge angle: the seed's
    // normal (0, 0, 1) is kept.
    const lifted = Float64Array.of(0, 0, 0, 1, 0, 0, 1, 1, 8 * COPLANAR_RELATIVE_3D, 0, 1, 0);
    expect(newellNormal(lifted, [0, 1, 2, 3])[2]).toBeLessThan(1);
    expect(faceNormal('h', 0, lifted, [0, 1, 2, 3], [0, 0, 1])).toEqual([0, 0, 1]);
  });

  it("the cube's faces: planes at offset 1, 12 edges each between two faces, Euler checked", () => {
    const vertices = Float64Array.from(CUBE.flat());
    // CUBE_QUADS wind counter-clockwise around +axis: the - faces (even) turned round.
    const faces = CUBE_QUADS.map((q, f) => (f % 2 === 0 ? [...q].reverse() : q));
    const normals: P3[] = [
      [-1, 0, 0],
      [1, 0, 0],
      [0, -1, 0],
      [0, 1, 0],
      [0, 0, -1],
      [0, 0, 1],
    ];
    const { planes, faceFirst, faceSize } = facePlanes('h', faces, vertices, normals);
    expect(Array.from(planes)).toEqual(normals.flatMap((n) => [...n, 1]));
    expect(Array.from(faceFirst)).toEqual([0, 4, 8, 12, 16, 20]);
    expect(Array.from(faceSize)).toEqual([4, 4, 4, 4, 4, 4]);
    const edges = pairEdges('h', faces, faceFirst, 8);
    expect(edges.edgeV0).toHaveLength(12);
    for (let e = 0; e < 12; e++) {
      const [f0, f1] = [edges.edgeF0[e]!, edges.edgeF1[e]!];
      // Adjacent faces of a cube have perpendicular normals.
      expect(
        normals[f0]![0] * normals[f1]![0] +
          normals[f0]![1] * normals[f1]![1] +
          normals[f0]![2] * normals[f1]![2],
      ).toBe(0);
      // Half-edge v0 -> v1 is in f0's loop.
      const loop = faces[f0]!;
      const i = loop.indexOf(edges.edgeV0[e]!);
      expect(loop[(i + 1) % 4]).toBe(edges.edgeV1[e]);
    }
    for (let k = 0; k < 24; k++)
      expect(edges.faceVertices[k]).toBe(faces[Math.floor(k / 4)]![k % 4]);
    // Without its top face the surface does not close.
    expect(() => pairEdges('h', faces.slice(0, 5), faceFirst, 8)).toThrow(
      'h: hull building failed: the faces do not close',
    );
  });
});
