// planck.js (Box2D v2.3/2.4's algorithm, in JavaScript) as an independent peer for 2D contact
// manifolds: the agreement test (test/planck2d.test.ts) compares our CPU reference with it, and
// the benchmark runs it on the same pairs as a speed contender.
//
// Single-pair API. planck 1.5 exports the narrowphase functions themselves — `CollidePolygons`,
// `CollidePolygonCircle`, `CollideCircles`, `CollideEdgePolygon`, `CollideEdgeCircle` — plus
// `Manifold` and `WorldManifold`, so no world, body, fixture or contact is needed: a pair is one
// `Collide*(manifold, shapeA, xfA, shapeB, xfB)` call followed by
// `manifold.getWorldManifold(wm, xfA, shapeA.m_radius, xfB, shapeB.m_radius)`. Nothing in that
// path allocates (planck's collide functions work in module-level scratch vectors).
//
// Skin radius. planck's `PolygonShape` (and `EdgeShape`) have a rounding radius `m_radius`,
// default `Settings.polygonRadius` = 2 × linearSlop = 0.01 m (Box2D's b2_polygonRadius): every
// polygon is inflated by a 0.01 skin. The collide functions use it as a rounding radius: contacts
// are reported while the cores are apart by up to rA + rB, the reference face's side planes are
// pushed out by rA + rB before clipping, and the world manifold puts, for a clip point c at core
// separation s = dot(c − planePoint, n) from the reference face,
//     cA = c + (rA − s)·n   (on A's rounded surface),   cB = c − rB·n   (on B's),
//     point = (cA + cB) / 2,                            separation = s − rA − rB
// (faceB: same with the roles swapped, normal then negated so it points A → B). So a planck
// manifold *is* ours — depth = −separation, position midway between the two (rounded) surfaces,
// normal A → B — provided planck's radius is the shape's true rounding radius. This peer
// therefore builds polygons with m_radius = the shape's own `radius` (0 for a sharp polygon or
// box), not the 0.01 default, and sets vertices and normals directly (planck's `PolygonShape`
// constructor would weld vertices closer than 0.0025, run gift wrapping and re-order them from the
// right-most vertex). With that, planck's edge/vertex indices equal ours, and for overlapping
// sharp polygons the geometry is the same computation as ours (SAT on face normals, reference
// face + incident edge, Sutherland–Hodgman clip).
//
// Rounded polygons (radius > 0) are v2.4's algorithm, not ours (Box2D v3's): v2.4 pushes the
// side planes out by rA + rB before clipping and keeps a face normal while the cores are apart,
// where v3 clips at the true side planes and joins two closest vertices. Same normal and depth
// where the cores overlap and nothing is clipped; points may differ otherwise.
//
// If instead the default skin s = 0.01 is kept on both polygons (`{ skin: 0.01 }` below):
//     depth_ours = −separation_planck − 2s         (exactly, for face contacts; in general
//                  − (sA + sB), where a circle has no skin),
//     position: unchanged (the midpoint moves by (sA − sB)/2 along n: 0 for two polygons, s/2
//               for polygon–circle), except that points where the incident edge overhangs the
//               reference face are clipped up to 2s further out sideways,
//     contacts: reported up to a core gap of 2s (speculative, separation ≤ 0 still means touching
//               the inflated shapes).
// Checked numerically on a 2×2 box on a 2×2 box overlapping by 0.1 (see the agreement test).
//
// Axis hysteresis. planck picks B's face only if its separation beats A's by
// k_tol = 0.1 × Settings.linearSlop = 5e-4 (absolute, read at call time). Ours uses the same
// ratio relative to the pair's length scale (AXIS_HYSTERESIS × min extent);
// `setPlanckAxisTolerance(tol)` sets planck's Settings.linearSlop = 10 × tol so that both
// coincide for a pair (global to the planck module; `resetPlanckAxisTolerance()` restores 0.005).
// Nothing else on this peer's path reads linearSlop.
//
// Shapes. polygon (3..8 vertices, CCW, optional radius), box (optional radius), circle (optional
// center), capsule (a planck two-sided `EdgeShape` with m_radius = capsule radius: planck collides
// an edge with polygons and circles, so capsule–polygon and capsule–circle work; capsule–capsule
// does not exist in planck: `supports()` is false and `collide()` reports count = -1). Caveat:
// planck's edge–polygon is Box2D v2.3's EPCollider, box2d-wasm's is v2.4.1's rewrite, and ours
// treats a capsule as a rounded 2-gon (Box2D v3); deep capsule–polygon manifolds differ between
// all three (different axis choice), so capsules are for speed, not for agreement. Polygons,
// boxes, circles and rounded polygons agree between planck and box2d-wasm within f32 rounding.

import {
  CircleShape,
  CollideCircles,
  CollideEdgeCircle,
  CollideEdgePolygon,
  CollidePolygonCircle,
  CollidePolygons,
  EdgeShape,
  Manifold,
  PolygonShape,
  Settings,
  Transform,
  Vec2,
  WorldManifold,
} from 'planck';
import type { TransformValue } from 'planck';

export type PeerVec2 = [number, number];

export type PeerShape2D =
  | { type: 'polygon'; vertices: PeerVec2[]; radius?: number }
  | { type: 'box'; halfExtents: PeerVec2; radius?: number }
  | { type: 'circle'; radius: number; center?: PeerVec2 }
  | { type: 'capsule'; a: PeerVec2; b: PeerVec2; radius: number };

/** A world-space manifold, planck's `WorldManifold` convention (see the header). Reused across calls. */
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
  position: PeerVec2;
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

export interface PlanckPeer2D {
  readonly name: 'planck';
  /** Whether planck has an algorithm for this pair of shapes (false only for capsule–capsule). */
  supports(shapeA: number, shapeB: number): boolean;
  /** One pair; writes `out` and returns out.count (-1: unsupported pair). No allocation. */
  collide(
    shapeA: number, posA: PeerVec2 | readonly number[], angleA: number,
    shapeB: number, posB: PeerVec2 | readonly number[], angleB: number,
    out: PeerManifold2D,
  ): number;
  /** As `collide`, with rotations given as (cos, sin) (e.g. the f32-rounded values our packer stores). */
  collideRot(
    shapeA: number, posA: PeerVec2 | readonly number[], cosA: number, sinA: number,
    shapeB: number, posB: PeerVec2 | readonly number[], cosB: number, sinB: number,
    out: PeerManifold2D,
  ): number;
  /** Builds one transform per body (sin, cos), kept for `collidePairs`. */
  setBodies(bodies: PeerBodies2D): void;
  /**
   * Every pair of the last `setBodies` (the benchmark's loop): collide + world manifold. Returns the
   * number of pairs with at least one point. `out`, when given, receives the last pair's manifold.
   */
  collidePairs(pairs: PeerPairs2D, out?: PeerManifold2D): number;
  /** setBodies(bodies) then collidePairs(pairs). */
  collideBatch(bodies: PeerBodies2D, pairs: PeerPairs2D, out?: PeerManifold2D): number;
}

const KIND_POLYGON = 0;
const KIND_CIRCLE = 1;
const KIND_EDGE = 2;

type PlanckShape = PolygonShape | CircleShape | EdgeShape;

// The planck shape classes declare their fields @hidden; they are ordinary public properties.
interface PolygonFields {
  m_radius: number;
  m_count: number;
  m_vertices: { x: number; y: number }[];
  m_normals: { x: number; y: number }[];
  m_centroid: { x: number; y: number };
}

function polygonShape(pts: readonly PeerVec2[], radius: number): PolygonShape {
  const poly = new PolygonShape();
  const f = poly as unknown as PolygonFields;
  const n = pts.length;
  let cx = 0;
  let cy = 0;
  f.m_vertices.length = 0;
  f.m_normals.length = 0;
  for (let i = 0; i < n; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    f.m_vertices.push(planckVec(a[0], a[1]));
    f.m_normals.push(planckVec((b[1] - a[1]) / len, -(b[0] - a[0]) / len));
    cx += a[0] / n;
    cy += a[1] / n;
  }
  f.m_count = n;
  f.m_centroid.x = cx;
  f.m_centroid.y = cy;
  f.m_radius = radius;
  return poly;
}

// planck's matrix helpers accept any {x, y}; use its own Vec2 class so hidden classes stay monomorphic.
function planckVec(x: number, y: number): { x: number; y: number } {
  return new Vec2(x, y);
}

function buildShape(s: PeerShape2D, index: number, skin: number): { shape: PlanckShape; kind: number } {
  switch (s.type) {
    case 'polygon':
      if (s.vertices.length < 3 || s.vertices.length > 8) throw new Error(`shapes[${index}]: planck takes 3..8 polygon vertices`);
      return { shape: polygonShape(s.vertices, (s.radius ?? 0) + skin), kind: KIND_POLYGON };
    case 'box': {
      const [hx, hy] = s.halfExtents;
      return { shape: polygonShape([[-hx, -hy], [hx, -hy], [hx, hy], [-hx, hy]], (s.radius ?? 0) + skin), kind: KIND_POLYGON };
    }
    case 'circle': {
      const c = new CircleShape(s.center ? { x: s.center[0], y: s.center[1] } : { x: 0, y: 0 }, s.radius);
      return { shape: c, kind: KIND_CIRCLE };
    }
    case 'capsule': {
      const e = new EdgeShape({ x: s.a[0], y: s.a[1] }, { x: s.b[0], y: s.b[1] });
      (e as unknown as { m_radius: number }).m_radius = s.radius + skin;
      return { shape: e, kind: KIND_EDGE };
    }
    default:
      throw new Error(`shapes[${index}]: unknown shape type ${(s as { type: unknown }).type}`);
  }
}

interface MutableTransform {
  p: { x: number; y: number };
  q: { s: number; c: number };
}

// planck's own Transform (Vec2 + Rot instances), so planck's math helpers see the same hidden
// classes as in its own world step.
function newTransform(): MutableTransform {
  return new Transform() as unknown as MutableTransform;
}

const DEFAULT_LINEAR_SLOP = 0.005;

/**
 * Sets planck's axis hysteresis k_tol (= 0.1 × Settings.linearSlop, an absolute length; 5e-4 by
 * default) to `tol`. Global to the planck module.
 */
export function setPlanckAxisTolerance(tol: number): void {
  Settings.linearSlop = 10 * tol;
}

/** Restores planck's default linearSlop (0.005, so k_tol = 5e-4). */
export function resetPlanckAxisTolerance(): void {
  Settings.linearSlop = DEFAULT_LINEAR_SLOP;
}

export function createPlanckPeer(shapes: readonly PeerShape2D[], options: PeerOptions2D = {}): PlanckPeer2D {
  const skin = options.skin ?? 0;
  const built = shapes.map((s, i) => buildShape(s, i, skin));
  const planckShapes: PlanckShape[] = built.map((b) => b.shape);
  const kinds = Int32Array.from(built.map((b) => b.kind));
  const radii = Float64Array.from(built.map((b) => (b.shape as unknown as { m_radius: number }).m_radius));

  const manifold = new Manifold();
  const wm = new WorldManifold();
  const xfA = newTransform();
  const xfB = newTransform();
  let xfs: MutableTransform[] = [];
  const batchOut = emptyPeerManifold();

  function supports(a: number, b: number): boolean {
    return !(kinds[a] === KIND_EDGE && kinds[b] === KIND_EDGE);
  }

  // Collides shapes a and b at the given transforms into `out`; returns out.count.
  function run(a: number, ta: MutableTransform, b: number, tb: MutableTransform, out: PeerManifold2D): number {
    const ka = kinds[a]!;
    const kb = kinds[b]!;
    const sa = planckShapes[a]!;
    const sb = planckShapes[b]!;
    const A = ta as unknown as TransformValue;
    const B = tb as unknown as TransformValue;
    // planck has one function per ordered type pair (polygon–circle, edge–polygon, …); where the
    // pair comes the other way round, collide B against A and flip the normal.
    let flip = false;
    if (ka === KIND_POLYGON) {
      if (kb === KIND_POLYGON) CollidePolygons(manifold, sa as PolygonShape, A, sb as PolygonShape, B);
      else if (kb === KIND_CIRCLE) CollidePolygonCircle(manifold, sa as PolygonShape, A, sb as CircleShape, B);
      else {
        CollideEdgePolygon(manifold, sb as EdgeShape, B, sa as PolygonShape, A);
        flip = true;
      }
    } else if (ka === KIND_CIRCLE) {
      if (kb === KIND_CIRCLE) CollideCircles(manifold, sa as CircleShape, A, sb as CircleShape, B);
      else if (kb === KIND_POLYGON) {
        CollidePolygonCircle(manifold, sb as PolygonShape, B, sa as CircleShape, A);
        flip = true;
      } else {
        CollideEdgeCircle(manifold, sb as EdgeShape, B, sa as CircleShape, A);
        flip = true;
      }
    } else {
      if (kb === KIND_POLYGON) CollideEdgePolygon(manifold, sa as EdgeShape, A, sb as PolygonShape, B);
      else if (kb === KIND_CIRCLE) CollideEdgeCircle(manifold, sa as EdgeShape, A, sb as CircleShape, B);
      else {
        out.count = -1;
        return -1;
      }
    }
    const n = manifold.pointCount;
    out.count = n;
    if (n === 0) return 0;
    if (flip) manifold.getWorldManifold(wm, B, radii[b]!, A, radii[a]!);
    else manifold.getWorldManifold(wm, A, radii[a]!, B, radii[b]!);
    const s = flip ? -1 : 1;
    out.normalX = s * wm.normal.x;
    out.normalY = s * wm.normal.y;
    for (let i = 0; i < n; i++) {
      const p = wm.points[i]!;
      out.px[i] = p.x;
      out.py[i] = p.y;
      out.separation[i] = wm.separations[i]!;
    }
    return n;
  }

  function setTransform(t: MutableTransform, x: number, y: number, angle: number): void {
    t.p.x = x;
    t.p.y = y;
    t.q.s = Math.sin(angle);
    t.q.c = Math.cos(angle);
  }

  function collide(
    shapeA: number, posA: PeerVec2 | readonly number[], angleA: number,
    shapeB: number, posB: PeerVec2 | readonly number[], angleB: number,
    out: PeerManifold2D,
  ): number {
    setTransform(xfA, posA[0]!, posA[1]!, angleA);
    setTransform(xfB, posB[0]!, posB[1]!, angleB);
    return run(shapeA, xfA, shapeB, xfB, out);
  }

  function collideRot(
    shapeA: number, posA: PeerVec2 | readonly number[], cosA: number, sinA: number,
    shapeB: number, posB: PeerVec2 | readonly number[], cosB: number, sinB: number,
    out: PeerManifold2D,
  ): number {
    xfA.p.x = posA[0]!;
    xfA.p.y = posA[1]!;
    xfA.q.c = cosA;
    xfA.q.s = sinA;
    xfB.p.x = posB[0]!;
    xfB.p.y = posB[1]!;
    xfB.q.c = cosB;
    xfB.q.s = sinB;
    return run(shapeA, xfA, shapeB, xfB, out);
  }

  let bodyShape = new Int32Array(0);
  let bodyCount = 0;

  function setBodies(bodies: PeerBodies2D): void {
    const nb = bodies instanceof Float64Array ? bodies.length >> 2 : bodies.length;
    if (xfs.length < nb) xfs = Array.from({ length: nb }, (_, i) => xfs[i] ?? newTransform());
    if (bodyShape.length < nb) bodyShape = new Int32Array(nb);
    bodyCount = nb;
    if (bodies instanceof Float64Array) {
      for (let i = 0; i < nb; i++) {
        setTransform(xfs[i]!, bodies[4 * i]!, bodies[4 * i + 1]!, bodies[4 * i + 2]!);
        bodyShape[i] = bodies[4 * i + 3]!;
      }
    } else {
      for (let i = 0; i < nb; i++) {
        const b = bodies[i]!;
        setTransform(xfs[i]!, b.position[0], b.position[1], b.angle);
        bodyShape[i] = b.shape;
      }
    }
  }

  function collidePairs(pairs: PeerPairs2D, out: PeerManifold2D = batchOut): number {
    let touching = 0;
    const nb = bodyCount;
    if (ArrayBuffer.isView(pairs)) {
      const flat = pairs as Uint32Array | Int32Array;
      for (let k = 0; k < flat.length; k += 2) {
        const a = flat[k]!;
        const b = flat[k + 1]!;
        if (a >= nb || b >= nb) throw new RangeError(`pair ${k >> 1} names body ${Math.max(a, b)}; setBodies gave ${nb}`);
        if (run(bodyShape[a]!, xfs[a]!, bodyShape[b]!, xfs[b]!, out) > 0) touching++;
      }
    } else {
      const list = pairs as readonly (readonly [number, number])[];
      for (let k = 0; k < list.length; k++) {
        const a = list[k]![0];
        const b = list[k]![1];
        if (a >= nb || b >= nb) throw new RangeError(`pair ${k} names body ${Math.max(a, b)}; setBodies gave ${nb}`);
        if (run(bodyShape[a]!, xfs[a]!, bodyShape[b]!, xfs[b]!, out) > 0) touching++;
      }
    }
    return touching;
  }

  function collideBatch(bodies: PeerBodies2D, pairs: PeerPairs2D, out: PeerManifold2D = batchOut): number {
    setBodies(bodies);
    return collidePairs(pairs, out);
  }

  return { name: 'planck', supports, collide, collideRot, setBodies, collidePairs, collideBatch };
}
