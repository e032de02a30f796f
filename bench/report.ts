// Benchmark results: the record written as JSON, the table, and the issue's speed goals.

export type ContenderId = 'cpuRef' | 'gpuKernel' | 'gpuWall' | 'planck' | 'box2dWasm' | 'rapier2d';

export const CONTENDERS: readonly ContenderId[] = [
  'cpuRef',
  'gpuKernel',
  'gpuWall',
  'planck',
  'box2dWasm',
  'rapier2d',
];

export const CONTENDER_LABEL: Record<ContenderId, string> = {
  cpuRef: 'CPU ref',
  gpuKernel: 'GPU kernel',
  gpuWall: 'GPU wall',
  planck: 'planck',
  box2dWasm: 'box2d-wasm',
  rapier2d: 'rapier2d',
};

export interface Measurement {
  /** Median time of one pass over all pairs (ms). */
  ms: number;
  pairsPerSecond: number;
  /** Per-pass time of every timed sample (ms); each sample averages `iterations` passes. */
  samplesMs: number[];
  /** Passes per sample (small sizes repeat the pass so that a sample is long enough to time). */
  iterations: number;
  /** The fastest sample (ms per pass) and its rate: less sensitive to other processes than the median. */
  bestMs: number;
  bestPairsPerSecond: number;
  /** (slowest − fastest sample) / median: above NOISY_SPREAD the table marks the number with '~'. */
  spread: number;
}

export const NOISY_SPREAD = 0.25;

export interface Skipped {
  /** Why this contender has no number (no adapter, no timestamp queries, capacity, error). */
  skipped: string;
}

export type ContenderResult = Measurement | Skipped;

export function measured(r: ContenderResult | undefined): Measurement | null {
  return r && 'pairsPerSecond' in r ? r : null;
}

export interface Ratios {
  gpuKernelOverBox2dWasm: number | null;
  gpuKernelOverCpuRef: number | null;
  cpuRefOverPlanck: number | null;
  cpuRefOverBox2dWasm: number | null;
  gpuWallOverBox2dWasm: number | null;
  gpuWallOverCpuRef: number | null;
}

export interface ScenarioResult {
  scenario: string;
  label: string;
  pairs: number;
  bodies: number;
  /** Pairs with at least one contact point, per contender (a cross-check that all did the same work). */
  touching: Partial<Record<'cpuRef' | 'gpu' | 'planck' | 'box2dWasm' | 'rapier2d', number>>;
  /** Host time to pack the scene into the WGSL layouts (not part of any contender's time). */
  packMs: number;
  contenders: Record<ContenderId, ContenderResult>;
  ratios: Ratios;
}

export interface BenchMeta {
  adapter: string | null;
  adapterSoftware: boolean | null;
  adapterVendor: string | null;
  adapterArchitecture: string | null;
  timestampQueries: boolean;
  /** Pipeline creation (WGSL compile) and the first dispatch, which on lavapipe includes the JIT. */
  gpuPipelineMs: number | null;
  gpuFirstDispatchMs: number | null;
  /** 2D: compile time per pair class (pipeline and its first dispatch), ms; the kernels the GPU columns ran. */
  gpuCompileMs?: Record<string, number>;
  gpuKernel?: 'classes' | 'general';
  node: string;
  v8: string;
  cpu: string;
  cpuCores: number;
  /** os.loadavg() when the run started: other processes compete with every contender (lavapipe uses all cores). */
  loadAverage: number[];
  platform: string;
  date: string;
  versions: Record<string, string>;
  options: {
    sizes: number[];
    scenarios: string[];
    repeat: number;
    quick: boolean;
    minSampleMs: number;
    dims?: number[];
  };
  notes: string[];
  /** The 3D part (absent when only 2D ran): its kernel set-up and what ran at which size. */
  gpu3d?: {
    pipelineMs: number;
    firstDispatchMs: number;
    compileMs?: Record<string, number>;
    kernel?: 'classes' | 'general';
  } | null;
  options3d?: {
    sizes: Record<string, number[]>;
    scenarios: string[];
    caps: Record<string, Record<string, number>>;
  };
}

/** The GPU kernels a run used: the pair classes with their compile times, or the general kernel. */
function kernelsText(
  kernel: 'classes' | 'general' | undefined,
  compileMs: Record<string, number> | undefined,
): string {
  if (kernel === 'general') return 'the general kernel (every path in one; --kernel general)';
  const classes = Object.entries(compileMs ?? {})
    .map(([c, ms]) => `${c} ${(ms / 1000).toFixed(1)} s`)
    .join(', ');
  return `pair classes (compiled in parallel, each with its first dispatch: ${classes || 'none'})`;
}

export interface Goal {
  goal: string;
  status: 'met' | 'not met' | 'not evaluated';
  detail: string;
}

export interface BenchReport {
  meta: BenchMeta;
  /** 2D scenes and goals (empty when only 3D ran). */
  results: ScenarioResult[];
  goals: Goal[];
  /** 3D scenes and goals (absent when only 2D ran). */
  results3d?: ScenarioResult3D[];
  goals3d?: Goal[];
  warnings: string[];
  totalSeconds: number;
}

function ratio(a: ContenderResult | undefined, b: ContenderResult | undefined): number | null {
  const x = measured(a);
  const y = measured(b);
  return x && y ? x.pairsPerSecond / y.pairsPerSecond : null;
}

export function computeRatios(c: Record<ContenderId, ContenderResult>): Ratios {
  return {
    gpuKernelOverBox2dWasm: ratio(c.gpuKernel, c.box2dWasm),
    gpuKernelOverCpuRef: ratio(c.gpuKernel, c.cpuRef),
    cpuRefOverPlanck: ratio(c.cpuRef, c.planck),
    cpuRefOverBox2dWasm: ratio(c.cpuRef, c.box2dWasm),
    gpuWallOverBox2dWasm: ratio(c.gpuWall, c.box2dWasm),
    gpuWallOverCpuRef: ratio(c.gpuWall, c.cpuRef),
  };
}

/** 4.52M, 812k, 3.10G: pairs per second with three significant digits. */
export function formatRate(x: number): string {
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [scale, unit] of units) {
    if (x >= scale) return `${(x / scale).toPrecision(3)}${unit}`;
  }
  return x.toPrecision(3);
}

export function formatCount(n: number): string {
  if (n >= 1e6 && n % 1e6 === 0) return `${n / 1e6}M`;
  if (n >= 1e3 && n % 1e3 === 0) return `${n / 1e3}k`;
  return String(n);
}

function formatRatio(x: number | null): string {
  if (x === null) return '–';
  return x >= 100 ? `${x.toFixed(0)}×` : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`;
}

function cell(r: ContenderResult | undefined): string {
  const m = measured(r);
  return m ? `${m.spread > NOISY_SPREAD ? '~' : ''}${formatRate(m.pairsPerSecond)}` : 'n/a';
}

/** Monospace table, right-aligned numbers. */
function renderGrid(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function renderHeader(meta: BenchMeta): string {
  const adapter =
    meta.adapter === null
      ? 'none (GPU columns skipped)'
      : `${meta.adapter}${meta.adapterSoftware ? ' [software: CPU rasteriser, not a GPU]' : ' [hardware]'}` +
        `${meta.timestampQueries ? '' : ' (no timestamp queries: no kernel times)'}`;
  const dims = meta.options.dims ?? [2];
  const has2 = dims.includes(2);
  const has3 = dims.includes(3);
  const peers = [
    ...(has2
      ? [`planck ${meta.versions.planck ?? '?'}, box2d-wasm ${meta.versions['box2d-wasm'] ?? '?'}`]
      : []),
    ...(has3
      ? [
          `rapier3d ${meta.versions.rapier3d ?? '?'}, jolt-physics ${meta.versions['jolt-physics'] ?? '?'}, cannon-es ${meta.versions['cannon-es'] ?? '?'}`,
        ]
      : []),
  ];
  return [
    `webgpu-narrowphase ${dims.map((d) => `${d}D`).join(' + ')} benchmark: contact manifolds, pairs per second (higher is better)`,
    `  adapter  ${adapter}`,
    ...(has2 && meta.gpuPipelineMs !== null && meta.gpuFirstDispatchMs !== null
      ? [
          `  kernel   ${has3 ? '2D ' : ''}${kernelsText(meta.gpuKernel, meta.gpuCompileMs)}, pipelines ${meta.gpuPipelineMs.toFixed(0)} ms, first run ${meta.gpuFirstDispatchMs.toFixed(0)} ms (shader JIT on lavapipe; kept out of all timings)`,
        ]
      : []),
    ...(has3 && meta.gpu3d
      ? [
          `  kernel   3D ${kernelsText(meta.gpu3d.kernel, meta.gpu3d.compileMs)}, pipelines ${meta.gpu3d.pipelineMs.toFixed(0)} ms, first run ${meta.gpu3d.firstDispatchMs.toFixed(0)} ms (kept out of all timings)`,
        ]
      : []),
    `  node     ${meta.node} (V8 ${meta.v8}), ${meta.platform}`,
    `  cpu      ${meta.cpu} × ${meta.cpuCores}`,
    `  date     ${meta.date}; load average ${meta.loadAverage.map((x) => x.toFixed(2)).join(' ')} (1, 5, 15 min)`,
    `  peers    ${peers.join('; ')}; ` +
      `median of ${meta.options.repeat} timed samples after a warm-up, contenders interleaved`,
  ].join('\n');
}

export function renderTable(results: readonly ScenarioResult[]): string {
  const header = [
    'scenario',
    'pairs',
    'touch',
    'CPU ref',
    'GPU kernel',
    'GPU wall',
    'planck',
    'box2d-wasm',
    'rapier2d',
    'GPUk/b2d',
    'GPUk/CPU',
    'CPU/planck',
    'CPU/b2d',
  ];
  const rows = results.map((r) => {
    const touch = r.touching.cpuRef ?? r.touching.gpu;
    return [
      r.label,
      formatCount(r.pairs),
      touch === undefined ? '–' : `${((100 * touch) / r.pairs).toFixed(0)}%`,
      cell(r.contenders.cpuRef),
      cell(r.contenders.gpuKernel),
      cell(r.contenders.gpuWall),
      cell(r.contenders.planck),
      cell(r.contenders.box2dWasm),
      cell(r.contenders.rapier2d),
      formatRatio(r.ratios.gpuKernelOverBox2dWasm),
      formatRatio(r.ratios.gpuKernelOverCpuRef),
      formatRatio(r.ratios.cpuRefOverPlanck),
      formatRatio(r.ratios.cpuRefOverBox2dWasm),
    ];
  });
  const notes = [
    'pairs/s per contender; ratios are pairs/s over pairs/s. touch: pairs with a contact (the rest are near misses).',
    'GPU kernel: timestamp queries around the compute pass; GPU wall: upload + dispatch + readback on the host' +
      " (into kept host memory: run()'s results: 'kept').",
    'CPU ref: src/cpu collidePacked2D on the packed scene (single thread); peers: one collide + world manifold per pair' +
      ' (rapier2d: Collider.contactCollider, the deepest point only).',
    `~: noisy, the samples spread over more than ${100 * NOISY_SPREAD}% of the median (other processes on the machine?);` +
      ' the JSON has every sample and the best.',
  ];
  return `${renderGrid(header, rows)}\n${notes.map((n) => `  ${n}`).join('\n')}`;
}

const TARGET_SIZE = 1_000_000;

/** The issue's speed goals, evaluated on the largest size of each scenario (the goals are stated at 1M pairs). */
export function evaluateGoals(results: readonly ScenarioResult[], meta: BenchMeta): Goal[] {
  const goals: Goal[] = [];
  const software = meta.adapterSoftware === true;
  const scenarios = [...new Set(results.map((r) => r.scenario))];
  const largest = (scenario: string): ScenarioResult | undefined =>
    results.filter((r) => r.scenario === scenario).sort((a, b) => b.pairs - a.pairs)[0];
  const at = (r: ScenarioResult): string =>
    r.pairs === TARGET_SIZE
      ? `${r.label} @ 1M`
      : `${r.label} @ ${formatCount(r.pairs)} (goal is stated at 1M; not run)`;

  const ratioGoal = (
    goal: string,
    key: keyof Ratios,
    target: number,
    a: ContenderId,
    b: ContenderId,
    strict: boolean,
    need?: () => string | null,
  ): void => {
    const parts: string[] = [];
    let status: Goal['status'] = 'met';
    const blocked = need?.() ?? null;
    if (blocked) {
      goals.push({ goal, status: 'not evaluated', detail: blocked });
      return;
    }
    for (const s of scenarios) {
      const r = largest(s);
      if (!r) continue;
      const x = r.ratios[key];
      const ma = measured(r.contenders[a]);
      const mb = measured(r.contenders[b]);
      if (x === null || !ma || !mb) {
        parts.push(`${at(r)}: no number`);
        if (status === 'met') status = 'not evaluated';
        continue;
      }
      const ok = strict ? x > target : x >= target;
      if (r.pairs !== TARGET_SIZE) status = 'not evaluated';
      else if (!ok && status === 'met') status = 'not met';
      parts.push(
        `${at(r)}: ${formatRatio(x)} (${CONTENDER_LABEL[a]} ${formatRate(ma.pairsPerSecond)}/s vs ${CONTENDER_LABEL[b]} ` +
          `${formatRate(mb.pairsPerSecond)}/s) ${ok ? 'ok' : 'short'}`,
      );
    }
    if (parts.length === 0) status = 'not evaluated';
    goals.push({ goal, status, detail: parts.join('; ') || 'no results' });
  };

  const needSoftwareGpu = (): string | null => {
    if (meta.adapter === null) return 'no GPU adapter';
    if (!meta.timestampQueries) return 'no timestamp queries (kernel time unknown)';
    if (!software) return `stated for lavapipe; this adapter is hardware (${meta.adapter})`;
    return null;
  };
  ratioGoal(
    'GPU kernel (lavapipe) ≥ 2× box2d-wasm pairs/s at 1M pairs',
    'gpuKernelOverBox2dWasm',
    2,
    'gpuKernel',
    'box2dWasm',
    false,
    needSoftwareGpu,
  );
  ratioGoal(
    'GPU kernel (lavapipe) ≥ 3× CPU reference pairs/s at 1M pairs',
    'gpuKernelOverCpuRef',
    3,
    'gpuKernel',
    'cpuRef',
    false,
    needSoftwareGpu,
  );
  ratioGoal(
    'CPU reference faster per pair than planck',
    'cpuRefOverPlanck',
    1,
    'cpuRef',
    'planck',
    true,
  );
  ratioGoal(
    'CPU reference ≥ ½ box2d-wasm pairs/s',
    'cpuRefOverBox2dWasm',
    0.5,
    'cpuRef',
    'box2dWasm',
    false,
  );

  // Real GPU: 8-gon pairs/s from kernel time.
  const hwGoal = 'real GPU (H100): ≥ 4e9 8-gon pairs/s kernel time at 1M pairs';
  const ngon = largest('ngon');
  const k = ngon ? measured(ngon.contenders.gpuKernel) : null;
  if (meta.adapter === null)
    goals.push({ goal: hwGoal, status: 'not evaluated', detail: 'no GPU adapter' });
  else if (!ngon)
    goals.push({ goal: hwGoal, status: 'not evaluated', detail: 'the ngon scenario was not run' });
  else if (!k)
    goals.push({
      goal: hwGoal,
      status: 'not evaluated',
      detail: 'no kernel time (timestamp queries)',
    });
  else if (software) {
    goals.push({
      goal: hwGoal,
      status: 'not evaluated',
      detail: `software adapter (${meta.adapter}): ${formatRate(k.pairsPerSecond)}/s here; run on the GPU machine`,
    });
  } else {
    const ok = k.pairsPerSecond >= 4e9;
    goals.push({
      goal: hwGoal,
      status: ngon.pairs !== TARGET_SIZE && ok ? 'not evaluated' : ok ? 'met' : 'not met',
      detail: `${at(ngon)}: ${formatRate(k.pairsPerSecond)}/s kernel (${k.ms.toFixed(3)} ms) on ${meta.adapter}`,
    });
  }
  return goals;
}

export function renderGoals(goals: readonly Goal[]): string {
  const mark = (s: Goal['status']): string =>
    s === 'met' ? 'MET    ' : s === 'not met' ? 'NOT MET' : 'n/e    ';
  return [
    'goals (issue; evaluated on the largest size run):',
    ...goals.map((g) => `  [${mark(g.status)}] ${g.goal}\n            ${g.detail}`),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// 3D (bench/bench3d.ts)

export type Contender3DId = 'cpuRef' | 'gpuKernel' | 'gpuWall' | 'rapier3d' | 'jolt' | 'cannon';

export const CONTENDERS_3D: readonly Contender3DId[] = [
  'cpuRef',
  'gpuKernel',
  'gpuWall',
  'rapier3d',
  'jolt',
  'cannon',
];

export const CONTENDER_3D_LABEL: Record<Contender3DId, string> = {
  cpuRef: 'CPU ref',
  gpuKernel: 'GPU kernel',
  gpuWall: 'GPU wall',
  rapier3d: 'rapier3d',
  jolt: 'jolt',
  cannon: 'cannon-es',
};

/** Prefix of the `skipped` text of a contender left out by a size cap (the table shows '–', not 'n/a'). */
export const NOT_RUN = 'not run';

export interface Ratios3D {
  gpuKernelOverJolt: number | null;
  gpuKernelOverCpuRef: number | null;
  gpuKernelOverRapier: number | null;
  cpuRefOverRapier: number | null;
  cpuRefOverJolt: number | null;
  gpuWallOverJolt: number | null;
}

export interface ScenarioResult3D {
  scenario: string;
  label: string;
  pairs: number;
  bodies: number;
  /** Pairs with at least one contact point, per contender (a cross-check that all did the same work). */
  touching: Partial<Record<'cpuRef' | 'gpu' | 'rapier3d' | 'jolt' | 'cannon', number>>;
  /** Mean contact points per touching pair of the CPU reference. */
  pointsPerContact: number | null;
  /** Mean vertex and face count of the scenario's hulls (null without hulls). */
  hull: { vertices: number; faces: number } | null;
  /** Host time to pack the scene into the WGSL layouts (not part of any contender's time). */
  packMs: number;
  contenders: Record<Contender3DId, ContenderResult>;
  ratios: Ratios3D;
  /** cannon-es ran here, but its manifolds are not comparable (general hulls, sphere–hull): speed only. */
  cannonSpeedOnly: boolean;
  /** GPU dispatches per pass: more than 1 where the manifold slots exceed the device's storage-binding limit. */
  gpuBatches: number;
}

export function computeRatios3D(c: Record<Contender3DId, ContenderResult>): Ratios3D {
  return {
    gpuKernelOverJolt: ratio(c.gpuKernel, c.jolt),
    gpuKernelOverCpuRef: ratio(c.gpuKernel, c.cpuRef),
    gpuKernelOverRapier: ratio(c.gpuKernel, c.rapier3d),
    cpuRefOverRapier: ratio(c.cpuRef, c.rapier3d),
    cpuRefOverJolt: ratio(c.cpuRef, c.jolt),
    gpuWallOverJolt: ratio(c.gpuWall, c.jolt),
  };
}

function cell3D(r: ContenderResult | undefined, mark = ''): string {
  if (r && 'skipped' in r && r.skipped.startsWith(NOT_RUN)) return '–';
  const c = cell(r);
  return c === 'n/a' ? c : `${c}${mark}`;
}

export function renderTable3D(
  results: readonly ScenarioResult3D[],
  gpuPathNote: string | null,
): string {
  const header = [
    'scenario',
    'pairs',
    'touch',
    'pts',
    'CPU ref',
    'GPU kernel',
    'GPU wall',
    'rapier3d',
    'jolt',
    'cannon-es',
    'GPUk/jolt',
    'GPUk/CPU',
    'CPU/rapier',
    'CPU/jolt',
  ];
  const rows = results.map((r) => {
    const touch = r.touching.cpuRef ?? r.touching.gpu;
    return [
      r.label,
      formatCount(r.pairs),
      touch === undefined ? '–' : `${((100 * touch) / r.pairs).toFixed(0)}%`,
      r.pointsPerContact === null ? '–' : r.pointsPerContact.toFixed(1),
      cell3D(r.contenders.cpuRef),
      cell3D(r.contenders.gpuKernel),
      cell3D(r.contenders.gpuWall),
      cell3D(r.contenders.rapier3d),
      cell3D(r.contenders.jolt),
      cell3D(r.contenders.cannon, r.cannonSpeedOnly ? '†' : ''),
      formatRatio(r.ratios.gpuKernelOverJolt),
      formatRatio(r.ratios.gpuKernelOverCpuRef),
      formatRatio(r.ratios.cpuRefOverRapier),
      formatRatio(r.ratios.cpuRefOverJolt),
    ];
  });
  const notes = [
    'pairs/s per contender; ratios are pairs/s over pairs/s. touch: pairs with a contact; pts: mean points per touching pair (CPU ref).',
    'CPU ref: src/cpu collidePacked3D on the packed scene (single thread); GPU kernel: timestamp queries around the pass;',
    "  GPU wall: upload + dispatch + readback (into kept host memory: run()'s results: 'kept').",
    '  Peers, one call per pair on prebuilt shapes: rapier3d Collider.contactCollider',
    '  (normal, depth and ONE point: rapier exposes full manifolds only through a world step), jolt CollideShape + its',
    '  ManifoldBetweenTwoFaces/PruneContactPoints (≤ 4 points), cannon-es narrowphase convexConvex/sphereConvex.',
    '†: speed only, cannon-es results are not comparable there (its hull clipping is wrong on general hulls, and its',
    '  sphere–convex takes the first hull vertex inside the sphere). –: not run at this size (cap, see --no-caps).',
    `~: noisy, the samples spread over more than ${100 * NOISY_SPREAD}% of the median; the JSON has every sample and the best.`,
    ...results
      .filter((r) => r.gpuBatches > 1)
      .map(
        (r) =>
          `GPU at ${r.label} ${formatCount(r.pairs)}: ${r.gpuBatches} runs of the kernel per pass, times summed (the pairs' manifold slots exceed one storage binding).`,
      ),
    ...(gpuPathNote ? [gpuPathNote] : []),
  ];
  return `${renderGrid(header, rows)}\n${notes.map((n) => `  ${n}`).join('\n')}`;
}

const HULL_SCENARIOS = ['hull8', 'hull16', 'hull32', 'hull64'] as const;

/** How the hull–hull cost grows with the vertex count: µs per pair, and relative to the smallest hull. */
export function renderScaling3D(results: readonly ScenarioResult3D[]): string | null {
  const present = HULL_SCENARIOS.filter((s) => results.some((r) => r.scenario === s));
  if (present.length < 2) return null;
  // A size every hull scenario ran, else each one's largest.
  const sizes = present.map(
    (s) => new Set(results.filter((r) => r.scenario === s).map((r) => r.pairs)),
  );
  const common = [...sizes[0]!]
    .filter((n) => sizes.every((set) => set.has(n)))
    .sort((a, b) => b - a)[0];
  const rowOf = (s: string): ScenarioResult3D | undefined =>
    results
      .filter((r) => r.scenario === s && (common === undefined || r.pairs === common))
      .sort((a, b) => b.pairs - a.pairs)[0];
  const ids: Contender3DId[] = ['cpuRef', 'gpuKernel', 'rapier3d', 'jolt'];
  const first = rowOf(present[0]!);
  const base = Object.fromEntries(
    ids.map((id) => [id, measured(first?.contenders[id])?.pairsPerSecond ?? null]),
  );
  const rows = present.map((s) => {
    const r = rowOf(s)!;
    return [
      r.label,
      formatCount(r.pairs),
      r.hull ? r.hull.vertices.toFixed(0) : '–',
      r.hull ? r.hull.faces.toFixed(0) : '–',
      ...ids.map((id) => {
        const m = measured(r.contenders[id]);
        if (!m) return 'n/a';
        const b = base[id];
        return `${(1e6 / m.pairsPerSecond).toPrecision(3)} µs${b ? ` (${(b / m.pairsPerSecond).toFixed(1)}×)` : ''}`;
      }),
    ];
  });
  const header = ['hull–hull', 'pairs', 'V', 'F', ...ids.map((id) => CONTENDER_3D_LABEL[id])];
  return [
    `hull–hull cost per pair against the vertex count (×: relative to ${first?.label ?? 'the smallest hull'}; V, F: mean hull vertices, faces):`,
    renderGrid(header, rows),
  ].join('\n');
}

/** The 3D speed goals, evaluated on the largest size of each scenario. */
export function evaluateGoals3D(results: readonly ScenarioResult3D[], meta: BenchMeta): Goal[] {
  const goals: Goal[] = [];
  const software = meta.adapterSoftware === true;
  const largest = (scenario: string): ScenarioResult3D | undefined =>
    results.filter((r) => r.scenario === scenario).sort((a, b) => b.pairs - a.pairs)[0];
  const at = (r: ScenarioResult3D): string => `${r.label} @ ${formatCount(r.pairs)}`;

  /**
   * A ratio goal over some scenarios. With `at1M`, MET needs every scenario at 1M; a shortfall at
   * the largest size run counts as NOT MET (per-pair rates barely depend on the size once it is
   * past a few thousand pairs), a pass below 1M as not evaluated.
   */
  const ratioGoal = (
    goal: string,
    key: keyof Ratios3D,
    target: number,
    a: Contender3DId,
    b: Contender3DId,
    scenarios: readonly string[],
    at1M: boolean,
    blocked: string | null,
  ): void => {
    if (blocked) {
      goals.push({ goal, status: 'not evaluated', detail: blocked });
      return;
    }
    const parts: string[] = [];
    let short = false;
    let unevaluated = false;
    for (const s of scenarios) {
      const r = largest(s);
      if (!r) continue;
      const x = r.ratios[key];
      const ma = measured(r.contenders[a]);
      const mb = measured(r.contenders[b]);
      if (x === null || !ma || !mb) {
        parts.push(`${at(r)}: no number`);
        unevaluated = true;
        continue;
      }
      const ok = x >= target;
      if (!ok) short = true;
      else if (at1M && r.pairs !== TARGET_SIZE) unevaluated = true;
      parts.push(
        `${at(r)}: ${formatRatio(x)} (${CONTENDER_3D_LABEL[a]} ${formatRate(ma.pairsPerSecond)}/s vs ${CONTENDER_3D_LABEL[b]} ` +
          `${formatRate(mb.pairsPerSecond)}/s) ${ok ? (at1M && r.pairs !== TARGET_SIZE ? 'ok below 1M' : 'ok') : 'short'}`,
      );
    }
    const status: Goal['status'] =
      parts.length === 0
        ? 'not evaluated'
        : short
          ? 'not met'
          : unevaluated
            ? 'not evaluated'
            : 'met';
    goals.push({ goal, status, detail: parts.join('; ') || 'no results' });
  };

  const lavapipe = (): string | null => {
    if (meta.adapter === null) return 'no GPU adapter';
    if (!meta.timestampQueries) return 'no timestamp queries (kernel time unknown)';
    if (!software) return `stated for lavapipe; this adapter is hardware (${meta.adapter})`;
    return null;
  };
  const boxHull = ['box3', ...HULL_SCENARIOS];
  // Its hull–hull half is retired (the frame issue): lavapipe's per-lane gathers, which the hull
  // paths are full of, are not a GPU's costs.
  ratioGoal(
    '3D: GPU kernel (lavapipe) ≥ 2× jolt pairs/s on box–box at 1M pairs',
    'gpuKernelOverJolt',
    2,
    'gpuKernel',
    'jolt',
    ['box3'],
    true,
    lavapipe(),
  );
  ratioGoal(
    '3D: GPU kernel (lavapipe) ≥ 3× CPU reference pairs/s on box–box and hull–hull at 1M pairs',
    'gpuKernelOverCpuRef',
    3,
    'gpuKernel',
    'cpuRef',
    boxHull,
    true,
    lavapipe(),
  );
  ratioGoal(
    '3D: CPU reference ≥ ½ rapier3d pairs/s',
    'cpuRefOverRapier',
    0.5,
    'cpuRef',
    'rapier3d',
    [...boxHull, 'spherehull'],
    false,
    null,
  );

  // Real GPU: kernel-time rates.
  for (const [scenario, rate, what] of [
    ['box3', 2e9, 'box–box'],
    ['hull32', 2e8, 'hull–hull (32 points)'],
  ] as const) {
    const goal = `3D, real GPU: ≥ ${rate.toExponential(0).replace('+', '')} ${what} pairs/s kernel time at 1M pairs`;
    const r = largest(scenario);
    const k = r ? measured(r.contenders.gpuKernel) : null;
    if (meta.adapter === null)
      goals.push({ goal, status: 'not evaluated', detail: 'no GPU adapter' });
    else if (!r)
      goals.push({ goal, status: 'not evaluated', detail: `the ${scenario} scenario was not run` });
    else if (!k)
      goals.push({
        goal,
        status: 'not evaluated',
        detail: 'no kernel time (no 3D GPU path or no timestamp queries)',
      });
    else if (software) {
      goals.push({
        goal,
        status: 'not evaluated',
        detail: `software adapter (${meta.adapter}): ${formatRate(k.pairsPerSecond)}/s here at ${formatCount(r.pairs)}; run on a GPU`,
      });
    } else {
      const ok = k.pairsPerSecond >= rate;
      goals.push({
        goal,
        status: !ok ? 'not met' : r.pairs !== TARGET_SIZE ? 'not evaluated' : 'met',
        detail: `${at(r)}: ${formatRate(k.pairsPerSecond)}/s kernel (${k.ms.toFixed(3)} ms) on ${meta.adapter}`,
      });
    }
  }
  return goals;
}
