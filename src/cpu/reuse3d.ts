// Manifold reuse between frames, 3D (CPU mirror of shaders/reuse3d.wgsl, function for function).
// The method is the 2D one (src/cpu/reuse2d.ts has the whole story): an anchor (struct Anchor3D of
// shaders/layout3d.wgsl) holds B's pose in A's body frame when the manifold was built (rotation as
// the quaternion conj(qA) qB), the normal in A's frame, per point B's surface point in B's body
// frame and its depth, the ids and the kind; reuseManifold3D moves B's points to the current pose
// and recomputes their depths while the pose stays within REUSE_TRANSLATION_3D × scale and
// REUSE_ROTATION_3D of the build pose. The turn's chord 2 sin(θ/2) is twice the vector part of
// q1 conj(q0).
//
// A join contact (kind closest: one point whose normal joins the closest core points) keeps those
// two core points and is recomputed as a join, while the join turned by at most
// REUSE_ROTATION_3D (see reuse2d.ts).
//
// A pair without contact stores the best of three separating axes, each with the exact
// separation of the rounded shapes along it: A's face normals and B's face normals (the
// narrowphase's own pruned face query, for hulls and boxes) and the line of the shape centres;
// B's core points lie within reach = |centre| + extent of B's origin.

import {
  CONTACT_KIND_3D,
  CORE_DISTANCE_3D,
  MAX_MANIFOLD_POINTS_3D,
  REUSE_APART_SLACK_3D,
  REUSE_ROTATION_3D,
  REUSE_SLIDE_3D,
  REUSE_TRANSLATION_3D,
} from '../constants3d.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import type { Shape3D } from '../shapes3d.ts';
import { deepestVertex3D } from './clip3d.ts';
import { isHull3D } from './collide3d.ts';
import {
  emptyHull3D,
  emptyManifold3D,
  emptyWorkingFrame3D,
  quatToMatrix3D,
  relativePose3D,
  type Hull3D,
  type Manifold3D,
  type Transform3D,
} from './manifold3d.ts';
import { REUSE_STATUS, type ReusePairs } from './reuse.ts';
import { emptyFaceQuery3D, queryFaceDirections3D } from './sat3d.ts';

/** The largest finite f32: the WGSL's "no bound" (F32_MAX_3D). */
const F32_MAX = 3.4028234663852886e38;

/** An anchor (WGSL `struct Anchor3D`), f64 here; stored as f32 by storeAnchor3D. */
export interface Anchor3D {
  /** B's rotation relative to A's, conj(qA) qB, [x, y, z, w]. */
  rotation: Float64Array;
  /** B's origin in A's body frame. */
  translation: Float64Array;
  /** count > 0: the margin built with; count 0: a lower bound of the separation along the normal. */
  bound: number;
  /** A's frame: the normal (count > 0) or a separating axis (count 0). */
  normal: Float64Array;
  count: number;
  kind: number;
  /** Per point: B's surface point in B's body frame (x, y, z), the depth when built, the id. */
  local: Float64Array;
  depth: Float64Array;
  ids: Uint32Array;
  shapeA: number;
  shapeB: number;
  scale: number;
  reach: number;
}

export function emptyAnchor3D(): Anchor3D {
  return {
    rotation: Float64Array.of(0, 0, 0, 1),
    translation: new Float64Array(3),
    bound: 0,
    normal: new Float64Array(3),
    count: 0,
    kind: 0,
    local: new Float64Array(3 * MAX_MANIFOLD_POINTS_3D),
    depth: new Float64Array(MAX_MANIFOLD_POINTS_3D),
    ids: new Uint32Array(MAX_MANIFOLD_POINTS_3D),
    shapeA: 0,
    shapeB: 0,
    scale: 0,
    reach: 0,
  };
}

/** a ⊗ b for quaternions [x, y, z, w], into out (which may be neither). */
export function quatMul3D(a: ArrayLike<number>, b: ArrayLike<number>, out: Float64Array): void {
  const ax = a[0],
    ay = a[1],
    az = a[2],
    aw = a[3];
  const bx = b[0],
    by = b[1],
    bz = b[2],
    bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}

// Scratch (the per-pair path allocates nothing).
const rotA = new Float64Array(9);
const rot0 = new Float64Array(9);
const rot1 = new Float64Array(9);
const conjA = new Float64Array(4);
const q1 = new Float64Array(4);
const dq = new Float64Array(4);
const t1 = new Float64Array(3);
/** separatingAxis3D's result (WGSL: a vec4f): axis x, y, z (A's frame) and the separation. */
export const axis3D = new Float64Array(4);

/**
 * B's pose in A's body frame: rotation conj(qA) qB into q, translation R_Aᵀ (pB − pA) into t;
 * A's rotation matrix into rotA (row-major).
 */
export function bodyPose3D(
  xfA: Transform3D,
  xfB: Transform3D,
  q: Float64Array,
  t: Float64Array,
): void {
  const qa = xfA.rotation;
  conjA[0] = -qa[0];
  conjA[1] = -qa[1];
  conjA[2] = -qa[2];
  conjA[3] = qa[3];
  quatMul3D(conjA, xfB.rotation, q);
  quatToMatrix3D(qa, rotA);
  const dx = xfB.position[0] - xfA.position[0];
  const dy = xfB.position[1] - xfA.position[1];
  const dz = xfB.position[2] - xfA.position[2];
  for (let r = 0; r < 3; r++) t[r] = rotA[r] * dx + rotA[3 + r] * dy + rotA[6 + r] * dz;
}

/** B's farthest core point from B's origin (at most): |centre| + extent. */
export function reach3D(shape: Shape3D): number {
  const c = shape.center;
  return Math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) + shape.extent;
}

const hullA = emptyHull3D(null as unknown as Shape3D);
const hullB = emptyHull3D(null as unknown as Shape3D);
const frameA = emptyWorkingFrame3D();
const faces = emptyFaceQuery3D();
const along = new Float64Array(3);

/** Largest projection on unit u (working frame) of hull h's rounded surface. */
function supportAlong3D(h: Hull3D, ux: number, uy: number, uz: number): number {
  along[0] = -ux;
  along[1] = -uy;
  along[2] = -uz;
  const i = deepestVertex3D(h, along);
  const v = h.shape.vertices;
  const r = h.rot;
  const x = v[3 * i],
    y = v[3 * i + 1],
    z = v[3 * i + 2];
  const wx = r[0] * x + r[1] * y + r[2] * z + h.pos[0];
  const wy = r[3] * x + r[4] * y + r[5] * z + h.pos[1];
  const wz = r[6] * x + r[7] * y + r[8] * z + h.pos[2];
  return ux * wx + uy * wy + uz * wz + h.shape.radius;
}

/**
 * A separating axis of shapes A at xfA and B at xfB (A's frame) and the separation of the rounded
 * shapes along it, into axis3D: the best of A's face normals and B's face normals (hulls and
 * boxes: queryFaceDirections3D, the narrowphase's own) and the line of the shape centres. Each is
 * exact along its axis, so the best is a lower bound of the distance.
 */
export function separatingAxis3D(
  shapeA: Shape3D,
  xfA: Transform3D,
  shapeB: Shape3D,
  xfB: Transform3D,
  scale: number,
): void {
  hullA.shape = shapeA;
  hullB.shape = shapeB;
  relativePose3D(shapeA, xfA, shapeB, xfB, frameA, hullB);
  const radius = shapeA.radius + shapeB.radius;
  let best = -F32_MAX;
  let ax = 0,
    ay = 0,
    az = 0;
  if (isHull3D(shapeA)) {
    queryFaceDirections3D(hullA, hullB, F32_MAX, scale, faces);
    if (faces.separation - radius > best) {
      best = faces.separation - radius;
      const f = faces.face;
      ax = shapeA.planes[4 * f];
      ay = shapeA.planes[4 * f + 1];
      az = shapeA.planes[4 * f + 2];
    }
  }
  if (isHull3D(shapeB)) {
    queryFaceDirections3D(hullB, hullA, F32_MAX, scale, faces);
    if (faces.separation - radius > best) {
      best = faces.separation - radius;
      const f = faces.face;
      const nx = shapeB.planes[4 * f],
        ny = shapeB.planes[4 * f + 1],
        nz = shapeB.planes[4 * f + 2];
      const r = hullB.rot;
      ax = -(r[0] * nx + r[1] * ny + r[2] * nz);
      ay = -(r[3] * nx + r[4] * ny + r[5] * nz);
      az = -(r[6] * nx + r[7] * ny + r[8] * nz);
    }
  }
  const p = hullB.pos;
  const len = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  if (len > 0) {
    const ux = p[0] / len,
      uy = p[1] / len,
      uz = p[2] / len;
    // Radii are in the supports.
    const s = -supportAlong3D(hullB, -ux, -uy, -uz) - supportAlong3D(hullA, ux, uy, uz);
    if (s > best) {
      best = s;
      ax = ux;
      ay = uy;
      az = uz;
    }
  }
  axis3D[0] = ax;
  axis3D[1] = ay;
  axis3D[2] = az;
  axis3D[3] = best;
}

/**
 * The anchor of manifold m (world space, as the narrowphase wrote it for shapes[shapeA] at xfA
 * and shapes[shapeB] at xfB with `margin`) into `out`.
 */
export function anchorFromManifold3D(
  shapes: readonly Shape3D[],
  shapeA: number,
  xfA: Transform3D,
  shapeB: number,
  xfB: Transform3D,
  m: Manifold3D,
  margin: number,
  out: Anchor3D,
): void {
  const A = shapes[shapeA];
  const B = shapes[shapeB];
  bodyPose3D(xfA, xfB, out.rotation, out.translation);
  out.shapeA = shapeA;
  out.shapeB = shapeB;
  out.scale = Math.min(A.extent, B.extent);
  out.reach = reach3D(B);
  out.count = m.count;
  out.kind = m.kind;
  out.local.fill(0);
  out.depth.fill(0);
  out.ids.fill(0);
  if (m.count === 0) {
    separatingAxis3D(A, xfA, B, xfB, out.scale);
    out.normal.set(axis3D.subarray(0, 3));
    out.bound = axis3D[3] - REUSE_APART_SLACK_3D * (A.extent + B.extent);
    return;
  }
  out.bound = margin;
  const r = rotA; // bodyPose3D left A's rotation there
  const n = m.normal;
  for (let i = 0; i < 3; i++) out.normal[i] = r[i] * n[0] + r[3 + i] * n[1] + r[6 + i] * n[2];
  quatToMatrix3D(out.rotation, rot0);
  const t = out.translation;
  for (let k = 0; k < m.count; k++) {
    // B's surface point, A's frame (world offsets first: they are the large numbers).
    const h = 0.5 * m.depths[k];
    const wx = m.positions[3 * k] - xfA.position[0] - h * n[0];
    const wy = m.positions[3 * k + 1] - xfA.position[1] - h * n[1];
    const wz = m.positions[3 * k + 2] - xfA.position[2] - h * n[2];
    const x = r[0] * wx + r[3] * wy + r[6] * wz - t[0];
    const y = r[1] * wx + r[4] * wy + r[7] * wz - t[1];
    const z = r[2] * wx + r[5] * wy + r[8] * wz - t[2];
    // Into B's frame.
    out.local[3 * k] = rot0[0] * x + rot0[3] * y + rot0[6] * z;
    out.local[3 * k + 1] = rot0[1] * x + rot0[4] * y + rot0[7] * z;
    out.local[3 * k + 2] = rot0[2] * x + rot0[5] * y + rot0[8] * z;
    out.depth[k] = m.depths[k];
    out.ids[k] = m.ids[k];
  }
  if (m.kind === CONTACT_KIND_3D.closest) {
    // The core points: B's surface point + rB n (B's frame), A's surface point − rA n (A's frame).
    const nb0 = rot0[0] * out.normal[0] + rot0[3] * out.normal[1] + rot0[6] * out.normal[2];
    const nb1 = rot0[1] * out.normal[0] + rot0[4] * out.normal[1] + rot0[7] * out.normal[2];
    const nb2 = rot0[2] * out.normal[0] + rot0[5] * out.normal[1] + rot0[8] * out.normal[2];
    const h = m.depths[0] - A.radius;
    const l = out.local;
    for (let i = 0; i < 3; i++) {
      const x = rot0[3 * i] * l[0] + rot0[3 * i + 1] * l[1] + rot0[3 * i + 2] * l[2] + t[i];
      l[3 + i] = x + h * out.normal[i];
    }
    l[0] = l[0] + B.radius * nb0;
    l[1] = l[1] + B.radius * nb1;
    l[2] = l[2] + B.radius * nb2;
    out.depth[0] = B.radius;
    out.depth[1] = A.radius;
  }
}

/**
 * Reuses anchor `a` at the current poses (bodies with shapes shapeA at xfA and shapeB at xfB,
 * `margin`): writes the manifold into `out` (world space) and returns REUSE_STATUS.kept, or
 * .apart (out empty), or .collide (out untouched: the pair needs the full collide).
 */
export function reuseManifold3D(
  a: Anchor3D,
  shapeA: number,
  xfA: Transform3D,
  shapeB: number,
  xfB: Transform3D,
  margin: number,
  out: Manifold3D,
): number {
  if (shapeA !== a.shapeA || shapeB !== a.shapeB) return REUSE_STATUS.collide;
  bodyPose3D(xfA, xfB, q1, t1);
  const t0 = a.translation;
  const dtx = t1[0] - t0[0],
    dty = t1[1] - t0[1],
    dtz = t1[2] - t0[2];
  const moved = Math.sqrt(dtx * dtx + dty * dty + dtz * dtz);
  const q0 = a.rotation;
  conjA[0] = -q0[0];
  conjA[1] = -q0[1];
  conjA[2] = -q0[2];
  conjA[3] = q0[3];
  quatMul3D(q1, conjA, dq);
  const turned = 2 * Math.sqrt(dq[0] * dq[0] + dq[1] * dq[1] + dq[2] * dq[2]);
  if (a.count === 0) {
    if (a.bound - (moved + turned * a.reach) > margin) {
      out.count = 0;
      out.kind = 0;
      return REUSE_STATUS.apart;
    }
    return REUSE_STATUS.collide;
  }
  if (a.bound !== margin || moved > REUSE_TRANSLATION_3D * a.scale || turned > REUSE_ROTATION_3D)
    return REUSE_STATUS.collide;
  quatToMatrix3D(q1, rot1);
  if (a.kind === CONTACT_KIND_3D.closest) return reuseJoin3D(a, rot1, t1, xfA, margin, out);
  quatToMatrix3D(q0, rot0);
  for (let i = 0; i < 9; i++) rot1[i] = rot1[i] - rot0[i]; // R1 − R0
  const nx = a.normal[0],
    ny = a.normal[1],
    nz = a.normal[2];
  const r = rotA;
  const p = xfA.position;
  let kept = 0;
  for (let k = 0; k < a.count; k++) {
    const lx = a.local[3 * k],
      ly = a.local[3 * k + 1],
      lz = a.local[3 * k + 2];
    // How far B's point moved, A's frame.
    const dx = rot1[0] * lx + rot1[1] * ly + rot1[2] * lz + dtx;
    const dy = rot1[3] * lx + rot1[4] * ly + rot1[5] * lz + dty;
    const dz = rot1[6] * lx + rot1[7] * ly + rot1[8] * lz + dtz;
    const dn = dx * nx + dy * ny + dz * nz;
    const depth = a.depth[k] - dn;
    const sx = dx - dn * nx,
      sy = dy - dn * ny,
      sz = dz - dn * nz;
    const slide = Math.sqrt(sx * sx + sy * sy + sz * sz);
    if (depth >= -margin && slide <= REUSE_SLIDE_3D * a.scale) {
      // Midway between A's surface point (built pose + normal × depth) and B's moved one.
      const h = a.depth[k];
      const mx = rot0[0] * lx + rot0[1] * ly + rot0[2] * lz + t0[0] + 0.5 * (nx * h + dx);
      const my = rot0[3] * lx + rot0[4] * ly + rot0[5] * lz + t0[1] + 0.5 * (ny * h + dy);
      const mz = rot0[6] * lx + rot0[7] * ly + rot0[8] * lz + t0[2] + 0.5 * (nz * h + dz);
      out.positions[3 * kept] = p[0] + (r[0] * mx + r[1] * my + r[2] * mz);
      out.positions[3 * kept + 1] = p[1] + (r[3] * mx + r[4] * my + r[5] * mz);
      out.positions[3 * kept + 2] = p[2] + (r[6] * mx + r[7] * my + r[8] * mz);
      out.depths[kept] = depth;
      out.ids[kept] = a.ids[k];
      kept++;
    }
  }
  if (kept === 0) return REUSE_STATUS.collide;
  out.count = kept;
  out.kind = a.kind;
  out.normal[0] = r[0] * nx + r[1] * ny + r[2] * nz;
  out.normal[1] = r[3] * nx + r[4] * ny + r[5] * nz;
  out.normal[2] = r[6] * nx + r[7] * ny + r[8] * nz;
  return REUSE_STATUS.kept;
}

/**
 * A join contact at the current pose (B's rotation and origin in A's frame: rot, t): the normal
 * joins A's core point to B's, the point lies midway between the surfaces. Needs the full collide
 * when the core points nearly touch (the join's direction is rounding), the join turned by more
 * than REUSE_ROTATION_3D (the closest features may have changed), or the point left the margin.
 */
export function reuseJoin3D(
  a: Anchor3D,
  rot: Float64Array,
  t: Float64Array,
  xfA: Transform3D,
  margin: number,
  out: Manifold3D,
): number {
  const l = a.local;
  const dx = rot[0] * l[0] + rot[1] * l[1] + rot[2] * l[2] + t[0] - l[3];
  const dy = rot[3] * l[0] + rot[4] * l[1] + rot[5] * l[2] + t[1] - l[4];
  const dz = rot[6] * l[0] + rot[7] * l[1] + rot[8] * l[2] + t[2] - l[5];
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(dist > CORE_DISTANCE_3D * a.scale)) return REUSE_STATUS.collide;
  const nx = dx / dist,
    ny = dy / dist,
    nz = dz / dist;
  const rB = a.depth[0];
  const rA = a.depth[1];
  const depth = rA + rB - dist;
  const ex = nx - a.normal[0],
    ey = ny - a.normal[1],
    ez = nz - a.normal[2];
  if (Math.sqrt(ex * ex + ey * ey + ez * ez) > REUSE_ROTATION_3D || depth < -margin)
    return REUSE_STATUS.collide;
  const k = 0.5 * (rA - rB + dist);
  const px = l[3] + k * nx,
    py = l[4] + k * ny,
    pz = l[5] + k * nz;
  const r = rotA;
  const p = xfA.position;
  out.count = 1;
  out.kind = a.kind;
  out.normal[0] = r[0] * nx + r[1] * ny + r[2] * nz;
  out.normal[1] = r[3] * nx + r[4] * ny + r[5] * nz;
  out.normal[2] = r[6] * nx + r[7] * ny + r[8] * nz;
  out.positions[0] = p[0] + (r[0] * px + r[1] * py + r[2] * pz);
  out.positions[1] = p[1] + (r[3] * px + r[4] * py + r[5] * pz);
  out.positions[2] = p[2] + (r[6] * px + r[7] * py + r[8] * pz);
  out.depths[0] = depth;
  out.ids[0] = a.ids[0];
  return REUSE_STATUS.kept;
}

// ---- the kernels' per-pair calls (src/cpu/reuse.ts runs their loops: reuseSlots, anchorSlots) -----

const L = LAYOUT_3D;
const anchor = emptyAnchor3D();
const manifold = emptyManifold3D();
const xfA: Transform3D = { position: new Float64Array(3), rotation: new Float64Array(4) };
const xfB: Transform3D = { position: new Float64Array(3), rotation: new Float64Array(4) };

function loadTransform(bodies: Float32Array, index: number, xf: Transform3D): void {
  const o = index * L.body.words;
  const p = xf.position as Float64Array;
  const q = xf.rotation as Float64Array;
  for (let i = 0; i < 3; i++) p[i] = bodies[o + L.body.position + i];
  for (let i = 0; i < 4; i++) q[i] = bodies[o + L.body.rotation + i];
}

export function loadAnchor3D(buf: ArrayBuffer, index: number, out: Anchor3D): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const A = L.anchor;
  const o = index * A.words;
  for (let i = 0; i < 4; i++) out.rotation[i] = f[o + A.rotation + i];
  for (let i = 0; i < 3; i++) out.translation[i] = f[o + A.translation + i];
  for (let i = 0; i < 3; i++) out.normal[i] = f[o + A.normal + i];
  out.bound = f[o + A.bound];
  out.count = u[o + A.countKind] & 0xff;
  out.kind = u[o + A.countKind] >>> 8;
  for (let k = 0; k < MAX_MANIFOLD_POINTS_3D; k++) {
    const p = o + A.points + k * A.pointStride;
    for (let i = 0; i < 3; i++) out.local[3 * k + i] = f[p + A.pointLocal + i];
    out.depth[k] = f[p + A.pointDepth];
    out.ids[k] = u[o + A.ids + k];
  }
  out.shapeA = u[o + A.shapeA];
  out.shapeB = u[o + A.shapeB];
  out.scale = f[o + A.scale];
  out.reach = f[o + A.reach];
}

export function storeAnchor3D(a: Anchor3D, buf: ArrayBuffer, index: number): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const A = L.anchor;
  const o = index * A.words;
  u.fill(0, o, o + A.words);
  for (let i = 0; i < 4; i++) f[o + A.rotation + i] = a.rotation[i];
  for (let i = 0; i < 3; i++) f[o + A.translation + i] = a.translation[i];
  for (let i = 0; i < 3; i++) f[o + A.normal + i] = a.normal[i];
  f[o + A.bound] = a.bound;
  u[o + A.countKind] = a.count | (a.kind << 8);
  for (let k = 0; k < MAX_MANIFOLD_POINTS_3D; k++) {
    const p = o + A.points + k * A.pointStride;
    for (let i = 0; i < 3; i++) f[p + A.pointLocal + i] = a.local[3 * k + i];
    f[p + A.pointDepth] = a.depth[k];
    u[o + A.ids + k] = a.ids[k];
  }
  u[o + A.shapeA] = a.shapeA;
  u[o + A.shapeB] = a.shapeB;
  f[o + A.scale] = a.scale;
  f[o + A.reach] = a.reach;
}

/** Manifold slot k as the narrowphase wrote it, into m. */
export function loadManifold3D(buf: ArrayBuffer, k: number, m: Manifold3D): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const M = L.manifold;
  const o = k * M.words;
  m.count = u[o + M.count];
  m.kind = u[o + M.kind];
  for (let i = 0; i < 3; i++) m.normal[i] = f[o + M.normal + i];
  for (let j = 0; j < MAX_MANIFOLD_POINTS_3D; j++) {
    const p = o + M.points + j * M.pointStride;
    for (let i = 0; i < 3; i++) m.positions[3 * j + i] = f[p + M.pointPosition + i];
    m.depths[j] = f[p + M.pointDepth];
    m.ids[j] = u[o + M.ids + j * M.idStride];
  }
}

/** Writes m into slot k as the narrowphase would (every word; unused points and an empty manifold zero). */
export function storeManifold3D(m: Manifold3D, buf: ArrayBuffer, k: number): void {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const M = L.manifold;
  const o = k * M.words;
  u.fill(0, o, o + M.words);
  u[o + M.count] = m.count;
  if (m.count === 0) return;
  u[o + M.kind] = m.kind;
  for (let i = 0; i < 3; i++) f[o + M.normal + i] = m.normal[i];
  for (let j = 0; j < m.count; j++) {
    const p = o + M.points + j * M.pointStride;
    for (let i = 0; i < 3; i++) f[p + M.pointPosition + i] = m.positions[3 * j + i];
    f[p + M.pointDepth] = m.depths[j];
    u[o + M.ids + j * M.idStride] = m.ids[j];
  }
}

/** The inputs both loops read: the shapes as the kernels see them and the packed bodies. */
export interface ReuseScene3D {
  shapes: readonly Shape3D[];
  /** Body3D array (f32 view of the packed bodies). */
  bodies: Float32Array;
}

function bodyShape(bodies: Float32Array, index: number): number {
  return new Uint32Array(bodies.buffer, bodies.byteOffset)[index * L.body.words + L.body.shape];
}

/** The loops' per-pair calls on `scene` (the WGSL's ruReuse and ruAnchor). */
export function reusePairs3D(scene: ReuseScene3D): ReusePairs {
  const { shapes, bodies } = scene;
  return {
    anchorWords: L.anchor.words,
    reuse(anchors, prev, a, b, margin, manifolds, k) {
      loadAnchor3D(anchors, prev, anchor);
      loadTransform(bodies, a, xfA);
      loadTransform(bodies, b, xfB);
      const status = reuseManifold3D(
        anchor,
        bodyShape(bodies, a),
        xfA,
        bodyShape(bodies, b),
        xfB,
        margin,
        manifold,
      );
      if (status !== REUSE_STATUS.collide) storeManifold3D(manifold, manifolds, k);
      return status;
    },
    anchor(a, b, manifolds, k, margin, anchors) {
      loadTransform(bodies, a, xfA);
      loadTransform(bodies, b, xfB);
      loadManifold3D(manifolds, k, manifold);
      anchorFromManifold3D(
        shapes,
        bodyShape(bodies, a),
        xfA,
        bodyShape(bodies, b),
        xfB,
        manifold,
        margin,
        anchor,
      );
      storeAnchor3D(anchor, anchors, k);
    },
  };
}
