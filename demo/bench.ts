// bench.html: the benchmark anyone can run on their own GPU. The Node benchmark's scenes and
// contenders, run in the page: narrowphase scenes (bench/scenes2d.ts, bench/scenes3d.ts) timed by
// bench/bench2d.ts and bench/bench3d.ts with rapier2d / rapier3d as the peers, and piles
// (bench/pile-scenes.ts) timed by bench/pile-contenders.ts (our GPU collision frame against
// rapier's world step). The record in <pre id="record"> and `window.__bench` has one row per
// scenario, size and contender (test/browser-pages.test.ts reads it).

import RAPIER2D from '@dimforge/rapier2d-compat';
import RAPIER3D from '@dimforge/rapier3d-compat';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { benchScene2D } from '../bench/bench2d.ts';
import { DEFAULT_MAX_3D, runBench3D, setUpGpu3D } from '../bench/bench3d.ts';
import { createRapierPeer2D, rapier2dVersion } from '../bench/peers/rapier2d.ts';
import { createRapierPeer3D, rapierVersion as rapier3dVersion } from '../bench/peers/rapier3d.ts';
import {
  loadRapier,
  PILE_CAPS,
  rapier2dWorld,
  rapier3dWorld,
  reserveRapier,
  runEngine,
  runGpuFrame,
  setUpPileGpu,
  destroyPileGpu,
  uploadInputs,
  uploadInputs3D,
  type EngineResult,
  type GpuFrameResult,
} from '../bench/pile-contenders.ts';
import {
  bodiesAt2D,
  bodiesAt3D,
  makePile2D,
  makePile3D,
  type Pile2D,
  type Pile3D,
} from '../bench/pile-scenes.ts';
import { formatCount, measured, type ContenderResult } from '../bench/report.ts';
import { makeScene2D, SCENARIO_LABEL, type ScenarioName } from '../bench/scenes2d.ts';
import { SCENARIO_3D_LABEL, type Scenario3DName } from '../bench/scenes3d.ts';
import type { TimingPolicy } from '../bench/timing.ts';
import { pageDevice, pageFailed, pageState } from './page.ts';
import { element } from './state.ts';

/** One scenario, size and contender. */
export interface BenchRow {
  section: 'narrowphase' | 'pile';
  scenario: string;
  dim: 2 | 3;
  /** Pairs (narrowphase) or bodies (pile). */
  size: number;
  unit: 'pairs' | 'bodies';
  contender: 'webgpu-narrowphase' | 'rapier2d' | 'rapier3d';
  /** Median time of one pass or frame (ms); null where the contender did not run. */
  ms: number | null;
  /** What `ms` is: GPU timestamp queries, host wall clock, or the engine's own profiler. */
  timing: 'gpu-timestamps' | 'wall' | 'engine-profiler' | null;
  /** Ours: the host wall time of the same pass or frame (upload, dispatch, readback). */
  wallMs: number | null;
  /** Pairs with contact points (a cross-check that both did the same work). */
  touching: number | null;
  /** Why there is no time. */
  skipped: string | null;
}

const params = new URLSearchParams(location.search);
const quick = params.get('quick') === '1';
const state = pageState('__bench', {
  quick,
  rows: [] as BenchRow[],
  notes: [] as string[],
  warnings: [] as string[],
});

const SIZES = quick ? [1_000, 10_000] : [10_000, 100_000, 1_000_000];
const SCENARIOS_2D: readonly ScenarioName[] = ['box', 'ngon'];
const SCENARIOS_3D: readonly Scenario3DName[] = ['box3', 'hull16', 'hull32'];
/** As `npm run bench` (quick: as --quick). */
const POLICY: TimingPolicy = quick
  ? { repeat: 3, minSampleMs: 10, warmupMs: 100 }
  : { repeat: 5, minSampleMs: 25, warmupMs: 60 };
const PILE_POLICY = { repeat: quick ? 3 : 5 };

const ms = (x: number | null): string =>
  x === null ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
const recordEl = element<HTMLPreElement>('record');

function record(): void {
  recordEl.textContent = JSON.stringify(
    {
      adapter: state.adapter,
      browser: state.browser,
      quick,
      done: state.done,
      notes: state.notes,
      warnings: state.warnings,
      rows: state.rows,
    },
    null,
    2,
  );
}

function tableRow(ours: BenchRow, rapier: BenchRow): void {
  state.rows.push(ours, rapier);
  const ratio =
    ours.ms !== null && rapier.ms !== null ? `${(rapier.ms / ours.ms).toFixed(2)}×` : '–';
  const label = ours.section === 'narrowphase' ? ours.scenario : `pile ${ours.dim}D`;
  const cells = [
    label,
    `${formatCount(ours.size)} ${ours.unit}`,
    ms(ours.ms),
    ours.timing ?? ours.skipped ?? '',
    rapier.ms === null ? (rapier.skipped ?? '–') : ms(rapier.ms),
    ratio,
    `${ours.touching ?? '–'} / ${rapier.touching ?? '–'}`,
  ];
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = c;
    tr.append(td);
  }
  element<HTMLTableElement>('results').tBodies[0]!.append(tr);
  record();
}

/** Our row from the GPU contenders: the kernel's timestamps where there are any, else the wall clock. */
function oursFromKernel(
  base: Omit<BenchRow, 'contender' | 'ms' | 'timing' | 'wallMs' | 'touching' | 'skipped'>,
  kernel: ContenderResult | undefined,
  wall: ContenderResult | undefined,
  touching: number | undefined,
): BenchRow {
  const k = measured(kernel);
  const w = measured(wall);
  const skipped = !w && wall && 'skipped' in wall ? wall.skipped : null;
  return {
    ...base,
    contender: 'webgpu-narrowphase',
    ms: k?.ms ?? w?.ms ?? null,
    timing: k ? 'gpu-timestamps' : w ? 'wall' : null,
    wallMs: w?.ms ?? null,
    touching: touching ?? null,
    skipped,
  };
}

function peerRow(
  base: Omit<BenchRow, 'contender' | 'ms' | 'timing' | 'wallMs' | 'touching' | 'skipped'>,
  contender: 'rapier2d' | 'rapier3d',
  r: ContenderResult | undefined,
  touching: number | undefined,
  timing: BenchRow['timing'] = 'wall',
): BenchRow {
  const m = measured(r);
  return {
    ...base,
    contender,
    ms: m?.ms ?? null,
    timing: m ? timing : null,
    wallMs: null,
    touching: touching ?? null,
    skipped: m ? null : r && 'skipped' in r ? r.skipped : 'no result',
  };
}

function pileRows(
  dim: 2 | 3,
  bodies: number,
  gpu: GpuFrameResult | { skipped: string },
  rapier: EngineResult | { skipped: string },
): void {
  const base = {
    section: 'pile' as const,
    scenario: `${dim}D pile`,
    dim,
    size: bodies,
    unit: 'bodies' as const,
  };
  const g = 'skipped' in gpu ? null : gpu;
  const gpuTotal = g?.warm.timings?.total ?? null;
  const ours: BenchRow = {
    ...base,
    contender: 'webgpu-narrowphase',
    ms: gpuTotal ?? g?.warm.wallMs ?? null,
    timing: g ? (gpuTotal !== null ? 'gpu-timestamps' : 'wall') : null,
    wallMs: g?.warm.wallMs ?? null,
    touching: g?.touching ?? null,
    skipped: 'skipped' in gpu ? gpu.skipped : null,
  };
  const r = 'skipped' in rapier ? null : rapier;
  const theirs: BenchRow = {
    ...base,
    contender: dim === 2 ? 'rapier2d' : 'rapier3d',
    ms: r?.warm.collision ?? null,
    timing: r ? 'engine-profiler' : null,
    wallMs: null,
    touching: r?.touching ?? null,
    skipped: 'skipped' in rapier ? rapier.skipped : null,
  };
  tableRow(ours, theirs);
}

async function attempt<T extends object>(
  what: string,
  run: () => Promise<T>,
): Promise<T | { skipped: string }> {
  try {
    return await run();
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    state.warnings.push(`${what}: ${why}`);
    return { skipped: why };
  }
}

async function run(): Promise<void> {
  const acquired = await pageDevice(state);
  const { device, timestamps, adapter } = acquired;
  const software = adapter.software;
  element<HTMLDivElement>('stats').textContent =
    `${state.adapter} · ${navigator.userAgent}\nGPU times: ${timestamps ? 'timestamp queries' : 'wall clock (this adapter has no timestamp-query)'} · ` +
    `rapier2d ${rapier2dVersion}, rapier3d ${rapier3dVersion} (WebAssembly) · ${quick ? 'quick run (small sizes)' : 'full run'}`;
  state.notes.push(
    `GPU times from ${timestamps ? 'timestamp queries' : 'the wall clock (no timestamp-query)'}`,
  );
  // Narrowphase scenes 3D: on a software adapter, as the Node benchmark caps them (hulls to 100k pairs).
  const cap3 = (s: Scenario3DName): number => (software ? DEFAULT_MAX_3D[s] : Infinity);
  const pileCap = (id: keyof typeof PILE_CAPS): number =>
    id === 'gpu3d' && !software ? Infinity : PILE_CAPS[id];
  const steps = SIZES.length * (SCENARIOS_2D.length + SCENARIOS_3D.length + 2);
  const progress = element<HTMLProgressElement>('progress');
  progress.max = steps;
  const stepEl = element<HTMLSpanElement>('step');
  const say = (what: string): void => {
    stepEl.textContent = what;
  };
  const done = (): void => {
    progress.value++;
  };

  say('compiling the 2D kernel…');
  const np2 = await GpuNarrowphase2D.create(device, timestamps);
  await np2.run(makeScene2D('ngon', 64).packed); // software adapters compile the kernel on its first dispatch
  for (const scenario of SCENARIOS_2D) {
    for (const size of SIZES) {
      const r = await benchScene2D(
        makeScene2D(scenario, size),
        { np: np2 },
        POLICY,
        {
          cpuRef: false,
          peers: { rapier2d: createRapierPeer2D },
          longPass: { ms: 1000, samples: 3 },
        },
        say,
        state.warnings,
      );
      const base = {
        section: 'narrowphase' as const,
        scenario: SCENARIO_LABEL[scenario],
        dim: 2 as const,
        size,
        unit: 'pairs' as const,
      };
      tableRow(
        oursFromKernel(base, r.contenders.gpuKernel, r.contenders.gpuWall, r.touching.gpu),
        peerRow(base, 'rapier2d', r.contenders.rapier2d, r.touching.rapier2d),
      );
      done();
    }
  }
  np2.destroy();

  say('compiling the 3D kernels (minutes on a software adapter)…');
  const gpu3d = await setUpGpu3D(acquired, state.notes);
  for (const scenario of SCENARIOS_3D) {
    for (const size of SIZES) {
      const base = {
        section: 'narrowphase' as const,
        scenario: SCENARIO_3D_LABEL[scenario],
        dim: 3 as const,
        size,
        unit: 'pairs' as const,
      };
      if (size > cap3(scenario)) {
        const skipped = `not run above ${formatCount(cap3(scenario))} pairs on a software adapter`;
        tableRow(
          {
            ...base,
            contender: 'webgpu-narrowphase',
            ms: null,
            timing: null,
            wallMs: null,
            touching: null,
            skipped,
          },
          {
            ...base,
            contender: 'rapier3d',
            ms: null,
            timing: null,
            wallMs: null,
            touching: null,
            skipped,
          },
        );
      } else {
        const options = {
          noCaps: false,
          cpuRef: false,
          peers: {
            rapier3d: (shapes: Parameters<typeof createRapierPeer3D>[0]) =>
              createRapierPeer3D(shapes),
          },
        };
        const [r] = await runBench3D(
          [{ scenario, sizes: [size] }],
          gpu3d,
          'the 3D kernel is unusable here (see the notes)',
          POLICY,
          options,
          say,
          state.warnings,
        );
        tableRow(
          oursFromKernel(base, r!.contenders.gpuKernel, r!.contenders.gpuWall, r!.touching.gpu),
          peerRow(base, 'rapier3d', r!.contenders.rapier3d, r!.touching.rapier3d),
        );
      }
      done();
    }
  }
  gpu3d?.np.destroy();

  say('compiling the collision frames…');
  const pile = await setUpPileGpu(state.notes, acquired);
  await loadRapier();
  const biggest = (cap: number): number => Math.max(0, ...SIZES.filter((n) => n <= cap));
  if (biggest(pileCap('rapier2d')) > 0)
    reserveRapier(RAPIER2D, biggest(pileCap('rapier2d')), 10_000);
  if (biggest(pileCap('rapier3d')) > 0)
    reserveRapier(RAPIER3D, biggest(pileCap('rapier3d')), 20_000);
  for (const dim of [2, 3] as const) {
    for (const bodies of SIZES) {
      const name = `${dim}D pile ${formatCount(bodies)}`;
      const tick = (what: string): void => say(`${name}: ${what}`);
      // Each pile made once, on first use; warm frames wobble it (bench/pile-scenes.ts).
      let made2: Pile2D | undefined;
      let made3: Pile3D | undefined;
      const pile2 = (): Pile2D => (made2 ??= makePile2D(bodies));
      const pile3 = (): Pile3D => (made3 ??= makePile3D(bodies));
      const gpuCap = dim === 3 ? pileCap('gpu3d') : Infinity;
      const rapierCap = pileCap(dim === 2 ? 'rapier2d' : 'rapier3d');
      const gpu = !pile
        ? { skipped: 'no GPU frame (see the notes)' }
        : bodies > gpuCap
          ? { skipped: `not run above ${formatCount(gpuCap)} bodies on a software adapter` }
          : await attempt(`${name} GPU`, () =>
              dim === 2
                ? runGpuFrame(
                    device,
                    pile.frame,
                    uploadInputs(device, pile2()),
                    PILE_POLICY,
                    tick,
                    bodiesAt2D(pile2(), 'wobble'),
                  )
                : runGpuFrame(
                    device,
                    pile.frame3d,
                    uploadInputs3D(device, pile3()),
                    PILE_POLICY,
                    tick,
                    bodiesAt3D(pile3(), 'wobble'),
                  ),
            );
      const rapier =
        bodies > rapierCap
          ? {
              skipped: `not run above ${formatCount(rapierCap)} bodies (its first step takes minutes and near 4 GB of WebAssembly memory)`,
            }
          : await attempt(`${name} rapier`, () =>
              runEngine(
                () =>
                  dim === 2 ? rapier2dWorld(pile2(), 'wobble') : rapier3dWorld(pile3(), 'wobble'),
                PILE_POLICY,
                true,
                tick,
              ),
            );
      pileRows(dim, bodies, gpu, rapier);
      done();
    }
  }
  if (pile) await destroyPileGpu(pile, false);
  say(`done: ${state.rows.length} rows`);
  state.done = true;
  record();
}

run().catch((e: unknown) => {
  pageFailed(state, e);
  record();
});
