// The 2D collide functions (CPU mirror of shaders/collide2d.wgsl). Pure: two shapes, B's transform
// relative to A's, a margin; a fixed-capacity manifold out. Every shape is a rounded convex
// polygon (circle: 1 vertex, capsule: 2, polygon: 3..8), so three functions cover every pair:
//   polygon–polygon (also capsule–capsule and capsule–polygon): collidePolygons
//   polygon–circle (also capsule–circle):                        collidePolygonAndCircle
//   circle–circle:                                                collideCircles
// Conventions: normal from A to B; depth > 0 penetration; depth in [-margin, 0) speculative.

import { AXIS_HYSTERESIS, CORE_SEPARATION } from '../constants.ts';
import { emptyShape2D, type Shape2D } from '../shapes2d.ts';
import { clipPolygons, findBestEdge } from './clip2d.ts';
import { segmentDistance, type SegmentDistance } from './distance2d.ts';
import {
  VERTEX_FEATURE,
  makeId,
  manifoldToWorld,
  nextVertex,
  relativeTransform,
  type LocalManifold2D,
  type Transform2D,
} from './manifold2d.ts';
import { findMaxSeparation, type FaceQuery } from './sat2d.ts';

// Scratch values: the per-pair path allocates nothing.
const localA = emptyShape2D();
const localB = emptyShape2D();
const queryA: FaceQuery = { separation: 0, edge: 0 };
const queryB: FaceQuery = { separation: 0, edge: 0 };
const distance: SegmentDistance = { fraction1: 0, fraction2: 0, distanceSquared: 0 };
const xfRel: Transform2D = { px: 0, py: 0, c: 1, s: 0 };

/** Copies `shape` into `out` moved by xf (rotation, then translation), after subtracting origin. */
export function transformShape(
  shape: Shape2D,
  xf: Transform2D,
  originX: number,
  originY: number,
  out: Shape2D,
): void {
  out.count = shape.count;
  out.radius = shape.radius;
  out.extent = shape.extent;
  out.kind = shape.kind;
  for (let i = 0; i < shape.count; i++) {
    const x = shape.vertices[2 * i] - originX;
    const y = shape.vertices[2 * i + 1] - originY;
    out.vertices[2 * i] = xf.c * x - xf.s * y + xf.px;
    out.vertices[2 * i + 1] = xf.s * x + xf.c * y + xf.py;
    const nx = shape.normals[2 * i];
    const ny = shape.normals[2 * i + 1];
    out.normals[2 * i] = xf.c * nx - xf.s * ny;
    out.normals[2 * i + 1] = xf.s * nx + xf.c * ny;
  }
}

/** A single contact between vertex (ax, ay) of poly1 and vertex (bx, by) of poly2, cores apart. */
function vertexContact(
  m: LocalManifold2D,
  ax: number,
  ay: number,
  bx: number,
  by: number,
  r1: number,
  r2: number,
  margin: number,
  flip: boolean,
  id: number,
): void {
  const dx = bx - ax;
  const dy = by - ay;
  const dist = Math.sqrt(dx * dx + dy * dy);
  m.count = 0;
  if (dist - r1 - r2 > margin) return;
  const nx = dx / dist;
  const ny = dy / dist;
  // Midway between the surface points a + r1 n and b − r2 n.
  const k = 0.5 * (r1 - r2 + dist);
  m.normalX = flip ? -nx : nx;
  m.normalY = flip ? -ny : ny;
  m.pointX[0] = ax + k * nx;
  m.pointY[0] = ay + k * ny;
  m.depth[0] = r1 + r2 - dist;
  m.id[0] = id;
  m.count = 1;
}

/**
 * Polygon against polygon, both in A's (shifted) frame. SAT over both polygons' faces gives the
 * axis; A's face is kept unless B's is better by AXIS_HYSTERESIS (frame-to-frame stability). The
 * face's owner gives the reference edge, the clipping article's best edge of the other the incident
 * edge. When the cores are apart and their closest features are two vertices, the normal joins the
 * vertices (rounded polygons, capsules, speculative contacts); otherwise the edges are clipped.
 */
export function collidePolygons(
  polyA: Shape2D,
  polyB: Shape2D,
  margin: number,
  m: LocalManifold2D,
): void {
  m.count = 0;
  const radius = polyA.radius + polyB.radius;
  // Either axis separating by more than the margin ends the test: no need for the other one.
  findMaxSeparation(polyA, polyB, queryA);
  if (queryA.separation > margin + radius) return;
  findMaxSeparation(polyB, polyA, queryB);
  if (queryB.separation > margin + radius) return;
  const scale = Math.min(polyA.extent, polyB.extent);
  const flip = queryB.separation > queryA.separation + AXIS_HYSTERESIS * scale;
  const poly1 = flip ? polyB : polyA;
  const poly2 = flip ? polyA : polyB;
  const edge1 = flip ? queryB.edge : queryA.edge;
  const edge2 = findBestEdge(poly2, -poly1.normals[2 * edge1], -poly1.normals[2 * edge1 + 1]);
  const separation = flip ? queryB.separation : queryA.separation;
  if (
    separation > CORE_SEPARATION * scale &&
    closestEdgesContact(poly1, poly2, edge1, edge2, flip, margin, true, m)
  )
    return;
  clipPolygons(poly1, poly2, edge1, edge2, flip, margin, m);
  if (m.count === 0 && margin + radius > 0)
    closestEdgesContact(poly1, poly2, edge1, edge2, flip, margin, false, m);
}

/**
 * A single contact joining the closest points of the reference and incident edges. With
 * `verticesOnly` (cores apart) it applies only when both closest points are vertices: the normal
 * must then join the vertices rather than be a face normal (Box2D v3). Without it, it is the
 * fallback when clipping left nothing although the shapes may be within reach: rounded cores apart
 * along a direction that is no face normal, as two capsules end to end on one line (a capsule's
 * face normals are its sides; SAT sees separation 0 while the ends are apart). Returns whether it
 * decided the manifold.
 */
function closestEdgesContact(
  poly1: Shape2D,
  poly2: Shape2D,
  edge1: number,
  edge2: number,
  flip: boolean,
  margin: number,
  verticesOnly: boolean,
  m: LocalManifold2D,
): boolean {
  const v1 = poly1.vertices;
  const v2 = poly2.vertices;
  const i11 = edge1;
  const i12 = nextVertex(edge1, poly1.count);
  const i21 = edge2;
  const i22 = nextVertex(edge2, poly2.count);
  const ax = v1[2 * i11];
  const ay = v1[2 * i11 + 1];
  const bx = v2[2 * i21];
  const by = v2[2 * i21 + 1];
  const e1x = v1[2 * i12] - ax;
  const e1y = v1[2 * i12 + 1] - ay;
  const e2x = v2[2 * i22] - bx;
  const e2y = v2[2 * i22 + 1] - by;
  segmentDistance(ax, ay, ax + e1x, ay + e1y, bx, by, bx + e2x, by + e2y, distance);
  const f1 = distance.fraction1;
  const f2 = distance.fraction2;
  const atVertices = (f1 === 0 || f1 === 1) && (f2 === 0 || f2 === 1);
  if ((verticesOnly && !atVertices) || !(distance.distanceSquared > 0)) return false;
  const j1 = f1 < 0.5 ? i11 : i12;
  const j2 = f2 < 0.5 ? i21 : i22;
  vertexContact(
    m,
    ax + f1 * e1x,
    ay + f1 * e1y,
    bx + f2 * e2x,
    by + f2 * e2y,
    poly1.radius,
    poly2.radius,
    margin,
    flip,
    flip ? makeId(j2, j1) : makeId(j1, j2),
  );
  return true;
}

/**
 * Polygon (or capsule) against circle, both in the polygon's frame (Box2D's
 * b2CollidePolygonAndCircle). The face of max separation, then the Voronoi region of the circle's
 * center: beyond either end of that face the normal joins the vertex and the center ("Contact
 * Points Using Clipping", "Curved Shapes": a circle gives one point). Id: the polygon's face index,
 * or its vertex index with VERTEX_FEATURE set, in the polygon's half.
 */
export function collidePolygonAndCircle(
  poly: Shape2D,
  circle: Shape2D,
  margin: number,
  m: LocalManifold2D,
): void {
  m.count = 0;
  const cx = circle.vertices[0];
  const cy = circle.vertices[1];
  const radius = poly.radius + circle.radius;
  const v = poly.vertices;
  const n = poly.normals;
  const count = poly.count;
  let edge = 0;
  let separation = -Infinity;
  for (let i = 0; i < count; i++) {
    const s = n[2 * i] * (cx - v[2 * i]) + n[2 * i + 1] * (cy - v[2 * i + 1]);
    if (s > separation) {
      separation = s;
      edge = i;
    }
  }
  if (separation - radius > margin) return;
  const i2 = nextVertex(edge, count);
  const v1x = v[2 * edge];
  const v1y = v[2 * edge + 1];
  const v2x = v[2 * i2];
  const v2y = v[2 * i2 + 1];
  const u1 = (cx - v1x) * (v2x - v1x) + (cy - v1y) * (v2y - v1y);
  const u2 = (cx - v2x) * (v1x - v2x) + (cy - v2y) * (v1y - v2y);
  if (separation >= 0 && (u1 < 0 || u2 < 0)) {
    // Vertex region: the center is outside the face (or on its line, as on a capsule's axis),
    // beyond one of its ends.
    const vx = u1 < 0 ? v1x : v2x;
    const vy = u1 < 0 ? v1y : v2y;
    vertexContact(
      m,
      vx,
      vy,
      cx,
      cy,
      poly.radius,
      circle.radius,
      margin,
      false,
      makeId(VERTEX_FEATURE | (u1 < 0 ? edge : i2), 0),
    );
    return;
  }
  const nx = n[2 * edge];
  const ny = n[2 * edge + 1];
  // Face region: surface points c − (separation − rPoly) n on the polygon and c − rCircle n on the circle.
  const k = 0.5 * (poly.radius - circle.radius - separation);
  m.normalX = nx;
  m.normalY = ny;
  m.pointX[0] = cx + k * nx;
  m.pointY[0] = cy + k * ny;
  m.depth[0] = radius - separation;
  m.id[0] = makeId(edge, 0);
  m.count = 1;
}

/** Circle against circle, both in A's frame: one point on the line of centers. */
export function collideCircles(
  circleA: Shape2D,
  circleB: Shape2D,
  margin: number,
  m: LocalManifold2D,
): void {
  m.count = 0;
  const ax = circleA.vertices[0];
  const ay = circleA.vertices[1];
  const bx = circleB.vertices[0];
  const by = circleB.vertices[1];
  const dx = bx - ax;
  const dy = by - ay;
  const dist = Math.sqrt(dx * dx + dy * dy);
  if (dist > 0) {
    vertexContact(m, ax, ay, bx, by, circleA.radius, circleB.radius, margin, false, 0);
    return;
  }
  // Concentric: every direction is a normal; take A's local +y so the answer is deterministic.
  const radius = circleA.radius + circleB.radius;
  m.normalX = 0;
  m.normalY = 1;
  m.pointX[0] = ax;
  m.pointY[0] = ay + 0.5 * (circleA.radius - circleB.radius);
  m.depth[0] = radius;
  m.id[0] = 0;
  m.count = 1;
}

/**
 * The manifold of shape A at xfA against shape B at xfB, in world space. Works in the frame of the
 * polygon side (A unless A is a circle and B is not), moved to its vertex 0, so f32 keeps its
 * digits where the contact is.
 */
export function collideShapes2D(
  shapeA: Shape2D,
  xfA: Transform2D,
  shapeB: Shape2D,
  xfB: Transform2D,
  margin: number,
  m: LocalManifold2D,
): void {
  const swap = shapeA.count === 1 && shapeB.count > 1;
  const first = swap ? shapeB : shapeA;
  const second = swap ? shapeA : shapeB;
  const xfFirst = swap ? xfB : xfA;
  const xfSecond = swap ? xfA : xfB;
  const ox = first.vertices[0];
  const oy = first.vertices[1];
  relativeTransform(xfFirst, ox, oy, xfSecond, xfRel);
  transformShape(first, IDENTITY, ox, oy, localA);
  transformShape(second, xfRel, 0, 0, localB);
  if (second.count === 1) {
    if (first.count === 1) collideCircles(localA, localB, margin, m);
    else collidePolygonAndCircle(localA, localB, margin, m);
  } else {
    collidePolygons(localA, localB, margin, m);
  }
  manifoldToWorld(m, xfFirst, ox, oy, swap);
}

const IDENTITY: Transform2D = { px: 0, py: 0, c: 1, s: 0 };
