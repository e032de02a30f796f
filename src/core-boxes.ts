// A shape's box on the host, before the broadphase pads it: the world box of its core vertices
// (src/broadphase2d.ts and broadphase3d.ts add the radius, the margin and the f32 pads). Every
// kind whose core vertices bound its core uses these; a kind that is not (a cylinder's rim) gives
// its own in its src/shape-kinds*.ts entry, as bpBodyBox in shaders/aabb*.wgsl must then too.

import type { Shape2D } from './polygon2d.ts';
import type { Shape3D } from './shapes3d.ts';

/** Writes minX, minY, maxX, maxY of the core at angle (cos, sin) and position (px, py) to out[o..o+3]. */
export type CoreBox2D = (
  shape: Shape2D,
  cos: number,
  sin: number,
  px: number,
  py: number,
  out: Float64Array,
  o: number,
) => void;

/** Fills lo and hi with the world box of the core rotated by `m` (rows) and moved to `p`. */
export type CoreBox3D = (
  shape: Shape3D,
  m: readonly number[],
  p: readonly number[],
  lo: number[],
  hi: number[],
) => void;

/** The box of the core vertices (every 2D kind: its core is their convex hull). */
export function coreVerticesBox2D(
  shape: Shape2D,
  c: number,
  s: number,
  px: number,
  py: number,
  out: Float64Array,
  o: number,
): void {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let v = 0; v < shape.count; v++) {
    const x = shape.vertices[2 * v];
    const y = shape.vertices[2 * v + 1];
    const wx = px + c * x - s * y;
    const wy = py + s * x + c * y;
    minX = Math.min(minX, wx);
    minY = Math.min(minY, wy);
    maxX = Math.max(maxX, wx);
    maxY = Math.max(maxY, wy);
  }
  out[o] = minX;
  out[o + 1] = minY;
  out[o + 2] = maxX;
  out[o + 3] = maxY;
}

/** The box of the core vertices (hull vertices; a sphere's centre, a capsule's segment). */
export function coreVerticesBox3D(
  shape: Shape3D,
  m: readonly number[],
  p: readonly number[],
  lo: number[],
  hi: number[],
): void {
  const c = shape.center;
  lo.fill(Infinity);
  hi.fill(-Infinity);
  for (let v = 0; v < shape.vertexCount; v++) {
    const vx = shape.vertices[3 * v] + c[0];
    const vy = shape.vertices[3 * v + 1] + c[1];
    const vz = shape.vertices[3 * v + 2] + c[2];
    for (let k = 0; k < 3; k++) {
      const wk = p[k] + m[3 * k] * vx + m[3 * k + 1] * vy + m[3 * k + 2] * vz;
      lo[k] = Math.min(lo[k], wk);
      hi[k] = Math.max(hi[k], wk);
    }
  }
}
