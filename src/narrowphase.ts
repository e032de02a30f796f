// The public entry point: a narrowphase on either backend, same input, same result type.
//
//   const np = await createNarrowphase({ backend: 'gpu' });   // or 'cpu'; `device` to bring your own
//   const { manifolds, stats } = await np.collide(sceneJson);
//
// Input is the scene JSON of the README (validated: errors name the offending item); output is one
// manifold per input pair in input order, or, without `pairs`, one per touching pair found by the
// broadphase, sorted by pair.

import { sweepAndPrune2D } from './broadphase2d.ts';
import { sweepAndPrune3D } from './broadphase3d.ts';
import { collidePacked2D, prepareCpu2D } from './cpu/narrowphase2d.ts';
import { collidePacked3D, prepareCpu3D } from './cpu/narrowphase3d.ts';
import { acquireDevice, describeAdapter } from './gpu/device.ts';
import { GpuNarrowphase2D } from './gpu/narrowphase2d.ts';
import { GpuNarrowphase3D } from './gpu/narrowphase3d.ts';
import { packScene2D, unpackManifolds2D, type ManifoldJson } from './pack2d.ts';
import { packScene3D, unpackManifolds3D } from './pack3d.ts';
import { parseScene, type Scene, type Scene2D, type Scene3D } from './scene.ts';

export type Backend = 'cpu' | 'gpu';

export interface NarrowphaseOptions {
  /** 'gpu' (default) runs the WGSL kernels; 'cpu' runs the TypeScript reference. */
  backend?: Backend;
  /** Your own device (engines); otherwise one is requested from navigator.gpu or Dawn. */
  device?: GPUDevice;
}

export interface CollideStats {
  backend: Backend;
  /** The adapter's name, or "cpu" for the reference. */
  adapter: string;
  pairs: number;
  /** GPU: kernel time from timestamp queries (null without them); CPU: the collide loop. */
  computeMs: number | null;
  /** Including packing, upload and readback. */
  wallMs: number;
}

export interface CollideResult {
  manifolds: ManifoldJson[];
  stats: CollideStats;
}

export interface Narrowphase {
  readonly backend: Backend;
  readonly adapter: string;
  /** Collides a scene (JSON object as in the README, 2D or 3D, or an already parsed Scene2D / Scene3D). */
  collide(scene: unknown): Promise<CollideResult>;
  destroy(): void;
}

function isParsed(scene: unknown): scene is Scene {
  return typeof scene === 'object' && scene !== null && (scene as Scene).bodyShape instanceof Uint32Array;
}

export async function createNarrowphase(options: NarrowphaseOptions = {}): Promise<Narrowphase> {
  const backend = options.backend ?? 'gpu';
  let device: GPUDevice | null = null;
  let timestamps = false;
  let adapter = 'cpu';
  if (backend === 'gpu') {
    if (options.device) {
      device = options.device;
      timestamps = device.features.has('timestamp-query');
      adapter = 'user device';
    } else {
      const acquired = await acquireDevice();
      device = acquired.device;
      timestamps = acquired.timestamps;
      adapter = acquired.adapter.name;
    }
  }
  // Kernels are compiled on first use of their dimension (a 2D user never compiles the 3D kernel).
  let gpu2d: GpuNarrowphase2D | null = device ? await GpuNarrowphase2D.create(device, timestamps) : null;
  let gpu3d: GpuNarrowphase3D | null = null;
  let destroyed = false;

  async function collide2D(scene: Scene2D): Promise<{ manifolds: ManifoldJson[]; pairs: number; computeMs: number | null }> {
    const touchingOnly = scene.pairs === null;
    const pairs = scene.pairs ?? sweepAndPrune2D(scene);
    const packed = packScene2D(scene, pairs);
    let buffer: ArrayBuffer;
    let computeMs: number | null;
    if (device) {
      gpu2d ??= await GpuNarrowphase2D.create(device, timestamps);
      const r = await gpu2d.run(packed);
      buffer = r.manifolds;
      computeMs = r.kernelMs;
    } else {
      const prepared = prepareCpu2D(packed, scene.shapes.length);
      const t0 = performance.now();
      buffer = collidePacked2D(prepared, packed);
      computeMs = performance.now() - t0;
    }
    return { manifolds: unpackManifolds2D(buffer, pairs, touchingOnly), pairs: packed.pairCount, computeMs };
  }

  async function collide3D(scene: Scene3D): Promise<{ manifolds: ManifoldJson[]; pairs: number; computeMs: number | null }> {
    const touchingOnly = scene.pairs === null;
    const pairs = scene.pairs ?? sweepAndPrune3D(scene);
    const packed = packScene3D(scene, pairs);
    let buffer: ArrayBuffer;
    let computeMs: number | null;
    if (device) {
      if (!gpu3d) {
        const created = await GpuNarrowphase3D.create(device, timestamps);
        if (destroyed) created.destroy();
        else gpu3d = created;
      }
      if (!gpu3d) throw new Error('the narrowphase was destroyed');
      const r = await gpu3d.run(packed);
      buffer = r.manifolds;
      computeMs = r.kernelMs;
    } else {
      const prepared = prepareCpu3D(packed);
      const t0 = performance.now();
      buffer = collidePacked3D(prepared, packed);
      computeMs = performance.now() - t0;
    }
    return { manifolds: unpackManifolds3D(buffer, pairs, touchingOnly), pairs: packed.pairCount, computeMs };
  }

  return {
    backend,
    adapter,
    async collide(sceneIn: unknown): Promise<CollideResult> {
      const start = performance.now();
      const scene = isParsed(sceneIn) ? sceneIn : parseScene(sceneIn);
      const r = scene.dim === 3 ? await collide3D(scene) : await collide2D(scene);
      return { manifolds: r.manifolds, stats: { backend, adapter, pairs: r.pairs, computeMs: r.computeMs, wallMs: performance.now() - start } };
    },
    destroy(): void {
      destroyed = true;
      gpu2d?.destroy();
      gpu3d?.destroy();
      gpu2d = null;
      gpu3d = null;
    },
  };
}

export { describeAdapter };
