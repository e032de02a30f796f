// `npm run bench -- --scene pile`: whole collision frames on piles of boxes, 1k to 1M bodies.
//
// 2D pile: boxes on a square block, spacing a little under their size, jittered and turned a few
// degrees, so each touches its side and most of its diagonal neighbours (about 4 touching pairs per
// body); margin 0.02. `--mixed` turns 5% of them into circles and hexagons. Contenders:
//   - our GPU frame (GpuFrame2D.step: broadphase → indirect narrowphase → compaction →
//     persistence, read back): per-stage GPU times from timestamp queries, their sum, and the
//     wall time of step() (submit, wait, read the counts and the dense contacts back);
//   - our CPU path on the host: sweepAndPrune2D → collidePacked2D → CpuContacts2D;
//   - rapier2d: a World of dynamic bodies (zero gravity) with the same boxes; its own profiler's
//     collision-detection time (broadphase + narrowphase, the solver left out). Cold: the first
//     step of a fresh world (every pair and manifold new), after a throwaway world of the same
//     size has grown rapier's WASM heap (else that growth dominates: 10k 3D boxes 1.7 s against
//     0.19 s). Warm: later steps, where rapier keeps last frame's pairs and manifolds. Before
//     each warm step every body is put back where it was (so each step sees the same scene, as
//     ours do, and every body counts as moved).
// 3D piles (--layout3d), boxes turned a little about random axes, in layers along y:
//   bricks  each layer shifted half a box in x and z from the one below, side neighbours a little
//           apart: every box rests on 4 below (about 3.6 touching pairs per body, 36,002 at 10k);
//           the peers' times here come nearest the issue's reference figures (rapier3d 18 ms warm
//           and 71 cold, cannon-es 0.52 s; there 10, 59 and 0.23 s, on a faster machine: jolt's
//           box–box runs 1.7× faster there);
//   block   a cubic block, spacing a little under the boxes' size: each presses on its 6 face
//           neighbours and comes within the margin of most edge neighbours (about 11 touching
//           pairs per body, 111,768 of 117,845 pairs at 10k; rapier3d 22 ms warm and 202 cold,
//           cannon-es 1.1 s).
// Contenders: our 3D GPU frame (GpuFrame3D.step, as in 2D: per-stage GPU times, their sum,
// the wall time of step()), rapier3d (as above) and cannon-es (World with SAPBroadphase; its
// profile's broadphase + narrowphase), so the issue's reference numbers sit beside ours.
//
// Every contender at every size: one cold frame, then (short frames only) warm-up frames, then
// `--repeat` timed warm frames, median reported; frames whose cold frame took under 0.5 s get 3 ×
// --repeat (a garbage collection or a busy core moves a short frame most), over 2 s 2 timed
// frames, over 8 s one. A full garbage collection precedes each contender's frames.
// Cross-check: touching pairs of the GPU, the CPU path and rapier2d (rapier: manifolds with a
// point within its prediction distance, 0.02 like our margin) must agree within a few percent.
//
// Output: tables on stdout, the record as JSON (--out, default bench/results/pile.json), the
// tables as text and a log–log plot of time against body count (pile.txt, pile.svg beside it).
//
//   npm run bench -- --scene pile                       # 2D 1k…1M, 3D (both layouts) 1k…100k on lavapipe, 1M on a GPU
//   npm run bench -- --scene pile --dim 2 --sizes 10k   # one size
//   npm run bench -- --scene pile --quick               # 1k, 10k, 3 frames each
//   npm run bench -- --scene pile --dim 3 --sizes 10k   # the issue's 10k 3D pile (both layouts), ours, rapier3d, cannon-es
//   npm run bench -- --scene pile --dim 3 --sizes 10k --layout3d block --no-cannon

import RAPIER2D from '@dimforge/rapier2d-compat';
import RAPIER3D from '@dimforge/rapier3d-compat';
import * as CANNON from 'cannon-es';
import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, arch } from 'node:os';
import { dirname, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { sweepAndPrune2D } from '../src/broadphase2d.ts';
import { CpuContacts2D } from '../src/cpu/contacts2d.ts';
import { collidePacked2D, prepareCpu2D, type CpuNarrowphase2D } from '../src/cpu/narrowphase2d.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuFrame2D, type FrameInputs2D, type FrameTimings2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D, type FrameInputs3D } from '../src/gpu/frame3d.ts';
import type { FrameInputsBase, FrameResult, GpuFrame } from '../src/gpu/frame.ts';
import { packScene3D, type Packed3D } from '../src/pack3d.ts';
import type { Scene3D } from '../src/scene.ts';
import { makeShape3D } from '../src/shapes3d.ts';
import { packScene2D, type Packed2D } from '../src/pack2d.ts';
import { rng } from '../src/random2d.ts';
import type { Scene2D } from '../src/scene.ts';
import { makeShape2D, type Shape2DInput, type Vec2 } from '../src/shapes2d.ts';
import { cannonVersion } from './peers/cannon3d.ts';
import { rapierVersion as rapier3dVersion } from './peers/rapier3d.ts';
import { renderSvgPlot, type Panel, type Series } from './plot.ts';
import { formatCount } from './report.ts';
import { errorText } from './timing.ts';
import rapier2dPackage from '../node_modules/@dimforge/rapier2d-compat/package.json' with { type: 'json' };

export const PILE_SIZES = [1_000, 10_000, 100_000, 1_000_000];
export const PILE_QUICK_SIZES = [1_000, 10_000];
const DEFAULT_OUT = 'bench/results/pile.json';

/**
 * Largest body count each peer runs unless --no-caps (gpu3d: our own 3D frame, capped on a software
 * adapter only). Measured here (2 cores): rapier2d's first step on a 1M-body pile did not finish
 * in 3.5 minutes; rapier3d at 100k took a minute in all and came within a few hundred MB of WASM's
 * 4 GB (1.15M touching pairs), failing outright with the default solver settings; cannon-es's
 * single-axis sweep and JS narrowphase take seconds a step past 10k; the 1M-body 3D pile needs
 * larger bindings than lavapipe's (README, "A whole frame on the GPU").
 */
export const PILE_CAPS = { rapier2d: 100_000, rapier3d: 10_000, cannon: 10_000, gpu3d: 100_000 } as const;
/** Frames longer than these get 2 timed warm frames, or 1. */
const LONG_FRAME_MS = 2000;
const VERY_LONG_FRAME_MS = 8000;
/** Frames shorter than this (cold) get SHORT_FRAME_FACTOR × --repeat timed frames: their medians wander most here. */
const SHORT_FRAME_MS = 500;
const SHORT_FRAME_FACTOR = 3;
/** Short frames: warm-up frames until this much time was spent (V8 tier-up, GPU buffers). */
const WARMUP_MS = 150;
/** Touching-pair counts of ours and rapier's may differ by this fraction (grazing pairs, f32). */
const TOUCHING_TOLERANCE = 0.03;

// ---------------------------------------------------------------------------------------------
// Scenes

const SPACING = 0.96;
/** Bricks layout: centre spacing within a layer (boxes are 0.94–1.02 wide: side gaps of 0.04 or more, over the margin). */
const BRICK_SPACING = 1.06;
const JITTER = 0.01;
const TURN = 0.04; // radians, either way
const MARGIN = 0.02;
const MIXED_FRACTION = 0.05;

export interface Pile2D {
  bodies: number;
  /** Shape pool: 16 boxes, then (with `mixed`) 4 circles and 4 hexagons. */
  shapes: Shape2DInput[];
  scene: Scene2D;
  /** Shapes and bodies packed once (the GPU uploads them once; the CPU path reads them). */
  packed: Packed2D;
}

function hexagon(random: () => number): Vec2[] {
  const r = 0.5 + 0.03 * random();
  const phase = (Math.PI / 3) * random();
  return Array.from({ length: 6 }, (_, k) => [r * Math.cos(phase + (k * Math.PI) / 3), r * Math.sin(phase + (k * Math.PI) / 3)] as Vec2);
}

/** `n` bodies on a ⌈√n⌉-wide block, row by row. */
export function makePile2D(n: number, mixed = false, seed = 0x9117): Pile2D {
  const random = rng(seed);
  const shapes: Shape2DInput[] = Array.from({ length: 16 }, () => ({
    type: 'box', halfExtents: [0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as Vec2,
  }));
  if (mixed) {
    for (let k = 0; k < 4; k++) shapes.push({ type: 'circle', radius: 0.47 + 0.03 * random() });
    for (let k = 0; k < 4; k++) shapes.push({ type: 'polygon', vertices: hexagon(random) });
  }
  const parsed = shapes.map((s, i) => makeShape2D(s, i));
  const w = Math.ceil(Math.sqrt(n));
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(2 * n);
  const bodyAngle = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    bodyShape[i] = mixed && random() < MIXED_FRACTION ? 16 + Math.floor(8 * random()) : Math.floor(16 * random());
    bodyPosition[2 * i] = SPACING * (i % w) + JITTER * (2 * random() - 1);
    bodyPosition[2 * i + 1] = SPACING * Math.floor(i / w) + JITTER * (2 * random() - 1);
    bodyAngle[i] = TURN * (2 * random() - 1);
  }
  const scene: Scene2D = { dim: 2, margin: MARGIN, shapes: parsed, bodyShape, bodyPosition, bodyAngle, pairs: null };
  return { bodies: n, shapes, scene, packed: packScene2D(scene, new Uint32Array(0)) };
}

export interface Pile3D {
  bodies: number;
  layout: Pile3DLayout;
  /** Half extents per shape (16 boxes). */
  halfExtents: [number, number, number][];
  bodyShape: Uint32Array;
  /** x, y, z per body. */
  position: Float64Array;
  /** x, y, z, w per body (unit). */
  rotation: Float64Array;
  /** The same bodies as our scene, packed once (the GPU uploads them once). */
  scene: Scene3D;
  packed: Packed3D;
}

export type Pile3DLayout = 'bricks' | 'block';
export const PILE_3D_LAYOUTS: readonly Pile3DLayout[] = ['bricks', 'block'];

/**
 * `n` boxes (⌈∛n⌉ wide and deep, layer by layer along y), turned a little about random axes:
 * `bricks`, every other layer shifted half a spacing in x and z and side neighbours apart, so each
 * box rests on the 4 below; `block`, a cubic block with every neighbour pressing (see the header).
 */
export function makePile3D(n: number, layout: Pile3DLayout = 'bricks', seed = 0x3117): Pile3D {
  const random = rng(seed);
  const halfExtents = Array.from({ length: 16 }, () =>
    [0.47 + 0.04 * random(), 0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as [number, number, number]);
  const w = Math.ceil(Math.cbrt(n));
  const bodyShape = new Uint32Array(n);
  const position = new Float64Array(3 * n);
  const rotation = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    bodyShape[i] = Math.floor(16 * random());
    const level = Math.floor(i / (w * w));
    const h = layout === 'bricks' ? BRICK_SPACING : SPACING;
    const shift = layout === 'bricks' && level % 2 === 1 ? h / 2 : 0;
    position[3 * i] = h * (i % w) + shift + JITTER * (2 * random() - 1);
    position[3 * i + 1] = SPACING * level + JITTER * (2 * random() - 1); // layers along y (up)
    position[3 * i + 2] = h * (Math.floor(i / w) % w) + shift + JITTER * (2 * random() - 1);
    // Axis uniform on the sphere, angle within ±TURN.
    const z = 2 * random() - 1;
    const t = 2 * Math.PI * random();
    const s = Math.sqrt(1 - z * z);
    const half = (TURN * (2 * random() - 1)) / 2;
    const sh = Math.sin(half);
    rotation.set([s * Math.cos(t) * sh, s * Math.sin(t) * sh, z * sh, Math.cos(half)], 4 * i);
  }
  const shapes = halfExtents.map((h, i) => makeShape3D({ type: 'box', halfExtents: h }, i));
  const scene: Scene3D = { dim: 3, margin: MARGIN, shapes, bodyShape, bodyPosition: position, bodyRotation: rotation, pairs: null };
  return { bodies: n, layout, halfExtents, bodyShape, position, rotation, scene, packed: packScene3D(scene, new Uint32Array(0)) };
}

// ---------------------------------------------------------------------------------------------
// Timing

export interface FramePolicy {
  /** Timed warm frames (short frames). */
  repeat: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

// A full collection before each contender's frames, so none pays for the garbage of the one
// before it (cannon-es's worlds, rapier's builds). V8 exposes gc() once the flag is set.
let gc: (() => void) | null = null;
function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Timed warm frames after a cold one of `coldMs`. */
function warmFrames(coldMs: number, policy: FramePolicy): number {
  if (coldMs > VERY_LONG_FRAME_MS) return 1;
  if (coldMs > LONG_FRAME_MS) return Math.min(2, policy.repeat);
  return coldMs < SHORT_FRAME_MS ? SHORT_FRAME_FACTOR * policy.repeat : policy.repeat;
}

/**
 * Runs `frame` cold once, warms up (short frames), then times warm frames; `ms` picks the time
 * that decides how long a frame is. Returns the cold frame and the timed warm ones.
 */
async function timeFrames<T>(frame: () => T | Promise<T>, ms: (t: T) => number, policy: FramePolicy, tick: (what: string) => void): Promise<{ cold: T; warm: T[] }> {
  collectGarbage();
  tick('cold frame');
  const cold = await frame();
  const coldMs = ms(cold);
  if (coldMs < 1000) {
    let spent = 0;
    for (let i = 0; i < 1000 && (i < 1 || spent < WARMUP_MS); i++) spent += ms(await frame());
  }
  const n = warmFrames(coldMs, policy);
  const warm: T[] = [];
  for (let i = 0; i < n; i++) {
    tick(`warm frame ${i + 1}/${n}`);
    warm.push(await frame());
  }
  return { cold, warm };
}

// ---------------------------------------------------------------------------------------------
// Results

export interface Skipped {
  skipped: string;
}

export interface GpuFrameResult {
  pairs: number;
  touching: number;
  /** Batches the narrowphase and compaction ran in (more than 1 past one binding of manifold slots). */
  batches: number;
  cold: { wallMs: number; runs: number; timings: FrameTimings2D | null };
  /** Medians over the warm frames, stage by stage (total: median of the per-frame sums). */
  warm: { wallMs: number; timings: FrameTimings2D | null; frames: number; wallSamplesMs: number[]; totalSamplesMs: number[] };
}

export interface CpuStages {
  broadphase: number;
  narrowphase: number;
  /** CpuContacts2D.run: compaction, ordering and persistence together. */
  contacts: number;
  total: number;
}

export interface CpuFrameResult {
  pairs: number;
  touching: number;
  cold: CpuStages;
  warm: CpuStages & { frames: number; totalSamplesMs: number[] };
}

export interface EngineStep {
  broadphase: number;
  narrowphase: number;
  /** Broadphase + narrowphase (the engine's collision detection). */
  collision: number;
  /** The whole step, solver included (1 solver iteration; for scale, not compared). */
  stepMs: number;
}

export interface EngineResult {
  /** World set-up (bodies and colliders created), not timed as a frame. */
  buildMs: number;
  /** Pairs with contact points (see the engine's `touching` note). */
  touching: number | null;
  /**
   * Collision time of the throwaway world's first step: the first step at this size in the
   * process, where rapier also grows its WASM heap (not reported as cold).
   */
  primerCollisionMs: number;
  cold: EngineStep;
  warm: EngineStep & { frames: number; collisionSamplesMs: number[] };
}

export interface PileResult2D {
  bodies: number;
  mixed: boolean;
  gpu: GpuFrameResult | Skipped;
  cpu: CpuFrameResult | Skipped;
  rapier2d: EngineResult | Skipped;
}

export interface PileResult3D {
  bodies: number;
  layout: Pile3DLayout;
  gpu: GpuFrameResult | Skipped;
  rapier3d: EngineResult | Skipped;
  cannon: EngineResult | Skipped;
}

export interface PileGoal {
  goal: string;
  status: 'met' | 'not met' | 'not evaluated';
  detail: string;
}

export interface PileReport {
  meta: {
    adapter: string | null;
    adapterSoftware: boolean | null;
    timestampQueries: boolean;
    /** Pipelines and a first tiny frame (lavapipe JIT-compiles every kernel then), kept out of all timings. */
    gpuSetupMs: number | null;
    node: string;
    cpu: string;
    cpuCores: number;
    loadAverage: number[];
    platform: string;
    date: string;
    versions: Record<string, string>;
    options: { dims: number[]; sizes2d: number[]; sizes3d: number[]; layouts3d: Pile3DLayout[]; repeat: number; quick: boolean; mixed: boolean; caps: Record<string, number> | null };
    notes: string[];
  };
  results2d: PileResult2D[];
  results3d: PileResult3D[];
  goals: PileGoal[];
  warnings: string[];
  totalSeconds: number;
}

function ok<T extends object>(r: T | Skipped): T | null {
  return 'skipped' in r ? null : r;
}

// ---------------------------------------------------------------------------------------------
// 2D contenders

interface Gpu {
  acquired: AcquiredDevice;
  frame: GpuFrame2D;
  frame3d: GpuFrame3D;
  setupMs: number;
}

function uploadInputs3D(device: GPUDevice, pile: Pile3D): FrameInputs3D & { destroy(): void } {
  const made: GPUBuffer[] = [];
  const make = (data: ArrayBuffer | ArrayBufferView, label: string): GPUBuffer => {
    const b = device.createBuffer({ label, size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    if (ArrayBuffer.isView(data)) device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    else device.queue.writeBuffer(b, 0, data);
    made.push(b);
    return b;
  };
  const p = pile.packed;
  return {
    shapes: make(p.shapes, 'pile3d-shapes'),
    hullVertices: make(p.hullVertices, 'pile3d-hull-vertices'),
    hullPlanes: make(p.hullPlanes, 'pile3d-hull-planes'),
    hullFaces: make(p.hullFaces, 'pile3d-hull-faces'),
    hullIndices: make(p.hullIndices, 'pile3d-hull-indices'),
    bodies: make(p.bodies, 'pile3d-bodies'),
    bodyCount: pile.bodies,
    margin: MARGIN,
    kinds: ['box'],
    destroy: () => made.forEach((b) => b.destroy()),
  };
}

function uploadInputs(device: GPUDevice, pile: Pile2D): FrameInputs2D & { destroy(): void } {
  const make = (data: ArrayBuffer, label: string): GPUBuffer => {
    const b = device.createBuffer({ label, size: data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const shapes = make(pile.packed.shapes, 'pile-shapes');
  const bodies = make(pile.packed.bodies, 'pile-bodies');
  return { shapes, bodies, bodyCount: pile.bodies, margin: pile.scene.margin, destroy: () => (shapes.destroy(), bodies.destroy()) };
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
    const [frame, frame3d] = await Promise.all([GpuFrame2D.create(acquired.device, acquired.timestamps), GpuFrame3D.create(acquired.device, acquired.timestamps, { kinds: ['box'] })]);
    // A first tiny frame: lavapipe compiles every kernel to machine code on its first dispatch.
    const tiny = uploadInputs(acquired.device, makePile2D(64));
    await frame.step(tiny);
    tiny.destroy();
    const tiny3d = uploadInputs3D(acquired.device, makePile3D(64));
    await frame3d.step(tiny3d);
    tiny3d.destroy();
    return { acquired, frame, frame3d, setupMs: performance.now() - t0 };
  } catch (e) {
    notes.push(`GPU frame unusable on ${acquired.adapter.name}: ${errorText(e)}`);
    acquired.device.destroy();
    return null;
  }
}

/** One GPU frame inside a validation error scope: a failure says what the device refused. */
async function gpuStep<I extends FrameInputsBase>(device: GPUDevice, frame: GpuFrame<I>, inputs: I): Promise<FrameResult> {
  device.pushErrorScope('validation');
  let result: FrameResult | undefined;
  let thrown: unknown;
  try {
    result = await frame.step(inputs);
  } catch (e) {
    thrown = e;
  }
  const validation = await device.popErrorScope();
  const said = validation ? `device: ${validation.message.split('\n')[0]}` : null;
  if (thrown !== undefined) {
    if (said && thrown instanceof Error) thrown.message += ` (${said})`;
    throw thrown;
  }
  if (said) throw new Error(said);
  return result!;
}

function medianTimings(list: (FrameTimings2D | null)[]): FrameTimings2D | null {
  if (list.length === 0 || list.some((t) => t === null)) return null;
  const ts = list as FrameTimings2D[];
  return {
    broadphase: median(ts.map((t) => t.broadphase)),
    narrowphase: median(ts.map((t) => t.narrowphase)),
    compaction: median(ts.map((t) => t.compaction)),
    persistence: median(ts.map((t) => t.persistence)),
    total: median(ts.map((t) => t.total)),
    span: median(ts.map((t) => t.span)),
  };
}

/** Times a GPU frame (either dimension) on uploaded inputs; destroys them after. */
async function runGpuFrame<I extends FrameInputsBase>(
  device: GPUDevice, frame: GpuFrame<I>, inputs: I & { destroy(): void }, policy: FramePolicy, tick: (what: string) => void,
): Promise<GpuFrameResult> {
  try {
    frame.contacts.reset(); // last frame was another scene: nothing to carry
    const { cold, warm } = await timeFrames(() => gpuStep(device, frame, inputs), (r) => r.wallMs, policy, tick);
    const last = warm[warm.length - 1] ?? cold;
    return {
      pairs: last.counts.pairs,
      touching: last.counts.contacts,
      batches: last.batches,
      cold: { wallMs: cold.wallMs, runs: cold.runs, timings: cold.timings },
      warm: {
        wallMs: median(warm.map((r) => r.wallMs)),
        timings: medianTimings(warm.map((r) => r.timings)),
        frames: warm.length,
        wallSamplesMs: warm.map((r) => r.wallMs),
        totalSamplesMs: warm.map((r) => r.timings?.total ?? NaN),
      },
    };
  } finally {
    inputs.destroy();
  }
}

async function runCpu2D(pile: Pile2D, policy: FramePolicy, tick: (what: string) => void): Promise<CpuFrameResult> {
  const prepared: CpuNarrowphase2D = prepareCpu2D(pile.packed, pile.scene.shapes.length);
  const contacts = new CpuContacts2D();
  let pairs = 0;
  let touching = 0;
  const frame = (): CpuStages => {
    const t0 = performance.now();
    const list = sweepAndPrune2D(pile.scene);
    const t1 = performance.now();
    const manifolds = collidePacked2D(prepared, { ...pile.packed, pairs: list, pairCount: list.length / 2 });
    const t2 = performance.now();
    const r = contacts.run(manifolds, list, { bodyCount: pile.bodies });
    const t3 = performance.now();
    pairs = list.length / 2;
    touching = r.total;
    return { broadphase: t1 - t0, narrowphase: t2 - t1, contacts: t3 - t2, total: t3 - t0 };
  };
  const { cold, warm } = await timeFrames(frame, (s) => s.total, policy, tick);
  return {
    pairs,
    touching,
    cold,
    warm: {
      broadphase: median(warm.map((s) => s.broadphase)),
      narrowphase: median(warm.map((s) => s.narrowphase)),
      contacts: median(warm.map((s) => s.contacts)),
      total: median(warm.map((s) => s.total)),
      frames: warm.length,
      totalSamplesMs: warm.map((s) => s.total),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Engines: rapier2d, rapier3d, cannon-es

interface EngineWorld {
  /** One step; the engine's own stage times (ms). */
  step(): EngineStep;
  /** Every body back to its pose, at rest. */
  reset(): void;
  /** Pairs with contact points after the last step. */
  touching(): number;
  free(): void;
}

let rapierReady: Promise<void> | undefined;
/** Both rapier modules' WASM, with room reserved for the largest world (see reserveRapier). */
function loadRapier(): Promise<void> {
  rapierReady ??= Promise.all([RAPIER2D.init(), RAPIER3D.init()]).then(() => undefined);
  return rapierReady;
}

/**
 * Grows rapier's WASM heap up front. Without it, the first step of a large world spends most of
 * its time growing the heap (measured here: a 100k-body world's first step 30 s, against 1.3 s
 * with the heap reserved), which is an artefact of the WASM build, not of collision detection.
 */
function reserveRapier(module: { reserveMemory(bytes: number): void }, bodies: number, bytesPerBody: number): void {
  module.reserveMemory(Math.min(1.5e9, Math.max(64e6, bodies * bytesPerBody)));
}

function rapierStep(world: { step(): void; timingBroadPhase(): number; timingNarrowPhase(): number; timingCollisionDetection(): number; timingStep(): number }): EngineStep {
  world.step();
  return {
    broadphase: world.timingBroadPhase(),
    narrowphase: world.timingNarrowPhase(),
    collision: world.timingCollisionDetection(),
    stepMs: world.timingStep(),
  };
}

/** Touching pairs of a rapier world: manifolds with at least one point (within the prediction distance). */
function rapierTouching<C extends { handle: number }, M extends { numContacts(): number }>(
  colliders: readonly C[],
  pairsWith: (c: C, f: (o: C) => void) => void,
  pair: (a: C, b: C, f: (m: M) => void) => void,
): number {
  let touching = 0;
  for (const c of colliders) {
    pairsWith(c, (o) => {
      if (o.handle <= c.handle) return;
      let any = false;
      pair(c, o, (m) => {
        if (m.numContacts() > 0) any = true;
      });
      if (any) touching++;
    });
  }
  return touching;
}

function rapier2dWorld(pile: Pile2D): EngineWorld {
  const R = RAPIER2D;
  const world = new R.World({ x: 0, y: 0 });
  world.profilerEnabled = true;
  // The prediction distance (default 0.02 m, lengthUnit 1) equals our margin: the same pairs count as touching.
  world.integrationParameters.normalizedPredictionDistance = MARGIN;
  world.integrationParameters.numSolverIterations = 1; // the solver is not timed: keep it short
  const { bodyShape, bodyPosition, bodyAngle } = pile.scene;
  const descs = pile.shapes.map((s, i): RAPIER2D.ColliderDesc => {
    if (s.type === 'box') return R.ColliderDesc.cuboid(s.halfExtents[0], s.halfExtents[1]);
    if (s.type === 'circle') return R.ColliderDesc.ball(s.radius);
    if (s.type === 'polygon') {
      const d = R.ColliderDesc.convexHull(Float32Array.from(s.vertices.flat()));
      if (!d) throw new Error(`shapes[${i}]: rapier2d could not build the hull`);
      return d;
    }
    throw new Error(`shapes[${i}]: ${s.type} not in the pile`);
  });
  const bodies: RAPIER2D.RigidBody[] = [];
  const colliders: RAPIER2D.Collider[] = [];
  for (let i = 0; i < pile.bodies; i++) {
    const b = world.createRigidBody(R.RigidBodyDesc.dynamic()
      .setTranslation(bodyPosition[2 * i]!, bodyPosition[2 * i + 1]!).setRotation(bodyAngle[i]!));
    bodies.push(b);
    colliders.push(world.createCollider(descs[bodyShape[i]!]!, b));
  }
  const zero = { x: 0, y: 0 };
  return {
    step: () => rapierStep(world),
    reset: () => {
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!;
        b.setTranslation({ x: bodyPosition[2 * i]!, y: bodyPosition[2 * i + 1]! }, true);
        b.setRotation(bodyAngle[i]!, true);
        b.setLinvel(zero, true);
        b.setAngvel(0, true);
      }
    },
    touching: () => rapierTouching(colliders, (c, f) => world.contactPairsWith(c, f), (a, b, f) => world.contactPair(a, b, f)),
    free: () => world.free(),
  };
}

function rapier3dWorld(pile: Pile3D): EngineWorld {
  const R = RAPIER3D;
  const world = new R.World({ x: 0, y: 0, z: 0 });
  world.profilerEnabled = true;
  world.integrationParameters.normalizedPredictionDistance = MARGIN;
  world.integrationParameters.numSolverIterations = 1;
  const descs = pile.halfExtents.map(([x, y, z]) => R.ColliderDesc.cuboid(x, y, z));
  const { position: p, rotation: q, bodyShape } = pile;
  const bodies: RAPIER3D.RigidBody[] = [];
  const colliders: RAPIER3D.Collider[] = [];
  for (let i = 0; i < pile.bodies; i++) {
    const b = world.createRigidBody(R.RigidBodyDesc.dynamic()
      .setTranslation(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!)
      .setRotation({ x: q[4 * i]!, y: q[4 * i + 1]!, z: q[4 * i + 2]!, w: q[4 * i + 3]! }));
    bodies.push(b);
    colliders.push(world.createCollider(descs[bodyShape[i]!]!, b));
  }
  const zero = { x: 0, y: 0, z: 0 };
  return {
    step: () => rapierStep(world),
    reset: () => {
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!;
        b.setTranslation({ x: p[3 * i]!, y: p[3 * i + 1]!, z: p[3 * i + 2]! }, true);
        b.setRotation({ x: q[4 * i]!, y: q[4 * i + 1]!, z: q[4 * i + 2]!, w: q[4 * i + 3]! }, true);
        b.setLinvel(zero, true);
        b.setAngvel(zero, true);
      }
    },
    touching: () => rapierTouching(colliders, (c, f) => world.contactPairsWith(c, f), (a, b, f) => world.contactPair(a, b, f)),
    free: () => world.free(),
  };
}

/**
 * cannon-es's collision matrix is a dense triangular JS array (n²/2 entries) that it clears every
 * step: 50M entries at 10k bodies, which runs Node out of memory. This sparse one records the
 * same thing (touching body pairs, this step and the last); cannon uses it outside the broadphase
 * and narrowphase it profiles, so the timed stages are cannon's own.
 */
class SparseCollisionMatrix {
  private readonly pairs = new Set<number>();
  private key(bi: CANNON.Body, bj: CANNON.Body): number {
    const i = Math.min(bi.index, bj.index);
    const j = Math.max(bi.index, bj.index);
    return i * 0x100000000 + j;
  }
  get(bi: CANNON.Body, bj: CANNON.Body): boolean {
    return this.pairs.has(this.key(bi, bj));
  }
  set(bi: CANNON.Body, bj: CANNON.Body, value: boolean): void {
    if (value) this.pairs.add(this.key(bi, bj));
    else this.pairs.delete(this.key(bi, bj));
  }
  reset(): void {
    this.pairs.clear();
  }
  setNumObjects(): void {}
}

function cannonWorld(pile: Pile3D): EngineWorld {
  const world = new CANNON.World({ gravity: new CANNON.Vec3(0, 0, 0) });
  world.broadphase = new CANNON.SAPBroadphase(world);
  world.doProfiling = true;
  (world.solver as CANNON.GSSolver).iterations = 1; // the solver is not timed: keep it short
  world.collisionMatrix = new SparseCollisionMatrix() as unknown as CANNON.ArrayCollisionMatrix;
  world.collisionMatrixPrevious = new SparseCollisionMatrix() as unknown as CANNON.ArrayCollisionMatrix;
  const shapes = pile.halfExtents.map(([x, y, z]) => new CANNON.Box(new CANNON.Vec3(x, y, z)));
  const { position: p, rotation: q, bodyShape } = pile;
  const bodies: CANNON.Body[] = [];
  for (let i = 0; i < pile.bodies; i++) {
    const b = new CANNON.Body({ mass: 1, shape: shapes[bodyShape[i]!]! });
    b.position.set(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!);
    b.quaternion.set(q[4 * i]!, q[4 * i + 1]!, q[4 * i + 2]!, q[4 * i + 3]!);
    world.addBody(b);
    bodies.push(b);
  }
  return {
    step: () => {
      const t0 = performance.now();
      world.step(1 / 60);
      const stepMs = performance.now() - t0;
      const { broadphase, narrowphase } = world.profile;
      return { broadphase, narrowphase, collision: broadphase + narrowphase, stepMs };
    },
    reset: () => {
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!;
        b.position.set(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!);
        b.quaternion.set(q[4 * i]!, q[4 * i + 1]!, q[4 * i + 2]!, q[4 * i + 3]!);
        b.velocity.set(0, 0, 0);
        b.angularVelocity.set(0, 0, 0);
      }
    },
    // cannon keeps this step's contact equations; a pair may have several (one per point).
    touching: () => {
      const seen = new Set<number>();
      for (const c of world.contacts) {
        const a = Math.min(c.bi.id, c.bj.id);
        const b = Math.max(c.bi.id, c.bj.id);
        seen.add(a * 0x100000000 + b);
      }
      return seen.size;
    },
    free: () => {},
  };
}

/**
 * Times an engine's world: a throwaway world of the same size first (built and stepped once, so
 * that rapier's WASM heap has grown and been touched, and V8 has compiled cannon's code), then the
 * measured world: its first step is the cold frame, later ones (bodies put back first) warm.
 */
async function runEngine(build: () => EngineWorld, policy: FramePolicy, countTouching: boolean, tick: (what: string) => void): Promise<EngineResult> {
  tick('throwaway world (heap, JIT)');
  const primer = build();
  let primerCollisionMs: number;
  try {
    primerCollisionMs = primer.step().collision;
  } finally {
    primer.free();
  }
  tick('building the world');
  const t0 = performance.now();
  const world = build();
  const buildMs = performance.now() - t0;
  try {
    let first = true;
    const { cold, warm } = await timeFrames(() => {
      if (!first) world.reset();
      first = false;
      return world.step();
    }, (s) => s.stepMs, policy, tick);
    const touching = countTouching ? world.touching() : null;
    return {
      buildMs,
      touching,
      primerCollisionMs,
      cold,
      warm: {
        broadphase: median(warm.map((s) => s.broadphase)),
        narrowphase: median(warm.map((s) => s.narrowphase)),
        collision: median(warm.map((s) => s.collision)),
        stepMs: median(warm.map((s) => s.stepMs)),
        frames: warm.length,
        collisionSamplesMs: warm.map((s) => s.collision),
      },
    };
  } finally {
    world.free();
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

function ms(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x >= 1000) return `${(x / 1000).toPrecision(3)} s`;
  if (x >= 100) return `${x.toFixed(0)}`;
  if (x >= 10) return `${x.toFixed(1)}`;
  return x.toFixed(2);
}

function grid(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function skipNote(name: string, bodies: number, r: object, layout?: Pile3DLayout): string | null {
  return 'skipped' in r ? `${name} at ${layout ? `${layout} ` : ''}${formatCount(bodies)}: ${(r as Skipped).skipped}` : null;
}

export function renderPileTables(report: PileReport): string {
  const parts: string[] = [];
  const r2 = report.results2d;
  if (r2.length > 0) {
    const rows = r2.map((r) => {
      const g = ok(r.gpu);
      const c = ok(r.cpu);
      const rp = ok(r.rapier2d);
      const ours = g?.touching ?? c?.touching;
      return [
        formatCount(r.bodies),
        g ? String(g.pairs) : c ? String(c.pairs) : '–',
        ours === undefined ? '–' : String(ours),
        rp?.touching != null ? String(rp.touching) : '–',
        ms(g?.warm.timings?.total), ms(g?.warm.timings?.span), ms(g?.warm.wallMs), ms(g?.cold.wallMs),
        ms(c?.warm.total),
        ms(rp?.warm.collision), ms(rp?.cold.collision),
      ];
    });
    parts.push(
      '2D pile, whole collision frame (ms, median of warm frames; cold: the first frame at that size)',
      grid(['bodies', 'pairs', 'touch', 'touch rapier', 'GPU frame', 'GPU span', 'GPU wall', 'GPU cold wall', 'CPU frame', 'rapier2d warm', 'rapier2d cold'], rows),
      '  GPU frame: sum of the stages\' GPU timestamps; GPU span: the frame\'s first pass start to its last pass end on the',
      '  GPU (the gaps between passes too); GPU wall: step() on the host, submit to contacts read back.',
      '  CPU frame: sweepAndPrune2D + collidePacked2D + CpuContacts2D on one core. rapier2d: its profiler\'s collision',
      '  detection (broadphase + narrowphase, no solver); warm reuses last step\'s pairs and manifolds, ours recompute all.',
      '  touch: pairs with a contact point within the margin (ours: the GPU; rapier: manifolds with points).',
      '',
      '2D pile, per stage (ms, median of warm frames)',
      grid(
        ['bodies', 'GPU broad', 'GPU narrow', 'GPU compact', 'GPU persist', 'GPU total', 'CPU broad', 'CPU narrow', 'CPU contacts', 'rapier bp', 'rapier np'],
        r2.map((r) => {
          const t = ok(r.gpu)?.warm.timings;
          const c = ok(r.cpu)?.warm;
          const rp = ok(r.rapier2d)?.warm;
          return [formatCount(r.bodies), ms(t?.broadphase), ms(t?.narrowphase), ms(t?.compaction), ms(t?.persistence), ms(t?.total),
            ms(c?.broadphase), ms(c?.narrowphase), ms(c?.contacts), ms(rp?.broadphase), ms(rp?.narrowphase)];
        }),
      ),
    );
    const skips = r2.flatMap((r) => [skipNote('GPU', r.bodies, r.gpu), skipNote('CPU', r.bodies, r.cpu), skipNote('rapier2d', r.bodies, r.rapier2d)]).filter((s) => s !== null);
    if (skips.length > 0) parts.push(skips.map((s) => `  –: ${s}`).join('\n'));
  }
  const r3 = report.results3d;
  if (r3.length > 0) {
    parts.push(
      '',
      '3D pile, whole collision frame (ms, median of warm frames; cold: the first frame at that size)',
      grid(
        ['layout', 'bodies', 'pairs', 'touch', 'touch rapier3d', 'touch cannon', 'GPU frame', 'GPU span', 'GPU wall', 'GPU cold wall', 'rapier3d warm', 'rapier3d cold', 'cannon-es warm', 'cannon-es cold'],
        r3.map((r) => {
          const g = ok(r.gpu);
          const ra = ok(r.rapier3d);
          const cn = ok(r.cannon);
          return [r.layout, formatCount(r.bodies), g ? String(g.pairs) : '–', g ? String(g.touching) : '–',
            ra?.touching != null ? String(ra.touching) : '–', cn?.touching != null ? String(cn.touching) : '–',
            ms(g?.warm.timings?.total), ms(g?.warm.timings?.span), ms(g?.warm.wallMs), ms(g?.cold.wallMs),
            ms(ra?.warm.collision), ms(ra?.cold.collision), ms(cn?.warm.collision), ms(cn?.cold.collision)];
        }),
      ),
      '  GPU: GpuFrame3D.step (as in 2D). rapier3d/cannon-es warm/cold: the engine\'s own broadphase + narrowphase times',
      '  (cannon-es: World.profile, SAPBroadphase). touch: ours and rapier3d count pairs with points within 0.02,',
      '  cannon-es penetrating pairs only (it has no margin). Layouts: bricks, each box on the 4 below; block, every',
      '  neighbour pressing (bench/pile.ts).',
      '',
      '3D pile, GPU per stage (ms, median of warm frames)',
      grid(
        ['layout', 'bodies', 'batches', 'GPU broad', 'GPU narrow', 'GPU compact', 'GPU persist', 'GPU total', 'rapier bp', 'rapier np'],
        r3.map((r) => {
          const g = ok(r.gpu);
          const t = g?.warm.timings;
          const rp = ok(r.rapier3d)?.warm;
          return [r.layout, formatCount(r.bodies), g ? String(g.batches) : '–', ms(t?.broadphase), ms(t?.narrowphase), ms(t?.compaction), ms(t?.persistence), ms(t?.total),
            ms(rp?.broadphase), ms(rp?.narrowphase)];
        }),
      ),
    );
    const skips = r3.flatMap((r) => [skipNote('GPU', r.bodies, r.gpu, r.layout), skipNote('rapier3d', r.bodies, r.rapier3d, r.layout), skipNote('cannon-es', r.bodies, r.cannon, r.layout)]).filter((s) => s !== null);
    if (skips.length > 0) parts.push(skips.map((s) => `  –: ${s}`).join('\n'));
  }
  return parts.join('\n');
}

/** Plot points (bodies, y) of the rows where y is a number. */
function pts<R extends { bodies: number }>(rows: readonly R[], y: (r: R) => number | null | undefined): [number, number][] {
  return rows.map((r) => [r.bodies, y(r) ?? NaN] as [number, number]).filter((p) => Number.isFinite(p[1]));
}

/** Our GPU frame's series, the same in 2D and 3D: GPU time, span, wall, and each stage. */
function gpuFrameSeries<R extends { bodies: number; gpu: GpuFrameResult | Skipped }>(rows: readonly R[]): Series[] {
  const gpuT = (r: R) => ok(r.gpu)?.warm.timings;
  return [
    { label: 'GPU frame (GPU time)', points: pts(rows, (r) => gpuT(r)?.total), color: '#1f4e9c', width: 3, marker: 'circle' },
    { label: 'GPU frame (span on the GPU)', points: pts(rows, (r) => gpuT(r)?.span), color: '#1f4e9c', width: 1.5, marker: 'square', hollow: true },
    { label: 'GPU frame (wall, with readback)', points: pts(rows, (r) => ok(r.gpu)?.warm.wallMs), color: '#1f4e9c', dash: '7 4', marker: 'circle', hollow: true },
    { label: 'GPU broadphase', points: pts(rows, (r) => gpuT(r)?.broadphase), color: '#17becf', width: 1.5, dash: '2 3', marker: 'square' },
    { label: 'GPU narrowphase', points: pts(rows, (r) => gpuT(r)?.narrowphase), color: '#2ca02c', width: 1.5, dash: '2 3', marker: 'triangle' },
    { label: 'GPU compaction', points: pts(rows, (r) => gpuT(r)?.compaction), color: '#bcbd22', width: 1.5, dash: '2 3', marker: 'diamond' },
    { label: 'GPU persistence', points: pts(rows, (r) => gpuT(r)?.persistence), color: '#9467bd', width: 1.5, dash: '2 3', marker: 'cross' },
  ];
}

export function renderPileSvg(report: PileReport): string {
  const r2 = report.results2d;
  const r3 = report.results3d;
  const panels: Panel[] = [];
  if (r2.length > 0) {
    const series: Series[] = [
      ...gpuFrameSeries(r2),
      { label: 'CPU frame (host path)', points: pts(r2, (r) => ok(r.cpu)?.warm.total), color: '#555555', marker: 'square' },
      { label: 'rapier2d warm (bp + np)', points: pts(r2, (r) => ok(r.rapier2d)?.warm.collision), color: '#d62728', width: 2.5, marker: 'circle' },
      { label: 'rapier2d cold (bp + np)', points: pts(r2, (r) => ok(r.rapier2d)?.cold.collision), color: '#d62728', dash: '7 4', marker: 'circle', hollow: true },
    ];
    const notes = r2.flatMap((r) => [skipNote('GPU', r.bodies, r.gpu), skipNote('rapier2d', r.bodies, r.rapier2d)])
      .filter((s): s is string => s !== null).map((s) => `not shown: ${s.replace(/ \(device: .*$/, '')}`);
    panels.push({ title: '2D box pile', series, notes });
  }
  for (const layout of PILE_3D_LAYOUTS) {
    const rows = r3.filter((r) => r.layout === layout);
    if (rows.length === 0) continue;
    const series: Series[] = [
      ...gpuFrameSeries(rows),
      { label: 'rapier3d warm (bp + np)', points: pts(rows, (r) => ok(r.rapier3d)?.warm.collision), color: '#d62728', width: 2.5, marker: 'circle' },
      { label: 'rapier3d cold (bp + np)', points: pts(rows, (r) => ok(r.rapier3d)?.cold.collision), color: '#d62728', dash: '7 4', marker: 'circle', hollow: true },
      { label: 'cannon-es (bp + np)', points: pts(rows, (r) => ok(r.cannon)?.warm.collision), color: '#ff7f0e', width: 2.5, marker: 'square' },
      { label: 'issue\'s reference, 10k boxes', points: [[1e4, 10], [1e4, 59], [1e4, 230]], color: '#000000', marker: 'diamond', noLine: true, hollow: true },
    ];
    const title = layout === 'bricks' ? '3D box pile, bricks (each box on the 4 below)' : '3D box pile, block (every neighbour pressing)';
    panels.push({ title, series, notes: ['reference (issue): rapier3d 10 ms warm, 59 ms cold; cannon-es 230 ms'] });
  }
  const m = report.meta;
  return renderSvgPlot(panels, {
    title: 'Collision frame time against body count (box piles, log–log)',
    subtitle: `${m.adapter ?? 'no GPU'}${m.adapterSoftware ? ' (software)' : ''} · ${m.cpu} × ${m.cpuCores} · ${m.date.slice(0, 10)}`,
    xLabel: 'bodies',
    yLabel: 'time per frame',
  });
}

/** ms() with the unit: it writes seconds as "1.23 s", milliseconds bare. */
function msUnit(x: number): string {
  return ms(x).endsWith(' s') ? ms(x) : `${ms(x)} ms`;
}

/**
 * The issue's lavapipe goals on the 10k 3D box pile, per layout run (the issue's reference figures,
 * rapier3d 10 ms warm and 59 ms cold, come from a pile like `bricks`; see the header), and the
 * real-GPU goal on the 1M-body pile.
 */
export function evaluatePileGoals(report: PileReport): PileGoal[] {
  const goals: PileGoal[] = [];
  const software = report.meta.adapterSoftware === true;
  const layouts = report.meta.options.layouts3d.length > 0 ? report.meta.options.layouts3d : ['bricks' as const];
  /** The GPU frame on the `bodies`-body `layout` pile, or why a goal on it is not evaluated. */
  const frame = (bodies: number, layout: Pile3DLayout): { r: PileResult3D; g: GpuFrameResult } | string => {
    const r = report.results3d.find((x) => x.bodies === bodies && x.layout === layout);
    if (!r) return `the ${formatCount(bodies)} ${layout} 3D pile was not run`;
    const g = ok(r.gpu);
    return g ? { r, g } : `no GPU frame: ${(r.gpu as Skipped).skipped}`;
  };
  const notEvaluated = (goal: string, detail: string): number => goals.push({ goal, status: 'not evaluated', detail });
  for (const layout of layouts) {
    const small = frame(10_000, layout);
    const add = (goal: string, target: number, strict: boolean): void => {
      if (typeof small === 'string') return void notEvaluated(goal, small);
      if (!software) return void notEvaluated(goal, `stated for lavapipe; this adapter is ${report.meta.adapter}`);
      const { r, g } = small;
      const rp = ok(r.rapier3d);
      const span = g.warm.timings?.span;
      const wall = g.warm.wallMs;
      const judged = judgedFrameMs(g);
      const met = strict ? judged < target : judged <= target;
      const rapier = rp ? `; rapier3d on the same pile here: ${msUnit(rp.warm.collision)} warm, ${msUnit(rp.cold.collision)} cold` : '';
      const ours = span !== undefined ? `${msUnit(span)} on the GPU (${msUnit(wall)} wall with the readback)` : `${msUnit(wall)} wall (no timestamps)`;
      goals.push({
        goal,
        status: met ? 'met' : 'not met',
        detail: `3D 10k ${layout} pile: our frame ${ours}, ${(judged / target).toFixed(2)}× the ${target} ms${rapier}.`,
      });
    };
    add(`lavapipe: whole GPU frame for a 10k-box pile (${layout}) beats rapier3d cold (59 ms)`, 59, true);
    add(`lavapipe: whole GPU frame for a 10k-box pile (${layout}) approaches rapier3d warm (10 ms)`, 10, false);
    // On a real GPU (an H100 when one is lent): the 1M-body pile's frame in 2 ms, on the GPU.
    const goal = `real GPU: 1M-body 3D pile (${layout}) collision frame in 2 ms or less`;
    const big = frame(1_000_000, layout);
    if (software) notEvaluated(goal, `software adapter (${report.meta.adapter}); run on a GPU`);
    else if (typeof big === 'string') notEvaluated(goal, big);
    else {
      const g = big.g;
      const span = g.warm.timings?.span;
      goals.push({
        goal,
        status: judgedFrameMs(g) <= 2 ? 'met' : 'not met',
        detail: `3D 1M ${layout} pile on ${report.meta.adapter}: ${span !== undefined ? `${msUnit(span)} on the GPU, ` : ''}${msUnit(g.warm.wallMs)} wall with the readback (${g.pairs} pairs, ${g.touching} touching, ${g.batches} batches).`,
      });
    }
  }
  return goals;
}

/**
 * A GPU frame's time as the goals judge it: the frame on the GPU (first pass to last, gaps
 * included), which is what rapier's profiler figure (its broadphase + narrowphase) stands for; the
 * wall time adds the readback to the host, which an engine keeping the contacts on the GPU does
 * not do. Without timestamps: the wall.
 */
function judgedFrameMs(g: GpuFrameResult): number {
  return g.warm.timings?.span ?? g.warm.wallMs;
}

export function renderPileGoals(goals: readonly PileGoal[]): string {
  const mark = (s: PileGoal['status']): string => (s === 'met' ? 'MET    ' : s === 'not met' ? 'NOT MET' : 'n/e    ');
  return ['goals (issue #4, speed; one run):', ...goals.map((g) => `  [${mark(g.status)}] ${g.goal}\n            ${g.detail}`)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Command line

interface PileOptions {
  scene: string;
  dim: '2' | '3' | 'both';
  sizes?: number[];
  quick: boolean;
  repeat?: number;
  out: string;
  mixed: boolean;
  layout3d: Pile3DLayout[];
  caps: boolean;
  cannon: boolean;
}

function parseSizes(value: string): number[] {
  const sizes = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0).map((s) => {
    const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s);
    const n = m ? Number(m[1]) * (m[2] === '' ? 1 : /k/i.test(m[2]!) ? 1e3 : 1e6) : NaN;
    if (!Number.isInteger(n) || n < 2) throw new InvalidArgumentError(`"${s}" is not a body count (e.g. 1000, 10k, 1M)`);
    return n;
  });
  if (sizes.length === 0) throw new InvalidArgumentError('give at least one size');
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function parsePileOptions(argv: string[]): PileOptions {
  const program = new Command()
    .name('bench --scene pile')
    .description('whole collision frames on box piles: our GPU frame and CPU path, rapier2d; rapier3d and cannon-es in 3D')
    .requiredOption('--scene <name>', 'pile', (v) => {
      if (v !== 'pile') throw new InvalidArgumentError(`"${v}" is not a scene (pile)`);
      return v;
    })
    .option('--dim <d>', '2, 3 or both', (v) => {
      if (v !== '2' && v !== '3' && v !== 'both') throw new InvalidArgumentError(`"${v}" is not 2, 3 or both`);
      return v;
    }, 'both')
    .option('--sizes <list>', `body counts (default ${PILE_SIZES.join(',')}; peers, and 3D on a software adapter, capped: see --no-caps)`, parseSizes)
    .option('--quick', `sizes ${PILE_QUICK_SIZES.join(',')}, 3 timed frames`, false)
    .option('--repeat <n>', 'timed warm frames per contender (default 5; --quick 3; 3× as many for short frames, fewer for long)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`"${v}" is not a positive integer`);
      return n;
    })
    .option('--mixed', '2D: 5% of the bodies circles and hexagons', false)
    .option('--layout3d <list>', `3D piles, comma-separated: ${PILE_3D_LAYOUTS.join(', ')} (bricks: each box on the 4 below; block: every neighbour pressing)`, (v) => {
      const list = v.split(',').map((x) => x.trim()).filter((x) => x.length > 0);
      const bad = list.filter((x) => !(PILE_3D_LAYOUTS as readonly string[]).includes(x));
      if (bad.length > 0 || list.length === 0) throw new InvalidArgumentError(`"${v}": give layouts from ${PILE_3D_LAYOUTS.join(', ')}`);
      return [...new Set(list)] as Pile3DLayout[];
    }, [...PILE_3D_LAYOUTS])
    .option('--no-cannon', '3D: leave cannon-es out (0.5 to 1.1 s a step at 10k here)')
    .option('--no-caps', `run the peers at every size (caps: rapier2d ${formatCount(PILE_CAPS.rapier2d)}, rapier3d ${formatCount(PILE_CAPS.rapier3d)}, cannon-es ${formatCount(PILE_CAPS.cannon)})`)
    .option('--out <file>', 'JSON output; the .txt table and .svg plot go beside it', DEFAULT_OUT)
    .showHelpAfterError();
  program.parse(argv);
  return program.opts<PileOptions>();
}

/** `npm run bench -- --scene pile …` (bench/main.ts hands over here). */
export async function pileMain(argv: string[]): Promise<number> {
  const started = performance.now();
  const opts = parsePileOptions(argv);
  const sizes = opts.sizes ?? (opts.quick ? PILE_QUICK_SIZES : PILE_SIZES);
  const policy: FramePolicy = { repeat: opts.repeat ?? (opts.quick ? 3 : 5) };
  const dims = opts.dim === 'both' ? [2, 3] : [Number(opts.dim)];
  const notes: string[] = [];
  const warnings: string[] = [];
  const gpu = await setUpGpu(notes);
  // Our 3D frame's cap is for software adapters (lavapipe); on a GPU it runs every size, the
  // issue's 1M-body pile included, while the CPU peers keep theirs.
  const onGpu = gpu !== null && !gpu.acquired.adapter.software;
  const cap = (id: keyof typeof PILE_CAPS): number => (!opts.caps || (id === 'gpu3d' && onGpu) ? Infinity : PILE_CAPS[id]);
  const sizes2d = dims.includes(2) ? sizes : [];
  const sizes3d = dims.includes(3) ? sizes.filter((n) => n <= Math.max(cap('rapier3d'), cap('cannon'), cap('gpu3d'))) : [];

  await loadRapier();
  const largest2 = Math.max(0, ...sizes2d.filter((n) => n <= cap('rapier2d')));
  const largest3 = Math.max(0, ...sizes3d.filter((n) => n <= cap('rapier3d')));
  if (largest2 > 0) reserveRapier(RAPIER2D, largest2, 10_000);
  if (largest3 > 0) reserveRapier(RAPIER3D, largest3, 20_000);
  const cpuList = cpus();
  const report: PileReport = {
    meta: {
      adapter: gpu?.acquired.adapter.name ?? null,
      adapterSoftware: gpu?.acquired.adapter.software ?? null,
      timestampQueries: gpu?.acquired.timestamps ?? false,
      gpuSetupMs: gpu?.setupMs ?? null,
      node: process.version,
      cpu: cpuList[0]?.model.trim() ?? 'unknown',
      cpuCores: cpuList.length,
      loadAverage: loadavg(),
      platform: `${platform()} ${release()} ${arch()}`,
      date: new Date().toISOString(),
      versions: { rapier2d: rapier2dPackage.version, rapier3d: rapier3dVersion, 'cannon-es': cannonVersion },
      options: { dims, sizes2d, sizes3d, layouts3d: opts.layout3d, repeat: policy.repeat, quick: opts.quick, mixed: opts.mixed, caps: opts.caps ? { ...PILE_CAPS } : null },
      notes,
    },
    results2d: [],
    results3d: [],
    goals: [],
    warnings,
    totalSeconds: 0,
  };
  const m = report.meta;
  console.log([
    `webgpu-narrowphase pile benchmark: whole collision frames, ms per frame (lower is better)`,
    `  adapter  ${m.adapter ?? 'none'}${m.adapterSoftware ? ' [software: CPU rasteriser, not a GPU]' : ''}` +
      `${gpu && !m.timestampQueries ? ' (no timestamp queries: no stage times)' : ''}`,
    ...(m.gpuSetupMs !== null ? [`  setup    GPU pipelines + first frame ${m.gpuSetupMs.toFixed(0)} ms (shader JIT on lavapipe; kept out of all timings)`] : []),
    `  node     ${m.node}, ${m.platform}; cpu ${m.cpu} × ${m.cpuCores}; load ${m.loadAverage.map((x) => x.toFixed(2)).join(' ')}`,
    `  peers    rapier2d ${m.versions.rapier2d}, rapier3d ${m.versions.rapier3d}, cannon-es ${m.versions['cannon-es']}`,
    `  sizes    2D ${sizes2d.map(formatCount).join(', ') || '–'}; 3D ${sizes3d.map(formatCount).join(', ') || '–'}` +
      `${sizes3d.length > 0 ? ` (${opts.layout3d.join(', ')})` : ''}; ` +
      `${policy.repeat} timed warm frames (${SHORT_FRAME_FACTOR}× as many under ${SHORT_FRAME_MS} ms a cold frame, fewer past ${LONG_FRAME_MS / 1000} s), median`,
    ...notes.map((n) => `  note     ${n}`),
  ].join('\n'));
  const dropped3 = dims.includes(3) ? sizes.filter((n) => !sizes3d.includes(n)) : [];
  if (dropped3.length > 0) console.log(`  3D pile: not run at ${dropped3.map(formatCount).join(', ')} (above every peer's cap; --no-caps lifts them)`);
  console.log('');

  // Progress: one step per contender and size.
  const runs3d = opts.layout3d.flatMap((layout) => sizes3d.map((n) => ({ layout, n })));
  const tasks = sizes2d.length * 3 + runs3d.length * 3;
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
      { stream: process.stderr, format: ' {bar} {value}/{total} | {duration_formatted} | {step}', hideCursor: true, clearOnComplete: true },
      cliProgress.Presets.shades_classic,
    )
    : null;
  bar?.start(tasks, 0, { step: 'starting' });
  let done = 0;
  const task = (name: string) => {
    const at = done++;
    if (!bar) process.stderr.write(`[${at + 1}/${tasks}] ${name}\n`);
    return (what: string): void => bar?.update(at, { step: `${name}: ${what}` });
  };
  const attempt = async <T extends object>(label: string, run: () => Promise<T>): Promise<T | Skipped> => {
    try {
      return await run();
    } catch (e) {
      warnings.push(`${label}: ${errorText(e)}`);
      return { skipped: errorText(e) };
    }
  };

  try {
    for (const n of sizes2d) {
      const pile = makePile2D(n, opts.mixed);
      const name = `2D ${formatCount(n)}`;
      const gpuResult: GpuFrameResult | Skipped = gpu
        ? await attempt(`${name} GPU`, () => runGpuFrame(gpu.acquired.device, gpu.frame, uploadInputs(gpu.acquired.device, pile), policy, task(`${name} GPU frame`)))
        : (task(`${name} GPU frame`), { skipped: 'no GPU adapter' });
      const cpuResult = await attempt(`${name} CPU`, () => runCpu2D(pile, policy, task(`${name} CPU path`)));
      const rapierTick = task(`${name} rapier2d`);
      const rapier: EngineResult | Skipped = n > cap('rapier2d')
        ? { skipped: `not run above ${formatCount(PILE_CAPS.rapier2d)} bodies (its first step at 1M took over 3.5 min here; --no-caps runs it)` }
        : await attempt(`${name} rapier2d`, () => runEngine(() => rapier2dWorld(pile), policy, true, rapierTick));
      const result: PileResult2D = { bodies: n, mixed: opts.mixed, gpu: gpuResult, cpu: cpuResult, rapier2d: rapier };
      report.results2d.push(result);
      // Cross-checks.
      const g = ok(gpuResult);
      const c = ok(cpuResult);
      const rp = ok(rapier);
      if (g && c && Math.abs(g.touching - c.touching) > Math.max(2, 1e-4 * c.touching)) {
        warnings.push(`${name}: GPU found ${g.touching} touching pairs, the CPU path ${c.touching}`);
      }
      const ours = g?.touching ?? c?.touching;
      if (ours !== undefined && rp?.touching != null && Math.abs(rp.touching - ours) > TOUCHING_TOLERANCE * ours) {
        warnings.push(`${name}: rapier2d found ${rp.touching} touching pairs, ours ${ours} (over ${100 * TOUCHING_TOLERANCE}% apart)`);
      }
    }
    for (const { layout, n } of runs3d) {
      const pile = makePile3D(n, layout);
      const name = `3D ${layout} ${formatCount(n)}`;
      const gTick = task(`${name} GPU frame`);
      const gpuResult: GpuFrameResult | Skipped = !gpu
        ? { skipped: 'no GPU adapter' }
        : n > cap('gpu3d')
          ? { skipped: `not run above ${formatCount(PILE_CAPS.gpu3d)} bodies on a software adapter (--no-caps runs it)` }
          : await attempt(`${name} GPU`, () => runGpuFrame(gpu.acquired.device, gpu.frame3d, uploadInputs3D(gpu.acquired.device, pile), policy, gTick));
      const rTick = task(`${name} rapier3d`);
      const rapier: EngineResult | Skipped = n > cap('rapier3d')
        ? { skipped: `not run above ${formatCount(PILE_CAPS.rapier3d)} bodies (100k: ~1 min and near WASM's 4 GB; --no-caps runs it)` }
        : await attempt(`${name} rapier3d`, () => runEngine(() => rapier3dWorld(pile), policy, true, rTick));
      const cTick = task(`${name} cannon-es`);
      const cannon: EngineResult | Skipped = !opts.cannon
        ? { skipped: 'left out (--no-cannon)' }
        : n > cap('cannon')
        ? { skipped: `not run above ${formatCount(PILE_CAPS.cannon)} bodies (its SAP broadphase and JS narrowphase take seconds a step past 10k; --no-caps runs it)` }
        : await attempt(`${name} cannon-es`, () => runEngine(() => cannonWorld(pile), policy, true, cTick));
      report.results3d.push({ bodies: n, layout, gpu: gpuResult, rapier3d: rapier, cannon });
      const g = ok(gpuResult);
      const ra = ok(rapier);
      if (g && ra?.touching != null && Math.abs(ra.touching - g.touching) > TOUCHING_TOLERANCE * g.touching) {
        warnings.push(`${name}: rapier3d found ${ra.touching} touching pairs, ours ${g.touching} (over ${100 * TOUCHING_TOLERANCE}% apart)`);
      }
    }
  } finally {
    if (bar) {
      bar.update(tasks, { step: 'done' });
      bar.stop();
    }
  }

  report.goals = evaluatePileGoals(report);
  report.totalSeconds = (performance.now() - started) / 1000;
  const tables = renderPileTables(report);
  console.log(tables);
  console.log('');
  console.log(renderPileGoals(report.goals));
  if (warnings.length > 0) console.log(`\nwarnings:\n${warnings.map((w) => `  ${w}`).join('\n')}`);

  const out = resolve(opts.out);
  const base = out.replace(/\.json$/i, '');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.txt`, `${tables}\n\n${renderPileGoals(report.goals)}\n`);
  writeFileSync(`${base}.svg`, renderPileSvg(report));
  console.log(`\nwrote ${out}, ${base}.txt, ${base}.svg (${report.totalSeconds.toFixed(1)} s)`);

  gpu?.frame.destroy();
  gpu?.frame3d.destroy();
  gpu?.acquired.device.destroy();
  return 0;
}
