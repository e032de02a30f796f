// The GPU broadphase, one implementation for 2D and 3D: the pairs of the host's sweep and prune
// (sweepAndPrune2D, sweepAndPrune3D), found by WGSL kernels (shaders/broadphase.wgsl after a
// per-dimension shaders/aabb2d.wgsl or aabb3d.wgsl, with radixsort.wgsl and scan.wgsl):
//
//   aabb   the box of each body, grown as the host grows it (radius + margin + pads against f32
//          rounding), kept as position + relative extents, and an order-preserving u32 key of a
//          lower bound of its minimum x;
//   sort   stable LSD radix sort of (key, body index), then by band: bands along y taller than any
//          box, so bodies come in (band, lo.x) order, ties in index order;
//   count  the sweep, per sorted position: how many boxes overlap it, swept along x in its band and
//          the next (compared through the difference of the positions, as precise as the f32
//          inputs; see broadphase.wgsl). Square and cubic piles sweep O(1) and O(n^1/3) neighbours
//          a body instead of the O(n^1/2) and O(n^2/3) of an x-sweep;
//   scan   exclusive prefix sums of the counts: each position's output offset, and the total;
//   write  the pairs (a < b) at those offsets, in sweep order; then the counts, the narrowphase's
//          params and its indirect dispatch arguments.
//
// Boxes are 3D; 2D boxes have z = 0, so one sort, scan and sweep serve both. src/gpu/broadphase2d.ts
// and src/gpu/broadphase3d.ts give the per-dimension inputs (GpuBroadphase2D, GpuBroadphase3D).
//
// Deterministic: atomics only for order-free maxima (the bands), and the pairs buffer is
// byte-identical from run to run. Never drops pairs silently: when the total exceeds the pairs
// buffer's capacity, only what fits is written, `counts.total` still holds the real total and
// `counts.overflow` is 1; run() then grows the buffer and runs again.
//
// Bands: one box taller than the others (a huge body) or far from the origin (bands are at least
// 2^-8 of the largest |y| tall, for f32's sake) makes the bands tall, and the sweep an x-sweep.
//
// f32: the kernels see the packed (f32) bodies and shapes, the host the scene's f64 numbers; the two
// pair sets can differ only in pairs whose boxes touch to within that rounding: about 1e-7 of the
// shapes' size, plus half an f32 step of the coordinates where the positions are not f32 numbers.
//
// Memory: about 300 bytes per body of scratch (boxes and bounds, sorted copies, keys, the sort's
// ping-pong buffers, offsets, and up to BROADPHASE_PAIR_CACHE cached pairs), plus 8 per pair.
//
// encode() records everything into the caller's command encoder (the bodies can stay in the
// caller's GPU buffer; a later stage can dispatchWorkgroupsIndirect over the pairs with no
// readback). It writes its parameters with queue.writeBuffer and reuses its scratch buffers, so
// submit each encoded command buffer before the next encode() on the same instance.

import { CapacityError } from '../errors.ts';
import { AABB_RELATIVE_PAD, AABB_F32_STEPS, BROADPHASE_WORKGROUP_SIZE, BROADPHASE_PAIR_CACHE, BROADPHASE_MAX_BANDS } from '../constants.ts';
import { structLookup, word } from '../layout.ts';
import { WGSL_SOURCES } from './shaders.generated.ts';
import { GpuRadixSort, type RadixSortPlan } from './radixsort.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import { GrowingBuffer, PassTimer, createUniformSlots, dispatchRows, readBuffer, upload } from './buffers.ts';
import { compileEntryPoints, type Kernel } from './pipelines.ts';

export { AABB_RELATIVE_PAD, AABB_F32_STEPS, BROADPHASE_WORKGROUP_SIZE, BROADPHASE_PAIR_CACHE };

/** The broadphase's constants as WGSL (defined once, in src/constants.ts). */
export function broadphaseConstantsWgsl(): string {
  return [
    `const AABB_RELATIVE_PAD: f32 = ${AABB_RELATIVE_PAD.toExponential()};`,
    `const AABB_F32_STEPS: f32 = ${AABB_F32_STEPS.toFixed(1)};`,
    `const BROADPHASE_WORKGROUP_SIZE: u32 = ${BROADPHASE_WORKGROUP_SIZE}u;`,
    `const BROADPHASE_PAIR_CACHE: u32 = ${BROADPHASE_PAIR_CACHE}u;`,
    `const BP_MAX_BANDS: u32 = ${BROADPHASE_MAX_BANDS}u;`,
    '',
  ].join('\n');
}

const { struct } = structLookup(WGSL_SOURCES['broadphase'] ?? '', 'shaders/broadphase.wgsl');
const paramsStruct = struct('BroadphaseParams');
const BOX_BYTES = struct('BroadphaseBox').size;
const BOUNDS_BYTES = struct('BroadphaseBounds').size;
const countsStruct = struct('BroadphaseCounts');
const indirectStruct = struct('DispatchIndirect');
const narrowParams = struct('BroadphaseNarrowphaseParams');
const batchStruct = struct('BroadphaseBatch');
const EXTREMES_BYTES = struct('BroadphaseExtremes').size;
const bandsStruct = struct('BroadphaseBands');
const BANDS_BYTES = bandsStruct.size;
const BANDS = { origin: word(bandsStruct, 'origin'), height: word(bandsStruct, 'height'), reach: word(bandsStruct, 'reach'), count: word(bandsStruct, 'count') };

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
  },
  /**
   * The `batches` buffer: one BroadphaseBatch per batch: narrowphase params, then x, y, z for
   * dispatchWorkgroupsIndirect of the general kernel, and at specialX those of the specialized one.
   */
  batch: {
    bytes: batchStruct.size,
    narrowphase: word(batchStruct, 'narrowphase'),
    x: word(batchStruct, 'x'),
    specialX: word(batchStruct, 'specialX'),
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
  },
  /** The `indirect` buffer: x, y, z workgroups for dispatchWorkgroupsIndirect. */
  indirect: {
    bytes: indirectStruct.size,
    x: word(indirectStruct, 'x'),
    y: word(indirectStruct, 'y'),
    z: word(indirectStruct, 'z'),
  },
} as const;

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
      throw new Error(`${label}: the narrowphase's params must have BroadphaseNarrowphaseParams's layout (shaders/broadphase.wgsl): ${name} differs`);
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
  /** Pairs the output buffer holds; default: the instance's capacity (setCapacity), or 4 per body (at least 1024). */
  capacity?: number;
  /** Pairs per narrowphase batch (outputs.batches), a multiple of 256; default: the capacity (one batch). */
  batchPairs?: number;
}

export interface BroadphaseOutputs {
  /**
   * array<vec2u>: pairs (a < b) in sweep order; after the GPU work, the first
   * min(total, capacity) slots hold pairs (counts.written).
   */
  pairs: GPUBuffer;
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
  /** The pairs as the GPU wrote them (sweep order), for determinism checks. */
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

interface Plan {
  n: number;
  sort: RadixSortPlan;
  sortBands: RadixSortPlan;
  scan: ScanPlan;
  /** Buffers the plans were made for (a grown buffer needs new plans). */
  keys: GPUBuffer;
  order: GPUBuffer;
  keysTmp: GPUBuffer;
  orderTmp: GPUBuffer;
  pairCounts: GPUBuffer;
}

const KERNEL_NAMES = ['bpAabb', 'bpBands', 'bpBandKeys', 'bpGather', 'bpCount', 'bpWrite', 'bpFinalize', 'bpBatch'] as const;
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
const storageUsage = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

export class GpuBroadphase {
  /** Default pairs capacity; 0: 4 per body, at least 1024. */
  private capacity = 0;
  private readonly params: GPUBuffer;
  private readonly boxes: GrowingBuffer;
  private readonly keys: GrowingBuffer;
  private readonly order: GrowingBuffer;
  private readonly keysTmp: GrowingBuffer;
  private readonly orderTmp: GrowingBuffer;
  private readonly sorted: GrowingBuffer;
  private readonly bounds: GrowingBuffer;
  private readonly sortedBounds: GrowingBuffer;
  private readonly pairCache: GrowingBuffer;
  private readonly pairCounts: GrowingBuffer;
  private readonly pairs: GrowingBuffer;
  private readonly counts: GPUBuffer;
  private readonly indirect: GPUBuffer;
  private readonly extremes: GPUBuffer;
  private readonly bands: GPUBuffer;
  private readonly bandReach: GPUBuffer;
  private readonly batches: GrowingBuffer;
  private readonly inputShapes: GrowingBuffer;
  private readonly inputBodies: GrowingBuffer;
  private readonly inputHullVertices: GrowingBuffer;
  private plan: Plan | null = null;
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
    ({ kernels: this.kernels, bindings: this.bindings, sorter: this.sorter, scanner: this.scanner } = parts);
    const STORAGE = storageUsage();
    const label = dimension.label;
    const grow = (name: string): GrowingBuffer => new GrowingBuffer(device, STORAGE, `${label}-${name}`);
    this.params = createUniformSlots(device, `${label}-params`, 1);
    this.boxes = grow('boxes');
    this.keys = grow('keys');
    this.order = grow('order');
    this.keysTmp = grow('keys-tmp');
    this.orderTmp = grow('order-tmp');
    this.sorted = grow('sorted-boxes');
    this.bounds = grow('bounds');
    this.sortedBounds = grow('sorted-bounds');
    this.pairCache = grow('pair-cache');
    this.pairCounts = grow('pair-offsets');
    this.pairs = grow('pairs');
    this.inputShapes = grow('shapes');
    this.inputBodies = grow('bodies');
    this.inputHullVertices = grow('hull-vertices');
    this.batches = new GrowingBuffer(device, STORAGE | GPUBufferUsage.INDIRECT, `${label}-batches`);
    this.counts = device.createBuffer({ label: `${label}-counts`, size: Math.max(16, BROADPHASE_LAYOUT.counts.bytes), usage: STORAGE });
    this.indirect = device.createBuffer({ label: `${label}-indirect`, size: 16, usage: STORAGE | GPUBufferUsage.INDIRECT });
    this.extremes = device.createBuffer({ label: `${label}-extremes`, size: Math.max(16, EXTREMES_BYTES), usage: STORAGE });
    this.bands = device.createBuffer({ label: `${label}-bands`, size: Math.max(16, BANDS_BYTES), usage: STORAGE });
    this.bandReach = device.createBuffer({ label: `${label}-band-reach`, size: 4 * BROADPHASE_MAX_BANDS, usage: STORAGE });
    this.timer = timestamps ? new PassTimer(device, BROADPHASE_STAGES) : null;
  }

  /** Compiles the kernels of `dimension` for `device` (cached per device). */
  protected static async compile(device: GPUDevice, dimension: BroadphaseDimension): Promise<BroadphaseParts> {
    checkNarrowphaseParams(dimension.label, dimension.narrowphaseParams);
    const [entryPoints, sorter, scanner] = await Promise.all([
      compileEntryPoints(device, dimension.label, KERNEL_NAMES, dimension.wgsl),
      GpuRadixSort.create(device),
      GpuScan.create(device),
    ]);
    return { ...entryPoints, sorter, scanner };
  }

  /** The capacity of the pairs buffer in encode() calls that give none (0: 4 per body, at least 1024). */
  setCapacity(pairs: number): void {
    if (!Number.isInteger(pairs) || pairs < 0) throw new RangeError(`capacity must be an integer >= 0, got ${pairs}`);
    this.capacity = pairs;
  }

  /** The capacity encode() uses for `bodyCount` bodies when none is given. */
  defaultCapacity(bodyCount: number): number {
    return this.capacity > 0 ? this.capacity : Math.min(this.maxCapacity(), Math.max(1024, 4 * bodyCount));
  }

  /** The largest pair count one pairs buffer can hold on this device. */
  maxCapacity(): number {
    return Math.floor(Math.min(this.device.limits.maxStorageBufferBindingSize, this.device.limits.maxBufferSize) / 8);
  }

  /** Refuses a body count the device cannot hold, before any GPU work. */
  checkBodyCount(bodyCount: number): void {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (!Number.isInteger(bodyCount) || bodyCount < 0) throw new RangeError(`bodyCount must be an integer >= 0, got ${bodyCount}`);
    if (BOX_BYTES * bodyCount > limit || bodyCount >= 0xffffffff) {
      throw new CapacityError(
        `broadphase: ${bodyCount} bodies need ${BOX_BYTES * bodyCount} bytes of boxes; this device binds at most ${limit} bytes per buffer.`,
      );
    }
  }

  /** Pairs per body the counting sweep keeps for `n` bodies: BROADPHASE_PAIR_CACHE, or what fits in one binding. */
  private pairCacheSlots(n: number): number {
    const limit = Math.min(this.device.limits.maxStorageBufferBindingSize, this.device.limits.maxBufferSize);
    return Math.min(BROADPHASE_PAIR_CACHE, Math.floor(limit / (8 * Math.max(1, n))));
  }

  private ensurePlan(n: number): Plan {
    const keys = this.keys.ensure(4 * n);
    const order = this.order.ensure(4 * n);
    const pairCounts = this.pairCounts.ensure(4 * (n + 1));
    const keysTmp = this.keysTmp.ensure(4 * n);
    const orderTmp = this.orderTmp.ensure(4 * n);
    const p = this.plan;
    if (p && p.n === n && p.keys === keys && p.order === order && p.keysTmp === keysTmp && p.orderTmp === orderTmp && p.pairCounts === pairCounts) {
      return p;
    }
    p?.sort.destroy();
    p?.sortBands.destroy();
    p?.scan.destroy();
    this.plan = {
      n,
      keys,
      order,
      keysTmp,
      orderTmp,
      pairCounts,
      sort: this.sorter.plan(keys, order, n, 32, { keys: keysTmp, values: orderTmp }),
      sortBands: this.sorter.plan(keys, order, n, BAND_KEY_BITS, { keys: keysTmp, values: orderTmp }),
      scan: this.scanner.plan(pairCounts, n + 1),
    };
    return this.plan;
  }

  /**
   * Records the broadphase into `encoder` (5 compute passes, timed when the instance has
   * timestamps; read them with readTimings() after the submit). The outputs are filled when the
   * command buffer has run.
   */
  encode(encoder: GPUCommandEncoder, inputs: BroadphaseInputs): BroadphaseOutputs {
    const device = this.device;
    const label = this.dimension.label;
    const n = inputs.bodyCount;
    this.checkBodyCount(n);
    if (inputs.bodies.size < n * this.dimension.bodyBytes) {
      throw new RangeError(`bodies buffer holds ${Math.floor(inputs.bodies.size / this.dimension.bodyBytes)} bodies, not ${n}`);
    }
    if (this.dimension.hullVertices && !inputs.hullVertices) throw new RangeError(`${label}: inputs.hullVertices is required (the shapes' hull vertices)`);
    if (!(inputs.margin >= 0) || !Number.isFinite(inputs.margin)) throw new RangeError(`margin must be finite and >= 0, got ${inputs.margin}`);
    const capacity = Math.max(1, inputs.capacity ?? this.defaultCapacity(n));
    if (!Number.isInteger(capacity)) throw new RangeError(`capacity must be an integer, got ${capacity}`);
    if (capacity > this.maxCapacity()) {
      throw new CapacityError(`broadphase: ${capacity} pairs need ${8 * capacity} bytes; this device binds at most ${8 * this.maxCapacity()} bytes per buffer.`);
    }

    const boxes = this.boxes.ensure(BOX_BYTES * Math.max(1, n));
    const sorted = this.sorted.ensure(BOX_BYTES * Math.max(1, n));
    const bounds = this.bounds.ensure(BOUNDS_BYTES * n);
    const sortedBounds = this.sortedBounds.ensure(BOUNDS_BYTES * n);
    const cacheSlots = this.pairCacheSlots(n);
    const pairCache = this.pairCache.ensure(8 * cacheSlots * n);
    const pairs = this.pairs.ensure(8 * capacity);
    const batchPairs = inputs.batchPairs ?? Math.ceil(capacity / BATCH_ALIGN) * BATCH_ALIGN;
    if (!Number.isInteger(batchPairs) || batchPairs < 1 || batchPairs % BATCH_ALIGN !== 0) {
      throw new RangeError(`batchPairs must be a positive multiple of ${BATCH_ALIGN}, got ${batchPairs}`);
    }
    const batchCount = Math.ceil(capacity / batchPairs);
    const batches = this.batches.ensure(BROADPHASE_LAYOUT.batch.bytes * batchCount);
    const plan = this.ensurePlan(n);
    const L = BROADPHASE_LAYOUT.params;
    const words = new ArrayBuffer(L.bytes);
    new Uint32Array(words)[L.bodyCount] = n;
    new Uint32Array(words)[L.capacity] = capacity;
    new Float32Array(words)[L.margin] = inputs.margin;
    new Uint32Array(words)[L.pairCache] = cacheSlots;
    new Uint32Array(words)[L.batchPairs] = batchPairs;
    new Uint32Array(words)[L.batchCount] = batchCount;
    device.queue.writeBuffer(this.params, 0, words);

    const buffers: Record<number, GPUBufferBinding> = {
      0: { buffer: this.params, offset: 0, size: L.bytes },
      1: { buffer: inputs.shapes },
      2: { buffer: inputs.bodies },
      3: { buffer: boxes },
      4: { buffer: plan.keys },
      5: { buffer: plan.order },
      6: { buffer: sorted },
      7: { buffer: plan.pairCounts },
      8: { buffer: pairs },
      9: { buffer: this.counts },
      10: { buffer: this.indirect },
      11: { buffer: bounds },
      12: { buffer: sortedBounds },
      13: { buffer: pairCache },
      15: { buffer: batches },
      16: { buffer: this.extremes },
      17: { buffer: this.bands },
      18: { buffer: this.bandReach },
    };
    if (inputs.hullVertices) buffers[14] = { buffer: inputs.hullVertices };
    const bind = (name: KernelName): GPUBindGroup =>
      device.createBindGroup({
        label: `${label}.${name}`,
        layout: this.kernels[name].layout,
        entries: this.bindings[name].map((b) => ({ binding: b, resource: buffers[b]! })),
      });
    const groups = Math.ceil(n / BROADPHASE_WORKGROUP_SIZE);
    const run = (pass: GPUComputePassEncoder, name: KernelName, count: number): void => {
      if (count <= 0) return;
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(0, bind(name));
      if (name === 'bpFinalize' || name === 'bpBands') pass.dispatchWorkgroups(1);
      else dispatchRows(pass, count);
    };
    const begin = (stage: BroadphaseStage): GPUComputePassEncoder =>
      encoder.beginComputePass(this.timer ? this.timer.passDescriptor(stage, `${label}.${stage}`) : { label: `${label}.${stage}` });

    encoder.clearBuffer(this.extremes);
    encoder.clearBuffer(this.bandReach);
    let pass = begin('aabb');
    run(pass, 'bpAabb', groups);
    pass.end();
    pass = begin('sort');
    this.sorter.encode(pass, plan.sort);
    run(pass, 'bpBands', 1);
    run(pass, 'bpBandKeys', groups);
    this.sorter.encode(pass, plan.sortBands);
    pass.end();
    pass = begin('count');
    run(pass, 'bpGather', groups);
    run(pass, 'bpCount', Math.ceil((n + 1) / BROADPHASE_WORKGROUP_SIZE));
    pass.end();
    pass = begin('scan');
    this.scanner.encode(pass, plan.scan);
    pass.end();
    pass = begin('write');
    run(pass, 'bpWrite', groups);
    run(pass, 'bpFinalize', 1);
    run(pass, 'bpBatch', Math.ceil(batchCount / BROADPHASE_WORKGROUP_SIZE));
    pass.end();
    this.timer?.resolve(encoder);
    return { pairs, capacity, counts: this.counts, indirect: this.indirect, batches, batchPairs, batchCount };
  }

  /** The bands of the last submitted run (a readback; for tests and tools). */
  async readBands(): Promise<{ origin: number; height: number; reach: number; count: number }> {
    const b = await readBuffer(this.device, this.bands, BANDS_BYTES);
    const f = new Float32Array(b);
    const u = new Uint32Array(b);
    return { origin: f[BANDS.origin]!, height: f[BANDS.height]!, reach: f[BANDS.reach]!, count: u[BANDS.count]! };
  }

  /** GPU time per stage of the last encoded run (after its submit), or null without timestamps. */
  async readTimings(): Promise<BroadphaseTimings | null> {
    if (!this.timer) return null;
    const t = await this.timer.read();
    const out = { total: 0 } as BroadphaseTimings;
    for (const s of BROADPHASE_STAGES) {
      out[s] = t[s]!;
      out.total += t[s]!;
    }
    return out;
  }

  /**
   * Convenience for tests and tools: uploads packed shapes and bodies, runs the broadphase, grows
   * the pairs buffer and runs again when the pairs did not fit, and reads the pairs back, sorted
   * by (a, b). `capacity` sets the first run's pairs capacity (default: as encode()).
   */
  protected async runUploads(data: BroadphaseUploads, bodyCount: number, margin: number, options: { capacity?: number } = {}): Promise<GpuBroadphaseResult> {
    const start = performance.now();
    const device = this.device;
    this.checkBodyCount(bodyCount);
    const shapeBuf = this.inputShapes.ensure(data.shapes.byteLength);
    const bodyBuf = this.inputBodies.ensure(data.bodies.byteLength);
    upload(device, shapeBuf, data.shapes);
    upload(device, bodyBuf, data.bodies);
    let hullVertices: GPUBuffer | undefined;
    if (data.hullVertices) {
      hullVertices = this.inputHullVertices.ensure(data.hullVertices.byteLength);
      upload(device, hullVertices, data.hullVertices);
    }
    let capacity = options.capacity ?? this.defaultCapacity(bodyCount);
    const C = BROADPHASE_LAYOUT.counts;
    for (let runs = 1; ; runs++) {
      const encoder = device.createCommandEncoder({ label: this.dimension.label });
      const out = this.encode(encoder, { shapes: shapeBuf, bodies: bodyBuf, ...(hullVertices ? { hullVertices } : {}), bodyCount, margin, capacity });
      device.queue.submit([encoder.finish()]);
      const counts = new Uint32Array(await readBuffer(device, out.counts, C.bytes));
      const timings = await this.readTimings();
      const total = counts[C.total]!;
      if (total === PAIR_COUNT_SATURATED) {
        throw new CapacityError(`broadphase: ${bodyCount} bodies overlap in 2^32 - 1 pairs or more; no pairs buffer holds them.`);
      }
      if (counts[C.overflow] === 1) {
        if (runs > 1) throw new Error(`broadphase: ${total} pairs overflowed a buffer grown to ${out.capacity}`);
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
        pairs: sortPairs(gpuPairs, bodyCount),
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
    this.plan?.scan.destroy();
    this.plan = null;
    for (const b of [
      this.boxes, this.bounds, this.sortedBounds, this.pairCache, this.keys, this.order, this.keysTmp, this.orderTmp,
      this.sorted, this.pairCounts, this.pairs, this.inputShapes, this.inputBodies, this.inputHullVertices, this.batches,
    ]) {
      b.destroy();
    }
    this.params.destroy();
    this.counts.destroy();
    this.indirect.destroy();
    this.extremes.destroy();
    this.bands.destroy();
    this.bandReach.destroy();
    this.timer?.destroy();
  }
}

/** Pairs (a < b) sorted by a, then b: a counting sort by a, then each a's run sorted by b. */
export function sortPairs(pairs: Uint32Array, bodyCount: number): Uint32Array {
  const m = pairs.length / 2;
  const start = new Uint32Array(bodyCount + 1);
  for (let k = 0; k < m; k++) start[pairs[2 * k]! + 1]!++;
  for (let a = 0; a < bodyCount; a++) start[a + 1]! += start[a]!;
  const next = start.slice(0, bodyCount);
  const bs = new Uint32Array(m);
  for (let k = 0; k < m; k++) bs[next[pairs[2 * k]!]!++] = pairs[2 * k + 1]!;
  const out = new Uint32Array(2 * m);
  for (let a = 0; a < bodyCount; a++) {
    const run = bs.subarray(start[a]!, start[a + 1]!);
    run.sort();
    for (let k = start[a]!; k < start[a + 1]!; k++) {
      out[2 * k] = a;
      out[2 * k + 1] = bs[k]!;
    }
  }
  return out;
}
