// GPU against CPU on one 2D scene, slot by slot, with near-tie validity (test/gpu-vs-cpu2d.test.ts,
// and the validation page in the browsers, demo/validation.ts).
//
// Per set: one scene, one packed buffer, one CPU run (prepareCpu2D + collidePacked2D) and one GPU
// run (GpuNarrowphase2D.run) on the same packed data. Slots must agree: same count and ids,
// normals within 1e-4, depths within 1e-4 × pair scale (the larger extent), positions within
// that plus the f32 resolution of their world coordinates (validity2d.ts, WORLD_ULPS). A slot that
// differs in count, ids or normal is a near-tie that f32 broke differently from f64 only if BOTH
// manifolds pass the validity check; anything else is unexplained.

import { collidePacked2D, prepareCpu2D } from '../../src/cpu/narrowphase2d.ts';
import type { GpuNarrowphase2D } from '../../src/gpu/narrowphase2d.ts';
import { LAYOUT_2D } from '../../src/layout2d.ts';
import { packScene2D } from '../../src/pack2d.ts';
import { parseScene2D, type SceneJson2D } from '../../src/scene.ts';
import { pairScene, type SceneBuilder } from './random2d.ts';
import {
  checkManifold,
  depthTolerance,
  manifoldJson,
  normalSource,
  pairShapes,
  pairTolerance,
  readManifold,
  type Manifold,
  type Validity,
} from './validity2d.ts';

const M = LAYOUT_2D.manifold;
/** Normal agreement between the backends (unit vectors). */
export const NORMAL_TOL_2D = 1e-4;
/** Failing cases printed per set, and kept in full. */
export const SHOW_CASES_2D = 4;
const KEEP_CASES = 16;

export interface Case2D {
  k: number;
  kind: string;
  scene: SceneJson2D;
  note: string;
  cpu: object;
  gpu: object;
  cpuProblems: string[];
  gpuProblems: string[];
}

export interface SetResult2D {
  name: string;
  /** With a general kernel given: whether it (every path in one) wrote the pair classes' bytes. */
  sameAsGeneral: boolean | null;
  pairs: number;
  touching: number;
  onePoint: number;
  twoPoint: number;
  negativeDepthPoints: number;
  zeroDepthPoints: number;
  vertexFeatureIds: number;
  normalFrom: { 'A-face': number; 'B-face': number; other: number };
  nearTies: { total: number; count: number; ids: number; normal: number };
  /** Pair indices of unexplained mismatches, and the first KEEP_CASES of them in full. */
  unexplained: number[];
  unexplainedCases: Case2D[];
  /** The first few near-ties, printed with SHOW_NEAR_TIES=1. */
  nearTieCases: Case2D[];
  cpuChecked: number;
  /** Pair indices of CPU manifolds that fail the validity check, and the first few in full. */
  cpuInvalid: number[];
  cpuInvalidCases: Case2D[];
  /** Counts of unexplained mismatches and invalid CPU manifolds by kind (what differs / the pair's note and first problem). */
  unexplainedKinds: Map<string, number>;
  cpuInvalidKinds: Map<string, number>;
  /** Over agreeing slots: max normal difference, max position and depth difference / pair tolerance. */
  maxNormalDiff: number;
  maxPositionDiffRel: number;
  maxDepthDiffRel: number;
  cpuMs: number;
  gpuMs: number;
  packMs: number;
  checkMs: number;
  cpu: { f: Float32Array; u: Uint32Array };
  gpu: { f: Float32Array; u: Uint32Array };
}

/** A case in words: the pair as a self-contained scene and both manifolds (2D or 3D). */
export function describeCase2D(c: Omit<Case2D, 'scene'> & { scene: object }): string {
  return [
    `  [${c.kind}] pair ${c.k} (${c.note})`,
    `    scene: ${JSON.stringify(c.scene)}`,
    `    cpu:   ${JSON.stringify(c.cpu)}${c.cpuProblems.length ? `\n      cpu invalid: ${c.cpuProblems.join('; ')}` : ''}`,
    `    gpu:   ${JSON.stringify(c.gpu)}${c.gpuProblems.length ? `\n      gpu invalid: ${c.gpuProblems.join('; ')}` : ''}`,
  ].join('\n');
}

export function casesText2D(title: string, total: number, cases: Case2D[]): string {
  if (total === 0) return '';
  return `${title}: ${total}; first ${Math.min(SHOW_CASES_2D, cases.length)}:\n${cases.slice(0, SHOW_CASES_2D).map(describeCase2D).join('\n')}`;
}

type SlotDiff = 'same' | 'count' | 'ids' | 'normal' | 'values' | 'layout';

/**
 * How slot k of the two buffers differs: 'same'; 'count', 'ids' or 'normal' (a different feature
 * or axis: a near-tie if both are valid); 'values' (same features, positions or depths apart
 * beyond tolerance); 'layout' (flags, or the words of unused points and of the normal of an
 * empty slot, are not both 0). Accumulates the largest differences of agreeing slots.
 */
function slotDiff(
  c: { f: Float32Array; u: Uint32Array },
  g: { f: Float32Array; u: Uint32Array },
  k: number,
  tol: number,
  depthTol: number,
  acc: { normal: number; position: number; depth: number },
): SlotDiff {
  const o = k * M.words;
  const count = c.u[o + M.count]!;
  if (count !== g.u[o + M.count]!) return 'count';
  if (count > 2) return 'layout';
  if (c.u[o + M.flags] !== 0 || g.u[o + M.flags] !== 0) return 'layout';
  for (let i = count; i < 2; i++) {
    const p = o + M.points + i * M.pointStride;
    for (let w = 0; w < M.pointStride; w++)
      if (c.u[p + w] !== 0 || g.u[p + w] !== 0) return 'layout';
  }
  if (count === 0)
    return c.u[o + M.normal] || c.u[o + M.normal + 1] || g.u[o + M.normal] || g.u[o + M.normal + 1]
      ? 'layout'
      : 'same';
  for (let i = 0; i < count; i++) {
    const p = o + M.points + i * M.pointStride + M.pointId;
    if (c.u[p] !== g.u[p]) return 'ids';
  }
  const dn = Math.hypot(
    c.f[o + M.normal]! - g.f[o + M.normal]!,
    c.f[o + M.normal + 1]! - g.f[o + M.normal + 1]!,
  );
  if (!(dn <= NORMAL_TOL_2D)) return 'normal';
  let dp = 0;
  let dd = 0;
  for (let i = 0; i < count; i++) {
    const p = o + M.points + i * M.pointStride;
    dp = Math.max(
      dp,
      Math.hypot(
        c.f[p + M.pointPosition]! - g.f[p + M.pointPosition]!,
        c.f[p + M.pointPosition + 1]! - g.f[p + M.pointPosition + 1]!,
      ),
    );
    dd = Math.max(dd, Math.abs(c.f[p + M.pointDepth]! - g.f[p + M.pointDepth]!));
  }
  acc.normal = Math.max(acc.normal, dn);
  acc.position = Math.max(acc.position, dp / tol);
  acc.depth = Math.max(acc.depth, dd / depthTol);
  return dp <= tol && dd <= depthTol ? 'same' : 'values';
}

/** Runs both backends on a scene and compares every slot; validates a sample of the CPU output. */
export async function compareSet2D(
  name: string,
  builder: SceneBuilder,
  gpu: GpuNarrowphase2D,
  validate: number | 'all',
  general?: GpuNarrowphase2D,
): Promise<SetResult2D> {
  const tStart = performance.now();
  const scene = builder.scene();
  const parsed = parseScene2D(scene);
  const packed = packScene2D(parsed, parsed.pairs!);
  const packMs = performance.now() - tStart;
  const t0 = performance.now();
  const prepared = prepareCpu2D(packed, parsed.shapes.length);
  const cpuBuf = collidePacked2D(prepared, packed);
  const cpuMs = performance.now() - t0;
  const t1 = performance.now();
  const gpuBuf = (await gpu.run(packed)).manifolds;
  const gpuMs = performance.now() - t1;
  const generalBuf = general ? (await general.run(packed)).manifolds : null;
  const sameAsGeneral = generalBuf
    ? new Uint8Array(generalBuf).every((x, i) => x === new Uint8Array(gpuBuf)[i]) &&
      generalBuf.byteLength === gpuBuf.byteLength
    : null;
  const cpu = { f: new Float32Array(cpuBuf), u: new Uint32Array(cpuBuf) };
  const gpuOut = { f: new Float32Array(gpuBuf), u: new Uint32Array(gpuBuf) };
  const margin = parsed.margin;
  const n = packed.pairCount;

  const r: SetResult2D = {
    name,
    sameAsGeneral,
    pairs: n,
    touching: 0,
    onePoint: 0,
    twoPoint: 0,
    negativeDepthPoints: 0,
    zeroDepthPoints: 0,
    vertexFeatureIds: 0,
    normalFrom: { 'A-face': 0, 'B-face': 0, other: 0 },
    nearTies: { total: 0, count: 0, ids: 0, normal: 0 },
    unexplained: [],
    unexplainedCases: [],
    nearTieCases: [],
    cpuChecked: 0,
    cpuInvalid: [],
    cpuInvalidCases: [],
    unexplainedKinds: new Map(),
    cpuInvalidKinds: new Map(),
    maxNormalDiff: 0,
    maxPositionDiffRel: 0,
    maxDepthDiffRel: 0,
    cpuMs,
    gpuMs,
    packMs: 0,
    checkMs: 0,
    cpu,
    gpu: gpuOut,
  };
  const acc = { normal: 0, position: 0, depth: 0 };
  const makeCase = (
    k: number,
    kind: string,
    mc: Manifold,
    mg: Manifold,
    vc: Validity | null,
    vg: Validity | null,
  ): Case2D => ({
    k,
    kind,
    scene: pairScene(scene, k),
    note: `${builder.tags[k]!.set}${builder.tags[k]!.note ? `, ${builder.tags[k]!.note}` : ''}`,
    cpu: manifoldJson(mc),
    gpu: manifoldJson(mg),
    cpuProblems: vc?.problems ?? [],
    gpuProblems: vg?.problems ?? [],
  });

  const every = validate === 'all' ? 1 : Math.max(1, Math.floor(n / validate));
  for (let k = 0; k < n; k++) {
    const mc = readManifold(cpu.f, cpu.u, k);
    if (mc.count > 0) {
      r.touching++;
      if (mc.count === 1) r.onePoint++;
      else r.twoPoint++;
      for (let i = 0; i < mc.count; i++) {
        if (mc.depth[i]! < 0) r.negativeDepthPoints++;
        if (mc.depth[i] === 0) r.zeroDepthPoints++;
        if ((mc.id[i]! & 0x8080) !== 0) r.vertexFeatureIds++;
      }
    }
    const [a, b] = pairShapes(scene, k);
    if (mc.count > 0) r.normalFrom[normalSource(a, b, mc)]++;
    const d = slotDiff(cpu, gpuOut, k, pairTolerance(a, b), depthTolerance(a, b), acc);
    let vc: Validity | null = null;
    if (k % every === 0 || d !== 'same') {
      vc = checkManifold(a, b, mc, margin);
      r.cpuChecked++;
      if (!vc.ok) {
        bump(
          r.cpuInvalidKinds,
          `${builder.tags[k]!.note?.split(',')[0] ?? builder.tags[k]!.set}: ${problemKind(vc.problems[0]!)}`,
        );
        if (r.cpuInvalid.push(k) <= KEEP_CASES)
          r.cpuInvalidCases.push(
            makeCase(k, 'cpu invalid', mc, readManifold(gpuOut.f, gpuOut.u, k), vc, null),
          );
      }
    }
    if (d === 'same') continue;
    const mg = readManifold(gpuOut.f, gpuOut.u, k);
    const vg = checkManifold(a, b, mg, margin);
    if ((d === 'count' || d === 'ids' || d === 'normal') && vc!.ok && vg.ok) {
      r.nearTies.total++;
      r.nearTies[d]++;
      if (r.nearTieCases.length < SHOW_CASES_2D)
        r.nearTieCases.push(makeCase(k, `near-tie: ${d} differ`, mc, mg, vc, vg));
    } else {
      const kind =
        d === 'values'
          ? 'same features, positions/depths differ'
          : d === 'layout'
            ? 'flags or unused words differ'
            : `${d} differ${vc!.ok ? '' : ', cpu invalid'}${vg.ok ? '' : ', gpu invalid'}`;
      bump(r.unexplainedKinds, kind);
      if (r.unexplained.push(k) <= KEEP_CASES)
        r.unexplainedCases.push(makeCase(k, kind, mc, mg, vc, vg));
    }
  }
  r.checkMs = performance.now() - t1 - gpuMs;
  r.packMs = packMs;
  r.maxNormalDiff = acc.normal;
  r.maxPositionDiffRel = acc.position;
  r.maxDepthDiffRel = acc.depth;
  return r;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** A validity problem without its numbers, for counting problems by kind. */
function problemKind(problem: string): string {
  return problem.replace(/-?\d+(\.\d+)?(e[-+]?\d+)?/g, '#');
}

export function kindsText2D(map: Map<string, number>): string {
  return [...map]
    .sort((x, y) => y[1] - x[1])
    .map(([k, n]) => `\n      ${n} × ${k}`)
    .join('');
}
