// A whole collision frame on the GPU, one implementation for 2D and 3D (src/gpu/frame2d.ts,
// frame3d.ts give the narrowphase classes and inputs): broadphase (src/gpu/broadphase.ts) → the
// narrowphase over the pairs it found, as pair classes (src/gpu/pair-classes.ts: split on the GPU,
// one pipeline per class, dispatched indirectly; no readback between stages) → dense, canonically
// ordered contact list with persistent user values (src/gpu/contact-list.ts).
//
// Pair classes: a frame compiles the pipelines of the classes its shape kinds can form (create's
// `kinds`, or prepare(kinds) later). encode() refuses a scene whose kinds (inputs.kinds) form a
// class it has no pipeline for, naming the class; without inputs.kinds only a frame that compiled
// every class encodes. step() also checks on the GPU's count that no pair was left uncollided.
//
// Batches: the narrowphase writes one manifold slot per pair and the reuse stage one anchor, and a
// device binds at most maxStorageBufferBindingSize bytes of either at once (128 MiB on lavapipe:
// 1.6M 2D or 0.9M 3D pairs' anchors). Larger frames run in batches of consecutive pairs: per
// batch, the narrowphase over its pairs (bound at an offset of the pairs buffer; its pair count
// written by the broadphase on the GPU) into one batch-sized manifold buffer, then the contact
// stage's compaction of that batch, which appends the touching manifolds to the touching list in
// pair order. The dense list is therefore byte-identical to an unbatched run's (test/frame*.test.ts
// force tiny batches). The touching and dense lists may span two bindings each (pages, see
// src/gpu/contact-list.ts): a 1M-body 2D pile (4M pairs, 3.8M touching) runs on lavapipe.
//
// Every fixed-size buffer counts what did not fit (broadphase pairs, dense contacts); step() reads
// those counts, grows and reruns the frame, so nothing is dropped. An engine that never reads back
// can call readCounts() a frame late and grow then.

import { CapacityError, InputError, onUnlessFalse } from '../errors.ts';
import {
  BATCH_ALIGN,
  BROADPHASE_LAYOUT,
  BROADPHASE_MODE,
  type BroadphaseInputs,
  type BroadphaseOutputs,
  type GpuBroadphase,
} from './broadphase.ts';
import {
  CONTACTS_GROWTH,
  CONTACTS_WORKGROUP_SIZE,
  FAT_AABB_MARGIN,
  REUSE_WORKGROUP_SIZE,
  WORKGROUP_SIZE_2D,
} from '../constants.ts';
import { WORKGROUP_SIZE_3D } from '../constants3d.ts';
import { refusedCommands } from './device.ts';
import { anchorAlignment, anchorWindow } from './anchor-window.ts';
import type { ContactsOutputs, GpuContacts } from './contact-list.ts';
import {
  GrowingBuffer,
  PassTimer,
  ReadbackBuffers,
  readBuffers,
  readBuffersInto,
  HostBuffers,
  resultsMode,
  u32Words,
  type BatchGrids,
  type ResultsMode,
} from './buffers.ts';
import { MissingPairClassError, type GpuPairClasses } from './pair-classes.ts';
import { GpuReuse, reuseListBytes, reuseWorkList, type ReuseDimension } from './reuse.ts';
import { CONTACT_STATUS_COUNTS, checkContactOptions } from '../contact-list-layout.ts';

// The per-slot stages (reuse, contact list) dispatch over the broadphase's batch grids, which are
// made for the narrowphase's workgroup size: theirs must be the same.
for (const size of [REUSE_WORKGROUP_SIZE, CONTACTS_WORKGROUP_SIZE])
  if (size !== WORKGROUP_SIZE_2D || size !== WORKGROUP_SIZE_3D)
    throw new Error(`a per-slot stage's workgroup size ${size} is not the narrowphase's`);

/** Batches one frame may have: each its own uniform slots in the reuse stage. */
export const FRAME_REUSE_WINDOWS = 256;

/** What differs between the dimensions: the narrowphase's slot size, classes and inputs. */
export interface FrameDimension<I, C extends string, K extends string> {
  label: string;
  /** Bytes of one manifold slot. */
  manifoldBytes: number;
  /** The classes shapes of these kinds can form. */
  classesOfKinds(kinds: readonly K[]): C[];
  /** The broadphase's view of the inputs. */
  broadphaseInputs(inputs: I): BroadphaseInputs;
  /** Manifold reuse: the dimension's anchors, and the buffers its anchor kernel reads. */
  reuse: ReuseDimension;
  anchorInputs(inputs: I): {
    shapes: GPUBufferBinding;
    hullVertices?: GPUBufferBinding;
    hullPlanes?: GPUBufferBinding;
  };
}

export interface FrameInputsBase<K extends string = string> {
  /** array<Body2D> / array<Body3D>: may be the engine's own buffer in this layout. */
  bodies: GPUBuffer;
  bodyCount: number;
  /** Speculative distance, scene units. */
  margin: number;
  /**
   * Fat boxes: each body's broadphase box grows by this × its shape's extent, and its pairs stand
   * while it stays inside (default FAT_AABB_MARGIN).
   */
  fatMargin?: number;
  /**
   * Bodies renumbered since last frame (an engine removed, added or reordered bodies): per body of
   * this frame its index last frame, or 0xffffffff for a new one. Contacts persist through it (a
   * pair whose two bodies swapped order starts anew); the broadphase makes every fat box anew.
   */
  remap?: Uint32Array;
  /**
   * false: collide every pair anew this frame (no manifold reuse; the next frame can reuse this
   * one's). Default true.
   */
  reuse?: boolean;
  /**
   * false: no contact events this frame (counts.began and ended 0, the lists empty; their
   * kernels not recorded), for a caller that reads none. The next frame's events are whole
   * either way. Default true.
   */
  events?: boolean;
  /**
   * false: no user values this frame: none carried from last frame nor written (step() reads
   * none back), and the next frame carries none from this one. For a caller that keeps its own
   * per-contact data (matched through the entries' `previous` and `matched`). Default true.
   */
  userValues?: boolean;
  /**
   * The kinds of the shapes in the shapes buffer: encode() refuses them when they form a pair
   * class the frame has not compiled. Needed unless the frame compiled every class (create()
   * without `kinds`).
   */
  kinds?: readonly K[];
}

export interface FrameOutputs {
  broadphase: BroadphaseOutputs;
  /**
   * The last batch's manifold slots (all pairs' when the frame ran in one batch). Read them, do
   * not write them: the next frame leaves the slots of pairs still apart as they are.
   */
  manifolds: GPUBuffer;
  /** Batches the narrowphase and compaction ran in. */
  batches: number;
  contacts: ContactsOutputs;
}

export interface FrameCounts {
  pairs: number;
  pairsOverflow: boolean;
  contacts: number;
  contactsOverflow: boolean;
  /** Contact events: pairs that began touching this frame, and pairs that stopped. */
  began: number;
  ended: number;
  /** Broadphase: bodies that left their fat boxes this frame, and whether it rebuilt its pairs. */
  moved: number;
  rebuilt: boolean;
  /** Bodies moved since the broadphase's last rebuild: past broadphase.staleCapacity(bodyCount) it rebuilds. */
  stale: number;
  /**
   * The run needed a rebuild it had no sorts for (step() records update frames without them), or
   * was recorded to keep last frame's list and a body left its fat box (FrameRecording.expectHeld),
   * and found no pairs: step() runs the frame again. Never set by encode() alone.
   */
  rebuildDeferred: boolean;
  /** Pairs whose class had no pipeline (not collided: their slots are stale); 0 unless the kinds given were wrong. */
  uncollided: number;
  /**
   * Manifold reuse: pairs that kept last frame's manifold (depths recomputed), pairs proven still
   * apart, and pairs collided anew.
   */
  reused: number;
  apart: number;
  collided: number;
}

/**
 * How a frame is recorded for a caller that reads its counts after it and, when they say so,
 * encodes it again with `retry` (step() does both). Both default false.
 */
export interface FrameRecording {
  /**
   * An update frame without the broadphase's rebuild sorts (unless a rebuild is planned:
   * BroadphaseInputs.deferRebuild): a frame that needs one finds no pairs and its counts say
   * `rebuildDeferred`.
   */
  deferRebuild?: boolean;
  /**
   * With deferRebuild, a frame expected to keep last frame's list (BroadphaseInputs.expectHeld):
   * one where a body left its fat box finds no pairs, its counts say `rebuildDeferred`, and
   * recorded again with `retry` it updates.
   */
  expectHeld?: boolean;
  /**
   * A frame whose pairs overflow hands its later stages none (BroadphaseInputs.discardOverflow):
   * its counts say `pairsOverflow` and nothing else of it is worth reading.
   */
  discardOverflow?: boolean;
}

/**
 * What a frame's timestamp queries time: `true`, each stage and the frame's span; `'span'`, the
 * span alone, two timestamps a frame (on a software adapter every timed pass costs a flush:
 * docs/frame.md, *The stage timers cost lavapipe too*); `false`, nothing.
 */
export type FrameTimestamps = boolean | 'span';

/**
 * `timestamps` as the frames take it (`path` names it in the error), checked against the device:
 * timing needs the 'timestamp-query' feature, which a device has only when asked for it. Left
 * out, it is true where the device has that feature.
 */
export function checkFrameTimestamps(
  device: GPUDevice,
  given: unknown,
  path = 'timestamps',
): FrameTimestamps {
  const timestamps = given ?? device.features.has('timestamp-query');
  if (timestamps !== true && timestamps !== false && timestamps !== 'span')
    throw new InputError(path, `must be true, false or 'span', got ${String(timestamps)}`);
  if (timestamps !== false && !device.features.has('timestamp-query'))
    throw new InputError(
      path,
      `${String(timestamps)} needs the device's 'timestamp-query' feature, which it was created without (pass false)`,
    );
  return timestamps;
}

/** GPU milliseconds per stage of a frame created with `timestamps` true. */
export interface FrameTimings {
  broadphase: number;
  /** Manifold reuse (reused pairs, the list of the others, their anchors), summed over the batches. */
  reuse: number;
  /** The narrowphase (classification and class kernels), summed over the batches. */
  narrowphase: number;
  /** Compaction, summed over the batches. */
  compaction: number;
  persistence: number;
  /** The sum of the stages' passes. */
  total: number;
}

export interface FrameResult {
  counts: FrameCounts;
  /** Dense entries (the dimension's ContactManifold layout), counts.contacts of them, ordered by (bodyA, bodyB). */
  contacts: ArrayBuffer;
  /** User values per entry, carried from last frame by pair and feature id (none: userValues false). */
  userValues: ArrayBuffer;
  /** Contact events: pairs a0, b0, … that began touching (in list order), and that stopped (in last frame's order). */
  began: Uint32Array;
  ended: Uint32Array;
  /** Times the frame was recorded (more than 1 after a buffer grew). */
  runs: number;
  /** Batches of the last run. */
  batches: number;
  /** Per stage, with `timestamps` true; else null. */
  timings: FrameTimings | null;
  /**
   * From the start of the frame's first pass to the end of its last, on the GPU (ms): the stages
   * and the gaps between their passes. With `timestamps` true or 'span'; else null.
   */
  spanMs: number | null;
  wallMs: number;
}

/** How step() hands its lists over. */
export interface StepOptions {
  /**
   * 'copies' (the default): contacts, userValues, began and ended are new buffers, the caller's
   * to keep. 'kept': they are views of host memory the frame keeps and refills at its next kept
   * step(), valid until then (copy what must outlive it): no allocation per frame, and no new
   * buffer whose first write faults its pages in (docs/frame.md, *Host memory for readback*).
   */
  results?: ResultsMode;
}

/** step()'s result with `results: 'kept'`: the lists as views of the frame's host memory. */
export interface FrameResultKept extends Omit<FrameResult, 'contacts' | 'userValues'> {
  contacts: Uint8Array;
  userValues: Uint8Array;
}

/** What every batch of one GpuFrame.encode() shares. */
interface FrameBatches<I> {
  encoder: GPUCommandEncoder;
  inputs: I;
  bp: BroadphaseOutputs;
  batchPairs: number;
  manifolds: GPUBuffer;
  flags: GPUBuffer;
  anchorsCur: GPUBuffer;
  /** Last frame's anchors, whole; each batch binds its window of them (anchorWindow). */
  anchorsPrev: GPUBuffer | null;
  /** ReuseInputs.twins: anchorsCur holds what the frame before last wrote there. */
  twins: boolean;
  /** ReuseInputs.manifoldsHeld: the manifold slots hold last frame's, pair for pair. */
  manifoldsHeld: boolean;
  anchorInputs: ReturnType<FrameDimension<I, string, string>['anchorInputs']>;
  timer: PassTimer | null;
}

export class GpuFrame<
  I extends FrameInputsBase<K>,
  C extends string = string,
  K extends string = string,
> {
  private readonly manifolds: GrowingBuffer;
  private timer: PassTimer | null = null;
  /** Timestamps in empty passes before the broadphase and after the contact stage: the frame's span. */
  private readonly spanTimer: PassTimer | null;
  private timerBatches = 0;
  private batchLimit = 0;
  private anchorBindingLimit = 0;
  private last: FrameOutputs | null = null;
  /** The last step()'s broadphase counts, for the next one's choice of recording (runUntilFits). */
  private lastStep: {
    bodyCount: number;
    moved: number;
    stale: number;
    /** Its list was last frame's (an update in which no body left its fat box). */
    unchanged: boolean;
  } | null = null;
  /** Per pair slot: the reuse status (REUSE_STATUS). */
  private readonly reuseFlags: GrowingBuffer;
  /** The mappable buffers of step()'s and readCounts()' readbacks, kept between frames. */
  private readonly readback: ReadbackBuffers;
  /** step()'s kept host memory for its lists (results: 'kept'). */
  private readonly hostLists = new HostBuffers();
  /** Anchors of the last frame and this one (alternating). */
  private readonly anchors: [GrowingBuffer, GrowingBuffer];
  private anchorParity = 0;
  /** Whether the anchors of the last frame recorded (and of a retry's first recording) can be read. */
  private anchorsValid = false;
  private readsAnchors = false;
  /** The compaction's counts of the collided pairs (CONTACT_STATUS_COUNTS), summed over the batches. */
  private readonly reuseCounts: GPUBuffer;
  /** Per batch of one submit: the slots its reuse pass leaves to the classes (reuseWorkList). */
  private readonly workLists: GrowingBuffer[] = [];

  protected constructor(
    readonly device: GPUDevice,
    readonly dimension: FrameDimension<I, C, K>,
    readonly broadphase: GpuBroadphase,
    readonly contacts: GpuContacts,
    /** The narrowphase: the pair classes' pipelines and their classifier. */
    readonly classes: GpuPairClasses<C, I>,
    /** Manifold reuse between frames, and the list of the pairs it leaves to the classes. */
    private reuseStage: GpuReuse,
    private readonly timestamps: FrameTimestamps,
  ) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.manifolds = new GrowingBuffer(
      device,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
      `${dimension.label}-manifolds`,
    );
    this.reuseFlags = new GrowingBuffer(device, S, `${dimension.label}-reuse-flags`);
    this.readback = new ReadbackBuffers(device, `${dimension.label}-readback`);
    this.anchors = [
      new GrowingBuffer(device, S, `${dimension.label}-anchors-0`),
      new GrowingBuffer(device, S, `${dimension.label}-anchors-1`),
    ];
    this.reuseCounts = device.createBuffer({
      label: `${dimension.label}-reuse-counts`,
      size: CONTACT_STATUS_COUNTS.bytes,
      usage: S,
    });
    this.spanTimer = timestamps !== false ? new PassTimer(device, ['frame']) : null;
  }

  /** Manifold reuse between frames (its module follows the compiled classes: prepare()). */
  get reuse(): GpuReuse {
    return this.reuseStage;
  }

  /**
   * Compiles the pipelines of the classes shapes of `kinds` can form (those missing), in parallel,
   * and the reuse stage anew when its module was specialised to fewer classes.
   */
  async prepare(kinds: readonly K[]): Promise<void> {
    await this.classes.prepare(this.dimension.classesOfKinds(kinds));
    const kernel = this.dimension.reuse.kernelFor(this.classes.compiled);
    if (kernel === this.reuseStage.kernel) return;
    const old = this.reuseStage;
    this.reuseStage = await GpuReuse.create(this.device, this.dimension.reuse, {
      windows: old.windows,
      kernel,
      stores: old.stores,
      list: true,
    });
    old.destroy();
  }

  /** Milliseconds each class's pipeline took to compile (first dispatch included). */
  get compileMs(): Partial<Record<C, number>> {
    return this.classes.compileMs;
  }

  /**
   * The most pairs one batch can hold on this device (a multiple of 256): a batch binds its
   * manifold slots and its anchors, each within one binding; an anchor is the larger.
   */
  maxBatchPairs(): number {
    const limit = Math.min(
      this.device.limits.maxStorageBufferBindingSize,
      this.device.limits.maxBufferSize,
    );
    const slotBytes = Math.max(this.dimension.manifoldBytes, this.dimension.reuse.anchorBytes);
    return Math.max(BATCH_ALIGN, Math.floor(limit / slotBytes / BATCH_ALIGN) * BATCH_ALIGN);
  }

  /**
   * Pairs per batch in later frames: at most `pairs` (rounded down to a multiple of 256, at least
   * 256), or 0 (the default): as many as one binding holds. Tests force small batches with it.
   */
  setBatchPairs(pairs: number): void {
    if (!Number.isInteger(pairs) || pairs < 0)
      throw new RangeError(`batchPairs must be an integer >= 0, got ${pairs}`);
    this.batchLimit = pairs;
  }

  private batchPairs(capacity: number): number {
    const max =
      this.batchLimit > 0
        ? Math.max(BATCH_ALIGN, Math.floor(this.batchLimit / BATCH_ALIGN) * BATCH_ALIGN)
        : this.maxBatchPairs();
    return Math.min(max, Math.ceil(capacity / BATCH_ALIGN) * BATCH_ALIGN);
  }

  private frameTimer(batches: number): PassTimer | null {
    if (this.timestamps !== true) return null;
    if (!this.timer || this.timerBatches !== batches) {
      this.timer?.destroy();
      this.timer = new PassTimer(
        this.device,
        Array.from({ length: batches }, (_, b) => [
          `reuse${b}`,
          `kernel${b}`,
          `anchors${b}`,
          `compact${b}`,
        ]).flat(),
      );
      this.timerBatches = batches;
    }
    return this.timer;
  }

  /**
   * Records the frame into `encoder`. Submit it before the next encode() on this instance.
   * `retry` re-records the same frame after an overflow (persistence then still reads last frame).
   * `recording`: how step() records, for callers that read the counts after every frame and
   * encode it again with `retry` when they say so (FrameRecording).
   */
  encode(
    encoder: GPUCommandEncoder,
    inputs: I,
    retry = false,
    recording: FrameRecording = {},
  ): FrameOutputs {
    const label = this.dimension.label;
    const reuse = onUnlessFalse('inputs.reuse', inputs.reuse);
    const { events, userValues } = checkContactOptions('inputs', inputs);
    this.checkPairClasses(inputs);
    const capacity = this.broadphase.defaultCapacity(inputs.bodyCount);
    const batchPairs = this.batchPairs(capacity);
    if (this.spanTimer)
      encoder
        .beginComputePass(this.spanTimer.passDescriptor('frame', `${label}.start`, 'begin'))
        .end();
    const bp = this.broadphase.encode(encoder, {
      ...this.dimension.broadphaseInputs(inputs),
      capacity,
      batchPairs,
      retry,
      deferRebuild: recording.deferRebuild === true,
      expectHeld: recording.expectHeld === true,
      discardOverflow: recording.discardOverflow === true,
      fatMargin: inputs.fatMargin ?? FAT_AABB_MARGIN,
      ...(inputs.remap ? { remap: inputs.remap } : {}),
    });
    const batches = bp.batchCount;
    const manifolds = this.manifolds.ensure(batchPairs * this.dimension.manifoldBytes);
    const timer = this.frameTimer(batches);
    this.contacts.begin(
      encoder,
      {
        pairCountSource: { buffer: bp.counts, offset: 4 * BROADPHASE_LAYOUT.counts.written },
        pairSlots: bp.capacity,
        prevSlot: bp.prevSlot,
        capacity: this.contacts.defaultCapacity(bp.capacity),
        retry,
        events,
        userValues,
      },
      batches,
    );
    this.classes.reserve(batches);
    // Written and read on the GPU, its length zeroed and copied (the classifier's count).
    const listUsage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    while (this.workLists.length < batches) {
      const label = `${this.dimension.label}-work-list-${this.workLists.length}`;
      this.workLists.push(new GrowingBuffer(this.device, listUsage, label));
    }
    const { anchorsCur, anchorsPrev, twins } = this.anchorBuffers(reuse, bp.capacity, retry);
    // Slot k is pair k's in both frames when both ran in one batch on this buffer (and no retry
    // rewrote it: twins says so).
    const manifoldsHeld =
      twins && batches === 1 && this.last?.batches === 1 && this.last.manifolds === manifolds;
    const flags = this.reuseFlags.ensure(4 * bp.capacity);
    const anchorInputs = this.dimension.anchorInputs(inputs);
    const ctx = {
      encoder,
      inputs,
      bp,
      batchPairs,
      manifolds,
      flags,
      anchorsCur,
      anchorsPrev,
      twins,
      manifoldsHeld,
    };
    encoder.clearBuffer(this.reuseCounts);
    for (let b = 0; b < batches; b++) this.encodeBatch({ ...ctx, anchorInputs, timer }, b);
    const contacts = this.contacts.finish();
    timer?.resolve(encoder);
    if (this.spanTimer) {
      encoder.beginComputePass(this.spanTimer.passDescriptor('frame', `${label}.end`, 'end')).end();
      this.spanTimer.resolve(encoder);
    }
    this.last = { broadphase: bp, manifolds, batches, contacts };
    return this.last;
  }

  /** Refuses a frame that may need pair classes this instance did not compile. */
  private checkPairClasses(inputs: I): void {
    const label = this.dimension.label;
    // A reuse module specialised to one class runs wrong on pairs of others.
    if (this.dimension.reuse.kernelFor(this.classes.compiled) !== this.reuseStage.kernel)
      throw new Error(
        `${label}.encode: pair classes were compiled outside frame.prepare(), or one is still running (now ${this.classes.compiled.join(', ')}); ` +
          `its reuse stage was compiled for ${this.reuseStage.kernel} alone: await frame.prepare(kinds)`,
      );
    if (inputs.kinds) {
      this.classes.require(this.dimension.classesOfKinds(inputs.kinds), `${label}.encode`);
    } else if (this.classes.compiled.length < this.classes.dimension.classes.length) {
      throw new MissingPairClassError(
        `${label}.encode: this frame compiled the pair classes ${this.classes.compiled.join(', ') || '(none)'} only; ` +
          'give inputs.kinds (the shape kinds in the shapes buffer) so that it can check the scene needs no other',
      );
    }
  }

  /** Manifold reuse: last frame's anchors (prevSlot indexes them) and this frame's. */
  private anchorBuffers(
    reuse: boolean,
    pairSlots: number,
    retry: boolean,
  ): { anchorsCur: GPUBuffer; anchorsPrev: GPUBuffer | null; twins: boolean } {
    const anchorBytes = this.dimension.reuse.anchorBytes;
    if (!retry) {
      this.anchorParity ^= 1;
      this.readsAnchors = this.anchorsValid;
    }
    const held = this.anchors[this.anchorParity].buffer;
    const anchorsCur = this.anchors[this.anchorParity].ensure(anchorBytes * pairSlots);
    const prev = this.anchors[this.anchorParity ^ 1].buffer;
    const anchorsPrev = prev && reuse && this.readsAnchors ? prev : null;
    this.anchorsValid = true;
    // This frame's buffer holds what the frame before last wrote there, unless it was just
    // reallocated or a retry's first recording rewrote it.
    const twins = anchorsPrev !== null && !retry && anchorsCur === held;
    return { anchorsCur, anchorsPrev, twins };
  }

  /**
   * The part of last frame's anchors batch [first, first + slots) binds: all of them where one
   * binding holds them, else a window around the batch's slots. Pairs whose last slot lies
   * outside it are collided afresh.
   */
  private anchorsPrevWindow(
    prev: GPUBuffer | null,
    first: number,
    slots: number,
  ): GPUBufferBinding | null {
    if (!prev) return null;
    const anchorBytes = this.dimension.reuse.anchorBytes;
    const binding = this.anchorBindingLimit || this.device.limits.maxStorageBufferBindingSize;
    const align = anchorAlignment(anchorBytes, this.device.limits.minStorageBufferOffsetAlignment);
    const anchors = Math.floor(prev.size / anchorBytes);
    const reach = Math.max(align, Math.floor(binding / anchorBytes));
    const w = anchorWindow(first, slots, anchors, reach, align);
    return { buffer: prev, offset: w.first * anchorBytes, size: w.count * anchorBytes };
  }

  /**
   * Bytes of last frame's anchors one batch binds at most, or 0 (the default): the device's
   * maxStorageBufferBindingSize. Tests force a short binding with it.
   */
  setAnchorBindingLimit(bytes: number): void {
    if (!Number.isInteger(bytes) || bytes < 0)
      throw new RangeError(`anchorBindingLimit must be an integer >= 0, got ${bytes}`);
    this.anchorBindingLimit = bytes;
  }

  /** Batch `b`'s slices of the frame's buffers, and where the GPU wrote its pair count and grids. */
  private batchSlices(ctx: FrameBatches<I>, b: number) {
    const B = BROADPHASE_LAYOUT.batch;
    const { bp, batchPairs } = ctx;
    const anchorBytes = this.dimension.reuse.anchorBytes;
    const first = b * batchPairs;
    const slots = Math.min(batchPairs, bp.capacity - first);
    // The broadphase wrote this batch's pair count on the GPU (its narrowphase params): the
    // reuse stage and the classifier read it there.
    const count = {
      buffer: bp.batches,
      offset: b * B.bytes + 4 * (B.narrowphase + this.classes.dimension.params.pairCount),
    };
    const grids: BatchGrids = {
      buffer: bp.batches,
      pairs: b * B.bytes + 4 * B.x,
    };
    return {
      first,
      slots,
      count,
      grids,
      pairGrid: { buffer: bp.batches, offset: grids.pairs },
      pairs: { buffer: bp.pairs, offset: 8 * first, size: 8 * slots },
      manifolds: {
        buffer: ctx.manifolds,
        offset: 0,
        size: slots * this.dimension.manifoldBytes,
      },
      flags: { buffer: ctx.flags, offset: 4 * first, size: 4 * slots },
      workList: this.workLists[b]!.ensure(reuseListBytes(slots)),
      anchors: {
        buffer: ctx.anchorsCur,
        offset: anchorBytes * first,
        size: anchorBytes * slots,
      },
    };
  }

  /** Records batch `b`: reuse, work list, classify and collide, anchors, compaction. */
  private encodeBatch(ctx: FrameBatches<I>, b: number): void {
    const { encoder, inputs, bp, timer } = ctx;
    const label = this.dimension.label;
    const s = this.batchSlices(ctx, b);
    const mark = (stage: string, writes: 'begin' | 'end'): void => {
      if (timer)
        encoder.beginComputePass(timer.passDescriptor(stage, `${label}.${stage}`, writes)).end();
    };
    mark(`reuse${b}`, 'begin');
    this.reuseStage.encodeReuse(encoder, {
      bodies: { buffer: inputs.bodies },
      pairs: s.pairs,
      pairCount: s.count,
      prevSlot: { buffer: bp.prevSlot, offset: 4 * s.first, size: 4 * s.slots },
      firstSlot: s.first,
      twins: ctx.twins,
      manifoldsHeld: ctx.manifoldsHeld,
      anchorsPrev: this.anchorsPrevWindow(ctx.anchorsPrev, s.first, s.slots),
      anchorsCur: s.anchors,
      manifolds: s.manifolds,
      flags: s.flags,
      workList: { buffer: s.workList },
      margin: inputs.margin,
      window: b,
      grid: s.pairGrid,
    });
    const work = reuseWorkList(s.workList, 0, s.slots);
    mark(`reuse${b}`, 'end');
    this.classes.encode(
      encoder,
      {
        inputs,
        pairs: s.pairs,
        manifolds: s.manifolds,
        slots: s.slots,
        count: work.count,
        workList: work.list,
        margin: inputs.margin,
      },
      b,
      {
        classify: timer
          ? timer.passDescriptor(`kernel${b}`, `${label}.classify`, 'begin')
          : { label: `${label}.classify` },
        collide: timer
          ? timer.passDescriptor(`kernel${b}`, `${label}.narrowphase`, 'end')
          : { label: `${label}.narrowphase` },
      },
    );
    mark(`anchors${b}`, 'begin');
    this.reuseStage.encodeAnchors(encoder, {
      ...ctx.anchorInputs,
      bodies: { buffer: inputs.bodies },
      pairs: s.pairs,
      pairCount: s.count,
      manifolds: s.manifolds,
      workList: work,
      anchorsCur: s.anchors,
      margin: inputs.margin,
      window: b,
      // Over the work list's entries (the classifier's items), not every pair of the batch.
      grid: this.classes.itemGrid(),
    });
    mark(`anchors${b}`, 'end');
    const { first, slots, grids } = s;
    this.contacts.compactBatch(
      {
        manifolds: ctx.manifolds,
        pairs: bp.pairs,
        pairsOffset: 8 * first,
        first,
        slots,
        grids,
        status: s.flags,
        statusCounts: { buffer: this.reuseCounts },
      },
      timer ? timer.passDescriptor(`compact${b}`, `${label}.compact`) : undefined,
    );
  }

  /**
   * Forgets every frame before: the next one finds its pairs anew (new fat boxes), carries no user
   * values and reports every touching pair as begun. For a world whose bodies were replaced.
   */
  reset(): void {
    this.lastStep = null;
    this.broadphase.reset();
    this.contacts.reset();
    this.anchorsValid = false;
  }

  /** The outputs of the last encode() (its buffers: valid until the next encode()), or null. */
  lastOutputs(): FrameOutputs | null {
    return this.last;
  }

  /** The counts of the last submitted frame (one readback). */
  async readCounts(): Promise<FrameCounts> {
    if (!this.last) throw new Error('readCounts() before any encode()');
    const C = BROADPHASE_LAYOUT.counts;
    const K = this.contacts.dimension.layout.counts;
    const [bpBytes, ctBytes, skippedBytes, statusCountBytes] = await readBuffers(
      this.device,
      [
        { buffer: this.last.broadphase.counts, bytes: C.bytes },
        { buffer: this.last.contacts.counts, bytes: K.bytes },
        this.classes.skippedRegion(),
        { buffer: this.reuseCounts, bytes: CONTACT_STATUS_COUNTS.bytes },
      ],
      this.readback,
    );
    const bp = new Uint32Array(bpBytes);
    const ct = new Uint32Array(ctBytes);
    const skipped = this.classes.skipped(skippedBytes);
    // The compaction counted the collided pairs and those of them that touch (from the reuse
    // status); every other pair was reused: kept (it touches) or proven apart.
    const status = new Uint32Array(statusCountBytes);
    const collided = status[CONTACT_STATUS_COUNTS.collided];
    const kept = Math.max(0, ct[K.total] - status[CONTACT_STATUS_COUNTS.touching]);
    return {
      pairs: bp[C.total],
      pairsOverflow: bp[C.overflow] !== 0,
      contacts: ct[K.total],
      contactsOverflow: ct[K.overflow] !== 0,
      began: ct[K.began],
      ended: ct[K.ended],
      moved: bp[C.moved],
      rebuilt: bp[C.mode] === BROADPHASE_MODE.rebuild,
      stale: bp[C.stale],
      rebuildDeferred: bp[C.mode] === BROADPHASE_MODE.deferred,
      uncollided: Object.values<number>(skipped).reduce((a, n) => a + n, 0),
      reused: kept,
      apart: Math.max(0, bp[C.written] - collided - kept),
      collided,
    };
  }

  /**
   * One frame with readback: encodes, submits, and when a buffer overflowed grows it and runs the
   * frame again (the result then equals an unconstrained run); reads the dense contacts back.
   * Two round trips to the GPU: the counts, then the lists they size (and the timings). With
   * `results: 'kept'` the lists arrive in host memory the frame keeps (StepOptions).
   */
  async step(inputs: I, options?: StepOptions & { results?: 'copies' }): Promise<FrameResult>;
  async step(inputs: I, options: StepOptions & { results: 'kept' }): Promise<FrameResultKept>;
  async step(inputs: I, options: StepOptions = {}): Promise<FrameResult | FrameResultKept> {
    const results = resultsMode(options);
    const start = performance.now();
    const { counts, runs } = await this.runUntilFits(inputs);
    const out = this.last!;
    const L = this.contacts.dimension.layout;
    const entries = counts.contacts;
    const regions = [
      { buffer: out.contacts.contacts, bytes: entries * L.contact.bytes },
      {
        buffer: out.contacts.userValues,
        bytes: inputs.userValues === false ? 0 : entries * L.userValues.bytes,
      },
      { buffer: out.contacts.began, bytes: 8 * counts.began },
      { buffer: out.contacts.ended, bytes: 8 * counts.ended },
    ];
    const [lists, { timings, spanMs }] = await Promise.all([
      results === 'kept'
        ? readBuffersInto(this.device, regions, this.hostLists, this.readback)
        : readBuffers(this.device, regions, this.readback),
      this.readTimings(),
    ]);
    const [contacts, userValues, began, ended] = lists;
    return {
      counts,
      contacts,
      userValues,
      began: u32Words(began!),
      ended: u32Words(ended!),
      runs,
      batches: out.batches,
      timings,
      spanMs,
      wallMs: performance.now() - start,
    } as FrameResult | FrameResultKept;
  }

  /**
   * Encodes, submits and reads the counts until nothing overflowed (three runs at most, and one
   * more after a deferred rebuild). An update frame is recorded without the rebuild's sorts unless
   * last frame's counts say a rebuild is near; one that needs it all the same runs again.
   */
  private async runUntilFits(inputs: I): Promise<{ counts: FrameCounts; runs: number }> {
    let runs = 0;
    let overflows = 0;
    // Bodies that left their fat boxes: a retry finds them inside the boxes its first run made.
    let moved = 0;
    let counts: FrameCounts;
    for (;;) {
      // A command the device refuses (a destroyed input, a binding past a limit) leaves the counts
      // of the frame before in place: caught here, it is reported, not read as this frame's.
      const first = runs === 0;
      const label = this.dimension.label;
      const refused = refusedCommands(this.device, label, "the frame's commands", () => {
        const encoder = this.device.createCommandEncoder({ label });
        this.encode(encoder, inputs, !first, {
          deferRebuild: first && this.rebuildUnlikely(inputs),
          expectHeld: first && this.heldLikely(inputs),
          discardOverflow: true,
        });
        this.device.queue.submit([encoder.finish()]);
      });
      runs++;
      counts = await this.readCounts();
      const refusal = await refused;
      if (refusal) {
        // The frame's buffers hold nothing valid: no later frame may reuse or persist them.
        this.reset();
        throw refusal;
      }
      if (counts.uncollided > 0) await this.refuseUncollided(counts);
      moved = Math.max(moved, counts.moved);
      if (counts.rebuildDeferred) continue;
      if (!counts.pairsOverflow && !counts.contactsOverflow) break;
      if (++overflows > 2)
        throw new Error(
          `${this.dimension.label}: still overflowing after ${runs} runs (pairs ${counts.pairs}, contacts ${counts.contacts})`,
        );
      this.growAfterOverflow(counts);
    }
    const unchanged = runs === 1 && counts.moved === 0 && !counts.rebuilt;
    this.lastStep = { bodyCount: inputs.bodyCount, moved, stale: counts.stale, unchanged };
    return { counts, runs };
  }

  /**
   * Whether this frame's broadphase will likely update, by last step's counts: its stale bodies
   * and twice its moved ones (as many moving again) within what an update carries.
   */
  private rebuildUnlikely(inputs: I): boolean {
    const last = this.lastStep;
    if (!last || last.bodyCount !== inputs.bodyCount) return false;
    return last.stale + 2 * last.moved <= this.broadphase.staleCapacity(inputs.bodyCount);
  }

  /**
   * Whether this frame's list will likely be held, by last step's counts: its list was the one
   * before it, and the bodies are as many (a body that leaves its fat box now costs a second run;
   * the broadphase ignores the expectation where it cannot hold the list, renumbered bodies too).
   */
  private heldLikely(inputs: I): boolean {
    const last = this.lastStep;
    return last !== null && last.unchanged && last.bodyCount === inputs.bodyCount;
  }

  /** Throws for the pairs no compiled class collided (forgetting the frame first). */
  private async refuseUncollided(counts: FrameCounts): Promise<never> {
    const skipped = await this.classes.readSkipped();
    // The uncollided pairs' slots hold nothing valid: no later frame may reuse or persist them.
    this.reset();
    const missing = Object.entries<number>(skipped)
      .filter(([, n]) => n > 0)
      .map(([c, n]) => `${c}: ${n}`)
      .join(', ');
    throw new MissingPairClassError(
      `${this.dimension.label}: ${counts.uncollided} pairs of classes without a pipeline were not collided (${missing}); the shapes' kinds form classes beyond those compiled (${this.classes.compiled.join(', ')})`,
    );
  }

  /** Grows the pair and contact capacities that overflowed, or refuses what the device cannot bind. */
  private growAfterOverflow(counts: FrameCounts): void {
    if (counts.pairsOverflow) {
      const max = this.broadphase.maxCapacity();
      if (counts.pairs > max)
        throw new CapacityError(
          `${this.dimension.label}: ${counts.pairs} pairs need ${8 * counts.pairs} bytes; this device binds at most ${8 * max} bytes per buffer.`,
        );
      this.broadphase.setCapacity(Math.min(max, Math.ceil(counts.pairs * CONTACTS_GROWTH)));
    }
    if (counts.contactsOverflow) {
      const max = this.contacts.maxCapacity();
      if (counts.contacts > max) {
        const binding = this.device.limits.maxStorageBufferBindingSize;
        throw new CapacityError(
          `${this.dimension.label}: ${counts.contacts} touching pairs; this device's bindings (maxStorageBufferBindingSize ${binding} bytes) hold a dense list of at most ${max}, in two pages. ` +
            "Create the device with the adapter's larger limit (acquireDevice() asks for the largest) or collide fewer bodies per frame.",
        );
      }
      this.contacts.setCapacity(Math.min(max, Math.ceil(counts.contacts * CONTACTS_GROWTH)));
    }
  }

  /**
   * The times of the last frame encode() recorded, after its submit (step() reads them into its
   * result): per stage with `timestamps` true, the span with true or 'span'; else null. Read them
   * before the next encode() is submitted, one read at a time.
   */
  async readTimings(): Promise<{ timings: FrameTimings | null; spanMs: number | null }> {
    if (!this.last) throw new Error('readTimings() before any encode()');
    const [timings, spanMs] = await Promise.all([
      this.readFrameTimings(this.last.batches),
      this.spanTimer ? this.spanTimer.readMs('frame') : null,
    ]);
    return { timings, spanMs };
  }

  /** The last frame's stage timings, summed over its batches; null unless `timestamps` is true. */
  private async readFrameTimings(batches: number): Promise<FrameTimings | null> {
    if (this.timestamps !== true) return null;
    // The timers' maps wait together (and with the span's): one round trip, not four.
    const [bt, ctt, t] = await Promise.all([
      this.broadphase.readTimings(),
      this.contacts.readTimings(),
      this.timer?.read(),
    ]);
    if (!(t && bt && ctt)) return null;
    let reuse = 0;
    let narrowphase = 0;
    let compaction = 0;
    for (let b = 0; b < batches; b++) {
      reuse += t[`reuse${b}`] + t[`anchors${b}`];
      narrowphase += t[`kernel${b}`];
      compaction += t[`compact${b}`];
    }
    const broadphase = bt.total;
    const total = broadphase + reuse + narrowphase + compaction + ctt.persist;
    return {
      broadphase,
      reuse,
      narrowphase,
      compaction,
      persistence: ctt.persist,
      total,
    };
  }

  destroy(): void {
    this.manifolds.destroy();
    this.reuseFlags.destroy();
    this.readback.destroy();
    for (const a of this.anchors) a.destroy();
    this.reuseCounts.destroy();
    this.reuseStage.destroy();
    for (const w of this.workLists) w.destroy();
    this.classes.destroy();
    this.timer?.destroy();
    this.spanTimer?.destroy();
    this.broadphase.destroy();
    this.contacts.destroy();
  }
}
