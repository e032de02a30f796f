// Generic pieces of every GPU stage (narrowphase, broadphase, scan, sort, contacts): pooled buffers
// that grow, dispatch grids in rows of workgroups, uniform slots, readback, and timestamp queries
// around compute passes.

import { InputError } from '../errors.ts';
import { refusedCommands } from './device.ts';

/** Workgroups per dispatch dimension (WebGPU's default and lavapipe's limit). */
export const MAX_GROUPS_PER_DIMENSION = 65535;

/**
 * The row length dispatchRows uses; tests lower it to exercise rows of workgroups (more than
 * 65535 workgroups) on small inputs. Affects dispatches recorded afterwards.
 */
export const dispatchLimits = { maxGroupsPerDimension: MAX_GROUPS_PER_DIMENSION };

/** Workgroup grid for `count` invocations of `workgroupSize`: rows of at most 65535 groups. */
export function dispatchGrid(
  count: number,
  workgroupSize: number,
): { x: number; y: number; rowPitch: number } {
  const groups = Math.max(1, Math.ceil(count / workgroupSize));
  const x = Math.min(groups, MAX_GROUPS_PER_DIMENSION);
  const y = Math.ceil(groups / x);
  return { x, y, rowPitch: x * workgroupSize };
}

/** A buffer that is replaced by a larger one when a run needs more room (never shrinks). */
export class GrowingBuffer {
  buffer: GPUBuffer | null = null;
  constructor(
    private readonly device: GPUDevice,
    private readonly usage: number,
    private readonly label: string,
  ) {}
  /** The buffer, at least `bytes` large (at least 16); a new one (contents lost) when it grows. */
  ensure(bytes: number): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!this.buffer || this.buffer.size < size) {
      this.buffer?.destroy();
      this.buffer = this.device.createBuffer({ label: this.label, size, usage: this.usage });
    }
    return this.buffer;
  }
  /** The buffer, grown to hold `data` (ensure), with `data` written at its start. */
  write(data: ArrayBuffer | ArrayBufferView): GPUBuffer {
    const b = this.ensure(data.byteLength);
    upload(this.device, b, data);
    return b;
  }
  destroy(): void {
    this.buffer?.destroy();
    this.buffer = null;
  }
}

/** Uploads `data` into `target` at offset 0 (nothing for empty data). */
export function upload(
  device: GPUDevice,
  target: GPUBuffer,
  data: ArrayBuffer | ArrayBufferView,
): void {
  if (data.byteLength === 0) return;
  if (ArrayBuffer.isView(data))
    device.queue.writeBuffer(target, 0, data.buffer, data.byteOffset, data.byteLength);
  else device.queue.writeBuffer(target, 0, data);
}

/**
 * Timestamp queries around named compute passes: `passDescriptor(stage)` for beginComputePass,
 * `resolve(encoder)` after the passes, `read()`/`readMs(stage)` after the submit. Disabled (a
 * device without 'timestamp-query'), every method is a no-op and readMs() gives null.
 */
export class PassTimer {
  private readonly querySet: GPUQuerySet | null;
  private readonly resolveBuf: GPUBuffer | null;
  private readonly readBuf: GPUBuffer | null;

  constructor(
    device: GPUDevice,
    readonly stages: readonly string[],
    enabled = true,
  ) {
    const count = 2 * stages.length;
    this.querySet = enabled ? device.createQuerySet({ type: 'timestamp', count }) : null;
    this.resolveBuf = enabled
      ? device.createBuffer({
          size: 8 * count,
          usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
        })
      : null;
    this.readBuf = enabled
      ? device.createBuffer({
          size: 8 * count,
          usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        })
      : null;
  }

  /**
   * The descriptor of stage `name`'s compute pass, with its two timestamp writes when enabled. A
   * stage recorded as several passes (batches) times from the beginning of its first pass
   * (`writes` 'begin') to the end of its last ('end'); passes between take 'none'.
   */
  passDescriptor(
    name: string = this.stages[0],
    label: string = name,
    writes: 'both' | 'begin' | 'end' | 'none' = 'both',
  ): GPUComputePassDescriptor {
    const i = this.stages.indexOf(name);
    if (i < 0) throw new Error(`no timed stage ${name}`);
    if (!this.querySet || writes === 'none') return { label };
    return {
      label,
      timestampWrites: {
        querySet: this.querySet,
        ...(writes !== 'end' ? { beginningOfPassWriteIndex: 2 * i } : {}),
        ...(writes !== 'begin' ? { endOfPassWriteIndex: 2 * i + 1 } : {}),
      },
    };
  }

  /** Records the resolve and the copy to the readable buffer (after the timed passes). */
  resolve(encoder: GPUCommandEncoder): void {
    if (!this.querySet || !this.resolveBuf || !this.readBuf) return;
    encoder.resolveQuerySet(this.querySet, 0, 2 * this.stages.length, this.resolveBuf, 0);
    encoder.copyBufferToBuffer(this.resolveBuf, 0, this.readBuf, 0, 16 * this.stages.length);
  }

  /** Milliseconds per stage, after the submit that resolved them (empty when disabled). */
  async read(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    if (!this.readBuf) return out;
    await this.readBuf.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.readBuf.getMappedRange().slice(0));
    this.readBuf.unmap();
    this.stages.forEach((s, i) => (out[s] = Number(t[2 * i + 1] - t[2 * i]) / 1e6));
    return out;
  }

  /** One stage's milliseconds, or null when disabled. */
  async readMs(name: string = this.stages[0]): Promise<number | null> {
    if (!this.readBuf) return null;
    return (await this.read())[name] ?? null;
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuf?.destroy();
    this.readBuf?.destroy();
  }
}

/** A narrowphase run's results: manifold slots, GPU kernel time (null without timestamps), wall time. */
export interface GpuRunResult {
  /** Manifold slots, one per pair. */
  manifolds: ArrayBuffer;
  /** Kernel time from timestamp queries (ms), or null when the device has none. */
  kernelMs: number | null;
  /** Upload + kernel + readback, measured on the host from `start` (ms). */
  wallMs: number;
}

/** run()'s result with `results: 'kept'` (RunOptions): the slots as a view of the narrowphase's host memory. */
export interface GpuRunResultKept extends Omit<GpuRunResult, 'manifolds'> {
  manifolds: Uint8Array;
}

/**
 * Where read-back results go: 'copies' (new buffers, the caller's to keep) or 'kept' (views of
 * host memory the reader keeps and refills at its next kept read: no allocation, and no new
 * buffer whose first write faults its pages in; docs/frame.md, *Host memory for readback*).
 */
export type ResultsMode = 'copies' | 'kept';

/** How GpuNarrowphase2D/3D.run() hands its manifold slots over. */
export interface RunOptions {
  /** 'copies' (the default): a new ArrayBuffer; 'kept': a view valid until the next kept run(). */
  results?: ResultsMode;
}

/** `options.results`, checked: 'copies' when absent, else 'copies' or 'kept' (an InputError otherwise). */
export function resultsMode(options: { results?: unknown } | undefined): ResultsMode {
  const results = options?.results ?? 'copies';
  if (results !== 'copies' && results !== 'kept')
    throw new InputError('options.results', `must be 'copies' or 'kept', got ${String(results)}`);
  return results;
}

/**
 * Dispatches `groups` workgroups as rows of at most 65535 (x) by as many rows as needed (y);
 * kernels take workgroup_id.x + workgroup_id.y * num_workgroups.x as their linear index and
 * return when it is past the end. Nothing is dispatched for 0 groups.
 */
export function dispatchRows(pass: GPUComputePassEncoder, groups: number): void {
  if (groups <= 0) return;
  const x = Math.min(groups, dispatchLimits.maxGroupsPerDimension, MAX_GROUPS_PER_DIMENSION);
  const y = Math.ceil(groups / x);
  if (y > MAX_GROUPS_PER_DIMENSION)
    throw new Error(`${groups} workgroups do not fit in one 2D dispatch`);
  pass.dispatchWorkgroups(x, y);
}

/**
 * A batch of pair slots' indirect grid, as the GPU broadphase writes it (BroadphaseBatch): the
 * byte offset into `buffer` (INDIRECT usage) of the x, y, z over the batch's pairs. The frame's
 * per-slot stages dispatch over it, so their work follows the pair count, not the capacity;
 * their workgroups must be the narrowphase's size (the grid is made for it).
 */
export interface BatchGrids {
  buffer: GPUBuffer;
  pairs: number;
}

/** The bytes a binding covers: its size, else the buffer's from its offset on. */
export function bindingBytes(b: GPUBufferBinding): number {
  return b.size ?? b.buffer.size - (b.offset ?? 0);
}

/** Uniform-buffer slots of 256 bytes (the minimum uniform offset alignment WebGPU allows). */
export const UNIFORM_SLOT_BYTES = 256;

export function createUniformSlots(device: GPUDevice, label: string, slots: number): GPUBuffer {
  return device.createBuffer({
    label,
    size: Math.max(1, slots) * UNIFORM_SLOT_BYTES,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
}

/** Copies `bytes` of `src` to the host (one submit, one map). */
export async function readBuffer(
  device: GPUDevice,
  src: GPUBuffer,
  bytes: number,
  offset = 0,
): Promise<ArrayBuffer> {
  const [out] = await readBuffers(device, [{ buffer: src, offset, bytes }]);
  return out;
}

/** A region of a GPU buffer to read back (`offset` a multiple of 4). */
export interface ReadRegion {
  buffer: GPUBuffer;
  bytes: number;
  offset?: number;
}

/** Mappable buffers a ReadbackBuffers keeps free at most (a frame's step maps two at once). */
const READBACK_KEPT = 4;

/**
 * Mappable buffers for readBuffers, kept from call to call: a frame reads its counts and its lists
 * back every step, and a new MAP_READ buffer each time costs an allocation and, on a software
 * adapter, the first touch of its pages (the 10k 3D piles' lists: 8.6 MB a frame). A buffer is
 * made 1.25 × the size asked, so that a list a little longer next frame still fits.
 */
export class ReadbackBuffers {
  private free: GPUBuffer[] = [];
  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
  ) {}

  /** The smallest free buffer of at least `bytes`, or a new one. */
  take(bytes: number): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    let best = -1;
    this.free.forEach((b, i) => {
      if (b.size >= size && (best < 0 || b.size < this.free[best]!.size)) best = i;
    });
    if (best >= 0) return this.free.splice(best, 1)[0]!;
    return this.device.createBuffer({
      label: this.label,
      size: Math.ceil((1.25 * size) / 16) * 16,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  }

  /** Returns an unmapped buffer from take(); past READBACK_KEPT free ones, the smallest goes. */
  give(buffer: GPUBuffer): void {
    this.free.push(buffer);
    if (this.free.length > READBACK_KEPT) {
      this.free.sort((a, b) => b.size - a.size);
      this.free.pop()!.destroy();
    }
  }

  destroy(): void {
    for (const b of this.free) b.destroy();
    this.free = [];
  }
}

/**
 * Copies each region to the host in one submit and one map: every round trip to the GPU costs a
 * fixed latency (docs/frame.md), so a frame's counts, or its outputs, travel together. With
 * `staging`, the mappable buffer comes from it and goes back to it. Each region arrives in a new
 * ArrayBuffer (readBuffersInto: into kept host memory).
 */
export function readBuffers(
  device: GPUDevice,
  regions: readonly ReadRegion[],
  staging?: ReadbackBuffers,
): Promise<ArrayBuffer[]> {
  return mapRegions(device, regions, staging, (mapped, start, bytes) =>
    mapped.slice(start, start + bytes),
  );
}

/**
 * readBuffers into `host`'s kept buffers: region i arrives in a view of host buffer i, valid until
 * the next read into `host`. A new ArrayBuffer's first write faults its pages in, which costs
 * more than the copy itself (docs/frame.md, *Host memory for readback*).
 */
export function readBuffersInto(
  device: GPUDevice,
  regions: readonly ReadRegion[],
  host: HostBuffers,
  staging?: ReadbackBuffers,
): Promise<Uint8Array[]> {
  return mapRegions(device, regions, staging, (mapped, start, bytes, i) => {
    const view = host.view(i, bytes);
    view.set(new Uint8Array(mapped, start, bytes));
    return view;
  });
}

/** One submit copying every region into one mappable buffer, one map; `take` copies each out. */
async function mapRegions<T>(
  device: GPUDevice,
  regions: readonly ReadRegion[],
  staging: ReadbackBuffers | undefined,
  take: (mapped: ArrayBuffer, start: number, bytes: number, region: number) => T,
): Promise<T[]> {
  const sizes = regions.map((r) => (r.bytes > 0 ? Math.ceil(r.bytes / 4) * 4 : 0));
  const starts: number[] = [];
  let total = 0;
  for (const size of sizes) {
    starts.push(total);
    total += size;
  }
  const read =
    staging?.take(total) ??
    device.createBuffer({
      size: Math.max(4, total),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });
  // A copy the device refuses (a destroyed buffer) would leave stale bytes to read: reported.
  const refused = refusedCommands(device, 'readBuffer', 'the copy', () => {
    const encoder = device.createCommandEncoder();
    regions.forEach((r, i) => {
      if (sizes[i] > 0)
        encoder.copyBufferToBuffer(r.buffer, r.offset ?? 0, read, starts[i], sizes[i]);
    });
    device.queue.submit([encoder.finish()]);
  });
  await read.mapAsync(GPUMapMode.READ);
  const mapped = read.getMappedRange();
  const out = regions.map((r, i) => take(mapped, starts[i], Math.max(0, r.bytes), i));
  read.unmap();
  if (staging) staging.give(read);
  else read.destroy();
  const refusal = await refused;
  if (refusal) throw refusal;
  return out;
}

/** The u32 words of read-back bytes: a buffer, or a view of one (kept results, which start on a word). */
export function u32Words(bytes: ArrayBuffer | Uint8Array): Uint32Array {
  return ArrayBuffer.isView(bytes)
    ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2)
    : new Uint32Array(bytes);
}

/**
 * Host memory kept from readback to readback: one ArrayBuffer per region index, grown (1.25 ×
 * what is asked) when short, never shrunk. For a caller that reads a frame's lists every frame.
 */
export class HostBuffers {
  private kept: ArrayBuffer[] = [];

  /** The first `bytes` bytes of kept buffer i (their contents: whatever was last read there). */
  view(i: number, bytes: number): Uint8Array {
    let b = this.kept[i];
    if (!b || b.byteLength < bytes) {
      b = new ArrayBuffer(Math.ceil((1.25 * bytes) / 16) * 16);
      this.kept[i] = b;
    }
    return new Uint8Array(b, 0, bytes);
  }
}
