// The cores the 3D kinds build (src/shape-kinds3d.ts): a convex polyhedron (hulls, boxes) or 1 or
// 2 points with a rounding radius (spheres, capsules), in the one internal form, Shape3D, without
// its filter. Core coordinates are stored relative to `center` (the mean of the core's vertices),
// so the collide functions work near the shape and f32 keeps its digits.

import { MAX_COORDINATE_3D, MIN_EXTENT_3D } from './constants3d.ts';
import { InputError, finiteNumber } from './errors.ts';
import type { HullData3D } from './hull3d.ts';
import type { Shape3D, Vec3 } from './shapes3d.ts';

/** The shape without its filter. */
export type ShapeCore3D = Omit<Shape3D, 'categoryBits' | 'maskBits'>;

/** A hull shape of `kind` with its inradius. */
export function hullShape(kind: number, data: HullData3D): ShapeCore3D {
  let inradius = Infinity;
  for (let f = 0; f < data.faceCount; f++) inradius = Math.min(inradius, data.planes[4 * f + 3]);
  return { kind, radius: 0, inradius, ...data };
}

export function readVec3(path: string, what: string, v: unknown): Vec3 {
  if (!Array.isArray(v) || v.length !== 3)
    throw new InputError(path, `${what} must be [x, y, z], got ${JSON.stringify(v)}`);
  return [0, 1, 2].map((i) => finiteNumber(path, `${what}[${i}]`, v[i], MAX_COORDINATE_3D)) as Vec3;
}

/** A length of at least MIN_EXTENT_3D. */
export function positive3D(path: string, what: string, x: unknown): number {
  const v = finiteNumber(path, what, x, MAX_COORDINATE_3D);
  if (!(v >= MIN_EXTENT_3D))
    throw new InputError(
      path,
      `${what} must be >= ${MIN_EXTENT_3D} (zero-size shapes have no contacts), got ${v}`,
    );
  return v;
}

/** A sphere or capsule core: 1 or 2 points and no faces. */
export function roundShape(kind: number, pts: Vec3[], radius: number): ShapeCore3D {
  const V = pts.length;
  const c: Vec3 = [0, 0, 0];
  for (const p of pts) for (let k = 0; k < 3; k++) c[k] += p[k] / V;
  const vertices = new Float64Array(3 * V);
  let reach = 0;
  pts.forEach((p, i) => {
    for (let k = 0; k < 3; k++) vertices[3 * i + k] = p[k] - c[k];
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
