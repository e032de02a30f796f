// Shared scaffolding of the 2D tests that run scene JSON through `createNarrowphase` on both
// backends (seed000, fixtures2d, ids2d, broadphase2d, validation2d): one narrowphase per backend
// for the test file, and the conventions every one of them reads manifolds by.
//
// Conventions: the normal points from A (pair[0]) to B; a point's position is midway between the
// two surfaces, so the point on A is position + depth/2·normal and the point on B is
// position − depth/2·normal; id = (feature of A) << 8 | (feature of B).
import { afterAll, beforeAll } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../../src/gpu/device.ts';
import { createNarrowphase, type Backend, type Narrowphase } from '../../src/narrowphase.ts';
import type { ManifoldJson } from '../../src/pack2d.ts';

export type V = [number, number];
export type Json = Record<string, unknown>;

export const BACKENDS: Backend[] = ['cpu', 'gpu'];

/** The common ground of the fixtures: a box with half extents (4, 0.5), top face y = 0.5 at the origin. */
export const GROUND: Json = { type: 'box', halfExtents: [4, 0.5] };

export interface Narrowphases {
  /** One narrowphase per backend; filled in by the file's first beforeAll. */
  readonly np: Record<Backend, Narrowphase>;
  /** The device the gpu narrowphase runs on (once beforeAll has run). */
  device(): AcquiredDevice['device'];
  /** The manifolds of `scene` on `backend`. */
  collide(backend: Backend, scene: unknown): Promise<ManifoldJson[]>;
}

/**
 * Registers the calling test file's beforeAll (acquire a device, create a cpu and a gpu
 * narrowphase) and afterAll (destroy both and the device). Call it at the top level of the file,
 * before any beforeAll that needs the narrowphases (beforeAll hooks run in registration order).
 */
export function useNarrowphases(): Narrowphases {
  let gpu: AcquiredDevice | undefined;
  const np = {} as Record<Backend, Narrowphase>;

  beforeAll(async () => {
    gpu = await acquireDevice();
    np.cpu = await createNarrowphase({ backend: 'cpu' });
    np.gpu = await createNarrowphase({ backend: 'gpu', device: gpu.device });
  });

  afterAll(() => {
    np.cpu?.destroy();
    np.gpu?.destroy();
    gpu?.device.destroy();
  });

  return {
    np,
    device: () => {
      if (!gpu) throw new Error('useNarrowphases: no device before beforeAll has run');
      return gpu.device;
    },
    collide: async (backend, scene) => (await np[backend].collide(scene)).manifolds,
  };
}

/** Distance between two 2D points. */
export function dist(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!);
}

/** Point i of manifold m on A's surface: position + depth/2·normal. */
export function onA(m: ManifoldJson, i: number): V {
  const p = m.points[i]!;
  return [
    p.position[0]! + 0.5 * p.depth * m.normal[0]!,
    p.position[1]! + 0.5 * p.depth * m.normal[1]!,
  ];
}

/** Point i of manifold m on B's surface: position − depth/2·normal. */
export function onB(m: ManifoldJson, i: number): V {
  const p = m.points[i]!;
  return [
    p.position[0]! - 0.5 * p.depth * m.normal[0]!,
    p.position[1]! - 0.5 * p.depth * m.normal[1]!,
  ];
}

/** The id of the same point in the swapped pair [B, A]: the two feature bytes exchanged. */
export function swappedId(id: number): number {
  return ((id & 0xff) << 8) | ((id >> 8) & 0xff);
}
