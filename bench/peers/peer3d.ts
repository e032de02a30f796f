// What the 3D peers (./rapier3d.ts, ./cannon3d.ts, ./jolt3d.ts) have in common: the manifold they
// report, the bodies and pairs they take, and the batch loop around an engine's single-pair
// collide call. Shapes are prebuilt once per peer from our `Shape3D` (the f32 data both of our
// backends read, see bench/scenes3d.ts `peerShapes`), so every engine collides the same geometry.
//
// Manifold convention (ours, see the README): normal unit from A to B; depth > 0 for overlap;
// points in world space, midway between the two surfaces. Each peer maps its engine's output
// onto that; where an engine reports fewer things (rapier's single-contact query has one point),
// its file says so.

import type { Shape3D } from '../../src/shapes3d.ts';

/** Most points a peer manifold stores (engines may find more before their own reduction). */
export const PEER_MAX_POINTS_3D = 64;

/** A world-space manifold, preallocated and reused (no allocation per pair). */
export interface PeerManifold3D {
  /** Points stored, 0 when the shapes do not touch. */
  count: number;
  /** Unit normal from A to B. */
  normal: Float64Array;
  /** Deepest penetration as the engine reports it (> 0 overlap). */
  depth: number;
  /** x, y, z per point: world space, midway between the surfaces. */
  points: Float64Array;
  /** Penetration of each point along the normal. */
  depths: Float64Array;
}

export function emptyPeerManifold3D(): PeerManifold3D {
  return {
    count: 0,
    normal: new Float64Array(3),
    depth: 0,
    points: new Float64Array(3 * PEER_MAX_POINTS_3D),
    depths: new Float64Array(PEER_MAX_POINTS_3D),
  };
}

/** Sets the manifold's normal (normalised) and clears its points. */
export function beginManifold3D(
  out: PeerManifold3D,
  nx: number,
  ny: number,
  nz: number,
  depth: number,
): void {
  const l = Math.hypot(nx, ny, nz);
  const s = l > 0 ? 1 / l : 0;
  out.normal[0] = nx * s;
  out.normal[1] = ny * s;
  out.normal[2] = nz * s;
  out.depth = depth;
  out.count = 0;
}

/** Appends the point midway between pA (on A) and pB (on B), with depth (pA − pB)·n. */
export function pushPointPair3D(
  out: PeerManifold3D,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
): void {
  const i = out.count;
  if (i >= PEER_MAX_POINTS_3D) return;
  const n = out.normal;
  out.points[3 * i] = 0.5 * (ax + bx);
  out.points[3 * i + 1] = 0.5 * (ay + by);
  out.points[3 * i + 2] = 0.5 * (az + bz);
  out.depths[i] = (ax - bx) * n[0]! + (ay - by) * n[1]! + (az - bz) * n[2]!;
  out.count = i + 1;
}

/**
 * Bodies: 8 numbers per body, x, y, z, qx, qy, qz, qw, shape index (bench/scenes3d.ts
 * `peerBodies`). The transform places the shape's own frame, as for our backends.
 */
export type PeerBodies3D = Float64Array;
export const BODY_STRIDE_3D = 8;

export interface Peer3D {
  readonly name: string;
  /** Whether the engine has an algorithm for this pair of shapes. */
  supports(shapeA: number, shapeB: number): boolean;
  /** One pair at the given poses (position x, y, z; quaternion x, y, z, w); returns out.count. */
  collide(
    shapeA: number,
    posA: ArrayLike<number>,
    rotA: ArrayLike<number>,
    shapeB: number,
    posB: ArrayLike<number>,
    rotB: ArrayLike<number>,
    out: PeerManifold3D,
  ): number;
  /**
   * Every pair (a0, b0, a1, b1, …) of `bodies` (the benchmark's loop); returns the number of pairs
   * with at least one point. `out`, when given, receives the last pair's manifold.
   */
  collideBatch(bodies: PeerBodies3D, pairs: Uint32Array, out?: PeerManifold3D): number;
  /** Frees what the peer allocated in its engine (WASM memory). */
  dispose(): void;
}

/**
 * The Peer3D calls around an engine's `run`, which collides shape a (body array `bodies` at
 * float offset oa) with shape b (offset ob) into `out` and returns out.count.
 */
export function peerSkeleton3D(
  name: string,
  supports: (a: number, b: number) => boolean,
  run: (
    a: number,
    bodies: Float64Array,
    oa: number,
    b: number,
    ob: number,
    out: PeerManifold3D,
  ) => number,
  dispose: () => void,
): Peer3D {
  const single = new Float64Array(16);
  const batchOut = emptyPeerManifold3D();
  return {
    name,
    supports,
    collide(shapeA, posA, rotA, shapeB, posB, rotB, out) {
      for (let k = 0; k < 3; k++) {
        single[k] = posA[k]!;
        single[8 + k] = posB[k]!;
      }
      for (let k = 0; k < 4; k++) {
        single[3 + k] = rotA[k]!;
        single[11 + k] = rotB[k]!;
      }
      return run(shapeA, single, 0, shapeB, 8, out);
    },
    collideBatch(bodies, pairs, out = batchOut) {
      const nb = bodies.length / BODY_STRIDE_3D;
      let touching = 0;
      for (let k = 0; k < pairs.length; k += 2) {
        const a = pairs[k]!;
        const b = pairs[k + 1]!;
        if (a >= nb || b >= nb)
          throw new RangeError(
            `pair ${k >> 1} names body ${Math.max(a, b)}; there are ${nb} bodies`,
          );
        const oa = a * BODY_STRIDE_3D;
        const ob = b * BODY_STRIDE_3D;
        if (run(bodies[oa + 7]!, bodies, oa, bodies[ob + 7]!, ob, out) > 0) touching++;
      }
      return touching;
    },
    dispose,
  };
}

/** World-space vertices of a shape's core in its own body frame (centre added back): x, y, z per vertex. */
export function bodyFrameVertices(s: Shape3D): Float64Array {
  const out = new Float64Array(3 * s.vertexCount);
  for (let v = 0; v < s.vertexCount; v++) {
    for (let k = 0; k < 3; k++) out[3 * v + k] = s.vertices[3 * v + k]! + s.center[k]!;
  }
  return out;
}

/**
 * Whether the shape's centre is its body origin (up to rounding: the hull builder centres a box on
 * the mean of its corners, which can be 1e-17 off). Boxes and spheres need it in every peer.
 */
export function centred(s: Shape3D): boolean {
  return s.center.every((c) => Math.abs(c) <= 1e-6 * s.extent);
}

/** Half extents of a box shape (its vertices are the 8 corners around its centre). */
export function boxHalfExtents(s: Shape3D): [number, number, number] {
  const h: [number, number, number] = [0, 0, 0];
  for (let v = 0; v < s.vertexCount; v++) {
    for (let k = 0; k < 3; k++) h[k] = Math.max(h[k]!, Math.abs(s.vertices[3 * v + k]!));
  }
  return h;
}

/** Rotates v by unit quaternion q = (x, y, z, w) into out[o..o+2]. */
export function rotate3(
  qx: number,
  qy: number,
  qz: number,
  qw: number,
  vx: number,
  vy: number,
  vz: number,
  out: Float64Array,
  o: number,
): void {
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[o] = vx + qw * tx + (qy * tz - qz * ty);
  out[o + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[o + 2] = vz + qw * tz + (qx * ty - qy * tx);
}
