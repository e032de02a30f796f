// Checks of shapes in their internal form (Shape2D, Shape3D), for shapes assembled by hand from an
// engine's own data rather than built by makeShape2D / makeShape3D. packShapes2D and packShapes3D
// run them on every shape, so such a shape gets the same kind of InputError as a bad JSON shape,
// naming `shapes[i]` and the reason, before anything is packed or sent to the GPU. What makeShape*
// builds always passes. Each kind's row (src/shape-kinds2d.ts, shape-kinds3d.ts) gives its core
// vertex counts (2D) or the check of its core (3D).
//
// What the collide functions rely on, and so what is checked:
//   both   a known kind; counts within the limits; finite numbers within the coordinate limit;
//          filter bits of 32; `extent` (the length scale of every relative tolerance) as the
//          builders compute it.
//   2D     the core vertices pass the polygon rules of JSON input (setPolygon: counter-clockwise,
//          strictly convex, no duplicates; circles 1 vertex, capsules 2), and the edge normals
//          are the outward unit normals of those edges.
//   3D     spheres and capsules: 1 or 2 core points, no faces. Hulls (boxes too): every index in
//          range; each face a counter-clockwise convex loop (within the coplanarity tolerance of
//          hull building) of 3 to MAX_FACE_VERTICES vertices lying in its plane (unit outward
//          normal) with every vertex of the hull on or below that plane; each edge the shared
//          side of its two faces, once in each direction, and lying in both planes as a
//          direction (the Gauss map the edge query reads), and at least MIN_EDGE_RELATIVE_3D of
//          the extent long; V − E + F = 2; 0 < inradius <= every plane's offset (the SAT's
//          pruning bound). Boxes must be the one box topology of src/box3d.ts, since the GPU
//          derives a box's features from its half extents.
// Numbers are compared within SHAPE_CHECK_RELATIVE of the extent (and the coplanarity tolerance of
// hull building where faces are concerned), not exactly: hand-built data need not round as ours.

import { MAX_COORDINATE } from './constants.ts';
import { MAX_COORDINATE_3D } from './constants3d.ts';
import { count, entries, fail, finiteAt, near } from './check-numbers.ts';
import { finiteNumber } from './errors.ts';
import { readFilter } from './filter.ts';
import { emptyShape2D, setPolygon, type Shape2D, type Vec2 } from './polygon2d.ts';
import { SHAPE_KIND_LIST_2D, SHAPE_TYPE_NAMES_2D } from './shape-kinds2d.ts';
import { SHAPE_KIND_LIST_3D, SHAPE_TYPE_NAMES_3D } from './shape-kinds3d.ts';
import type { Shape3D } from './shapes3d.ts';

/** The type name of a kind number, for the message's "shapes[i] (name)". */
function kindName(names: readonly string[], kind: unknown): string {
  return typeof kind === 'number' && Number.isInteger(kind) && kind >= 0 && kind < names.length
    ? names[kind]
    : 'unknown kind';
}

/** Checks a Shape2D built by hand (shape `index` of a scene); throws an InputError naming it. */
export function checkShape2D(s: Shape2D, index: number): void {
  const where = `shapes[${index}] (${kindName(SHAPE_TYPE_NAMES_2D, s.kind)})`;
  const kind = count(where, 'kind', s.kind, 0, SHAPE_KIND_LIST_2D.length - 1);
  const row = SHAPE_KIND_LIST_2D[kind];
  const [lo, hi] = row.coreCount;
  const n = count(where, 'count (core vertices)', s.count, lo, hi);
  readFilter(where, { categoryBits: s.categoryBits, maskBits: s.maskBits });
  const radius = finiteNumber(where, 'radius', s.radius, MAX_COORDINATE);
  if (radius < 0 || (row.rounded && !(radius > 0)))
    fail(where, `radius must be ${row.rounded ? '> 0' : '>= 0'}, got ${radius}`);
  const v = entries(where, 'vertices', s.vertices, 2 * n);
  const normals = entries(where, 'normals', s.normals, 2 * n);
  const pts: Vec2[] = [];
  for (let i = 0; i < n; i++)
    pts.push([
      finiteAt(where, 'vertices', v, 2 * i, MAX_COORDINATE),
      finiteAt(where, 'vertices', v, 2 * i + 1, MAX_COORDINATE),
    ]);
  // The polygon rules of JSON input, and the normals and extent they give.
  const ref = emptyShape2D();
  setPolygon(where, pts, radius, kind, ref);
  if (!near(finiteNumber(where, 'extent', s.extent, MAX_COORDINATE), ref.extent, ref.extent))
    fail(where, `extent is ${s.extent}; its vertices and radius give ${ref.extent}`);
  if (n < 2) return;
  for (let i = 0; i < n; i++) {
    const nx = normals[2 * i];
    const ny = normals[2 * i + 1];
    if (!(near(nx, ref.normals[2 * i], 1) && near(ny, ref.normals[2 * i + 1], 1))) {
      fail(
        where,
        `normal ${i} is (${nx}, ${ny}); the outward unit normal of the edge from vertex ${i} to ${(i + 1) % n} is (${ref.normals[2 * i]}, ${ref.normals[2 * i + 1]})`,
      );
    }
  }
}

/** Checks a Shape3D built by hand (shape `index` of a scene); throws an InputError naming it. */
export function checkShape3D(s: Shape3D, index: number): void {
  const where = `shapes[${index}] (${kindName(SHAPE_TYPE_NAMES_3D, s.kind)})`;
  const kind = count(where, 'kind', s.kind, 0, SHAPE_KIND_LIST_3D.length - 1);
  readFilter(where, { categoryBits: s.categoryBits, maskBits: s.maskBits });
  const center = entries(where, 'center', s.center, 3);
  for (let k = 0; k < 3; k++) finiteAt(where, 'center', center, k, MAX_COORDINATE_3D);
  const radius = finiteNumber(where, 'radius', s.radius, MAX_COORDINATE_3D);
  const extent = finiteNumber(where, 'extent', s.extent, MAX_COORDINATE_3D);
  SHAPE_KIND_LIST_3D[kind].check(where, s, radius, extent);
}
