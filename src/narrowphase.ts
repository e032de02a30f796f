// The public entry point: a narrowphase on either backend, same input, same result type.
//
//   const np = await createNarrowphase({ backend: 'gpu' });   // or 'cpu'; `device` to bring your own
//   const { manifolds, stats } = await np.collide(sceneJson);
//
// Input is the scene JSON of the README (validated: errors name the offending item); output is one
// manifold per input pair in input order, or, without `pairs`, one per touching pair found by the
// broadphase, sorted by pair.

import { sweepAndPrune2D } from './broadphase2d.ts';
import { collidePacked2D, prepareCpu2D } from './cpu/narrowphase2d.ts';
import { acquireDevice, describeAdapter } from './gpu/device.ts';
import { GpuNarrowphase2D } from './gpu/narrowphase2d.ts';
import { packScene2D, unpackManifolds2D, type ManifoldJson } from './pack2d.ts';
import { parseScene, type Scene2D } from './scene.ts';

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
  /** Collides a scene (JSON object as in the README, or an already parsed Scene2D). */
  collide(scene: unknown): Promise<CollideResult>;
  destroy(): void;
}

function isParsed(scene: unknown): scene is Scene2D {
  return typeof scene === 'object' && scene !== null && (scene as Scene2D).bodyShape instanceof Uint32Array;
}

export async function createNarrowphase(options: NarrowphaseOptions = {}): Promise<Narrowphase> {
  const backend = options.backend ?? 'gpu';
  let gpu: GpuNarrowphase2D | null = null;
  let adapter = 'cpu';
  if (backend === 'gpu') {
    if (options.device) {
      gpu = await GpuNarrowphase2D.create(options.device);
      adapter = 'user device';
    } else {
      const acquired = await acquireDevice();
      gpu = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps);
      adapter = acquired.adapter.name;
    }
  }
  return {
    backend,
    adapter,
    async collide(sceneIn: unknown): Promise<CollideResult> {
      const start = performance.now();
      const scene = isParsed(sceneIn) ? sceneIn : parseScene(sceneIn);
      const touchingOnly = scene.pairs === null;
      const pairs = scene.pairs ?? sweepAndPrune2D(scene);
      const packed = packScene2D(scene, pairs);
      let buffer: ArrayBuffer;
      let computeMs: number | null;
      if (gpu) {
        const r = await gpu.run(packed);
        buffer = r.manifolds;
        computeMs = r.kernelMs;
      } else {
        const prepared = prepareCpu2D(packed, scene.shapes.length);
        const t0 = performance.now();
        buffer = collidePacked2D(prepared, packed);
        computeMs = performance.now() - t0;
      }
      const manifolds = unpackManifolds2D(buffer, pairs, touchingOnly);
      return { manifolds, stats: { backend, adapter, pairs: packed.pairCount, computeMs, wallMs: performance.now() - start } };
    },
    destroy(): void {
      gpu?.destroy();
    },
  };
}

export { describeAdapter };
