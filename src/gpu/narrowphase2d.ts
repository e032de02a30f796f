// The 2D narrowphase on the GPU: uploads packed shapes, bodies and pairs, dispatches one
// invocation per pair, and reads back one Manifold2D slot per pair. Buffers are pooled and grow.
// Runs larger than one binding of slots go in batches, and calls in flight are queued
// (src/gpu/batches.ts); inputs that no binding can hold are refused before any GPU work, in bytes.

import { LAYOUT_2D } from '../layout2d.ts';
import type { Packed2D } from '../pack2d.ts';
import { WORKGROUP_SIZE_2D } from '../constants.ts';
import { checkInputBytes, PairBatcher, writeBatchParams, type PairBatch } from './batches.ts';
import { dispatchGrid, GrowingBuffer, upload, type GpuRunResult } from './buffers.ts';
import { guardDeviceLoss } from './device.ts';
import { narrowphase2DPipeline, type KernelPipeline } from './pipelines.ts';

export type { GpuRunResult };

/** Workgroup grid for `pairCount` invocations of the 2D kernel. */
export function dispatchGrid2D(pairCount: number): { x: number; y: number; rowPitch: number } {
  return dispatchGrid(pairCount, WORKGROUP_SIZE_2D);
}

export interface GpuNarrowphase2DOptions {
  /** Most pairs per batch (rounded down to a multiple of 256); default: what one binding holds. */
  maxPairsPerDispatch?: number;
}

export class GpuNarrowphase2D {
  private readonly shapes: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  private readonly batcher: PairBatcher;
  /** Most pairs per dispatch (batch). */
  readonly maxPairsPerDispatch: number;

  private constructor(readonly device: GPUDevice, private readonly kernel: KernelPipeline, timestamps: boolean, options: GpuNarrowphase2DOptions) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes2d');
    this.bodies = new GrowingBuffer(device, S, 'bodies2d');
    this.batcher = new PairBatcher(device, 'narrowphase2d', LAYOUT_2D.manifold.words * 4, LAYOUT_2D.params.bytes, timestamps, options.maxPairsPerDispatch);
    this.maxPairsPerDispatch = this.batcher.pairsPerBatch;
  }

  /** Compiles the kernel for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query'), options: GpuNarrowphase2DOptions = {}): Promise<GpuNarrowphase2D> {
    return new GpuNarrowphase2D(device, await narrowphase2DPipeline(device), timestamps, options);
  }

  /** Refuses a run whose shapes or bodies no binding can hold, before anything is uploaded. */
  checkCapacity(packed: Packed2D): void {
    checkInputBytes(this.device, [['shapes', packed.shapes.byteLength], ['bodies', packed.bodies.byteLength]]);
  }

  /**
   * Runs the kernel on every pair of `packed` and reads the manifold slots back. Calls in flight
   * run one after the other, each with its own result.
   */
  run(packed: Packed2D): Promise<GpuRunResult> {
    return this.batcher.serial(() => guardDeviceLoss(this.device, async () => {
      this.checkCapacity(packed);
      const start = performance.now();
      const shapes = this.shapes.ensure(packed.shapes.byteLength);
      const bodies = this.bodies.ensure(packed.bodies.byteLength);
      upload(this.device, shapes, packed.shapes);
      upload(this.device, bodies, packed.bodies);
      return this.batcher.run(packed.pairs, (pass, batch, pairs, manifolds, params) => {
        writeBatchParams(this.device, params, LAYOUT_2D.params, batch.count, packed.margin, dispatchGrid2D(batch.count).rowPitch);
        const bindGroup = this.device.createBindGroup({
          layout: this.kernel.layout,
          entries: [
            { binding: 0, resource: { buffer: shapes } },
            { binding: 1, resource: { buffer: bodies } },
            { binding: 2, resource: pairs },
            { binding: 3, resource: manifolds },
            { binding: 4, resource: { buffer: params } },
          ],
        });
        this.dispatchBatch(pass, batch, bindGroup);
      }, start);
    }));
  }

  /** The kernel over one batch of pairs: the one place that picks the pipeline and dispatches. */
  private dispatchBatch(pass: GPUComputePassEncoder, batch: PairBatch, bindGroup: GPUBindGroup): void {
    pass.setPipeline(this.kernel.pipeline);
    pass.setBindGroup(0, bindGroup);
    if (batch.count === 0) return;
    const grid = dispatchGrid2D(batch.count);
    pass.dispatchWorkgroups(grid.x, grid.y);
  }

  destroy(): void {
    this.shapes.destroy();
    this.bodies.destroy();
    this.batcher.destroy();
  }
}
