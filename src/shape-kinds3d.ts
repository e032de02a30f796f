// The 3D shape kinds, one entry each (as Box2D's `s_registers` in contact.c): the kind's JSON keys
// and builder, the check of a hand-built shape of it, its box on the host and its collide class.
// makeShape3D, checkShape3D, bodyAabbs3D and pairClass3D read this table, so a new kind starts
// with its id (SHAPE_KIND_3D in src/constants3d.ts, shared with WGSL) and an entry here;
// docs/adding-a-shape.md lists the few places left. The WGSL kernels branch on the id themselves.

import { boxHull3D } from './box3d.ts';
import { checkRound3D } from './check-round3d.ts';
import { checkBox3D, checkHull3D, checkUnrounded3D } from './check-hull3d.ts';
import { MIN_EDGE_RELATIVE_3D, SHAPE_KIND_3D } from './constants3d.ts';
import { coreVerticesBox3D, type CoreBox3D } from './core-boxes.ts';
import { InputError } from './errors.ts';
import { buildHull3D } from './hull3d.ts';
import type { KeySet } from './keys.ts';
import { hullShape, positive3D, readVec3, roundShape, type ShapeCore3D } from './shape-cores3d.ts';
import type { Shape3D, Shape3DInput, Vec3 } from './shapes3d.ts';

export type ShapeKindName3D = keyof typeof SHAPE_KIND_3D;

/**
 * The collide path of a kind, which with the other shape's fixes the pair class
 * (src/gpu/pair-classes3d.ts): 'box' (collideHulls3D with the box's features computed from its
 * half extents), 'hull' (collideHulls3D: SAT, clip, reduction) or 'round' (round3d.wgsl: a point
 * or segment core with a radius).
 */
export type CollideClass3D = 'box' | 'hull' | 'round';

/** One kind's row. */
export interface ShapeKind3D {
  /** Shape3D.kind. */
  id: number;
  /** The JSON keys it takes (src/keys.ts: any other is an error). */
  keys: KeySet;
  /** Reads the JSON shape (keys and filter already read); an InputError at `where`. */
  build(input: Shape3DInput, where: string): ShapeCore3D;
  /** Checks a hand-built shape's core (checkShape3D has read the kind, filter, centre, radius, extent). */
  check(where: string, s: Shape3D, radius: number, extent: number): void;
  /** Its core's world box (bodyAabbs3D pads it). */
  box: CoreBox3D;
  collide: CollideClass3D;
}

/** A row as the table holds it: its id is its name's, its builder reads its own JSON type. */
type ShapeKindRow3D<K extends Shape3DInput['type'] & ShapeKindName3D> = Omit<
  ShapeKind3D,
  'id' | 'build'
> & {
  id: (typeof SHAPE_KIND_3D)[K];
  build(input: Extract<Shape3DInput, { type: K }>, where: string): ShapeCore3D;
};

const NOT_ROUNDED = '3D hulls and boxes are not rounded: no "radius"';

/**
 * Every 3D kind, keyed by its JSON type name: a type without an id, or an id without a row, does
 * not compile.
 */
export const SHAPE_KINDS_3D: {
  readonly [K in Shape3DInput['type']]: ShapeKindRow3D<K>;
} = {
  hull: {
    id: SHAPE_KIND_3D.hull,
    keys: { what: 'a hull', keys: ['type', 'vertices', 'filter'], hints: { radius: NOT_ROUNDED } },
    build(input, where) {
      const v = input.vertices as unknown;
      if (!Array.isArray(v))
        throw new InputError(where, '"vertices" must be an array of [x, y, z]');
      const pts = v.map((p, i) => readVec3(where, `vertices[${i}]`, p));
      return hullShape(SHAPE_KIND_3D.hull, buildHull3D(where, pts));
    },
    check(where, s, radius, extent) {
      checkUnrounded3D(where, 'hull', radius);
      checkHull3D(where, s, extent);
    },
    box: coreVerticesBox3D,
    collide: 'hull',
  },
  box: {
    id: SHAPE_KIND_3D.box,
    keys: {
      what: 'a 3D box',
      keys: ['type', 'halfExtents', 'filter'],
      hints: { radius: NOT_ROUNDED },
    },
    build(input, where) {
      const h = readVec3(where, 'halfExtents', input.halfExtents);
      const hx = positive3D(where, 'halfExtents[0]', h[0]);
      const hy = positive3D(where, 'halfExtents[1]', h[1]);
      const hz = positive3D(where, 'halfExtents[2]', h[2]);
      const m = Math.max(hx, hy, hz);
      if (Math.min(hx, hy, hz) < MIN_EDGE_RELATIVE_3D * m) {
        throw new InputError(
          where,
          `halfExtents ${JSON.stringify(h)} are too thin: each must be at least ${MIN_EDGE_RELATIVE_3D} of the largest`,
        );
      }
      // The one box topology (src/box3d.ts): the GPU computes a box's features from its half extents.
      return hullShape(SHAPE_KIND_3D.box, boxHull3D(hx, hy, hz));
    },
    check(where, s, radius, extent) {
      checkUnrounded3D(where, 'box', radius);
      checkHull3D(where, s, extent);
      checkBox3D(where, s);
    },
    box: coreVerticesBox3D,
    collide: 'box',
  },
  sphere: {
    id: SHAPE_KIND_3D.sphere,
    keys: { what: 'a sphere', keys: ['type', 'radius', 'center', 'filter'] },
    build(input, where) {
      const r = positive3D(where, 'radius', input.radius);
      const c =
        input.center === undefined ? ([0, 0, 0] as Vec3) : readVec3(where, 'center', input.center);
      return roundShape(SHAPE_KIND_3D.sphere, [c], r);
    },
    check: (where, s, radius, extent) => checkRound3D(where, s, 1, radius, extent),
    box: coreVerticesBox3D,
    collide: 'round',
  },
  capsule: {
    id: SHAPE_KIND_3D.capsule,
    keys: { what: 'a 3D capsule', keys: ['type', 'a', 'b', 'radius', 'filter'] },
    build(input, where) {
      const a = readVec3(where, 'a', input.a);
      const b = readVec3(where, 'b', input.b);
      const r = positive3D(where, 'radius', input.radius);
      const l = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      if (l <= MIN_EDGE_RELATIVE_3D * Math.max(r, l)) {
        throw new InputError(where, 'a and b coincide; use a sphere for a zero-length capsule');
      }
      return roundShape(SHAPE_KIND_3D.capsule, [a, b], r);
    },
    check: (where, s, radius, extent) => checkRound3D(where, s, 2, radius, extent),
    box: coreVerticesBox3D,
    collide: 'round',
  },
};

/** The JSON type names in id order, for messages. */
export const SHAPE_TYPE_NAMES_3D: readonly ShapeKindName3D[] = (
  Object.keys(SHAPE_KIND_3D) as ShapeKindName3D[]
).sort((a, b) => SHAPE_KIND_3D[a] - SHAPE_KIND_3D[b]);

/** The kinds of `shapes`, each once (a frame for them compiles only the pair classes they form). */
export function shapeKindNames3D(shapes: readonly Pick<Shape3D, 'kind'>[]): ShapeKindName3D[] {
  return [...new Set(shapes.map((s) => SHAPE_TYPE_NAMES_3D[s.kind]!))];
}

/** The rows in id order (Shape3D.kind indexes it). */
export const SHAPE_KIND_LIST_3D: readonly ShapeKind3D[] = SHAPE_TYPE_NAMES_3D.map(
  (name) => SHAPE_KINDS_3D[name],
);

/** The row of a JSON type name, or undefined for a name that is no kind. */
export function shapeKindOfType3D(type: unknown): ShapeKind3D | undefined {
  return typeof type === 'string' && Object.hasOwn(SHAPE_KINDS_3D, type)
    ? SHAPE_KINDS_3D[type as ShapeKindName3D]
    : undefined;
}

/** The row of a Shape3D.kind, or undefined for a number that is no kind (a hand-built shape). */
export function shapeKind3D(kind: number): ShapeKind3D | undefined {
  return SHAPE_KIND_LIST_3D[kind];
}
