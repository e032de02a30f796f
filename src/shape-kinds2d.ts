// The 2D shape kinds, one entry each (as Box2D's `s_registers` in contact.c): the kind's id, its
// JSON keys and builder, the core a hand-built shape of it must have, its box on the host and its
// collide class. makeShape2D, checkShape2D, bodyAabbs2D and pairClass2D read this table, so a new
// kind starts with an entry here; docs/adding-a-shape.md lists the few places left. The WGSL
// needs no id: collide2d.wgsl picks its path by the core vertex count (the collide class below).

import { MAX_COORDINATE, MAX_POLYGON_VERTICES, MIN_EDGE_RELATIVE } from './constants.ts';
import { coreVerticesBox2D, type CoreBox2D } from './core-boxes.ts';
import { InputError, finiteNumber } from './errors.ts';
import type { KeySet } from './keys.ts';
import { readVec2, setPolygon, type Shape2D, type Vec2 } from './polygon2d.ts';
import type { Shape2DInput } from './shapes2d.ts';

/** Shape2D.kind of each JSON type (the packed `kind`). */
export const SHAPE_KIND_2D = {
  polygon: 0,
  box: 1,
  circle: 2,
  capsule: 3,
} as const;
export type ShapeKindName2D = keyof typeof SHAPE_KIND_2D;

/**
 * The collide path of a kind: 'polygon' (collidePolygons: SAT and clipping, a capsule being a
 * 2-gon with a radius) or 'circle' (one core point: collidePolygonAndCircle, collideCircles).
 */
export type CollideClass2D = 'polygon' | 'circle';

/** One kind's row. */
export interface ShapeKind2D {
  /** Shape2D.kind. */
  id: number;
  /** The JSON keys it takes (src/keys.ts: any other is an error). */
  keys: KeySet;
  /** Reads the JSON shape (keys and filter already read) into `out`; an InputError at `where`. */
  build(input: Shape2DInput, where: string, out: Shape2D): void;
  /** The core vertex counts it has (checkShape2D). */
  coreCount: readonly [number, number];
  /** Whether its radius must be > 0: a point or segment core has no area without one. */
  rounded: boolean;
  /** Its core's world box (bodyAabbs2D pads it). */
  box: CoreBox2D;
  collide: CollideClass2D;
}

/** A row as the table holds it: its id is its name's, its builder reads its own JSON type. */
type ShapeKindRow2D<K extends Shape2DInput['type'] & ShapeKindName2D> = Omit<
  ShapeKind2D,
  'id' | 'build'
> & {
  id: (typeof SHAPE_KIND_2D)[K];
  build(input: Extract<Shape2DInput, { type: K }>, where: string, out: Shape2D): void;
};

function positive(path: string, what: string, x: unknown): number {
  const v = finiteNumber(path, what, x, MAX_COORDINATE);
  if (!(v > 0)) throw new InputError(path, `${what} must be > 0, got ${v}`);
  return v;
}

function nonNegative(path: string, what: string, x: unknown, fallback: number): number {
  if (x === undefined) return fallback;
  const v = finiteNumber(path, what, x, MAX_COORDINATE);
  if (v < 0) throw new InputError(path, `${what} must be >= 0, got ${v}`);
  return v;
}

/**
 * Every 2D kind, keyed by its JSON type name: a type without an id, or an id without a row, does
 * not compile.
 */
export const SHAPE_KINDS_2D: {
  readonly [K in Shape2DInput['type']]: ShapeKindRow2D<K>;
} = {
  polygon: {
    id: SHAPE_KIND_2D.polygon,
    keys: { what: 'a 2D polygon', keys: ['type', 'vertices', 'radius', 'filter'] },
    build(input, where, out) {
      const v = input.vertices as unknown;
      if (!Array.isArray(v)) throw new InputError(where, '"vertices" must be an array of [x, y]');
      if (v.length < 3 || v.length > MAX_POLYGON_VERTICES) {
        throw new InputError(
          where,
          `has ${v.length} vertices; a polygon takes 3 to ${MAX_POLYGON_VERTICES}`,
        );
      }
      const pts = v.map((p, i) => readVec2(where, `vertices[${i}]`, p));
      const radius = nonNegative(where, 'radius', input.radius, 0);
      setPolygon(where, pts, radius, SHAPE_KIND_2D.polygon, out);
    },
    coreCount: [3, MAX_POLYGON_VERTICES],
    rounded: false,
    box: coreVerticesBox2D,
    collide: 'polygon',
  },
  box: {
    id: SHAPE_KIND_2D.box,
    keys: { what: 'a 2D box', keys: ['type', 'halfExtents', 'radius', 'filter'] },
    build(input, where, out) {
      const h = readVec2(where, 'halfExtents', input.halfExtents);
      const hx = positive(where, 'halfExtents[0]', h[0]);
      const hy = positive(where, 'halfExtents[1]', h[1]);
      const pts: Vec2[] = [
        [-hx, -hy],
        [hx, -hy],
        [hx, hy],
        [-hx, hy],
      ];
      setPolygon(where, pts, nonNegative(where, 'radius', input.radius, 0), SHAPE_KIND_2D.box, out);
    },
    coreCount: [4, 4],
    rounded: false,
    box: coreVerticesBox2D,
    collide: 'polygon',
  },
  circle: {
    id: SHAPE_KIND_2D.circle,
    keys: { what: 'a circle', keys: ['type', 'radius', 'center', 'filter'] },
    build(input, where, out) {
      const r = positive(where, 'radius', input.radius);
      const c =
        input.center === undefined ? ([0, 0] as Vec2) : readVec2(where, 'center', input.center);
      setPolygon(where, [c], r, SHAPE_KIND_2D.circle, out);
    },
    coreCount: [1, 1],
    rounded: true,
    box: coreVerticesBox2D,
    collide: 'circle',
  },
  capsule: {
    id: SHAPE_KIND_2D.capsule,
    keys: { what: 'a 2D capsule', keys: ['type', 'a', 'b', 'radius', 'filter'] },
    build(input, where, out) {
      const a = readVec2(where, 'a', input.a);
      const b = readVec2(where, 'b', input.b);
      const r = positive(where, 'radius', input.radius);
      if (
        Math.hypot(b[0] - a[0], b[1] - a[1]) <=
        MIN_EDGE_RELATIVE * Math.max(r, Math.hypot(a[0], a[1]))
      ) {
        throw new InputError(where, 'a and b coincide; use a circle for a zero-length capsule');
      }
      setPolygon(where, [a, b], r, SHAPE_KIND_2D.capsule, out);
    },
    coreCount: [2, 2],
    rounded: true,
    box: coreVerticesBox2D,
    collide: 'polygon',
  },
};

/** The JSON type names in id order, for messages. */
export const SHAPE_TYPE_NAMES_2D: readonly ShapeKindName2D[] = (
  Object.keys(SHAPE_KIND_2D) as ShapeKindName2D[]
).sort((a, b) => SHAPE_KIND_2D[a] - SHAPE_KIND_2D[b]);

/** The kinds of `shapes`, each once (a frame for them compiles only the pair classes they form). */
export function shapeKindNames2D(shapes: readonly Pick<Shape2D, 'kind'>[]): ShapeKindName2D[] {
  return [...new Set(shapes.map((s) => SHAPE_TYPE_NAMES_2D[s.kind]!))];
}

/** The rows in id order (Shape2D.kind indexes it). */
export const SHAPE_KIND_LIST_2D: readonly ShapeKind2D[] = SHAPE_TYPE_NAMES_2D.map(
  (name) => SHAPE_KINDS_2D[name],
);

/** The row of a JSON type name, or undefined for a name that is no kind. */
export function shapeKindOfType2D(type: unknown): ShapeKind2D | undefined {
  return typeof type === 'string' && Object.hasOwn(SHAPE_KINDS_2D, type)
    ? SHAPE_KINDS_2D[type as ShapeKindName2D]
    : undefined;
}

/** The row of a Shape2D.kind, or undefined for a number that is no kind (a hand-built shape). */
export function shapeKind2D(kind: number): ShapeKind2D | undefined {
  return SHAPE_KIND_LIST_2D[kind];
}
