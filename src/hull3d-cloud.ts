// The input side of hull building (src/hull3d.ts): the point cloud centred on its mean, points
// closer than the minimum edge length welded, and clouds without volume refused. Internal: the
// steps are exported for buildHull3D and their tests only.

import { MAX_HULL_INPUT_POINTS, MIN_EXTENT_3D } from './constants3d.ts';
import { InputError } from './errors.ts';

export type P3 = [number, number, number];

export function sub(a: P3, b: P3): P3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
export function cross(a: P3, b: P3): P3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
export function dot(a: P3, b: P3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
export function len(a: P3): number {
  return Math.hypot(a[0], a[1], a[2]);
}

/** Refuses clouds too small to have volume or too large for the builder. */
export function checkPointCount(path: string, n: number): void {
  if (n < 4)
    throw new InputError(
      path,
      `has ${n} points; a hull needs at least 4 points that are not coplanar`,
    );
  if (n > MAX_HULL_INPUT_POINTS) {
    throw new InputError(path, `has ${n} points; at most ${MAX_HULL_INPUT_POINTS} are accepted`);
  }
}

/** The cloud's mean, its largest distance from the mean (`reach`) and the points relative to the mean. */
export interface CentredCloud {
  mean: P3;
  reach: number;
  local: P3[];
}

/** Centres the cloud on its mean (f32 keeps its digits near the shape); refuses a cloud of one point. */
export function centreCloud(path: string, points: readonly P3[]): CentredCloud {
  const n = points.length;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (const p of points) {
    cx += p[0];
    cy += p[1];
    cz += p[2];
  }
  cx /= n;
  cy /= n;
  cz /= n;
  let reach = 0;
  for (const p of points) reach = Math.max(reach, Math.hypot(p[0] - cx, p[1] - cy, p[2] - cz));
  if (!(reach >= MIN_EXTENT_3D)) {
    throw new InputError(path, `all points coincide (size ${reach}); a hull needs volume`);
  }
  return { mean: [cx, cy, cz], reach, local: points.map((p) => [p[0] - cx, p[1] - cy, p[2] - cz]) };
}

/** Indices of the points kept when those within `weld` of an earlier kept point are dropped. */
export function weldPoints(points: readonly P3[], weld: number): number[] {
  const kept: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    let dup = false;
    for (const k of kept) {
      const q = points[k];
      if (Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) <= weld) {
        dup = true;
        break;
      }
    }
    if (!dup) kept.push(i);
  }
  return kept;
}

/** The kept point with the largest `distance` and that distance (first of equals); [-1, 0] when none is above 0. */
function farthest(
  points: readonly P3[],
  kept: readonly number[],
  distance: (p: P3) => number,
): [number, number] {
  let index = -1;
  let best = 0;
  for (const k of kept) {
    const d = distance(points[k]);
    if (d > best) {
      best = d;
      index = k;
    }
  }
  return [index, best];
}

/**
 * Refuses kept points that span no volume (quickhull would return garbage): all within `weld` of
 * the first, on one line within `tol`, or in one plane within `tol`.
 */
export function checkVolume(
  path: string,
  points: readonly P3[],
  kept: readonly number[],
  weld: number,
  tol: number,
): void {
  const p0 = points[kept[0]];
  const [i1, far] = farthest(points, kept, (p) => len(sub(p, p0)));
  if (i1 < 0 || far <= weld)
    throw new InputError(path, 'all points coincide (duplicates only); a hull needs volume');
  const axis = sub(points[i1], p0);
  const [i2, off] = farthest(points, kept, (p) => len(cross(axis, sub(p, p0))) / len(axis));
  if (i2 < 0 || off <= tol) throw new InputError(path, 'points are collinear; a hull needs volume');
  const pn = cross(axis, sub(points[i2], p0));
  const pl = len(pn);
  let best = 0;
  for (const k of kept) best = Math.max(best, Math.abs(dot(pn, sub(points[k], p0))) / pl);
  if (best <= tol) throw new InputError(path, 'points are coplanar; a hull needs volume');
}
