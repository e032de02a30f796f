// rapier3d (@dimforge/rapier3d-compat: Rust/parry compiled to WebAssembly, f32) as a 3D peer.
//
// Single-pair paths. rapier's JS API has no standalone manifold function: parry's
// `contact_manifolds` runs only inside the world's narrowphase. Two ways in, both here:
//
//   'contact' (default, what the benchmark times): `Collider.contactCollider(other, prediction,
//     target)`, parry's single-contact query (SAT for cuboids, GJK/EPA for convex polyhedra) on
//     two colliders that are not attached to bodies and are moved per pair with
//     setTranslation/setRotation (plain numbers into WASM, no allocation; the result goes into a
//     reused ShapeContact). It reports the deepest contact only: the normal, the penetration
//     depth and one point on each surface, so this peer's manifold has one point (midway).
//     Measured on this machine that is the fastest correct path, 10–30× the 'manifold' one.
//   'manifold': the full contact manifold of rapier's own narrowphase. The two colliders of the
//     pair (one per shape and side, prebuilt, disabled when not in use) hang on two
//     kinematic bodies that are teleported per pair; `world.step()` then runs the narrowphase on
//     that one pair and `world.contactPair` reads the manifold (all its points with distance ≤ 0).
//     Most of the time goes into the step's pipeline overhead, not the contact computation.
//
// Shapes: boxes → cuboid, hulls → convexHull of the hull's vertices (rapier rebuilds the same
// hull), spheres → ball. All in the body frame (our shape centre added back), so a body's
// position and rotation place the rapier collider exactly where our backends place the shape.

import RAPIER from '@dimforge/rapier3d-compat';
import rapierPackage from '../../node_modules/@dimforge/rapier3d-compat/package.json' with { type: 'json' };
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

export type RapierMode3D = 'contact' | 'manifold';

export interface RapierPeer3D extends Peer3D {
  readonly name: 'rapier3d';
  readonly mode: RapierMode3D;
}

let initPromise: Promise<void> | undefined;

/** Loads rapier's WASM (once per process). */
export function loadRapier3D(): Promise<void> {
  initPromise ??= RAPIER.init();
  return initPromise;
}

/** rapier3d-compat's version (its package.json, read at build time where bundled). */
export const rapierVersion: string = rapierPackage.version;

function colliderDesc(s: Shape3D, i: number): RAPIER.ColliderDesc {
  if (s.kind === SHAPE_KIND_3D.box) {
    const [hx, hy, hz] = boxHalfExtents(s);
    if (!centred(s)) throw new Error(`shapes[${i}]: box with an offset centre`);
    return RAPIER.ColliderDesc.cuboid(hx, hy, hz);
  }
  if (s.kind === SHAPE_KIND_3D.hull) {
    const desc = RAPIER.ColliderDesc.convexHull(Float32Array.from(bodyFrameVertices(s)));
    if (!desc) throw new Error(`shapes[${i}]: rapier could not build the convex hull`);
    return desc;
  }
  if (s.kind === SHAPE_KIND_3D.sphere) {
    if (!centred(s))
      throw new Error(`shapes[${i}]: sphere with an offset centre (not supported by this peer)`);
    return RAPIER.ColliderDesc.ball(s.radius);
  }
  throw new Error(`shapes[${i}]: kind ${s.kind} is not supported by the rapier3d peer`);
}

export async function createRapierPeer3D(
  shapes: readonly Shape3D[],
  options: { mode?: RapierMode3D } = {},
): Promise<RapierPeer3D> {
  await loadRapier3D();
  const mode = options.mode ?? 'contact';
  const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const supports = (): boolean => true;
  const pw = new Float64Array(6);

  if (mode === 'contact') {
    // Two free colliders per shape (A's side and B's side: a pair may use one shape twice).
    const sideA = shapes.map((s, i) => world.createCollider(colliderDesc(s, i)));
    const sideB = shapes.map((s, i) => world.createCollider(colliderDesc(s, i)));
    const contact = new RAPIER.ShapeContact(
      0,
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 0 },
    );
    const run = (
      a: number,
      bodies: Float64Array,
      oa: number,
      b: number,
      ob: number,
      out: PeerManifold3D,
    ): number => {
      const ca = sideA[a]!;
      const cb = sideB[b]!;
      ca.setTranslation({ x: bodies[oa]!, y: bodies[oa + 1]!, z: bodies[oa + 2]! });
      ca.setRotation({
        x: bodies[oa + 3]!,
        y: bodies[oa + 4]!,
        z: bodies[oa + 5]!,
        w: bodies[oa + 6]!,
      });
      cb.setTranslation({ x: bodies[ob]!, y: bodies[ob + 1]!, z: bodies[ob + 2]! });
      cb.setRotation({
        x: bodies[ob + 3]!,
        y: bodies[ob + 4]!,
        z: bodies[ob + 5]!,
        w: bodies[ob + 6]!,
      });
      const c = ca.contactCollider(cb, 0, contact);
      if (!c || !(c.distance <= 0)) {
        out.count = 0;
        return 0;
      }
      beginManifold3D(out, c.normal1.x, c.normal1.y, c.normal1.z, -c.distance);
      pushPointPair3D(out, c.point1.x, c.point1.y, c.point1.z, c.point2.x, c.point2.y, c.point2.z);
      return out.count;
    };
    const peer = peerSkeleton3D('rapier3d', supports, run, () => world.free());
    return Object.assign(peer, { name: 'rapier3d' as const, mode });
  }

  // 'manifold': kinematic bodies teleported per pair, one world step per pair.
  const bodyA = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased());
  const bodyB = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased());
  const attach = (body: RAPIER.RigidBody) =>
    shapes.map((s, i) => {
      const c = world.createCollider(
        colliderDesc(s, i).setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.ALL),
        body,
      );
      c.setEnabled(false);
      return c;
    });
  const sideA = attach(bodyA);
  const sideB = attach(bodyB);
  let current: PeerManifold3D | null = null;
  let pa: Float64Array = new Float64Array(0);
  let oA = 0;
  let oB = 0;
  const read = (man: RAPIER.TempContactManifold, flipped: boolean): void => {
    const out = current!;
    const n = man.numContacts();
    if (n === 0) return;
    let deepest = -Infinity;
    for (let k = 0; k < n; k++) deepest = Math.max(deepest, -man.contactDist(k));
    if (!(deepest >= 0)) return; // speculative contacts only (rapier's prediction distance)
    const nn = man.normal();
    const s = flipped ? -1 : 1;
    beginManifold3D(out, s * nn.x, s * nn.y, s * nn.z, deepest);
    for (let k = 0; k < n; k++) {
      if (man.contactDist(k) > 0) continue;
      // Local points: in the frames of the manifold's first and second collider (= body frames).
      const l1 = man.localContactPoint1(k)!;
      const l2 = man.localContactPoint2(k)!;
      const [o1, o2] = flipped ? [oB, oA] : [oA, oB];
      rotate3(pa[o1 + 3]!, pa[o1 + 4]!, pa[o1 + 5]!, pa[o1 + 6]!, l1.x, l1.y, l1.z, pw, 0);
      rotate3(pa[o2 + 3]!, pa[o2 + 4]!, pa[o2 + 5]!, pa[o2 + 6]!, l2.x, l2.y, l2.z, pw, 3);
      const w1x = pw[0]! + pa[o1]!,
        w1y = pw[1]! + pa[o1 + 1]!,
        w1z = pw[2]! + pa[o1 + 2]!;
      const w2x = pw[3]! + pa[o2]!,
        w2y = pw[4]! + pa[o2 + 1]!,
        w2z = pw[5]! + pa[o2 + 2]!;
      if (flipped) pushPointPair3D(out, w2x, w2y, w2z, w1x, w1y, w1z);
      else pushPointPair3D(out, w1x, w1y, w1z, w2x, w2y, w2z);
    }
  };
  const run = (
    a: number,
    bodies: Float64Array,
    oa: number,
    b: number,
    ob: number,
    out: PeerManifold3D,
  ): number => {
    const ca = sideA[a]!;
    const cb = sideB[b]!;
    ca.setEnabled(true);
    cb.setEnabled(true);
    bodyA.setTranslation({ x: bodies[oa]!, y: bodies[oa + 1]!, z: bodies[oa + 2]! }, false);
    bodyA.setRotation(
      { x: bodies[oa + 3]!, y: bodies[oa + 4]!, z: bodies[oa + 5]!, w: bodies[oa + 6]! },
      false,
    );
    bodyB.setTranslation({ x: bodies[ob]!, y: bodies[ob + 1]!, z: bodies[ob + 2]! }, false);
    bodyB.setRotation(
      { x: bodies[ob + 3]!, y: bodies[ob + 4]!, z: bodies[ob + 5]!, w: bodies[ob + 6]! },
      false,
    );
    world.step();
    out.count = 0;
    current = out;
    pa = bodies;
    oA = oa;
    oB = ob;
    world.contactPair(ca, cb, read);
    ca.setEnabled(false);
    cb.setEnabled(false);
    return out.count;
  };
  const peer = peerSkeleton3D('rapier3d', supports, run, () => world.free());
  return Object.assign(peer, { name: 'rapier3d' as const, mode });
}
