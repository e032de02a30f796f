// Independent checks of 3D manifolds (tests, GPU-vs-CPU near-ties): exact signed distances of
// world points to shapes, and a validity check of a whole manifold. Written separately from the
// collide functions (brute force, allocation is fine here) so it can judge them.

import type { Shape3D } from '../shapes3d.ts';
import type { Manifold3D, Transform3D } from './manifold3d.ts';

/** World point -> the shape's core frame (relative to its centre). */
function toLocal(shape: Shape3D, xf: Transform3D, p: ArrayLike<number>): [number, number, number] {
  const [qx, qy, qz, qw] = [xf.rotation[0]!, xf.rotation[1]!, xf.rotation[2]!, xf.rotation[3]!];
  // v = p - position, rotated by the conjugate quaternion, minus the centre.
  const vx = p[0]! - xf.position[0]!;
  const vy = p[1]! - xf.position[1]!;
  const vz = p[2]! - xf.position[2]!;
  // t = 2 * cross(-q.xyz, v); v' = v + w t + cross(-q.xyz, t)
  const ax = -qx, ay = -qy, az = -qz;
  const tx = 2 * (ay * vz - az * vy);
  const ty = 2 * (az * vx - ax * vz);
  const tz = 2 * (ax * vy - ay * vx);
  return [
    vx + qw * tx + (ay * tz - az * ty) - shape.center[0],
    vy + qw * ty + (az * tx - ax * tz) - shape.center[1],
    vz + qw * tz + (ax * ty - ay * tx) - shape.center[2],
  ];
}

function segDist(p: number[], a: number[], b: number[]): number {
  const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const l = d[0]! * d[0]! + d[1]! * d[1]! + d[2]! * d[2]!;
  let t = l > 0 ? ((p[0]! - a[0]!) * d[0]! + (p[1]! - a[1]!) * d[1]! + (p[2]! - a[2]!) * d[2]!) / l : 0;
  t = Math.min(Math.max(t, 0), 1);
  return Math.hypot(p[0]! - a[0]! - t * d[0]!, p[1]! - a[1]! - t * d[1]!, p[2]! - a[2]! - t * d[2]!);
}

/** Exact signed distance (negative inside) of world point p to the shape at xf. */
export function signedDistance3D(shape: Shape3D, xf: Transform3D, p: ArrayLike<number>): number {
  const x = toLocal(shape, xf, p);
  const v = shape.vertices;
  const vert = (i: number): number[] => [v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!];
  if (shape.faceCount === 0) {
    const a = vert(0);
    const b = shape.vertexCount === 2 ? vert(1) : a;
    return segDist(x, a, b) - shape.radius;
  }
  let maxSep = -Infinity;
  for (let f = 0; f < shape.faceCount; f++) {
    const pl = shape.planes;
    maxSep = Math.max(maxSep, pl[4 * f]! * x[0] + pl[4 * f + 1]! * x[1] + pl[4 * f + 2]! * x[2] - pl[4 * f + 3]!);
  }
  if (maxSep <= 0) return maxSep;
  // Outside: the closest point lies on a face whose plane the point is outside of.
  let best = Infinity;
  for (let f = 0; f < shape.faceCount; f++) {
    const pl = shape.planes;
    const n = [pl[4 * f]!, pl[4 * f + 1]!, pl[4 * f + 2]!];
    const s = n[0]! * x[0] + n[1]! * x[1] + n[2]! * x[2] - pl[4 * f + 3]!;
    if (s <= 0) continue;
    const first = shape.faceFirst[f]!;
    const size = shape.faceSize[f]!;
    let inside = true;
    for (let j = 0; j < size; j++) {
      const a = vert(shape.faceVertices[first + j]!);
      const b = vert(shape.faceVertices[first + ((j + 1) % size)]!);
      const e = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
      const side = [e[1]! * n[2]! - e[2]! * n[1]!, e[2]! * n[0]! - e[0]! * n[2]!, e[0]! * n[1]! - e[1]! * n[0]!];
      if (side[0]! * (x[0] - a[0]!) + side[1]! * (x[1] - a[1]!) + side[2]! * (x[2] - a[2]!) > 0) inside = false;
      best = Math.min(best, segDist(x, a, b));
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
  const nl = Math.hypot(n[0]!, n[1]!, n[2]!);
  if (!(Math.abs(nl - 1) < 1e-6)) return `normal length ${nl}`;
  if (m.count > 4) return `count ${m.count}`;
  for (let k = 0; k < m.count; k++) {
    const d = m.depths[k]!;
    const p = [m.positions[3 * k]!, m.positions[3 * k + 1]!, m.positions[3 * k + 2]!];
    const pa = [p[0]! + 0.5 * d * n[0]!, p[1]! + 0.5 * d * n[1]!, p[2]! + 0.5 * d * n[2]!];
    const pb = [p[0]! - 0.5 * d * n[0]!, p[1]! - 0.5 * d * n[1]!, p[2]! - 0.5 * d * n[2]!];
    const da = signedDistance3D(a, xfA, pa);
    const db = signedDistance3D(b, xfB, pb);
    if (!(Math.abs(da) <= tol)) return `point ${k}: its point on A is ${da} from A's surface`;
    if (!(Math.abs(db) <= tol)) return `point ${k}: its point on B is ${db} from B's surface`;
  }
  return null;
}
