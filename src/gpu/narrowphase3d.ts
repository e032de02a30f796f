// The 3D narrowphase on the GPU: uploads packed shapes (with the four flat hull buffers), bodies
// and pairs, dispatches one invocation per pair, and reads back one Manifold3D slot per pair.
// Buffers are pooled and grow. A Manifold3D slot is 160 bytes, so a million pairs need more than
// the 128 MiB a device may bind at once (lavapipe's limit): runs go in batches, and calls in flight
// are queued (src/gpu/batches.ts). Inputs that no binding can hold are refused before any GPU work,
// in bytes. A scene whose shapes are all boxes runs the kernel compiled for boxes alone
// (BOXES_ONLY_3D).

import { WORKGROUP_SIZE_3D } from '../constants3d.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { boxesOnly3D, type Packed3D } from '../pack3d.ts';
import { checkInputBytes, PairBatcher, writeBatchParams, type PairBatch } from './batches.ts';
import { dispatchGrid, GrowingBuffer, upload } from './buffers.ts';
import type { GpuRunResult } from './buffers.ts';
import { guardDeviceLoss } from './device.ts';
import { narrowphase3DPipeline, type KernelPipeline } from './pipelines.ts';

/** Workgroup grid for `pairCount` invocations of the 3D kernel. */
export function dispatchGrid3D(pairCount: number): { x: number; y: number; rowPitch: number } {
  return dispatchGrid(pairCount, WORKGROUP_SIZE_3D);
}

export interface GpuNarrowphase3DOptions {
  /** Most pairs per dispatch (rounded down to a multiple of 256); default: what the binding limit allows. */
  maxPairsPerDispatch?: number;
}

export class GpuNarrowphase3D {
  private readonly shapes: GrowingBuffer;
  private readonly hullVertices: GrowingBuffer;
  private readonly hullPlanes: GrowingBuffer;
  private readonly hullFaces: GrowingBuffer;
  private readonly hullIndices: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  private readonly batcher: PairBatcher;
  /** Most pairs per dispatch (batch). */
  readonly maxPairsPerDispatch: number;

  private constructor(readonly device: GPUDevice, private readonly kernel: KernelPipeline, timestamps: boolean, options: GpuNarrowphase3DOptions) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes3d');
    this.hullVertices = new GrowingBuffer(device, S, 'hull-vertices3d');
    this.hullPlanes = new GrowingBuffer(device, S, 'hull-planes3d');
    this.hullFaces = new GrowingBuffer(device, S, 'hull-faces3d');
    this.hullIndices = new GrowingBuffer(device, S, 'hull-indices3d');
    this.bodies = new GrowingBuffer(device, S, 'bodies3d');
    this.batcher = new PairBatcher(device, 'narrowphase3d', LAYOUT_3D.manifold.words * 4, LAYOUT_3D.params.bytes, timestamps, options.maxPairsPerDispatch);
    this.maxPairsPerDispatch = this.batcher.pairsPerBatch;
  }

  /** Compiles the kernel for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query'), options: GpuNarrowphase3DOptions = {}): Promise<GpuNarrowphase3D> {
    return new GpuNarrowphase3D(device, await narrowphase3DPipeline(device), timestamps, options);
  }

  /** Refuses a run whose shapes, hull data or bodies no binding can hold, before anything is uploaded. */
  checkCapacity(packed: Packed3D): void {
    checkInputBytes(this.device, [
      ['shapes', packed.shapes.byteLength], ['hull vertices', packed.hullVertices.byteLength], ['hull planes', packed.hullPlanes.byteLength],
      ['hull faces', packed.hullFaces.byteLength], ['hull indices', packed.hullIndices.byteLength], ['bodies', packed.bodies.byteLength],
    ]);
  }

  /** The kernel run() uses for `packed`: the box-only one when every shape is a box, else the general one. */
  kernelFor(packed: Packed3D): 'boxes' | 'general' {
    return boxesOnly3D(packed) ? 'boxes' : 'general';
  }

  /**
   * Runs the kernel on every pair of `packed` and reads the manifold slots back. Calls in flight
   * run one after the other, each with its own result.
   */
  run(packed: Packed3D): Promise<GpuRunResult> {
    return this.batcher.serial(() => guardDeviceLoss(this.device, async () => {
      this.checkCapacity(packed);
      // Compiled on first use (the one kernel most scenes need, not both up front).
      const kernel = this.kernelFor(packed) === 'boxes' ? await narrowphase3DPipeline(this.device, true) : this.kernel;
      const start = performance.now();
      const device = this.device;
      const inputs = [
        this.shapes.ensure(packed.shapes.byteLength),
        this.hullVertices.ensure(packed.hullVertices.byteLength),
        this.hullPlanes.ensure(packed.hullPlanes.byteLength),
        this.hullFaces.ensure(packed.hullFaces.byteLength),
        this.hullIndices.ensure(packed.hullIndices.byteLength),
        this.bodies.ensure(packed.bodies.byteLength),
      ];
      [packed.shapes, packed.hullVertices, packed.hullPlanes, packed.hullFaces, packed.hullIndices, packed.bodies].forEach((data, i) => upload(device, inputs[i]!, data));
      return this.batcher.run(packed.pairs, (pass, batch, pairs, manifolds, params) => {
        writeBatchParams(device, params, LAYOUT_3D.params, batch.count, packed.margin, dispatchGrid3D(batch.count).rowPitch);
        const bindGroup = device.createBindGroup({
          layout: kernel.layout,
          entries: [
            ...inputs.map((buffer, binding) => ({ binding, resource: { buffer } })),
            { binding: 6, resource: pairs },
            { binding: 7, resource: manifolds },
            { binding: 8, resource: { buffer: params } },
          ],
        });
        this.dispatchBatch(pass, batch, kernel, bindGroup);
      }, start);
    }));
  }

  /** The kernel over one batch of pairs: the one place that picks the pipeline and dispatches. */
  private dispatchBatch(pass: GPUComputePassEncoder, batch: PairBatch, kernel: KernelPipeline, bindGroup: GPUBindGroup): void {
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, bindGroup);
    if (batch.count === 0) return;
    const grid = dispatchGrid3D(batch.count);
    pass.dispatchWorkgroups(grid.x, grid.y);
  }

  destroy(): void {
    for (const b of [this.shapes, this.hullVertices, this.hullPlanes, this.hullFaces, this.hullIndices, this.bodies]) b.destroy();
    this.batcher.destroy();
  }
}
