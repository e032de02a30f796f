// The public entry point: a narrowphase on either backend, same input, same result type.
//
//   const np = await createNarrowphase({ backend: 'gpu' });   // or 'cpu'; `device` to bring your own
//   const { manifolds, stats } = await np.collide(sceneJson);
//
// Input is the scene JSON of the README (validated: errors name the offending item); output is one
// manifold per input pair in input order, or, without `pairs`, one per touching pair found by the
// broadphase, sorted by pair. Any number of pairs (runs beyond one binding go in batches); pairs far
// from the origin are computed relative to an origin of their own (src/precision.ts).
//
// Calls in flight: each resolves with what it gives alone (the GPU runners queue their runs).
// destroy() refuses later calls at once and frees the GPU buffers (and a device of our own) when
// the calls in flight have settled; rebuild() moves later calls to the new device and retires the
// old one likewise.
//
// Device loss: once the GPU device is lost every GPU call rejects with a DeviceLostError naming
// the reason (never a hang, never stale slots); `lost` and `onDeviceLost` report it, and
// `rebuild()` (a new device of our own) or `rebuild(device)` (the engine's new device) recovers.

import { sweepAndPrune2D } from './broadphase2d.ts';
import { sweepAndPrune3D } from './broadphase3d.ts';
import { collidePacked2D, prepareCpu2D } from './cpu/narrowphase2d.ts';
import { collidePacked3D, prepareCpu3D } from './cpu/narrowphase3d.ts';
import { acquireDevice, describeAdapter, guardDeviceLoss, watchDeviceLoss } from './gpu/device.ts';
import { DeviceLostError, InputError, shown } from './errors.ts';
import { GpuNarrowphase2D } from './gpu/narrowphase2d.ts';
import { GpuNarrowphase3D } from './gpu/narrowphase3d.ts';
import { checkKeys } from './keys.ts';
import { LAYOUT_2D } from './layout2d.ts';
import { LAYOUT_3D } from './layout3d.ts';
import {
  countManifolds,
  eachManifold,
  packScene2D,
  type ManifoldJson,
  type ManifoldWords,
  type Packed2D,
} from './pack2d.ts';
import { packScene3D, type Packed3D } from './pack3d.ts';
import { rebaseFarPairs } from './precision.ts';
import { parseScene, type Scene, type Scene2D, type Scene3D } from './scene.ts';

export type Backend = 'cpu' | 'gpu';

export interface NarrowphaseOptions {
  /** 'gpu' (default) runs the WGSL kernels; 'cpu' runs the TypeScript reference. */
  backend?: Backend;
  /** Your own device (engines); otherwise one is requested from navigator.gpu or Dawn. GPU backend only. */
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
   * Pairs lying beyond F32_WORLD_RANGE (4096) × their smaller shape's size from the origin, which
   * were computed relative to body A's position to keep f32 precision (src/precision.ts).
   */
  rebasedPairs: number;
  /**
   * GPU: milliseconds each pair class's pipeline took to compile (src/gpu/pair-classes.ts), for the
   * classes of this dimension compiled so far (a call compiles the classes its pairs need, on first
   * use), and as `<class>.closest` a class's closest pass, compiled when a pair first asks for it;
   * empty on the CPU.
   */
  compileMs: Record<string, number>;
}

export interface CollideResult {
  manifolds: ManifoldJson[];
  stats: CollideStats;
}

/** collideLazy's manifolds: made one at a time from the result slots as they are iterated. */
export interface LazyManifolds extends Iterable<ManifoldJson> {
  /** How many manifolds iterating gives. */
  readonly length: number;
}

export interface LazyCollideResult {
  manifolds: LazyManifolds;
  stats: CollideStats;
}

export interface Narrowphase {
  readonly backend: Backend;
  /** The adapter's name ("user device" for yours, "cpu" for the reference). */
  readonly adapter: string;
  /** The device the kernels run on (null for the CPU backend); a new one after rebuild(). */
  readonly device: GPUDevice | null;
  /**
   * Resolves when the current device is lost (never for the CPU backend); a new promise after
   * rebuild(); after destroy(), the last device's.
   */
  readonly lost: Promise<GPUDeviceLostInfo>;
  /**
   * Collides a scene (JSON object as in the README, 2D or 3D, or an already parsed Scene2D /
   * Scene3D). Rejects with DeviceLostError once the device is lost.
   */
  collide(scene: unknown): Promise<CollideResult>;
  /**
   * collide(), but the manifolds are made from the result slots one at a time as they are
   * iterated: a run of millions of pairs never holds them all as objects (the CLI streams them).
   */
  collideLazy(scene: unknown): Promise<LazyCollideResult>;
  /**
   * Moves the narrowphase to a new device: without an argument a new one is acquired (only when
   * the narrowphase acquired its own); with `device`, that one (the engine's new device). Kernels
   * are compiled again; the old device, when it was ours, is destroyed once the calls in flight on
   * it have settled. The CPU backend has no device to move: rejected.
   */
  rebuild(device?: GPUDevice): Promise<void>;
  /**
   * Refuses every later call (collide, rebuild); frees the GPU buffers, and destroys the device
   * when the narrowphase acquired it, once the calls in flight have settled.
   */
  destroy(): void;
}

function isParsed(scene: unknown): scene is Scene {
  return (
    typeof scene === 'object' && scene !== null && (scene as Scene).bodyShape instanceof Uint32Array
  );
}

/** Whether `x` looks like a GPUDevice (what the narrowphase calls on it), not any object. */
function isGpuDevice(x: unknown): x is GPUDevice {
  const d = x as Partial<GPUDevice> | null;
  return (
    typeof d === 'object' &&
    d !== null &&
    typeof d.createBuffer === 'function' &&
    typeof d.createCommandEncoder === 'function' &&
    typeof d.queue === 'object' &&
    typeof d.limits === 'object' &&
    typeof d.features === 'object' &&
    typeof d.lost?.then === 'function'
  );
}

/** The options, checked: an InputError names the option and the reason (nothing is guessed). */
function readOptions(options: unknown): {
  backend: Backend;
  device: GPUDevice | undefined;
  onDeviceLost: ((e: DeviceLostError) => void) | undefined;
} {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InputError(
      'options',
      `must be an object { backend?, device?, onDeviceLost? }, got ${shown(options)}`,
    );
  }
  checkKeys('options', options, {
    what: "a narrowphase's options",
    keys: ['backend', 'device', 'onDeviceLost'],
  });
  const o = options as Record<string, unknown>;
  const backend = o.backend ?? 'gpu';
  if (backend !== 'gpu' && backend !== 'cpu')
    throw new InputError('options.backend', `must be "gpu" or "cpu", got ${shown(backend)}`);
  if (o.device !== undefined) {
    if (backend === 'cpu')
      throw new InputError(
        'options.device',
        'is for the GPU backend; the CPU backend takes no device',
      );
    if (!isGpuDevice(o.device))
      throw new InputError(
        'options.device',
        `must be a GPUDevice (from adapter.requestDevice()), got ${shown(o.device)}`,
      );
  }
  if (o.onDeviceLost !== undefined && typeof o.onDeviceLost !== 'function') {
    throw new InputError(
      'options.onDeviceLost',
      `must be a function, got ${shown(o.onDeviceLost)}`,
    );
  }
  return {
    backend,
    device: o.device as GPUDevice | undefined,
    onDeviceLost: o.onDeviceLost as ((e: DeviceLostError) => void) | undefined,
  };
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
  gpu2D: Promise<GpuNarrowphase2D> | null;
  gpu3D: Promise<GpuNarrowphase3D> | null;
  /** Calls in flight on this device: it is closed when they have settled. */
  inFlight: Set<Promise<unknown>>;
}

async function openGpu(
  device: GPUDevice | undefined,
  onLost: ((e: DeviceLostError) => void) | undefined,
): Promise<GpuState> {
  const state: GpuState = device
    ? makeState(device, false, device.features.has('timestamp-query'), 'user device')
    : await acquireDevice().then((a) => makeState(a.device, true, a.timestamps, a.adapter.name));
  state.unwatch = watchDeviceLoss(state.device, (_info, error) => onLost?.(error));
  // Kernels are compiled on first use of their dimension (a 2D user never compiles the 3D kernel).
  await runner2D(state);
  return state;
}

function makeState(
  device: GPUDevice,
  owned: boolean,
  timestamps: boolean,
  adapter: string,
): GpuState {
  return {
    device,
    owned,
    timestamps,
    adapter,
    lost: device.lost,
    unwatch: () => {},
    gpu2D: null,
    gpu3D: null,
    inFlight: new Set(),
  };
}

/** The state's 2D runner, compiled once (concurrent first calls share the compile). */
function runner2D(state: GpuState): Promise<GpuNarrowphase2D> {
  state.gpu2D ??= guardDeviceLoss(state.device, () =>
    GpuNarrowphase2D.create(state.device, state.timestamps),
  );
  state.gpu2D.catch(() => (state.gpu2D = null));
  return state.gpu2D;
}

function runner3D(state: GpuState): Promise<GpuNarrowphase3D> {
  state.gpu3D ??= guardDeviceLoss(state.device, () =>
    GpuNarrowphase3D.create(state.device, state.timestamps),
  );
  state.gpu3D.catch(() => (state.gpu3D = null));
  return state.gpu3D;
}

/** Frees the state's buffers (and its device when ours) once its calls in flight have settled. */
function retireGpu(state: GpuState): void {
  state.unwatch();
  void Promise.allSettled([...state.inFlight]).then(() => {
    for (const runner of [state.gpu2D, state.gpu3D])
      runner?.then(
        (r) => r.destroy(),
        () => {},
      );
    state.gpu2D = null;
    state.gpu3D = null;
    if (state.owned) state.device.destroy();
  });
}

/** What a run leaves for unpacking: the slots and how to read them. */
interface Slots {
  buffer: ArrayBuffer;
  /** The scene's pairs (as the manifolds name them). */
  pairs: Uint32Array;
  touchingOnly: boolean;
  origins: Float64Array | null;
  words: ManifoldWords;
  dim: 2 | 3;
  computeMs: number | null;
  rebasedPairs: number;
  /** The dimension's pair classes compiled so far, and their compile times (GPU). */
  compileMs: Record<string, number>;
}

const NEVER = new Promise<GPUDeviceLostInfo>(() => {});

function destroyedError(): Error {
  return new Error(
    'this narrowphase was destroyed (destroy()); create a new one with createNarrowphase()',
  );
}

/** What a call needs of one dimension: its broadphase, packing, GPU runner and CPU reference. */
interface SceneDimension<S extends Scene, P> {
  dim: 2 | 3;
  words: ManifoldWords;
  sweep(scene: S): Uint32Array;
  pack(scene: S, pairs: Uint32Array): P;
  gpu(st: GpuState): Promise<{
    run(packed: P): Promise<{ manifolds: ArrayBuffer; kernelMs: number | null }>;
    compileMs: Record<string, number>;
  }>;
  /** Prepares the CPU reference (untimed) and returns its timed run. */
  cpu(packed: P, scene: S): () => ArrayBuffer;
}

const SCENE_2D: SceneDimension<Scene2D, Packed2D> = {
  dim: 2,
  words: LAYOUT_2D.manifold,
  sweep: sweepAndPrune2D,
  pack: packScene2D,
  gpu: runner2D,
  cpu(packed, scene) {
    const prepared = prepareCpu2D(packed, scene.shapes.length);
    return () => collidePacked2D(prepared, packed);
  },
};

const SCENE_3D: SceneDimension<Scene3D, Packed3D> = {
  dim: 3,
  words: LAYOUT_3D.manifold,
  sweep: sweepAndPrune3D,
  pack: packScene3D,
  gpu: runner3D,
  cpu(packed) {
    const prepared = prepareCpu3D(packed);
    return () => collidePacked3D(prepared, packed);
  },
};

/** Collides a scene on `st`, or on the CPU reference without one. */
async function runScene<S extends Scene, P>(
  d: SceneDimension<S, P>,
  st: GpuState | null,
  scene: S,
): Promise<Slots> {
  const touchingOnly = scene.pairs === null;
  const pairs = scene.pairs ?? d.sweep(scene);
  const rebased = rebaseFarPairs(scene, pairs);
  const packed = d.pack(rebased.scene, rebased.pairs);
  let buffer: ArrayBuffer;
  let computeMs: number | null;
  let compileMs: Record<string, number> = {};
  if (st) {
    const runner = await d.gpu(st);
    const r = await runner.run(packed);
    buffer = r.manifolds;
    computeMs = r.kernelMs;
    compileMs = { ...runner.compileMs };
  } else {
    const collide = d.cpu(packed, scene);
    const t0 = performance.now();
    buffer = collide();
    computeMs = performance.now() - t0;
  }
  return {
    buffer,
    pairs,
    touchingOnly,
    origins: rebased.origins,
    words: d.words,
    dim: d.dim,
    computeMs,
    rebasedPairs: rebased.moved,
    compileMs,
  };
}

/**
 * One call: validated, run on `st` (kept alive until the call settles; the CPU without one),
 * unpacked lazily.
 */
function collideOn(
  st: GpuState | null,
  backend: Backend,
  sceneIn: unknown,
): Promise<LazyCollideResult> {
  const work = (async (): Promise<LazyCollideResult> => {
    const start = performance.now();
    const scene = isParsed(sceneIn) ? sceneIn : parseScene(sceneIn);
    const s =
      scene.dim === 3 ? await runScene(SCENE_3D, st, scene) : await runScene(SCENE_2D, st, scene);
    const length = countManifolds(s.buffer, s.pairs.length / 2, s.touchingOnly, s.words);
    const manifolds: LazyManifolds = {
      length,
      [Symbol.iterator]: () =>
        eachManifold(s.buffer, s.pairs, s.touchingOnly, s.words, s.dim, s.origins),
    };
    const stats: CollideStats = {
      backend,
      adapter: st?.adapter ?? 'cpu',
      pairs: s.pairs.length / 2,
      computeMs: s.computeMs,
      wallMs: performance.now() - start,
      rebasedPairs: s.rebasedPairs,
      compileMs: s.compileMs,
    };
    return { manifolds, stats };
  })();
  if (st) {
    st.inFlight.add(work);
    const settled = (): void => void st.inFlight.delete(work);
    work.then(settled, settled);
  }
  return work;
}

/** The device state a rebuild replaces, refusing a rebuild that cannot be done. */
function checkRebuild(gpu: GpuState | null, newDevice: GPUDevice | undefined): GpuState {
  if (!gpu) throw new Error('the CPU backend has no device to rebuild');
  if (newDevice === undefined && !gpu.owned) {
    throw new Error('this narrowphase runs on your device: pass the new one, rebuild(device)');
  }
  if (newDevice !== undefined && !isGpuDevice(newDevice))
    throw new InputError(
      'device',
      `must be a GPUDevice (from adapter.requestDevice()), got ${shown(newDevice)}`,
    );
  return gpu;
}

export async function createNarrowphase(options: NarrowphaseOptions = {}): Promise<Narrowphase> {
  const { backend, device, onDeviceLost } = readOptions(options);
  let gpu: GpuState | null = backend === 'gpu' ? await openGpu(device, onDeviceLost) : null;
  /** The last device's loss (kept after destroy(), which destroys a device of our own). */
  let lost = gpu?.lost ?? NEVER;
  let destroyed = false;

  /** One call on the current device. */
  function call(sceneIn: unknown): Promise<LazyCollideResult> {
    if (destroyed) return Promise.reject(destroyedError());
    return collideOn(gpu, backend, sceneIn);
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
      return lost;
    },
    async collide(scene: unknown): Promise<CollideResult> {
      const start = performance.now();
      const r = await call(scene);
      const manifolds = Array.from(r.manifolds);
      return { manifolds, stats: { ...r.stats, wallMs: performance.now() - start } };
    },
    collideLazy: call,
    async rebuild(newDevice?: GPUDevice): Promise<void> {
      if (destroyed) throw destroyedError();
      const old = checkRebuild(gpu, newDevice);
      const next = await openGpu(newDevice, onDeviceLost);
      if (destroyed || gpu !== old) {
        retireGpu(next);
        throw new Error(
          destroyed
            ? 'the narrowphase was destroyed during rebuild()'
            : 'the narrowphase was rebuilt again during rebuild()',
        );
      }
      gpu = next;
      lost = next.lost;
      retireGpu(old);
    },
    destroy(): void {
      if (destroyed) return;
      destroyed = true;
      if (gpu) retireGpu(gpu);
      gpu = null;
    },
  };
}

export { describeAdapter };
