// rapier2d (@dimforge/rapier2d-compat: Rust/parry compiled to WebAssembly, f32) as a 2D peer, the
// 2D counterpart of ./rapier3d.ts's 'contact' path: `Collider.contactCollider`, parry's
// single-contact query, on two free colliders per shape (A's side and B's side) moved per pair
// with setTranslation/setRotation. It reports the deepest contact only (normal, distance, one
// point on each surface), so this peer's manifold has one point, midway between the surfaces.
//
// Shapes: boxes → cuboid (roundCuboid with a radius), polygons → convexHull (roundConvexHull),
// circles → ball, capsules → capsule along the segment; offsets placed through the collider's
// position relative to its (absent) parent, so a body's pose places the collider where our
// backends place the shape.

import RAPIER from '@dimforge/rapier2d-compat';
import rapierPackage from '../../node_modules/@dimforge/rapier2d-compat/package.json' with { type: 'json' };
import type { Shape2DInput } from '../../src/shapes2d.ts';
import { peerSkeleton, type Peer2D, type PeerManifold2D } from './peer2d.ts';

export interface RapierPeer2D extends Peer2D {
  readonly name: 'rapier2d';
  dispose(): void;
}

/** rapier2d-compat's version (its package.json, read at build time where bundled). */
export const rapier2dVersion: string = rapierPackage.version;

let initPromise: Promise<void> | undefined;

/** Loads rapier2d's WASM (once per process or page). */
export function loadRapier2D(): Promise<void> {
  initPromise ??= RAPIER.init();
  return initPromise;
}

interface Placed {
  desc: RAPIER.ColliderDesc;
  /** The shape's own offset and turn in the body frame. */
  x: number;
  y: number;
  angle: number;
}

function placed(s: Shape2DInput, i: number): Placed {
  const hull = (points: readonly (readonly number[])[], radius: number): RAPIER.ColliderDesc => {
    const flat = Float32Array.from(points.flatMap((p) => [p[0]!, p[1]!]));
    const d =
      radius > 0
        ? RAPIER.ColliderDesc.roundConvexHull(flat, radius)
        : RAPIER.ColliderDesc.convexHull(flat);
    if (!d) throw new Error(`shapes[${i}]: rapier2d could not build the hull`);
    return d;
  };
  switch (s.type) {
    case 'box': {
      const r = s.radius ?? 0;
      const [hx, hy] = s.halfExtents;
      return {
        desc:
          r > 0 ? RAPIER.ColliderDesc.roundCuboid(hx, hy, r) : RAPIER.ColliderDesc.cuboid(hx, hy),
        x: 0,
        y: 0,
        angle: 0,
      };
    }
    case 'polygon':
      return { desc: hull(s.vertices, s.radius ?? 0), x: 0, y: 0, angle: 0 };
    case 'circle':
      return {
        desc: RAPIER.ColliderDesc.ball(s.radius),
        x: s.center?.[0] ?? 0,
        y: s.center?.[1] ?? 0,
        angle: 0,
      };
    case 'capsule': {
      // rapier's capsule runs along its local y axis.
      const dx = s.b[0] - s.a[0];
      const dy = s.b[1] - s.a[1];
      return {
        desc: RAPIER.ColliderDesc.capsule(Math.hypot(dx, dy) / 2, s.radius),
        x: (s.a[0] + s.b[0]) / 2,
        y: (s.a[1] + s.b[1]) / 2,
        angle: Math.atan2(dy, dx) - Math.PI / 2,
      };
    }
    default:
      throw new Error(`shapes[${i}]: unknown shape type ${(s as { type: unknown }).type}`);
  }
}

/** A body pose: position and rotation (cos, sin). */
interface Pose {
  x: number;
  y: number;
  c: number;
  s: number;
}

export async function createRapierPeer2D(shapes: readonly Shape2DInput[]): Promise<RapierPeer2D> {
  await loadRapier2D();
  const world = new RAPIER.World({ x: 0, y: 0 });
  const place = shapes.map(placed);
  const sideA = place.map((p) => world.createCollider(p.desc));
  const sideB = place.map((p) => world.createCollider(p.desc));
  const contact = new RAPIER.ShapeContact(
    0,
    { x: 0, y: 0 },
    { x: 0, y: 0 },
    { x: 0, y: 0 },
    { x: 0, y: 0 },
  );
  const moveTo = (collider: RAPIER.Collider, p: Placed, t: Pose): void => {
    collider.setTranslation({ x: t.x + t.c * p.x - t.s * p.y, y: t.y + t.s * p.x + t.c * p.y });
    collider.setRotation(Math.atan2(t.s, t.c) + p.angle);
  };
  let bodyPoses: Pose[] = [];
  const { calls } = peerSkeleton<Pose>({
    kinds: new Int32Array(shapes.length),
    xfA: { x: 0, y: 0, c: 1, s: 0 },
    xfB: { x: 0, y: 0, c: 1, s: 0 },
    setTransform: (t, x, y, c, s) => {
      t.x = x;
      t.y = y;
      t.c = c;
      t.s = s;
    },
    setBodyTransforms: (pose, count) => {
      while (bodyPoses.length < count) bodyPoses.push({ x: 0, y: 0, c: 1, s: 0 });
      for (let i = 0; i < count; i++) {
        const t = bodyPoses[i]!;
        t.x = pose[4 * i]!;
        t.y = pose[4 * i + 1]!;
        t.c = pose[4 * i + 2]!;
        t.s = pose[4 * i + 3]!;
      }
      return bodyPoses;
    },
    run: (a, ta, b, tb, out: PeerManifold2D) => {
      const ca = sideA[a]!;
      const cb = sideB[b]!;
      moveTo(ca, place[a]!, ta);
      moveTo(cb, place[b]!, tb);
      const c = ca.contactCollider(cb, 0, contact);
      if (!c || !(c.distance <= 0)) {
        out.count = 0;
        return 0;
      }
      out.count = 1;
      out.normalX = c.normal1.x;
      out.normalY = c.normal1.y;
      out.px[0] = (c.point1.x + c.point2.x) / 2;
      out.py[0] = (c.point1.y + c.point2.y) / 2;
      out.separation[0] = c.distance;
      return 1;
    },
  });
  return Object.assign(calls, {
    name: 'rapier2d' as const,
    // Every pair of shape types has a contact query in parry.
    supports: () => true,
    dispose: () => {
      bodyPoses = [];
      world.free();
    },
  });
}
