// Feature selection and clipping, the method of dyn4j's "Contact Points Using Clipping" (William
// Bittle), CPU mirror of shaders/clip2d.wgsl. Both polygons are in the same frame; poly1 owns the
// reference edge, poly2 the incident edge.

import { INCIDENT_EDGE_BIAS } from '../constants.ts';
import type { Shape2D } from '../shapes2d.ts';
import { makeId, nextVertex, type LocalManifold2D } from './manifold2d.ts';

/**
 * The best edge of `poly` for direction (dx, dy) ("Contact Points Using Clipping", "Finding the
 * Features"): the vertex farthest along d, then of its two edges the one most perpendicular to d.
 * For a convex polygon that is the edge whose outward normal is most aligned with d; comparing
 * normals also works for a capsule's 2-gon, whose two edges share both vertices. Near-ties keep the
 * edge leaving the vertex (INCIDENT_EDGE_BIAS), so feature ids do not flicker.
 */
export function findBestEdge(poly: Shape2D, dx: number, dy: number): number {
  const v = poly.vertices;
  const n = poly.normals;
  const count = poly.count;
  let best = 0;
  let maxProjection = v[0] * dx + v[1] * dy;
  for (let i = 1; i < count; i++) {
    const p = v[2 * i] * dx + v[2 * i + 1] * dy;
    if (p > maxProjection) {
      maxProjection = p;
      best = i;
    }
  }
  const prev = best === 0 ? count - 1 : best - 1;
  const dotPrev = n[2 * prev] * dx + n[2 * prev + 1] * dy;
  const dotNext = n[2 * best] * dx + n[2 * best + 1] * dy;
  return dotPrev > dotNext + INCIDENT_EDGE_BIAS ? prev : best;
}

/** A segment being clipped (the incident edge), a = its first vertex, b = its second. */
export interface ClipSegment {
  ax: number;
  ay: number;
  bx: number;
  by: number;
}

/**
 * Keeps the part of segment ab where dir · p >= offset (that article's `clip`, order-preserving: a
 * clipped end is replaced by the crossing point, so each end keeps its feature id). Returns false
 * when both ends are outside (fewer than two points remain: no contact from this edge pair).
 */
export function clipSegmentToLine(
  seg: ClipSegment,
  dirX: number,
  dirY: number,
  offset: number,
): boolean {
  const da = dirX * seg.ax + dirY * seg.ay - offset;
  const db = dirX * seg.bx + dirY * seg.by - offset;
  if (da < 0 && db < 0) return false;
  if (da < 0) {
    const u = da / (da - db);
    seg.ax += u * (seg.bx - seg.ax);
    seg.ay += u * (seg.by - seg.ay);
  } else if (db < 0) {
    const u = db / (db - da);
    seg.bx += u * (seg.ax - seg.bx);
    seg.by += u * (seg.ay - seg.by);
  }
  return true;
}

const seg: ClipSegment = { ax: 0, ay: 0, bx: 0, by: 0 };

/** Appends one clipped point: its per-point depth (the article's example 3) and midway position. */
function addClipPoint(
  m: LocalManifold2D,
  px: number,
  py: number,
  refX: number,
  refY: number,
  nx: number,
  ny: number,
  r1: number,
  r2: number,
  margin: number,
  id: number,
): void {
  const separation = (px - refX) * nx + (py - refY) * ny; // of the core edges, along the reference normal
  const depth = r1 + r2 - separation;
  if (depth < -margin) return; // the third clip: past the reference face by more than the margin
  const k = 0.5 * (r1 - r2 - separation);
  const i = m.count;
  m.pointX[i] = px + k * nx;
  m.pointY[i] = py + k * ny;
  m.depth[i] = depth;
  m.id[i] = id;
  m.count = i + 1;
}

/**
 * The three clips of "Contact Points Using Clipping": the incident edge of poly2 against the side
 * planes through the two ends of the reference edge of poly1, then each remaining point against the
 * reference face itself, keeping its own depth. `flip` says poly1 is body B (the normal is then
 * negated and the id halves swapped so ids always read (feature of A, feature of B)).
 */
export function clipPolygons(
  poly1: Shape2D,
  poly2: Shape2D,
  edge1: number,
  edge2: number,
  flip: boolean,
  margin: number,
  m: LocalManifold2D,
): void {
  const v1 = poly1.vertices;
  const v2 = poly2.vertices;
  const i11 = edge1;
  const i12 = nextVertex(edge1, poly1.count);
  const i21 = edge2;
  const i22 = nextVertex(edge2, poly2.count);
  const v11x = v1[2 * i11];
  const v11y = v1[2 * i11 + 1];
  const v12x = v1[2 * i12];
  const v12y = v1[2 * i12 + 1];
  const nx = poly1.normals[2 * i11];
  const ny = poly1.normals[2 * i11 + 1];
  // Edge direction of a counter-clockwise polygon: the left perpendicular of its outward normal.
  const tx = -ny;
  const ty = nx;
  seg.ax = v2[2 * i21];
  seg.ay = v2[2 * i21 + 1];
  seg.bx = v2[2 * i22];
  seg.by = v2[2 * i22 + 1];
  m.count = 0;
  m.normalX = flip ? -nx : nx;
  m.normalY = flip ? -ny : ny;
  if (!clipSegmentToLine(seg, tx, ty, tx * v11x + ty * v11y)) return;
  if (!clipSegmentToLine(seg, -tx, -ty, -(tx * v12x + ty * v12y))) return;
  const r1 = poly1.radius;
  const r2 = poly2.radius;
  // The incident edge runs against the reference edge, so its end b lies near v11 and a near v12.
  addClipPoint(
    m,
    seg.bx,
    seg.by,
    v11x,
    v11y,
    nx,
    ny,
    r1,
    r2,
    margin,
    flip ? makeId(i22, i11) : makeId(i11, i22),
  );
  addClipPoint(
    m,
    seg.ax,
    seg.ay,
    v11x,
    v11y,
    nx,
    ny,
    r1,
    r2,
    margin,
    flip ? makeId(i21, i12) : makeId(i12, i21),
  );
}
