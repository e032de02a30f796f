// 3D shapes: the user's description (JSON-friendly) and the one internal form, `Shape3D`, which
// mirrors `struct Shape3D` and the packed hull arrays of shaders/layout3d.wgsl. Validation
// happens here, on the host, and names the shape's index and the reason; nothing invalid reaches
// either backend.
//
// Every shape has a local "core" and a rounding radius:
//   hull / box: a convex polyhedron (HullData3D), radius 0;
//   sphere:     one point, radius r;
//   capsule:    a segment a-b (2 vertices), radius r.
// Core coordinates are stored relative to `center` (the mean of the core's vertices), so the
// collide functions work near the shape and f32 keeps its digits.

import {
  MAX_COORDINATE_3D,
  MIN_EDGE_RELATIVE_3D,
  MIN_EXTENT_3D,
  SHAPE_KIND_3D,
} from './constants3d.ts';
import { boxHull3D } from './box3d.ts';
import { InputError, finiteNumber, shown } from './errors.ts';
import { readFilter, type ShapeFilterInput } from './filter.ts';
import { buildHull3D, type HullData3D } from './hull3d.ts';
import { checkKeys, type KeySet } from './keys.ts';

export type Vec3 = [number, number, number];
/** Unit quaternion [x, y, z, w]. */
export type Quat = [number, number, number, number];

/** A 3D shape as a scene gives it; `filter`: its collision filter (src/filter.ts). */
export type Shape3DInput = (
  | { type: 'hull'; vertices: Vec3[] }
  | { type: 'box'; halfExtents: Vec3 }
  | { type: 'sphere'; radius: number; center?: Vec3 }
  | { type: 'capsule'; a: Vec3; b: Vec3; radius: number }
) & { filter?: ShapeFilterInput };

const NOT_ROUNDED = '3D hulls and boxes are not rounded: no "radius"';

/** The keys each 3D shape type takes (src/keys.ts: any other is an error). */
const SHAPE_KEYS_3D: Record<Shape3DInput['type'], KeySet> = {
  hull: { what: 'a hull', keys: ['type', 'vertices', 'filter'], hints: { radius: NOT_ROUNDED } },
  box: {
    what: 'a 3D box',
    keys: ['type', 'halfExtents', 'filter'],
    hints: { radius: NOT_ROUNDED },
  },
  sphere: { what: 'a sphere', keys: ['type', 'radius', 'center', 'filter'] },
  capsule: { what: 'a 3D capsule', keys: ['type', 'a', 'b', 'radius', 'filter'] },
};

/** The keys a 3D body takes. */
const BODY_KEYS_3D: KeySet = {
  what: 'a 3D body',
  keys: ['shape', 'position', 'rotation'],
  hints: {
    angle: 'a 3D body turns by "rotation", a unit quaternion [x, y, z, w]; "angle" is for dim 2',
  },
};

/** The internal shape. For spheres and capsules the hull arrays hold the 1 or 2 core vertices. */
export interface Shape3D extends HullData3D {
  kind: number;
  radius: number;
  /**
   * Hulls: the distance from the centre to the nearest face plane (> 0), so the hull reaches at
   * least this far from its centre in every direction; the SAT uses it to skip faces and edge
   * pairs that cannot beat the best axis. 0 for spheres and capsules.
   */
  inradius: number;
  /** Collision filter (src/filter.ts). */
  categoryBits: number;
  maskBits: number;
}

/** The shape without its filter. */
type ShapeCore3D = Omit<Shape3D, 'categoryBits' | 'maskBits'>;

/** A hull shape of `kind` with its inradius. */
function hullShape(kind: number, data: HullData3D): ShapeCore3D {
  let inradius = Infinity;
  for (let f = 0; f < data.faceCount; f++) inradius = Math.min(inradius, data.planes[4 * f + 3]!);
  return { kind, radius: 0, inradius, ...data };
}

/** A rigid body: where its shape is. */
export interface Body3D {
  shape: number;
  position: Vec3;
  rotation: Quat;
}

export function readVec3(path: string, what: string, v: unknown): Vec3 {
  if (!Array.isArray(v) || v.length !== 3)
    throw new InputError(path, `${what} must be [x, y, z], got ${JSON.stringify(v)}`);
  return [0, 1, 2].map((i) => finiteNumber(path, `${what}[${i}]`, v[i], MAX_COORDINATE_3D)) as Vec3;
}

/** Reads a rotation quaternion [x, y, z, w]; it must be unit length within 1e-3 and is renormalised. */
export function readQuat(path: string, what: string, v: unknown): Quat {
  if (!Array.isArray(v) || v.length !== 4)
    throw new InputError(
      path,
      `${what} must be a quaternion [x, y, z, w], got ${JSON.stringify(v)}`,
    );
  const q = [0, 1, 2, 3].map((i) =>
    finiteNumber(path, `${what}[${i}]`, v[i], MAX_COORDINATE_3D),
  ) as Quat;
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(Math.abs(l - 1) <= 1e-3))
    throw new InputError(path, `${what} must be a unit quaternion, its length is ${l}`);
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

function positive(path: string, what: string, x: unknown): number {
  const v = finiteNumber(path, what, x, MAX_COORDINATE_3D);
  if (!(v >= MIN_EXTENT_3D))
    throw new InputError(
      path,
      `${what} must be >= ${MIN_EXTENT_3D} (zero-size shapes have no contacts), got ${v}`,
    );
  return v;
}

/** A sphere or capsule core: 1 or 2 points and no faces. */
function roundShape(kind: number, pts: Vec3[], radius: number): ShapeCore3D {
  const V = pts.length;
  const c: Vec3 = [0, 0, 0];
  for (const p of pts) for (let k = 0; k < 3; k++) c[k] += p[k]! / V;
  const vertices = new Float64Array(3 * V);
  let reach = 0;
  pts.forEach((p, i) => {
    for (let k = 0; k < 3; k++) vertices[3 * i + k] = p[k]! - c[k]!;
    reach = Math.max(reach, Math.hypot(p[0] - c[0], p[1] - c[1], p[2] - c[2]));
  });
  return {
    kind,
    radius,
    inradius: 0,
    center: c,
    extent: reach + radius,
    vertexCount: V,
    faceCount: 0,
    edgeCount: V - 1,
    vertices,
    planes: new Float64Array(0),
    faceFirst: new Uint16Array(0),
    faceSize: new Uint8Array(0),
    faceVertices: new Uint8Array(0),
    faceEdges: new Uint8Array(0),
    edgeV0: Uint8Array.from(V === 2 ? [0] : []),
    edgeV1: Uint8Array.from(V === 2 ? [1] : []),
    edgeF0: new Uint8Array(V - 1),
    edgeF1: new Uint8Array(V - 1),
  };
}

/** Validates one user shape (index `index` in the scene) and builds its internal form. */
export function makeShape3D(input: Shape3DInput, index: number): Shape3D {
  const path = `shapes[${index}]`;
  if (typeof input !== 'object' || input === null)
    throw new InputError(path, 'must be an object with a "type"');
  const kindName = (input as { type?: unknown }).type;
  const where = `${path} (${String(kindName)})`;
  if (typeof kindName === 'string' && Object.hasOwn(SHAPE_KEYS_3D, kindName)) {
    checkKeys(where, input, SHAPE_KEYS_3D[kindName as Shape3DInput['type']]);
  }
  const filter = readFilter(where, input.filter);
  return { ...shapeCore3D(input, where), ...filter };
}

function shapeCore3D(input: Shape3DInput, where: string): ShapeCore3D {
  switch (input.type) {
    case 'hull': {
      const v = input.vertices as unknown;
      if (!Array.isArray(v))
        throw new InputError(where, '"vertices" must be an array of [x, y, z]');
      const pts = v.map((p, i) => readVec3(where, `vertices[${i}]`, p));
      return hullShape(SHAPE_KIND_3D.hull, buildHull3D(where, pts));
    }
    case 'box': {
      const h = readVec3(where, 'halfExtents', input.halfExtents);
      const hx = positive(where, 'halfExtents[0]', h[0]);
      const hy = positive(where, 'halfExtents[1]', h[1]);
      const hz = positive(where, 'halfExtents[2]', h[2]);
      const m = Math.max(hx, hy, hz);
      if (Math.min(hx, hy, hz) < MIN_EDGE_RELATIVE_3D * m) {
        throw new InputError(
          where,
          `halfExtents ${JSON.stringify(h)} are too thin: each must be at least ${MIN_EDGE_RELATIVE_3D} of the largest`,
        );
      }
      // The one box topology (src/box3d.ts): the GPU computes a box's features from its half extents.
      return hullShape(SHAPE_KIND_3D.box, boxHull3D(hx, hy, hz));
    }
    case 'sphere': {
      const r = positive(where, 'radius', input.radius);
      const c =
        input.center === undefined ? ([0, 0, 0] as Vec3) : readVec3(where, 'center', input.center);
      return roundShape(SHAPE_KIND_3D.sphere, [c], r);
    }
    case 'capsule': {
      const a = readVec3(where, 'a', input.a);
      const b = readVec3(where, 'b', input.b);
      const r = positive(where, 'radius', input.radius);
      const l = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      if (l <= MIN_EDGE_RELATIVE_3D * Math.max(r, l)) {
        throw new InputError(where, 'a and b coincide; use a sphere for a zero-length capsule');
      }
      return roundShape(SHAPE_KIND_3D.capsule, [a, b], r);
    }
    default:
      throw new InputError(where, 'unknown shape type; 3D types are hull, box, sphere, capsule');
  }
}

/** Validates one body (index `index`) against `shapeCount` shapes. */
export function makeBody3D(input: unknown, index: number, shapeCount: number): Body3D {
  const path = `bodies[${index}]`;
  if (typeof input !== 'object' || input === null)
    throw new InputError(path, 'must be an object with "shape", "position", "rotation"');
  checkKeys(path, input, BODY_KEYS_3D);
  const o = input as { shape?: unknown; position?: unknown; rotation?: unknown };
  if (
    typeof o.shape !== 'number' ||
    !Number.isInteger(o.shape) ||
    o.shape < 0 ||
    o.shape >= shapeCount
  ) {
    throw new InputError(
      path,
      `shape must be an index into shapes (0..${shapeCount - 1}), got ${shown(o.shape)}`,
    );
  }
  const position = readVec3(path, 'position', o.position);
  const rotation =
    o.rotation === undefined ? ([0, 0, 0, 1] as Quat) : readQuat(path, 'rotation', o.rotation);
  return { shape: o.shape, position, rotation };
}
