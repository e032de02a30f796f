// Mass properties of the 2D shapes (src/shapes2d.ts's internal form) at unit density, on the host:
// area, centre of mass in the shape's frame, and rotational inertia about that centre.
//   circle (1 vertex)   exact
//   capsule (2)         exact: a rectangle and two half discs
//   polygon (3..8)      exact for radius 0; a rounded polygon is approximated by its offset polygon
//                       with mitred corners (slightly more mass at the corners than the real rounding)

import type { Shape2D } from '../shapes2d.ts';

export interface MassProperties2D {
  /** Area (mass at density 1). */
  area: number;
  center: [number, number];
  /** Inertia about the centre of mass at density 1. */
  inertia: number;
}

export function shapeMass2D(s: Shape2D): MassProperties2D {
  const v = s.vertices;
  const r = s.radius;
  if (s.count === 1) {
    const area = Math.PI * r * r;
    return { area, center: [v[0], v[1]], inertia: 0.5 * area * r * r };
  }
  if (s.count === 2) {
    const ax = v[0],
      ay = v[1],
      bx = v[2],
      by = v[3];
    const length = Math.hypot(bx - ax, by - ay);
    const h = 0.5 * length;
    const rectArea = 2 * r * length;
    const discArea = Math.PI * r * r;
    // Each half disc's centroid lies 4r / (3π) beyond its end of the segment.
    const lc = (4 * r) / (3 * Math.PI);
    const inertia =
      (rectArea * (length * length + 4 * r * r)) / 12 +
      discArea * (0.5 * r * r + h * h + 2 * h * lc);
    return { area: rectArea + discArea, center: [0.5 * (ax + bx), 0.5 * (ay + by)], inertia };
  }
  const n = s.count;
  const px: number[] = [];
  const py: number[] = [];
  for (let i = 0; i < n; i++) {
    let x = v[2 * i];
    let y = v[2 * i + 1];
    if (r > 0) {
      // Mitre: the corner of the offset polygon, where both neighbouring edges moved out by r.
      const j = (i + n - 1) % n;
      const n0x = s.normals[2 * j],
        n0y = s.normals[2 * j + 1];
      const n1x = s.normals[2 * i],
        n1y = s.normals[2 * i + 1];
      const k = r / (1 + n0x * n1x + n0y * n1y);
      x += k * (n0x + n1x);
      y += k * (n0y + n1y);
    }
    px.push(x);
    py.push(y);
  }
  // Triangle fan about the first vertex (keeps the terms small for polygons far from the origin).
  const ox = px[0],
    oy = py[0];
  let area = 0,
    cx = 0,
    cy = 0,
    inertia = 0;
  for (let i = 1; i + 1 < n; i++) {
    const e1x = px[i] - ox,
      e1y = py[i] - oy;
    const e2x = px[i + 1] - ox,
      e2y = py[i + 1] - oy;
    const d = e1x * e2y - e1y * e2x;
    const a = 0.5 * d;
    area += a;
    cx += (a * (e1x + e2x)) / 3;
    cy += (a * (e1y + e2y)) / 3;
    const ix = e1x * e1x + e2x * e1x + e2x * e2x;
    const iy = e1y * e1y + e2y * e1y + e2y * e2y;
    inertia += (d / 12) * (ix + iy);
  }
  cx /= area;
  cy /= area;
  // Inertia about the fan's origin, moved to the centre of mass (parallel axis theorem).
  inertia -= area * (cx * cx + cy * cy);
  return { area, center: [cx + ox, cy + oy], inertia };
}
