// The check of a sphere or capsule core (src/checkshapes.ts has what is checked, and why).

import { MAX_COORDINATE_3D, MIN_EDGE_RELATIVE_3D, MIN_EXTENT_3D } from './constants3d.ts';
import { count, entries, fail, finiteAt, near } from './check-numbers.ts';
import type { Shape3D } from './shapes3d.ts';

/** A sphere (1 core point) or capsule (2): no faces, the segment as its one edge. */
export function checkRound3D(
  where: string,
  s: Shape3D,
  points: number,
  radius: number,
  extent: number,
): void {
  count(where, 'vertexCount', s.vertexCount, points, points);
  count(where, 'faceCount', s.faceCount, 0, 0);
  count(where, 'edgeCount', s.edgeCount, points - 1, points - 1);
  if (!(radius >= MIN_EXTENT_3D))
    fail(
      where,
      `radius must be >= ${MIN_EXTENT_3D} (zero-size shapes have no contacts), got ${radius}`,
    );
  const v = entries(where, 'vertices', s.vertices, 3 * points);
  let reach = 0;
  for (let i = 0; i < points; i++) {
    for (let k = 0; k < 3; k++) finiteAt(where, 'vertices', v, 3 * i + k, MAX_COORDINATE_3D);
    reach = Math.max(reach, Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
  }
  if (points === 2) {
    const l = Math.hypot(v[3] - v[0], v[4] - v[1], v[5] - v[2]);
    if (l <= MIN_EDGE_RELATIVE_3D * Math.max(radius, l))
      fail(where, 'its two core points coincide; use a sphere for a zero-length capsule');
    if (
      entries(where, 'edgeV0', s.edgeV0, 1)[0] !== 0 ||
      entries(where, 'edgeV1', s.edgeV1, 1)[0] !== 1
    )
      fail(where, 'its one edge must join core point 0 to core point 1');
  }
  if (!near(extent, reach + radius, extent))
    fail(where, `extent is ${extent}; its core points and radius give ${reach + radius}`);
}
