// The 2D narrowphase on the GPU: uploads packed shapes, bodies and pairs, dispatches one
// invocation per pair, and reads back one Manifold2D slot per pair. Buffers are pooled and grow;
// a run that does not fit the device's limits is refused before any GPU work, naming the count.
// The pairs run as pair classes (src/gpu/pair-classes.ts): split on the GPU by shape kinds, each
// class by its own pipeline, compiled on first use for the classes the scene's shapes can form.

import { CapacityError } from '../errors.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { manifoldBytes2D, type Packed2D } from '../pack2d.ts';
import { WORKGROUP_SIZE_2D } from '../constants.ts';
import { dispatchGrid, GrowingBuffer, PassTimer, submitAndReadManifolds, upload, type GpuRunResult } from './buffers.ts';
import { guardDeviceLoss } from './device.ts';
import { classKernel, GpuPairClasses } from './pair-classes.ts';
import { classesOfKinds2D, classesOfPairs2D, NARROWPHASE_DIMENSION_2D, type NarrowphaseInputs2D, type PairClass2D, type ShapeKindName2D } from './pair-classes2d.ts';

export type { GpuRunResult };

/** Workgroup grid for `pairCount` invocations of the 2D kernel. */
export function dispatchGrid2D(pairCount: number): { x: number; y: number; rowPitch: number } {
  return dispatchGrid(pairCount, WORKGROUP_SIZE_2D);
}

export interface GpuNarrowphase2DOptions {
  /** Shape kinds whose pair classes to compile now (run() compiles what a scene needs on first use). */
  kinds?: readonly ShapeKindName2D[];
  /** 'general': every pair through the one kernel holding every path (the tests' reference). Default 'classes'. */
  kernel?: 'classes' | 'general';
}

export class GpuNarrowphase2D {
  private readonly shapes: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  private readonly pairs: GrowingBuffer;
  private readonly manifolds: GrowingBuffer;
  private readonly readback: GrowingBuffer;
  private readonly params: GPUBuffer;
  /** The pair count, where the classifier reads it. */
  private readonly count: GPUBuffer;
  private readonly timer: PassTimer;

  private constructor(readonly device: GPUDevice, readonly classes: GpuPairClasses<PairClass2D, NarrowphaseInputs2D>, timestamps: boolean, private readonly options: GpuNarrowphase2DOptions) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes2d');
    this.bodies = new GrowingBuffer(device, S, 'bodies2d');
    this.pairs = new GrowingBuffer(device, S, 'pairs2d');
    this.manifolds = new GrowingBuffer(device, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'manifolds2d');
    this.readback = new GrowingBuffer(device, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'manifolds2d-readback');
    this.params = device.createBuffer({ label: 'params2d', size: LAYOUT_2D.params.bytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.count = device.createBuffer({ label: 'pair-count2d', size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    this.timer = new PassTimer(device, ['kernel'], timestamps);
  }

  /**
   * The classifier and the pipelines of the classes `options.kinds` can form (none by default: run()
   * compiles what each scene needs); `timestamps` needs a device created with 'timestamp-query'.
   */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query'), options: GpuNarrowphase2DOptions = {}): Promise<GpuNarrowphase2D> {
    const classes = await GpuPairClasses.create(device, NARROWPHASE_DIMENSION_2D, classesOfKinds2D(options.kinds ?? []));
    return new GpuNarrowphase2D(device, classes, timestamps, options);
  }

  /** Milliseconds each class's pipeline took to compile (classes compiled so far). */
  get compileMs(): Partial<Record<PairClass2D, number>> {
    return this.classes.compileMs;
  }

  /** The classes the pairs of `packed` fall in (run() compiles and runs those). */
  classesFor(packed: Packed2D): PairClass2D[] {
    return classesOfPairs2D(packed);
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
    const general = this.options.kernel === 'general' ? await classKernel(this.device, NARROWPHASE_DIMENSION_2D, 'general') : null;
    if (!general) await this.classes.prepare(this.classesFor(packed));
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
    const inputs: NarrowphaseInputs2D = { shapes, bodies };
    const pairBinding = { buffer: pairs, size: Math.max(8, packed.pairs.byteLength) };
    const manifoldBinding = { buffer: manifolds, size: manifoldBytes };
    const encoder = device.createCommandEncoder({ label: 'narrowphase2d' });
    if (general) {
      const grid = dispatchGrid2D(packed.pairCount);
      const params = new ArrayBuffer(LAYOUT_2D.params.bytes);
      new Uint32Array(params)[LAYOUT_2D.params.pairCount] = packed.pairCount;
      new Float32Array(params)[LAYOUT_2D.params.margin] = packed.margin;
      new Uint32Array(params)[LAYOUT_2D.params.rowPitch] = grid.rowPitch;
      device.queue.writeBuffer(this.params, 0, params);
      const pass = encoder.beginComputePass(this.timer.passDescriptor());
      pass.setPipeline(general.pipeline);
      pass.setBindGroup(0, device.createBindGroup({ layout: general.layout, entries: NARROWPHASE_DIMENSION_2D.bindings(inputs, pairBinding, manifoldBinding, this.params) }));
      if (packed.pairCount > 0) pass.dispatchWorkgroups(grid.x, grid.y);
      pass.end();
    } else {
      device.queue.writeBuffer(this.count, 0, new Uint32Array([packed.pairCount]));
      this.classes.encode(encoder, { inputs, pairs: pairBinding, manifolds: manifoldBinding, slots: Math.max(1, packed.pairCount), count: { buffer: this.count, offset: 0 }, margin: packed.margin }, 0, {
        classify: this.timer.passDescriptor('kernel', 'narrowphase2d.classify', 'begin'),
        collide: this.timer.passDescriptor('kernel', 'narrowphase2d.classes', 'end'),
      });
    }
    return guardDeviceLoss(device, () => submitAndReadManifolds(device, encoder, this.timer, manifolds, readback, manifoldBytes, start));
  }

  destroy(): void {
    for (const b of [this.shapes, this.bodies, this.pairs, this.manifolds, this.readback]) b.destroy();
    this.params.destroy();
    this.count.destroy();
    this.timer.destroy();
    this.classes.destroy();
  }
}
