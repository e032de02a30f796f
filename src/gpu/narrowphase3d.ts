// The 3D narrowphase on the GPU: uploads packed shapes (with the four flat hull buffers), bodies
// and pairs, collides every pair, and reads back one Manifold3D slot per pair. Buffers are pooled
// and grow. A Manifold3D slot is 112 bytes, so a million pairs need more than the 128 MiB a device
// may bind at once (lavapipe's limit): runs go in batches, and calls in flight are queued
// (src/gpu/batches.ts). Inputs that no binding can hold are refused before any GPU work, in bytes.
// The pairs run as pair classes (src/gpu/pair-classes.ts): split on the GPU by shape kinds, each
// class by its own pipeline, compiled on first use for the classes the scene's shapes can form.

import { LAYOUT_3D } from '../layout3d.ts';
import type { Packed3D } from '../pack3d.ts';
import { checkInputBytes, PairBatcher } from './batches.ts';
import {
  GrowingBuffer,
  resultsMode,
  type GpuRunResult,
  type GpuRunResultKept,
  type RunOptions,
} from './buffers.ts';
import { runNarrowphase } from './narrowphase-run.ts';
import { GpuPairClasses } from './pair-classes.ts';
import {
  classesOfKinds3D,
  classesOfPairs3D,
  NARROWPHASE_DIMENSION_3D,
  type NarrowphaseInputs3D,
  type PairClass3D,
  type ShapeKindName3D,
} from './pair-classes3d.ts';

export interface GpuNarrowphase3DOptions {
  /** Most pairs per dispatch (rounded down to a multiple of 256); default: what the binding limit allows. */
  maxPairsPerDispatch?: number;
  /** Shape kinds whose pair classes to compile now (run() compiles what a scene needs on first use). */
  kinds?: readonly ShapeKindName3D[];
  /**
   * 'general': every pair through the one kernel holding every path, as before pair classes (the
   * tests' and the bench's reference). Default 'classes'.
   */
  kernel?: 'classes' | 'general';
}

export class GpuNarrowphase3D {
  private readonly shapes: GrowingBuffer;
  private readonly hullVertices: GrowingBuffer;
  private readonly hullPlanes: GrowingBuffer;
  private readonly hullFaces: GrowingBuffer;
  private readonly hullIndices: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  /** Per batch: its pair count, the classifier's count source. */
  private readonly counts: GrowingBuffer;
  private readonly batcher: PairBatcher;
  /** Most pairs per dispatch (batch). */
  readonly maxPairsPerDispatch: number;

  private constructor(
    readonly device: GPUDevice,
    readonly classes: GpuPairClasses<PairClass3D, NarrowphaseInputs3D>,
    timestamps: boolean,
    private readonly options: GpuNarrowphase3DOptions,
  ) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes3d');
    this.hullVertices = new GrowingBuffer(device, S, 'hull-vertices3d');
    this.hullPlanes = new GrowingBuffer(device, S, 'hull-planes3d');
    this.hullFaces = new GrowingBuffer(device, S, 'hull-faces3d');
    this.hullIndices = new GrowingBuffer(device, S, 'hull-indices3d');
    this.bodies = new GrowingBuffer(device, S, 'bodies3d');
    this.counts = new GrowingBuffer(
      device,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      'pair-counts3d',
    );
    this.batcher = new PairBatcher(
      device,
      'narrowphase3d',
      LAYOUT_3D.manifold.words * 4,
      LAYOUT_3D.params.bytes,
      timestamps,
      options.maxPairsPerDispatch,
    );
    this.maxPairsPerDispatch = this.batcher.pairsPerBatch;
  }

  /**
   * The classifier and the pipelines of the classes `options.kinds` can form (none by default: run()
   * compiles what each scene needs); `timestamps` needs a device created with 'timestamp-query'.
   */
  static async create(
    device: GPUDevice,
    timestamps = device.features.has('timestamp-query'),
    options: GpuNarrowphase3DOptions = {},
  ): Promise<GpuNarrowphase3D> {
    const classes = await GpuPairClasses.create(
      device,
      NARROWPHASE_DIMENSION_3D,
      classesOfKinds3D(options.kinds ?? []),
      // run() reads its results back: a class's closest pass waits until a pair asks for it.
      { closestOnDemand: true },
    );
    return new GpuNarrowphase3D(device, classes, timestamps, options);
  }

  /**
   * Milliseconds each class's pipeline took to compile (classes compiled so far), and as
   * `<class>.closest` its closest pass's, compiled when a pair first asked for it.
   */
  get compileMs(): Record<string, number> {
    const closest = Object.entries(this.classes.closestCompileMs).map(([c, ms]) => [
      `${c}.closest`,
      ms,
    ]);
    return { ...this.classes.compileMs, ...Object.fromEntries(closest) } as Record<string, number>;
  }

  /** The classes the pairs of `packed` fall in (run() compiles and runs those). */
  classesFor(packed: Packed3D): PairClass3D[] {
    return classesOfPairs3D(packed);
  }

  /** Refuses a run whose shapes, hull data or bodies no binding can hold, before anything is uploaded. */
  checkCapacity(packed: Packed3D): void {
    checkInputBytes(this.device, [
      ['shapes', packed.shapes.byteLength],
      ['hull vertices', packed.hullVertices.byteLength],
      ['hull planes', packed.hullPlanes.byteLength],
      ['hull faces', packed.hullFaces.byteLength],
      ['hull indices', packed.hullIndices.byteLength],
      ['bodies', packed.bodies.byteLength],
    ]);
  }

  /**
   * Collides every pair of `packed` and reads the manifold slots back. Calls in flight run one
   * after the other, each with its own result; with `results: 'kept'` the slots are a view of host
   * memory this narrowphase keeps and refills at its next kept run (RunOptions).
   */
  async run(packed: Packed3D, options?: RunOptions & { results?: 'copies' }): Promise<GpuRunResult>;
  async run(packed: Packed3D, options: RunOptions & { results: 'kept' }): Promise<GpuRunResultKept>;
  async run(packed: Packed3D, options?: RunOptions): Promise<GpuRunResult | GpuRunResultKept> {
    const kept = resultsMode(options) === 'kept';
    const r = await runNarrowphase(this.device, {
      classes: this.classes,
      batcher: this.batcher,
      counts: this.counts,
      kernel: this.options.kernel,
      check: () => this.checkCapacity(packed),
      needs: () => this.classesFor(packed),
      upload: (): NarrowphaseInputs3D => ({
        shapes: this.shapes.write(packed.shapes),
        hullVertices: this.hullVertices.write(packed.hullVertices),
        hullPlanes: this.hullPlanes.write(packed.hullPlanes),
        hullFaces: this.hullFaces.write(packed.hullFaces),
        hullIndices: this.hullIndices.write(packed.hullIndices),
        bodies: this.bodies.write(packed.bodies),
      }),
      pairs: packed.pairs,
      pairCount: packed.pairCount,
      margin: packed.margin,
      kept,
    });
    // A copy's view covers its whole new buffer.
    return kept ? r : { ...r, manifolds: r.manifolds.buffer as ArrayBuffer };
  }

  destroy(): void {
    for (const b of [
      this.shapes,
      this.hullVertices,
      this.hullPlanes,
      this.hullFaces,
      this.hullIndices,
      this.bodies,
      this.counts,
    ])
      b.destroy();
    this.classes.destroy();
    this.batcher.destroy();
  }
}
