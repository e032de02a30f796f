// GPU against CPU on one 3D scene, slot by slot, with near-tie validity (test/gpu-vs-cpu3d.test.ts,
// test/determinism3d.test.ts).
//
// Per set: one scene, one packed buffer, one CPU run (prepareCpu3D + collidePacked3D) and one GPU
// run (GpuNarrowphase3D.run) on the same packed data. Slots must agree: same count, kind and ids,
// normals within NORMAL_TOL, positions and depths within the pair tolerance (1e-4 × the larger
// extent, plus the f32 resolution of the world coordinates). A slot that differs is a near-tie
// that f32 broke differently from f64 only if BOTH manifolds pass the independent validity check
// (src/validity3d.ts); anything else is unexplained.

import { CONTACT_KIND_3D } from '../../src/constants3d.ts';
import {
  collidePacked3D,
  prepareCpu3D,
  type CpuNarrowphase3D,
} from '../../src/cpu/narrowphase3d.ts';
import type { GpuNarrowphase3D } from '../../src/gpu/narrowphase3d.ts';
import { LAYOUT_3D } from '../../src/layout3d.ts';
import { packScene3D, type Packed3D } from '../../src/pack3d.ts';
import { parseScene3D, type SceneJson3D } from '../../src/scene.ts';
import {
  checkManifoldValidity3D,
  placeShape3D,
  type PlacedShape3D,
  type Validity3D,
} from '../../src/validity3d.ts';
import { describeCase2D } from './compare2d.ts';
import { pairScene } from './random2d.ts';
import type { SceneBuilder3D } from './random3d.ts';

const M = LAYOUT_3D.manifold;
const B = LAYOUT_3D.body;
/** Normal agreement between the backends (unit vectors), before the f32 world term. */
export const NORMAL_TOL_3D = 1e-4;
/** Relative length agreement (× the larger extent). */
export const LENGTH_TOL_3D = 1e-4;
/** ulps of the largest world coordinate that f32 arithmetic may lose on the way. */
export const WORLD_ULPS_3D = 8;

export const KIND_NAMES = Object.fromEntries(
  Object.entries(CONTACT_KIND_3D).map(([k, v]) => [v, k]),
) as Record<number, string>;

export interface Slot3D {
  normal: [number, number, number];
  count: number;
  kind: number;
  positions: number[];
  depths: number[];
  ids: number[];
}

export function readSlot3D(f: Float32Array, u: Uint32Array, k: number): Slot3D {
  const o = k * M.words;
  const count = u[o + M.count]!;
  const s: Slot3D = {
    normal: [f[o + M.normal]!, f[o + M.normal + 1]!, f[o + M.normal + 2]!],
    count,
    kind: u[o + M.kind]!,
    positions: [],
    depths: [],
    ids: [],
  };
  for (let i = 0; i < Math.min(count, M.pointCapacity); i++) {
    const p = o + M.points + i * M.pointStride;
    s.positions.push(
      f[p + M.pointPosition]!,
      f[p + M.pointPosition + 1]!,
      f[p + M.pointPosition + 2]!,
    );
    s.depths.push(f[p + M.pointDepth]!);
    s.ids.push(u[o + M.ids + i * M.idStride]!);
  }
  return s;
}

export function slotJson(s: Slot3D): object {
  return {
    kind: KIND_NAMES[s.kind] ?? s.kind,
    normal: s.normal,
    points: s.depths.map((d, i) => ({
      position: s.positions.slice(3 * i, 3 * i + 3),
      depth: d,
      id: `0x${s.ids[i]!.toString(16).padStart(4, '0')}`,
    })),
  };
}

export interface Case3D {
  k: number;
  kind: string;
  scene: SceneJson3D;
  note: string;
  cpu: object;
  gpu: object;
  cpuProblems: string[];
  gpuProblems: string[];
}

export interface SetResult3D {
  name: string;
  /** The pair classes that ran (src/gpu/pair-classes3d.ts), with their pair counts (the classifier's, read back). */
  classes: Record<string, number>;
  /** Whether the general kernel (every path in one) wrote the same bytes as the classes; null when not run. */
  sameAsGeneral: boolean | null;
  pairs: number;
  touching: number;
  pointHistogram: number[];
  kinds: Record<string, number>;
  /** Face contacts (hull–hull) with 1 point: the vertex fallback or a vertex poking a face. */
  faceOnePoint: number;
  negativeDepthPoints: number;
  nearTies: { total: number; count: number; ids: number; normal: number; numeric: number };
  unexplained: Case3D[];
  nearTieCases: Case3D[];
  cpuChecked: number;
  cpuInvalid: Case3D[];
  maxNormalDiff: number;
  maxPositionDiffRel: number;
  maxDepthDiffRel: number;
  cpuMs: number;
  gpuMs: number;
  gpuKernelMs: number | null;
  checkMs: number;
  cpu: { f: Float32Array; u: Uint32Array };
  gpu: { f: Float32Array; u: Uint32Array };
}

/** The two shapes of slot k as the kernels saw them (f32 data), placed in the world. */
export function placedPair(
  prepared: CpuNarrowphase3D,
  packed: Packed3D,
  k: number,
): [PlacedShape3D, PlacedShape3D] {
  const place = (body: number): PlacedShape3D => {
    const o = body * B.words;
    const pos = prepared.bodies.subarray(o + B.position, o + B.position + 3);
    const rot = prepared.bodies.subarray(o + B.rotation, o + B.rotation + 4);
    return placeShape3D(prepared.shapes[prepared.bodyShape[body]!]!, pos, rot);
  };
  return [place(packed.pairs[2 * k]!), place(packed.pairs[2 * k + 1]!)];
}

function view(s: Slot3D): {
  normal: number[];
  count: number;
  positions: number[];
  depths: number[];
  ids: number[];
} {
  return s;
}

/** Length tolerance for comparing the backends on a pair. */
export function compareTolerance3D(a: PlacedShape3D, b: PlacedShape3D): number {
  return (
    LENGTH_TOL_3D * Math.max(a.extent, b.extent) +
    WORLD_ULPS_3D * 2 ** -24 * Math.max(a.magnitude, b.magnitude)
  );
}

type DiffKind = 'same' | 'count' | 'ids' | 'normal' | 'numeric';

function slotDiff(
  c: Slot3D,
  g: Slot3D,
  tol: number,
  scale: number,
  acc: { normal: number; position: number; depth: number },
): DiffKind {
  if (c.count !== g.count) return 'count';
  if (c.count === 0) return 'same';
  if (c.kind !== g.kind) return 'ids';
  for (let i = 0; i < c.count; i++) if (c.ids[i] !== g.ids[i]) return 'ids';
  const dn = Math.hypot(
    c.normal[0] - g.normal[0],
    c.normal[1] - g.normal[1],
    c.normal[2] - g.normal[2],
  );
  let dp = 0;
  let dd = 0;
  for (let i = 0; i < c.count; i++) {
    dp = Math.max(
      dp,
      Math.hypot(
        c.positions[3 * i]! - g.positions[3 * i]!,
        c.positions[3 * i + 1]! - g.positions[3 * i + 1]!,
        c.positions[3 * i + 2]! - g.positions[3 * i + 2]!,
      ),
    );
    dd = Math.max(dd, Math.abs(c.depths[i]! - g.depths[i]!));
  }
  acc.normal = Math.max(acc.normal, dn);
  acc.position = Math.max(acc.position, dp / tol);
  acc.depth = Math.max(acc.depth, dd / tol);
  if (!(dn <= NORMAL_TOL_3D + tol / scale)) return 'normal';
  if (!(dp <= tol) || !(dd <= tol)) return 'numeric';
  return 'same';
}

/**
 * Runs both backends on a scene and compares every slot; validates a sample of the CPU output.
 * With `general` (a GpuNarrowphase3D of kernel 'general'), also runs the general kernel on the same
 * packed data and compares its bytes with the pair classes' (sameAsGeneral).
 */
export async function compareSet3D(
  name: string,
  builder: SceneBuilder3D,
  gpu: GpuNarrowphase3D,
  validate: number | 'all',
  showCases = 4,
  general?: GpuNarrowphase3D,
): Promise<SetResult3D> {
  const scene = builder.scene();
  const parsed = parseScene3D(scene);
  const packed = packScene3D(parsed, parsed.pairs!);
  const prepared = prepareCpu3D(packed);
  const t0 = performance.now();
  const cpuBuf = collidePacked3D(prepared, packed);
  const cpuMs = performance.now() - t0;
  const t1 = performance.now();
  const run = await gpu.run(packed);
  const gpuMs = performance.now() - t1;
  const table = await gpu.classes.readTable();
  const classes = Object.fromEntries(
    Object.entries(table)
      .filter(([, row]) => row.pairCount > 0)
      .map(([c, row]) => [c, row.pairCount]),
  );
  const sameAsGeneral = general
    ? Buffer.from((await general.run(packed)).manifolds).equals(Buffer.from(run.manifolds))
    : null;
  const cpu = { f: new Float32Array(cpuBuf), u: new Uint32Array(cpuBuf) };
  const gpuOut = { f: new Float32Array(run.manifolds), u: new Uint32Array(run.manifolds) };
  const margin = Math.fround(parsed.margin);
  const n = packed.pairCount;
  const r: SetResult3D = {
    name,
    classes,
    sameAsGeneral,
    pairs: n,
    touching: 0,
    pointHistogram: [0, 0, 0, 0, 0],
    kinds: {},
    faceOnePoint: 0,
    negativeDepthPoints: 0,
    nearTies: { total: 0, count: 0, ids: 0, normal: 0, numeric: 0 },
    unexplained: [],
    nearTieCases: [],
    cpuChecked: 0,
    cpuInvalid: [],
    maxNormalDiff: 0,
    maxPositionDiffRel: 0,
    maxDepthDiffRel: 0,
    cpuMs,
    gpuMs,
    gpuKernelMs: run.kernelMs,
    checkMs: 0,
    cpu,
    gpu: gpuOut,
  };
  const acc = { normal: 0, position: 0, depth: 0 };
  const makeCase = (
    k: number,
    kind: string,
    mc: Slot3D,
    mg: Slot3D,
    vc: Validity3D | null,
    vg: Validity3D | null,
  ): Case3D => ({
    k,
    kind,
    scene: pairScene(scene, k),
    note: `${builder.tags[k]!.set}${builder.tags[k]!.note ? `, ${builder.tags[k]!.note}` : ''}`,
    cpu: slotJson(mc),
    gpu: slotJson(mg),
    cpuProblems: vc?.problems ?? [],
    gpuProblems: vg?.problems ?? [],
  });
  const every = validate === 'all' ? 1 : Math.max(1, Math.floor(n / validate));
  const tc = performance.now();
  for (let k = 0; k < n; k++) {
    const mc = readSlot3D(cpu.f, cpu.u, k);
    const mg = readSlot3D(gpuOut.f, gpuOut.u, k);
    if (mc.count > 0) {
      r.touching++;
      const kind = KIND_NAMES[mc.kind] ?? String(mc.kind);
      r.kinds[kind] = (r.kinds[kind] ?? 0) + 1;
      if (
        (mc.kind === CONTACT_KIND_3D.faceA || mc.kind === CONTACT_KIND_3D.faceB) &&
        mc.count === 1
      )
        r.faceOnePoint++;
      for (const d of mc.depths) if (d < 0) r.negativeDepthPoints++;
    }
    r.pointHistogram[Math.min(mc.count, 4)]!++;
    const needsPlacement = k % every === 0 || mc.count !== mg.count || mc.count > 0;
    if (!needsPlacement) continue;
    const [a, b] = placedPair(prepared, packed, k);
    const tol = compareTolerance3D(a, b);
    const d = slotDiff(mc, mg, tol, Math.min(a.extent, b.extent), acc);
    let vc: Validity3D | null = null;
    if (k % every === 0 || d !== 'same') {
      vc = checkManifoldValidity3D(a, b, view(mc), margin);
      r.cpuChecked++;
      if (!vc.ok) r.cpuInvalid.push(makeCase(k, 'cpu invalid', mc, mg, vc, null));
    }
    if (d === 'same') continue;
    const vg = checkManifoldValidity3D(a, b, view(mg), margin);
    if (vc!.ok && vg.ok) {
      r.nearTies.total++;
      r.nearTies[d]++;
      if (r.nearTieCases.length < showCases)
        r.nearTieCases.push(makeCase(k, `near-tie: ${d} differ`, mc, mg, vc, vg));
    } else {
      r.unexplained.push(
        makeCase(
          k,
          `${d} differ${vc!.ok ? '' : ', cpu invalid'}${vg.ok ? '' : ', gpu invalid'}`,
          mc,
          mg,
          vc,
          vg,
        ),
      );
    }
  }
  r.checkMs = performance.now() - tc;
  r.maxNormalDiff = acc.normal;
  r.maxPositionDiffRel = acc.position;
  r.maxDepthDiffRel = acc.depth;
  return r;
}

/** A case in words (the same shape as 2D's). */
export const describeCase3D = (c: Case3D): string => describeCase2D(c);

export function casesText3D(title: string, cases: Case3D[], show = 4): string {
  if (cases.length === 0) return '';
  return `${title}: ${cases.length}; first ${Math.min(show, cases.length)}:\n${cases.slice(0, show).map(describeCase3D).join('\n')}`;
}

export function report3D(r: SetResult3D): string {
  const pct = (x: number): string => `${((100 * x) / Math.max(1, r.pairs)).toFixed(1)}%`;
  return (
    `[${r.name}] classes ${JSON.stringify(r.classes)}${r.sameAsGeneral === null ? '' : r.sameAsGeneral ? ', bytes = general kernel' : ', bytes DIFFER from the general kernel'}, pairs ${r.pairs}, touching ${r.touching} (${pct(r.touching)}; points ${r.pointHistogram.map((c, i) => `${i}:${c}`).join(' ')}), ` +
    `kinds ${JSON.stringify(r.kinds)}, 1-point face contacts ${r.faceOnePoint}, points with depth < 0: ${r.negativeDepthPoints}\n` +
    `    near-ties (both valid) ${r.nearTies.total} (count ${r.nearTies.count}, ids/kind ${r.nearTies.ids}, normal ${r.nearTies.normal}, values ${r.nearTies.numeric}), ` +
    `unexplained ${r.unexplained.length}; CPU validity checked ${r.cpuChecked}, invalid ${r.cpuInvalid.length}; ` +
    `max diff on agreeing slots: normal ${r.maxNormalDiff.toExponential(2)}, position ${r.maxPositionDiffRel.toFixed(3)} tol, depth ${r.maxDepthDiffRel.toFixed(3)} tol; ` +
    `cpu ${r.cpuMs.toFixed(0)} ms, gpu ${r.gpuMs.toFixed(0)} ms (kernel ${r.gpuKernelMs?.toFixed(0) ?? '-'} ms), compare+validate ${r.checkMs.toFixed(0)} ms`
  );
}
