// The GPU broadphase, one implementation for 2D and 3D: the pairs of overlapping fat boxes, found
// by WGSL kernels (shaders/broadphase.wgsl after a per-dimension shaders/aabb2d.wgsl or
// aabb3d.wgsl, with radixsort.wgsl and scan.wgsl), kept from frame to frame:
//
//   aabb     each body's tight box (grown as the host grows it: radius + margin + pads against f32
//            rounding), against the fat box it keeps (grown by fatMargin × its extent, as Box2D's
//            AABB margin): a body whose tight box left it takes a new one and is "moved";
//   plan     update (few moved: last frame's pairs between bodies that did not move stand, moved
//            bodies find theirs again) or rebuild (sort every body by (row, lo.x) and sweep); a
//            recording without the rebuild's sorts (deferRebuild) that needs one defers it: no
//            pairs, and the host records the frame again; so does a recording of a held frame's
//            kernels alone (expectHeld: last frame's list, in buffers that hold it) for a frame
//            in which a body left its fat box;
//   count    the pairs, counted in the group of their first body (a < b);
//   scan     exclusive prefix sums of the groups' counts: each group's offset, and the total;
//   write    the pairs into their groups, each group sorted by b: the list comes out in (a, b)
//            order by construction; then per pair its slot in last frame's list (prevSlot), the
//            counts, the narrowphase's params and its indirect dispatch arguments.
//
// With fatMargin 0 (the default) the pairs are exactly those of the host's sweep and prune
// (sweepAndPrune2D, sweepAndPrune3D). src/gpu/broadphase2d.ts and broadphase3d.ts give the
// per-dimension inputs (GpuBroadphase2D, GpuBroadphase3D).
//
// Deterministic: atomics only for order-free counts and maxima, and for placements within a group
// that its sort then orders; the pairs buffer is byte-identical from run to run. Never drops pairs
// silently: when the total exceeds the pairs buffer's capacity, only what fits is written,
// `counts.total` still holds the real total and `counts.overflow` is 1; encode the frame again
// with `retry` and a larger capacity (run() and the frames do).
//
// Lasting state: the fat boxes, the sorted structure and last frame's list live in the instance,
// so one instance serves one sequence of frames (one world). Each encode() reads the list the
// last one wrote (double-buffered): submit each encoded frame before the next encode().
//
// Memory: about 400 bytes per body (fat boxes and bounds, the structure, keys, the sort's
// ping-pong buffers, group offsets twice, up to BROADPHASE_PAIR_CACHE cached pairs), plus 20 per
// pair (the list twice, prevSlot).

import { CapacityError } from '../errors.ts';
import {
  AABB_RELATIVE_PAD,
  AABB_F32_STEPS,
  BROADPHASE_WORKGROUP_SIZE,
  BROADPHASE_PAIR_CACHE,
  BROADPHASE_MAX_BANDS,
  BROADPHASE_STALE_FRACTION,
  BROADPHASE_STALE_MIN,
} from '../constants.ts';
import { structTable, word, type BufferBindingLayout } from '../layout.ts';
import { STRUCTS_BROADPHASE } from '../reflection.generated.ts';
import { broadphaseConstantsWgsl } from './frame-wgsl.ts';
import { GpuRadixSort, type RadixSortPlan } from './radixsort.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import {
  GrowingBuffer,
  PassTimer,
  createUniformSlots,
  dispatchRows,
  readBuffer,
  upload,
} from './buffers.ts';
import { compileKernels, type Kernel, cachedBindGroup } from './pipelines.ts';

export {
  AABB_RELATIVE_PAD,
  AABB_F32_STEPS,
  BROADPHASE_WORKGROUP_SIZE,
  BROADPHASE_PAIR_CACHE,
  broadphaseConstantsWgsl,
};

const { struct } = structTable(STRUCTS_BROADPHASE, 'shaders/broadphase.wgsl');
const paramsStruct = struct('BroadphaseParams');
const boxStruct = struct('BroadphaseBox');
const FAT_BOX = {
  lo: word(boxStruct, 'lo'),
  hi: word(boxStruct, 'hi'),
  position: word(boxStruct, 'position'),
  categoryBits: word(boxStruct, 'categoryBits'),
  maskBits: word(boxStruct, 'maskBits'),
};
const FAT_BYTES = struct('BroadphaseFat').size;
const countsStruct = struct('BroadphaseCounts');
const indirectStruct = struct('DispatchIndirect');
const narrowParams = struct('BroadphaseNarrowphaseParams');
const batchStruct = struct('BroadphaseBatch');
const bandsStruct = struct('BroadphaseBands');
const stateStruct = struct('BroadphaseState');
const dispatchStruct = struct('BroadphaseDispatches');

/** Word offsets of the broadphase's GPU structs (reflected from the WGSL); the same for 2D and 3D. */
export const BROADPHASE_LAYOUT = {
  params: {
    bytes: paramsStruct.size,
    bodyCount: word(paramsStruct, 'bodyCount'),
    capacity: word(paramsStruct, 'capacity'),
    margin: word(paramsStruct, 'margin'),
    pairCache: word(paramsStruct, 'pairCache'),
    batchPairs: word(paramsStruct, 'batchPairs'),
    batchCount: word(paramsStruct, 'batchCount'),
    fatMargin: word(paramsStruct, 'fatMargin'),
    staleCapacity: word(paramsStruct, 'staleCapacity'),
    refit: word(paramsStruct, 'refit'),
    rebuild: word(paramsStruct, 'rebuild'),
    prevBodyCount: word(paramsStruct, 'prevBodyCount'),
    fatBodyCount: word(paramsStruct, 'fatBodyCount'),
    remapped: word(paramsStruct, 'remapped'),
    sorts: word(paramsStruct, 'sorts'),
    discardCut: word(paramsStruct, 'discardCut'),
    listHeld: word(paramsStruct, 'listHeld'),
    heldOnly: word(paramsStruct, 'heldOnly'),
  },
  /** The `batches` buffer: one BroadphaseBatch per batch: narrowphase params, then x, y, z for dispatchWorkgroupsIndirect. */
  batch: {
    bytes: batchStruct.size,
    narrowphase: word(batchStruct, 'narrowphase'),
    x: word(batchStruct, 'x'),
  },
  /** The `counts` buffer (BroadphaseCounts). */
  counts: {
    bytes: countsStruct.size,
    total: word(countsStruct, 'total'),
    written: word(countsStruct, 'written'),
    overflow: word(countsStruct, 'overflow'),
    bodyCount: word(countsStruct, 'bodyCount'),
    /** Start of the narrowphase's params (Params2D / Params3D) over the written pairs (copy it into its uniform). */
    narrowphase: word(countsStruct, 'narrowphase'),
    narrowphaseBytes: narrowParams.size,
    /** BROADPHASE_MODE: what the frame did. */
    mode: word(countsStruct, 'mode'),
    /** Bodies that left their fat boxes this frame. */
    moved: word(countsStruct, 'moved'),
    /** Bodies moved since the last rebuild. */
    stale: word(countsStruct, 'stale'),
  },
  /** The `indirect` buffer: x, y, z workgroups for dispatchWorkgroupsIndirect. */
  indirect: {
    bytes: indirectStruct.size,
    x: word(indirectStruct, 'x'),
    y: word(indirectStruct, 'y'),
    z: word(indirectStruct, 'z'),
  },
} as const;

/** counts.mode: last frame's pairs kept and moved bodies' found again, or every pair found anew. */
/**
 * What a frame did; `deferred`: it needed a rebuild its recording had no sorts for
 * (BroadphaseInputs.deferRebuild), or an update its held-only recording left out (expectHeld).
 */
export const BROADPHASE_MODE = { update: 0, rebuild: 1, deferred: 2 } as const;

/** prevSlot of a pair that was not in last frame's list. */
export const PREV_SLOT_NONE = 0xffffffff;

const bandsAt = word(stateStruct, 'bands');
/** BroadphaseState: the words the host clears each frame (moved, the extremes), and where its parts lie. */
const STATE = {
  /** Bytes before the per-row reach array. */
  bytes: word(stateStruct, 'reach') * 4,
  moved: word(stateStruct, 'moved'),
  /** The last word the host clears (the extremes end there). */
  extentZ: word(stateStruct, 'extentZ'),
  sortCount: word(stateStruct, 'sortCount'),
  groupCounts: word(stateStruct, 'groupCounts'),
  bands: {
    origin: bandsAt + word(bandsStruct, 'origin'),
    height: bandsAt + word(bandsStruct, 'height'),
    reach: bandsAt + word(bandsStruct, 'reach'),
    count: bandsAt + word(bandsStruct, 'count'),
  },
};
/** BroadphaseDispatches: where each record lies. */
const DISPATCH = {
  bytes: dispatchStruct.size,
  prevSlots: word(dispatchStruct, 'prevSlots'),
};

/** Stages timed with timestamp queries, in order. */
export const BROADPHASE_STAGES = ['aabb', 'sort', 'count', 'scan', 'write'] as const;
export type BroadphaseStage = (typeof BROADPHASE_STAGES)[number];
export type BroadphaseTimings = Record<BroadphaseStage, number> & { total: number };

/** Value of counts.total when the pairs do not fit in a u32 count. */
export const PAIR_COUNT_SATURATED = 0xffffffff;

/** What differs between the dimensions: the module, the body size, and the hull vertices (3D). */
export interface BroadphaseDimension {
  /** Label of the kernels and buffers: 'broadphase2d' or 'broadphase3d'. */
  label: string;
  /** The assembled module: constants, layout, aabbNd.wgsl, broadphase.wgsl. */
  wgsl: () => string;
  /** The buffers each of its entry points binds (reflected at build time). */
  entries: Readonly<Record<string, readonly BufferBindingLayout[]>>;
  /** Bytes of one Body2D / Body3D. */
  bodyBytes: number;
  /** Whether the boxes read the hull vertices (binding 14). */
  hullVertices: boolean;
  /** The narrowphase's Params2D / Params3D (word offsets): must have BroadphaseNarrowphaseParams's layout. */
  narrowphaseParams: { bytes: number; pairCount: number; margin: number; rowPitch: number };
}

/** Refuses a dimension whose narrowphase params the broadphase would write wrongly. */
function checkNarrowphaseParams(label: string, p: BroadphaseDimension['narrowphaseParams']): void {
  for (const name of ['pairCount', 'margin', 'rowPitch'] as const) {
    if (p[name] !== word(narrowParams, name) || p.bytes !== narrowParams.size) {
      throw new Error(
        `${label}: the narrowphase's params must have BroadphaseNarrowphaseParams's layout (shaders/broadphase.wgsl): ${name} differs`,
      );
    }
  }
}

export interface BroadphaseInputs {
  /** Shape2D / Shape3D array. */
  shapes: GPUBuffer;
  /** Body2D / Body3D array; the first `bodyCount` bodies take part. */
  bodies: GPUBuffer;
  /** 3D only: array<vec4f>, the hull vertices the shapes index (pack3d.ts). */
  hullVertices?: GPUBuffer;
  bodyCount: number;
  /** Boxes grow by this much (the narrowphase's speculative margin). */
  margin: number;
  /**
   * Fat boxes grow by this × the shape's extent beyond the tight box (default 0: the tight boxes'
   * pairs, those of the host's sweep and prune; the frames give FAT_AABB_MARGIN).
   */
  fatMargin?: number;
  /** Pairs the output buffer holds; default: the instance's capacity (setCapacity), or 4 per body (at least 1024). */
  capacity?: number;
  /** Pairs per narrowphase batch (outputs.batches), a multiple of 256; default: the capacity (one batch). */
  batchPairs?: number;
  /**
   * Record this frame again after an overflow: reads the same last frame (and rebuilds, since the
   * fat boxes moved on in the first recording; a first recording with `expectHeld` moved none).
   */
  retry?: boolean;
  /** Forget every fat box (bodies replaced or renumbered): new ones for all, and a rebuild. */
  refit?: boolean;
  /**
   * Record no rebuild unless the host plans one (refit, retry, a new body count): an update frame
   * leaves the rebuild's sorts idle, about 20 dispatches per sorted key. A frame that needs a
   * rebuild all the same (more bodies left their fat boxes than an update carries) then finds no
   * pairs, commits nothing and reports BROADPHASE_MODE.deferred: record it again with `retry`.
   * For callers that read the counts every frame (the frames' step()); default false.
   */
  deferRebuild?: boolean;
  /**
   * With deferRebuild, when this frame's list may be held (last frame's list was unchanged: no
   * body left its fat box, and the buffers are the ones it will hold): record a held frame's
   * kernels alone, leaving out the update's counts, scan and writes (six dispatches that would
   * each return at once). A frame in which a body did leave its box then changes no fat box, finds
   * no pairs, commits nothing and reports BROADPHASE_MODE.deferred: record it again with `retry`
   * (an update, not a rebuild). Ignored where the list cannot be held. Default false.
   */
  expectHeld?: boolean;
  /**
   * When the pairs overflow the capacity, hand the later stages none (counts.written 0, the
   * batches empty) and commit nothing: a frame that will be recorded again with room (a retry)
   * does no work on a cut list. Default false: the first `capacity` pairs are written and handed on.
   */
  discardOverflow?: boolean;
  /**
   * Bodies renumbered since last frame (removed, added, reordered): per body of this frame its
   * index last frame, or PREV_SLOT_NONE for a new one. The pairs' prevSlot then follow the bodies,
   * so contacts persist; every fat box is made anew. Ignored on a retry (the first recording had it).
   */
  remap?: Uint32Array;
}

export interface BroadphaseOutputs {
  /**
   * array<vec2u>: pairs (a < b) in (a, b) order; after the GPU work, the first
   * min(total, capacity) slots hold pairs (counts.written).
   */
  pairs: GPUBuffer;
  /** array<u32>, one per pair: the pair's slot in last frame's `pairs`, or PREV_SLOT_NONE. */
  prevSlot: GPUBuffer;
  /** array<u32>, bodyCount + 1: offsets of each body's group (its pairs as first body) in `pairs`. */
  groups: GPUBuffer;
  capacity: number;
  /** BroadphaseCounts (offsets in BROADPHASE_LAYOUT.counts). */
  counts: GPUBuffer;
  /** DispatchIndirect at offset 0: the narrowphase over counts.written pairs, its workgroup size per group. */
  indirect: GPUBuffer;
  /** BroadphaseBatch per batch (BROADPHASE_LAYOUT.batch): batch b's narrowphase params and indirect dispatch, pairs b × batchPairs on. */
  batches: GPUBuffer;
  batchPairs: number;
  batchCount: number;
}

export interface GpuBroadphaseResult {
  /** Pairs a0, b0, a1, b1, …, a < b, sorted by a then b (as the host's sweep and prune returns them). */
  pairs: Uint32Array;
  pairCount: number;
  /** The pairs as the GPU wrote them, for determinism checks. */
  gpuPairs: Uint32Array;
  /** Runs it took: 1, or 2 when the pairs buffer had to grow. */
  runs: number;
  /** The capacity of the last run. */
  capacity: number;
  /** GPU time per stage of the last run, from timestamp queries (ms), or null without them. */
  timings: BroadphaseTimings | null;
  /** Upload, every run and the readbacks, measured on the host (ms). */
  wallMs: number;
}

/** Host data run() uploads. */
export interface BroadphaseUploads {
  shapes: ArrayBuffer;
  bodies: ArrayBuffer;
  hullVertices?: ArrayBufferView;
}

/** The sorts and scans of one body count and one set of buffers. */
interface Plan {
  n: number;
  buffers: GPUBuffer[];
  sort: RadixSortPlan;
  sortBands: RadixSortPlan;
  scans: [ScanPlan, ScanPlan];
}

const KERNEL_NAMES = [
  'bpAabb',
  'bpAabbExtremes',
  'bpPlan',
  'bpSortKeys',
  'bpBands',
  'bpBandKeys',
  'bpGather',
  'bpKeptCounts',
  'bpSweepCount',
  'bpMovedCount',
  'bpWriteKept',
  'bpSweepWrite',
  'bpMovedWrite',
  'bpSortGroups',
  'bpFinalize',
  'bpPrevSlots',
  'bpBatch',
  'bpPlanHeld',
] as const;
/** Bits of the band sort's keys (BROADPHASE_MAX_BANDS < 2^16). */
const BAND_KEY_BITS = 16;

/** Batches start at multiples of this many pairs (binding offsets of 8 × 256 bytes meet any offset alignment). */
export const BATCH_ALIGN = 256;
type KernelName = (typeof KERNEL_NAMES)[number];

/** The kernels, sort and scan of one dimension, compiled for a device. */
export interface BroadphaseParts {
  kernels: Record<KernelName, Kernel>;
  bindings: Record<KernelName, number[]>;
  sorter: GpuRadixSort;
  scanner: GpuScan;
}

// A function: in Node, GPUBufferUsage exists only once Dawn is loaded.
const storageUsage = (): number =>
  GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** What the next frame must know of the last one the instance recorded. */
interface LastFrame {
  bodyCount: number;
  margin: number;
  fatMargin: number;
  /** The buffers of its fat boxes and structure: a replaced one (grown) holds nothing. */
  fat: GPUBuffer[];
  /** Its pair list and group offsets. */
  list: GPUBuffer[];
  /** The pair list and groups it read (the frame before it wrote) and the prevSlot it wrote. */
  prevPairs: GPUBuffer;
  prevGroups: GPUBuffer;
  prevSlot: GPUBuffer;
}

/** The sizes of one encode, checked. */
interface FrameSizes {
  n: number;
  fatMargin: number;
  capacity: number;
  batchPairs: number;
  batchCount: number;
}

/** One encode's buffers and mode, decided before any command is recorded. */
interface FramePlan extends FrameSizes {
  /** Writes the same list again, from the same last frame. */
  retry: boolean;
  /** Which of the two pair lists this frame writes. */
  cur: number;
  staleCapacity: number;
  finders: number;
  cacheSlots: number;
  plan: Plan;
  fat: GPUBuffer[];
  prevList: GPUBuffer[];
  pairs: GPUBuffer;
  groups: GPUBuffer;
  prevSlot: GPUBuffer;
  /**
   * This frame's pair list and groups are those last frame read, and prevSlot the one it wrote:
   * when the list stays unchanged two frames running, they already hold what bpKeptCounts, the
   * groups' scan and bpPrevSlots would write.
   */
  listHeld: boolean;
  prevBodyCount: number;
  fatBodyCount: number;
  remapped: boolean;
  refit: boolean;
  rebuild: boolean;
  /** The recording holds the rebuild's sorts (always, unless deferRebuild and no rebuild planned). */
  sorts: boolean;
  /** The recording holds a held frame's kernels alone (BroadphaseInputs.expectHeld, where it can). */
  heldOnly: boolean;
  remapBuffer: GPUBuffer;
  batches: GPUBuffer;
}

/**
 * Pairs per finder the counting pass keeps for `finders` finders: BROADPHASE_PAIR_CACHE, or what
 * fits in a binding of `limit` bytes beside each finder's own word (the finders' buffer is
 * `8 * finders * (1 + slots)` bytes).
 */
export function finderCacheSlots(limit: number, finders: number): number {
  const perFinder = Math.floor(limit / (8 * Math.max(1, finders)));
  return Math.max(0, Math.min(BROADPHASE_PAIR_CACHE, perFinder - 1));
}

export class GpuBroadphase {
  /** Default pairs capacity; 0: 4 per body, at least 1024. */
  private capacity = 0;
  private readonly params: GPUBuffer;
  private readonly grown: Record<string, GrowingBuffer> = {};
  private readonly counts: GPUBuffer;
  private readonly indirect: GPUBuffer;
  private readonly state: GPUBuffer;
  private readonly dispatch: GPUBuffer;
  private plan: Plan | null = null;
  /** Which of the two pair lists (and group offsets) this frame writes. */
  private parity = 0;
  private last: LastFrame | null = null;
  /** The frame before `last`: what a retry of `last` reads. */
  private beforeLast: LastFrame | null = null;
  /** Whether `last` was recorded held-only: its fat boxes are as it found them (a retry updates). */
  private lastHeldOnly = false;
  /** The remap `last` was recorded with (a retry of it uses it again). */
  private lastRemap: Uint32Array | null = null;
  private readonly timer: PassTimer | null;
  private readonly kernels: Record<KernelName, Kernel>;
  private readonly bindings: Record<KernelName, number[]>;
  private readonly sorter: GpuRadixSort;
  private readonly scanner: GpuScan;

  protected constructor(
    readonly device: GPUDevice,
    readonly dimension: BroadphaseDimension,
    parts: BroadphaseParts,
    timestamps: boolean,
  ) {
    ({
      kernels: this.kernels,
      bindings: this.bindings,
      sorter: this.sorter,
      scanner: this.scanner,
    } = parts);
    const STORAGE = storageUsage();
    const label = dimension.label;
    this.params = createUniformSlots(device, `${label}-params`, 1);
    const fixed = (name: string, bytes: number, usage = STORAGE): GPUBuffer =>
      device.createBuffer({ label: `${label}-${name}`, size: Math.max(16, bytes), usage });
    this.counts = fixed('counts', BROADPHASE_LAYOUT.counts.bytes);
    this.indirect = fixed('indirect', 16, STORAGE | GPUBufferUsage.INDIRECT);
    this.state = fixed('state', STATE.bytes + 4 * BROADPHASE_MAX_BANDS);
    this.dispatch = fixed('dispatch', DISPATCH.bytes, STORAGE | GPUBufferUsage.INDIRECT);
    this.timer = timestamps ? new PassTimer(device, BROADPHASE_STAGES) : null;
  }

  /** A pooled buffer by name (grown on demand: contents lost when it grows). */
  private buffer(name: string, bytes: number, usage = storageUsage()): GPUBuffer {
    let g = this.grown[name];
    if (!g)
      this.grown[name] = g = new GrowingBuffer(
        this.device,
        usage,
        `${this.dimension.label}-${name}`,
      );
    return g.ensure(bytes);
  }

  /** Compiles the kernels of `dimension` for `device` (cached per device). */
  protected static async compile(
    device: GPUDevice,
    dimension: BroadphaseDimension,
  ): Promise<BroadphaseParts> {
    checkNarrowphaseParams(dimension.label, dimension.narrowphaseParams);
    const [entryPoints, sorter, scanner] = await Promise.all([
      compileKernels(device, dimension.label, KERNEL_NAMES, dimension.entries, dimension.wgsl),
      GpuRadixSort.create(device),
      GpuScan.create(device),
    ]);
    return { ...entryPoints, sorter, scanner };
  }

  /** Forgets the frames before: the next encode() takes new fat boxes and rebuilds. */
  reset(): void {
    this.last = null;
    this.beforeLast = null;
    this.lastHeldOnly = false;
  }

  /** The capacity of the pairs buffer in encode() calls that give none (0: 4 per body, at least 1024). */
  setCapacity(pairs: number): void {
    if (!Number.isInteger(pairs) || pairs < 0)
      throw new RangeError(`capacity must be an integer >= 0, got ${pairs}`);
    this.capacity = pairs;
  }

  /** The capacity encode() uses for `bodyCount` bodies when none is given. */
  defaultCapacity(bodyCount: number): number {
    return this.capacity > 0
      ? this.capacity
      : Math.min(this.maxCapacity(), Math.max(1024, 4 * bodyCount));
  }

  /** The largest pair count one pairs buffer can hold on this device. */
  maxCapacity(): number {
    return Math.floor(
      Math.min(this.device.limits.maxStorageBufferBindingSize, this.device.limits.maxBufferSize) /
        8,
    );
  }

  /** Refuses a body count the device cannot hold, before any GPU work. */
  checkBodyCount(bodyCount: number): void {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (!Number.isInteger(bodyCount) || bodyCount < 0)
      throw new RangeError(`bodyCount must be an integer >= 0, got ${bodyCount}`);
    if (FAT_BYTES * bodyCount > limit || bodyCount >= 0xffffffff) {
      throw new CapacityError(
        `broadphase: ${bodyCount} bodies need ${FAT_BYTES * bodyCount} bytes of boxes; this device binds at most ${limit} bytes per buffer.`,
      );
    }
  }

  /** Pairs per finder the counting pass keeps for `n` finders (finderCacheSlots). */
  private pairCacheSlots(n: number): number {
    const limit = Math.min(
      this.device.limits.maxStorageBufferBindingSize,
      this.device.limits.maxBufferSize,
    );
    return finderCacheSlots(limit, n);
  }

  /** Stale bodies (moved since the last rebuild) an update carries for `n` bodies; more rebuild. */
  staleCapacity(n: number): number {
    return Math.max(
      1,
      Math.min(n, Math.max(BROADPHASE_STALE_MIN, Math.ceil(n * BROADPHASE_STALE_FRACTION))),
    );
  }

  private ensurePlan(n: number): Plan {
    const keys = this.buffer('keys', 4 * n);
    const order = this.buffer('order', 4 * n);
    const keysTmp = this.buffer('keys-tmp', 4 * n);
    const orderTmp = this.buffer('order-tmp', 4 * n);
    // Group offsets (n + 1), then per body its placed pairs (n).
    const groups = [
      this.buffer('groups0', 4 * (2 * n + 1)),
      this.buffer('groups1', 4 * (2 * n + 1)),
    ] as const;
    const buffers = [keys, order, keysTmp, orderTmp, ...groups];
    const p = this.plan;
    if (p && p.n === n && p.buffers.every((b, i) => b === buffers[i])) return p;
    p?.sort.destroy();
    p?.sortBands.destroy();
    p?.scans.forEach((s) => s.destroy());
    const count = { buffer: this.state, word: STATE.sortCount };
    // A held list's groups are not scanned again (bpPlan counts none).
    const groupCounts = { buffer: this.state, word: STATE.groupCounts };
    this.plan = {
      n,
      buffers,
      sort: this.sorter.plan(keys, order, n, 32, { keys: keysTmp, values: orderTmp }, count),
      sortBands: this.sorter.plan(
        keys,
        order,
        n,
        BAND_KEY_BITS,
        { keys: keysTmp, values: orderTmp },
        count,
      ),
      scans: [
        this.scanner.plan(groups[0], n + 1, 0, groupCounts),
        this.scanner.plan(groups[1], n + 1, 0, groupCounts),
      ],
    };
    // bpGather reads each body's row from the sorted keys: both sorts must end in keys and order.
    if (this.plan.sort.output.keys !== keys || this.plan.sortBands.output.keys !== keys)
      throw new Error('broadphase: a sort ended in its scratch buffers');
    return this.plan;
  }

  /**
   * Records the broadphase into `encoder` (5 compute passes, timed when the instance has
   * timestamps; read them with readTimings() after the submit). The outputs are filled when the
   * command buffer has run.
   */
  encode(encoder: GPUCommandEncoder, inputs: BroadphaseInputs): BroadphaseOutputs {
    const sizes = this.checkInputs(inputs);
    const frame = this.planFrame(inputs, sizes);
    this.writeParams(inputs, frame);
    const buffers = this.bindingTable(inputs, frame);
    this.recordPasses(encoder, frame, buffers);
    this.timer?.resolve(encoder);
    if (!frame.retry) this.beforeLast = this.last;
    this.lastHeldOnly = frame.heldOnly;
    const { n, fatMargin, fat, pairs, groups, prevSlot } = frame;
    this.last = {
      bodyCount: n,
      margin: inputs.margin,
      fatMargin,
      fat,
      list: [pairs, groups],
      prevPairs: frame.prevList[0]!,
      prevGroups: frame.prevList[1]!,
      prevSlot,
    };
    return {
      pairs,
      prevSlot,
      groups,
      capacity: sizes.capacity,
      counts: this.counts,
      indirect: this.indirect,
      batches: frame.batches,
      batchPairs: sizes.batchPairs,
      batchCount: sizes.batchCount,
    };
  }

  /** Refuses bad inputs before any GPU work; returns the frame's sizes. */
  private checkInputs(inputs: BroadphaseInputs): FrameSizes {
    const label = this.dimension.label;
    const n = inputs.bodyCount;
    this.checkBodyCount(n);
    if (inputs.bodies.size < n * this.dimension.bodyBytes) {
      throw new RangeError(
        `bodies buffer holds ${Math.floor(inputs.bodies.size / this.dimension.bodyBytes)} bodies, not ${n}`,
      );
    }
    if (this.dimension.hullVertices && !inputs.hullVertices)
      throw new RangeError(`${label}: inputs.hullVertices is required (the shapes' hull vertices)`);
    if (!(inputs.margin >= 0) || !Number.isFinite(inputs.margin))
      throw new RangeError(`margin must be finite and >= 0, got ${inputs.margin}`);
    const fatMargin = inputs.fatMargin ?? 0;
    if (!(fatMargin >= 0) || !Number.isFinite(fatMargin))
      throw new RangeError(`fatMargin must be finite and >= 0, got ${fatMargin}`);
    const capacity = Math.max(1, inputs.capacity ?? this.defaultCapacity(n));
    if (!Number.isInteger(capacity))
      throw new RangeError(`capacity must be an integer, got ${capacity}`);
    if (capacity > this.maxCapacity()) {
      throw new CapacityError(
        `broadphase: ${capacity} pairs need ${8 * capacity} bytes; this device binds at most ${8 * this.maxCapacity()} bytes per buffer.`,
      );
    }
    const batchPairs = inputs.batchPairs ?? Math.ceil(capacity / BATCH_ALIGN) * BATCH_ALIGN;
    if (!Number.isInteger(batchPairs) || batchPairs < 1 || batchPairs % BATCH_ALIGN !== 0) {
      throw new RangeError(
        `batchPairs must be a positive multiple of ${BATCH_ALIGN}, got ${batchPairs}`,
      );
    }
    return { n, fatMargin, capacity, batchPairs, batchCount: Math.ceil(capacity / batchPairs) };
  }

  /**
   * Picks this frame's buffers and what it keeps of the last one (flipping the pair lists unless
   * it retries), checks and uploads the remap, and decides between refit, rebuild and update.
   */
  private planFrame(inputs: BroadphaseInputs, sizes: FrameSizes): FramePlan {
    const { n, fatMargin, capacity, batchCount } = sizes;
    // A retry writes the same list again, from the same last frame.
    const retry = inputs.retry === true && this.last !== null;
    const last = retry ? this.beforeLast : this.last;
    if (!retry && this.last) this.parity ^= 1;
    const cur = this.parity;
    const prev = cur ^ 1;
    const staleCapacity = this.staleCapacity(n);
    const finders = Math.max(n, staleCapacity);
    const cacheSlots = this.pairCacheSlots(finders);
    const plan = this.ensurePlan(n);
    const fat = [
      this.buffer('fat', FAT_BYTES * Math.max(1, n)),
      this.buffer('sorted', FAT_BYTES * Math.max(1, n)),
      this.buffer('lists', 8 * staleCapacity),
      plan.buffers[1],
    ];
    const prevList = [this.buffer(`pairs${prev}`, 8), plan.buffers[4 + prev]];
    const pairs = this.buffer(`pairs${cur}`, 8 * capacity);
    const groups = plan.buffers[4 + cur];
    const prevSlot = this.buffer('prev-slot', 4 * capacity);
    const listHeld =
      !retry &&
      last !== null &&
      last.prevPairs === pairs &&
      last.prevGroups === groups &&
      last.prevSlot === prevSlot;
    const same = (a: GPUBuffer[], b: GPUBuffer[]): boolean => a.every((x, i) => x === b[i]);
    const listKept = last !== null && same(last.list, prevList);
    const remap = this.checkRemap(inputs, n, retry, last);
    this.lastRemap = remap;
    const refit =
      inputs.refit === true ||
      remap !== null ||
      last === null ||
      !same(last.fat, fat) ||
      last.fatMargin !== fatMargin ||
      last.margin !== inputs.margin;
    // A retry rebuilds: its first recording moved the fat boxes on, unless it was held-only.
    const rebuild = refit || (retry && !this.lastHeldOnly) || last.bodyCount !== n;
    const remapBuffer = this.buffer('remap', 4 * Math.max(1, remap ? n : 1));
    if (remap && n > 0)
      this.device.queue.writeBuffer(remapBuffer, 0, remap.buffer, remap.byteOffset, 4 * n);
    const sorts = rebuild || inputs.deferRebuild !== true;
    const batches = this.buffer(
      'batches',
      BROADPHASE_LAYOUT.batch.bytes * batchCount,
      storageUsage() | GPUBufferUsage.INDIRECT,
    );
    return {
      ...sizes,
      retry,
      cur,
      staleCapacity,
      finders,
      cacheSlots,
      plan,
      fat,
      prevList,
      pairs,
      groups,
      prevSlot,
      listHeld,
      prevBodyCount: listKept && last ? last.bodyCount : 0,
      fatBodyCount: refit || !last ? 0 : Math.min(n, last.bodyCount),
      remapped: remap !== null && listKept,
      refit,
      rebuild,
      sorts,
      // A recording without the sorts (deferRebuild, no rebuild planned) of a list it may hold.
      heldOnly: inputs.expectHeld === true && listHeld && !sorts,
      remapBuffer,
      batches,
    };
  }

  /** The remap of this frame (a retry reuses the last one's), checked against the last frame. */
  private checkRemap(
    inputs: BroadphaseInputs,
    n: number,
    retry: boolean,
    last: LastFrame | null,
  ): Uint32Array | null {
    const remap = inputs.remap ?? (retry ? this.lastRemap : null);
    if (remap && remap.length !== n)
      throw new RangeError(`remap holds ${remap.length} bodies, not ${n}`);
    if (remap && last) {
      for (let i = 0; i < n; i++) {
        if (remap[i] !== PREV_SLOT_NONE && remap[i] >= last.bodyCount)
          throw new RangeError(
            `remap[${i}] = ${remap[i]}: last frame had ${last.bodyCount} bodies`,
          );
      }
    }
    return remap;
  }

  /** Uploads the frame's BroadphaseParams uniform. */
  private writeParams(inputs: BroadphaseInputs, frame: FramePlan): void {
    const L = BROADPHASE_LAYOUT.params;
    const words = new ArrayBuffer(L.bytes);
    const u = new Uint32Array(words);
    const f = new Float32Array(words);
    u[L.bodyCount] = frame.n;
    u[L.capacity] = frame.capacity;
    f[L.margin] = inputs.margin;
    u[L.pairCache] = frame.cacheSlots;
    u[L.batchPairs] = frame.batchPairs;
    u[L.batchCount] = frame.batchCount;
    f[L.fatMargin] = frame.fatMargin;
    u[L.staleCapacity] = frame.staleCapacity;
    u[L.refit] = frame.refit ? 1 : 0;
    u[L.rebuild] = frame.rebuild ? 1 : 0;
    u[L.prevBodyCount] = frame.prevBodyCount;
    u[L.fatBodyCount] = frame.fatBodyCount;
    u[L.remapped] = frame.remapped ? 1 : 0;
    u[L.sorts] = frame.sorts ? 1 : 0;
    u[L.discardCut] = inputs.discardOverflow === true ? 1 : 0;
    u[L.listHeld] = frame.listHeld ? 1 : 0;
    u[L.heldOnly] = frame.heldOnly ? 1 : 0;
    this.device.queue.writeBuffer(this.params, 0, words);
  }

  /** Every kernel's buffers by binding number (the finders' cache is sized here). */
  private bindingTable(
    inputs: BroadphaseInputs,
    frame: FramePlan,
  ): Record<number, GPUBufferBinding> {
    const { plan, fat, prevList, prevSlot } = frame;
    const buffers: Record<number, GPUBufferBinding> = {
      0: { buffer: this.params, offset: 0, size: BROADPHASE_LAYOUT.params.bytes },
      1: { buffer: inputs.shapes },
      2: { buffer: inputs.bodies },
      3: { buffer: fat[0] },
      4: { buffer: plan.buffers[0] },
      5: { buffer: plan.buffers[1] },
      6: { buffer: fat[1] },
      7: { buffer: frame.groups },
      8: { buffer: frame.pairs },
      9: { buffer: this.counts },
      10: { buffer: this.indirect },
      13: { buffer: this.buffer('finders', 8 * (1 + frame.cacheSlots) * frame.finders) },
      15: { buffer: frame.batches },
      19: { buffer: this.state },
      21: { buffer: fat[2] },
      24: { buffer: prevList[0] },
      25: { buffer: prevList[1] },
      26: { buffer: prevSlot },
      27: { buffer: this.dispatch },
      28: { buffer: frame.remapBuffer },
    };
    if (inputs.hullVertices) buffers[14] = { buffer: inputs.hullVertices };
    return buffers;
  }

  /** Records the five passes: aabb, sort, count, scan, write. */
  private recordPasses(
    encoder: GPUCommandEncoder,
    frame: FramePlan,
    buffers: Record<number, GPUBufferBinding>,
  ): void {
    const { n, plan } = frame;
    const { begin, run, once, indirect } = this.passRecorder(encoder, buffers);
    const bodies = Math.ceil(n / BROADPHASE_WORKGROUP_SIZE);

    encoder.clearBuffer(this.state, 4 * STATE.moved, 4 * (STATE.extentZ + 1 - STATE.moved));
    let pass = begin('aabb');
    // The extremes of the fat bounds size a rebuild's rows: only a recording with sorts rebuilds.
    run(pass, frame.sorts ? 'bpAabbExtremes' : 'bpAabb', bodies);
    // A held-only recording plans, finalizes and writes its batches in one invocation.
    once(pass, frame.heldOnly ? 'bpPlanHeld' : 'bpPlan');
    pass.end();
    pass = begin('sort');
    // The kernels of the mode that does not run return at once (bpPlan chose it on the GPU).
    if (frame.sorts) {
      run(pass, 'bpSortKeys', bodies);
      this.sorter.encode(pass, plan.sort);
      once(pass, 'bpBands');
      run(pass, 'bpBandKeys', bodies);
      this.sorter.encode(pass, plan.sortBands);
      run(pass, 'bpGather', bodies);
    }
    pass.end();
    // A recording without sorts cannot rebuild, and a planned rebuild does not update: the
    // kernels of a mode that cannot run are left out. A held frame's buffers hold its list, groups
    // and prevSlot already: a held-only recording leaves out what would only return at once.
    const sweeps = frame.sorts;
    const updates = !frame.rebuild && !frame.heldOnly;
    const counts = !frame.heldOnly;
    pass = begin('count');
    if (counts) run(pass, 'bpKeptCounts', Math.ceil((n + 1) / BROADPHASE_WORKGROUP_SIZE));
    if (sweeps) run(pass, 'bpSweepCount', bodies);
    if (updates) run(pass, 'bpMovedCount', bodies);
    pass.end();
    pass = begin('scan');
    if (counts) this.scanner.encode(pass, plan.scans[frame.cur as 0 | 1]);
    pass.end();
    pass = begin('write');
    if (updates) run(pass, 'bpWriteKept', bodies);
    if (sweeps) run(pass, 'bpSweepWrite', bodies);
    if (updates) run(pass, 'bpMovedWrite', bodies);
    if (counts) run(pass, 'bpSortGroups', bodies);
    if (!frame.heldOnly) {
      once(pass, 'bpFinalize');
      indirect(pass, 'bpPrevSlots', DISPATCH.prevSlots);
      // At least one invocation: its first commits the frame.
      run(pass, 'bpBatch', Math.max(1, Math.ceil(frame.batchCount / BROADPHASE_WORKGROUP_SIZE)));
    }
    pass.end();
  }

  /** Pass helpers over one binding table: each dispatch binds a fresh group for its kernel. */
  private passRecorder(encoder: GPUCommandEncoder, buffers: Record<number, GPUBufferBinding>) {
    const label = this.dimension.label;
    const bind = (name: KernelName): GPUBindGroup =>
      cachedBindGroup(this.device, {
        label: `${label}.${name}`,
        layout: this.kernels[name].layout,
        entries: this.bindings[name].map((b) => ({ binding: b, resource: buffers[b] })),
      });
    const use = (pass: GPUComputePassEncoder, name: KernelName): void => {
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(0, bind(name));
    };
    return {
      run: (pass: GPUComputePassEncoder, name: KernelName, groups: number): void => {
        if (groups <= 0) return;
        use(pass, name);
        dispatchRows(pass, groups);
      },
      once: (pass: GPUComputePassEncoder, name: KernelName): void => {
        use(pass, name);
        pass.dispatchWorkgroups(1);
      },
      indirect: (pass: GPUComputePassEncoder, name: KernelName, record: number): void => {
        use(pass, name);
        pass.dispatchWorkgroupsIndirect(this.dispatch, 4 * record);
      },
      begin: (stage: BroadphaseStage): GPUComputePassEncoder =>
        encoder.beginComputePass(
          this.timer
            ? this.timer.passDescriptor(stage, `${label}.${stage}`)
            : { label: `${label}.${stage}` },
        ),
    };
  }

  /** The bands of the last rebuild (a readback; for tests and tools). */
  async readBands(): Promise<{ origin: number; height: number; reach: number; count: number }> {
    const b = await readBuffer(this.device, this.state, STATE.bytes);
    const f = new Float32Array(b);
    const u = new Uint32Array(b);
    const B = STATE.bands;
    return { origin: f[B.origin], height: f[B.height], reach: f[B.reach], count: u[B.count] };
  }

  /**
   * The fat boxes of the last frame's `bodyCount` bodies, world space: lo x, y, z, hi x, y, z per
   * body (a readback, in f64 from the f32 position and extents; for tests and tools).
   */
  async readFatBoxes(
    bodyCount: number,
  ): Promise<{ boxes: Float64Array; categoryBits: Uint32Array; maskBits: Uint32Array }> {
    const fat = this.grown['fat']?.buffer;
    if (!fat || bodyCount === 0)
      return {
        boxes: new Float64Array(0),
        categoryBits: new Uint32Array(0),
        maskBits: new Uint32Array(0),
      };
    const data = await readBuffer(this.device, fat, FAT_BYTES * bodyCount);
    const f = new Float32Array(data);
    const u = new Uint32Array(data);
    const B = FAT_BOX;
    const boxes = new Float64Array(6 * bodyCount);
    const categoryBits = new Uint32Array(bodyCount);
    const maskBits = new Uint32Array(bodyCount);
    const stride = FAT_BYTES / 4;
    for (let i = 0; i < bodyCount; i++) {
      const o = i * stride;
      for (let c = 0; c < 3; c++) {
        boxes[6 * i + c] = f[o + B.position + c] + f[o + B.lo + c];
        boxes[6 * i + 3 + c] = f[o + B.position + c] + f[o + B.hi + c];
      }
      categoryBits[i] = u[o + B.categoryBits];
      maskBits[i] = u[o + B.maskBits];
    }
    return { boxes, categoryBits, maskBits };
  }

  /** GPU time per stage of the last encoded run (after its submit), or null without timestamps. */
  async readTimings(): Promise<BroadphaseTimings | null> {
    if (!this.timer) return null;
    const t = await this.timer.read();
    const out = { total: 0 } as BroadphaseTimings;
    for (const s of BROADPHASE_STAGES) {
      out[s] = t[s];
      out.total += t[s];
    }
    return out;
  }

  /**
   * Convenience for tests and tools: uploads packed shapes and bodies, runs the broadphase as a
   * first frame (every fat box new; `fatMargin` as encode()'s), grows the
   * pairs buffer and runs again when the pairs did not fit, and reads the pairs back.
   * `capacity` sets the first run's pairs capacity (default: as encode()).
   */
  protected async runUploads(
    data: BroadphaseUploads,
    bodyCount: number,
    margin: number,
    options: { capacity?: number; fatMargin?: number } = {},
  ): Promise<GpuBroadphaseResult> {
    const start = performance.now();
    const device = this.device;
    this.checkBodyCount(bodyCount);
    const shapeBuf = this.buffer('input-shapes', data.shapes.byteLength);
    const bodyBuf = this.buffer('input-bodies', data.bodies.byteLength);
    upload(device, shapeBuf, data.shapes);
    upload(device, bodyBuf, data.bodies);
    let hullVertices: GPUBuffer | undefined;
    if (data.hullVertices) {
      hullVertices = this.buffer('input-hull-vertices', data.hullVertices.byteLength);
      upload(device, hullVertices, data.hullVertices);
    }
    let capacity = options.capacity ?? this.defaultCapacity(bodyCount);
    const C = BROADPHASE_LAYOUT.counts;
    for (let runs = 1; ; runs++) {
      const encoder = device.createCommandEncoder({ label: this.dimension.label });
      const out = this.encode(encoder, {
        shapes: shapeBuf,
        bodies: bodyBuf,
        ...(hullVertices ? { hullVertices } : {}),
        bodyCount,
        margin,
        capacity,
        ...(options.fatMargin !== undefined ? { fatMargin: options.fatMargin } : {}),
        refit: runs === 1,
        retry: runs > 1,
      });
      device.queue.submit([encoder.finish()]);
      const counts = new Uint32Array(await readBuffer(device, out.counts, C.bytes));
      const timings = await this.readTimings();
      const total = counts[C.total];
      if (total === PAIR_COUNT_SATURATED) {
        throw new CapacityError(
          `broadphase: ${bodyCount} bodies overlap in 2^32 - 1 pairs or more; no pairs buffer holds them.`,
        );
      }
      if (counts[C.overflow] === 1) {
        if (runs > 1)
          throw new Error(
            `broadphase: ${total} pairs overflowed a buffer grown to ${out.capacity}`,
          );
        if (total > this.maxCapacity()) {
          throw new CapacityError(
            `broadphase: ${total} pairs need ${8 * total} bytes; this device binds at most ${8 * this.maxCapacity()} bytes per buffer.`,
          );
        }
        capacity = total;
        continue;
      }
      const gpuPairs = new Uint32Array(await readBuffer(device, out.pairs, 8 * total));
      return {
        pairs: gpuPairs,
        pairCount: total,
        gpuPairs,
        runs,
        capacity: out.capacity,
        timings,
        wallMs: performance.now() - start,
      };
    }
  }

  destroy(): void {
    this.plan?.sort.destroy();
    this.plan?.sortBands.destroy();
    this.plan?.scans.forEach((s) => s.destroy());
    this.plan = null;
    for (const b of Object.values(this.grown)) b.destroy();
    for (const b of [this.params, this.counts, this.indirect, this.state, this.dispatch])
      b.destroy();
    this.timer?.destroy();
  }
}

/** Pairs (a < b) sorted by a, then b: a counting sort by a, then each a's run sorted by b. */
export function sortPairs(pairs: Uint32Array, bodyCount: number): Uint32Array {
  const m = pairs.length / 2;
  const start = new Uint32Array(bodyCount + 1);
  for (let k = 0; k < m; k++) start[pairs[2 * k] + 1]++;
  for (let a = 0; a < bodyCount; a++) start[a + 1] += start[a];
  const next = start.slice(0, bodyCount);
  const bs = new Uint32Array(m);
  for (let k = 0; k < m; k++) bs[next[pairs[2 * k]]++] = pairs[2 * k + 1];
  const out = new Uint32Array(2 * m);
  for (let a = 0; a < bodyCount; a++) {
    const run = bs.subarray(start[a], start[a + 1]);
    run.sort();
    for (let k = start[a]; k < start[a + 1]; k++) {
      out[2 * k] = a;
      out[2 * k + 1] = bs[k];
    }
  }
  return out;
}
