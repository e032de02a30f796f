// One run of a GPU narrowphase (src/gpu/narrowphase2d.ts, narrowphase3d.ts) once its inputs are
// known: the classes the pairs need compiled (or the general kernel, the tests' reference), the
// inputs uploaded, and every batch recorded through the pair classes or the one general kernel,
// then read back (src/gpu/batches.ts); run again when a pair asked for a closest pass compiled on
// demand (GpuPairClasses.armAsked). The dimensions differ only in their inputs.

import { PairBatcher, writeBatchParams, type RecordBatch } from './batches.ts';
import { dispatchGrid, type GpuRunResultKept, type GrowingBuffer } from './buffers.ts';
import { guardDeviceLoss } from './device.ts';
import { classKernel, type GpuPairClasses } from './pair-classes.ts';

export interface NarrowphaseRun<C extends string, I> {
  classes: GpuPairClasses<C, I>;
  batcher: PairBatcher;
  /** Per batch its pair count, where the classifier reads it. */
  counts: GrowingBuffer;
  /** 'general': every pair through the kernel holding every path. */
  kernel: 'classes' | 'general' | undefined;
  /** Refuses inputs no binding holds (before any GPU work). */
  check(): void;
  /** The classes the pairs fall in. */
  needs(): C[];
  /** Uploads the inputs into the instance's buffers. */
  upload(): I;
  pairs: Uint32Array;
  pairCount: number;
  margin: number;
  /** The slots into the batcher's kept host memory (RunOptions 'kept'), else a new buffer. */
  kept: boolean;
}

/**
 * Collides every pair of the run and reads the manifold slots back; calls in flight queue. The
 * slots arrive as a view: of a new buffer of exactly their bytes, or of the kept host memory.
 */
export function runNarrowphase<C extends string, I>(
  device: GPUDevice,
  run: NarrowphaseRun<C, I>,
): Promise<GpuRunResultKept> {
  const { classes, batcher } = run;
  const dimension = classes.dimension;
  return batcher.serial(() =>
    guardDeviceLoss(device, async () => {
      run.check();
      const general =
        run.kernel === 'general' ? await classKernel(device, dimension, 'general') : null;
      if (!general) await classes.prepare(run.needs());
      const start = performance.now();
      const inputs = run.upload();
      const batches = batcher.batches(run.pairCount);
      const counts = run.counts.ensure(4 * batches.length);
      device.queue.writeBuffer(counts, 0, new Uint32Array(batches.map((b) => b.count)));
      classes.reserve(batches.length);
      const record: RecordBatch = (encoder, batch, pairs, manifolds, params, pass) => {
        if (general) {
          const grid = dispatchGrid(batch.count, dimension.workgroupSize);
          writeBatchParams(
            device,
            params,
            dimension.params,
            batch.count,
            run.margin,
            grid.rowPitch,
          );
          const p = encoder.beginComputePass(pass('only'));
          p.setPipeline(general.pipeline);
          p.setBindGroup(
            0,
            device.createBindGroup({
              layout: general.layout,
              entries: dimension.bindings(inputs, pairs, manifolds, params),
            }),
          );
          if (batch.count > 0) p.dispatchWorkgroups(grid.x, grid.y);
          p.end();
        } else {
          classes.encode(
            encoder,
            {
              inputs,
              pairs,
              manifolds,
              slots: Math.max(1, batch.count),
              count: { buffer: counts, offset: 4 * batch.index },
              margin: run.margin,
            },
            batch.index,
            { classify: pass('first'), collide: pass('last') },
          );
        }
      };
      const result = await batcher.run(run.pairs, record, start, run.kept);
      // A pair asked for a closest pass not compiled yet (compiled on demand): it is now; the
      // batches run again with it.
      if (general || !(await classes.armAsked(batches.length))) return result;
      return batcher.run(run.pairs, record, start, run.kept);
    }),
  );
}
