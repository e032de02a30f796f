// The 2D narrowphase on the GPU: uploads packed shapes, bodies and pairs, dispatches one
// invocation per pair, and reads back one Manifold2D slot per pair. Buffers are pooled and grow;
// a run that does not fit the device's limits is refused before any GPU work, naming the count.

import { CapacityError } from '../errors.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { manifoldBytes2D, type Packed2D } from '../pack2d.ts';
import { WORKGROUP_SIZE_2D } from '../constants.ts';
import { dispatchGrid, GrowingBuffer, PassTimer, submitAndReadManifolds, upload, type GpuRunResult } from './buffers.ts';
import { guardDeviceLoss } from './device.ts';
import { narrowphase2DPipeline, type KernelPipeline } from './pipelines.ts';

export type { GpuRunResult };

/** Workgroup grid for `pairCount` invocations of the 2D kernel. */
export function dispatchGrid2D(pairCount: number): { x: number; y: number; rowPitch: number } {
  return dispatchGrid(pairCount, WORKGROUP_SIZE_2D);
}

export class GpuNarrowphase2D {
  private readonly shapes: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  private readonly pairs: GrowingBuffer;
  private readonly manifolds: GrowingBuffer;
  private readonly readback: GrowingBuffer;
  private readonly params: GPUBuffer;
  private readonly timer: PassTimer;

  private constructor(readonly device: GPUDevice, private readonly kernel: KernelPipeline, timestamps: boolean) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes2d');
    this.bodies = new GrowingBuffer(device, S, 'bodies2d');
    this.pairs = new GrowingBuffer(device, S, 'pairs2d');
    this.manifolds = new GrowingBuffer(device, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'manifolds2d');
    this.readback = new GrowingBuffer(device, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'manifolds2d-readback');
    this.params = device.createBuffer({ label: 'params2d', size: LAYOUT_2D.params.bytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.timer = new PassTimer(device, ['kernel'], timestamps);
  }

  /** Compiles the kernel for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query')): Promise<GpuNarrowphase2D> {
    return new GpuNarrowphase2D(device, await narrowphase2DPipeline(device), timestamps);
  }

  /** Refuses a run the device cannot hold, before anything is uploaded. */
  checkCapacity(packed: Packed2D): void {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    const need = manifoldBytes2D(packed.pairCount);
    if (need > limit || packed.bodies.byteLength > limit || packed.pairs.byteLength > limit) {
      throw new CapacityError(
        `pairs: ${packed.pairCount} pairs need ${need} bytes of manifold storage (bodies ${packed.bodies.byteLength}); ` +
          `this device binds at most ${limit} bytes per buffer. Split the pairs into batches.`,
      );
    }
  }

  /** Runs the kernel on every pair of `packed` and reads the manifold slots back. */
  async run(packed: Packed2D): Promise<GpuRunResult> {
    this.checkCapacity(packed);
    const start = performance.now();
    const device = this.device;
    const manifoldBytes = manifoldBytes2D(packed.pairCount);
    const shapes = this.shapes.ensure(packed.shapes.byteLength);
    const bodies = this.bodies.ensure(packed.bodies.byteLength);
    const pairs = this.pairs.ensure(Math.max(8, packed.pairs.byteLength));
    const manifolds = this.manifolds.ensure(manifoldBytes);
    const readback = this.readback.ensure(manifoldBytes);
    upload(device, shapes, packed.shapes);
    upload(device, bodies, packed.bodies);
    upload(device, pairs, packed.pairs);
    const grid = dispatchGrid2D(packed.pairCount);
    const params = new ArrayBuffer(LAYOUT_2D.params.bytes);
    new Uint32Array(params)[LAYOUT_2D.params.pairCount] = packed.pairCount;
    new Float32Array(params)[LAYOUT_2D.params.margin] = packed.margin;
    new Uint32Array(params)[LAYOUT_2D.params.rowPitch] = grid.rowPitch;
    device.queue.writeBuffer(this.params, 0, params);

    const bindGroup = device.createBindGroup({
      layout: this.kernel.layout,
      entries: [
        { binding: 0, resource: { buffer: shapes } },
        { binding: 1, resource: { buffer: bodies } },
        { binding: 2, resource: { buffer: pairs } },
        { binding: 3, resource: { buffer: manifolds, size: manifoldBytes } },
        { binding: 4, resource: { buffer: this.params } },
      ],
    });
    const encoder = device.createCommandEncoder({ label: 'narrowphase2d' });
    const pass = encoder.beginComputePass(this.timer.passDescriptor());
    pass.setPipeline(this.kernel.pipeline);
    pass.setBindGroup(0, bindGroup);
    if (packed.pairCount > 0) pass.dispatchWorkgroups(grid.x, grid.y);
    pass.end();
    return guardDeviceLoss(device, () => submitAndReadManifolds(device, encoder, this.timer, manifolds, readback, manifoldBytes, start));
  }

  destroy(): void {
    for (const b of [this.shapes, this.bodies, this.pairs, this.manifolds, this.readback]) b.destroy();
    this.params.destroy();
    this.timer.destroy();
  }
}
