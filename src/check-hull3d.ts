// The checks of a hull core and of a box's topology (src/checkshapes.ts has what is checked, and
// why).

import { SHAPE_CHECK_RELATIVE } from './constants.ts';
import {
  COPLANAR_RELATIVE_3D,
  MAX_COORDINATE_3D,
  MAX_FACE_VERTICES,
  MAX_HULL_EDGES,
  MAX_HULL_FACES,
  MAX_HULL_VERTICES,
  MIN_EDGE_RELATIVE_3D,
  MIN_EXTENT_3D,
} from './constants3d.ts';
import { boxHull3D } from './box3d.ts';
import { shown } from './errors.ts';
import { count, countAt, entries, fail, finiteAt, near } from './check-numbers.ts';
import type { Shape3D } from './shapes3d.ts';

/** A polyhedral kind has no rounding; `name`: the kind's, for the message. */
export function checkUnrounded3D(where: string, name: string, radius: number): void {
  if (radius !== 0)
    fail(where, `radius must be 0 for a ${name} (rounded hulls are not supported), got ${radius}`);
}

/** A hull's arrays (their lengths checked) and its counts. */
interface HullView {
  V: number;
  F: number;
  E: number;
  v: ArrayLike<number>;
  planes: ArrayLike<number>;
  faceFirst: ArrayLike<number>;
  faceSize: ArrayLike<number>;
  edgeV0: ArrayLike<number>;
  edgeV1: ArrayLike<number>;
  edgeF0: ArrayLike<number>;
  edgeF1: ArrayLike<number>;
}

/** One face: its plane and its loop's entries in faceVertices and faceEdges. */
interface HullFace {
  f: number;
  nx: number;
  ny: number;
  nz: number;
  d: number;
  first: number;
  size: number;
  fv: ArrayLike<number>;
  fe: ArrayLike<number>;
}

/** A convex polyhedron in the layout of src/hull3d.ts (see the header for what is checked). */
export function checkHull3D(where: string, s: Shape3D, extent: number): void {
  const h = hullView(where, s);
  const reach = checkHullVertices(where, h, extent);
  for (let e = 0; e < h.E; e++) {
    countAt(where, 'edgeV0', h.edgeV0, e, 0, h.V - 1);
    countAt(where, 'edgeV1', h.edgeV1, e, 0, h.V - 1);
    countAt(where, 'edgeF0', h.edgeF0, e, 0, h.F - 1);
    countAt(where, 'edgeF1', h.edgeF1, e, 0, h.F - 1);
  }
  const uses = new Uint8Array(2 * h.E); // half-edge uses: edge e forwards (f0), backwards (f1)
  let entriesTotal = 0;
  for (let f = 0; f < h.F; f++) {
    const face = checkHullFace(where, s, h, reach, f, entriesTotal);
    entriesTotal += face.size;
    checkFaceLoop(where, h, reach, face, uses);
  }
  for (let e = 0; e < h.E; e++) {
    if (uses[2 * e] !== 1 || uses[2 * e + 1] !== 1)
      fail(
        where,
        `edge ${e} must be the side of exactly two faces, once in each direction (faces ${h.edgeF0[e]} and ${h.edgeF1[e]})`,
      );
  }
  if (s.faceVertices.length !== entriesTotal || s.faceEdges.length !== entriesTotal) {
    fail(
      where,
      `faceVertices and faceEdges must hold the ${entriesTotal} entries of the face loops, got ${s.faceVertices.length} and ${s.faceEdges.length}`,
    );
  }
}

/** The counts (a closed polyhedron: V − E + F = 2) and the arrays they size. */
function hullView(where: string, s: Shape3D): HullView {
  const V = count(where, 'vertexCount', s.vertexCount, 4, MAX_HULL_VERTICES);
  const F = count(where, 'faceCount', s.faceCount, 4, MAX_HULL_FACES);
  const E = count(where, 'edgeCount', s.edgeCount, 6, MAX_HULL_EDGES);
  if (V - E + F !== 2)
    fail(
      where,
      `V − E + F is ${V} − ${E} + ${F} = ${V - E + F}, not 2: not a closed convex polyhedron`,
    );
  return {
    V,
    F,
    E,
    v: entries(where, 'vertices', s.vertices, 3 * V),
    planes: entries(where, 'planes', s.planes, 4 * F),
    faceFirst: entries(where, 'faceFirst', s.faceFirst, F),
    faceSize: entries(where, 'faceSize', s.faceSize, F),
    edgeV0: entries(where, 'edgeV0', s.edgeV0, E),
    edgeV1: entries(where, 'edgeV1', s.edgeV1, E),
    edgeF0: entries(where, 'edgeF0', s.edgeF0, E),
    edgeF1: entries(where, 'edgeF1', s.edgeF1, E),
  };
}

/** Finite vertices, not too small, whose largest |vertex| is `extent`; returns that reach. */
function checkHullVertices(where: string, h: HullView, extent: number): number {
  const v = h.v;
  let reach = 0;
  for (let i = 0; i < h.V; i++) {
    for (let k = 0; k < 3; k++) finiteAt(where, 'vertices', v, 3 * i + k, MAX_COORDINATE_3D);
    reach = Math.max(reach, Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
  }
  if (!(reach >= MIN_EXTENT_3D))
    fail(
      where,
      `shape is smaller than ${MIN_EXTENT_3D} (its vertices reach ${reach}); zero-size shapes have no contacts`,
    );
  if (!near(extent, reach, reach))
    fail(where, `extent is ${extent}; its largest |vertex| is ${reach}`);
  return reach;
}

/**
 * Face `f`'s plane (unit normal, origin and inradius inside, every vertex below it) and where its
 * loop starts: right after the loops before it, `entriesTotal` entries in.
 */
function checkHullFace(
  where: string,
  s: Shape3D,
  h: HullView,
  reach: number,
  f: number,
  entriesTotal: number,
): HullFace {
  const { v, planes } = h;
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
  for (let i = 0; i < h.V; i++) {
    const above = nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2] - d;
    if (above > SHAPE_CHECK_RELATIVE * reach)
      fail(
        where,
        `vertex ${i} lies ${above} above the plane of face ${f}: not convex, or the normal points inwards`,
      );
  }
  // Face loops follow each other in faceVertices (packShapes3D packs them so).
  const first = h.faceFirst[f];
  if (first !== entriesTotal)
    fail(
      where,
      `faceFirst[${f}] is ${shown(first)}; the face loops follow each other in faceVertices, so it must be ${entriesTotal}`,
    );
  const size = countAt(where, 'faceSize', h.faceSize, f, 3, MAX_FACE_VERTICES);
  const fv = entries(where, 'faceVertices', s.faceVertices, first + size);
  const fe = entries(where, 'faceEdges', s.faceEdges, first + size);
  return { f, nx, ny, nz, d, first, size, fv, fe };
}

/** A face's loop: on its plane, convex, one counter-clockwise turn; counts its half-edge uses. */
function checkFaceLoop(
  where: string,
  h: HullView,
  reach: number,
  face: HullFace,
  uses: Uint8Array,
): void {
  let turning = 0;
  for (let k = 0; k < face.size; k++) turning += checkFaceCorner(where, h, reach, face, k, uses);
  if (!(Math.abs(turning - 2 * Math.PI) < 1e-6))
    fail(
      where,
      `face ${face.f}: its loop turns ${turning / (2 * Math.PI)} times around its normal, not once counter-clockwise`,
    );
}

/**
 * Corner `k` of a face's loop (vertices k, k + 1, k + 2) and the edge from k to k + 1; returns
 * the loop's turn there (radians).
 */
function checkFaceCorner(
  where: string,
  h: HullView,
  reach: number,
  face: HullFace,
  k: number,
  uses: Uint8Array,
): number {
  const { V, E, v, edgeV0, edgeV1, edgeF0, edgeF1 } = h;
  const { f, nx, ny, nz, d, first, size, fv, fe } = face;
  const onPlane = 2 * COPLANAR_RELATIVE_3D * reach;
  const a = countAt(where, 'faceVertices', fv, first + k, 0, V - 1);
  const b = countAt(where, 'faceVertices', fv, first + ((k + 1) % size), 0, V - 1);
  const c = countAt(where, 'faceVertices', fv, first + ((k + 2) % size), 0, V - 1);
  const off = nx * v[3 * a] + ny * v[3 * a + 1] + nz * v[3 * a + 2] - d;
  if (!(Math.abs(off) <= onPlane))
    fail(where, `face ${f}: its vertex ${a} lies ${off} off its plane`);
  // Convex: b lies outside the chord a -> c, or within the coplanarity tolerance of it (the
  // hull builder keeps such a corner where another face needs it); the turns, summed by the
  // caller, make one counter-clockwise turn around the normal.
  const e1x = v[3 * b] - v[3 * a],
    e1y = v[3 * b + 1] - v[3 * a + 1],
    e1z = v[3 * b + 2] - v[3 * a + 2];
  const e2x = v[3 * c] - v[3 * b],
    e2y = v[3 * c + 1] - v[3 * b + 1],
    e2z = v[3 * c + 2] - v[3 * b + 2];
  const turn =
    (e1y * e2z - e1z * e2y) * nx + (e1z * e2x - e1x * e2z) * ny + (e1x * e2y - e1y * e2x) * nz;
  const chord = Math.sqrt((e1x + e2x) ** 2 + (e1y + e2y) ** 2 + (e1z + e2z) ** 2);
  if (!(turn >= -onPlane * chord))
    fail(
      where,
      `face ${f}: vertex ${b} lies ${-turn / chord} inside the chord from vertex ${a} to ${c}: the face is not convex, or its loop is clockwise`,
    );
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
  return Math.atan2(turn, e1x * e2x + e1y * e2y + e1z * e2z);
}

/** A box: the one topology of src/box3d.ts at the half extents of vertex 7. */
export function checkBox3D(where: string, s: Shape3D): void {
  const h = [s.vertices[21], s.vertices[22], s.vertices[23]];
  const ref = boxHull3D(h[0], h[1], h[2]);
  const same = (a: ArrayLike<number>, b: ArrayLike<number>, scale: number): boolean =>
    a.length === b.length && Array.from(b).every((x, i) => near(a[i], x, scale));
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
  if (bad !== undefined || !(h[0] > 0 && h[1] > 0 && h[2] > 0)) {
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
