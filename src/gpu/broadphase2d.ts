// The 2D broadphase on the GPU: the pairs of src/broadphase2d.ts's sweepAndPrune2D, found by
// WGSL kernels (shaders/aabb2d.wgsl, radixsort.wgsl, scan.wgsl, broadphase2d.wgsl):
//
//   aabb   the box of each body, grown as bodyAabbs2D grows it (radius + margin + pads against
//          f32 rounding), kept as position + relative extents, and an order-preserving u32 key of
//          a lower bound of its minimum x;
//   sort   stable LSD radix sort of (key, body index): ties keep index order, as on the host;
//   count  the sweep, per sorted position: how many later boxes overlap it (compared through the
//          difference of the positions, as precise as the f32 inputs; see aabb2d.wgsl);
//   scan   exclusive prefix sums of the counts: each position's output offset, and the total;
//   write  the pairs (a < b) at those offsets, in sweep order; then the counts, a Params2D for the
//          narrowphase and its indirect dispatch arguments.
//
// Deterministic: no atomics, and the pairs buffer is byte-identical from run to run. Never drops
// pairs silently: when the total exceeds the pairs buffer's capacity, only what fits is written,
// `counts.total` still holds the real total and `counts.overflow` is 1; run() then grows the buffer
// and runs again.
//
// f32: the kernels see the packed (f32) bodies and shapes, the host the scene's f64 numbers; the two
// pair sets can differ only in pairs whose boxes touch to within that rounding: about 1e-7 of the
// shapes' size, plus half an f32 step of the coordinates where the positions are not f32 numbers.
//
// Memory: about 180 bytes per body of scratch (boxes and bounds, sorted copies, keys, the sort's
// ping-pong buffers, offsets, and up to BROADPHASE_PAIR_CACHE cached pairs), plus 8 per pair.
//
// encode() records everything into the caller's command encoder (the bodies can stay in the
// caller's GPU buffer; a later stage can dispatchWorkgroupsIndirect over the pairs with no
// readback). It writes its parameters with queue.writeBuffer and reuses its scratch buffers, so
// submit each encoded command buffer before the next encode() on the same instance.

import { CapacityError } from '../errors.ts';
import { constantsWgsl, AABB_RELATIVE_PAD, AABB_F32_STEPS, BROADPHASE_WORKGROUP_SIZE, BROADPHASE_PAIR_CACHE } from '../constants.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { structLookup, word } from '../layout.ts';
import { assembleWgsl } from './shaders.ts';
import { WGSL_SOURCES } from './shaders.generated.ts';
import { GpuRadixSort, type RadixSortPlan } from './radixsort.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import { GrowingBuffer, PassTimer, createUniformSlots, dispatchRows, readBuffer } from './buffers.ts';
import { cachedKernel, type Kernel } from './pipelines.ts';

export { AABB_RELATIVE_PAD, AABB_F32_STEPS, BROADPHASE_WORKGROUP_SIZE, BROADPHASE_PAIR_CACHE };

/** The broadphase's constants as WGSL (defined once, here). */
export function broadphaseConstantsWgsl(): string {
  return [
    `const AABB_RELATIVE_PAD: f32 = ${AABB_RELATIVE_PAD.toExponential()};`,
    `const AABB_F32_STEPS: f32 = ${AABB_F32_STEPS.toFixed(1)};`,
    `const BROADPHASE_WORKGROUP_SIZE: u32 = ${BROADPHASE_WORKGROUP_SIZE}u;`,
    `const BROADPHASE_PAIR_CACHE: u32 = ${BROADPHASE_PAIR_CACHE}u;`,
    '',
  ].join('\n');
}

const FILES = ['layout2d', 'aabb2d', 'broadphase2d'] as const;

function broadphaseWgsl(): string {
  return broadphaseConstantsWgsl() + assembleWgsl(FILES);
}

const { struct } = structLookup(constantsWgsl() + broadphaseConstantsWgsl() + FILES.map((f) => WGSL_SOURCES[f] ?? '').join('\n'), 'shaders/aabb2d.wgsl + broadphase2d.wgsl');
const paramsStruct = struct('BroadphaseParams2D');
const BOX_BYTES = struct('BroadphaseBox2D').size;
const countsStruct = struct('BroadphaseCounts2D');
const indirectStruct = struct('DispatchIndirect');
const narrowParams = struct('Params2D');

/** Word offsets of the broadphase's GPU structs (reflected from the WGSL). */
export const BROADPHASE_LAYOUT_2D = {
  params: {
    bytes: paramsStruct.size,
    bodyCount: word(paramsStruct, 'bodyCount'),
    capacity: word(paramsStruct, 'capacity'),
    margin: word(paramsStruct, 'margin'),
    pairCache: word(paramsStruct, 'pairCache'),
  },
  /** The `counts` buffer (BroadphaseCounts2D). */
  counts: {
    bytes: countsStruct.size,
    total: word(countsStruct, 'total'),
    written: word(countsStruct, 'written'),
    overflow: word(countsStruct, 'overflow'),
    bodyCount: word(countsStruct, 'bodyCount'),
    /** Start of a Params2D for the narrowphase over the written pairs (copy it into its uniform). */
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
export const BROADPHASE_STAGES_2D = ['aabb', 'sort', 'count', 'scan', 'write'] as const;
export type BroadphaseStage2D = (typeof BROADPHASE_STAGES_2D)[number];
export type BroadphaseTimings2D = Record<BroadphaseStage2D, number> & { total: number };

/** Value of counts.total when the pairs do not fit in a u32 count. */
export const PAIR_COUNT_SATURATED = 0xffffffff;

export interface BroadphaseInputs2D {
  /** Shape2D array (shaders/layout2d.wgsl). */
  shapes: GPUBuffer;
  /** Body2D array; the first `bodyCount` bodies take part. */
  bodies: GPUBuffer;
  bodyCount: number;
  /** Boxes grow by this much (the narrowphase's speculative margin). */
  margin: number;
  /** Pairs the output buffer holds; default: the instance's capacity (setCapacity), or 4 per body (at least 1024). */
  capacity?: number;
}

export interface BroadphaseOutputs2D {
  /**
   * array<vec2u>: pairs (a < b) in sweep order; after the GPU work, the first
   * min(total, capacity) slots hold pairs (counts.written).
   */
  pairs: GPUBuffer;
  capacity: number;
  /** BroadphaseCounts2D (offsets in BROADPHASE_LAYOUT_2D.counts). */
  counts: GPUBuffer;
  /** DispatchIndirect at offset 0: the narrowphase over counts.written pairs, WORKGROUP_SIZE_2D per group. */
  indirect: GPUBuffer;
}

export interface GpuBroadphaseResult2D {
  /** Pairs a0, b0, a1, b1, …, a < b, sorted by a then b (as sweepAndPrune2D returns them). */
  pairs: Uint32Array;
  pairCount: number;
  /** The pairs as the GPU wrote them (sweep order), for determinism checks. */
  gpuPairs: Uint32Array;
  /** Runs it took: 1, or 2 when the pairs buffer had to grow. */
  runs: number;
  /** The capacity of the last run. */
  capacity: number;
  /** GPU time per stage of the last run, from timestamp queries (ms), or null without them. */
  timings: BroadphaseTimings2D | null;
  /** Upload, every run and the readbacks, measured on the host (ms). */
  wallMs: number;
}

interface Plan {
  n: number;
  sort: RadixSortPlan;
  scan: ScanPlan;
  /** Buffers the plans were made for (a grown buffer needs new plans). */
  keys: GPUBuffer;
  order: GPUBuffer;
  keysTmp: GPUBuffer;
  orderTmp: GPUBuffer;
  pairCounts: GPUBuffer;
}

const KERNEL_NAMES = ['aabb2d', 'bpGather', 'bpCount', 'bpWrite', 'bpFinalize'] as const;
type KernelName = (typeof KERNEL_NAMES)[number];

// A function: in Node, GPUBufferUsage exists only once Dawn is loaded.
const storageUsage = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

export class GpuBroadphase2D {
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
  private readonly inputShapes: GrowingBuffer;
  private readonly inputBodies: GrowingBuffer;
  private plan: Plan | null = null;
  private readonly timer: PassTimer | null;

  private constructor(
    readonly device: GPUDevice,
    private readonly kernels: Record<KernelName, Kernel>,
    private readonly sorter: GpuRadixSort,
    private readonly scanner: GpuScan,
    timestamps: boolean,
  ) {
    const STORAGE = storageUsage();
    this.params = createUniformSlots(device, 'broadphase2d-params', 1);
    this.boxes = new GrowingBuffer(device, STORAGE, 'broadphase2d-boxes');
    this.keys = new GrowingBuffer(device, STORAGE, 'broadphase2d-keys');
    this.order = new GrowingBuffer(device, STORAGE, 'broadphase2d-order');
    this.keysTmp = new GrowingBuffer(device, STORAGE, 'broadphase2d-keys-tmp');
    this.orderTmp = new GrowingBuffer(device, STORAGE, 'broadphase2d-order-tmp');
    this.sorted = new GrowingBuffer(device, STORAGE, 'broadphase2d-sorted-boxes');
    this.bounds = new GrowingBuffer(device, STORAGE, 'broadphase2d-bounds');
    this.sortedBounds = new GrowingBuffer(device, STORAGE, 'broadphase2d-sorted-bounds');
    this.pairCache = new GrowingBuffer(device, STORAGE, 'broadphase2d-pair-cache');
    this.pairCounts = new GrowingBuffer(device, STORAGE, 'broadphase2d-pair-offsets');
    this.pairs = new GrowingBuffer(device, STORAGE, 'broadphase2d-pairs');
    this.inputShapes = new GrowingBuffer(device, STORAGE, 'broadphase2d-shapes');
    this.inputBodies = new GrowingBuffer(device, STORAGE, 'broadphase2d-bodies');
    this.counts = device.createBuffer({ label: 'broadphase2d-counts', size: Math.max(16, BROADPHASE_LAYOUT_2D.counts.bytes), usage: STORAGE });
    this.indirect = device.createBuffer({ label: 'broadphase2d-indirect', size: 16, usage: STORAGE | GPUBufferUsage.INDIRECT });
    this.timer = timestamps ? new PassTimer(device, BROADPHASE_STAGES_2D) : null;
  }

  /** Compiles the kernels for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query')): Promise<GpuBroadphase2D> {
    const names = KERNEL_NAMES;
    const [kernels, sorter, scanner] = await Promise.all([
      Promise.all(names.map((e) => cachedKernel(device, 'broadphase2d', e, broadphaseWgsl))),
      GpuRadixSort.create(device),
      GpuScan.create(device),
    ]);
    const k = Object.fromEntries(names.map((e, i) => [e, kernels[i]!])) as Record<KernelName, Kernel>;
    return new GpuBroadphase2D(device, k, sorter, scanner, timestamps);
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
    p?.scan.destroy();
    this.plan = {
      n,
      keys,
      order,
      keysTmp,
      orderTmp,
      pairCounts,
      sort: this.sorter.plan(keys, order, n, 32, { keys: keysTmp, values: orderTmp }),
      scan: this.scanner.plan(pairCounts, n + 1),
    };
    return this.plan;
  }

  /**
   * Records the broadphase into `encoder` (5 compute passes, timed when the instance has
   * timestamps; read them with readTimings() after the submit). The outputs are filled when the
   * command buffer has run.
   */
  encode(encoder: GPUCommandEncoder, inputs: BroadphaseInputs2D): BroadphaseOutputs2D {
    const device = this.device;
    const n = inputs.bodyCount;
    this.checkBodyCount(n);
    if (inputs.bodies.size < n * LAYOUT_2D.body.words * 4) {
      throw new RangeError(`bodies buffer holds ${Math.floor(inputs.bodies.size / (LAYOUT_2D.body.words * 4))} bodies, not ${n}`);
    }
    if (!(inputs.margin >= 0) || !Number.isFinite(inputs.margin)) throw new RangeError(`margin must be finite and >= 0, got ${inputs.margin}`);
    const capacity = Math.max(1, inputs.capacity ?? this.defaultCapacity(n));
    if (!Number.isInteger(capacity)) throw new RangeError(`capacity must be an integer, got ${capacity}`);
    if (capacity > this.maxCapacity()) {
      throw new CapacityError(`broadphase: ${capacity} pairs need ${8 * capacity} bytes; this device binds at most ${8 * this.maxCapacity()} bytes per buffer.`);
    }

    const boxes = this.boxes.ensure(BOX_BYTES * Math.max(1, n));
    const sorted = this.sorted.ensure(BOX_BYTES * Math.max(1, n));
    const bounds = this.bounds.ensure(16 * n);
    const sortedBounds = this.sortedBounds.ensure(16 * n);
    const cacheSlots = this.pairCacheSlots(n);
    const pairCache = this.pairCache.ensure(8 * cacheSlots * n);
    const pairs = this.pairs.ensure(8 * capacity);
    const plan = this.ensurePlan(n);
    const L = BROADPHASE_LAYOUT_2D.params;
    const words = new ArrayBuffer(L.bytes);
    new Uint32Array(words)[L.bodyCount] = n;
    new Uint32Array(words)[L.capacity] = capacity;
    new Float32Array(words)[L.margin] = inputs.margin;
    new Uint32Array(words)[L.pairCache] = cacheSlots;
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
    };
    const bind = (name: KernelName, bindings: number[]): GPUBindGroup =>
      device.createBindGroup({
        label: `broadphase2d.${name}`,
        layout: this.kernels[name].layout,
        entries: bindings.map((b) => ({ binding: b, resource: buffers[b]! })),
      });
    const groups = Math.ceil(n / BROADPHASE_WORKGROUP_SIZE);
    const run = (pass: GPUComputePassEncoder, name: KernelName, bindings: number[], count: number): void => {
      if (count <= 0) return;
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(0, bind(name, bindings));
      if (name === 'bpFinalize') pass.dispatchWorkgroups(1);
      else dispatchRows(pass, count);
    };
    const begin = (stage: BroadphaseStage2D): GPUComputePassEncoder =>
      encoder.beginComputePass(this.timer ? this.timer.passDescriptor(stage, `broadphase2d.${stage}`) : { label: `broadphase2d.${stage}` });

    let pass = begin('aabb');
    run(pass, 'aabb2d', [0, 1, 2, 3, 4, 5, 11], groups);
    pass.end();
    pass = begin('sort');
    this.sorter.encode(pass, plan.sort);
    pass.end();
    pass = begin('count');
    run(pass, 'bpGather', [0, 3, 5, 6, 11, 12], groups);
    run(pass, 'bpCount', [0, 5, 6, 7, 12, 13], Math.ceil((n + 1) / BROADPHASE_WORKGROUP_SIZE));
    pass.end();
    pass = begin('scan');
    this.scanner.encode(pass, plan.scan);
    pass.end();
    pass = begin('write');
    run(pass, 'bpWrite', [0, 5, 6, 7, 8, 12, 13], groups);
    run(pass, 'bpFinalize', [0, 7, 9, 10], 1);
    pass.end();
    this.timer?.resolve(encoder);
    return { pairs, capacity, counts: this.counts, indirect: this.indirect };
  }

  /** GPU time per stage of the last encoded run (after its submit), or null without timestamps. */
  async readTimings(): Promise<BroadphaseTimings2D | null> {
    if (!this.timer) return null;
    const t = await this.timer.read();
    const out = { total: 0 } as BroadphaseTimings2D;
    for (const s of BROADPHASE_STAGES_2D) {
      out[s] = t[s]!;
      out.total += t[s]!;
    }
    return out;
  }

  /**
   * Convenience for tests and tools: uploads packed shapes and bodies (pack2d.ts), runs the
   * broadphase, grows the pairs buffer and runs again when the pairs did not fit, and reads the
   * pairs back, sorted by (a, b). `capacity` sets the first run's pairs capacity (default: as
   * encode()).
   */
  async run(
    shapes: ArrayBuffer,
    bodies: ArrayBuffer,
    bodyCount: number,
    margin: number,
    options: { capacity?: number } = {},
  ): Promise<GpuBroadphaseResult2D> {
    const start = performance.now();
    const device = this.device;
    this.checkBodyCount(bodyCount);
    const shapeBuf = this.inputShapes.ensure(shapes.byteLength);
    const bodyBuf = this.inputBodies.ensure(bodies.byteLength);
    device.queue.writeBuffer(shapeBuf, 0, shapes);
    device.queue.writeBuffer(bodyBuf, 0, bodies);
    let capacity = options.capacity ?? this.defaultCapacity(bodyCount);
    const C = BROADPHASE_LAYOUT_2D.counts;
    for (let runs = 1; ; runs++) {
      const encoder = device.createCommandEncoder({ label: 'broadphase2d' });
      const out = this.encode(encoder, { shapes: shapeBuf, bodies: bodyBuf, bodyCount, margin, capacity });
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
    this.plan?.scan.destroy();
    this.plan = null;
    for (const b of [this.boxes, this.bounds, this.sortedBounds, this.pairCache, this.keys, this.order, this.keysTmp, this.orderTmp, this.sorted, this.pairCounts, this.pairs, this.inputShapes, this.inputBodies]) {
      b.destroy();
    }
    this.params.destroy();
    this.counts.destroy();
    this.indirect.destroy();
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
