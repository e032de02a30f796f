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
//
// The manifold type, the bodies and pairs, shape prebuilding, the dispatch on shape kinds and the
// batch loop are shared with ./box2dwasm2d.ts in ./peer2d.ts; this file supplies planck's shapes,
// transforms and collide functions.

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
  Vec2 as PlanckVec2,
  WorldManifold,
} from 'planck';
import type { TransformValue } from 'planck';
import type { Shape2DInput, Vec2 } from '../../src/shapes2d.ts';
import {
  collideByKinds,
  peerSkeleton,
  polygonFrame,
  prebuildShapes,
  type KindFunctions,
  type Peer2D,
  type PeerManifold2D,
  type PeerOptions2D,
} from './peer2d.ts';

export interface PlanckPeer2D extends Peer2D {
  readonly name: 'planck';
}

type PlanckShape = PolygonShape | CircleShape | EdgeShape;

// The planck shape classes declare their fields @hidden; they are ordinary public properties.
interface PolygonFields {
  m_radius: number;
  m_count: number;
  m_vertices: { x: number; y: number }[];
  m_normals: { x: number; y: number }[];
  m_centroid: { x: number; y: number };
}

function polygonShape(pts: readonly Vec2[], radius: number): PolygonShape {
  const poly = new PolygonShape();
  const f = poly as unknown as PolygonFields;
  const { normals, centroid } = polygonFrame(pts);
  f.m_vertices.length = 0;
  f.m_normals.length = 0;
  for (let i = 0; i < pts.length; i++) {
    f.m_vertices.push(planckVec(pts[i]![0], pts[i]![1]));
    f.m_normals.push(planckVec(normals[i]![0], normals[i]![1]));
  }
  f.m_count = pts.length;
  f.m_centroid.x = centroid[0];
  f.m_centroid.y = centroid[1];
  f.m_radius = radius;
  return poly;
}

// planck's matrix helpers accept any {x, y}; use its own Vec2 class so hidden classes stay monomorphic.
function planckVec(x: number, y: number): { x: number; y: number } {
  return new PlanckVec2(x, y);
}

function capsuleShape(a: Vec2, b: Vec2, radius: number): EdgeShape {
  const e = new EdgeShape({ x: a[0], y: a[1] }, { x: b[0], y: b[1] });
  (e as unknown as { m_radius: number }).m_radius = radius;
  return e;
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

export function createPlanckPeer(
  shapes: readonly Shape2DInput[],
  options: PeerOptions2D = {},
): PlanckPeer2D {
  const { built: planckShapes, kinds } = prebuildShapes<PlanckShape>(
    shapes,
    options.skin ?? 0,
    'planck',
    {
      polygon: polygonShape,
      circle: (center, radius) => new CircleShape({ x: center[0], y: center[1] }, radius),
      capsule: capsuleShape,
    },
  );
  const radii = Float64Array.from(
    planckShapes.map((shape) => (shape as unknown as { m_radius: number }).m_radius),
  );

  const manifold = new Manifold();
  const wm = new WorldManifold();
  let xfs: MutableTransform[] = [];

  // planck has one function per unordered pair of types (polygon–circle, edge–polygon, …); where
  // the pair comes the other way round, collideByKinds collides B against A (flip the normal).
  // (Each takes the shape classes it is named for; collideByKinds passes only those.)
  const functions = {
    polygons: CollidePolygons,
    polygonCircle: CollidePolygonCircle,
    circles: CollideCircles,
    edgePolygon: CollideEdgePolygon,
    edgeCircle: CollideEdgeCircle,
  } as unknown as KindFunctions<Manifold, PlanckShape, TransformValue>;

  // Collides shapes a and b at the given transforms into `out`; returns out.count.
  function run(
    a: number,
    ta: MutableTransform,
    b: number,
    tb: MutableTransform,
    out: PeerManifold2D,
  ): number {
    const A = ta as unknown as TransformValue;
    const B = tb as unknown as TransformValue;
    const flip = collideByKinds(
      functions,
      manifold,
      kinds[a]!,
      planckShapes[a]!,
      A,
      kinds[b]!,
      planckShapes[b]!,
      B,
    );
    if (flip === null) {
      out.count = -1;
      return -1;
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

  function setTransform(t: MutableTransform, x: number, y: number, c: number, s: number): void {
    t.p.x = x;
    t.p.y = y;
    t.q.c = c;
    t.q.s = s;
  }

  const { calls } = peerSkeleton<MutableTransform>({
    kinds,
    xfA: newTransform(),
    xfB: newTransform(),
    setTransform,
    setBodyTransforms(pose, count) {
      if (xfs.length < count)
        xfs = Array.from({ length: count }, (_, i) => xfs[i] ?? newTransform());
      for (let i = 0; i < count; i++)
        setTransform(xfs[i]!, pose[4 * i]!, pose[4 * i + 1]!, pose[4 * i + 2]!, pose[4 * i + 3]!);
      return xfs;
    },
    run,
  });

  return { name: 'planck', ...calls };
}
