// `npm run bench`: 2D narrowphase throughput, pairs per second, of
//   - the CPU reference (src/cpu, collidePacked2D on the packed scene),
//   - the WGSL kernel (GpuNarrowphase2D): kernel time from timestamp queries, and wall time
//     including upload and readback,
//   - planck (Box2D v2's algorithm in JS), box2d-wasm (Box2D v2.4 in WebAssembly) and rapier2d
//     (parry in WebAssembly, its single-contact query),
// all on the same pairs (bench/scenes2d.ts), for box–box and random 8-gon pairs at 1k … 1M pairs;
// then the 3D part (./bench3d.ts): CPU reference, 3D kernel, rapier3d, Jolt and cannon-es on
// box–box, hull–hull (8 to 64 points) and sphere–hull pairs (bench/scenes3d.ts). One scene's
// contenders are timed by ./bench2d.ts and ./bench3d.ts, which bench.html (the browsers) runs too.
// Prints the tables, how the hull–hull cost scales with the vertex count, and the issue's speed
// goals, and writes the whole record as JSON.
//
//   npm run bench -- --sizes 1000,100000 --scenarios ngon --repeat 7 --out /tmp/b.json
//   npm run bench -- --dim 3 --scenarios box3,hull32       # 3D only (--dim 2|3|both, default both)
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

import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { benchScene2D, type Options2D } from './bench2d.ts';
import { assertShadersEmbedded } from './fresh-shaders.ts';
import {
  CANNON_MAX_3D,
  DEFAULT_MAX_3D,
  plan3D,
  runBench3D,
  setUpGpu3D,
  type Options3D,
  type Plan3D,
} from './bench3d.ts';
import { cannonVersion, createCannonPeer3D } from './peers/cannon3d.ts';
import { createJoltPeer3D, joltVersion } from './peers/jolt3d.ts';
import { createRapierPeer3D, rapierVersion, type RapierMode3D } from './peers/rapier3d.ts';
import { createBox2dWasmPeer } from './peers/box2dwasm2d.ts';
import { createPlanckPeer } from './peers/planck2d.ts';
import { createRapierPeer2D, rapier2dVersion } from './peers/rapier2d.ts';
import {
  evaluateGoals,
  evaluateGoals3D,
  formatCount,
  renderGoals,
  renderHeader,
  renderScaling3D,
  renderTable,
  renderTable3D,
  type BenchMeta,
  type BenchReport,
  type Goal,
  type ScenarioResult,
  type ScenarioResult3D,
} from './report.ts';
import { SCENARIOS_3D, type Scenario3DName } from './scenes3d.ts';
import {
  errorText,
  GPU_WARMUP_MS,
  gpuWarmupMs,
  gpuWarmupNote,
  type TimingPolicy,
} from './timing.ts';
import { parseWarmup } from './options.ts';
// Versions of the peers as bundled (their package.json files are read at build time; planck's
// "exports" hides its package.json from a bare specifier, hence the relative paths).
import box2dWasmPackage from '../node_modules/box2d-wasm/package.json' with { type: 'json' };
import planckPackage from '../node_modules/planck/package.json' with { type: 'json' };
import { makeScene2D, SCENARIOS, type ScenarioName } from './scenes2d.ts';

const DEFAULT_SIZES = [1_000, 10_000, 100_000, 1_000_000];
const QUICK_SIZES = [1_000, 10_000];
const DEFAULT_OUT = 'bench/results/bench.json';
/** Node runs every 3D contender. */
function nodeOptions3D(opts: Options, gpuWarmupMs: number): Options3D {
  return {
    noCaps: !opts.caps,
    cpuRef: true,
    gpuWarmupMs,
    peers: {
      rapier3d: (shapes) => createRapierPeer3D(shapes, { mode: opts.rapier }),
      jolt: async (shapes, margin, warn) => {
        const jolt = await createJoltPeer3D(shapes, { margin });
        if (!jolt.direct)
          warn(
            "the memory-layout probe failed, so poses and hits go through the binding's getters and setters (slower)",
          );
        return jolt;
      },
      cannon: createCannonPeer3D,
    },
  };
}

/** Node runs every 2D contender. */
function nodeOptions2D(gpuWarmupMs: number): Options2D {
  return {
    cpuRef: true,
    peers: {
      planck: createPlanckPeer,
      box2dWasm: createBox2dWasmPeer,
      rapier2d: createRapierPeer2D,
    },
    gpuWarmupMs,
  };
}

interface Options {
  sizes?: number[];
  /** 2D and 3D scenario names. */
  scenarios?: string[];
  dim?: Dim;
  out: string;
  quick: boolean;
  repeat?: number;
  /** false with --no-caps: every contender at every size (cannon-es's 3D caps lifted). */
  caps: boolean;
  rapier: RapierMode3D;
  kernel: 'classes' | 'general';
  gpuWarmup?: number;
}

type Dim = '2' | '3' | 'both';

function parseDim(value: string): Dim {
  if (value !== '2' && value !== '3' && value !== 'both')
    throw new InvalidArgumentError(`"${value}" is not 2, 3 or both`);
  return value;
}

function parseRapierMode(value: string): RapierMode3D {
  if (value !== 'contact' && value !== 'manifold')
    throw new InvalidArgumentError(`"${value}" is not contact or manifold`);
  return value;
}

function parseSizes(value: string): number[] {
  const sizes = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => {
      const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s);
      const n = m ? Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1e3 : 1e6) : NaN;
      if (!Number.isInteger(n) || n < 1)
        throw new InvalidArgumentError(`"${s}" is not a pair count (e.g. 1000, 10k, 1M)`);
      return n;
    });
  if (sizes.length === 0) throw new InvalidArgumentError('give at least one size');
  return [...new Set(sizes)].sort((a, b) => a - b);
}

const ALL_SCENARIOS: readonly string[] = [...SCENARIOS, ...SCENARIOS_3D];

function parseScenarios(value: string): string[] {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const s of list) {
    if (!ALL_SCENARIOS.includes(s)) {
      throw new InvalidArgumentError(
        `"${s}" is not a scenario (2D: ${SCENARIOS.join(', ')}; 3D: ${SCENARIOS_3D.join(', ')})`,
      );
    }
  }
  if (list.length === 0) throw new InvalidArgumentError('give at least one scenario');
  return [...new Set(list)];
}

function parseKernel(value: string): 'classes' | 'general' {
  if (value !== 'classes' && value !== 'general')
    throw new InvalidArgumentError(`"${value}" is not classes or general`);
  return value;
}

function parseRepeat(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  return n;
}

function parseOptions(argv: string[]): Options {
  const program = new Command()
    .name('bench')
    .description(
      'narrowphase throughput (pairs/s): CPU reference, WebGPU kernel; planck, box2d-wasm (2D); rapier3d, jolt, cannon-es (3D)',
    )
    .option(
      '--dim <d>',
      'dimensions to run: 2, 3 or both (default both, or those of --scenarios)',
      parseDim,
    )
    .option(
      '--sizes <list>',
      `pair counts, comma-separated (default ${DEFAULT_SIZES.join(',')}; 3D scenarios capped: ` +
        `${Object.entries(DEFAULT_MAX_3D)
          .map(([k, v]) => `${k} ${formatCount(v)}`)
          .join(', ')})`,
      parseSizes,
    )
    .option(
      '--scenarios <list>',
      `scenarios, comma-separated: 2D ${SCENARIOS.join(', ')}; 3D ${SCENARIOS_3D.join(', ')} (default: all)`,
      parseScenarios,
    )
    .option('--out <file>', 'JSON output file', DEFAULT_OUT)
    .option(
      '--quick',
      `smoke run: sizes ${QUICK_SIZES.join(',')} and 3 samples unless given`,
      false,
    )
    .option(
      '--repeat <n>',
      'timed samples per measurement, median reported (default 7; --quick 3)',
      parseRepeat,
    )
    .option(
      '--no-caps',
      `3D: run cannon-es at every size (capped by default: ${Object.entries(CANNON_MAX_3D)
        .map(([k, v]) => `${k} ${v > 0 ? formatCount(v) : 'off'}`)
        .join(', ')})`,
    )
    .option(
      '--rapier <mode>',
      '3D: rapier3d path, contact (Collider.contactCollider, one point) or manifold (world step per pair)',
      parseRapierMode,
      'contact',
    )
    .option(
      '--kernel <k>',
      'GPU narrowphase: classes (one pipeline per pair class, the default) or general (one kernel with every path: the A/B reference)',
      parseKernel,
      'classes',
    )
    .option(
      '--gpu-warmup <ms>',
      `before each GPU sample, keep the GPU busy this long so that its clocks rise (default ${GPU_WARMUP_MS} on a GPU, 0 on a software adapter)`,
      parseWarmup,
    )
    .option(
      '--scene <name>',
      'pile: whole collision frames on box piles, 1k to 1M bodies (bench/pile.ts; --scene pile --help)',
    )
    .showHelpAfterError();
  program.parse(argv);
  return program.opts<Options>();
}

// ---------------------------------------------------------------------------------------------
// Environment

function packageVersions(): Record<string, string> {
  const out: Record<string, string> = {
    planck: planckPackage.version,
    'box2d-wasm': box2dWasmPackage.version,
    rapier2d: rapier2dVersion,
  };
  try {
    // Dawn's binding is not bundled: the one this run loads.
    const req = createRequire(import.meta.url);
    const dir = dirname(req.resolve('webgpu'));
    out.webgpu = (
      JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }
    ).version;
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
  compileMs: Record<string, number>;
}

/** The WebGPU device both dimensions share; null (with a note) when there is none. */
async function acquireGpu(notes: string[]): Promise<AcquiredDevice | null> {
  try {
    return await acquireDevice();
  } catch (e) {
    notes.push(`no GPU: ${errorText(e)}`);
    return null;
  }
}

async function setUpGpu(
  acquired: AcquiredDevice | null,
  notes: string[],
  kernel: 'classes' | 'general',
): Promise<Gpu | null> {
  if (!acquired) return null;
  try {
    const t0 = performance.now();
    const np = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps, {
      kernel,
      kinds: kernel === 'classes' ? ['polygon', 'circle'] : [],
    });
    const pipelineMs = performance.now() - t0;
    // The first dispatch (lavapipe compiles the kernel to machine code here): kept out of all timings.
    const tiny = makeScene2D('ngon', 64);
    const t1 = performance.now();
    await np.run(tiny.packed);
    const firstDispatchMs = performance.now() - t1;
    return {
      acquired,
      np,
      pipelineMs,
      firstDispatchMs,
      compileMs: { ...np.compileMs } as Record<string, number>,
    };
  } catch (e) {
    notes.push(`GPU kernel unusable on ${acquired.adapter.name}: ${errorText(e)}`);
    return null;
  }
}

// ---------------------------------------------------------------------------------------------

/** Which scenarios of each dimension run: --dim and --scenarios together. */
function selectScenarios(opts: Options): {
  scenarios2d: ScenarioName[];
  scenarios3d: Scenario3DName[];
} {
  const given = opts.scenarios;
  const given2 = given?.filter((s) => (SCENARIOS as readonly string[]).includes(s)) as
    ScenarioName[] | undefined;
  const given3 = given?.filter((s) => (SCENARIOS_3D as readonly string[]).includes(s)) as
    Scenario3DName[] | undefined;
  const dim =
    opts.dim ??
    (given
      ? given2!.length > 0 && given3!.length > 0
        ? 'both'
        : given2!.length > 0
          ? '2'
          : '3'
      : 'both');
  if (given && dim !== 'both') {
    const other = dim === '2' ? given3! : given2!;
    if (other.length > 0)
      throw new InvalidArgumentError(
        `--dim ${dim}, but --scenarios names ${other.join(', ')} of the other dimension`,
      );
  }
  return {
    scenarios2d: dim === '3' ? [] : (given2 ?? [...SCENARIOS]),
    scenarios3d: dim === '2' ? [] : (given3 ?? [...SCENARIOS_3D]),
  };
}

async function main(): Promise<number> {
  assertShadersEmbedded();
  // `--scene pile`: whole frames on piles (bench/pile.ts has its own options).
  // `--scene solver`: GPU world steps on dense piles (bench/solver.ts).
  if (process.argv.some((a) => a === 'solver' || a === '--scene=solver'))
    return (await import('./solver.ts')).solverMain(process.argv).then(() => 0);
  if (process.argv.some((a) => a === '--scene' || a.startsWith('--scene=')))
    return (await import('./pile.ts')).pileMain(process.argv);
  const started = performance.now();
  const opts = parseOptions(process.argv);
  let selected: ReturnType<typeof selectScenarios>;
  try {
    selected = selectScenarios(opts);
  } catch (e) {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
  const { scenarios2d: scenarios, scenarios3d } = selected;
  const sizes = opts.sizes ?? (opts.quick ? QUICK_SIZES : DEFAULT_SIZES);
  const plan3d: Plan3D[] = plan3D(scenarios3d, opts.sizes ?? null, opts.quick).filter(
    (p) => p.sizes.length > 0,
  );
  const dims = [...(scenarios.length > 0 ? [2] : []), ...(plan3d.length > 0 ? [3] : [])];
  const policy: TimingPolicy = opts.quick
    ? { repeat: opts.repeat ?? 3, minSampleMs: 10, warmupMs: 100 }
    : { repeat: opts.repeat ?? 7, minSampleMs: 25, warmupMs: 60 };

  const notes: string[] = [];
  const warnings: string[] = [];
  const acquired = await acquireGpu(notes);
  const gpu = scenarios.length > 0 ? await setUpGpu(acquired, notes, opts.kernel) : null;
  const gpu3d = plan3d.length > 0 ? await setUpGpu3D(acquired, notes, opts.kernel) : null;
  const gpu3dNote = acquired ? '3D GPU path unusable (see the notes)' : 'no GPU adapter';
  const warmupMs = gpuWarmupMs(opts.gpuWarmup, acquired !== null && !acquired.adapter.software);
  if (warmupMs > 0) notes.push(gpuWarmupNote(warmupMs));
  const cpuList = cpus();
  const meta: BenchMeta = {
    adapter: acquired?.adapter.name ?? null,
    adapterSoftware: acquired?.adapter.software ?? null,
    adapterVendor: acquired?.adapter.vendor ?? null,
    adapterArchitecture: acquired?.adapter.architecture ?? null,
    timestampQueries: acquired?.timestamps ?? false,
    gpuPipelineMs: gpu?.pipelineMs ?? null,
    gpuFirstDispatchMs: gpu?.firstDispatchMs ?? null,
    gpuCompileMs: gpu?.compileMs,
    gpuKernel: opts.kernel,
    node: process.version,
    v8: process.versions.v8,
    cpu: cpuList[0]?.model.trim() ?? 'unknown',
    cpuCores: cpuList.length,
    loadAverage: loadavg(),
    platform: `${platform()} ${release()} ${arch()}`,
    date: new Date().toISOString(),
    versions: {
      ...packageVersions(),
      ...(plan3d.length > 0
        ? { rapier3d: rapierVersion, 'jolt-physics': joltVersion, 'cannon-es': cannonVersion }
        : {}),
    },
    options: {
      sizes: scenarios.length > 0 ? sizes : [],
      scenarios: [...scenarios, ...plan3d.map((p) => p.scenario)],
      repeat: policy.repeat,
      quick: opts.quick,
      minSampleMs: policy.minSampleMs,
      dims,
    },
    notes,
    ...(plan3d.length > 0
      ? {
          gpu3d: gpu3d
            ? {
                pipelineMs: gpu3d.pipelineMs,
                firstDispatchMs: gpu3d.firstDispatchMs,
                compileMs: gpu3d.compileMs,
                kernel: gpu3d.kernel,
              }
            : null,
          options3d: {
            sizes: Object.fromEntries(plan3d.map((p) => [p.scenario, p.sizes])),
            scenarios: plan3d.map((p) => p.scenario),
            caps: { cannon: opts.caps ? CANNON_MAX_3D : {}, defaultSizes: DEFAULT_MAX_3D },
          },
        }
      : {}),
  };
  console.log(renderHeader(meta));
  for (const note of notes) console.log(`  note     ${note}`);
  console.log('');

  const steps =
    (scenarios.length * sizes.length + plan3d.reduce((n, p) => n + p.sizes.length, 0)) *
    (policy.repeat + 1);
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: ' {bar} {value}/{total} | {duration_formatted} | {step}',
          hideCursor: true,
          clearOnComplete: true,
        },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(steps, 0, { step: 'starting' });
  let done = 0;
  const progress = (step: string): void => {
    done++;
    if (bar) bar.update(done - 1, { step });
    else if (step.endsWith('warm-up')) process.stderr.write(`[${done}/${steps}] ${step}\n`); // one line per scene
  };

  const results: ScenarioResult[] = [];
  let results3d: ScenarioResult3D[] = [];
  try {
    for (const scenario of scenarios) {
      for (const size of sizes) {
        const scene = makeScene2D(scenario, size);
        results.push(
          await benchScene2D(scene, gpu, policy, nodeOptions2D(warmupMs), progress, warnings),
        );
      }
    }
    if (plan3d.length > 0) {
      results3d = await runBench3D(
        plan3d,
        gpu3d,
        gpu3dNote,
        policy,
        nodeOptions3D(opts, warmupMs),
        progress,
        warnings,
      );
    }
  } finally {
    if (bar) {
      bar.update(steps, { step: 'done' });
      bar.stop();
    }
  }

  const goals = scenarios.length > 0 ? evaluateGoals(results, meta) : [];
  const goals3d: Goal[] = plan3d.length > 0 ? evaluateGoals3D(results3d, meta) : [];
  const report: BenchReport = {
    meta,
    results,
    goals,
    ...(plan3d.length > 0 ? { results3d, goals3d } : {}),
    warnings,
    totalSeconds: (performance.now() - started) / 1000,
  };
  if (scenarios.length > 0) {
    console.log(renderTable(results));
    console.log('');
  }
  if (plan3d.length > 0) {
    console.log(renderTable3D(results3d, gpu3d ? null : `GPU columns n/a: ${gpu3dNote}.`));
    const scaling = renderScaling3D(results3d);
    if (scaling) console.log(`\n${scaling}`);
    console.log('');
  }
  console.log(renderGoals([...goals, ...goals3d]));
  if (warnings.length > 0) console.log(`\nwarnings:\n${warnings.map((w) => `  ${w}`).join('\n')}`);

  const out = resolve(opts.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${out} (${report.totalSeconds.toFixed(1)} s)`);

  gpu?.np.destroy();
  gpu3d?.np.destroy();
  acquired?.device.destroy();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
