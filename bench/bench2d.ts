// One 2D narrowphase scene, every contender (the 2D part of `npm run bench`, bench/main.ts, and of
// bench.html in the browsers): the CPU reference (collidePacked2D on the packed scene), the WGSL
// kernel (GpuNarrowphase2D: kernel time from timestamp queries, and wall time), and the peers the
// caller hands in (planck, box2d-wasm and rapier2d in Node; rapier2d in a browser), all on the
// same pairs (bench/scenes2d.ts), timed by bench/timing.ts.

import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { u32Words } from '../src/gpu/buffers.ts';
import type { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { manifoldBytes2D } from '../src/pack2d.ts';
import type { Shape2DInput } from '../src/shapes2d.ts';
import type { Peer2D } from './peers/peer2d.ts';
import {
  computeRatios,
  CONTENDER_LABEL,
  CONTENDERS,
  formatCount,
  NOT_RUN,
  type ContenderId,
  type ContenderResult,
  type ScenarioResult,
} from './report.ts';
import { SCENARIO_LABEL, type BenchScene2D } from './scenes2d.ts';
import { keepGpuBusy, ScenarioTiming, type Pass, type TimingPolicy } from './timing.ts';

export type Peer2DId = 'planck' | 'box2dWasm' | 'rapier2d';
export const PEERS_2D: readonly Peer2DId[] = ['planck', 'box2dWasm', 'rapier2d'];

export interface Options2D {
  /** Whether the CPU reference runs (a contender of its own). */
  cpuRef: boolean;
  /** The peers to run, each built from the scene's shapes; the others are marked not run. */
  peers: Partial<Record<Peer2DId, (shapes: readonly Shape2DInput[]) => Peer2D | Promise<Peer2D>>>;
  /** Passes longer than `ms` take only `samples` timed samples (rapier2d's 8-gons: ~70 µs a pair). */
  longPass?: { ms: number; samples: number };
  /** The GPU kept busy this long before each GPU sample (keepGpuBusy; outside its times). */
  gpuWarmupMs?: number;
}

/** Touching slots among the first `pairs` manifold slots (their u32 words). */
export function countTouching(u: Uint32Array, pairs: number): number {
  const M = LAYOUT_2D.manifold;
  let n = 0;
  for (let k = 0; k < pairs; k++) if (u[k * M.words + M.count]! > 0) n++;
  return n;
}

/**
 * Times every contender on one scene. All are set up and warmed up first; then the timed samples
 * are taken in rounds, one sample of each contender per round, so that other processes on the
 * machine slow all of them alike rather than whichever happened to run at the time.
 */
export async function benchScene2D(
  s: BenchScene2D,
  gpu: { np: GpuNarrowphase2D } | null,
  policy: TimingPolicy,
  options: Options2D,
  progress: (step: string) => void,
  warnings: string[],
): Promise<ScenarioResult> {
  const n = s.pairCount;
  const name = `${s.scenario} ${formatCount(n)}`;
  const touching: ScenarioResult['touching'] = {};
  const timing = new ScenarioTiming<ContenderId>(
    name,
    CONTENDER_LABEL,
    policy,
    warnings,
    options.longPass ?? null,
  );
  const { contenders } = timing;
  const fail = (ids: ContenderId[], e: unknown): void => timing.fail(ids, e);
  const add = (ids: ContenderId[], pass: Pass, finish: () => void): Promise<void> =>
    timing.add(ids, pass, finish);

  progress(`${name}: set-up and warm-up`);
  // CPU reference: the packed scene, prepared once (as the GPU uploads shapes once), output reused.
  if (!options.cpuRef) contenders.cpuRef = { skipped: NOT_RUN };
  else
    try {
      const prepared = prepareCpu2D(s.packed, s.shapes.length);
      const out = new ArrayBuffer(manifoldBytes2D(n));
      await add(
        ['cpuRef'],
        () => {
          const t0 = performance.now();
          collidePacked2D(prepared, s.packed, out);
          return [performance.now() - t0];
        },
        () => {
          touching.cpuRef = countTouching(new Uint32Array(out), n);
        },
      );
    } catch (e) {
      fail(['cpuRef'], e);
    }

  if (!gpu) {
    contenders.gpuWall = { skipped: 'no GPU adapter' };
    contenders.gpuKernel = { skipped: 'no GPU adapter' };
  } else {
    try {
      gpu.np.checkCapacity(s.packed);
      // The slots arrive in the narrowphase's kept host memory, as an engine reading every frame
      // would take them; the last run's stay there until the next kept run.
      let last: Uint8Array | null = null;
      await add(
        ['gpuWall', 'gpuKernel'],
        async () => {
          if (options.gpuWarmupMs) await keepGpuBusy(gpu.np.device, options.gpuWarmupMs);
          const r = await gpu.np.run(s.packed, { results: 'kept' });
          last = r.manifolds;
          return [r.wallMs, r.kernelMs ?? NaN];
        },
        () => {
          if (last) touching.gpu = countTouching(u32Words(last), n);
        },
      );
    } catch (e) {
      fail(['gpuWall', 'gpuKernel'], e);
    }
  }

  // The peers: one pass is collideBatch over the same bodies and pairs (disposed with the cleanups).
  for (const id of PEERS_2D) {
    const create = options.peers[id];
    if (!create) {
      contenders[id] = { skipped: NOT_RUN };
      continue;
    }
    await timing.addPeer(
      id,
      () => create(s.shapes),
      (peer) => peer.collideBatch(s.peerBodies, s.pairs),
      (t) => (touching[id] = t),
    );
  }

  await timing.run(n, progress);

  // Cross-check: everyone found (nearly) the same touching pairs. Pairs that just graze may
  // differ: the GPU rounds differently (fused multiply-add), planck is f64, box2d-wasm is f32 with
  // its own arithmetic. More than a few in 100k (GPU) or 10k (peers) means different work.
  const ref = touching.cpuRef;
  if (ref !== undefined) {
    if (touching.gpu !== undefined && Math.abs(touching.gpu - ref) > Math.max(2, 1e-5 * n)) {
      warnings.push(`${name}: GPU found ${touching.gpu} touching pairs, the CPU reference ${ref}`);
    }
    for (const id of PEERS_2D) {
      const t = touching[id];
      // rapier2d reports the deepest point of penetrating pairs only (no speculative contacts).
      if (t !== undefined && id !== 'rapier2d' && Math.abs(t - ref) > Math.max(2, 1e-4 * n)) {
        warnings.push(
          `${name}: ${CONTENDER_LABEL[id]} found ${t} touching pairs, the CPU reference ${ref} (different work?)`,
        );
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
    contenders: Object.fromEntries(CONTENDERS.map((id) => [id, contenders[id]])) as Record<
      ContenderId,
      ContenderResult
    >,
    ratios: computeRatios(contenders),
  };
}
