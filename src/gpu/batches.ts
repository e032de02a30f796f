// Runs a per-pair kernel (the 2D and 3D narrowphase runners, src/gpu/narrowphase2d.ts and
// narrowphase3d.ts) over any number of pairs and reads the manifold slots back into one host buffer.
//
// Batches: a device binds at most maxStorageBufferBindingSize bytes of slots at once (128 MiB on
// lavapipe: 2.8M 2D or 1.2M 3D pairs), so larger runs go in batches of consecutive pairs, as the
// GPU frame does (src/gpu/frame.ts): per batch one compute pass over its pairs (bound at an offset
// of the pairs buffer) into one pooled batch-sized slot buffer, then a copy into that batch's own
// readback buffer; every batch in one submit. The slots are byte-identical to an unbatched run's.
//
// Calls in flight: a runner's pooled buffers serve one run at a time, so runs are queued (each
// starts when the previous one has settled) and every call resolves with what it gives alone.

import { CapacityError } from '../errors.ts';
import { GrowingBuffer, HostBuffers, PassTimer, type GpuRunResultKept } from './buffers.ts';

/** Bytes of one pair (vec2u). */
export const PAIR_BYTES = 8;

/** Batches start at multiples of this many pairs: 2048-byte pair offsets meet any offset alignment (<= 256 bytes). */
export const BATCH_ALIGN_PAIRS = 256;

/** Consecutive pairs [first, first + count) run by one dispatch; `index` numbers the batch. */
export interface PairBatch {
  index: number;
  first: number;
  count: number;
}

/**
 * Records the kernel over one batch into `encoder`: reads pairs from `pairs` (the batch's range),
 * writes the batch's slots from offset 0 of `slots`, with `params` (the batch's uniform, written by
 * the caller). `pass(role)` gives its compute passes their descriptors with the run's timestamps:
 * 'only' for a batch recorded as one pass, 'first' and 'last' for the first and last of several.
 */
export type RecordBatch = (
  encoder: GPUCommandEncoder,
  batch: PairBatch,
  pairs: GPUBufferBinding,
  slots: GPUBufferBinding,
  params: GPUBuffer,
  pass: (role: 'only' | 'first' | 'last') => GPUComputePassDescriptor,
) => void;

/** Word offsets of a narrowphase kernel's params uniform (LAYOUT_2D.params, LAYOUT_3D.params). */
export interface ParamsWords {
  bytes: number;
  pairCount: number;
  margin: number;
  rowPitch: number;
}

/** Writes a batch's params: its pair count, the margin, and the row pitch of its dispatch grid. */
export function writeBatchParams(
  device: GPUDevice,
  buffer: GPUBuffer,
  P: ParamsWords,
  pairCount: number,
  margin: number,
  rowPitch: number,
): void {
  const bytes = new ArrayBuffer(P.bytes);
  new Uint32Array(bytes)[P.pairCount] = pairCount;
  new Float32Array(bytes)[P.margin] = margin;
  new Uint32Array(bytes)[P.rowPitch] = rowPitch;
  device.queue.writeBuffer(buffer, 0, bytes);
}

/** A byte count as the limit messages give it: "134217728 bytes (128 MiB)". */
export function bytesText(bytes: number): string {
  return `${bytes} bytes (${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 0)} MiB)`;
}

/**
 * Refuses, before any GPU work, an input buffer that no binding can hold (bodies, shapes, hull
 * data are bound whole): a CapacityError naming the buffer and its size in bytes.
 */
export function checkInputBytes(
  device: GPUDevice,
  inputs: readonly (readonly [what: string, bytes: number])[],
): void {
  const limit = device.limits.maxStorageBufferBindingSize;
  for (const [what, bytes] of inputs) {
    if (bytes > limit) {
      throw new CapacityError(
        `${what}: ${bytesText(bytes)} of ${what}; this device binds at most ${bytesText(limit)} per buffer. Split the scene into smaller ones.`,
      );
    }
  }
}

export class PairBatcher {
  /** Most pairs per batch (a multiple of BATCH_ALIGN_PAIRS). */
  readonly pairsPerBatch: number;
  private readonly pairs: GrowingBuffer;
  private readonly slots: GrowingBuffer;
  private readonly readbacks: GrowingBuffer[] = [];
  /** Host memory of kept runs (RunOptions). */
  private readonly host = new HostBuffers();
  private readonly params: GPUBuffer[] = [];
  private readonly timer: PassTimer;
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * `slotBytes`: one pair's manifold slot; `paramsBytes`: the kernel's uniform; `maxPairsPerBatch`:
   * fewer pairs per batch than one binding holds (rounded down to a multiple of 256; tests).
   */
  constructor(
    readonly device: GPUDevice,
    private readonly label: string,
    readonly slotBytes: number,
    private readonly paramsBytes: number,
    timestamps: boolean,
    maxPairsPerBatch?: number,
  ) {
    const binding = device.limits.maxStorageBufferBindingSize;
    const byLimit =
      Math.floor(
        Math.min(
          binding / slotBytes,
          binding / PAIR_BYTES,
          device.limits.maxBufferSize / slotBytes,
        ) / BATCH_ALIGN_PAIRS,
      ) * BATCH_ALIGN_PAIRS;
    const wanted = Math.min(maxPairsPerBatch ?? byLimit, byLimit);
    this.pairsPerBatch = Math.max(
      BATCH_ALIGN_PAIRS,
      Math.floor(wanted / BATCH_ALIGN_PAIRS) * BATCH_ALIGN_PAIRS,
    );
    this.pairs = new GrowingBuffer(
      device,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      `${label}-pairs`,
    );
    this.slots = new GrowingBuffer(
      device,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
      `${label}-manifolds`,
    );
    this.timer = new PassTimer(device, ['kernel'], timestamps);
  }

  /** The batches of a run of `pairCount` pairs (one, empty, for no pairs). */
  batches(pairCount: number): PairBatch[] {
    const n = Math.max(1, Math.ceil(pairCount / this.pairsPerBatch));
    return Array.from({ length: n }, (_, index) => {
      const first = index * this.pairsPerBatch;
      return { index, first, count: Math.min(this.pairsPerBatch, pairCount - first) };
    });
  }

  /** Runs `work` once every earlier call has settled (the pooled buffers serve one run at a time). */
  serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /**
   * Uploads `pairs`, records every batch (`record`), submits once, and reads all slots back into
   * one buffer of max(1, pairCount) slots: a new one, or with `kept` the batcher's host memory
   * (valid until its next kept run). Call it inside serial().
   */
  async run(
    pairs: Uint32Array,
    record: RecordBatch,
    start: number,
    kept: boolean,
  ): Promise<GpuRunResultKept> {
    const device = this.device;
    const pairCount = pairs.length / 2;
    if (pairs.byteLength > device.limits.maxBufferSize) {
      throw new CapacityError(
        `pairs: ${pairCount} pairs need ${bytesText(pairs.byteLength)}; this device's buffers hold at most ${bytesText(device.limits.maxBufferSize)}. Split the pairs into smaller runs.`,
      );
    }
    const pairBuffer = this.pairs.ensure(Math.max(PAIR_BYTES, pairs.byteLength));
    if (pairs.byteLength > 0)
      device.queue.writeBuffer(pairBuffer, 0, pairs.buffer, pairs.byteOffset, pairs.byteLength);
    const batches = this.batches(pairCount);
    const slots = this.slots.ensure(
      Math.max(1, Math.min(pairCount, this.pairsPerBatch)) * this.slotBytes,
    );
    const encoder = device.createCommandEncoder({ label: this.label });
    const sizes: number[] = [];
    for (const batch of batches) {
      while (this.params.length <= batch.index) {
        this.params.push(
          device.createBuffer({
            label: `${this.label}-params-${this.params.length}`,
            size: this.paramsBytes,
            usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
          }),
        );
      }
      while (this.readbacks.length <= batch.index) {
        this.readbacks.push(
          new GrowingBuffer(
            device,
            GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
            `${this.label}-readback-${this.readbacks.length}`,
          ),
        );
      }
      const bytes = Math.max(1, batch.count) * this.slotBytes;
      sizes.push(bytes);
      // The run's timestamps: the beginning of the first batch's first pass, the end of the last's last.
      const pass = (role: 'only' | 'first' | 'last'): GPUComputePassDescriptor => {
        const begin = batch.index === 0 && role !== 'last';
        const end = batch.index === batches.length - 1 && role !== 'first';
        return this.timer.passDescriptor(
          'kernel',
          `${this.label}.batch${batch.index}`,
          begin && end ? 'both' : begin ? 'begin' : end ? 'end' : 'none',
        );
      };
      const pairRange = {
        buffer: pairBuffer,
        offset: batch.first * PAIR_BYTES,
        size: Math.max(1, batch.count) * PAIR_BYTES,
      };
      record(
        encoder,
        batch,
        pairRange,
        { buffer: slots, offset: 0, size: bytes },
        this.params[batch.index],
        pass,
      );
      encoder.copyBufferToBuffer(slots, 0, this.readbacks[batch.index].ensure(bytes), 0, bytes);
    }
    this.timer.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    const total = sizes.reduce((n, bytes) => n + bytes, 0);
    const out = kept ? this.host.view(0, total) : new Uint8Array(total);
    await Promise.all(
      batches.map(async (batch) => {
        const readback = this.readbacks[batch.index].buffer!;
        await readback.mapAsync(GPUMapMode.READ, 0, sizes[batch.index]);
        out.set(
          new Uint8Array(readback.getMappedRange(0, sizes[batch.index])),
          batch.first * this.slotBytes,
        );
        readback.unmap();
      }),
    );
    const wallMs = performance.now() - start;
    return { manifolds: out, kernelMs: await this.timer.readMs(), wallMs };
  }

  destroy(): void {
    this.pairs.destroy();
    this.slots.destroy();
    for (const r of this.readbacks) r.destroy();
    for (const p of this.params) p.destroy();
    this.readbacks.length = 0;
    this.params.length = 0;
    this.timer.destroy();
  }
}
