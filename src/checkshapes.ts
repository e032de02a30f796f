// Checks of shapes in their internal form (Shape2D, Shape3D), for shapes assembled by hand from an
// engine's own data rather than built by makeShape2D / makeShape3D. packShapes2D and packShapes3D
// run them on every shape, so such a shape gets the same kind of InputError as a bad JSON shape,
// naming `shapes[i]` and the reason, before anything is packed or sent to the GPU. What makeShape*
// builds always passes.
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

import { MAX_COORDINATE, MAX_POLYGON_VERTICES, SHAPE_CHECK_RELATIVE } from './constants.ts';
import {
  COPLANAR_RELATIVE_3D,
  MAX_COORDINATE_3D,
  MAX_FACE_VERTICES,
  MAX_HULL_EDGES,
  MAX_HULL_FACES,
  MAX_HULL_VERTICES,
  MIN_EDGE_RELATIVE_3D,
  MIN_EXTENT_3D,
  SHAPE_KIND_3D,
} from './constants3d.ts';
import { boxHull3D } from './box3d.ts';
import { InputError, finiteNumber, shown } from './errors.ts';
import { readFilter } from './filter.ts';
import { emptyShape2D, setPolygon, SHAPE_KIND_2D, type Shape2D, type Vec2 } from './shapes2d.ts';
import type { Shape3D } from './shapes3d.ts';

/** Shape type names by kind number. */
const kindNames = (kinds: Record<string, number>): string[] =>
  Object.entries(kinds)
    .sort((a, b) => a[1] - b[1])
    .map(([name]) => name);
const KIND_NAMES_2D = kindNames(SHAPE_KIND_2D);
const KIND_NAMES_3D = kindNames(SHAPE_KIND_3D);

function fail(where: string, reason: string): never {
  throw new InputError(where, reason);
}

function count(where: string, what: string, x: unknown, lo: number, hi: number): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < lo || x > hi)
    fail(where, `${what} must be an integer from ${lo} to ${hi}, got ${shown(x)}`);
  return x;
}

// Entry i of an array, checked as `finite` and `count` check (the name is only built on failure:
// these run once per number of every shape packed).
function finiteAt(
  where: string,
  name: string,
  a: ArrayLike<number>,
  i: number,
  limit: number,
): number {
  const x = a[i];
  return typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= limit
    ? x
    : finiteNumber(where, `${name}[${i}]`, x, limit);
}

function countAt(
  where: string,
  name: string,
  a: ArrayLike<number>,
  i: number,
  lo: number,
  hi: number,
): number {
  const x = a[i];
  return typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi
    ? x
    : count(where, `${name}[${i}]`, x, lo, hi);
}

/** `a` has at least `n` entries (typed arrays and plain arrays alike). */
function entries(where: string, what: string, a: unknown, n: number): ArrayLike<number> {
  const len = (a as { length?: unknown } | null | undefined)?.length;
  if (typeof len !== 'number' || len < n)
    fail(where, `${what} must hold at least ${n} numbers, got ${shown(len ?? a)}`);
  return a as ArrayLike<number>;
}

/** `x` equals `want` within SHAPE_CHECK_RELATIVE × scale. */
function near(x: number, want: number, scale: number): boolean {
  return Math.abs(x - want) <= SHAPE_CHECK_RELATIVE * scale;
}

function kindName(names: readonly string[], kind: unknown): string {
  return typeof kind === 'number' && Number.isInteger(kind) && kind >= 0 && kind < names.length
    ? names[kind]!
    : 'unknown kind';
}

/** Checks a Shape2D built by hand (shape `index` of a scene); throws an InputError naming it. */
export function checkShape2D(s: Shape2D, index: number): void {
  const where = `shapes[${index}] (${kindName(KIND_NAMES_2D, s.kind)})`;
  const kind = count(where, 'kind', s.kind, 0, KIND_NAMES_2D.length - 1);
  const [lo, hi] =
    kind === SHAPE_KIND_2D.circle
      ? [1, 1]
      : kind === SHAPE_KIND_2D.capsule
        ? [2, 2]
        : kind === SHAPE_KIND_2D.box
          ? [4, 4]
          : [3, MAX_POLYGON_VERTICES];
  const n = count(where, 'count (core vertices)', s.count, lo, hi);
  readFilter(where, { categoryBits: s.categoryBits, maskBits: s.maskBits });
  const radius = finiteNumber(where, 'radius', s.radius, MAX_COORDINATE);
  if (radius < 0 || (n < 3 && !(radius > 0)))
    fail(where, `radius must be ${n < 3 ? '> 0' : '>= 0'}, got ${radius}`);
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
    const nx = normals[2 * i]!;
    const ny = normals[2 * i + 1]!;
    if (!(near(nx, ref.normals[2 * i]!, 1) && near(ny, ref.normals[2 * i + 1]!, 1))) {
      fail(
        where,
        `normal ${i} is (${nx}, ${ny}); the outward unit normal of the edge from vertex ${i} to ${(i + 1) % n} is (${ref.normals[2 * i]}, ${ref.normals[2 * i + 1]})`,
      );
    }
  }
}

/** Checks a Shape3D built by hand (shape `index` of a scene); throws an InputError naming it. */
export function checkShape3D(s: Shape3D, index: number): void {
  const where = `shapes[${index}] (${kindName(KIND_NAMES_3D, s.kind)})`;
  const kind = count(where, 'kind', s.kind, 0, KIND_NAMES_3D.length - 1);
  readFilter(where, { categoryBits: s.categoryBits, maskBits: s.maskBits });
  const center = entries(where, 'center', s.center, 3);
  for (let k = 0; k < 3; k++) finiteAt(where, 'center', center, k, MAX_COORDINATE_3D);
  const radius = finiteNumber(where, 'radius', s.radius, MAX_COORDINATE_3D);
  const extent = finiteNumber(where, 'extent', s.extent, MAX_COORDINATE_3D);
  if (kind === SHAPE_KIND_3D.sphere || kind === SHAPE_KIND_3D.capsule) {
    checkRound3D(where, s, kind === SHAPE_KIND_3D.capsule ? 2 : 1, radius, extent);
    return;
  }
  if (radius !== 0)
    fail(
      where,
      `radius must be 0 for a ${KIND_NAMES_3D[kind]} (rounded hulls are not supported), got ${radius}`,
    );
  checkHull3D(where, s, extent);
  if (kind === SHAPE_KIND_3D.box) checkBox3D(where, s);
}

/** A sphere (1 core point) or capsule (2): no faces, the segment as its one edge. */
function checkRound3D(
  where: string,
  s: Shape3D,
  points: number,
  radius: number,
  extent: number,
): void {
  count(where, 'vertexCount', s.vertexCount, points, points);
  count(where, 'faceCount', s.faceCount, 0, 0);
  count(where, 'edgeCount', s.edgeCount, points - 1, points - 1);
  if (!(radius >= MIN_EXTENT_3D))
    fail(
      where,
      `radius must be >= ${MIN_EXTENT_3D} (zero-size shapes have no contacts), got ${radius}`,
    );
  const v = entries(where, 'vertices', s.vertices, 3 * points);
  let reach = 0;
  for (let i = 0; i < points; i++) {
    for (let k = 0; k < 3; k++) finiteAt(where, 'vertices', v, 3 * i + k, MAX_COORDINATE_3D);
    reach = Math.max(reach, Math.hypot(v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!));
  }
  if (points === 2) {
    const l = Math.hypot(v[3]! - v[0]!, v[4]! - v[1]!, v[5]! - v[2]!);
    if (l <= MIN_EDGE_RELATIVE_3D * Math.max(radius, l))
      fail(where, 'its two core points coincide; use a sphere for a zero-length capsule');
    if (
      entries(where, 'edgeV0', s.edgeV0, 1)[0] !== 0 ||
      entries(where, 'edgeV1', s.edgeV1, 1)[0] !== 1
    )
      fail(where, 'its one edge must join core point 0 to core point 1');
  }
  if (!near(extent, reach + radius, extent))
    fail(where, `extent is ${extent}; its core points and radius give ${reach + radius}`);
}

/** A convex polyhedron in the layout of src/hull3d.ts (see the header for what is checked). */
function checkHull3D(where: string, s: Shape3D, extent: number): void {
  const V = count(where, 'vertexCount', s.vertexCount, 4, MAX_HULL_VERTICES);
  const F = count(where, 'faceCount', s.faceCount, 4, MAX_HULL_FACES);
  const E = count(where, 'edgeCount', s.edgeCount, 6, MAX_HULL_EDGES);
  if (V - E + F !== 2)
    fail(
      where,
      `V − E + F is ${V} − ${E} + ${F} = ${V - E + F}, not 2: not a closed convex polyhedron`,
    );
  const v = entries(where, 'vertices', s.vertices, 3 * V);
  const planes = entries(where, 'planes', s.planes, 4 * F);
  const faceFirst = entries(where, 'faceFirst', s.faceFirst, F);
  const faceSize = entries(where, 'faceSize', s.faceSize, F);
  const edgeV0 = entries(where, 'edgeV0', s.edgeV0, E);
  const edgeV1 = entries(where, 'edgeV1', s.edgeV1, E);
  const edgeF0 = entries(where, 'edgeF0', s.edgeF0, E);
  const edgeF1 = entries(where, 'edgeF1', s.edgeF1, E);
  let reach = 0;
  for (let i = 0; i < V; i++) {
    for (let k = 0; k < 3; k++) finiteAt(where, 'vertices', v, 3 * i + k, MAX_COORDINATE_3D);
    reach = Math.max(reach, Math.hypot(v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!));
  }
  if (!(reach >= MIN_EXTENT_3D))
    fail(
      where,
      `shape is smaller than ${MIN_EXTENT_3D} (its vertices reach ${reach}); zero-size shapes have no contacts`,
    );
  if (!near(extent, reach, reach))
    fail(where, `extent is ${extent}; its largest |vertex| is ${reach}`);
  for (let e = 0; e < E; e++) {
    countAt(where, 'edgeV0', edgeV0, e, 0, V - 1);
    countAt(where, 'edgeV1', edgeV1, e, 0, V - 1);
    countAt(where, 'edgeF0', edgeF0, e, 0, F - 1);
    countAt(where, 'edgeF1', edgeF1, e, 0, F - 1);
  }
  const onPlane = 2 * COPLANAR_RELATIVE_3D * reach;
  const uses = new Uint8Array(2 * E); // half-edge uses: edge e forwards (f0), backwards (f1)
  let entriesTotal = 0;
  for (let f = 0; f < F; f++) {
    const nx = finiteAt(where, 'planes', planes, 4 * f, MAX_COORDINATE_3D);
    const ny = finiteAt(where, 'planes', planes, 4 * f + 1, MAX_COORDINATE_3D);
    const nz = finiteAt(where, 'planes', planes, 4 * f + 2, MAX_COORDINATE_3D);
    const d = finiteAt(where, 'planes', planes, 4 * f + 3, MAX_COORDINATE_3D);
    if (!near(Math.hypot(nx, ny, nz), 1, 1))
      fail(where, `face ${f}: its normal (${nx}, ${ny}, ${nz}) is not unit length`);
    if (!(d > 0))
      fail(where, `face ${f}: plane offset ${d} <= 0: the shape's origin must lie inside it`);
    if (!(s.inradius > 0 && s.inradius <= d + SHAPE_CHECK_RELATIVE * reach))
      fail(
        where,
        `inradius ${shown(s.inradius)} must be > 0 and at most every plane offset (face ${f}: ${d})`,
      );
    for (let i = 0; i < V; i++) {
      const h = nx * v[3 * i]! + ny * v[3 * i + 1]! + nz * v[3 * i + 2]! - d;
      if (h > SHAPE_CHECK_RELATIVE * reach)
        fail(
          where,
          `vertex ${i} lies ${h} above the plane of face ${f}: not convex, or the normal points inwards`,
        );
    }
    // Face loops follow each other in faceVertices (packShapes3D packs them so).
    const first = faceFirst[f]!;
    if (first !== entriesTotal)
      fail(
        where,
        `faceFirst[${f}] is ${shown(first)}; the face loops follow each other in faceVertices, so it must be ${entriesTotal}`,
      );
    const size = countAt(where, 'faceSize', faceSize, f, 3, MAX_FACE_VERTICES);
    entriesTotal += size;
    const fv = entries(where, 'faceVertices', s.faceVertices, first + size);
    const fe = entries(where, 'faceEdges', s.faceEdges, first + size);
    let turning = 0;
    for (let k = 0; k < size; k++) {
      const a = countAt(where, 'faceVertices', fv, first + k, 0, V - 1);
      const b = countAt(where, 'faceVertices', fv, first + ((k + 1) % size), 0, V - 1);
      const c = countAt(where, 'faceVertices', fv, first + ((k + 2) % size), 0, V - 1);
      const h = nx * v[3 * a]! + ny * v[3 * a + 1]! + nz * v[3 * a + 2]! - d;
      if (!(Math.abs(h) <= onPlane))
        fail(where, `face ${f}: its vertex ${a} lies ${h} off its plane`);
      // Convex: b lies outside the chord a -> c, or within the coplanarity tolerance of it (the
      // hull builder keeps such a corner where another face needs it); the turns, summed below,
      // make one counter-clockwise turn around the normal.
      const e1x = v[3 * b]! - v[3 * a]!,
        e1y = v[3 * b + 1]! - v[3 * a + 1]!,
        e1z = v[3 * b + 2]! - v[3 * a + 2]!;
      const e2x = v[3 * c]! - v[3 * b]!,
        e2y = v[3 * c + 1]! - v[3 * b + 1]!,
        e2z = v[3 * c + 2]! - v[3 * b + 2]!;
      const turn =
        (e1y * e2z - e1z * e2y) * nx + (e1z * e2x - e1x * e2z) * ny + (e1x * e2y - e1y * e2x) * nz;
      const chord = Math.sqrt((e1x + e2x) ** 2 + (e1y + e2y) ** 2 + (e1z + e2z) ** 2);
      if (!(turn >= -onPlane * chord))
        fail(
          where,
          `face ${f}: vertex ${b} lies ${-turn / chord} inside the chord from vertex ${a} to ${c}: the face is not convex, or its loop is clockwise`,
        );
      turning += Math.atan2(turn, e1x * e2x + e1y * e2y + e1z * e2z);
      // The edge between face vertices k and k + 1: this face's half-edge of it.
      const e = countAt(where, 'faceEdges', fe, first + k, 0, E - 1);
      const forwards = edgeV0[e] === a && edgeV1[e] === b && edgeF0[e] === f;
      const backwards = edgeV0[e] === b && edgeV1[e] === a && edgeF1[e] === f;
      if (!forwards && !backwards)
        fail(
          where,
          `face ${f}: edge ${e} (faceEdges[${first + k}]) does not join its vertices ${a} -> ${b} with this face on that side`,
        );
      uses[2 * e + (forwards ? 0 : 1)]++;
      const l = Math.sqrt(e1x * e1x + e1y * e1y + e1z * e1z);
      if (!(l > MIN_EDGE_RELATIVE_3D * reach))
        fail(
          where,
          `face ${f}: edge ${e} is ${l} long; edges shorter than ${MIN_EDGE_RELATIVE_3D} of the size are degenerate`,
        );
      // The edge lies in the plane as a direction, within the merge angle (twice): the Gauss map.
      if (!(Math.abs(e1x * nx + e1y * ny + e1z * nz) <= 2 * COPLANAR_RELATIVE_3D * l))
        fail(
          where,
          `face ${f}: edge ${e} leaves its plane by ${Math.abs(e1x * nx + e1y * ny + e1z * nz) / l} rad, more than ${2 * COPLANAR_RELATIVE_3D}`,
        );
    }
    if (!(Math.abs(turning - 2 * Math.PI) < 1e-6))
      fail(
        where,
        `face ${f}: its loop turns ${turning / (2 * Math.PI)} times around its normal, not once counter-clockwise`,
      );
  }
  for (let e = 0; e < E; e++) {
    if (uses[2 * e] !== 1 || uses[2 * e + 1] !== 1)
      fail(
        where,
        `edge ${e} must be the side of exactly two faces, once in each direction (faces ${edgeF0[e]} and ${edgeF1[e]})`,
      );
  }
  if (s.faceVertices.length !== entriesTotal || s.faceEdges.length !== entriesTotal) {
    fail(
      where,
      `faceVertices and faceEdges must hold the ${entriesTotal} entries of the face loops, got ${s.faceVertices.length} and ${s.faceEdges.length}`,
    );
  }
}

/** A box: the one topology of src/box3d.ts at the half extents of vertex 7. */
function checkBox3D(where: string, s: Shape3D): void {
  const h = [s.vertices[21]!, s.vertices[22]!, s.vertices[23]!];
  const ref = boxHull3D(h[0]!, h[1]!, h[2]!);
  const same = (a: ArrayLike<number>, b: ArrayLike<number>, scale: number): boolean =>
    a.length === b.length && Array.from(b).every((x, i) => near(a[i]!, x, scale));
  const keys = [
    'faceFirst',
    'faceSize',
    'faceVertices',
    'faceEdges',
    'edgeV0',
    'edgeV1',
    'edgeF0',
    'edgeF1',
  ] as const;
  const bad = keys.find((k) => !same(s[k], ref[k], 0));
  if (bad !== undefined || !(h[0]! > 0 && h[1]! > 0 && h[2]! > 0)) {
    fail(
      where,
      `a box must have the box topology of src/box3d.ts (build it with makeShape3D({ type: 'box', halfExtents })); its ${bad ?? 'half extents (vertex 7)'} differ`,
    );
  }
  if (!same(s.vertices, ref.vertices, ref.extent) || !same(s.planes, ref.planes, ref.extent)) {
    fail(
      where,
      `a box's vertices and planes must be those of its half extents (${h.join(', ')}), as makeShape3D builds them`,
    );
  }
}
