// Generic pieces of the GPU runners (src/gpu/narrowphase2d.ts, src/gpu/narrowphase3d.ts): pooled
// buffers that grow, the dispatch grid of a one-invocation-per-item kernel, and timestamp queries
// around a compute pass.

const MAX_GROUPS_PER_DIMENSION = 65535;

/** Workgroup grid for `count` invocations of `workgroupSize`: rows of at most 65535 groups. */
export function dispatchGrid(count: number, workgroupSize: number): { x: number; y: number; rowPitch: number } {
  const groups = Math.max(1, Math.ceil(count / workgroupSize));
  const x = Math.min(groups, MAX_GROUPS_PER_DIMENSION);
  const y = Math.ceil(groups / x);
  return { x, y, rowPitch: x * workgroupSize };
}

/** A buffer that is replaced by a larger one when a run needs more room (never shrinks). */
export class GrowingBuffer {
  buffer: GPUBuffer | null = null;
  constructor(private readonly device: GPUDevice, private readonly usage: number, private readonly label: string) {}
  /** The buffer, at least `bytes` large (at least 16); a new one (contents lost) when it grows. */
  ensure(bytes: number): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!this.buffer || this.buffer.size < size) {
      this.buffer?.destroy();
      this.buffer = this.device.createBuffer({ label: this.label, size, usage: this.usage });
    }
    return this.buffer;
  }
  destroy(): void {
    this.buffer?.destroy();
    this.buffer = null;
  }
}

/** Uploads `data` into `target` at offset 0 (nothing for empty data). */
export function upload(device: GPUDevice, target: GPUBuffer, data: ArrayBuffer | ArrayBufferView): void {
  if (data.byteLength === 0) return;
  if (ArrayBuffer.isView(data)) device.queue.writeBuffer(target, 0, data.buffer, data.byteOffset, data.byteLength);
  else device.queue.writeBuffer(target, 0, data);
}

/**
 * Timestamp queries around one compute pass: `passDescriptor()` for beginComputePass,
 * `resolve(encoder)` after the pass, `readMs()` after the submit. Without the device feature
 * every method is a no-op and readMs() gives null.
 */
export class PassTimer {
  private readonly querySet: GPUQuerySet | null;
  private readonly resolveBuffer: GPUBuffer | null;
  private readonly readBuffer: GPUBuffer | null;

  constructor(device: GPUDevice, enabled: boolean) {
    if (enabled) {
      this.querySet = device.createQuerySet({ type: 'timestamp', count: 2 });
      this.resolveBuffer = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
      this.readBuffer = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    } else {
      this.querySet = null;
      this.resolveBuffer = null;
      this.readBuffer = null;
    }
  }

  passDescriptor(label?: string): GPUComputePassDescriptor {
    const base: GPUComputePassDescriptor = label ? { label } : {};
    return this.querySet ? { ...base, timestampWrites: { querySet: this.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : base;
  }

  resolve(encoder: GPUCommandEncoder): void {
    if (!this.querySet || !this.resolveBuffer || !this.readBuffer) return;
    encoder.resolveQuerySet(this.querySet, 0, 2, this.resolveBuffer, 0);
    encoder.copyBufferToBuffer(this.resolveBuffer, 0, this.readBuffer, 0, 16);
  }

  /** The pass's duration in ms (after the submit), or null without timestamps. */
  async readMs(): Promise<number | null> {
    if (!this.readBuffer) return null;
    await this.readBuffer.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.readBuffer.getMappedRange().slice(0));
    this.readBuffer.unmap();
    return Number(t[1]! - t[0]!) / 1e6;
  }

  destroy(): void {
    this.querySet?.destroy();
    this.resolveBuffer?.destroy();
    this.readBuffer?.destroy();
  }
}

/** Copies `bytes` of `src` into the pooled `readback` buffer (encoder), for readBack() after the submit. */
export function copyForReadback(encoder: GPUCommandEncoder, src: GPUBuffer, readback: GPUBuffer, bytes: number): void {
  encoder.copyBufferToBuffer(src, 0, readback, 0, bytes);
}

/** Maps `readback` and copies its first `bytes` out. */
export async function readBack(readback: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
  await readback.mapAsync(GPUMapMode.READ, 0, bytes);
  const out = readback.getMappedRange(0, bytes).slice(0);
  readback.unmap();
  return out;
}
