// Shapes built by hand (src/checkshapes.ts): everything makeShape2D / makeShape3D builds passes,
// also after an f32 round trip through packing; each way a hand-built shape can be broken is
// refused by packShapes2D / packShapes3D with an InputError naming the shape and the reason.

import { describe, expect, it } from 'vitest';
import { makeScene3D, type Scenario3DName } from '../bench/scenes3d.ts';
import { checkShape2D, checkShape3D } from '../src/checkshapes.ts';
import { MAX_HULL_VERTICES } from '../src/constants3d.ts';
import { InputError } from '../src/errors.ts';
import { packShapes2D, unpackShapes2D } from '../src/pack2d.ts';
import { packShapes3D, unpackShapes3D } from '../src/pack3d.ts';
import { randomShape, rng } from '../src/random2d.ts';
import { randomHullPoints3D, randomRotation3D, randomShape3D } from '../src/random3d.ts';
import { makeShape2D, type Shape2D } from '../src/shapes2d.ts';
import { makeShape3D, type Shape3D, type Vec3 } from '../src/shapes3d.ts';
import { rotate } from './helpers/random3d.ts';

/** A deep copy (typed arrays copied), so a test can break one field. */
function copy3D(s: Shape3D): Shape3D {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s))
    out[k] = ArrayBuffer.isView(v) ? (v as Float64Array).slice() : Array.isArray(v) ? [...v] : v;
  return out as unknown as Shape3D;
}

/** Planes, inradius and extent recomputed from the vertices and face loops. */
function refitPlanes(s: Shape3D): void {
  const v = (i: number): Vec3 => [
    s.vertices[3 * i]!,
    s.vertices[3 * i + 1]!,
    s.vertices[3 * i + 2]!,
  ];
  s.inradius = Infinity;
  for (let f = 0; f < s.faceCount; f++) {
    const [a, b, c] = [0, 1, 2].map((k) => v(s.faceVertices[s.faceFirst[f]! + k]!)) as [
      Vec3,
      Vec3,
      Vec3,
    ];
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const w = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
    const n = [
      u[1]! * w[2]! - u[2]! * w[1]!,
      u[2]! * w[0]! - u[0]! * w[2]!,
      u[0]! * w[1]! - u[1]! * w[0]!,
    ];
    const l = Math.hypot(n[0]!, n[1]!, n[2]!);
    for (let k = 0; k < 3; k++) s.planes[4 * f + k] = n[k]! / l;
    s.planes[4 * f + 3] = (n[0]! * a[0] + n[1]! * a[1] + n[2]! * a[2]) / l;
    s.inradius = Math.min(s.inradius, s.planes[4 * f + 3]!);
  }
  s.extent = 0;
  for (let i = 0; i < s.vertexCount; i++) s.extent = Math.max(s.extent, Math.hypot(...v(i)));
}

function copy2D(s: Shape2D): Shape2D {
  return { ...s, vertices: s.vertices.slice(), normals: s.normals.slice() };
}

/** The error `pack` throws (it packs a sound shape 0 and a broken shape 1). */
function refusal(pack: () => unknown): InputError {
  try {
    pack();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('the broken shape was packed');
}
const refusal3D = (bad: Shape3D): InputError =>
  refusal(() => packShapes3D([makeShape3D({ type: 'sphere', radius: 1 }, 0), bad]));
const refusal2D = (bad: Shape2D): InputError =>
  refusal(() => packShapes2D([makeShape2D({ type: 'circle', radius: 1 }, 0), bad]));

describe('shapes our builders make pass', () => {
  it('3D: random hulls (4 to 34 points on spheres, prisms up to 64 vertices, sizes 1e-3 to 1e3), near-flat and boxy clouds, boxes, spheres, capsules; and after an f32 round trip', () => {
    const r = rng(31);
    const shapes: Shape3D[] = [];
    let hullVertices = 0;
    for (let i = 0; i < 1500; i++) {
      const size = 10 ** (-3 + 6 * r());
      if (i % 3 === 0) {
        // Points on a box's surface with noise near the coplanarity tolerance: merged faces.
        const n = 8 + Math.floor(r() * 40);
        const pts: Vec3[] = [];
        for (let k = 0; k < n; k++) {
          const p: Vec3 = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1];
          const axis = Math.floor(r() * 3);
          p[axis] = (r() < 0.5 ? -1 : 1) * (1 + 1e-5 * (2 * r() - 1));
          pts.push(p.map((x) => x * size) as Vec3);
        }
        for (let k = 0; k < 8; k++)
          pts.push([k & 1 ? size : -size, k & 2 ? size : -size, k & 4 ? size : -size]);
        shapes.push(makeShape3D({ type: 'hull', vertices: pts }, i));
      } else if (i % 3 === 1 && i % 2 === 0) {
        // Up to 34 points on a sphere: up to 64 triangles, the face limit.
        shapes.push(
          makeShape3D(
            { type: 'hull', vertices: randomHullPoints3D(r, 4 + Math.floor(r() * 31), size) },
            i,
          ),
        );
      } else if (i % 3 === 1) {
        // A k-sided prism, tilted: k-gon caps (up to 32 vertices, the face limit) and 2k vertices.
        const k = 3 + Math.floor(r() * 30);
        const q = randomRotation3D(r);
        const pts: Vec3[] = [];
        for (let j = 0; j < 2 * k; j++) {
          const t = (Math.floor(j / 2) / k) * 2 * Math.PI;
          pts.push(rotate(q, [size * Math.cos(t), size * Math.sin(t), j % 2 ? size : -size]));
        }
        shapes.push(makeShape3D({ type: 'hull', vertices: pts }, i));
      } else {
        shapes.push(makeShape3D(randomShape3D(r, 'mixed3d', size), i));
      }
      hullVertices = Math.max(hullVertices, shapes[i]!.vertexCount);
    }
    // The bench's shape pools too (hulls of 8 to 64 points).
    for (const s of ['hull8', 'hull64', 'spherehull'] as Scenario3DName[])
      shapes.push(...makeScene3D(s, 64).scene.shapes);
    shapes.forEach(checkShape3D);
    const packed = packShapes3D(shapes);
    // What the kernel reads (f32) passes as well: packing it again checks it.
    expect(() => packShapes3D(unpackShapes3D(packed))).not.toThrow();
    expect(hullVertices).toBe(MAX_HULL_VERTICES); // the sweep reached the vertex limit
  });

  it('2D: random polygons, boxes, circles, capsules of every size; and after an f32 round trip', () => {
    const r = rng(32);
    const shapes: Shape2D[] = [];
    for (let i = 0; i < 1500; i++)
      shapes.push(makeShape2D(randomShape(r, 'mixed', 10 ** (-3 + 6 * r())), i));
    shapes.forEach(checkShape2D);
    const packed = packShapes2D(shapes);
    expect(() => packShapes2D(unpackShapes2D(packed, shapes.length))).not.toThrow();
  });
});

describe('hand-built 3D shapes are refused, naming the shape and the reason', () => {
  // A unit cube as a general hull, and one 16-point hull with triangles and merged faces.
  const cube = makeShape3D(
    {
      type: 'hull',
      vertices: [
        [-1, -1, -1],
        [1, -1, -1],
        [-1, 1, -1],
        [1, 1, -1],
        [-1, -1, 1],
        [1, -1, 1],
        [-1, 1, 1],
        [1, 1, 1],
      ],
    },
    1,
  );
  const hull = makeShape3D({ type: 'hull', vertices: randomHullPoints3D(rng(5), 16, 1) }, 1);
  const box = makeShape3D({ type: 'box', halfExtents: [1, 2, 3] }, 1);
  const cases: [string, () => Shape3D, RegExp][] = [
    [
      'a vertex pushed out of the hull',
      () => {
        const s = copy3D(hull);
        for (let k = 0; k < 3; k++) s.vertices[k] = s.vertices[k]! * 1.5;
        s.extent = Math.max(s.extent, Math.hypot(s.vertices[0]!, s.vertices[1]!, s.vertices[2]!));
        return s;
      },
      /vertex 0 lies .* above the plane of face \d+: not convex/,
    ],
    [
      'a face normal pointing inwards',
      () => {
        const s = copy3D(cube);
        for (let k = 0; k < 3; k++) s.planes[4 * 2 + k] = -s.planes[4 * 2 + k]!;
        return s;
      },
      /face 2: its vertex \d+ lies -2 off its plane/,
    ],
    [
      'a normal not of unit length',
      () => {
        const s = copy3D(cube);
        s.planes[0] = s.planes[0]! * 1.01;
        return s;
      },
      /face 0: its normal .* is not unit length/,
    ],
    [
      'a face loop wound clockwise',
      () => {
        const s = copy3D(cube);
        const a = s.faceVertices.subarray(0, 4);
        a.reverse();
        return s;
      },
      /face 0: vertex 6 lies 1\.4142135\d* inside the chord from vertex 2 to 4: the face is not convex, or its loop is clockwise/,
    ],
    [
      'a face vertex index out of range',
      () => {
        const s = copy3D(hull);
        s.faceVertices[3] = s.vertexCount;
        return s;
      },
      /faceVertices\[3\] must be an integer from 0 to 15/,
    ],
    [
      'an edge with its ends swapped',
      () => {
        const s = copy3D(hull);
        const t = s.edgeV0[2]!;
        s.edgeV0[2] = s.edgeV1[2]!;
        s.edgeV1[2] = t;
        return s;
      },
      /edge 2 .*does not join/,
    ],
    [
      'an edge face out of range',
      () => {
        const s = copy3D(hull);
        s.edgeF1[0] = 200;
        return s;
      },
      /edgeF1\[0\] must be an integer from 0 to/,
    ],
    [
      'V − E + F ≠ 2',
      () => {
        const s = copy3D(hull);
        s.edgeCount -= 1;
        return s;
      },
      /V − E \+ F is .* not 2/,
    ],
    [
      'more vertices than the limit',
      () => {
        const s = copy3D(hull);
        s.vertexCount = MAX_HULL_VERTICES + 1;
        return s;
      },
      /vertexCount must be an integer from 4 to 64, got 65/,
    ],
    [
      'a NaN coordinate',
      () => {
        const s = copy3D(hull);
        s.vertices[4] = NaN;
        return s;
      },
      /vertices\[4\] must be a finite number, got NaN/,
    ],
    [
      'an Infinity plane offset',
      () => {
        const s = copy3D(hull);
        s.planes[3] = Infinity;
        return s;
      },
      /planes\[3\] must be a finite number, got Infinity/,
    ],
    [
      'a wrong extent',
      () => {
        const s = copy3D(hull);
        s.extent *= 2;
        return s;
      },
      /extent is .*; its largest \|vertex\| is/,
    ],
    [
      'an inradius larger than a plane offset',
      () => {
        const s = copy3D(hull);
        s.inradius = 10;
        return s;
      },
      /inradius 10 must be > 0 and at most every plane offset/,
    ],
    [
      'a zero inradius',
      () => {
        const s = copy3D(hull);
        s.inradius = 0;
        return s;
      },
      /inradius 0 must be > 0/,
    ],
    [
      'a rounded hull',
      () => {
        const s = copy3D(hull);
        s.radius = 0.1;
        return s;
      },
      /radius must be 0 for a hull/,
    ],
    [
      'an unknown kind',
      () => {
        const s = copy3D(hull);
        s.kind = 7;
        return s;
      },
      /shapes\[1\] \(unknown kind\): kind must be an integer from 0 to 3, got 7/,
    ],
    [
      'filter bits beyond 32',
      () => {
        const s = copy3D(hull);
        s.maskBits = 2 ** 33;
        return s;
      },
      /filter\.maskBits must be an integer from 0 to 0xffffffff/,
    ],
    [
      'a loop that does not start where the last ended',
      () => {
        const s = copy3D(cube);
        s.faceFirst[1] = 5;
        return s;
      },
      /faceFirst\[1\] is 5; .* must be 4/,
    ],
    [
      'an edge shorter than 1e-4 of the size',
      () => {
        // The cube's top face squeezed to a strip 2e-5 wide (planes refitted: a valid wedge else).
        const s = copy3D(cube);
        for (let i = 0; i < 8; i++)
          if (s.vertices[3 * i + 2]! > 0) s.vertices[3 * i] = 1e-5 * s.vertices[3 * i]!;
        refitPlanes(s);
        return s;
      },
      /edge \d+ is [\d.e-]+ long; edges shorter than 0\.0001 of the size are degenerate/,
    ],
    [
      'a box-numbered frustum (a valid hull, not a box)',
      () => {
        // The top face (z > 0) shrunk to half: planes refitted, so only the box check can refuse it.
        const s = copy3D(box);
        for (let i = 4; i < 8; i++)
          for (let k = 0; k < 2; k++) s.vertices[3 * i + k] = 0.5 * s.vertices[3 * i + k]!;
        refitPlanes(s);
        return s;
      },
      /a box's vertices and planes must be those of its half extents \(0\.5, 1, 3\)/,
    ],
    [
      'a box with a hull topology',
      () => {
        const s = copy3D(cube);
        s.kind = 1;
        return s;
      },
      /box topology of src\/box3d\.ts/,
    ],
    [
      'a sphere of radius 0',
      () => {
        const s = copy3D(makeShape3D({ type: 'sphere', radius: 1 }, 1));
        s.radius = 0;
        s.extent = 0;
        return s;
      },
      /radius must be >= 0\.000001 \(zero-size shapes have no contacts\), got 0/,
    ],
    [
      'a capsule of length 0',
      () => {
        const s = copy3D(
          makeShape3D({ type: 'capsule', a: [0, 0, -1], b: [0, 0, 1], radius: 0.5 }, 1),
        );
        s.vertices[5] = s.vertices[2]!;
        return s;
      },
      /two core points coincide/,
    ],
    [
      'a sphere with faces',
      () => {
        const s = copy3D(makeShape3D({ type: 'sphere', radius: 1 }, 1));
        s.faceCount = 1;
        return s;
      },
      /faceCount must be an integer from 0 to 0/,
    ],
  ];
  for (const [what, make, reason] of cases) {
    it(what, () => {
      const e = refusal3D(make());
      expect(e.path).toMatch(/^shapes\[1\] \(/);
      expect(e.message).toMatch(reason);
    });
  }

  it('the unbroken originals pass (the cases break one thing each)', () => {
    expect(() => packShapes3D([cube, hull, box])).not.toThrow();
  });
});

describe('hand-built 2D shapes are refused, naming the shape and the reason', () => {
  const square = makeShape2D(
    {
      type: 'polygon',
      vertices: [
        [-1, -1],
        [1, -1],
        [1, 1],
        [-1, 1],
      ],
    },
    1,
  );
  const cases: [string, () => Shape2D, RegExp][] = [
    [
      'clockwise vertices',
      () => {
        const s = copy2D(square);
        const v = [...s.vertices.subarray(0, 8)];
        for (let i = 0; i < 4; i++) {
          s.vertices[2 * i] = v[2 * (3 - i)]!;
          s.vertices[2 * i + 1] = v[2 * (3 - i) + 1]!;
        }
        return s;
      },
      /clockwise/,
    ],
    [
      'a non-convex polygon',
      () => {
        const s = copy2D(square);
        s.vertices[4] = 0;
        s.vertices[5] = -0.5;
        return s;
      },
      /not convex at vertex 2/,
    ],
    [
      "a normal that is not its edge's",
      () => {
        const s = copy2D(square);
        s.normals[0] = 0.6;
        s.normals[1] = -0.8;
        return s;
      },
      /normal 0 is \(0\.6, -0\.8\); the outward unit normal of the edge from vertex 0 to 1/,
    ],
    [
      'too many vertices',
      () => {
        const s = copy2D(square);
        s.count = 9;
        return s;
      },
      /count \(core vertices\) must be an integer from 3 to 8, got 9/,
    ],
    [
      'a NaN vertex',
      () => {
        const s = copy2D(square);
        s.vertices[3] = NaN;
        return s;
      },
      /vertices\[3\] must be a finite number, got NaN/,
    ],
    [
      'a circle of radius 0',
      () => {
        const s = copy2D(makeShape2D({ type: 'circle', radius: 1 }, 1));
        s.radius = 0;
        return s;
      },
      /radius must be > 0, got 0/,
    ],
    [
      'a wrong extent',
      () => {
        const s = copy2D(square);
        s.extent = 5;
        return s;
      },
      /extent is 5; its vertices and radius give/,
    ],
    [
      'a box with 3 vertices',
      () => {
        const s = copy2D(makeShape2D({ type: 'box', halfExtents: [1, 1] }, 1));
        s.count = 3;
        return s;
      },
      /count \(core vertices\) must be an integer from 4 to 4/,
    ],
  ];
  for (const [what, make, reason] of cases) {
    it(what, () => {
      const e = refusal2D(make());
      expect(e.path).toMatch(/^shapes\[1\] \(/);
      expect(e.message).toMatch(reason);
    });
  }
});
