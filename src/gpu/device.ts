// Getting a WebGPU device: the browser's `navigator.gpu`, or Dawn through the `webgpu` package in
// Node. Nothing here falls back to a CPU path silently: no adapter is an error that says why.

import { DeviceLostError } from '../errors.ts';

export interface AdapterDescription {
  /** Human-readable adapter name, e.g. "llvmpipe (LLVM 19.1.7, 256 bits)" or "NVIDIA H100". */
  name: string;
  vendor: string;
  architecture: string;
  /** True for software rasterisers (lavapipe, SwiftShader): timings there are not GPU timings. */
  software: boolean;
}

export interface AcquiredDevice {
  device: GPUDevice;
  adapter: AdapterDescription;
  /** Whether the device was created with 'timestamp-query' (kernel times are then available). */
  timestamps: boolean;
}

export class NoAdapterError extends Error {
  override name = 'NoAdapterError';
}

/**
 * Calls `onLost` once when `device` is lost (GPUDevice.lost resolves), with the reason and the
 * DeviceLostError to raise from then on. Returns a function that stops watching (a device that an
 * owner destroyed on purpose then reports nothing). For engines holding a GpuFrame2D: on loss,
 * get a new device and create the frame (and your buffers) again on it.
 */
export function watchDeviceLoss(
  device: GPUDevice,
  onLost: (info: GPUDeviceLostInfo, error: DeviceLostError) => void,
): () => void {
  let active = true;
  void device.lost.then((info) => {
    if (active) onLost(info, new DeviceLostError(info.reason, info.message));
  });
  return () => {
    active = false;
  };
}

/** Per device: its loss once known, and the guarded calls to reject when it comes. */
interface LossTracker {
  info: GPUDeviceLostInfo | null;
  /** One per call in flight (removed when it settles, so nothing accumulates on a healthy device). */
  waiters: Set<(error: DeviceLostError) => void>;
}
const trackers = new WeakMap<GPUDevice, LossTracker>();

function tracker(device: GPUDevice): LossTracker {
  let t = trackers.get(device);
  if (!t) {
    const created: LossTracker = { info: null, waiters: new Set() };
    void device.lost.then((info) => {
      created.info = info;
      for (const reject of created.waiters) reject(new DeviceLostError(info.reason, info.message));
      created.waiters.clear();
    });
    trackers.set(device, (t = created));
  }
  return t;
}

/** How long a failed GPU call waits for `device.lost` to say whether the loss caused it. */
const LOSS_SETTLE_MS = 100;

/**
 * Runs GPU work on `device`, turning a device loss into a DeviceLostError: refused at once on a
 * device known to be lost; raced against the loss while it runs (a readback on a lost device may
 * never settle, or fail with a bare AbortError); and a failure shortly followed by the loss is
 * reported as the loss (with the failure as its cause).
 */
export async function guardDeviceLoss<T>(device: GPUDevice, work: () => Promise<T>): Promise<T> {
  const t = tracker(device);
  if (t.info) throw new DeviceLostError(t.info.reason, t.info.message);
  const running = work();
  try {
    return await new Promise<T>((resolve, reject) => {
      const onLost = (error: DeviceLostError): void => reject(error);
      t.waiters.add(onLost);
      running.then(
        (value) => (t.waiters.delete(onLost), resolve(value)),
        (error: unknown) => (t.waiters.delete(onLost), reject(error)),
      );
    });
  } catch (e) {
    if (e instanceof DeviceLostError) throw e;
    const info =
      t.info ??
      (await Promise.race([
        device.lost,
        new Promise<null>((r) => setTimeout(() => r(null), LOSS_SETTLE_MS)),
      ]));
    if (info) throw new DeviceLostError(info.reason, info.message, { cause: e });
    throw e;
  }
}

/**
 * Runs `record` (commands encoded and submitted) inside validation and out-of-memory error scopes
 * and resolves with an Error for what the device refused of them ("`label`: the device refused
 * `what`: its messages"), or null when it took them all. The scopes are popped when `record`
 * throws too.
 */
export function refusedCommands(
  device: GPUDevice,
  label: string,
  what: string,
  record: () => void,
): Promise<Error | null> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  const pop = (): Promise<Error | null> =>
    Promise.all([device.popErrorScope(), device.popErrorScope()]).then((errors) => {
      const messages = errors.flatMap((e) => (e ? [e.message] : []));
      return messages.length === 0
        ? null
        : new Error(`${label}: the device refused ${what}: ${messages.join('; ')}`);
    });
  try {
    record();
  } catch (e) {
    void pop();
    throw e;
  }
  return pop();
}

let nodeGpu: Promise<GPU> | undefined;

/** Node's version where running in Node (read through globalThis: browsers build this file too). */
export function nodeVersion(): string | undefined {
  return (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
}

/**
 * A new `GPU` object from Dawn in Node, its globals (GPUBufferUsage, …) installed; `options` are
 * Dawn's (e.g. 'disable-dawn-features=timestamp_quantization'). getGpu() makes one with none.
 */
export async function createNodeGpu(options: string[] = []): Promise<GPU> {
  // A variable specifier keeps browser bundlers from trying to bundle Dawn's native module.
  const name = 'webgpu';
  let dawn: { create: (options: string[]) => GPU; globals: Record<string, unknown> };
  try {
    dawn = (await import(/* @vite-ignore */ name)) as typeof dawn;
  } catch (e) {
    // Dawn is an optional peer dependency (130 MB of native binaries a browser user never needs).
    throw new NoAdapterError(
      `WebGPU in Node needs Dawn: npm install webgpu (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`,
    );
  }
  Object.assign(globalThis, dawn.globals);
  return dawn.create(options);
}

/** The `GPU` object: `navigator.gpu` in a browser, Dawn's in Node (loaded on first use). */
export async function getGpu(): Promise<GPU> {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  if (!nodeVersion()) {
    throw new NoAdapterError('This browser has no WebGPU (navigator.gpu is undefined).');
  }
  nodeGpu ??= createNodeGpu().catch((e: unknown) => {
    nodeGpu = undefined;
    throw e;
  });
  return nodeGpu;
}

/**
 * How the reuse and contact-list kernels move their structs and bits: 'staged' (a workgroup's
 * words in order, through workgroup memory or a word per invocation, so that a warp's loads and
 * stores fill whole lines: for GPUs) or 'direct' (each invocation its own struct or block: for
 * CPU adapters, whose SIMD loops pay more for the per-lane indexing than it saves). The same
 * bytes either way.
 */
export type StoreMode = 'staged' | 'direct';

/** Whether a device's adapter runs WGSL on the CPU; browsers before GPUDevice.adapterInfo say nothing: taken for a GPU. */
export function isSoftwareDevice(device: GPUDevice): boolean {
  const info = (device as { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  return info !== undefined && isSoftwareAdapter(info);
}

/** The stores a device's adapter runs best: 'direct' on CPU adapters, 'staged' on GPUs. */
export function defaultStoreMode(device: GPUDevice): StoreMode {
  return isSoftwareDevice(device) ? 'direct' : 'staged';
}

/** Whether an adapter runs WGSL on the CPU (lavapipe, SwiftShader). */
export function isSoftwareAdapter(info: GPUAdapterInfo): boolean {
  const parts = [info.vendor, info.architecture, info.device, info.description];
  return /llvmpipe|lavapipe|swiftshader|software/i.test(parts.filter((s) => s).join(' '));
}

export function describeAdapter(adapter: GPUAdapter): AdapterDescription {
  const info = adapter.info;
  const parts = [info.vendor, info.architecture, info.device, info.description].filter(
    (s) => s && s.length > 0,
  );
  const name = info.description || parts.join(' ') || 'unknown adapter';
  const software = isSoftwareAdapter(info);
  return { name, vendor: info.vendor, architecture: info.architecture, software };
}

/**
 * Requests a high-performance adapter and a device with 'timestamp-query' when the adapter has
 * it, and the adapter's full storage-buffer limits (1M-pair runs need more than the defaults).
 */
export async function acquireDevice(): Promise<AcquiredDevice> {
  const gpu = await getGpu();
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new NoAdapterError(
      'No WebGPU adapter was found. In Node this needs a Vulkan driver: on Debian 12 run ' +
        '`npm test` as root once (it installs Mesa lavapipe from bookworm-backports), or see the README.',
    );
  }
  const timestamps = adapter.features.has('timestamp-query');
  const device = await adapter.requestDevice({
    requiredFeatures: timestamps ? ['timestamp-query'] : [],
    requiredLimits: {
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBuffersPerShaderStage: Math.min(8, adapter.limits.maxStorageBuffersPerShaderStage),
    },
  });
  return { device, adapter: describeAdapter(adapter), timestamps };
}
