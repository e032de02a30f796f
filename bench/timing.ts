// Timing of the benchmark's contenders (shared by the 2D part in ./main.ts and the 3D part in
// ./bench3d.ts): warm-up, passes per sample, timed samples, median and best.

import type { ContenderResult, Measurement } from './report.ts';

export interface TimingPolicy {
  repeat: number;
  /** A timed sample repeats the pass until it lasts at least this long. */
  minSampleMs: number;
  /** Warm-up passes until this much time has been spent (at least `minWarmupPasses` passes). */
  warmupMs: number;
  /** Fewest warm-up passes (default 2). */
  minWarmupPasses?: number;
}

/** One pass over all pairs; returns its times in ms: [host] or [host, kernel] (NaN: none). */
export type Pass = () => number[] | Promise<number[]>;

/** A contender being timed: its pass, then the passes per sample and the samples so far. */
export interface Timed {
  pass: Pass;
  iterations: number;
  /** Per time kind (host, kernel): the per-pass time of each sample. */
  samples: number[][];
  /** Steady-state time of one pass (ms): the fastest warm-up pass. */
  passMs: number;
}

/** Warm-up passes (V8 tier-up, the GPU's first dispatch at this size), then passes per sample. */
export async function warmUp(pass: Pass, policy: TimingPolicy): Promise<Timed> {
  let last: number[] = [];
  let spent = 0;
  let fastest = Infinity; // the steady-state estimate: early passes are cold
  const minPasses = policy.minWarmupPasses ?? 2;
  for (let i = 0; (i < minPasses || spent < policy.warmupMs) && i < 10_000; i++) {
    last = await pass();
    spent += last[0]!;
    fastest = Math.min(fastest, last[0]!);
  }
  const iterations = Math.max(
    1,
    Math.min(10_000, Math.ceil(policy.minSampleMs / Math.max(1e-3, fastest))),
  );
  return { pass, iterations, samples: last.map(() => []), passMs: fastest };
}

/** One timed sample: `iterations` passes, per-pass mean of each time kind. */
export async function sample(t: Timed): Promise<void> {
  const sum = t.samples.map(() => 0);
  for (let i = 0; i < t.iterations; i++) {
    const times = await t.pass();
    times.forEach((x, j) => {
      sum[j]! += x;
    });
  }
  sum.forEach((x, j) => t.samples[j]!.push(x / t.iterations));
}

/** Median (and best) of the samples of one time kind; null when it had no value (NaN). */
export function summarise(
  pairs: number,
  samples: number[],
  iterations: number,
): Measurement | null {
  if (samples.length === 0 || samples.some((x) => !Number.isFinite(x))) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const ms = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const bestMs = sorted[0]!;
  return {
    ms,
    pairsPerSecond: (pairs * 1000) / ms,
    samplesMs: samples,
    iterations,
    bestMs,
    bestPairsPerSecond: (pairs * 1000) / bestMs,
    spread: (sorted[sorted.length - 1]! - bestMs) / ms,
  };
}

export function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * The contenders of one scenario: warm-up as they are added, then `repeat` rounds that take one
 * sample of each in turn (so background load slows them all alike), then the summaries. A
 * contender that throws is marked skipped with the reason and left out of later rounds.
 */
export class ScenarioTiming<Id extends string> {
  readonly contenders = {} as Record<Id, ContenderResult>;
  /** Run after the timing (and when it fails): release peers and buffers. */
  readonly cleanups: (() => void)[] = [];
  private readonly finishers: (() => void)[] = [];
  // Contender ids of each timed entry: [host time] or [host time, kernel time].
  private readonly entries: { ids: Id[]; timed: Timed; wanted: number }[] = [];

  constructor(
    private readonly name: string,
    private readonly labels: Record<Id, string>,
    private readonly policy: TimingPolicy,
    private readonly warnings: string[],
    /** Passes longer than `ms` take only `samples` samples (optional). */
    private readonly longPass: { ms: number; samples: number } | null = null,
  ) {}

  fail(ids: Id[], e: unknown): void {
    const why = errorText(e);
    for (const id of ids) this.contenders[id] = { skipped: why };
    this.warnings.push(`${this.name}: ${ids.map((id) => this.labels[id]).join(', ')}: ${why}`);
  }

  /** Warms `pass` up and queues it for timing; `finish` runs once the timing is done. */
  async add(ids: Id[], pass: Pass, finish: () => void): Promise<void> {
    try {
      const timed = await warmUp(pass, this.policy);
      const long = this.longPass && timed.passMs > this.longPass.ms;
      this.entries.push({
        ids,
        timed,
        wanted: long ? Math.min(this.policy.repeat, this.longPass!.samples) : this.policy.repeat,
      });
      this.finishers.push(finish);
    } catch (e) {
      this.fail(ids, e);
    }
  }

  /**
   * A peer engine as contender `id`: one pass is `batch(peer)` (its collideBatch over the scene's
   * bodies and pairs, returning the touching count), handed to `touching` once timed. A peer that
   * fails to load is marked skipped; `dispose`, when the peer has one, runs with the cleanups.
   */
  async addPeer<P extends object>(
    id: Id,
    create: () => P | Promise<P>,
    batch: (peer: P) => number,
    touching: (count: number) => void,
  ): Promise<void> {
    try {
      const peer = await create();
      const dispose = (peer as { dispose?: unknown }).dispose;
      if (typeof dispose === 'function') this.cleanups.push(() => dispose.call(peer));
      let t = 0;
      await this.add(
        [id],
        () => {
          const t0 = performance.now();
          t = batch(peer);
          return [performance.now() - t0];
        },
        () => touching(t),
      );
    } catch (e) {
      this.fail([id], e);
    }
  }

  /** The timed rounds, the summaries (per `pairs`), the finishers, then the cleanups. */
  async run(pairs: number, progress: (message: string) => void): Promise<void> {
    try {
      for (let r = 0; r < this.policy.repeat; r++) {
        progress(`${this.name}: round ${r + 1}/${this.policy.repeat}`);
        for (const entry of this.entries) {
          if (entry.ids.some((id) => this.contenders[id])) continue; // failed in an earlier round
          if (entry.timed.samples[0]!.length >= entry.wanted) continue; // long passes: fewer samples
          try {
            await sample(entry.timed);
          } catch (e) {
            this.fail(entry.ids, e);
          }
        }
      }
      for (const { ids, timed } of this.entries) {
        if (ids.some((id) => this.contenders[id])) continue;
        ids.forEach((id, j) => {
          this.contenders[id] = summarise(pairs, timed.samples[j]!, timed.iterations) ?? {
            skipped: id === 'gpuKernel' ? 'no timestamp queries on this adapter' : 'no time',
          };
        });
      }
      for (const finish of this.finishers) finish();
    } finally {
      for (const cleanup of this.cleanups) cleanup();
    }
  }
}

// A GPU's driver lowers its clocks when work comes in bursts: an H200 ran the frames of a 1M-body
// pile (18 ms each, about one a second between the host's readbacks) at its lowest SM clock, 345
// of 1980 MHz (docs/frame.md). An engine stepping every frame keeps it busy; so does this kernel.
const SPIN_WGSL = `
@group(0) @binding(0) var<storage, read_write> sink: array<u32>;
@compute @workgroup_size(256)
fn spin(@builtin(global_invocation_id) g: vec3u) {
  var x = g.x;
  for (var i = 0u; i < 2048u; i++) { x = x * 1664525u + 1013904223u; }
  if (x == 0u) { sink[0] = g.x; }
}`;
const spinKernels = new WeakMap<GPUDevice, { pipeline: GPUComputePipeline; group: GPUBindGroup }>();

/** Milliseconds of GPU work before each timed GPU sample on a GPU (--gpu-warmup): its clocks rise within it. */
export const GPU_WARMUP_MS = 300;

/** The warm-up a run uses: the one asked for, else GPU_WARMUP_MS on a GPU and none on a software adapter. */
export function gpuWarmupMs(requested: number | undefined, onGpu: boolean): number {
  return requested ?? (onGpu ? GPU_WARMUP_MS : 0);
}

/** What a run's header says of its warm-up. */
export function gpuWarmupNote(ms: number): string {
  return `the GPU kept busy ${ms} ms before each GPU sample (a spin kernel: a GPU's driver lowers its clocks between sparse work; --gpu-warmup 0 leaves it idle)`;
}

/** Keeps the GPU busy with a spin kernel for about `ms` (wall time), so that its clocks rise. */
export async function keepGpuBusy(device: GPUDevice, ms: number): Promise<void> {
  let k = spinKernels.get(device);
  if (!k) {
    const module = device.createShaderModule({ code: SPIN_WGSL });
    const pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: { module, entryPoint: 'spin' },
    });
    const sink = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    const group = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [{ binding: 0, resource: { buffer: sink } }],
    });
    spinKernels.set(device, (k = { pipeline, group }));
  }
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // A few submits ahead, so that the GPU does not idle between them.
    for (let i = 0; i < 4; i++) {
      const encoder = device.createCommandEncoder({ label: 'bench.spin' });
      const pass = encoder.beginComputePass();
      pass.setPipeline(k.pipeline);
      pass.setBindGroup(0, k.group);
      pass.dispatchWorkgroups(4096);
      pass.end();
      device.queue.submit([encoder.finish()]);
    }
    await device.queue.onSubmittedWorkDone();
  }
}
