// The public entry point: a narrowphase on either backend, same input, same result type.
//
//   const np = await createNarrowphase({ backend: 'gpu' });   // or 'cpu'; `device` to bring your own
//   const { manifolds, stats } = await np.collide(sceneJson);
//
// Input is the scene JSON of the README (validated: errors name the offending item); output is one
// manifold per input pair in input order, or, without `pairs`, one per touching pair found by the
// broadphase, sorted by pair.
//
// Device loss: once the GPU device is lost every GPU call rejects with a DeviceLostError naming
// the reason (never a hang, never stale slots); `lost` and `onDeviceLost` report it, and
// `rebuild()` (a new device of our own) or `rebuild(device)` (the engine's new device) recovers.

import { sweepAndPrune2D } from './broadphase2d.ts';
import { sweepAndPrune3D } from './broadphase3d.ts';
import { collidePacked2D, prepareCpu2D } from './cpu/narrowphase2d.ts';
import { collidePacked3D, prepareCpu3D } from './cpu/narrowphase3d.ts';
import { acquireDevice, describeAdapter, guardDeviceLoss, watchDeviceLoss } from './gpu/device.ts';
import { DeviceLostError } from './errors.ts';
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
  /**
   * Called once when the device is lost (not when destroy() or rebuild() retires it on purpose).
   * Then call rebuild() (or rebuild(newDevice) when you passed `device`).
   */
  onDeviceLost?: (error: DeviceLostError) => void;
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
  /**
   * GPU: milliseconds each pair class's pipeline took to compile (src/gpu/pair-classes.ts), for the
   * classes of this dimension compiled so far (a call compiles the classes its pairs need, on first
   * use); empty on the CPU.
   */
  compileMs: Record<string, number>;
}

export interface CollideResult {
  manifolds: ManifoldJson[];
  stats: CollideStats;
}

export interface Narrowphase {
  readonly backend: Backend;
  /** The adapter's name ("user device" for yours, "cpu" for the reference). */
  readonly adapter: string;
  /** The device the kernels run on (null for the CPU backend); a new one after rebuild(). */
  readonly device: GPUDevice | null;
  /** Resolves when the current device is lost (never for the CPU backend); a new promise after rebuild(). */
  readonly lost: Promise<GPUDeviceLostInfo>;
  /**
   * Collides a scene (JSON object as in the README, 2D or 3D, or an already parsed Scene2D /
   * Scene3D). Rejects with DeviceLostError once the device is lost.
   */
  collide(scene: unknown): Promise<CollideResult>;
  /**
   * Moves the narrowphase to a new device: without an argument a new one is acquired (only when
   * the narrowphase acquired its own); with `device`, that one (the engine's new device). Kernels
   * are compiled again; the old device, when it was ours, is destroyed.
   */
  rebuild(device?: GPUDevice): Promise<void>;
  /** Frees the GPU buffers (and destroys the device when the narrowphase acquired it). */
  destroy(): void;
}

function isParsed(scene: unknown): scene is Scene {
  return typeof scene === 'object' && scene !== null && (scene as Scene).bodyShape instanceof Uint32Array;
}

/** One device and what lives on it; replaced as a whole by rebuild(). */
interface GpuState {
  device: GPUDevice;
  /** Whether createNarrowphase acquired the device (then it may acquire another and destroys it at the end). */
  owned: boolean;
  timestamps: boolean;
  adapter: string;
  lost: Promise<GPUDeviceLostInfo>;
  unwatch: () => void;
  gpu2d: GpuNarrowphase2D | null;
  gpu3d: GpuNarrowphase3D | null;
}

/** GPU work on `state`'s device; a loss becomes a DeviceLostError (src/gpu/device.ts). */
function onGpu<T>(state: GpuState, work: () => Promise<T>): Promise<T> {
  return guardDeviceLoss(state.device, work);
}

async function openGpu(device: GPUDevice | undefined, onLost: ((e: DeviceLostError) => void) | undefined): Promise<GpuState> {
  const state: GpuState = device
    ? makeState(device, false, device.features.has('timestamp-query'), 'user device')
    : await acquireDevice().then((a) => makeState(a.device, true, a.timestamps, a.adapter.name));
  state.unwatch = watchDeviceLoss(state.device, (_info, error) => onLost?.(error));
  // Kernels are compiled on first use of their dimension (a 2D user never compiles the 3D kernel).
  state.gpu2d = await onGpu(state, () => GpuNarrowphase2D.create(state.device, state.timestamps));
  return state;
}

function makeState(device: GPUDevice, owned: boolean, timestamps: boolean, adapter: string): GpuState {
  return { device, owned, timestamps, adapter, lost: device.lost, unwatch: () => {}, gpu2d: null, gpu3d: null };
}

function closeGpu(state: GpuState): void {
  state.unwatch();
  state.gpu2d?.destroy();
  state.gpu3d?.destroy();
  state.gpu2d = null;
  state.gpu3d = null;
  if (state.owned) state.device.destroy();
}

const NEVER = new Promise<GPUDeviceLostInfo>(() => {});

export async function createNarrowphase(options: NarrowphaseOptions = {}): Promise<Narrowphase> {
  const backend = options.backend ?? 'gpu';
  let gpu: GpuState | null = backend === 'gpu' ? await openGpu(options.device, options.onDeviceLost) : null;
  let destroyed = false;

  function live(): GpuState {
    if (destroyed || !gpu) throw new Error('the narrowphase was destroyed');
    return gpu;
  }

  async function collide2D(scene: Scene2D): Promise<{ manifolds: ManifoldJson[]; pairs: number; computeMs: number | null; compileMs: Record<string, number> }> {
    const touchingOnly = scene.pairs === null;
    const pairs = scene.pairs ?? sweepAndPrune2D(scene);
    const packed = packScene2D(scene, pairs);
    let buffer: ArrayBuffer;
    let computeMs: number | null;
    if (backend === 'gpu') {
      const st = live();
      const r = await onGpu(st, async () => {
        st.gpu2d ??= await GpuNarrowphase2D.create(st.device, st.timestamps);
        return st.gpu2d.run(packed);
      });
      buffer = r.manifolds;
      computeMs = r.kernelMs;
    } else {
      const prepared = prepareCpu2D(packed, scene.shapes.length);
      const t0 = performance.now();
      buffer = collidePacked2D(prepared, packed);
      computeMs = performance.now() - t0;
    }
    const compileMs = { ...(gpu?.gpu2d?.compileMs ?? {}) };
    return { manifolds: unpackManifolds2D(buffer, pairs, touchingOnly), pairs: packed.pairCount, computeMs, compileMs };
  }

  async function collide3D(scene: Scene3D): Promise<{ manifolds: ManifoldJson[]; pairs: number; computeMs: number | null; compileMs: Record<string, number> }> {
    const touchingOnly = scene.pairs === null;
    const pairs = scene.pairs ?? sweepAndPrune3D(scene);
    const packed = packScene3D(scene, pairs);
    let buffer: ArrayBuffer;
    let computeMs: number | null;
    if (backend === 'gpu') {
      const st = live();
      const r = await onGpu(st, async () => {
        if (!st.gpu3d) {
          const created = await GpuNarrowphase3D.create(st.device, st.timestamps);
          // destroy() or rebuild() may have retired this device while the kernel compiled.
          if (gpu !== st) {
            created.destroy();
            throw new Error('the narrowphase was destroyed or rebuilt during this call');
          }
          st.gpu3d = created;
        }
        return st.gpu3d.run(packed);
      });
      buffer = r.manifolds;
      computeMs = r.kernelMs;
    } else {
      const prepared = prepareCpu3D(packed);
      const t0 = performance.now();
      buffer = collidePacked3D(prepared, packed);
      computeMs = performance.now() - t0;
    }
    const compileMs = { ...(gpu?.gpu3d?.compileMs ?? {}) };
    return { manifolds: unpackManifolds3D(buffer, pairs, touchingOnly), pairs: packed.pairCount, computeMs, compileMs };
  }

  return {
    backend,
    get adapter(): string {
      return gpu?.adapter ?? 'cpu';
    },
    get device(): GPUDevice | null {
      return gpu?.device ?? null;
    },
    get lost(): Promise<GPUDeviceLostInfo> {
      return gpu?.lost ?? NEVER;
    },
    async collide(sceneIn: unknown): Promise<CollideResult> {
      const start = performance.now();
      const scene = isParsed(sceneIn) ? sceneIn : parseScene(sceneIn);
      const r = scene.dim === 3 ? await collide3D(scene) : await collide2D(scene);
      return { manifolds: r.manifolds, stats: { backend, adapter: gpu?.adapter ?? 'cpu', pairs: r.pairs, computeMs: r.computeMs, wallMs: performance.now() - start, compileMs: r.compileMs } };
    },
    async rebuild(device?: GPUDevice): Promise<void> {
      if (backend === 'cpu') return;
      const old = live();
      if (!device && !old.owned) {
        throw new Error('this narrowphase runs on your device: pass the new one, rebuild(device)');
      }
      const next = await openGpu(device, options.onDeviceLost);
      if (destroyed || gpu !== old) {
        closeGpu(next);
        throw new Error('the narrowphase was destroyed or rebuilt during rebuild()');
      }
      closeGpu(old);
      gpu = next;
    },
    destroy(): void {
      destroyed = true;
      if (gpu) closeGpu(gpu);
      gpu = null;
    },
  };
}

export { describeAdapter };
