// validation.html: the kernels through this browser's WGSL compiler (Tint in Chromium, naga in
// Firefox) against the CPU reference, on seeded random pairs of every pair class in 2D and 3D, or
// with ?sets=adversarial on the Node suites' adversarial sets (test/helpers/adversarial-sets.ts).
// The comparison is the test suite's own (test/helpers/compare2d.ts, compare3d.ts) on the test
// suite's generators (test/helpers/random2d.ts, random3d.ts). `window.__validation` has the rows
// for the browser tests (test/browser-pages.test.ts).

import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { ADVERSARIAL_SETS_2D, ADVERSARIAL_SETS_3D } from '../test/helpers/adversarial-sets.ts';
import { casesText2D, compareSet2D } from '../test/helpers/compare2d.ts';
import { casesText3D, compareSet3D } from '../test/helpers/compare3d.ts';
import { SWEEP_TYPES, sweepScene, type SweepType } from '../test/helpers/random2d.ts';
import { PAIR_CLASSES_3D, sweepScene3D, type PairClass3D } from '../test/helpers/random3d.ts';
import { intParam, pageDevice, pageFailed, pageState } from './page.ts';
import { element } from './state.ts';

export interface ValidationRow {
  dim: 2 | 3;
  pairClass: string;
  pairs: number;
  touching: number;
  nearTies: number;
  unexplained: number;
  cpuInvalid: number;
  gpuMs: number;
  cpuMs: number;
}

/** classMs: wall time of each class (generation, CPU reference, GPU run, comparison). */
const state = pageState('__validation', {
  rows: [] as ValidationRow[],
  classMs: {} as Record<string, number>,
});
/** CPU manifolds per class checked against the validity check besides every mismatch. */
const VALIDITY_SAMPLE = 2_000;
const MARGIN = 0.05;

function addRow(r: ValidationRow): void {
  state.rows.push(r);
  const tr = document.createElement('tr');
  const cells = [
    `${r.dim}D ${r.pairClass}`,
    r.pairs,
    r.touching,
    r.nearTies,
    r.unexplained,
    r.cpuInvalid,
    r.gpuMs.toFixed(0),
    r.cpuMs.toFixed(0),
  ];
  cells.forEach((c, i) => {
    const td = document.createElement('td');
    td.textContent = String(c);
    if (i === 4 || i === 5) td.className = c === 0 ? 'ok' : 'bad';
    tr.append(td);
  });
  element<HTMLTableElement>('results').tBodies[0]!.append(tr);
}

function showCases(text: string): void {
  if (!text) return;
  const el = element<HTMLPreElement>('cases');
  el.hidden = false;
  el.textContent += `${text}\n`;
}

async function run(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const pairs = intParam(params, 'pairs', 10_000);
  if (pairs % 2)
    throw new Error(
      `URL parameter pairs=${pairs}: must be even (every geometry is listed in both orders)`,
    );
  const seed = intParam(params, 'seed', 0x7a11da7e);
  const wanted = params.get('classes')?.split(',');
  const adversarial = params.get('sets') === 'adversarial';
  if (params.has('sets') && !adversarial)
    throw new Error(
      `URL parameter sets=${params.get('sets')}: give sets=adversarial, or leave it out for the random sweeps`,
    );
  const keep =
    (dim: string) =>
    (c: string): boolean =>
      !wanted || wanted.includes(c) || wanted.includes(`${dim}:${c}`);
  // Each row: a name and the builder of its pairs (the adversarial sets validate every CPU manifold).
  const sets2d = adversarial
    ? Object.entries(ADVERSARIAL_SETS_2D).filter(([c]) => keep('2d')(c))
    : (Object.keys(SWEEP_TYPES) as SweepType[])
        .filter(keep('2d'))
        .map(
          (c, i) =>
            [c, () => sweepScene(c, seed + i, { geometries: pairs / 2, margin: MARGIN })] as const,
        );
  const sets3d = adversarial
    ? Object.entries(ADVERSARIAL_SETS_3D).filter(([c]) => keep('3d')(c))
    : (Object.keys(PAIR_CLASSES_3D) as PairClass3D[])
        .filter(keep('3d'))
        .map(
          (c, i) =>
            [
              c,
              () => sweepScene3D(c, seed + 100 + i, { geometries: pairs / 2, margin: MARGIN }),
            ] as const,
        );
  const validate = adversarial ? 'all' : VALIDITY_SAMPLE;
  const { device, timestamps } = await pageDevice(state);
  const total = sets2d.length + sets3d.length;
  const progress = element<HTMLProgressElement>('progress');
  progress.max = total;
  const stats = element<HTMLDivElement>('stats');
  const step = (what: string): void => {
    element<HTMLSpanElement>('step').textContent = what;
  };
  stats.textContent = adversarial
    ? `${state.adapter} · the adversarial sets`
    : `${state.adapter} · ${pairs} pairs per class · seed ${seed}`;

  const np2 = sets2d.length ? await GpuNarrowphase2D.create(device, timestamps) : null;
  for (const [c, scene] of sets2d) {
    step(`2D ${c}…`);
    const t0 = performance.now();
    const r = await compareSet2D(c, scene(), np2!, validate);
    state.classMs[`2d ${c}`] = performance.now() - t0;
    addRow({
      dim: 2,
      pairClass: c,
      pairs: r.pairs,
      touching: r.touching,
      nearTies: r.nearTies.total,
      unexplained: r.unexplained.length,
      cpuInvalid: r.cpuInvalid.length,
      gpuMs: r.gpuMs,
      cpuMs: r.cpuMs,
    });
    showCases(
      [
        casesText2D(`2D ${c}: unexplained`, r.unexplained.length, r.unexplainedCases),
        casesText2D(`2D ${c}: invalid CPU manifolds`, r.cpuInvalid.length, r.cpuInvalidCases),
      ]
        .filter(Boolean)
        .join('\n'),
    );
    progress.value++;
  }
  np2?.destroy();

  const np3 = sets3d.length ? await GpuNarrowphase3D.create(device, timestamps) : null;
  for (const [c, scene] of sets3d) {
    step(`3D ${c}… (the first 3D set compiles the 3D kernels: minutes on a software adapter)`);
    const t0 = performance.now();
    const r = await compareSet3D(c, scene(), np3!, validate);
    state.classMs[`3d ${c}`] = performance.now() - t0;
    addRow({
      dim: 3,
      pairClass: c,
      pairs: r.pairs,
      touching: r.touching,
      nearTies: r.nearTies.total,
      unexplained: r.unexplained.length,
      cpuInvalid: r.cpuInvalid.length,
      gpuMs: r.gpuMs,
      cpuMs: r.cpuMs,
    });
    showCases(
      [
        casesText3D(`3D ${c}: unexplained`, r.unexplained),
        casesText3D(`3D ${c}: invalid CPU manifolds`, r.cpuInvalid),
      ]
        .filter(Boolean)
        .join('\n'),
    );
    progress.value++;
  }
  np3?.destroy();
  const bad = state.rows.reduce((n, r) => n + r.unexplained + r.cpuInvalid, 0);
  step(
    bad === 0
      ? `done: 0 unexplained mismatches in ${total} classes`
      : `done: ${bad} unexplained mismatches or invalid CPU manifolds`,
  );
  state.done = true;
}

run().catch((e: unknown) => pageFailed(state, e));
