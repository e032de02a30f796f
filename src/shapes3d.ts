// 3D shapes: the user's description (JSON-friendly), the one internal form, `Shape3D`, which
// mirrors `struct Shape3D` and the packed hull arrays of shaders/layout3d.wgsl, and makeShape3D,
// which builds it through the kind table (src/shape-kinds3d.ts). Validation happens here, on the
// host, and names the shape's index and the reason; nothing invalid reaches either backend.
//
// Every shape has a local "core" and a rounding radius (src/shape-cores3d.ts):
//   hull / box: a convex polyhedron (HullData3D), radius 0;
//   sphere:     one point, radius r;
//   capsule:    a segment a-b (2 vertices), radius r.

import { MAX_COORDINATE_3D } from './constants3d.ts';
import { InputError, finiteNumber, shown } from './errors.ts';
import { readFilter, type ShapeFilterInput } from './filter.ts';
import type { HullData3D } from './hull3d.ts';
import { checkKeys, type KeySet } from './keys.ts';
import { readVec3 } from './shape-cores3d.ts';
import { SHAPE_TYPE_NAMES_3D, shapeKindOfType3D } from './shape-kinds3d.ts';

export { readVec3 } from './shape-cores3d.ts';

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

/** A rigid body: where its shape is. */
export interface Body3D {
  shape: number;
  position: Vec3;
  rotation: Quat;
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

/** Validates one user shape (index `index` in the scene) and builds its internal form. */
export function makeShape3D(input: Shape3DInput, index: number): Shape3D {
  const path = `shapes[${index}]`;
  if (typeof input !== 'object' || input === null)
    throw new InputError(path, 'must be an object with a "type"');
  const kindName = (input as { type?: unknown }).type;
  const where = `${path} (${String(kindName)})`;
  const kind = shapeKindOfType3D(kindName);
  if (kind) checkKeys(where, input, kind.keys);
  const filter = readFilter(where, input.filter);
  if (!kind)
    throw new InputError(
      where,
      `unknown shape type; 3D types are ${SHAPE_TYPE_NAMES_3D.join(', ')}`,
    );
  return { ...kind.build(input, where), ...filter };
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
