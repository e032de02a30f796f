// The 2D narrowphase on the GPU: uploads packed shapes, bodies and pairs, collides every pair, and
// reads back one Manifold2D slot per pair. Buffers are pooled and grow. Runs larger than one
// binding of slots go in batches, and calls in flight are queued (src/gpu/batches.ts); inputs
// that no binding can hold are refused before any GPU work, in bytes. The pairs run as pair
// classes (src/gpu/pair-classes.ts): split on the GPU by shape kinds, each class by its own
// pipeline, compiled on first use for the classes the scene's shapes can form.

import { LAYOUT_2D } from '../layout2d.ts';
import type { Packed2D } from '../pack2d.ts';
import { checkInputBytes, PairBatcher } from './batches.ts';
import {
  GrowingBuffer,
  resultsMode,
  type GpuRunResult,
  type GpuRunResultKept,
  type ResultsMode,
  type RunOptions,
} from './buffers.ts';
import { runNarrowphase } from './narrowphase-run.ts';
import { GpuPairClasses } from './pair-classes.ts';
import {
  classesOfKinds2D,
  classesOfPairs2D,
  NARROWPHASE_DIMENSION_2D,
  type NarrowphaseInputs2D,
  type PairClass2D,
  type ShapeKindName2D,
} from './pair-classes2d.ts';

export type { GpuRunResult, GpuRunResultKept, ResultsMode, RunOptions };

export interface GpuNarrowphase2DOptions {
  /** Most pairs per batch (rounded down to a multiple of 256); default: what one binding holds. */
  maxPairsPerDispatch?: number;
  /** Shape kinds whose pair classes to compile now (run() compiles what a scene needs on first use). */
  kinds?: readonly ShapeKindName2D[];
  /** 'general': every pair through the one kernel holding every path (the tests' reference). Default 'classes'. */
  kernel?: 'classes' | 'general';
}

export class GpuNarrowphase2D {
  private readonly shapes: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  /** Per batch: its pair count, the classifier's count source. */
  private readonly counts: GrowingBuffer;
  private readonly batcher: PairBatcher;
  /** Most pairs per dispatch (batch). */
  readonly maxPairsPerDispatch: number;

  private constructor(
    readonly device: GPUDevice,
    readonly classes: GpuPairClasses<PairClass2D, NarrowphaseInputs2D>,
    timestamps: boolean,
    private readonly options: GpuNarrowphase2DOptions,
  ) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes2d');
    this.bodies = new GrowingBuffer(device, S, 'bodies2d');
    this.counts = new GrowingBuffer(
      device,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      'pair-counts2d',
    );
    this.batcher = new PairBatcher(
      device,
      'narrowphase2d',
      LAYOUT_2D.manifold.words * 4,
      LAYOUT_2D.params.bytes,
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
    options: GpuNarrowphase2DOptions = {},
  ): Promise<GpuNarrowphase2D> {
    const classes = await GpuPairClasses.create(
      device,
      NARROWPHASE_DIMENSION_2D,
      classesOfKinds2D(options.kinds ?? []),
      // run() reads its results back: a class's closest pass waits until a pair asks for it.
      { closestOnDemand: true },
    );
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

  /** Refuses a run whose shapes or bodies no binding can hold, before anything is uploaded. */
  checkCapacity(packed: Packed2D): void {
    checkInputBytes(this.device, [
      ['shapes', packed.shapes.byteLength],
      ['bodies', packed.bodies.byteLength],
    ]);
  }

  /**
   * Collides every pair of `packed` and reads the manifold slots back. Calls in flight run one
   * after the other, each with its own result; with `results: 'kept'` the slots are a view of host
   * memory this narrowphase keeps and refills at its next kept run (RunOptions).
   */
  async run(packed: Packed2D, options?: RunOptions & { results?: 'copies' }): Promise<GpuRunResult>;
  async run(packed: Packed2D, options: RunOptions & { results: 'kept' }): Promise<GpuRunResultKept>;
  async run(packed: Packed2D, options?: RunOptions): Promise<GpuRunResult | GpuRunResultKept> {
    const kept = resultsMode(options) === 'kept';
    const r = await runNarrowphase(this.device, {
      classes: this.classes,
      batcher: this.batcher,
      counts: this.counts,
      kernel: this.options.kernel,
      check: () => this.checkCapacity(packed),
      needs: () => this.classesFor(packed),
      upload: (): NarrowphaseInputs2D => ({
        shapes: this.shapes.write(packed.shapes),
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
    for (const b of [this.shapes, this.bodies, this.counts]) b.destroy();
    this.classes.destroy();
    this.batcher.destroy();
  }
}
