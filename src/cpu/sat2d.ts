// Separating axis test over the face normals of one polygon (CPU mirror of shaders/sat2d.wgsl).
// Both polygons are in the same frame. Separation > 0 means the core polygons are apart along
// that face normal; the largest separation over all faces of both polygons is the axis of least
// penetration (as in the Phaser 3 physics tutorial "Clipping Method" and Box2D's
// b2FindMaxSeparation).

import type { Shape2D } from '../shapes2d.ts';

export interface FaceQuery {
  separation: number;
  edge: number;
}

/** Max over the faces of poly1 of the min over the vertices of poly2 of n_i · (v2_j − v1_i). */
export function findMaxSeparation(poly1: Shape2D, poly2: Shape2D, out: FaceQuery): void {
  const v1 = poly1.vertices;
  const n1 = poly1.normals;
  const v2 = poly2.vertices;
  const count2 = poly2.count;
  let bestEdge = 0;
  let maxSeparation = -Infinity;
  for (let i = 0; i < poly1.count; i++) {
    const nx = n1[2 * i];
    const ny = n1[2 * i + 1];
    const ox = v1[2 * i];
    const oy = v1[2 * i + 1];
    let si = Infinity;
    for (let j = 0; j < count2; j++) {
      const s = nx * (v2[2 * j] - ox) + ny * (v2[2 * j + 1] - oy);
      if (s < si) si = s;
    }
    if (si > maxSeparation) {
      maxSeparation = si;
      bestEdge = i;
    }
  }
  out.separation = maxSeparation;
  out.edge = bestEdge;
}
