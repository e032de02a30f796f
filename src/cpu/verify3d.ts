// Independent checks of 3D manifolds (tests, GPU-vs-CPU near-ties): exact signed distances of
// world points to shapes, and a validity check of a whole manifold. Written separately from the
// collide functions (brute force over every face and edge, not the SAT's pruned search) so it can
// judge them.

import type { Shape3D } from '../shapes3d.ts';
import type { Manifold3D, Transform3D } from './manifold3d.ts';
import { quat, vec3, type Vec3, type Vec3Like } from './vec3.ts';

/** World point -> the shape's core frame (relative to its centre), into dst. */
function toLocal(shape: Shape3D, xf: Transform3D, p: Vec3Like, dst: Vec3): Vec3 {
  // p - position, rotated by the conjugate quaternion, minus the centre.
  return vec3.sub(quat.rotateInverse(xf.rotation, vec3.sub(p, xf.position, dst), dst), shape.center, dst);
}

/** Distance of p from segment a–b. */
function segmentDistance(p: Vec3Like, a: Vec3Like, b: Vec3Like): number {
  const d = vec3.sub(b, a, vec3.create());
  const l = vec3.dot(d, d);
  const ap = vec3.sub(p, a, vec3.create());
  const t = Math.min(Math.max(l > 0 ? vec3.dot(ap, d) / l : 0, 0), 1);
  return vec3.hypot(vec3.addScaled(ap, d, -t, ap));
}

/** Exact signed distance (negative inside) of world point p to the shape at xf. */
export function signedDistance3D(shape: Shape3D, xf: Transform3D, p: Vec3Like): number {
  const x = toLocal(shape, xf, p, vec3.create());
  const vertex = (i: number): Vec3 => vec3.load(shape.vertices, 3 * i, vec3.create());
  if (shape.faceCount === 0) return segmentDistance(x, vertex(0), vertex(shape.vertexCount === 2 ? 1 : 0)) - shape.radius;
  const pl = shape.planes;
  let maxSep = -Infinity;
  for (let f = 0; f < shape.faceCount; f++) maxSep = Math.max(maxSep, vec3.dot(vec3.load(pl, 4 * f, vec3.create()), x) - pl[4 * f + 3]);
  if (maxSep <= 0) return maxSep;
  // Outside: the closest point lies on a face whose plane the point is outside of.
  let best = Infinity;
  for (let f = 0; f < shape.faceCount; f++) {
    const n = vec3.load(pl, 4 * f, vec3.create());
    const s = vec3.dot(n, x) - pl[4 * f + 3];
    if (s <= 0) continue;
    const first = shape.faceFirst[f];
    const size = shape.faceSize[f];
    let inside = true;
    for (let j = 0; j < size; j++) {
      const a = vertex(shape.faceVertices[first + j]);
      const b = vertex(shape.faceVertices[first + ((j + 1) % size)]);
      const side = vec3.cross(vec3.sub(b, a, vec3.create()), n, vec3.create());
      if (vec3.dot(side, vec3.sub(x, a, vec3.create())) > 0) inside = false;
      best = Math.min(best, segmentDistance(x, a, b));
    }
    if (inside) best = Math.min(best, s);
  }
  return best;
}

/**
 * Checks a manifold against the two shapes: unit normal, at most 4 points, and for every point the
 * implied points on A (position + depth/2 n) and on B (position - depth/2 n) lie on the surfaces
 * within `tol`. Returns null when valid, else the first problem.
 */
export function checkManifold3D(
  m: Manifold3D, a: Shape3D, xfA: Transform3D, b: Shape3D, xfB: Transform3D, tol: number,
): string | null {
  if (m.count === 0) return null;
  const n = m.normal;
  const nl = vec3.hypot(n);
  if (!(Math.abs(nl - 1) < 1e-6)) return `normal length ${nl}`;
  if (m.count > 4) return `count ${m.count}`;
  for (let k = 0; k < m.count; k++) {
    const d = m.depths[k];
    const p = vec3.load(m.positions, 3 * k, vec3.create());
    const da = signedDistance3D(a, xfA, vec3.addScaled(p, n, 0.5 * d, vec3.create()));
    const db = signedDistance3D(b, xfB, vec3.addScaled(p, n, -(0.5 * d), vec3.create()));
    if (!(Math.abs(da) <= tol)) return `point ${k}: its point on A is ${da} from A's surface`;
    if (!(Math.abs(db) <= tol)) return `point ${k}: its point on B is ${db} from B's surface`;
  }
  return null;
}
