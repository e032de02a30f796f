// The one internal 2D shape form, a rounded convex polygon with 1 to 8 core vertices (circle: 1,
// capsule: 2, box: 4, polygon: 3..8), mirroring `struct Shape2D` in shaders/layout2d.wgsl, and
// its rules (setPolygon). Every kind of src/shape-kinds2d.ts builds this one form, so the packed
// layout, the broadphase and the collide paths need no per-kind code.
//
// Conventions: local frame, counter-clockwise winding, edge i runs from vertex i to vertex i+1 and
// its outward normal is the right perpendicular of that edge.

import {
  MAX_COORDINATE,
  MAX_POLYGON_VERTICES,
  MIN_EDGE_RELATIVE,
  MIN_EXTENT,
  MIN_TURN_SINE,
} from './constants.ts';
import { InputError, finiteNumber } from './errors.ts';
import { DEFAULT_CATEGORY_BITS, DEFAULT_MASK_BITS } from './filter.ts';

export type Vec2 = [number, number];

/** The internal shape; field for field the WGSL `Shape2D`. Vertices and normals are x,y interleaved. */
export interface Shape2D {
  count: number;
  radius: number;
  extent: number;
  kind: number;
  vertices: Float64Array; // 2 * MAX_POLYGON_VERTICES
  normals: Float64Array; // 2 * MAX_POLYGON_VERTICES
  categoryBits: number; // collision filter (src/filter.ts)
  maskBits: number;
}

export function emptyShape2D(): Shape2D {
  return {
    count: 0,
    radius: 0,
    extent: 0,
    kind: 0,
    vertices: new Float64Array(2 * MAX_POLYGON_VERTICES),
    normals: new Float64Array(2 * MAX_POLYGON_VERTICES),
    categoryBits: DEFAULT_CATEGORY_BITS,
    maskBits: DEFAULT_MASK_BITS,
  };
}

export function readVec2(path: string, what: string, v: unknown): Vec2 {
  if (!Array.isArray(v) || v.length !== 2)
    throw new InputError(path, `${what} must be [x, y], got ${JSON.stringify(v)}`);
  return [
    finiteNumber(path, `${what}[0]`, v[0], MAX_COORDINATE),
    finiteNumber(path, `${what}[1]`, v[1], MAX_COORDINATE),
  ];
}

/**
 * Checks the polygon rules of every 2D shape (counter-clockwise, strictly convex, no duplicate or
 * collinear vertices, not too small) and fills `out` (vertices, normals, extent). Also the check of
 * a hand-built Shape2D (src/checkshapes.ts).
 */
export function setPolygon(
  path: string,
  pts: Vec2[],
  radius: number,
  kind: number,
  out: Shape2D,
): void {
  const n = pts.length;
  let cx = 0;
  let cy = 0;
  for (const p of pts) {
    cx += p[0] / n;
    cy += p[1] / n;
  }
  let reach = 0;
  for (const p of pts) reach = Math.max(reach, Math.hypot(p[0] - cx, p[1] - cy));
  const extent = reach + radius;
  if (!(extent >= MIN_EXTENT))
    throw new InputError(
      path,
      `shape is smaller than ${MIN_EXTENT} (extent ${extent}); zero-size shapes have no contacts`,
    );
  const minEdge = MIN_EDGE_RELATIVE * reach;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]);
      if (d === 0) throw new InputError(path, `vertices ${i} and ${j} coincide (duplicate vertex)`);
      if (d <= minEdge) {
        throw new InputError(
          path,
          `vertices ${i} and ${j} are ${d} apart in a shape of size ${reach}: an aspect ratio of ${(reach / d).toPrecision(3)}, above the ${1 / MIN_EDGE_RELATIVE} that f32 resolves (the short side would be rounding noise); make it thicker or split it`,
        );
      }
    }
  }
  if (n >= 3) {
    let area2 = 0;
    for (let i = 0; i < n; i++) {
      const a = pts[i];
      const b = pts[(i + 1) % n];
      area2 += a[0] * b[1] - a[1] * b[0];
    }
    if (area2 < 0)
      throw new InputError(path, 'vertices are clockwise; give them counter-clockwise');
    let turning = 0;
    for (let i = 0; i < n; i++) {
      const a = pts[i];
      const b = pts[(i + 1) % n];
      const c = pts[(i + 2) % n];
      const e1x = b[0] - a[0];
      const e1y = b[1] - a[1];
      const e2x = c[0] - b[0];
      const e2y = c[1] - b[1];
      const cross = e1x * e2y - e1y * e2x;
      const sine = cross / (Math.hypot(e1x, e1y) * Math.hypot(e2x, e2y));
      const at = (i + 1) % n;
      if (Math.abs(sine) < MIN_TURN_SINE) {
        throw new InputError(
          path,
          `vertices ${i}, ${at}, ${(i + 2) % n} are collinear; remove vertex ${at}`,
        );
      }
      if (sine < 0) throw new InputError(path, `polygon is not convex at vertex ${at}`);
      turning += Math.atan2(cross, e1x * e2x + e1y * e2y);
    }
    // All left turns but more than one full turn: a star that winds twice (self-intersecting).
    if (turning > 2 * Math.PI + 1e-6)
      throw new InputError(path, 'polygon winds around more than once (self-intersecting)');
  }
  out.count = n;
  out.radius = radius;
  out.extent = extent;
  out.kind = kind;
  out.vertices.fill(0);
  out.normals.fill(0);
  for (let i = 0; i < n; i++) {
    out.vertices[2 * i] = pts[i][0];
    out.vertices[2 * i + 1] = pts[i][1];
  }
  if (n >= 2) {
    for (let i = 0; i < n; i++) {
      const a = pts[i];
      const b = pts[(i + 1) % n];
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      out.normals[2 * i] = (b[1] - a[1]) / len;
      out.normals[2 * i + 1] = -(b[0] - a[0]) / len;
    }
  }
}
