// Jolt Physics (jolt-physics: Jolt compiled to WebAssembly, f32) as a 3D peer.
//
// Single-pair path. `TransformedShape.CollideShape` runs Jolt's shape-vs-shape collision
// (CollisionDispatch::sCollideShapeVsShape → CollideConvexVsConvex: GJK/EPA) for one query shape
// against one transformed shape, into a CollideShapeClosestHitCollisionCollector. Shape 1 of the
// result is the query shape (our A), shape 2 the transformed shape (our B). With
// `mCollectFacesMode = CollectFaces` the result also carries the two supporting faces, and Jolt
// turns those into a manifold in its contact constraint manager with `ManifoldBetweenTwoFaces`
// (clip face 2 against face 1 along the penetration axis, keep the points behind face 1's plane)
// and `PruneContactPoints` (at most 4). The JS binding does not export those two functions, so they
// are ported below from Jolt's source (Jolt/Physics/Collision/ManifoldBetweenTwoFaces.cpp,
// Jolt/Geometry/ClipPoly.h, MIT), line for line, in f64: this peer's manifold is the one Jolt's
// PhysicsSystem builds for a body pair (one convex shape each).
//
// The collision dispatch table is filled by Jolt's RegisterTypes, which the JS binding runs when a
// JoltInterface is created, so one minimal interface (one layer, a few bodies) is made at load.
//
// Shapes: boxes → BoxShape, hulls → ConvexHullShape of the hull's vertices, spheres → SphereShape,
// all with convex radius 0 (Jolt's default 0.05 rounds the edges and corners of boxes and hulls;
// 0 keeps our exact geometry; measured here, 0.05 is no faster).
// Jolt places a shape by its centre of mass, so the pose of a hull's COM is computed per pair.
//
// No allocation per pair: poses go into the WASM heap, the hit is read from it. Where Jolt's
// objects are read or written in memory directly, their layout is probed at start-up against the
// binding's own getters and setters; if the probe fails, the peer falls back to those (slower).

import initJolt from 'jolt-physics';
import joltPackage from '../../node_modules/jolt-physics/package.json' with { type: 'json' };
import { SHAPE_KIND_3D } from '../../src/constants3d.ts';
import type { Shape3D } from '../../src/shapes3d.ts';
import {
  beginManifold3D,
  bodyFrameVertices,
  boxHalfExtents,
  centred,
  peerSkeleton3D,
  pushPointPair3D,
  rotate3,
  type Peer3D,
  type PeerManifold3D,
} from './peer3d.ts';

export const joltVersion: string = joltPackage.version;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JoltModule = any;

export interface JoltPeer3D extends Peer3D {
  readonly name: 'jolt';
  /** Whether poses and hits go straight through the WASM heap (the probe succeeded). */
  readonly direct: boolean;
}

let modulePromise: Promise<JoltModule> | undefined;
/** The JoltInterface that registered Jolt's types: kept for the life of the process. */
const keepAlive: unknown[] = [];

/** Loads Jolt's WASM and registers its collision functions (once per process). */
export function loadJolt(): Promise<JoltModule> {
  modulePromise ??= (async () => {
    const J: JoltModule = await initJolt();
    const settings = new J.JoltSettings();
    settings.mMaxBodies = 16;
    settings.mMaxBodyPairs = 16;
    settings.mMaxContactConstraints = 16;
    const pairFilter = new J.ObjectLayerPairFilterTable(1);
    pairFilter.EnableCollision(0, 0);
    const layers = new J.BroadPhaseLayerInterfaceTable(1, 1);
    layers.MapObjectToBroadPhaseLayer(0, new J.BroadPhaseLayer(0));
    settings.mObjectLayerPairFilter = pairFilter;
    settings.mBroadPhaseLayerInterface = layers;
    settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(
      layers,
      1,
      pairFilter,
      1,
    );
    keepAlive.push(new J.JoltInterface(settings));
    J.destroy(settings);
    return J;
  })();
  return modulePromise;
}

// ---------------------------------------------------------------------------------------------
// ManifoldBetweenTwoFaces / ClipPoly / PruneContactPoints, ported (flat f64 arrays, no allocation)

const MAX_FACE = 64; // Jolt's SupportingFace holds 32; clipping adds at most one vertex per plane
const clipA = new Float64Array(3 * MAX_FACE);
const clipB = new Float64Array(3 * MAX_FACE);
const clipped = new Float64Array(3 * MAX_FACE);

/** ClipPolyVsPlane: keeps the part of `src` (n vertices) on the positive side of the plane; returns the count. */
function clipPolyVsPlane(
  src: Float64Array,
  n: number,
  ox: number,
  oy: number,
  oz: number,
  nx: number,
  ny: number,
  nz: number,
  dst: Float64Array,
): number {
  let m = 0;
  let e1x = src[3 * (n - 1)]!,
    e1y = src[3 * (n - 1) + 1]!,
    e1z = src[3 * (n - 1) + 2]!;
  let prevNum = (ox - e1x) * nx + (oy - e1y) * ny + (oz - e1z) * nz;
  let prevInside = prevNum < 0;
  for (let j = 0; j < n; j++) {
    const e2x = src[3 * j]!,
      e2y = src[3 * j + 1]!,
      e2z = src[3 * j + 2]!;
    const num = (ox - e2x) * nx + (oy - e2y) * ny + (oz - e2z) * nz;
    const curInside = num < 0;
    if (curInside !== prevInside && m < MAX_FACE) {
      const dx = e2x - e1x,
        dy = e2y - e1y,
        dz = e2z - e1z;
      const t = prevNum / (dx * nx + dy * ny + dz * nz);
      dst[3 * m] = e1x + t * dx;
      dst[3 * m + 1] = e1y + t * dy;
      dst[3 * m + 2] = e1z + t * dz;
      m++;
    }
    if (curInside && m < MAX_FACE) {
      dst[3 * m] = e2x;
      dst[3 * m + 1] = e2y;
      dst[3 * m + 2] = e2z;
      m++;
    }
    prevNum = num;
    prevInside = curInside;
    e1x = e2x;
    e1y = e2y;
    e1z = e2z;
  }
  return m;
}

/** ClipPolyVsPoly: `poly` (n) clipped by the edge planes of `clip` (c ≥ 3) along axis; result in `clipped`. */
function clipPolyVsPoly(
  poly: Float64Array,
  n: number,
  clip: Float64Array,
  c: number,
  ax: number,
  ay: number,
  az: number,
): number {
  let src = poly;
  let count = n;
  for (let i = 0; i < c; i++) {
    const i2 = (i + 1) % c;
    const x1 = clip[3 * i]!,
      y1 = clip[3 * i + 1]!,
      z1 = clip[3 * i + 2]!;
    const ex = clip[3 * i2]! - x1,
      ey = clip[3 * i2 + 1]! - y1,
      ez = clip[3 * i2 + 2]! - z1;
    // clip normal = axis × edge, pointing into the clipping polygon
    const nx = ay * ez - az * ey,
      ny = az * ex - ax * ez,
      nz = ax * ey - ay * ex;
    const dst = i === c - 1 ? clipped : src === clipA ? clipB : clipA;
    count = clipPolyVsPlane(src, count, x1, y1, z1, nx, ny, nz, dst);
    if (count < 3) return 0;
    src = dst;
  }
  return count;
}

/** ClipPolyVsEdge: `poly` (n ≥ 3) clipped against edge v1–v2 projected on it along axis; result in `clipped`. */
function clipPolyVsEdge(
  poly: Float64Array,
  n: number,
  v1x: number,
  v1y: number,
  v1z: number,
  v2x: number,
  v2y: number,
  v2z: number,
  ax: number,
  ay: number,
  az: number,
): number {
  const ex = v2x - v1x,
    ey = v2y - v1y,
    ez = v2z - v1z;
  const enx = ay * ez - az * ey,
    eny = az * ex - ax * ez,
    enz = ax * ey - ay * ex;
  // polygon normal = (p2 − p0) × (p1 − p0)
  const ux = poly[6]! - poly[0]!,
    uy = poly[7]! - poly[1]!,
    uz = poly[8]! - poly[2]!;
  const vx = poly[3]! - poly[0]!,
    vy = poly[4]! - poly[1]!,
    vz = poly[5]! - poly[2]!;
  const pnx = uy * vz - uz * vy,
    pny = uz * vx - ux * vz,
    pnz = ux * vy - uy * vx;
  const pl = pnx * pnx + pny * pny + pnz * pnz;
  const d1 = (pnx * (poly[0]! - v1x) + pny * (poly[1]! - v1y) + pnz * (poly[2]! - v1z)) / pl;
  const d2 = (pnx * (poly[0]! - v2x) + pny * (poly[1]! - v2y) + pnz * (poly[2]! - v2z)) / pl;
  const p1x = v1x + d1 * pnx,
    p1y = v1y + d1 * pny,
    p1z = v1z + d1 * pnz;
  const p2x = v2x + d2 * pnx,
    p2y = v2y + d2 * pny,
    p2z = v2z + d2 * pnz;
  const qx = p2x - p1x,
    qy = p2y - p1y,
    qz = p2z - p1z;
  const q2 = qx * qx + qy * qy + qz * qz;
  let m = 0;
  let e1x = poly[3 * (n - 1)]!,
    e1y = poly[3 * (n - 1) + 1]!,
    e1z = poly[3 * (n - 1) + 2]!;
  let prevNum = (v1x - e1x) * enx + (v1y - e1y) * eny + (v1z - e1z) * enz;
  let prevInside = prevNum < 0;
  for (let j = 0; j < n; j++) {
    const e2x = poly[3 * j]!,
      e2y = poly[3 * j + 1]!,
      e2z = poly[3 * j + 2]!;
    const num = (v1x - e2x) * enx + (v1y - e2y) * eny + (v1z - e2z) * enz;
    const curInside = num < 0;
    if (curInside !== prevInside && m < MAX_FACE) {
      const dx = e2x - e1x,
        dy = e2y - e1y,
        dz = e2z - e1z;
      const t = prevNum / (dx * enx + dy * eny + dz * enz);
      const cx = e1x + t * dx,
        cy = e1y + t * dy,
        cz = e1z + t * dz;
      const proj = (cx - p1x) * qx + (cy - p1y) * qy + (cz - p1z) * qz;
      if (proj < 0) {
        clipped[3 * m] = p1x;
        clipped[3 * m + 1] = p1y;
        clipped[3 * m + 2] = p1z;
      } else if (proj > q2) {
        clipped[3 * m] = p2x;
        clipped[3 * m + 1] = p2y;
        clipped[3 * m + 2] = p2z;
      } else {
        clipped[3 * m] = cx;
        clipped[3 * m + 1] = cy;
        clipped[3 * m + 2] = cz;
      }
      m++;
    }
    prevNum = num;
    prevInside = curInside;
    e1x = e2x;
    e1y = e2y;
    e1z = e2z;
  }
  return m;
}

/** Contact point pairs relative to A's centre of mass: on A (pts1) and on B (pts2). */
const pts1 = new Float64Array(3 * MAX_FACE);
const pts2 = new Float64Array(3 * MAX_FACE);
const keep = new Int32Array(4);
const face1 = new Float64Array(3 * MAX_FACE);
const face2 = new Float64Array(3 * MAX_FACE);

/**
 * ManifoldBetweenTwoFaces: the contact point pairs of the two supporting faces (n1, n2 vertices in
 * face1/face2), or the EPA contact points when clipping leaves nothing. Returns the count.
 */
function manifoldBetweenTwoFaces(
  c1x: number,
  c1y: number,
  c1z: number,
  c2x: number,
  c2y: number,
  c2z: number,
  ax: number,
  ay: number,
  az: number,
  speculativeDistanceSq: number,
  n1: number,
  n2: number,
): number {
  let count = 0;
  if (n1 >= 2 && n2 >= 3) {
    let nc = 0;
    if (n1 >= 3) nc = clipPolyVsPoly(face2, n2, face1, n1, ax, ay, az);
    else
      nc = clipPolyVsEdge(
        face2,
        n2,
        face1[0]!,
        face1[1]!,
        face1[2]!,
        face1[3]!,
        face1[4]!,
        face1[5]!,
        ax,
        ay,
        az,
      );
    const ox = face1[0]!,
      oy = face1[1]!,
      oz = face1[2]!;
    const fx = face1[3]! - ox,
      fy = face1[4]! - oy,
      fz = face1[5]! - oz;
    let pnx: number, pny: number, pnz: number;
    if (n1 >= 3) {
      const sx = face1[6]! - ox,
        sy = face1[7]! - oy,
        sz = face1[8]! - oz;
      pnx = fy * sz - fz * sy;
      pny = fz * sx - fx * sz;
      pnz = fx * sy - fy * sx;
    } else {
      // (first_edge × axis) × first_edge
      const tx = fy * az - fz * ay,
        ty = fz * ax - fx * az,
        tz = fx * ay - fy * ax;
      pnx = ty * fz - tz * fy;
      pny = tz * fx - tx * fz;
      pnz = tx * fy - ty * fx;
    }
    const pl = pnx * pnx + pny * pny + pnz * pnz;
    if (pl > 0) {
      for (let k = 0; k < nc; k++) {
        const px = clipped[3 * k]!,
          py = clipped[3 * k + 1]!,
          pz = clipped[3 * k + 2]!;
        const d = (px - ox) * pnx + (py - oy) * pny + (pz - oz) * pnz;
        if (d <= 0 || d * d < speculativeDistanceSq * pl) {
          const s = d / pl;
          pts1[3 * count] = px - s * pnx;
          pts1[3 * count + 1] = py - s * pny;
          pts1[3 * count + 2] = pz - s * pnz;
          pts2[3 * count] = px;
          pts2[3 * count + 1] = py;
          pts2[3 * count + 2] = pz;
          count++;
        }
      }
    }
  }
  if (count === 0) {
    pts1[0] = c1x;
    pts1[1] = c1y;
    pts1[2] = c1z;
    pts2[0] = c2x;
    pts2[1] = c2y;
    pts2[2] = c2z;
    count = 1;
  }
  return count;
}

const projected = new Float64Array(3 * MAX_FACE);
const depthSq = new Float64Array(MAX_FACE);

/** PruneContactPoints (count > 4, unit axis): the indices of the ≤ 4 points Jolt keeps, in `keep`; returns how many. */
function pruneContactPoints(count: number, nx: number, ny: number, nz: number): number {
  const MIN = 1e-6;
  for (let i = 0; i < count; i++) {
    const vx = pts1[3 * i]!,
      vy = pts1[3 * i + 1]!,
      vz = pts1[3 * i + 2]!;
    const d = vx * nx + vy * ny + vz * nz;
    projected[3 * i] = vx - d * nx;
    projected[3 * i + 1] = vy - d * ny;
    projected[3 * i + 2] = vz - d * nz;
    const wx = pts2[3 * i]! - vx,
      wy = pts2[3 * i + 1]! - vy,
      wz = pts2[3 * i + 2]! - vz;
    depthSq[i] = Math.max(MIN, wx * wx + wy * wy + wz * wz);
  }
  const len2 = (i: number): number =>
    projected[3 * i]! ** 2 + projected[3 * i + 1]! ** 2 + projected[3 * i + 2]! ** 2;
  let p1 = 0;
  let val = Math.max(MIN, len2(0)) * depthSq[0]!;
  for (let i = 0; i < count; i++) {
    const v = Math.max(MIN, len2(i)) * depthSq[i]!;
    if (v > val) {
      val = v;
      p1 = i;
    }
  }
  const ax = projected[3 * p1]!,
    ay = projected[3 * p1 + 1]!,
    az = projected[3 * p1 + 2]!;
  let p2 = -1;
  val = -Number.MAX_VALUE;
  for (let i = 0; i < count; i++) {
    if (i === p1) continue;
    const dx = projected[3 * i]! - ax,
      dy = projected[3 * i + 1]! - ay,
      dz = projected[3 * i + 2]! - az;
    const v = Math.max(MIN, dx * dx + dy * dy + dz * dz) * depthSq[i]!;
    if (v > val) {
      val = v;
      p2 = i;
    }
  }
  const bx = projected[3 * p2]! - ax,
    by = projected[3 * p2 + 1]! - ay,
    bz = projected[3 * p2 + 2]! - az;
  // perp = (point2 − point1) × axis
  const qx = by * nz - bz * ny,
    qy = bz * nx - bx * nz,
    qz = bx * ny - by * nx;
  let p3 = -1;
  let p4 = -1;
  let minVal = 0;
  let maxVal = 0;
  for (let i = 0; i < count; i++) {
    if (i === p1 || i === p2) continue;
    const v =
      qx * (projected[3 * i]! - ax) +
      qy * (projected[3 * i + 1]! - ay) +
      qz * (projected[3 * i + 2]! - az);
    if (v < minVal) {
      minVal = v;
      p3 = i;
    } else if (v > maxVal) {
      maxVal = v;
      p4 = i;
    }
  }
  let k = 0;
  keep[k++] = p1;
  if (p3 >= 0) keep[k++] = p3;
  keep[k++] = p2;
  if (p4 >= 0) keep[k++] = p4;
  return k;
}

// ---------------------------------------------------------------------------------------------
// Memory layouts (probed)

/** CollideShapeResult: Vec3 p1, p2, axis (16 B each), f32 depth, 3 ids, then two StaticArray<Vec3, 32> faces. */
const HIT = { p1: 0, p2: 16, axis: 32, depth: 48, face1: 64, face2: 592, faceData: 16 } as const;

export interface JoltPeerOptions3D {
  /** Speculative distance (our margin): Jolt's mMaxSeparationDistance and its speculative contact distance. Default 0. */
  margin?: number;
  /** false: always go through the binding's getters and setters (the probe's fallback; for testing). */
  direct?: boolean;
  /**
   * Jolt's convex radius for boxes and hulls (default 0: our exact, sharp geometry). Jolt's own
   * default, 0.05, rounds edges and corners (same outer faces): another shape, and measured here
   * on box–box and hull32 pairs no faster (−3 to −10%).
   */
  convexRadius?: number;
}

export async function createJoltPeer3D(
  shapes: readonly Shape3D[],
  options: JoltPeerOptions3D = {},
): Promise<JoltPeer3D> {
  const J = await loadJolt();
  const margin = options.margin ?? 0;
  const owned: unknown[] = [];
  const own = <T>(x: T): T => {
    owned.push(x);
    return x;
  };
  const tmp = own(new J.Vec3(0, 0, 0));

  // Shapes (each AddRef'd: the TransformedShape's RefConst would otherwise free them).
  const built: { shape: unknown; com: [number, number, number] }[] = shapes.map((s, i) => {
    let shape: {
      AddRef(): void;
      GetCenterOfMass(): { GetX(): number; GetY(): number; GetZ(): number };
    };
    if (s.kind === SHAPE_KIND_3D.box) {
      if (!centred(s)) throw new Error(`shapes[${i}]: box with an offset centre`);
      const [hx, hy, hz] = boxHalfExtents(s);
      tmp.Set(hx, hy, hz);
      shape = new J.BoxShape(tmp, Math.min(options.convexRadius ?? 0, 0.99 * Math.min(hx, hy, hz)));
    } else if (s.kind === SHAPE_KIND_3D.hull) {
      const settings = new J.ConvexHullShapeSettings();
      const v = bodyFrameVertices(s);
      for (let k = 0; k < s.vertexCount; k++) {
        tmp.Set(v[3 * k]!, v[3 * k + 1]!, v[3 * k + 2]!);
        settings.mPoints.push_back(tmp);
      }
      settings.mMaxConvexRadius = options.convexRadius ?? 0;
      settings.mHullTolerance = 1e-5 * s.extent;
      const result = settings.Create();
      if (result.HasError())
        throw new Error(
          `shapes[${i}]: Jolt could not build the hull: ${result.GetError().c_str()}`,
        );
      shape = result.Get();
      J.destroy(settings);
    } else if (s.kind === SHAPE_KIND_3D.sphere) {
      if (!centred(s))
        throw new Error(`shapes[${i}]: sphere with an offset centre (not supported by this peer)`);
      shape = new J.SphereShape(s.radius);
    } else {
      throw new Error(`shapes[${i}]: kind ${s.kind} is not supported by the Jolt peer`);
    }
    shape.AddRef();
    const c = shape.GetCenterOfMass();
    return { shape, com: [c.GetX(), c.GetY(), c.GetZ()] };
  });
  const joltShapes = built.map((b) => b.shape);
  const coms = Float64Array.from(built.flatMap((b) => b.com));

  const settings = own(new J.CollideShapeSettings());
  settings.mMaxSeparationDistance = margin;
  settings.mCollectFacesMode = J.ECollectFacesMode_CollectFaces;
  settings.mActiveEdgeMode = J.EActiveEdgeMode_CollideWithAll;
  const collector = own(new J.CollideShapeClosestHitCollisionCollector());
  const filter = own(new J.ShapeFilter());
  const ts = own(new J.TransformedShape());
  const unitScale = own(new J.Vec3(1, 1, 1));
  ts.mShapeScale = own(new J.Float3(1, 1, 1));
  const matA = own(new J.RMat44());
  const base = own(new J.RVec3(0, 0, 0));
  const posB = own(new J.RVec3(0, 0, 0));
  const rotB = own(new J.Quat(0, 0, 0, 1));
  const rotA = own(new J.Quat(0, 0, 0, 1));
  const posA = own(new J.RVec3(0, 0, 0));

  // --- Probe the layouts we write and read directly. -----------------------------------------
  const F = (): Float32Array => J.HEAPF32 as Float32Array;
  const U = (): Uint32Array => J.HEAPU32 as Uint32Array;
  const tsPtr: number = J.getPointer(ts);
  const matPtr: number = J.getPointer(matA);
  const basePtr: number = J.getPointer(base);
  const hitPtr: number = J.getPointer(collector.get_mHit());
  const near = (a: number, b: number): boolean =>
    Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  let direct = false;
  try {
    // TransformedShape: position @0 (Vec3), rotation @16 (Quat).
    posB.Set(1.25, -2.5, 3.75);
    ts.mShapePositionCOM = posB;
    rotB.Set(0.1, 0.2, 0.3, 0.9273618495495703);
    ts.mShapeRotation = rotB;
    const f = F();
    const tsOk =
      [1.25, -2.5, 3.75].every((x, k) => near(f[(tsPtr >> 2) + k]!, x)) &&
      [0.1, 0.2, 0.3, 0.9273618495495703].every((x, k) => near(f[(tsPtr >> 2) + 4 + k]!, x));
    // RMat44: four Vec4 columns (rotation axes, translation), f32.
    rotA.Set(0.1, 0.2, 0.3, 0.9273618495495703);
    posA.Set(4.5, 5.5, -6.5);
    const m = J.RMat44.prototype.sRotationTranslation(rotA, posA);
    const mPtr: number = J.getPointer(m);
    const ax = m.GetAxisX();
    const f2 = F();
    const matOk =
      near(f2[(mPtr >> 2) + 0]!, ax.GetX()) &&
      near(f2[(mPtr >> 2) + 1]!, ax.GetY()) &&
      near(f2[(mPtr >> 2) + 2]!, ax.GetZ()) &&
      near(f2[(mPtr >> 2) + 12]!, 4.5) &&
      near(f2[(mPtr >> 2) + 13]!, 5.5) &&
      near(f2[(mPtr >> 2) + 14]!, -6.5) &&
      near(f2[(mPtr >> 2) + 15]!, 1);
    // RVec3 base offset: x, y, z.
    base.Set(7.25, 8.5, 9.75);
    const f3 = F();
    const baseOk =
      near(f3[basePtr >> 2]!, 7.25) &&
      near(f3[(basePtr >> 2) + 1]!, 8.5) &&
      near(f3[(basePtr >> 2) + 2]!, 9.75);
    base.Set(0, 0, 0);
    // The hit: collide two unit boxes overlapping by 0.1 along x and compare with the getters.
    const box = new J.BoxShape(unitScale, 0);
    box.AddRef();
    ts.mShape = box;
    posB.Set(1.9, 0.05, 0);
    ts.mShapePositionCOM = posB;
    rotB.Set(0, 0, 0, 1);
    ts.mShapeRotation = rotB;
    rotA.Set(0, 0, 0, 1);
    posA.Set(0, 0, 0);
    const mi = J.RMat44.prototype.sRotationTranslation(rotA, posA);
    collector.Reset();
    ts.CollideShape(box, unitScale, mi, settings, base, collector, filter);
    let hitOk = false;
    if (collector.HadHit()) {
      const h = collector.get_mHit();
      const f4 = F();
      const u4 = U();
      const o = hitPtr >> 2;
      const axis = h.get_mPenetrationAxis();
      const c1 = h.get_mContactPointOn1();
      const fc1 = h.get_mShape1Face();
      const fc2 = h.get_mShape2Face();
      hitOk =
        J.getPointer(h) === hitPtr &&
        near(f4[o + (HIT.axis >> 2)]!, axis.GetX()) &&
        near(f4[o + (HIT.axis >> 2) + 1]!, axis.GetY()) &&
        near(f4[o + (HIT.p1 >> 2)]!, c1.GetX()) &&
        near(f4[o + (HIT.depth >> 2)]!, h.get_mPenetrationDepth()) &&
        fc1.size() >= 3 &&
        u4[o + (HIT.face1 >> 2)] === fc1.size() &&
        u4[o + (HIT.face2 >> 2)] === fc2.size() &&
        near(f4[o + ((HIT.face1 + HIT.faceData) >> 2)]!, fc1.at(0).GetX()) &&
        near(f4[o + ((HIT.face2 + HIT.faceData) >> 2) + 1]!, fc2.at(0).GetY());
    }
    ts.mShape = joltShapes[0];
    box.Release();
    direct = tsOk && matOk && baseOk && hitOk && options.direct !== false;
  } catch {
    direct = false;
  }

  const world = new Float64Array(6);
  const specSq = margin * margin;

  function run(
    a: number,
    bodies: Float64Array,
    oa: number,
    b: number,
    ob: number,
    out: PeerManifold3D,
  ): number {
    const qax = bodies[oa + 3]!,
      qay = bodies[oa + 4]!,
      qaz = bodies[oa + 5]!,
      qaw = bodies[oa + 6]!;
    const qbx = bodies[ob + 3]!,
      qby = bodies[ob + 4]!,
      qbz = bodies[ob + 5]!,
      qbw = bodies[ob + 6]!;
    // Centres of mass in world space: position + R · com.
    rotate3(qax, qay, qaz, qaw, coms[3 * a]!, coms[3 * a + 1]!, coms[3 * a + 2]!, world, 0);
    rotate3(qbx, qby, qbz, qbw, coms[3 * b]!, coms[3 * b + 1]!, coms[3 * b + 2]!, world, 3);
    const cax = bodies[oa]! + world[0]!,
      cay = bodies[oa + 1]! + world[1]!,
      caz = bodies[oa + 2]! + world[2]!;
    const cbx = bodies[ob]! + world[3]!,
      cby = bodies[ob + 1]! + world[4]!,
      cbz = bodies[ob + 2]! + world[5]!;
    ts.mShape = joltShapes[b];
    let mat = matA;
    if (direct) {
      const f = F();
      let o = tsPtr >> 2;
      f[o] = cbx;
      f[o + 1] = cby;
      f[o + 2] = cbz;
      f[o + 3] = cbz;
      f[o + 4] = qbx;
      f[o + 5] = qby;
      f[o + 6] = qbz;
      f[o + 7] = qbw;
      // A's COM transform, column-major rotation from the quaternion, translation = base (A's COM).
      o = matPtr >> 2;
      const xx = qax * qax,
        yy = qay * qay,
        zz = qaz * qaz,
        xy = qax * qay,
        xz = qax * qaz,
        yz = qay * qaz;
      const wx = qaw * qax,
        wy = qaw * qay,
        wz = qaw * qaz;
      f[o] = 1 - 2 * (yy + zz);
      f[o + 1] = 2 * (xy + wz);
      f[o + 2] = 2 * (xz - wy);
      f[o + 3] = 0;
      f[o + 4] = 2 * (xy - wz);
      f[o + 5] = 1 - 2 * (xx + zz);
      f[o + 6] = 2 * (yz + wx);
      f[o + 7] = 0;
      f[o + 8] = 2 * (xz + wy);
      f[o + 9] = 2 * (yz - wx);
      f[o + 10] = 1 - 2 * (xx + yy);
      f[o + 11] = 0;
      f[o + 12] = cax;
      f[o + 13] = cay;
      f[o + 14] = caz;
      f[o + 15] = 1;
      o = basePtr >> 2;
      f[o] = cax;
      f[o + 1] = cay;
      f[o + 2] = caz;
      f[o + 3] = caz;
    } else {
      posB.Set(cbx, cby, cbz);
      ts.mShapePositionCOM = posB;
      rotB.Set(qbx, qby, qbz, qbw);
      ts.mShapeRotation = rotB;
      rotA.Set(qax, qay, qaz, qaw);
      posA.Set(cax, cay, caz);
      mat = J.RMat44.prototype.sRotationTranslation(rotA, posA);
      base.Set(cax, cay, caz);
    }
    collector.Reset();
    ts.CollideShape(joltShapes[a], unitScale, mat, settings, base, collector, filter);
    if (!collector.HadHit()) {
      out.count = 0;
      return 0;
    }
    // Read the hit (relative to the base offset, A's COM).
    let axx: number,
      axy: number,
      axz: number,
      depth: number,
      c1x: number,
      c1y: number,
      c1z: number,
      c2x: number,
      c2y: number,
      c2z: number;
    let n1: number, n2: number;
    if (direct) {
      const f = F();
      const u = U();
      const o = hitPtr >> 2;
      c1x = f[o]!;
      c1y = f[o + 1]!;
      c1z = f[o + 2]!;
      c2x = f[o + 4]!;
      c2y = f[o + 5]!;
      c2z = f[o + 6]!;
      axx = f[o + 8]!;
      axy = f[o + 9]!;
      axz = f[o + 10]!;
      depth = f[o + 12]!;
      n1 = Math.min(u[o + (HIT.face1 >> 2)]!, 32);
      n2 = Math.min(u[o + (HIT.face2 >> 2)]!, 32);
      const d1 = o + ((HIT.face1 + HIT.faceData) >> 2);
      const d2 = o + ((HIT.face2 + HIT.faceData) >> 2);
      for (let k = 0; k < n1; k++) {
        face1[3 * k] = f[d1 + 4 * k]!;
        face1[3 * k + 1] = f[d1 + 4 * k + 1]!;
        face1[3 * k + 2] = f[d1 + 4 * k + 2]!;
      }
      for (let k = 0; k < n2; k++) {
        face2[3 * k] = f[d2 + 4 * k]!;
        face2[3 * k + 1] = f[d2 + 4 * k + 1]!;
        face2[3 * k + 2] = f[d2 + 4 * k + 2]!;
      }
    } else {
      const h = collector.get_mHit();
      const ax = h.get_mPenetrationAxis();
      axx = ax.GetX();
      axy = ax.GetY();
      axz = ax.GetZ();
      const p1 = h.get_mContactPointOn1();
      c1x = p1.GetX();
      c1y = p1.GetY();
      c1z = p1.GetZ();
      const p2 = h.get_mContactPointOn2();
      c2x = p2.GetX();
      c2y = p2.GetY();
      c2z = p2.GetZ();
      depth = h.get_mPenetrationDepth();
      const fa = h.get_mShape1Face();
      const fb = h.get_mShape2Face();
      n1 = fa.size();
      n2 = fb.size();
      for (let k = 0; k < n1; k++) {
        const v = fa.at(k);
        face1[3 * k] = v.GetX();
        face1[3 * k + 1] = v.GetY();
        face1[3 * k + 2] = v.GetZ();
      }
      for (let k = 0; k < n2; k++) {
        const v = fb.at(k);
        face2[3 * k] = v.GetX();
        face2[3 * k + 1] = v.GetY();
        face2[3 * k + 2] = v.GetZ();
      }
    }
    // Jolt: normal = penetration axis normalised (A → B); manifold from the two faces; prune to 4.
    beginManifold3D(out, axx, axy, axz, depth);
    const nx = out.normal[0]!,
      ny = out.normal[1]!,
      nz = out.normal[2]!;
    const count = manifoldBetweenTwoFaces(
      c1x,
      c1y,
      c1z,
      c2x,
      c2y,
      c2z,
      axx,
      axy,
      axz,
      specSq,
      n1,
      n2,
    );
    if (count > 4) {
      const kept = pruneContactPoints(count, nx, ny, nz);
      for (let k = 0; k < kept; k++) {
        const i = keep[k]!;
        pushPointPair3D(
          out,
          cax + pts1[3 * i]!,
          cay + pts1[3 * i + 1]!,
          caz + pts1[3 * i + 2]!,
          cax + pts2[3 * i]!,
          cay + pts2[3 * i + 1]!,
          caz + pts2[3 * i + 2]!,
        );
      }
    } else {
      for (let i = 0; i < count; i++) {
        pushPointPair3D(
          out,
          cax + pts1[3 * i]!,
          cay + pts1[3 * i + 1]!,
          caz + pts1[3 * i + 2]!,
          cax + pts2[3 * i]!,
          cay + pts2[3 * i + 1]!,
          caz + pts2[3 * i + 2]!,
        );
      }
    }
    return out.count;
  }

  function dispose(): void {
    for (const s of joltShapes) (s as { Release(): void }).Release();
    for (const o of owned.reverse()) J.destroy(o);
    owned.length = 0;
  }

  const peer = peerSkeleton3D('jolt', () => true, run, dispose);
  return Object.assign(peer, { name: 'jolt' as const, direct });
}
