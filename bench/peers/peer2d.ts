// What the 2D peers (./planck2d.ts, ./box2dwasm2d.ts) have in common: the manifold they report
// (planck's `WorldManifold` convention: normal A → B, depth = −separation, point midway between
// the surfaces; see ./planck2d.ts), the bodies and pairs they take, and the skeleton around an
// engine's own collide function: shapes prebuilt once per peer (our `Shape2DInput` JSON, as the
// benchmark and the agreement test hand it over), transforms set per pair or per batch of bodies,
// and the batch loop over the pairs.
//
// An engine supplies its shape builders (polygon, circle, capsule) and, for the skeleton, a
// transform handle type T (planck: a Transform object; box2d-wasm: a pointer into the WASM heap)
// with `setTransform`, body transform storage, and `run`, which collides two shapes at two
// transforms into a PeerManifold2D.

import type { Shape2DInput, Vec2 } from '../../src/shapes2d.ts';

/** A world-space manifold, planck's `WorldManifold` convention (see above). Reused across calls. */
export interface PeerManifold2D {
  /** Number of points, 0..2; -1 when the engine has no algorithm for this pair of shape types. */
  count: number;
  /** Unit normal from A to B. */
  normalX: number;
  normalY: number;
  /** Points, midway between the two surfaces. */
  px: number[];
  py: number[];
  /** Signed distance between the surfaces along the normal; negative = penetration (depth = −separation). */
  separation: number[];
}

export function emptyPeerManifold(): PeerManifold2D {
  return { count: 0, normalX: 0, normalY: 0, px: [0, 0], py: [0, 0], separation: [0, 0] };
}

/** A body for `collideBatch`: an index into the peer's shapes, a position and an angle (radians). */
export interface PeerBody2D {
  shape: number;
  position: Vec2;
  angle: number;
}

/**
 * Bodies for `collideBatch`: objects, or a Float64Array of 4 numbers per body
 * (x, y, angle, shape index).
 */
export type PeerBodies2D = readonly PeerBody2D[] | Float64Array;
/** Pairs for `collideBatch`: [a, b] tuples, or a flat typed array a0, b0, a1, b1, … */
export type PeerPairs2D = readonly (readonly [number, number])[] | Uint32Array | Int32Array;

export interface PeerOptions2D {
  /**
   * Extra skin added to every polygon, box and capsule radius (Box2D's default is 0.01). Default 0:
   * the shapes' exact geometry, so that the manifold maps one to one onto ours.
   */
  skin?: number;
}

/** The calls every peer answers (each adds its `name`, and what else it needs). */
export interface Peer2D {
  /** Whether the engine has an algorithm for this pair of shapes (false only for capsule–capsule). */
  supports(shapeA: number, shapeB: number): boolean;
  /** One pair; writes `out` and returns out.count (-1: unsupported pair). No allocation. */
  collide(
    shapeA: number,
    posA: Vec2 | readonly number[],
    angleA: number,
    shapeB: number,
    posB: Vec2 | readonly number[],
    angleB: number,
    out: PeerManifold2D,
  ): number;
  /** As `collide`, with rotations given as (cos, sin) (e.g. the f32-rounded values our packer stores). */
  collideRot(
    shapeA: number,
    posA: Vec2 | readonly number[],
    cosA: number,
    sinA: number,
    shapeB: number,
    posB: Vec2 | readonly number[],
    cosB: number,
    sinB: number,
    out: PeerManifold2D,
  ): number;
  /** Sets one transform per body (from its angle: sin, cos), kept for `collidePairs`. */
  setBodies(bodies: PeerBodies2D): void;
  /**
   * Every pair of the last `setBodies` (the benchmark's loop): collide + world manifold. Returns the
   * number of pairs with at least one point. `out`, when given, receives the last pair's manifold.
   */
  collidePairs(pairs: PeerPairs2D, out?: PeerManifold2D): number;
  /** setBodies(bodies) then collidePairs(pairs). */
  collideBatch(bodies: PeerBodies2D, pairs: PeerPairs2D, out?: PeerManifold2D): number;
}

// ---------------------------------------------------------------------------------------------
// Shapes

/** How an engine dispatches a pair: polygons and boxes, circles, capsules (two-sided edges). */
export const KIND_POLYGON = 0;
export const KIND_CIRCLE = 1;
export const KIND_EDGE = 2;

/** An engine's constructors for the three kinds of shape it collides. */
export interface ShapeBuilders<S> {
  /** A convex CCW polygon (3..8 vertices; a box comes as its 4 corners) with rounding radius. */
  polygon(vertices: readonly Vec2[], radius: number): S;
  circle(center: Vec2, radius: number): S;
  /** A two-sided edge a–b with rounding radius. */
  capsule(a: Vec2, b: Vec2, radius: number): S;
}

/**
 * Builds every shape once with the engine's builders; `skin` is added to the radius of polygons,
 * boxes and capsules (not circles). `engine` names the engine in the errors.
 */
export function prebuildShapes<S>(
  shapes: readonly Shape2DInput[],
  skin: number,
  engine: string,
  build: ShapeBuilders<S>,
): { built: S[]; kinds: Int32Array } {
  const kinds = new Int32Array(shapes.length);
  const built = shapes.map((s, i): S => {
    switch (s.type) {
      case 'polygon':
        if (s.vertices.length < 3 || s.vertices.length > 8)
          throw new Error(`shapes[${i}]: ${engine} takes 3..8 polygon vertices`);
        kinds[i] = KIND_POLYGON;
        return build.polygon(s.vertices, (s.radius ?? 0) + skin);
      case 'box': {
        const [hx, hy] = s.halfExtents;
        kinds[i] = KIND_POLYGON;
        return build.polygon(
          [
            [-hx, -hy],
            [hx, -hy],
            [hx, hy],
            [-hx, hy],
          ],
          (s.radius ?? 0) + skin,
        );
      }
      case 'circle':
        kinds[i] = KIND_CIRCLE;
        return build.circle(s.center ? [s.center[0], s.center[1]] : [0, 0], s.radius);
      case 'capsule':
        kinds[i] = KIND_EDGE;
        return build.capsule(s.a, s.b, s.radius + skin);
      default:
        throw new Error(`shapes[${i}]: unknown shape type ${(s as { type: unknown }).type}`);
    }
  });
  return { built, kinds };
}

/**
 * Edge normals (right perpendicular of edge i = vertex i → i+1, unit) and vertex average of a
 * convex CCW polygon, as the engines' polygon shapes store them (set directly: their own
 * constructors would weld, hull and re-order the vertices).
 */
export function polygonFrame(pts: readonly Vec2[]): { normals: Vec2[]; centroid: Vec2 } {
  const n = pts.length;
  const normals: Vec2[] = [];
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    normals.push([(b[1] - a[1]) / len, -(b[0] - a[0]) / len]);
    cx += a[0] / n;
    cy += a[1] / n;
  }
  return { normals, centroid: [cx, cy] };
}

/**
 * An engine's narrowphase functions, one per unordered pair of kinds (as Box2D v2 has them):
 * each collides its two shapes at their transforms into the engine's manifold M.
 */
export interface KindFunctions<M, S, T> {
  polygons(m: M, a: S, ta: T, b: S, tb: T): void;
  polygonCircle(m: M, polygon: S, tp: T, circle: S, tc: T): void;
  circles(m: M, a: S, ta: T, b: S, tb: T): void;
  edgePolygon(m: M, edge: S, te: T, polygon: S, tp: T): void;
  edgeCircle(m: M, edge: S, te: T, circle: S, tc: T): void;
}

/**
 * Collides shape a (kind ka) at ta with shape b (kind kb) at tb into m through the function for
 * their kinds. Where that function takes the kinds the other way round it is called as (b, a),
 * and the result is true: the engine's normal then points from B to A and must be flipped. Null
 * where the engine has no function (edge–edge: capsule–capsule).
 */
export function collideByKinds<M, S, T>(
  f: KindFunctions<M, S, T>,
  m: M,
  ka: number,
  sa: S,
  ta: T,
  kb: number,
  sb: S,
  tb: T,
): boolean | null {
  if (ka === KIND_POLYGON) {
    if (kb === KIND_POLYGON) f.polygons(m, sa, ta, sb, tb);
    else if (kb === KIND_CIRCLE) f.polygonCircle(m, sa, ta, sb, tb);
    else {
      f.edgePolygon(m, sb, tb, sa, ta);
      return true;
    }
  } else if (ka === KIND_CIRCLE) {
    if (kb === KIND_CIRCLE) f.circles(m, sa, ta, sb, tb);
    else if (kb === KIND_POLYGON) {
      f.polygonCircle(m, sb, tb, sa, ta);
      return true;
    } else {
      f.edgeCircle(m, sb, tb, sa, ta);
      return true;
    }
  } else {
    if (kb === KIND_POLYGON) f.edgePolygon(m, sa, ta, sb, tb);
    else if (kb === KIND_CIRCLE) f.edgeCircle(m, sa, ta, sb, tb);
    else return null;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// The skeleton

/** What an engine supplies to `peerSkeleton`; T is its transform handle. */
export interface PeerEngine2D<T> {
  /** KIND_* per shape (from `prebuildShapes`). */
  readonly kinds: Int32Array;
  /** Scratch transforms for `collide` and `collideRot`. */
  readonly xfA: T;
  readonly xfB: T;
  /** Sets a transform: position (x, y), rotation (cos, sin). */
  setTransform(t: T, x: number, y: number, c: number, s: number): void;
  /**
   * Sets the transforms of `count` bodies from `pose` (x, y, cos, sin per body) and returns them,
   * body i's at index i, for the batch loop (storage kept from earlier calls where it fits).
   */
  setBodyTransforms(pose: Float64Array, count: number): ArrayLike<T>;
  /** Called once before a batch of pairs is collided. */
  beginPairs?(): void;
  /** Collides shapes a and b at transforms ta and tb into `out`; returns out.count (-1: unsupported). */
  run(a: number, ta: T, b: number, tb: T, out: PeerManifold2D): number;
}

export interface PeerSkeleton2D {
  /** The Peer2D calls around the engine's `run`: single pairs, body transforms and the batch loop. */
  readonly calls: Peer2D;
  /** Forgets the bodies of the last `setBodies` (then `collidePairs` rejects every pair). */
  forgetBodies(): void;
}

export function peerSkeleton<T>(engine: PeerEngine2D<T>): PeerSkeleton2D {
  const { kinds, xfA, xfB, setTransform, setBodyTransforms, run } = engine;
  const beginPairs = engine.beginPairs ?? ((): void => {});
  const batchOut = emptyPeerManifold();
  let bodyShape = new Int32Array(0);
  let bodyPose = new Float64Array(0);
  let bodyXf: ArrayLike<T> = [];
  let bodyCount = 0;

  function supports(a: number, b: number): boolean {
    return !(kinds[a] === KIND_EDGE && kinds[b] === KIND_EDGE);
  }

  function collide(
    shapeA: number,
    posA: Vec2 | readonly number[],
    angleA: number,
    shapeB: number,
    posB: Vec2 | readonly number[],
    angleB: number,
    out: PeerManifold2D,
  ): number {
    setTransform(xfA, posA[0]!, posA[1]!, Math.cos(angleA), Math.sin(angleA));
    setTransform(xfB, posB[0]!, posB[1]!, Math.cos(angleB), Math.sin(angleB));
    return run(shapeA, xfA, shapeB, xfB, out);
  }

  function collideRot(
    shapeA: number,
    posA: Vec2 | readonly number[],
    cosA: number,
    sinA: number,
    shapeB: number,
    posB: Vec2 | readonly number[],
    cosB: number,
    sinB: number,
    out: PeerManifold2D,
  ): number {
    setTransform(xfA, posA[0]!, posA[1]!, cosA, sinA);
    setTransform(xfB, posB[0]!, posB[1]!, cosB, sinB);
    return run(shapeA, xfA, shapeB, xfB, out);
  }

  function setBodies(bodies: PeerBodies2D): void {
    const nb = bodies instanceof Float64Array ? bodies.length >> 2 : bodies.length;
    if (bodyShape.length < nb) {
      bodyShape = new Int32Array(nb);
      bodyPose = new Float64Array(4 * nb);
    }
    const pose = bodyPose;
    if (bodies instanceof Float64Array) {
      for (let i = 0; i < nb; i++) {
        const angle = bodies[4 * i + 2]!;
        pose[4 * i] = bodies[4 * i]!;
        pose[4 * i + 1] = bodies[4 * i + 1]!;
        pose[4 * i + 2] = Math.cos(angle);
        pose[4 * i + 3] = Math.sin(angle);
        bodyShape[i] = bodies[4 * i + 3]!;
      }
    } else {
      for (let i = 0; i < nb; i++) {
        const b = bodies[i]!;
        pose[4 * i] = b.position[0];
        pose[4 * i + 1] = b.position[1];
        pose[4 * i + 2] = Math.cos(b.angle);
        pose[4 * i + 3] = Math.sin(b.angle);
        bodyShape[i] = b.shape;
      }
    }
    bodyXf = setBodyTransforms(pose, nb);
    bodyCount = nb;
  }

  function collidePairs(pairs: PeerPairs2D, out: PeerManifold2D = batchOut): number {
    beginPairs();
    let touching = 0;
    const nb = bodyCount;
    const xfs = bodyXf;
    if (ArrayBuffer.isView(pairs)) {
      const flat = pairs as Uint32Array | Int32Array;
      for (let k = 0; k < flat.length; k += 2) {
        const a = flat[k]!;
        const b = flat[k + 1]!;
        if (a >= nb || b >= nb)
          throw new RangeError(`pair ${k >> 1} names body ${Math.max(a, b)}; setBodies gave ${nb}`);
        if (run(bodyShape[a]!, xfs[a]!, bodyShape[b]!, xfs[b]!, out) > 0) touching++;
      }
    } else {
      const list = pairs as readonly (readonly [number, number])[];
      for (let k = 0; k < list.length; k++) {
        const a = list[k]![0];
        const b = list[k]![1];
        if (a >= nb || b >= nb)
          throw new RangeError(`pair ${k} names body ${Math.max(a, b)}; setBodies gave ${nb}`);
        if (run(bodyShape[a]!, xfs[a]!, bodyShape[b]!, xfs[b]!, out) > 0) touching++;
      }
    }
    return touching;
  }

  function collideBatch(
    bodies: PeerBodies2D,
    pairs: PeerPairs2D,
    out: PeerManifold2D = batchOut,
  ): number {
    setBodies(bodies);
    return collidePairs(pairs, out);
  }

  return {
    calls: { supports, collide, collideRot, setBodies, collidePairs, collideBatch },
    forgetBodies: () => {
      bodyCount = 0;
    },
  };
}
