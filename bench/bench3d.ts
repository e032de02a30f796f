// The 3D part of `npm run bench` (./main.ts runs it after the 2D part): pairs per second of
//   - the CPU reference (collidePacked3D on the packed scene),
//   - the WGSL kernel (GpuNarrowphase3D): kernel time from timestamp queries, and wall time,
//   - rapier3d, Jolt and cannon-es through their single-pair paths (bench/peers/*3d.ts),
// on the scenes of ./scenes3d.ts, with the same timing as the 2D part (./timing.ts): warm-up, then
// rounds of one timed sample per contender, median reported.
//
// Sizes. 3D pairs cost 5–50× more than 2D ones, and a 1M-pair pass of one contender takes
// seconds on a small machine, so the default run caps each scenario (DEFAULT_MAX_3D: 1M box–box
// pairs, 100k of the others) and cannon-es (CANNON_MAX_3D: it manages ~150 to 8k hull pairs/s) to
// stay within a few minutes; explicit --sizes lift the scenario caps, --no-caps also cannon-es's.
// Where one pass of a contender takes over a second, it gets one warm-up pass and at most 3 timed
// samples.

import { SHAPE_KIND_3D } from '../src/constants3d.ts';
import { collidePacked3D, prepareCpu3D } from '../src/cpu/narrowphase3d.ts';
import { u32Words } from '../src/gpu/buffers.ts';
import type { AcquiredDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { LAYOUT_3D } from '../src/layout3d.ts';
import { manifoldBytes3D, type Packed3D } from '../src/pack3d.ts';
import type { Shape3D } from '../src/shapes3d.ts';
import type { Peer3D } from './peers/peer3d.ts';
import {
  computeRatios3D,
  CONTENDER_3D_LABEL,
  CONTENDERS_3D,
  NOT_RUN,
  type Contender3DId,
  type ContenderResult,
  type ScenarioResult3D,
} from './report.ts';
import {
  makeScene3D,
  SCENARIO_3D_LABEL,
  type BenchScene3D,
  type Scenario3DName,
} from './scenes3d.ts';
import { errorText, keepGpuBusy, ScenarioTiming, type Pass, type TimingPolicy } from './timing.ts';

export const DEFAULT_SIZES_3D = [1_000, 10_000, 100_000, 1_000_000];
export const QUICK_SIZES_3D = [1_000, 10_000];

/**
 * Largest pair count of each scenario in the default run. Measured here (2 cores, lavapipe, on a
 * shared machine): a 1M-pair pass takes ~2 s (box–box) to ~10 s (hull32 on the kernel) per
 * contender, and a scene at 1M about 4 passes per contender, so only box–box runs at 1M by default
 * (the 2D and 3D default run then takes 3–4 minutes). `--sizes 1M --scenarios hull32` runs more.
 */
export const DEFAULT_MAX_3D: Record<Scenario3DName, number> = {
  box3: 1_000_000,
  hull8: 100_000,
  hull16: 100_000,
  hull32: 100_000,
  hull64: 100_000,
  spherehull: 100_000,
};
/** The same for `--quick`. */
export const QUICK_MAX_3D: Record<Scenario3DName, number> = {
  box3: 10_000,
  hull8: 10_000,
  hull16: 10_000,
  hull32: 10_000,
  hull64: 10_000,
  spherehull: 10_000,
};
/**
 * Largest pair count cannon-es runs, unless --no-caps (0: not at all). Measured here: ~150k box–box
 * and ~1M sphere–hull pairs/s, but ~8k hull8, ~1k hull16, ~125 hull32 and ~220 hull64 pairs/s
 * (1k hull32 pairs would take 8 s per pass).
 */
export const CANNON_MAX_3D: Record<Scenario3DName, number> = {
  box3: 100_000,
  hull8: 1_000,
  hull16: 1_000,
  hull32: 0,
  hull64: 0,
  spherehull: 100_000,
};
/** Least warm-up time per contender and scene. */
const WARMUP_3D_MS = 200;
/** Passes longer than this get at most 3 timed samples. */
const LONG_PASS_MS = 1000;
const LONG_PASS_SAMPLES = 3;

export interface Plan3D {
  scenario: Scenario3DName;
  sizes: number[];
}

/** Sizes per scenario: the explicit list as given, or the defaults up to each scenario's cap. */
export function plan3D(
  scenarios: readonly Scenario3DName[],
  sizes: number[] | null,
  quick: boolean,
): Plan3D[] {
  const caps = quick ? QUICK_MAX_3D : DEFAULT_MAX_3D;
  return scenarios.map((scenario) => ({
    scenario,
    sizes: sizes ?? (quick ? QUICK_SIZES_3D : DEFAULT_SIZES_3D).filter((n) => n <= caps[scenario]),
  }));
}

export interface Gpu3D {
  np: GpuNarrowphase3D;
  pipelineMs: number;
  firstDispatchMs: number;
  /** Per pair class: its pipeline and first dispatch, ms (compiled in parallel); empty for the general kernel. */
  compileMs: Record<string, number>;
  kernel: 'classes' | 'general';
}

/**
 * Compiles the 3D pair classes (or with kernel 'general' the one kernel holding every path, the
 * narrowphase before classes: the A/B reference) and runs once (lavapipe JIT-compiles then); null
 * with a note when unusable.
 */
export async function setUpGpu3D(
  acquired: AcquiredDevice | null,
  notes: string[],
  kernel: 'classes' | 'general' = 'classes',
): Promise<Gpu3D | null> {
  if (!acquired) return null;
  try {
    const t0 = performance.now();
    const np = await GpuNarrowphase3D.create(acquired.device, acquired.timestamps, {
      kernel,
      kinds: kernel === 'classes' ? ['box', 'hull', 'sphere', 'capsule'] : [],
    });
    const pipelineMs = performance.now() - t0;
    const tiny = makeScene3D('hull16', 64);
    const t1 = performance.now();
    await np.run(tiny.packed);
    const firstDispatchMs = performance.now() - t1;
    return {
      np,
      pipelineMs,
      firstDispatchMs,
      compileMs: { ...np.compileMs } as Record<string, number>,
      kernel,
    };
  } catch (e) {
    notes.push(
      `3D GPU kernel unusable on ${acquired.adapter.name}: ${errorText(e)} (GPU columns n/a)`,
    );
    return null;
  }
}

/** Touching slots and their points among the first `pairs` manifold slots (their u32 words). */
function countManifolds3D(u: Uint32Array, pairs: number): { touching: number; points: number } {
  const M = LAYOUT_3D.manifold;
  let touching = 0;
  let points = 0;
  for (let k = 0; k < pairs; k++) {
    const c = u[k * M.words + M.count]!;
    if (c > 0) touching++;
    points += c;
  }
  return { touching, points };
}

export type Peer3DId = 'rapier3d' | 'jolt' | 'cannon';
export const PEERS_3D: readonly Peer3DId[] = ['rapier3d', 'jolt', 'cannon'];

/** How a peer is built: from the scene's shapes (as our backends see them) and its margin. */
export type Peer3DFactory = (
  shapes: readonly Shape3D[],
  margin: number,
  warn: (message: string) => void,
) => Peer3D | Promise<Peer3D>;

export interface Options3D {
  noCaps: boolean;
  /** Whether the CPU reference runs (a contender of its own). */
  cpuRef: boolean;
  /** The peers to run (Node: rapier3d, Jolt, cannon-es; a browser: rapier3d); the others are marked not run. */
  peers: Partial<Record<Peer3DId, Peer3DFactory>>;
  /** The GPU kept busy this long before each GPU sample (keepGpuBusy; outside its times). */
  gpuWarmupMs?: number;
}

/** Times every contender on one 3D scene (as the 2D part's benchScene does). */
export async function benchScene3D(
  s: BenchScene3D,
  gpu: Gpu3D | null,
  gpuNote: string,
  policy: TimingPolicy,
  options: Options3D,
  progress: (step: string) => void,
  warnings: string[],
): Promise<ScenarioResult3D> {
  const n = s.pairCount;
  const name = `${s.scenario} ${n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : n}`;
  const touching: ScenarioResult3D['touching'] = {};
  let pointsPerContact: number | null = null;
  let gpuBatches = 1;
  const timing = new ScenarioTiming<Contender3DId>(name, CONTENDER_3D_LABEL, policy, warnings, {
    ms: LONG_PASS_MS,
    samples: LONG_PASS_SAMPLES,
  });
  const { contenders } = timing;
  const fail = (ids: Contender3DId[], e: unknown): void => timing.fail(ids, e);
  const add = (ids: Contender3DId[], pass: Pass, finish: () => void): Promise<void> =>
    timing.add(ids, pass, finish);

  progress(`${name}: set-up and warm-up`);
  if (!options.cpuRef) contenders.cpuRef = { skipped: NOT_RUN };
  else
    try {
      const prepared = prepareCpu3D(s.packed);
      const out = new ArrayBuffer(manifoldBytes3D(n));
      await add(
        ['cpuRef'],
        () => {
          const t0 = performance.now();
          collidePacked3D(prepared, s.packed, out);
          return [performance.now() - t0];
        },
        () => {
          const c = countManifolds3D(new Uint32Array(out), n);
          touching.cpuRef = c.touching;
          pointsPerContact = c.touching > 0 ? c.points / c.touching : null;
        },
      );
    } catch (e) {
      fail(['cpuRef'], e);
    }

  if (!gpu) {
    contenders.gpuKernel = { skipped: gpuNote };
    contenders.gpuWall = { skipped: gpuNote };
  } else {
    try {
      // Batches of pairs that fit the device's storage-binding limit (a 3D manifold slot is large:
      // 1M slots exceed lavapipe's 128 MiB), run one after the other; a pass sums their times.
      const batches = splitForDevice(s.packed, gpu.np.device.limits.maxStorageBufferBindingSize);
      gpuBatches = batches.length;
      for (const b of batches) gpu.np.checkCapacity(b);
      // Each run's slots arrive in the narrowphase's kept host memory (as an engine reading every
      // frame would take them), counted before the next run refills it.
      const last: number[] = [];
      await add(
        ['gpuWall', 'gpuKernel'],
        async () => {
          if (options.gpuWarmupMs) await keepGpuBusy(gpu.np.device, options.gpuWarmupMs);
          let wall = 0;
          let kernel = 0;
          for (let i = 0; i < batches.length; i++) {
            const r = await gpu.np.run(batches[i]!, { results: 'kept' });
            last[i] = countManifolds3D(u32Words(r.manifolds), batches[i]!.pairCount).touching;
            wall += r.wallMs;
            kernel += r.kernelMs ?? NaN;
          }
          return [wall, kernel];
        },
        () => {
          touching.gpu = last.reduce((t, n) => t + n, 0);
        },
      );
    } catch (e) {
      fail(['gpuWall', 'gpuKernel'], e);
    }
  }

  const cannonCap = options.noCaps ? Infinity : CANNON_MAX_3D[s.scenario];
  for (const id of PEERS_3D) {
    const create = options.peers[id];
    if (!create) {
      contenders[id] = { skipped: NOT_RUN };
      continue;
    }
    if (id === 'cannon' && n > cannonCap) {
      contenders.cannon = {
        skipped:
          cannonCap > 0
            ? `${NOT_RUN} above ${cannonCap} pairs (cap; --no-caps lifts it)`
            : `${NOT_RUN} on ${s.scenario} (too slow; --no-caps runs it)`,
      };
      continue;
    }
    const warn = (message: string): void =>
      void warnings.push(`${name}: ${CONTENDER_3D_LABEL[id]}: ${message}`);
    await timing.addPeer(
      id,
      () => create(s.peerShapes, s.scene.margin, warn),
      (peer) => peer.collideBatch(s.peerBodies, s.pairs),
      (t) => (touching[id] = t),
    );
  }

  await timing.run(n, progress);

  // Cross-check: everyone found (nearly) the same touching pairs. Grazing pairs may differ (f32
  // on the GPU and in the WASM engines, EPA tolerances); more than a few in 10k means other work.
  const cannonSpeedOnly = s.scenario !== 'box3';
  const ref = touching.cpuRef;
  if (ref !== undefined) {
    if (touching.gpu !== undefined && Math.abs(touching.gpu - ref) > Math.max(2, 1e-5 * n)) {
      warnings.push(`${name}: GPU found ${touching.gpu} touching pairs, the CPU reference ${ref}`);
    }
    for (const id of ['rapier3d', 'jolt', 'cannon'] as const) {
      const t = touching[id];
      if (id === 'cannon' && cannonSpeedOnly) continue;
      if (t !== undefined && Math.abs(t - ref) > Math.max(2, 1e-4 * n)) {
        warnings.push(
          `${name}: ${CONTENDER_3D_LABEL[id]} found ${t} touching pairs, the CPU reference ${ref} (different work?)`,
        );
      }
    }
  }

  const hulls = s.scene.shapes.filter((sh) => sh.kind === SHAPE_KIND_3D.hull);
  return {
    scenario: s.scenario,
    label: SCENARIO_3D_LABEL[s.scenario],
    pairs: n,
    bodies: s.scene.bodyShape.length,
    touching,
    pointsPerContact,
    hull: hulls.length > 0 ? { vertices: s.meanVertices, faces: s.meanFaces } : null,
    packMs: s.packMs,
    contenders: Object.fromEntries(CONTENDERS_3D.map((id) => [id, contenders[id]])) as Record<
      Contender3DId,
      ContenderResult
    >,
    ratios: computeRatios3D(contenders),
    cannonSpeedOnly: cannonSpeedOnly && measuredOrRan(contenders.cannon),
    gpuBatches,
  };
}

/** `packed` as consecutive runs of pairs whose manifold slots fit in one storage binding of `limit` bytes. */
function splitForDevice(packed: Packed3D, limit: number): Packed3D[] {
  const perPair = manifoldBytes3D(1);
  const most = Math.max(1, Math.floor(limit / perPair));
  if (packed.pairCount <= most) return [packed];
  const out: Packed3D[] = [];
  for (let start = 0; start < packed.pairCount; start += most) {
    const end = Math.min(packed.pairCount, start + most);
    out.push({
      ...packed,
      pairs: packed.pairs.subarray(2 * start, 2 * end),
      pairCount: end - start,
    });
  }
  return out;
}

function measuredOrRan(r: ContenderResult | undefined): boolean {
  return !!r && !('skipped' in r && r.skipped.startsWith(NOT_RUN));
}

/** Every planned 3D scene in order; scenes are built one at a time (a 1M-pair scene holds ~0.5 GB). */
export async function runBench3D(
  plan: readonly Plan3D[],
  gpu: Gpu3D | null,
  gpuNote: string,
  policy: TimingPolicy,
  options: Options3D,
  progress: (step: string) => void,
  warnings: string[],
): Promise<ScenarioResult3D[]> {
  const results: ScenarioResult3D[] = [];
  // One warm-up pass suffices where a pass is long (V8 optimises within it; the GPU allocates its
  // buffers in it). Short passes warm up longer than in 2D: the 3D code is larger and tiers up later.
  const policy3D: TimingPolicy = {
    ...policy,
    minWarmupPasses: 1,
    warmupMs: Math.max(policy.warmupMs, WARMUP_3D_MS),
  };
  for (const { scenario, sizes } of plan) {
    for (const size of sizes) {
      const scene = makeScene3D(scenario, size);
      results.push(await benchScene3D(scene, gpu, gpuNote, policy3D, options, progress, warnings));
    }
  }
  return results;
}
