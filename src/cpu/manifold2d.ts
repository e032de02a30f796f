// The CPU mirror of the WGSL `Manifold2D` as a fixed-capacity scratch value, and the 2D transform.
// Collide functions write into a caller-owned LocalManifold2D: no allocation per pair.
//
// Conventions: normal is unit and points from A to B; depth > 0 is penetration; a point's position
// is midway between the two surfaces; id = (feature of A) << 8 | (feature of B).

import { MAX_MANIFOLD_POINTS_2D } from '../constants.ts';

export interface LocalManifold2D {
  normalX: number;
  normalY: number;
  count: number;
  pointX: Float64Array;
  pointY: Float64Array;
  depth: Float64Array;
  id: Uint32Array;
}

export function emptyManifold2D(): LocalManifold2D {
  return {
    normalX: 0,
    normalY: 0,
    count: 0,
    pointX: new Float64Array(MAX_MANIFOLD_POINTS_2D),
    pointY: new Float64Array(MAX_MANIFOLD_POINTS_2D),
    depth: new Float64Array(MAX_MANIFOLD_POINTS_2D),
    id: new Uint32Array(MAX_MANIFOLD_POINTS_2D),
  };
}

/** A rigid transform: position p and rotation q = (cos, sin). Mirrors WGSL `Transform2D`. */
export interface Transform2D {
  px: number;
  py: number;
  c: number;
  s: number;
}

/** Marks a vertex (rather than a face) in a feature byte where both could be meant (polygon–circle). */
export const VERTEX_FEATURE = 0x80;

/** The vertex after i, counter-clockwise (the end of edge i). */
export function nextVertex(i: number, count: number): number {
  return i + 1 < count ? i + 1 : 0;
}

/** Feature id of a point made by feature `a` of body A and feature `b` of body B (Box2D's B2_MAKE_ID). */
export function makeId(a: number, b: number): number {
  return ((a & 0xff) << 8) | (b & 0xff);
}

/**
 * B's transform relative to A's, with A's frame moved to `origin` (a point of A in A's local frame):
 * working near a vertex of A keeps f32's digits where the contact is (Box2D v3).
 * Writes xf = inverse(xfA shifted) * xfB.
 */
export function relativeTransform(
  xfA: Transform2D,
  originX: number,
  originY: number,
  xfB: Transform2D,
  xf: Transform2D,
): void {
  // Subtract the world positions first: they are the large numbers, and their difference is exact
  // enough in f32 only if taken before the (small) origin offset is added.
  const dx = xfB.px - xfA.px - (xfA.c * originX - xfA.s * originY);
  const dy = xfB.py - xfA.py - (xfA.s * originX + xfA.c * originY);
  xf.px = xfA.c * dx + xfA.s * dy;
  xf.py = -xfA.s * dx + xfA.c * dy;
  xf.c = xfA.c * xfB.c + xfA.s * xfB.s;
  xf.s = xfA.c * xfB.s - xfA.s * xfB.c;
}

/**
 * Moves a manifold computed in the frame `xf` shifted to `origin` into world space, in place.
 * `swap` says the collide function ran with the shapes swapped (frame of B): the normal is then
 * negated so it points from A to B, and the two halves of each id are exchanged.
 */
export function manifoldToWorld(
  m: LocalManifold2D,
  xf: Transform2D,
  originX: number,
  originY: number,
  swap: boolean,
): void {
  const sign = swap ? -1 : 1;
  const nx = m.normalX;
  const ny = m.normalY;
  m.normalX = sign * (xf.c * nx - xf.s * ny);
  m.normalY = sign * (xf.s * nx + xf.c * ny);
  for (let i = 0; i < m.count; i++) {
    const x = m.pointX[i] + originX;
    const y = m.pointY[i] + originY;
    m.pointX[i] = xf.px + xf.c * x - xf.s * y;
    m.pointY[i] = xf.py + xf.s * x + xf.c * y;
    if (swap) m.id[i] = ((m.id[i] & 0xff) << 8) | ((m.id[i] >> 8) & 0xff);
  }
}
