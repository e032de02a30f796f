// cannon-es (JavaScript, f64) as a 3D peer.
//
// Single-pair path: the world narrowphase's own pair function, called directly as
// `Narrowphase.getContacts` calls it for one shape pair — the resolver `narrowphase[typeA | typeB]`
// (boxBox → convexConvex on the box's polyhedron, convexConvex: findSeparatingAxis then
// clipAgainstHull, sphereConvex, sphereBox), with the lower shape type first and after the same
// bounding-sphere early-out. Contact equations are recycled into the narrowphase's pool after each
// pair; friction is off (friction 0), so none are made. cannon itself still allocates inside
// clipAgainstHull (result arrays and contact point objects) on every touching pair.
//
// Limits. cannon's clipping is right for boxes only: ConvexPolyhedron.clipFaceAgainstHull clips
// the incident face against the planes of the hull's faces that share a vertex with the
// reference face (pairing the i-th edge with the i-th such face, in face order), not against the
// reference face's side planes. For a box those faces are exactly the four side faces; for a
// general hull they are slanted and partly the wrong ones, so its hull–hull points and depths are
// not comparable (normals are: findSeparatingAxis is a plain SAT). sphereConvex takes the first
// hull vertex found inside the sphere as the contact, not the deepest feature. The benchmark
// therefore shows cannon-es on hull–hull and sphere–hull for speed only, labelled, and does not
// cross-check its touching count there. Box–box goes through the same code on the box's 6-face
// polyhedron; the agreement test (test/agreement3d.test.ts) checks its normals and depths.
//
// Manifold: ContactEquation ni points from bi to bj (flipped when the resolver took B first);
// the points are bi.position + ri and bj.position + rj, midway reported.

import * as CANNON from 'cannon-es';
import cannonPackage from '../../node_modules/cannon-es/package.json' with { type: 'json' };
import { SHAPE_KIND_3D } from '../../src/constants3d.ts';
import type { Shape3D } from '../../src/shapes3d.ts';
import {
  beginManifold3D,
  boxHalfExtents,
  centred,
  peerSkeleton3D,
  pushPointPair3D,
  rotate3,
  type Peer3D,
  type PeerManifold3D,
} from './peer3d.ts';

export const cannonVersion: string = cannonPackage.version;

export interface CannonPeer3D extends Peer3D {
  readonly name: 'cannon-es';
}

function cannonShape(s: Shape3D, i: number): CANNON.Shape {
  if (s.kind === SHAPE_KIND_3D.box) {
    if (!centred(s)) throw new Error(`shapes[${i}]: box with an offset centre`);
    const [hx, hy, hz] = boxHalfExtents(s);
    return new CANNON.Box(new CANNON.Vec3(hx, hy, hz));
  }
  if (s.kind === SHAPE_KIND_3D.hull) {
    // Around the hull's centre (the mean of its vertices, always inside; a thin hull need not
    // contain its body origin, and cannon's face checks assume the origin is inside).
    const v = s.vertices;
    const vertices = Array.from(
      { length: s.vertexCount },
      (_, k) => new CANNON.Vec3(v[3 * k]!, v[3 * k + 1]!, v[3 * k + 2]!),
    );
    // Our faces: counter-clockwise seen from outside, as cannon wants them.
    const faces = Array.from({ length: s.faceCount }, (_, f) =>
      Array.from({ length: s.faceSize[f]! }, (_, k) => s.faceVertices[s.faceFirst[f]! + k]!),
    );
    return new CANNON.ConvexPolyhedron({ vertices, faces });
  }
  if (s.kind === SHAPE_KIND_3D.sphere) {
    if (!centred(s))
      throw new Error(`shapes[${i}]: sphere with an offset centre (not supported by this peer)`);
    return new CANNON.Sphere(s.radius);
  }
  throw new Error(`shapes[${i}]: kind ${s.kind} is not supported by the cannon-es peer`);
}

type Resolver = (
  si: CANNON.Shape,
  sj: CANNON.Shape,
  xi: CANNON.Vec3,
  xj: CANNON.Vec3,
  qi: CANNON.Quaternion,
  qj: CANNON.Quaternion,
  bi: CANNON.Body,
  bj: CANNON.Body,
  rsi?: CANNON.Shape | null,
  rsj?: CANNON.Shape | null,
  justTest?: boolean,
) => unknown;

export function createCannonPeer3D(shapes: readonly Shape3D[]): CannonPeer3D {
  const built = shapes.map(cannonShape);
  // Hull centres in the body frame: a body's cannon position is its position + R · centre.
  const centres = Float64Array.from(
    shapes.flatMap((s) => (s.kind === SHAPE_KIND_3D.hull ? s.center : [0, 0, 0])),
  );
  const offset = new Float64Array(3);
  const place = (body: CANNON.Body, shape: number, bodies: Float64Array, o: number): void => {
    const qx = bodies[o + 3]!,
      qy = bodies[o + 4]!,
      qz = bodies[o + 5]!,
      qw = bodies[o + 6]!;
    body.quaternion.set(qx, qy, qz, qw);
    const cx = centres[3 * shape]!,
      cy = centres[3 * shape + 1]!,
      cz = centres[3 * shape + 2]!;
    if (cx === 0 && cy === 0 && cz === 0) {
      body.position.set(bodies[o]!, bodies[o + 1]!, bodies[o + 2]!);
    } else {
      rotate3(qx, qy, qz, qw, cx, cy, cz, offset, 0);
      body.position.set(
        bodies[o]! + offset[0]!,
        bodies[o + 1]! + offset[1]!,
        bodies[o + 2]! + offset[2]!,
      );
    }
  };
  const world = new CANNON.World();
  const np = world.narrowphase as unknown as {
    result: CANNON.ContactEquation[];
    frictionResult: unknown[];
    contactPointPool: CANNON.ContactEquation[];
    currentContactMaterial: CANNON.ContactMaterial;
    [key: number]: Resolver | undefined;
  };
  np.currentContactMaterial = new CANNON.ContactMaterial(
    new CANNON.Material(),
    new CANNON.Material(),
    { friction: 0, restitution: 0 },
  );
  np.result = [];
  np.frictionResult = [];
  const bodyA = new CANNON.Body({ mass: 1 });
  const bodyB = new CANNON.Body({ mass: 1 });

  const supports = (a: number, b: number): boolean =>
    np[built[a]!.type | built[b]!.type] !== undefined;

  function run(
    a: number,
    bodies: Float64Array,
    oa: number,
    b: number,
    ob: number,
    out: PeerManifold3D,
  ): number {
    const sa = built[a]!;
    const sb = built[b]!;
    place(bodyA, a, bodies, oa);
    place(bodyB, b, bodies, ob);
    out.count = 0;
    if (
      bodyA.position.distanceTo(bodyB.position) >
      sa.boundingSphereRadius + sb.boundingSphereRadius
    )
      return 0;
    const resolver = np[sa.type | sb.type];
    if (!resolver)
      throw new Error(
        `cannon-es has no narrowphase function for shape types ${sa.type} and ${sb.type}`,
      );
    const result = np.result;
    result.length = 0;
    if (sa.type <= sb.type)
      resolver.call(
        np,
        sa,
        sb,
        bodyA.position,
        bodyB.position,
        bodyA.quaternion,
        bodyB.quaternion,
        bodyA,
        bodyB,
        sa,
        sb,
        false,
      );
    else
      resolver.call(
        np,
        sb,
        sa,
        bodyB.position,
        bodyA.position,
        bodyB.quaternion,
        bodyA.quaternion,
        bodyB,
        bodyA,
        sb,
        sa,
        false,
      );
    const n = result.length;
    if (n > 0) {
      const c0 = result[0]!;
      const s = c0.bi === bodyA ? 1 : -1;
      let deepest = -Infinity;
      for (const c of result) {
        const d = -(
          (c.bj.position.x + c.rj.x - c.bi.position.x - c.ri.x) * c.ni.x +
          (c.bj.position.y + c.rj.y - c.bi.position.y - c.ri.y) * c.ni.y +
          (c.bj.position.z + c.rj.z - c.bi.position.z - c.ri.z) * c.ni.z
        );
        deepest = Math.max(deepest, d);
      }
      beginManifold3D(out, s * c0.ni.x, s * c0.ni.y, s * c0.ni.z, deepest);
      for (const c of result) {
        const ix = c.bi.position.x + c.ri.x,
          iy = c.bi.position.y + c.ri.y,
          iz = c.bi.position.z + c.ri.z;
        const jx = c.bj.position.x + c.rj.x,
          jy = c.bj.position.y + c.rj.y,
          jz = c.bj.position.z + c.rj.z;
        if (c.bi === bodyA) pushPointPair3D(out, ix, iy, iz, jx, jy, jz);
        else pushPointPair3D(out, jx, jy, jz, ix, iy, iz);
        np.contactPointPool.push(c);
      }
      result.length = 0;
    }
    return out.count;
  }

  const peer = peerSkeleton3D('cannon-es', supports, run, () => {});
  return Object.assign(peer, { name: 'cannon-es' as const });
}
