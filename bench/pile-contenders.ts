// The pile benchmark's contenders and their timing, shared by bench/pile.ts (Node) and bench.html
// (the browsers): our GPU collision frame (GpuFrame2D / GpuFrame3D) on uploaded piles, and rapier2d
// and rapier3d worlds of the same bodies; one cold frame, warm-up, timed warm frames, medians. See
// bench/pile.ts's header for what each contender's time covers.

import RAPIER2D from '@dimforge/rapier2d-compat';
import RAPIER3D from '@dimforge/rapier3d-compat';

import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuFrame2D, type FrameInputs2D, type FrameTimings2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D, type FrameInputs3D } from '../src/gpu/frame3d.ts';
import type { FrameInputsBase, FrameResultKept, GpuFrame } from '../src/gpu/frame.ts';
import {
  makePile2D,
  makePile3D,
  PILE_KINDS_3D,
  PILE_MARGIN,
  pileKinds2D,
  pilePoses2D,
  pilePoses3D,
  type Pile2D,
  type Pile3D,
  type PileMotion,
} from './pile-scenes.ts';
import { errorText, keepGpuBusy } from './timing.ts';

/**
 * Largest body count each peer runs unless --no-caps (gpu3d: our own 3D frame, capped on a software
 * adapter only). Measured here (2 cores): rapier2d's first step on a 1M-body pile did not finish
 * in 3.5 minutes; rapier3d at 100k took a minute in all and came within a few hundred MB of WASM's
 * 4 GB (1.15M touching pairs), failing outright with the default solver settings; cannon-es's
 * single-axis sweep and JS narrowphase take seconds a step past 10k; the 1M-body 3D pile needs
 * larger bindings than lavapipe's (README, "A whole frame on the GPU"). cpu2d: our own 2D CPU
 * path, whose 1M frames (31 s each on a GPU machine's host) left a lent GPU idle for minutes.
 */
export const PILE_CAPS = {
  cpu2d: 100_000,
  rapier2d: 100_000,
  rapier3d: 10_000,
  cannon: 10_000,
  gpu3d: 100_000,
} as const;
/** Frames longer than these get 2 timed warm frames, or 1. */
export const LONG_FRAME_MS = 2000;
const VERY_LONG_FRAME_MS = 8000;
/** Frames shorter than this (cold) get SHORT_FRAME_FACTOR × --repeat timed frames: their medians wander most here. */
export const SHORT_FRAME_MS = 500;
export const SHORT_FRAME_FACTOR = 3;
/** Short frames: warm-up frames until this much time was spent (V8 tier-up, GPU buffers). */
const WARMUP_MS = 150;
/**
 * Timed steps an engine goes on to while every collision reading is 0: a step shorter than a
 * browser's clock step (1 ms in Firefox) can read 0 in all of a few samples (typicalMs).
 */
const MORE_STEPS_AT_ZERO = 64;

// ---------------------------------------------------------------------------------------------
// Timing

export interface FramePolicy {
  /** Timed warm frames (short frames). */
  repeat: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * An engine's typical step time from its samples: their median, or, when the median reads 0 but
 * the steps took time, their mean. A clock coarser than the step (a browser's, 1 ms in Firefox)
 * reads most 0.3 ms steps as 0 and some as 1: the mean of those readings estimates the step.
 */
function typicalMs(xs: readonly number[]): number {
  const m = median(xs);
  return m === 0 && xs.some((x) => x > 0) ? xs.reduce((a, x) => a + x, 0) / xs.length : m;
}

// A full collection before each contender's frames, so none pays for the garbage of the one
// before it (cannon-es's worlds, rapier's builds). Node sets it (bench/pile.ts); a browser page
// cannot collect on demand and leaves it a no-op.
let collectGarbage: () => void = () => {};
export function setGarbageCollector(gc: () => void): void {
  collectGarbage = gc;
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
export async function timeFrames<T>(
  frame: () => T | Promise<T>,
  ms: (t: T) => number,
  policy: FramePolicy,
  tick: (what: string) => void,
): Promise<{ cold: T; warm: T[] }> {
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
  /**
   * The first frame at this size on the frame instance, which grows its buffers to fit (runs: 2
   * when the pairs overflowed the default capacity) and touches them; a second grows the other of
   * the alternating sets. As the peers' throwaway world, not the cold frame.
   */
  primer: { wallMs: number; runs: number; timings: FrameTimings2D | null; spanMs: number | null };
  /** A frame with nothing carried (after reset()), its buffers sized by the primer. */
  cold: { wallMs: number; runs: number; timings: FrameTimings2D | null; spanMs: number | null };
  /** Medians over the warm frames, stage by stage (total: median of the per-frame sums). */
  warm: {
    wallMs: number;
    timings: FrameTimings2D | null;
    spanMs: number | null;
    frames: number;
    wallSamplesMs: number[];
    totalSamplesMs: number[];
  };
  /** Manifold reuse in the last warm frame: pairs that kept their manifold, proven still apart, collided anew. */
  reuse: { reused: number; apart: number; collided: number };
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

// ---------------------------------------------------------------------------------------------
// Our GPU frame

export interface PileGpu {
  acquired: AcquiredDevice;
  frame: GpuFrame2D;
  frame3d: GpuFrame3D;
  setupMs: number;
  /** The frames of the rounds alternating with a peer (spanFrames), once made. */
  spanFrames?: Promise<[GpuFrame2D, GpuFrame3D]>;
}

/**
 * Our frames as the rounds alternating with a peer run them: timing their span alone (timestamps
 * 'span'), as the goals judge a frame by its span; the stages' timestamps cost a software adapter
 * a flush each, no part of the frame's work. Made on first use (the browsers' page runs no rounds).
 */
export function spanFrames(gpu: PileGpu, mixed: boolean): Promise<[GpuFrame2D, GpuFrame3D]> {
  const { device, timestamps } = gpu.acquired;
  const span = timestamps ? 'span' : false;
  gpu.spanFrames ??= Promise.all([
    GpuFrame2D.create(device, span, { kinds: pileKinds2D(mixed) }),
    GpuFrame3D.create(device, span, { kinds: PILE_KINDS_3D }),
  ]);
  return gpu.spanFrames;
}

/** Releases the frames, and the device when it is the bench's own (not given to setUpPileGpu). */
export async function destroyPileGpu(gpu: PileGpu, ownDevice: boolean): Promise<void> {
  gpu.frame.destroy();
  gpu.frame3d.destroy();
  for (const f of gpu.spanFrames ? await gpu.spanFrames : []) f.destroy();
  if (ownDevice) gpu.acquired.device.destroy();
}

export function uploadInputs3D(
  device: GPUDevice,
  pile: Pile3D,
): FrameInputs3D & { destroy(): void } {
  const made: GPUBuffer[] = [];
  const make = (data: ArrayBuffer | ArrayBufferView, label: string): GPUBuffer => {
    const b = device.createBuffer({
      label,
      size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    if (ArrayBuffer.isView(data))
      device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
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
    margin: PILE_MARGIN,
    kinds: pile.kinds,
    destroy: () => made.forEach((b) => b.destroy()),
  };
}

export function uploadInputs(device: GPUDevice, pile: Pile2D): FrameInputs2D & { destroy(): void } {
  const make = (data: ArrayBuffer, label: string): GPUBuffer => {
    const b = device.createBuffer({
      label,
      size: data.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const shapes = make(pile.packed.shapes, 'pile-shapes');
  const bodies = make(pile.packed.bodies, 'pile-bodies');
  return {
    shapes,
    bodies,
    bodyCount: pile.bodies,
    margin: pile.scene.margin,
    kinds: pile.kinds,
    destroy: () => (shapes.destroy(), bodies.destroy()),
  };
}

/**
 * Our 2D and 3D frames on `given` (else a device of our own), compiled and run once; null with a
 * note when unusable. Each compiles the pair classes its piles' shape kinds form (`mixed`: the 2D
 * piles hold circles and hexagons too), as an engine that knows its scene creates its frames.
 */
export async function setUpPileGpu(
  notes: string[],
  given?: AcquiredDevice,
  mixed = false,
): Promise<PileGpu | null> {
  let acquired: AcquiredDevice;
  try {
    acquired = given ?? (await acquireDevice());
  } catch (e) {
    notes.push(`no GPU: ${errorText(e)}`);
    return null;
  }
  try {
    const t0 = performance.now();
    const [frame, frame3d] = await Promise.all([
      GpuFrame2D.create(acquired.device, acquired.timestamps, { kinds: pileKinds2D(mixed) }),
      GpuFrame3D.create(acquired.device, acquired.timestamps, { kinds: PILE_KINDS_3D }),
    ]);
    // A first tiny frame: lavapipe compiles every kernel to machine code on its first dispatch.
    const tiny = uploadInputs(acquired.device, makePile2D(64, mixed));
    await frame.step(tiny);
    tiny.destroy();
    const tiny3d = uploadInputs3D(acquired.device, makePile3D(64));
    await frame3d.step(tiny3d);
    tiny3d.destroy();
    return { acquired, frame, frame3d, setupMs: performance.now() - t0 };
  } catch (e) {
    notes.push(`GPU frame unusable on ${acquired.adapter.name}: ${errorText(e)}`);
    if (!given) acquired.device.destroy();
    return null;
  }
}

/**
 * One GPU frame inside a validation error scope: a failure says what the device refused. Its lists
 * come back into the frame's kept host memory, as an engine reading them every frame keeps it.
 */
export async function gpuStep<I extends FrameInputsBase>(
  device: GPUDevice,
  frame: GpuFrame<I>,
  inputs: I,
): Promise<FrameResultKept> {
  device.pushErrorScope('validation');
  let result: FrameResultKept | undefined;
  let thrown: unknown;
  try {
    result = await frame.step(inputs, { results: 'kept' });
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

export function medianTimings(list: (FrameTimings2D | null)[]): FrameTimings2D | null {
  if (list.length === 0 || list.some((t) => t === null)) return null;
  const ts = list as FrameTimings2D[];
  return {
    broadphase: median(ts.map((t) => t.broadphase)),
    reuse: median(ts.map((t) => t.reuse)),
    narrowphase: median(ts.map((t) => t.narrowphase)),
    compaction: median(ts.map((t) => t.compaction)),
    persistence: median(ts.map((t) => t.persistence)),
    total: median(ts.map((t) => t.total)),
  };
}

/** The median of the frames' GPU spans, or null when a frame had none. */
export function medianSpan(list: readonly (number | null)[]): number | null {
  if (list.length === 0 || list.some((t) => t === null)) return null;
  return median(list as number[]);
}

/**
 * Times a GPU frame (either dimension) on uploaded inputs; destroys them after. `bodiesAt(k)` gives
 * the body bytes of warm frame k (1, 2, …), written before it (outside its wall time, inside its
 * submit); without it every frame collides the uploaded bodies. `warmupMs`: the GPU kept busy
 * that long before each frame (keepGpuBusy; outside its times).
 */
export async function runGpuFrame<I extends FrameInputsBase>(
  device: GPUDevice,
  frame: GpuFrame<I>,
  inputs: I & { destroy(): void },
  policy: FramePolicy,
  tick: (what: string) => void,
  bodiesAt?: (frame: number) => ArrayBuffer,
  warmupMs = 0,
): Promise<GpuFrameResult> {
  try {
    frame.reset(); // last frame was another scene: nothing to carry
    // As the peers' throwaway world: two frames grow both of the frame's alternating buffer sets
    // to this scene and touch them; the cold frame after them carries nothing (reset) and
    // allocates nothing. The first of them is reported.
    tick('throwaway frames (buffers grown)');
    if (warmupMs > 0) await keepGpuBusy(device, warmupMs);
    const primer = await gpuStep(device, frame, inputs);
    await gpuStep(device, frame, inputs);
    frame.reset();
    let k = 0;
    const step = async (): Promise<FrameResultKept> => {
      if (warmupMs > 0) await keepGpuBusy(device, warmupMs);
      if (k > 0 && bodiesAt) device.queue.writeBuffer(inputs.bodies, 0, bodiesAt(k));
      k++;
      return gpuStep(device, frame, inputs);
    };
    const { cold, warm } = await timeFrames(step, (r) => r.wallMs, policy, tick);
    const last = warm[warm.length - 1] ?? cold;
    return {
      pairs: last.counts.pairs,
      touching: last.counts.contacts,
      batches: last.batches,
      reuse: {
        reused: last.counts.reused,
        apart: last.counts.apart,
        collided: last.counts.collided,
      },
      primer: {
        wallMs: primer.wallMs,
        runs: primer.runs,
        timings: primer.timings,
        spanMs: primer.spanMs,
      },
      cold: { wallMs: cold.wallMs, runs: cold.runs, timings: cold.timings, spanMs: cold.spanMs },
      warm: {
        wallMs: median(warm.map((r) => r.wallMs)),
        timings: medianTimings(warm.map((r) => r.timings)),
        spanMs: medianSpan(warm.map((r) => r.spanMs)),
        frames: warm.length,
        wallSamplesMs: warm.map((r) => r.wallMs),
        totalSamplesMs: warm.map((r) => r.timings?.total ?? NaN),
      },
    };
  } finally {
    inputs.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Ours and a peer, alternating

/** Rounds of ours and a peer, alternating (runPairedWarm, runPairedCold). */
export interface PairedRounds {
  /** Rounds timed: one sample of each side per round. */
  rounds: number;
  /** Median over the rounds of ours / the peer's: both samples of a round saw the same machine. */
  ratio: number;
  /** Medians of either side over the rounds (ms): ours as the goals judge a frame (its GPU span, else the wall), the peer's collision step. */
  oursMs: number;
  peerMs: number;
  ratioSamples: number[];
}

/** The rounds' summary of [ours, the peer's] samples (ms). */
function pairedRounds(pairs: readonly (readonly [number, number])[]): PairedRounds {
  const ratioSamples = pairs.map(([a, b]) => a / b);
  return {
    rounds: pairs.length,
    ratio: median(ratioSamples),
    oursMs: median(pairs.map(([a]) => a)),
    peerMs: median(pairs.map(([, b]) => b)),
    ratioSamples,
  };
}

/**
 * Our warm GPU frame and a peer's warm collision step, alternating two frames at a time on the
 * same poses. Two contenders timed one after the other see a machine whose speed may drift between
 * them (a shared machine's, often by more than the gap in question); a round's two samples are
 * tens of milliseconds apart, so the median of the rounds' ratios does not move with it. Both
 * sides first run a cold frame and three warm ones, untimed; `inputs` and the world are released.
 */
export async function runPairedWarm<I extends FrameInputsBase>(
  device: GPUDevice,
  frame: GpuFrame<I>,
  inputs: I & { destroy(): void },
  bodiesAt: ((frame: number) => ArrayBuffer) | undefined,
  world: EngineWorld,
  rounds: number,
  tick: (what: string) => void,
  warmupMs = 0,
): Promise<PairedRounds> {
  try {
    frame.reset();
    const ours = async (k: number): Promise<number> => {
      if (warmupMs > 0) await keepGpuBusy(device, warmupMs);
      if (k > 0 && bodiesAt) device.queue.writeBuffer(inputs.bodies, 0, bodiesAt(k));
      const r = await gpuStep(device, frame, inputs);
      return r.spanMs ?? r.wallMs;
    };
    const peer = (k: number): number => {
      if (k > 0) world.moveTo(k);
      return world.step().collision;
    };
    tick('paired: cold and warm-up frames');
    for (let k = 0; k < 4; k++) {
      await ours(k);
      peer(k);
    }
    collectGarbage();
    // A round: two frames of ours, then two of the peer's, on the same two poses; the second of
    // each is timed, so that neither side's sample follows the other's work directly (lavapipe's
    // threads idle through a rapier step and start the next frame cold).
    const pairs: [number, number][] = [];
    for (let r = 0; r < rounds; r++) {
      tick(`paired: round ${r + 1}/${rounds}`);
      const k = 4 + 2 * r;
      await ours(k);
      const a = await ours(k + 1);
      peer(k);
      pairs.push([a, peer(k + 1)]);
    }
    return pairedRounds(pairs);
  } finally {
    inputs.destroy();
    world.free();
  }
}

/**
 * Our cold GPU frame and a peer's cold collision step, alternating: per round, our frame after
 * reset() (nothing carried; its buffers grown by the frames before) on the built poses, then the
 * first step of a fresh world of the peer's (built untimed, after the throwaway world that grew its
 * heap). A cold frame is one sample a side; alternated over rounds, a busy moment of the machine
 * moves one round's ratio, not the goal's. `inputs` is released.
 */
export async function runPairedCold<I extends FrameInputsBase>(
  device: GPUDevice,
  frame: GpuFrame<I>,
  inputs: I & { destroy(): void },
  build: () => EngineWorld,
  rounds: number,
  tick: (what: string) => void,
  warmupMs = 0,
): Promise<PairedRounds> {
  try {
    const pairs: [number, number][] = [];
    for (let r = 0; r < rounds; r++) {
      tick(`paired cold: round ${r + 1}/${rounds}`);
      frame.reset();
      if (warmupMs > 0) await keepGpuBusy(device, warmupMs);
      const ours = await gpuStep(device, frame, inputs);
      pairs.push([ours.spanMs ?? ours.wallMs, firstStepCollision(build)]);
    }
    return pairedRounds(pairs);
  } finally {
    inputs.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// rapier2d, rapier3d

export interface EngineWorld {
  /** One step; the engine's own stage times (ms). */
  step(): EngineStep;
  /** Every body to its pose in warm frame k (pilePoses2D/3D), at rest. */
  moveTo(frame: number): void;
  /** Pairs with contact points after the last step. */
  touching(): number;
  free(): void;
}

let rapierReady: Promise<void> | undefined;
/** Both rapier modules' WASM, with room reserved for the largest world (see reserveRapier). */
export function loadRapier(): Promise<void> {
  rapierReady ??= Promise.all([RAPIER2D.init(), RAPIER3D.init()]).then(() => undefined);
  return rapierReady;
}

/**
 * Grows rapier's WASM heap up front. Without it, the first step of a large world spends most of
 * its time growing the heap (measured here: a 100k-body world's first step 30 s, against 1.3 s
 * with the heap reserved), which is an artefact of the WASM build, not of collision detection.
 */
export function reserveRapier(
  module: { reserveMemory(bytes: number): void },
  bodies: number,
  bytesPerBody: number,
): void {
  module.reserveMemory(Math.min(1.5e9, Math.max(64e6, bodies * bytesPerBody)));
}

/**
 * One step of a rapier world whose colliders report collision events (ActiveEvents.COLLISION_EVENTS),
 * as our frame lists the pairs that began and stopped touching: both do that work. The events are
 * drained after the step (rapier's stage timings leave the draining out).
 */
function rapierStep<Q extends EventQueueLike>(
  world: {
    step(events: Q): void;
    timingBroadPhase(): number;
    timingNarrowPhase(): number;
    timingCollisionDetection(): number;
    timingStep(): number;
  },
  events: Q,
): EngineStep {
  world.step(events);
  events.drainCollisionEvents(() => {});
  return {
    broadphase: world.timingBroadPhase(),
    narrowphase: world.timingNarrowPhase(),
    collision: world.timingCollisionDetection(),
    stepMs: world.timingStep(),
  };
}

/** What rapierStep needs of rapier2d's and rapier3d's EventQueue. */
interface EventQueueLike {
  drainCollisionEvents(f: (a: number, b: number, started: boolean) => void): void;
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

export function rapier2dWorld(pile: Pile2D, motion: PileMotion): EngineWorld {
  const R = RAPIER2D;
  const world = new R.World({ x: 0, y: 0 });
  world.profilerEnabled = true;
  // The prediction distance (default 0.02 m, lengthUnit 1) equals our margin: the same pairs count as touching.
  world.integrationParameters.normalizedPredictionDistance = PILE_MARGIN;
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
  for (const d of descs) d.setActiveEvents(R.ActiveEvents.COLLISION_EVENTS);
  const events = new R.EventQueue(true);
  const bodies: RAPIER2D.RigidBody[] = [];
  const colliders: RAPIER2D.Collider[] = [];
  for (let i = 0; i < pile.bodies; i++) {
    const b = world.createRigidBody(
      R.RigidBodyDesc.dynamic()
        .setTranslation(bodyPosition[2 * i]!, bodyPosition[2 * i + 1]!)
        .setRotation(bodyAngle[i]!),
    );
    bodies.push(b);
    colliders.push(world.createCollider(descs[bodyShape[i]!]!, b));
  }
  const zero = { x: 0, y: 0 };
  return {
    step: () => rapierStep<RAPIER2D.EventQueue>(world, events),
    moveTo: (frame) => {
      const at = pilePoses2D(pile, frame, motion);
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!;
        b.setTranslation({ x: at.bodyPosition[2 * i]!, y: at.bodyPosition[2 * i + 1]! }, true);
        b.setRotation(at.bodyAngle[i]!, true);
        b.setLinvel(zero, true);
        b.setAngvel(0, true);
      }
    },
    touching: () =>
      rapierTouching(
        colliders,
        (c, f) => world.contactPairsWith(c, f),
        (a, b, f) => world.contactPair(a, b, f),
      ),
    free: () => (events.free(), world.free()),
  };
}

export function rapier3dWorld(pile: Pile3D, motion: PileMotion): EngineWorld {
  const R = RAPIER3D;
  const world = new R.World({ x: 0, y: 0, z: 0 });
  world.profilerEnabled = true;
  world.integrationParameters.normalizedPredictionDistance = PILE_MARGIN;
  world.integrationParameters.numSolverIterations = 1;
  const descs = pile.halfExtents.map(([x, y, z]) =>
    R.ColliderDesc.cuboid(x, y, z).setActiveEvents(R.ActiveEvents.COLLISION_EVENTS),
  );
  const events = new R.EventQueue(true);
  const { position: p, rotation: q, bodyShape } = pile;
  const bodies: RAPIER3D.RigidBody[] = [];
  const colliders: RAPIER3D.Collider[] = [];
  for (let i = 0; i < pile.bodies; i++) {
    const b = world.createRigidBody(
      R.RigidBodyDesc.dynamic()
        .setTranslation(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!)
        .setRotation({ x: q[4 * i]!, y: q[4 * i + 1]!, z: q[4 * i + 2]!, w: q[4 * i + 3]! }),
    );
    bodies.push(b);
    colliders.push(world.createCollider(descs[bodyShape[i]!]!, b));
  }
  const zero = { x: 0, y: 0, z: 0 };
  return {
    step: () => rapierStep<RAPIER3D.EventQueue>(world, events),
    moveTo: (frame) => {
      const { position: at, rotation: turn } = pilePoses3D(pile, frame, motion);
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!;
        b.setTranslation({ x: at[3 * i]!, y: at[3 * i + 1]!, z: at[3 * i + 2]! }, true);
        b.setRotation(
          { x: turn[4 * i]!, y: turn[4 * i + 1]!, z: turn[4 * i + 2]!, w: turn[4 * i + 3]! },
          true,
        );
        b.setLinvel(zero, true);
        b.setAngvel(zero, true);
      }
    },
    touching: () =>
      rapierTouching(
        colliders,
        (c, f) => world.contactPairsWith(c, f),
        (a, b, f) => world.contactPair(a, b, f),
      ),
    free: () => (events.free(), world.free()),
  };
}

/** The collision time of a fresh world's first step (its build not timed); the world is released. */
function firstStepCollision(build: () => EngineWorld): number {
  const world = build();
  try {
    return world.step().collision;
  } finally {
    world.free();
  }
}

/**
 * Times an engine's world: a throwaway world of the same size first (built and stepped once, so
 * that rapier's WASM heap has grown and been touched, and V8 has compiled cannon's code), then the
 * measured world: its first step is the cold frame, later ones (bodies moved to the warm frame's
 * poses first) warm.
 */
export async function runEngine(
  build: () => EngineWorld,
  policy: FramePolicy,
  countTouching: boolean,
  tick: (what: string) => void,
): Promise<EngineResult> {
  tick('throwaway world (heap, JIT)');
  const primerCollisionMs = firstStepCollision(build);
  tick('building the world');
  const t0 = performance.now();
  const world = build();
  const buildMs = performance.now() - t0;
  try {
    let k = 0;
    const { cold, warm } = await timeFrames(
      () => {
        if (k > 0) world.moveTo(k);
        k++;
        return world.step();
      },
      (s) => s.stepMs,
      policy,
      tick,
    );
    while (warm.every((s) => s.collision === 0) && warm.length < MORE_STEPS_AT_ZERO) {
      world.moveTo(k++);
      warm.push(world.step());
    }
    const touching = countTouching ? world.touching() : null;
    return {
      buildMs,
      touching,
      primerCollisionMs,
      cold,
      warm: {
        broadphase: typicalMs(warm.map((s) => s.broadphase)),
        narrowphase: typicalMs(warm.map((s) => s.narrowphase)),
        collision: typicalMs(warm.map((s) => s.collision)),
        stepMs: typicalMs(warm.map((s) => s.stepMs)),
        frames: warm.length,
        collisionSamplesMs: warm.map((s) => s.collision),
      },
    };
  } finally {
    world.free();
  }
}
