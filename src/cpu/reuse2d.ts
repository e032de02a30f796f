// Manifold reuse between frames, 2D (CPU mirror of shaders/reuse2d.wgsl, function for function).
//
// After a full collide, anchorFromManifold2D records what later frames need (struct Anchor2D of
// shaders/layout2d.wgsl): B's pose in A's body frame, the normal in A's frame, and per point B's
// surface point in B's body frame with its depth (A's surface point is that point, at the build
// pose, plus normal × depth). A later frame's reuseManifold2D moves B's points to the current
// pose: a point whose B side moved by Δ (A's frame) has depth depth − Δ · n and slid |Δ × n|
// across the normal; it is kept midway between its two surface points. The manifold is reused
// while B's pose in A's frame stays within REUSE_TRANSLATION × scale and REUSE_ROTATION of the
// build pose (not of last frame's: errors do not pile up), the margin and both shapes are the
// ones it was built with, and some point is left (within the margin, slid at most REUSE_SLIDE ×
// scale); else the pair needs the full collide (as parry's ContactManifold::try_update_contacts).
//
// A join contact (one point whose normal joins a core vertex of A to a core vertex of B: polygon
// corners apart, circles, capsule ends; recognised by its core points lying on core vertices)
// keeps those two vertices instead and is recomputed as the narrowphase's vertexContact would:
// its normal is the join, which turns fast when the vertices are close (corners 0.003 apart turn
// it by 20° for 1e-3 of slide), so it is reused only while the join turned by at most
// REUSE_ROTATION since the build.
//
// A pair without contact (count 0) stores a separating axis (A's frame) and a lower bound of the
// separation of the rounded shapes along it, the best of A's faces, B's faces and the line of
// centroids (less REUSE_APART_SLACK for rounding). B's points move, in A's frame, by at most
// |Δt| + chord × reach (the chord 2 sin(θ/2) of B's turn, reach B's farthest core vertex from its
// origin), so while bound − that > margin the pair is provably still apart: its empty manifold is
// written without a collide.

import {
  CORE_SEPARATION,
  MAX_MANIFOLD_POINTS_2D,
  REUSE_APART_SLACK,
  REUSE_ROTATION,
  REUSE_SLIDE,
  REUSE_TRANSLATION,
} from '../constants.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { emptyShape2D, type Shape2D } from '../shapes2d.ts';
import { transformShape } from './collide2d.ts';
import {
  emptyManifold2D,
  relativeTransform,
  type LocalManifold2D,
  type Transform2D,
} from './manifold2d.ts';
import { ANCHOR_JOIN, REUSE_STATUS, type ReusePairs } from './reuse.ts';
import { findMaxSeparation, type FaceQuery } from './sat2d.ts';

/** The largest finite f32: the WGSL's "no bound". */
const F32_MAX = 3.4028234663852886e38;

/** An anchor (WGSL `struct Anchor2D`), f64 here; stored as f32 by storeAnchor2D. */
export interface Anchor2D {
  /** B's origin in A's body frame when built. */
  tx: number;
  ty: number;
  /** B's rotation relative to A's, (cos, sin). */
  c: number;
  s: number;
  /** A's frame: the normal (count > 0) or a separating axis (count 0). */
  nx: number;
  ny: number;
  /** count > 0: the margin built with; count 0: a lower bound of the separation along the normal. */
  bound: number;
  count: number;
  /** A join contact: point 0 holds B's core vertex (B's frame) and radius, point 1 A's (A's frame). */
  join: boolean;
  /** Per point: B's surface point in B's body frame, the depth when built, the feature id. */
  localX: Float64Array;
  localY: Float64Array;
  depth: Float64Array;
  id: Uint32Array;
  shapeA: number;
  shapeB: number;
  /** min(extent A, extent B). */
  scale: number;
  /** B's farthest core vertex from its origin. */
  reach: number;
}

export function emptyAnchor2D(): Anchor2D {
  return {
    tx: 0,
    ty: 0,
    c: 1,
    s: 0,
    nx: 0,
    ny: 0,
    bound: 0,
    count: 0,
    join: false,
    localX: new Float64Array(MAX_MANIFOLD_POINTS_2D),
    localY: new Float64Array(MAX_MANIFOLD_POINTS_2D),
    depth: new Float64Array(MAX_MANIFOLD_POINTS_2D),
    id: new Uint32Array(MAX_MANIFOLD_POINTS_2D),
    shapeA: 0,
    shapeB: 0,
    scale: 0,
    reach: 0,
  };
}

// Scratch (the per-pair path allocates nothing).
const pose: Transform2D = { px: 0, py: 0, c: 1, s: 0 };
const localA = emptyShape2D();
const localB = emptyShape2D();
const query: FaceQuery = { separation: 0, edge: 0 };
const IDENTITY: Transform2D = { px: 0, py: 0, c: 1, s: 0 };
/** separatingAxis2D's result (WGSL: a vec3f): axis x, y and the separation. */
export const axis2D = new Float64Array(3);

/** Largest projection of a polygon's core vertices on (dx, dy). */
export function maxProjection2D(poly: Shape2D, dx: number, dy: number): number {
  let best = -F32_MAX;
  for (let i = 0; i < poly.count; i++)
    best = Math.max(best, dx * poly.vertices[2 * i] + dy * poly.vertices[2 * i + 1]);
  return best;
}

/** B's farthest core vertex from B's origin: how far a turn of B about its origin can move its surface, per radian. */
export function reach2D(shape: Shape2D): number {
  let r2 = 0;
  for (let i = 0; i < shape.count; i++)
    r2 = Math.max(r2, shape.vertices[2 * i] ** 2 + shape.vertices[2 * i + 1] ** 2);
  return Math.sqrt(r2);
}

/** Whether (x, y) (the shape's frame) lies within `tol` of one of its core vertices. */
export function isCoreVertex2D(shape: Shape2D, x: number, y: number, tol: number): boolean {
  let hit = false;
  for (let i = 0; i < shape.count; i++) {
    const dx = x - shape.vertices[2 * i];
    const dy = y - shape.vertices[2 * i + 1];
    hit = hit || dx * dx + dy * dy <= tol * tol;
  }
  return hit;
}

/**
 * A separating axis of shape A (at identity) and shape B at `xf` (A's frame) and the separation
 * of the rounded shapes along it, into axis2D: the best of A's face normals, B's face normals
 * (polygons and capsules; findMaxSeparation's), and the line from A's vertex centroid to B's.
 * Every candidate's separation is exact along its axis, so the best is a lower bound of the
 * distance between the shapes.
 */
export function separatingAxis2D(shapeA: Shape2D, shapeB: Shape2D, xf: Transform2D): void {
  transformShape(shapeA, IDENTITY, 0, 0, localA);
  transformShape(shapeB, xf, 0, 0, localB);
  const radius = localA.radius + localB.radius;
  let best = -F32_MAX;
  let ax = 0;
  let ay = 0;
  if (localA.count > 1) {
    findMaxSeparation(localA, localB, query);
    if (query.separation - radius > best) {
      best = query.separation - radius;
      ax = localA.normals[2 * query.edge];
      ay = localA.normals[2 * query.edge + 1];
    }
  }
  if (localB.count > 1) {
    findMaxSeparation(localB, localA, query);
    if (query.separation - radius > best) {
      best = query.separation - radius;
      ax = -localB.normals[2 * query.edge];
      ay = -localB.normals[2 * query.edge + 1];
    }
  }
  let dx = 0;
  let dy = 0;
  for (let i = 0; i < localB.count; i++) {
    dx += localB.vertices[2 * i] / localB.count;
    dy += localB.vertices[2 * i + 1] / localB.count;
  }
  for (let i = 0; i < localA.count; i++) {
    dx -= localA.vertices[2 * i] / localA.count;
    dy -= localA.vertices[2 * i + 1] / localA.count;
  }
  const len = Math.sqrt(dx * dx + dy * dy);
  if (len > 0) {
    const ux = dx / len;
    const uy = dy / len;
    const s = -maxProjection2D(localB, -ux, -uy) - maxProjection2D(localA, ux, uy) - radius;
    if (s > best) {
      best = s;
      ax = ux;
      ay = uy;
    }
  }
  axis2D[0] = ax;
  axis2D[1] = ay;
  axis2D[2] = best;
}

/**
 * The anchor of manifold m (world space, as the narrowphase wrote it for shapes[shapeA] at xfA
 * and shapes[shapeB] at xfB with `margin`) into `out`.
 */
export function anchorFromManifold2D(
  shapes: readonly Shape2D[],
  shapeA: number,
  xfA: Transform2D,
  shapeB: number,
  xfB: Transform2D,
  m: LocalManifold2D,
  margin: number,
  out: Anchor2D,
): void {
  const A = shapes[shapeA];
  const B = shapes[shapeB];
  relativeTransform(xfA, 0, 0, xfB, pose);
  out.tx = pose.px;
  out.ty = pose.py;
  out.c = pose.c;
  out.s = pose.s;
  out.shapeA = shapeA;
  out.shapeB = shapeB;
  out.scale = Math.min(A.extent, B.extent);
  out.reach = reach2D(B);
  out.count = m.count;
  out.join = false;
  out.localX.fill(0);
  out.localY.fill(0);
  out.depth.fill(0);
  out.id.fill(0);
  if (m.count === 0) {
    separatingAxis2D(A, B, pose);
    out.nx = axis2D[0];
    out.ny = axis2D[1];
    out.bound = axis2D[2] - REUSE_APART_SLACK * (A.extent + B.extent);
    return;
  }
  out.bound = margin;
  // A's inverse rotation: world directions into A's frame.
  const c = xfA.c;
  const s = xfA.s;
  out.nx = c * m.normalX + s * m.normalY;
  out.ny = -s * m.normalX + c * m.normalY;
  for (let i = 0; i < m.count; i++) {
    // B's surface point, A's frame (world offsets first: they are the large numbers).
    const wx = m.pointX[i] - xfA.px - 0.5 * m.depth[i] * m.normalX;
    const wy = m.pointY[i] - xfA.py - 0.5 * m.depth[i] * m.normalY;
    const x = c * wx + s * wy - pose.px;
    const y = -s * wx + c * wy - pose.py;
    // Into B's frame: B's inverse rotation relative to A.
    out.localX[i] = pose.c * x + pose.s * y;
    out.localY[i] = -pose.s * x + pose.c * y;
    out.depth[i] = m.depth[i];
    out.id[i] = m.id[i];
  }
  if (m.count === 1) {
    // The core points: B's surface point + rB n (B's frame), A's surface point − rA n (A's frame).
    const bx = out.localX[0] + B.radius * (pose.c * out.nx + pose.s * out.ny);
    const by = out.localY[0] + B.radius * (-pose.s * out.nx + pose.c * out.ny);
    const h = m.depth[0] - A.radius;
    const ax = pose.c * out.localX[0] - pose.s * out.localY[0] + pose.px + h * out.nx;
    const ay = pose.s * out.localX[0] + pose.c * out.localY[0] + pose.py + h * out.ny;
    const tol = CORE_SEPARATION * out.scale;
    if (isCoreVertex2D(A, ax, ay, tol) && isCoreVertex2D(B, bx, by, tol)) {
      out.join = true;
      out.localX[0] = bx;
      out.localY[0] = by;
      out.depth[0] = B.radius;
      out.localX[1] = ax;
      out.localY[1] = ay;
      out.depth[1] = A.radius;
    }
  }
}

/**
 * Reuses anchor `a` at the current poses (bodies with shapes shapeA at xfA and shapeB at xfB,
 * `margin`): writes the manifold into `out` (world space) and returns REUSE_STATUS.kept, or
 * .apart (out empty), or .collide (out untouched: the pair needs the full collide).
 */
export function reuseManifold2D(
  a: Anchor2D,
  shapeA: number,
  xfA: Transform2D,
  shapeB: number,
  xfB: Transform2D,
  margin: number,
  out: LocalManifold2D,
): number {
  if (shapeA !== a.shapeA || shapeB !== a.shapeB) return REUSE_STATUS.collide;
  relativeTransform(xfA, 0, 0, xfB, pose);
  const dtx = pose.px - a.tx;
  const dty = pose.py - a.ty;
  // The rotation's change as a complex number: (R1 − R0) v = dq ⊗ v, and |dq| = 2 sin(θ/2).
  const dqc = pose.c - a.c;
  const dqs = pose.s - a.s;
  const moved = Math.sqrt(dtx * dtx + dty * dty);
  const turned = Math.sqrt(dqc * dqc + dqs * dqs);
  if (a.count === 0) {
    if (a.bound - (moved + turned * a.reach) > margin) {
      out.count = 0;
      return REUSE_STATUS.apart;
    }
    return REUSE_STATUS.collide;
  }
  if (a.bound !== margin || moved > REUSE_TRANSLATION * a.scale || turned > REUSE_ROTATION)
    return REUSE_STATUS.collide;
  if (a.join) return reuseJoin2D(a, pose, xfA, margin, out);
  const nx = a.nx;
  const ny = a.ny;
  let kept = 0;
  for (let i = 0; i < a.count; i++) {
    const lx = a.localX[i];
    const ly = a.localY[i];
    // How far B's point moved, A's frame.
    const dx = dqc * lx - dqs * ly + dtx;
    const dy = dqs * lx + dqc * ly + dty;
    const depth = a.depth[i] - (dx * nx + dy * ny);
    const slide = Math.abs(nx * dy - ny * dx);
    if (depth >= -margin && slide <= REUSE_SLIDE * a.scale) {
      // Midway between A's surface point (built pose + normal × depth) and B's moved one.
      const mx = a.c * lx - a.s * ly + a.tx + 0.5 * (nx * a.depth[i] + dx);
      const my = a.s * lx + a.c * ly + a.ty + 0.5 * (ny * a.depth[i] + dy);
      out.pointX[kept] = xfA.px + (xfA.c * mx - xfA.s * my);
      out.pointY[kept] = xfA.py + (xfA.s * mx + xfA.c * my);
      out.depth[kept] = depth;
      out.id[kept] = a.id[i];
      kept++;
    }
  }
  if (kept === 0) return REUSE_STATUS.collide;
  out.count = kept;
  out.normalX = xfA.c * nx - xfA.s * ny;
  out.normalY = xfA.s * nx + xfA.c * ny;
  return REUSE_STATUS.kept;
}

/**
 * A join contact at the current pose (B's in A's frame: xf), as vertexContact makes it: the normal joins A's
 * core vertex to B's, the point lies midway between the surfaces. Needs the full collide when the
 * vertices nearly touch (the join's direction is rounding) or the join turned by more than
 * REUSE_ROTATION (the closest features may have changed), or the point left the margin.
 */
export function reuseJoin2D(
  a: Anchor2D,
  xf: Transform2D,
  xfA: Transform2D,
  margin: number,
  out: LocalManifold2D,
): number {
  const dx = xf.c * a.localX[0] - xf.s * a.localY[0] + xf.px - a.localX[1];
  const dy = xf.s * a.localX[0] + xf.c * a.localY[0] + xf.py - a.localY[1];
  const dist = Math.sqrt(dx * dx + dy * dy);
  if (!(dist > CORE_SEPARATION * a.scale)) return REUSE_STATUS.collide;
  const nx = dx / dist;
  const ny = dy / dist;
  const rB = a.depth[0];
  const rA = a.depth[1];
  const depth = rA + rB - dist;
  const ex = nx - a.nx;
  const ey = ny - a.ny;
  if (Math.sqrt(ex * ex + ey * ey) > REUSE_ROTATION || depth < -margin) return REUSE_STATUS.collide;
  const k = 0.5 * (rA - rB + dist);
  const px = a.localX[1] + k * nx;
  const py = a.localY[1] + k * ny;
  out.count = 1;
  out.normalX = xfA.c * nx - xfA.s * ny;
  out.normalY = xfA.s * nx + xfA.c * ny;
  out.pointX[0] = xfA.px + (xfA.c * px - xfA.s * py);
  out.pointY[0] = xfA.py + (xfA.s * px + xfA.c * py);
  out.depth[0] = depth;
  out.id[0] = a.id[0];
  return REUSE_STATUS.kept;
}

// ---- the kernels' per-pair calls (src/cpu/reuse.ts runs their loops: reuseSlots, anchorSlots) -----

const L = LAYOUT_2D;
const anchor = emptyAnchor2D();
const manifold = emptyManifold2D();
const xfA: Transform2D = { px: 0, py: 0, c: 1, s: 0 };
const xfB: Transform2D = { px: 0, py: 0, c: 1, s: 0 };

function loadTransform(bodies: Float32Array, index: number, xf: Transform2D): void {
  const o = index * L.body.words;
  xf.px = bodies[o + L.body.position];
  xf.py = bodies[o + L.body.position + 1];
  xf.c = bodies[o + L.body.rotation];
  xf.s = bodies[o + L.body.rotation + 1];
}

export function loadAnchor2D(buf: ArrayBuffer, index: number, out: Anchor2D): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const A = L.anchor;
  const o = index * A.words;
  out.tx = f[o + A.translation];
  out.ty = f[o + A.translation + 1];
  out.c = f[o + A.rotation];
  out.s = f[o + A.rotation + 1];
  out.nx = f[o + A.normal];
  out.ny = f[o + A.normal + 1];
  out.bound = f[o + A.bound];
  out.count = u[o + A.countJoin] & 0xff;
  out.join = (u[o + A.countJoin] & ANCHOR_JOIN) !== 0;
  for (let i = 0; i < MAX_MANIFOLD_POINTS_2D; i++) {
    const p = o + A.points + i * A.pointStride;
    out.localX[i] = f[p + A.pointLocal];
    out.localY[i] = f[p + A.pointLocal + 1];
    out.depth[i] = f[p + A.pointDepth];
    out.id[i] = u[p + A.pointId];
  }
  out.shapeA = u[o + A.shapeA];
  out.shapeB = u[o + A.shapeB];
  out.scale = f[o + A.scale];
  out.reach = f[o + A.reach];
}

export function storeAnchor2D(a: Anchor2D, buf: ArrayBuffer, index: number): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const A = L.anchor;
  const o = index * A.words;
  f[o + A.translation] = a.tx;
  f[o + A.translation + 1] = a.ty;
  f[o + A.rotation] = a.c;
  f[o + A.rotation + 1] = a.s;
  f[o + A.normal] = a.nx;
  f[o + A.normal + 1] = a.ny;
  f[o + A.bound] = a.bound;
  u[o + A.countJoin] = a.count | (a.join ? ANCHOR_JOIN : 0);
  for (let i = 0; i < MAX_MANIFOLD_POINTS_2D; i++) {
    const p = o + A.points + i * A.pointStride;
    f[p + A.pointLocal] = a.localX[i];
    f[p + A.pointLocal + 1] = a.localY[i];
    f[p + A.pointDepth] = a.depth[i];
    u[p + A.pointId] = a.id[i];
  }
  u[o + A.shapeA] = a.shapeA;
  u[o + A.shapeB] = a.shapeB;
  f[o + A.scale] = a.scale;
  f[o + A.reach] = a.reach;
}

/** Manifold slot k as the narrowphase wrote it, into m. */
export function loadManifold2D(buf: ArrayBuffer, k: number, m: LocalManifold2D): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const M = L.manifold;
  const o = k * M.words;
  m.count = u[o + M.count];
  m.normalX = f[o + M.normal];
  m.normalY = f[o + M.normal + 1];
  for (let i = 0; i < MAX_MANIFOLD_POINTS_2D; i++) {
    const p = o + M.points + i * M.pointStride;
    m.pointX[i] = f[p + M.pointPosition];
    m.pointY[i] = f[p + M.pointPosition + 1];
    m.depth[i] = f[p + M.pointDepth];
    m.id[i] = u[p + M.pointId];
  }
}

/** Writes m into slot k as the narrowphase would (unused points and an empty normal zero). */
export function storeManifold2D(m: LocalManifold2D, buf: ArrayBuffer, k: number): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const M = L.manifold;
  const o = k * M.words;
  u.fill(0, o, o + M.words);
  u[o + M.count] = m.count;
  if (m.count === 0) return;
  f[o + M.normal] = m.normalX;
  f[o + M.normal + 1] = m.normalY;
  for (let i = 0; i < m.count; i++) {
    const p = o + M.points + i * M.pointStride;
    f[p + M.pointPosition] = m.pointX[i];
    f[p + M.pointPosition + 1] = m.pointY[i];
    f[p + M.pointDepth] = m.depth[i];
    u[p + M.pointId] = m.id[i];
  }
}

/** The inputs both loops read: the shapes as the kernels see them and the packed bodies. */
export interface ReuseScene2D {
  shapes: readonly Shape2D[];
  /** Body2D array (f32 view of the packed bodies). */
  bodies: Float32Array;
}

function bodyShape(bodies: Float32Array, index: number): number {
  return new Uint32Array(bodies.buffer, bodies.byteOffset)[index * L.body.words + L.body.shape];
}

/** The loops' per-pair calls on `scene` (the WGSL's ruReuse and ruAnchor). */
export function reusePairs2D(scene: ReuseScene2D): ReusePairs {
  const { shapes, bodies } = scene;
  return {
    anchorWords: L.anchor.words,
    reuse(anchors, prev, a, b, margin, manifolds, k) {
      loadAnchor2D(anchors, prev, anchor);
      loadTransform(bodies, a, xfA);
      loadTransform(bodies, b, xfB);
      const status = reuseManifold2D(
        anchor,
        bodyShape(bodies, a),
        xfA,
        bodyShape(bodies, b),
        xfB,
        margin,
        manifold,
      );
      if (status !== REUSE_STATUS.collide) storeManifold2D(manifold, manifolds, k);
      return status;
    },
    anchor(a, b, manifolds, k, margin, anchors) {
      loadTransform(bodies, a, xfA);
      loadTransform(bodies, b, xfB);
      loadManifold2D(manifolds, k, manifold);
      anchorFromManifold2D(
        shapes,
        bodyShape(bodies, a),
        xfA,
        bodyShape(bodies, b),
        xfB,
        manifold,
        margin,
        anchor,
      );
      storeAnchor2D(anchor, anchors, k);
    },
  };
}
