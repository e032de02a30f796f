// `npm run bench`: 2D narrowphase throughput, pairs per second, of
//   - the CPU reference (src/cpu, collidePacked2D on the packed scene),
//   - the WGSL kernel (GpuNarrowphase2D): kernel time from timestamp queries, and wall time
//     including upload and readback,
//   - planck (Box2D v2's algorithm in JS) and box2d-wasm (Box2D v2.4 in WebAssembly),
// all on the same pairs (bench/scenes2d.ts), for box–box and random 8-gon pairs at 1k … 1M pairs.
// Prints a table and the issue's speed goals, and writes the whole record as JSON.
//
//   npm run bench -- --sizes 1000,100000 --scenarios ngon --repeat 7 --out /tmp/b.json
//   npm run bench -- --quick                      # smoke run: small sizes, few samples
//   npm run bench:bundle && node dist/bench.mjs   # one file that needs only node + `webgpu`
//
// Timing: per scene, every contender is warmed up first (V8 tiers up; the first GPU dispatch at a
// size allocates buffers, and the very first one on lavapipe JIT-compiles the kernel, which is
// done once at start-up and reported apart), then `--repeat` rounds each take one timed sample of
// every contender in turn; the median sample is reported (the JSON also has every sample and the
// best). Interleaving makes other processes on the machine slow all contenders alike. A sample
// repeats the pass until it lasts at least a few milliseconds, so small sizes are timed over many
// passes, not one.

import { Command, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, cpus, loadavg, platform, release } from 'node:os';
import { dirname, join, resolve } from 'node:path';

import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { manifoldBytes2D } from '../src/pack2d.ts';
import { createBox2dWasmPeer } from './peers/box2dwasm2d.ts';
import { createPlanckPeer } from './peers/planck2d.ts';
import type { Peer2D } from './peers/peer2d.ts';
import {
  computeRatios, CONTENDER_LABEL, CONTENDERS, evaluateGoals, formatCount, renderGoals, renderHeader, renderTable,
  type BenchMeta, type BenchReport, type ContenderId, type ContenderResult, type Measurement, type ScenarioResult,
} from './report.ts';
// Versions of the peers as bundled (their package.json files are read at build time; planck's
// "exports" hides its package.json from a bare specifier, hence the relative paths).
import box2dWasmPackage from '../node_modules/box2d-wasm/package.json' with { type: 'json' };
import planckPackage from '../node_modules/planck/package.json' with { type: 'json' };
import { makeScene2D, SCENARIO_LABEL, SCENARIOS, type BenchScene2D, type ScenarioName } from './scenes2d.ts';

const DEFAULT_SIZES = [1_000, 10_000, 100_000, 1_000_000];
const QUICK_SIZES = [1_000, 10_000];
const DEFAULT_OUT = 'bench/results/bench-2d.json';

interface Options {
  sizes?: number[];
  scenarios?: ScenarioName[];
  out: string;
  quick: boolean;
  repeat?: number;
}

function parseSizes(value: string): number[] {
  const sizes = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0).map((s) => {
    const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s);
    const n = m ? Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1e3 : 1e6) : NaN;
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${s}" is not a pair count (e.g. 1000, 10k, 1M)`);
    return n;
  });
  if (sizes.length === 0) throw new InvalidArgumentError('give at least one size');
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function parseScenarios(value: string): ScenarioName[] {
  const list = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  for (const s of list) {
    if (!(SCENARIOS as readonly string[]).includes(s)) {
      throw new InvalidArgumentError(`"${s}" is not a scenario (${SCENARIOS.join(', ')})`);
    }
  }
  if (list.length === 0) throw new InvalidArgumentError('give at least one scenario');
  return [...new Set(list)] as ScenarioName[];
}

function parseRepeat(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

function parseOptions(argv: string[]): Options {
  const program = new Command()
    .name('bench')
    .description('2D narrowphase throughput (pairs/s): CPU reference, WebGPU kernel, planck, box2d-wasm')
    .option('--sizes <list>', `pair counts, comma-separated (default ${DEFAULT_SIZES.join(',')})`, parseSizes)
    .option('--scenarios <list>', `scenarios, comma-separated: ${SCENARIOS.join(', ')} (default: all)`, parseScenarios)
    .option('--out <file>', 'JSON output file', DEFAULT_OUT)
    .option('--quick', `smoke run: sizes ${QUICK_SIZES.join(',')} and 3 samples unless given`, false)
    .option('--repeat <n>', 'timed samples per measurement, median reported (default 7; --quick 3)', parseRepeat)
    .showHelpAfterError();
  program.parse(argv);
  return program.opts<Options>();
}

// ---------------------------------------------------------------------------------------------
// Timing

interface TimingPolicy {
  repeat: number;
  /** A timed sample repeats the pass until it lasts at least this long. */
  minSampleMs: number;
  /** Warm-up passes until this much time has been spent (at least two passes). */
  warmupMs: number;
}

/** One pass over all pairs; returns its times in ms: [host] or [host, kernel] (NaN: none). */
type Pass = () => number[] | Promise<number[]>;

/** A contender being timed: its pass, then the passes per sample and the samples so far. */
interface Timed {
  pass: Pass;
  iterations: number;
  /** Per time kind (host, kernel): the per-pass time of each sample. */
  samples: number[][];
}

/** Warm-up passes (V8 tier-up, the GPU's first dispatch at this size), then passes per sample. */
async function warmUp(pass: Pass, policy: TimingPolicy): Promise<Timed> {
  let last: number[] = [];
  let spent = 0;
  let fastest = Infinity; // the steady-state estimate: early passes are cold
  for (let i = 0; (i < 2 || spent < policy.warmupMs) && i < 10_000; i++) {
    last = await pass();
    spent += last[0]!;
    fastest = Math.min(fastest, last[0]!);
  }
  const iterations = Math.max(1, Math.min(10_000, Math.ceil(policy.minSampleMs / Math.max(1e-3, fastest))));
  return { pass, iterations, samples: last.map(() => []) };
}

/** One timed sample: `iterations` passes, per-pass mean of each time kind. */
async function sample(t: Timed): Promise<void> {
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
function summarise(pairs: number, samples: number[], iterations: number): Measurement | null {
  if (samples.length === 0 || samples.some((x) => !Number.isFinite(x))) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const ms = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const bestMs = sorted[0]!;
  return {
    ms, pairsPerSecond: (pairs * 1000) / ms, samplesMs: samples, iterations,
    bestMs, bestPairsPerSecond: (pairs * 1000) / bestMs, spread: (sorted[sorted.length - 1]! - bestMs) / ms,
  };
}

function countTouching(manifolds: ArrayBuffer, pairs: number): number {
  const u = new Uint32Array(manifolds);
  const M = LAYOUT_2D.manifold;
  let n = 0;
  for (let k = 0; k < pairs; k++) if (u[k * M.words + M.count]! > 0) n++;
  return n;
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

// ---------------------------------------------------------------------------------------------
// Environment

function packageVersions(): Record<string, string> {
  const out: Record<string, string> = { planck: planckPackage.version, 'box2d-wasm': box2dWasmPackage.version };
  try {
    // Dawn's binding is not bundled: the one this run loads.
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve('webgpu'));
    out.webgpu = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // not resolvable from here (a browser-style setup): leave it out
  }
  return out;
}

interface Gpu {
  acquired: AcquiredDevice;
  np: GpuNarrowphase2D;
  pipelineMs: number;
  firstDispatchMs: number;
}

async function setUpGpu(notes: string[]): Promise<Gpu | null> {
  let acquired: AcquiredDevice;
  try {
    acquired = await acquireDevice();
  } catch (e) {
    notes.push(`no GPU: ${errorText(e)}`);
    return null;
  }
  try {
    const t0 = performance.now();
    const np = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps);
    const pipelineMs = performance.now() - t0;
    // The first dispatch (lavapipe compiles the kernel to machine code here): kept out of all timings.
    const tiny = makeScene2D('ngon', 64);
    const t1 = performance.now();
    await np.run(tiny.packed);
    const firstDispatchMs = performance.now() - t1;
    return { acquired, np, pipelineMs, firstDispatchMs };
  } catch (e) {
    notes.push(`GPU kernel unusable on ${acquired.adapter.name}: ${errorText(e)}`);
    acquired.device.destroy();
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// One scene, every contender

type Progress = (step: string) => void;

/**
 * Times every contender on one scene. All are set up and warmed up first; then the timed samples
 * are taken in rounds, one sample of each contender per round, so that other processes on the
 * machine slow all of them alike rather than whichever happened to run at the time.
 */
async function benchScene(
  s: BenchScene2D, gpu: Gpu | null, policy: TimingPolicy, progress: Progress, warnings: string[],
): Promise<ScenarioResult> {
  const n = s.pairCount;
  const name = `${s.scenario} ${formatCount(n)}`;
  const touching: ScenarioResult['touching'] = {};
  const contenders = {} as Record<ContenderId, ContenderResult>;
  const fail = (ids: ContenderId[], e: unknown): void => {
    const why = errorText(e);
    for (const id of ids) contenders[id] = { skipped: why };
    warnings.push(`${name}: ${ids.map((id) => CONTENDER_LABEL[id]).join(', ')}: ${why}`);
  };
  const cleanups: (() => void)[] = [];
  const finishers: (() => void)[] = [];
  // Contender ids of each timed entry: [host time] or [host time, kernel time].
  const entries: { ids: ContenderId[]; timed: Timed }[] = [];
  const add = async (ids: ContenderId[], pass: Pass, finish: () => void): Promise<void> => {
    try {
      entries.push({ ids, timed: await warmUp(pass, policy) });
      finishers.push(finish);
    } catch (e) {
      fail(ids, e);
    }
  };

  progress(`${name}: set-up and warm-up`);
  // CPU reference: the packed scene, prepared once (as the GPU uploads shapes once), output reused.
  try {
    const prepared = prepareCpu2D(s.packed, s.shapes.length);
    const out = new ArrayBuffer(manifoldBytes2D(n));
    await add(['cpuRef'], () => {
      const t0 = performance.now();
      collidePacked2D(prepared, s.packed, out);
      return [performance.now() - t0];
    }, () => {
      touching.cpuRef = countTouching(out, n);
    });
  } catch (e) {
    fail(['cpuRef'], e);
  }

  if (!gpu) {
    contenders.gpuWall = { skipped: 'no GPU adapter' };
    contenders.gpuKernel = { skipped: 'no GPU adapter' };
  } else {
    try {
      gpu.np.checkCapacity(s.packed);
      let last: ArrayBuffer | null = null;
      await add(['gpuWall', 'gpuKernel'], async () => {
        const r = await gpu.np.run(s.packed);
        last = r.manifolds;
        return [r.wallMs, r.kernelMs ?? NaN];
      }, () => {
        if (last) touching.gpu = countTouching(last, n);
      });
    } catch (e) {
      fail(['gpuWall', 'gpuKernel'], e);
    }
  }

  // The peers: one pass is collideBatch over the same bodies and pairs.
  const peers: [id: 'planck' | 'box2dWasm', create: () => Peer2D | Promise<Peer2D>][] = [
    ['planck', () => createPlanckPeer(s.shapes)],
    ['box2dWasm', async () => {
      const b2d = await createBox2dWasmPeer(s.shapes);
      cleanups.push(() => b2d.dispose());
      return b2d;
    }],
  ];
  for (const [id, create] of peers) {
    try {
      const peer = await create();
      let t = 0;
      await add([id], () => {
        const t0 = performance.now();
        t = peer.collideBatch(s.peerBodies, s.pairs);
        return [performance.now() - t0];
      }, () => {
        touching[id] = t;
      });
    } catch (e) {
      fail([id], e);
    }
  }

  try {
    for (let r = 0; r < policy.repeat; r++) {
      progress(`${name}: round ${r + 1}/${policy.repeat}`);
      for (const entry of entries) {
        if (entry.ids.some((id) => contenders[id])) continue; // failed in an earlier round
        try {
          await sample(entry.timed);
        } catch (e) {
          fail(entry.ids, e);
        }
      }
    }
    for (const { ids, timed } of entries) {
      if (ids.some((id) => contenders[id])) continue;
      ids.forEach((id, j) => {
        contenders[id] = summarise(n, timed.samples[j]!, timed.iterations) ??
          { skipped: id === 'gpuKernel' ? 'no timestamp queries on this adapter' : 'no time' };
      });
    }
    for (const finish of finishers) finish();
  } finally {
    for (const cleanup of cleanups) cleanup();
  }

  // Cross-check: everyone found (nearly) the same touching pairs. Pairs that just graze may
  // differ: the GPU rounds differently (fused multiply-add), planck is f64, box2d-wasm is f32 with
  // its own arithmetic. More than a few in 100k (GPU) or 10k (peers) means different work.
  const ref = touching.cpuRef;
  if (ref !== undefined) {
    if (touching.gpu !== undefined && Math.abs(touching.gpu - ref) > Math.max(2, 1e-5 * n)) {
      warnings.push(`${name}: GPU found ${touching.gpu} touching pairs, the CPU reference ${ref}`);
    }
    for (const [id, t] of [['planck', touching.planck], ['box2d-wasm', touching.box2dWasm]] as const) {
      if (t !== undefined && Math.abs(t - ref) > Math.max(2, 1e-4 * n)) {
        warnings.push(`${name}: ${id} found ${t} touching pairs, the CPU reference ${ref} (different work?)`);
      }
    }
  }

  return {
    scenario: s.scenario,
    label: SCENARIO_LABEL[s.scenario],
    pairs: n,
    bodies: s.scene.bodyShape.length,
    touching,
    packMs: s.packMs,
    contenders: Object.fromEntries(CONTENDERS.map((id) => [id, contenders[id]])) as Record<ContenderId, ContenderResult>,
    ratios: computeRatios(contenders),
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  const opts = parseOptions(process.argv);
  const sizes = opts.sizes ?? (opts.quick ? QUICK_SIZES : DEFAULT_SIZES);
  const scenarios = opts.scenarios ?? [...SCENARIOS];
  const policy: TimingPolicy = opts.quick
    ? { repeat: opts.repeat ?? 3, minSampleMs: 10, warmupMs: 100 }
    : { repeat: opts.repeat ?? 7, minSampleMs: 25, warmupMs: 60 };

  const notes: string[] = [];
  const warnings: string[] = [];
  const gpu = await setUpGpu(notes);
  const cpuList = cpus();
  const meta: BenchMeta = {
    adapter: gpu?.acquired.adapter.name ?? null,
    adapterSoftware: gpu?.acquired.adapter.software ?? null,
    adapterVendor: gpu?.acquired.adapter.vendor ?? null,
    adapterArchitecture: gpu?.acquired.adapter.architecture ?? null,
    timestampQueries: gpu?.acquired.timestamps ?? false,
    gpuPipelineMs: gpu?.pipelineMs ?? null,
    gpuFirstDispatchMs: gpu?.firstDispatchMs ?? null,
    node: process.version,
    v8: process.versions.v8,
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cpuCores: cpuList.length,
    loadAverage: loadavg(),
    platform: `${platform()} ${release()} ${arch()}`,
    date: new Date().toISOString(),
    versions: packageVersions(),
    options: { sizes, scenarios, repeat: policy.repeat, quick: opts.quick, minSampleMs: policy.minSampleMs },
    notes,
  };
  console.log(renderHeader(meta));
  for (const note of notes) console.log(`  note     ${note}`);
  console.log('');

  const steps = scenarios.length * sizes.length * (policy.repeat + 1);
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
      { stream: process.stderr, format: ' {bar} {value}/{total} | {duration_formatted} | {step}', hideCursor: true, clearOnComplete: true },
      cliProgress.Presets.shades_classic,
    )
    : null;
  bar?.start(steps, 0, { step: 'starting' });
  let done = 0;
  const progress: Progress = (step) => {
    done++;
    if (bar) bar.update(done - 1, { step });
    else if (step.endsWith('warm-up')) process.stderr.write(`[${done}/${steps}] ${step}\n`); // one line per scene
  };

  const results: ScenarioResult[] = [];
  try {
    for (const scenario of scenarios) {
      for (const size of sizes) {
        const scene = makeScene2D(scenario, size);
        results.push(await benchScene(scene, gpu, policy, progress, warnings));
      }
    }
  } finally {
    if (bar) {
      bar.update(steps, { step: 'done' });
      bar.stop();
    }
  }

  const goals = evaluateGoals(results, meta);
  const report: BenchReport = { meta, results, goals, warnings, totalSeconds: (performance.now() - started) / 1000 };
  console.log(renderTable(results));
  console.log('');
  console.log(renderGoals(goals));
  if (warnings.length > 0) console.log(`\nwarnings:\n${warnings.map((w) => `  ${w}`).join('\n')}`);

  const out = resolve(opts.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${out} (${report.totalSeconds.toFixed(1)} s)`);

  gpu?.np.destroy();
  gpu?.acquired.device.destroy();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
