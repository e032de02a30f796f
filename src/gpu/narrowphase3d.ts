// The 3D narrowphase on the GPU: uploads packed shapes (with the four flat hull buffers), bodies
// and pairs, dispatches one invocation per pair, and reads back one Manifold3D slot per pair.
// Buffers are pooled and grow. A Manifold3D slot is 160 bytes, so a million pairs need more than
// the 128 MiB a device may bind at once (lavapipe's limit): the pairs are dispatched in chunks,
// each binding its range of the pair and manifold buffers, in one compute pass. A run that does not
// fit the device's buffer limits at all is refused before any GPU work, naming the count. A scene
// whose shapes are all boxes runs the kernel compiled for boxes alone (BOXES_ONLY_3D).

import { WORKGROUP_SIZE_3D } from '../constants3d.ts';
import { CapacityError } from '../errors.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { boxesOnly3D, manifoldBytes3D, type Packed3D } from '../pack3d.ts';
import { dispatchGrid, GrowingBuffer, PassTimer, submitAndReadManifolds, upload } from './buffers.ts';
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

const MANIFOLD_BYTES = LAYOUT_3D.manifold.words * 4;
const PAIR_BYTES = 8;
/** Chunks start at multiples of this many pairs, so both buffer offsets meet any offset alignment (<= 256 bytes). */
const CHUNK_ALIGN_PAIRS = 256;

export class GpuNarrowphase3D {
  private readonly shapes: GrowingBuffer;
  private readonly hullVertices: GrowingBuffer;
  private readonly hullPlanes: GrowingBuffer;
  private readonly hullFaces: GrowingBuffer;
  private readonly hullIndices: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  private readonly pairs: GrowingBuffer;
  private readonly manifolds: GrowingBuffer;
  private readonly readback: GrowingBuffer;
  /** One params uniform per chunk. */
  private readonly params: GPUBuffer[] = [];
  private readonly timer: PassTimer;
  /** Most pairs per dispatch. */
  readonly maxPairsPerDispatch: number;

  private constructor(readonly device: GPUDevice, private readonly kernel: KernelPipeline, timestamps: boolean, options: GpuNarrowphase3DOptions) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes3d');
    this.hullVertices = new GrowingBuffer(device, S, 'hull-vertices3d');
    this.hullPlanes = new GrowingBuffer(device, S, 'hull-planes3d');
    this.hullFaces = new GrowingBuffer(device, S, 'hull-faces3d');
    this.hullIndices = new GrowingBuffer(device, S, 'hull-indices3d');
    this.bodies = new GrowingBuffer(device, S, 'bodies3d');
    this.pairs = new GrowingBuffer(device, S, 'pairs3d');
    this.manifolds = new GrowingBuffer(device, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'manifolds3d');
    this.readback = new GrowingBuffer(device, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'manifolds3d-readback');
    this.timer = new PassTimer(device, ['kernel'], timestamps);
    const limit = device.limits.maxStorageBufferBindingSize;
    const byLimit = Math.floor(Math.min(limit / MANIFOLD_BYTES, limit / PAIR_BYTES) / CHUNK_ALIGN_PAIRS) * CHUNK_ALIGN_PAIRS;
    const wanted = options.maxPairsPerDispatch ?? byLimit;
    this.maxPairsPerDispatch = Math.max(CHUNK_ALIGN_PAIRS, Math.floor(Math.min(wanted, byLimit) / CHUNK_ALIGN_PAIRS) * CHUNK_ALIGN_PAIRS);
  }

  /** Compiles the kernel for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query'), options: GpuNarrowphase3DOptions = {}): Promise<GpuNarrowphase3D> {
    return new GpuNarrowphase3D(device, await narrowphase3DPipeline(device), timestamps, options);
  }

  /** Refuses a run the device cannot hold, before anything is uploaded. */
  checkCapacity(packed: Packed3D): void {
    const binding = this.device.limits.maxStorageBufferBindingSize;
    const buffer = this.device.limits.maxBufferSize;
    const need = manifoldBytes3D(packed.pairCount);
    const inputs = [packed.bodies.byteLength, packed.shapes.byteLength, packed.hullVertices.byteLength, packed.hullPlanes.byteLength, packed.hullFaces.byteLength, packed.hullIndices.byteLength];
    if (need > buffer || packed.pairs.byteLength > buffer || inputs.some((b) => b > binding)) {
      throw new CapacityError(
        `pairs: ${packed.pairCount} pairs need ${need} bytes of manifold storage (bodies ${packed.bodies.byteLength}, hull vertices ${packed.hullVertices.byteLength}); ` +
          `this device holds at most ${buffer} bytes per buffer and binds ${binding}. Split the pairs or the scene into batches.`,
      );
    }
  }

  /** The kernel run() uses for `packed`: the box-only one when every shape is a box, else the general one. */
  kernelFor(packed: Packed3D): 'boxes' | 'general' {
    return boxesOnly3D(packed) ? 'boxes' : 'general';
  }

  /** Runs the kernel on every pair of `packed` and reads the manifold slots back. */
  async run(packed: Packed3D): Promise<GpuRunResult> {
    this.checkCapacity(packed);
    // Compiled on first use (the one kernel most scenes need, not both up front).
    const kernel = this.kernelFor(packed) === 'boxes' ? await narrowphase3DPipeline(this.device, true) : this.kernel;
    const start = performance.now();
    const device = this.device;
    const manifoldBytes = manifoldBytes3D(packed.pairCount);
    const shapes = this.shapes.ensure(packed.shapes.byteLength);
    const hullVertices = this.hullVertices.ensure(packed.hullVertices.byteLength);
    const hullPlanes = this.hullPlanes.ensure(packed.hullPlanes.byteLength);
    const hullFaces = this.hullFaces.ensure(packed.hullFaces.byteLength);
    const hullIndices = this.hullIndices.ensure(packed.hullIndices.byteLength);
    const bodies = this.bodies.ensure(packed.bodies.byteLength);
    const pairs = this.pairs.ensure(Math.max(PAIR_BYTES, packed.pairs.byteLength));
    const manifolds = this.manifolds.ensure(manifoldBytes);
    const readback = this.readback.ensure(manifoldBytes);
    upload(device, shapes, packed.shapes);
    upload(device, hullVertices, packed.hullVertices);
    upload(device, hullPlanes, packed.hullPlanes);
    upload(device, hullFaces, packed.hullFaces);
    upload(device, hullIndices, packed.hullIndices);
    upload(device, bodies, packed.bodies);
    upload(device, pairs, packed.pairs);

    // Chunks of at most maxPairsPerDispatch pairs, each with its params and buffer ranges.
    const chunk = this.maxPairsPerDispatch;
    const chunks = Math.max(1, Math.ceil(packed.pairCount / chunk));
    const encoder = device.createCommandEncoder({ label: 'narrowphase3d' });
    const pass = encoder.beginComputePass(this.timer.passDescriptor('kernel', 'narrowphase3d'));
    pass.setPipeline(kernel.pipeline);
    for (let c = 0; c < chunks; c++) {
      const first = c * chunk;
      const count = Math.min(chunk, packed.pairCount - first);
      while (this.params.length <= c) {
        this.params.push(device.createBuffer({ label: `params3d-${this.params.length}`, size: LAYOUT_3D.params.bytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }));
      }
      const grid = dispatchGrid3D(count);
      const params = new ArrayBuffer(LAYOUT_3D.params.bytes);
      new Uint32Array(params)[LAYOUT_3D.params.pairCount] = count;
      new Float32Array(params)[LAYOUT_3D.params.margin] = packed.margin;
      new Uint32Array(params)[LAYOUT_3D.params.rowPitch] = grid.rowPitch;
      device.queue.writeBuffer(this.params[c]!, 0, params);
      const bindGroup = device.createBindGroup({
        layout: kernel.layout,
        entries: [
          { binding: 0, resource: { buffer: shapes } },
          { binding: 1, resource: { buffer: hullVertices } },
          { binding: 2, resource: { buffer: hullPlanes } },
          { binding: 3, resource: { buffer: hullFaces } },
          { binding: 4, resource: { buffer: hullIndices } },
          { binding: 5, resource: { buffer: bodies } },
          { binding: 6, resource: { buffer: pairs, offset: first * PAIR_BYTES, size: Math.max(1, count) * PAIR_BYTES } },
          { binding: 7, resource: { buffer: manifolds, offset: first * MANIFOLD_BYTES, size: Math.max(1, count) * MANIFOLD_BYTES } },
          { binding: 8, resource: { buffer: this.params[c]! } },
        ],
      });
      pass.setBindGroup(0, bindGroup);
      if (count > 0) pass.dispatchWorkgroups(grid.x, grid.y);
    }
    pass.end();
    return guardDeviceLoss(device, () => submitAndReadManifolds(device, encoder, this.timer, manifolds, readback, manifoldBytes, start));
  }

  destroy(): void {
    for (const b of [this.shapes, this.hullVertices, this.hullPlanes, this.hullFaces, this.hullIndices, this.bodies, this.pairs, this.manifolds, this.readback]) b.destroy();
    for (const p of this.params) p.destroy();
    this.params.length = 0;
    this.timer.destroy();
  }
}
