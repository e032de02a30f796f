// Graph colouring of contact constraints on the GPU (shaders/coloring.wgsl), shared by the 2D and
// 3D solvers: from the body pair of each constraint (a dense contact list's keys) and which bodies
// are dynamic, a colour per constraint such that no two constraints of one colour share a dynamic
// body (speculative random palettes with a Jones–Plassmann tie-break); COLOR_NONE / COLOR_FULL for the few left after
// COLOR_ROUNDS rounds (the overflow). Also the constraints ordered by colour, each colour and then
// the overflow in increasing index order (a counting sort), an indirect dispatch per colour sized
// to it, and per body its overflow constraints. Deterministic: colours, order and counts are the
// same on every run, whatever order the GPU runs the invocations in (see the WGSL).
// Recorded into the caller's encoder with no readback: the constraint count is read on the GPU.

import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { CapacityError } from '../errors.ts';
import {
  createUniformSlots,
  dispatchRows,
  GrowingBuffer,
  UNIFORM_SLOT_BYTES,
} from '../gpu/buffers.ts';
import { cachedKernel, type Kernel } from '../gpu/pipelines.ts';
import { wgslFile } from '../gpu/shaders.ts';
import { GpuScan, type ScanPlan } from '../gpu/scan.ts';
import {
  COLOR_COUNT,
  COLOR_DISPATCHES,
  COLOR_FULL,
  COLOR_INDEX_BITS,
  COLOR_NONE,
  COLOR_ORDER_HEADER,
  COLOR_ROUNDS,
  SOLVER_WORKGROUP_SIZE,
  solverConstantsWgsl,
} from './constants.ts';

export { COLOR_COUNT, COLOR_DISPATCHES, COLOR_FULL, COLOR_NONE, COLOR_ORDER_HEADER, COLOR_ROUNDS };

/** Buckets of the order list: the colours, then the overflow. */
const COLOR_BUCKETS = COLOR_COUNT + 1;
/** ColorParams (shaders/coloring.wgsl): round, countWord, capacity, bodyCount, buckets; 16-byte aligned. */
const PARAMS_BYTES = 32;

const coloringWgsl = (): string => solverConstantsWgsl() + wgslFile('coloring');

let bindingsCache: Record<string, number[]> | null = null;
/** The bindings each kernel uses (its auto layout's), read from the WGSL. */
function kernelBindings(name: KernelName): number[] {
  bindingsCache ??= Object.fromEntries(
    new WgslReflect(coloringWgsl()).entry.compute.map((e) => [
      e.name,
      e.resources.map((r) => r.binding).sort((a, b) => a - b),
    ]),
  );
  const b = bindingsCache[name];
  if (!b) throw new Error(`shaders/coloring.wgsl has no entry point ${name}`);
  return b;
}

export interface ColoringInputs {
  /** array<vec2u>: (bodyA, bodyB) per constraint. */
  pairs: GPUBuffer;
  /** A buffer holding the constraint count as a u32 at word `countWord` (STORAGE usage). */
  counts: GPUBuffer;
  countWord: number;
  /** The most constraints there can be (what the dispatches cover). */
  capacity: number;
  /** array<u32> per body: 1 dynamic, 0 static. */
  dynamicBodies: GPUBuffer;
  bodyCount: number;
}

export interface ColoringOutputs {
  /** array<u32>: per constraint its colour, 0..COLOR_COUNT-1, or COLOR_NONE / COLOR_FULL. */
  colors: GPUBuffer;
  /**
   * array<u32>: COLOR_ORDER_HEADER words (colour k's constraints start at entry [k] of the list;
   * [COLOR_COUNT] is where the overflow starts, running to the constraint count, which is
   * [COLOR_COUNT + 1]), then the list: the constraints by colour, then the overflow (the
   * uncoloured), each in increasing index order.
   */
  order: GPUBuffer;
  /**
   * array<u32>: indirect dispatch arguments (x, y, 1; SOLVER_WORKGROUP_SIZE per group) at byte
   * 12k: colour k's constraints for k < COLOR_COUNT, the overflow's at k = COLOR_COUNT, and at
   * COLOR_COUNT + 1 the bodies when there is an overflow (no workgroup otherwise).
   */
  dispatch: GPUBuffer;
  /** array<u32> per body: how many overflow constraints it has (dynamic bodies only). */
  splits: GPUBuffer;
  /** array<u32>: the first COLOR_COUNT words hold the constraints per colour (COPY_SRC, for a readback). */
  sizes: GPUBuffer;
}

const KERNELS = [
  'colorCount',
  'colorClaim',
  'colorCheck',
  'colorNext',
  'colorRank',
  'colorPlan',
  'colorScatter',
] as const;
type KernelName = (typeof KERNELS)[number];

export class GpuColoring {
  private readonly colors: GrowingBuffer;
  private readonly slots: GrowingBuffer;
  private readonly offsets: GrowingBuffer;
  private readonly order: GrowingBuffer;
  private readonly ranks: GrowingBuffer;
  private readonly splits: GrowingBuffer;
  private readonly sizes: GPUBuffer;
  private readonly dispatch: GPUBuffer;
  private readonly roundArgs: GPUBuffer;
  private readonly params: GPUBuffer;
  private scanPlan: ScanPlan | null = null;
  /** Bind groups by kernel and round, kept while the buffers (and capacity) stay the same. */
  private groupCache: { key: unknown[]; groups: Map<string, GPUBindGroup> } | null = null;

  private constructor(
    readonly device: GPUDevice,
    private readonly kernels: Record<KernelName, Kernel>,
    private readonly scanner: GpuScan,
  ) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.colors = new GrowingBuffer(device, S, 'coloring-colors');
    this.slots = new GrowingBuffer(device, S, 'coloring-slots');
    this.offsets = new GrowingBuffer(device, S, 'coloring-offsets');
    this.order = new GrowingBuffer(device, S, 'coloring-order');
    this.ranks = new GrowingBuffer(device, S, 'coloring-ranks');
    this.splits = new GrowingBuffer(device, S, 'coloring-splits');
    // Colour sizes, then a flag per round.
    this.sizes = device.createBuffer({
      label: 'coloring-sizes',
      size: 4 * (COLOR_COUNT + COLOR_ROUNDS),
      usage: S,
    });
    this.roundArgs = device.createBuffer({
      label: 'coloring-round-args',
      size: 12 * COLOR_ROUNDS,
      usage: S | GPUBufferUsage.INDIRECT,
    });
    this.dispatch = device.createBuffer({
      label: 'coloring-dispatch',
      size: 12 * COLOR_DISPATCHES,
      usage: S | GPUBufferUsage.INDIRECT,
    });
    this.params = createUniformSlots(device, 'coloring-params', COLOR_ROUNDS);
  }

  static async create(device: GPUDevice): Promise<GpuColoring> {
    const [kernels, scanner] = await Promise.all([
      Promise.all(KERNELS.map((k) => cachedKernel(device, 'coloring', k, coloringWgsl))),
      GpuScan.create(device),
    ]);
    return new GpuColoring(
      device,
      Object.fromEntries(KERNELS.map((k, i) => [k, kernels[i]])) as Record<KernelName, Kernel>,
      scanner,
    );
  }

  /** The scan of `n` offsets (re-planned when the offsets buffer grows). */
  private plan(n: number): ScanPlan {
    const before = this.offsets.buffer;
    const data = this.offsets.ensure(4 * n);
    if (!this.scanPlan || this.scanPlan.n !== n || data !== before) {
      this.scanPlan?.destroy();
      this.scanPlan = this.scanner.plan(data, n);
    }
    return this.scanPlan;
  }

  /** Records the colouring and the order list. */
  encode(
    encoder: GPUCommandEncoder,
    inputs: ColoringInputs,
    passDescriptor: GPUComputePassDescriptor = { label: 'coloring' },
  ): ColoringOutputs {
    if (inputs.capacity >= 2 ** COLOR_INDEX_BITS) {
      throw new CapacityError(
        `coloring: ${inputs.capacity} constraints; at most ${2 ** COLOR_INDEX_BITS - 1} per step`,
      );
    }
    const colors = this.colors.ensure(4 * Math.max(1, inputs.capacity));
    // Per body COLOR_BODY_WORDS (coloring.wgsl): priority slot, colour mask, two halves of tried
    // colours and degree.
    const slots = this.slots.ensure(32 * Math.max(1, inputs.bodyCount));
    // The shares per bucket and workgroup, then the slot where the scan leaves the total.
    const scan = this.plan(COLOR_BUCKETS * Math.ceil(inputs.capacity / SOLVER_WORKGROUP_SIZE) + 1);
    const offsets = this.offsets.buffer!;
    const order = this.order.ensure(4 * (COLOR_ORDER_HEADER + inputs.capacity));
    const ranks = this.ranks.ensure(4 * Math.max(1, inputs.capacity));
    const splits = this.splits.ensure(4 * Math.max(1, inputs.bodyCount));
    const words = new Uint32Array((COLOR_ROUNDS * UNIFORM_SLOT_BYTES) / 4);
    for (let r = 0; r < COLOR_ROUNDS; r++) {
      words[(r * UNIFORM_SLOT_BYTES) / 4] = r;
      words[(r * UNIFORM_SLOT_BYTES) / 4 + 1] = inputs.countWord;
      words[(r * UNIFORM_SLOT_BYTES) / 4 + 2] = inputs.capacity;
      words[(r * UNIFORM_SLOT_BYTES) / 4 + 3] = inputs.bodyCount;
      words[(r * UNIFORM_SLOT_BYTES) / 4 + 4] = COLOR_BUCKETS;
    }
    this.device.queue.writeBuffer(this.params, 0, words);
    encoder.clearBuffer(slots);
    encoder.clearBuffer(splits);
    encoder.clearBuffer(this.sizes);
    const groups = Math.ceil(inputs.capacity / SOLVER_WORKGROUP_SIZE);
    const resources: GPUBufferBinding[] = [
      { buffer: this.params, offset: 0, size: PARAMS_BYTES },
      { buffer: inputs.pairs },
      { buffer: inputs.counts },
      { buffer: inputs.dynamicBodies },
      { buffer: colors },
      { buffer: slots },
      { buffer: offsets, size: 4 * scan.n },
      { buffer: order },
      { buffer: ranks },
      { buffer: this.sizes },
      { buffer: this.dispatch },
      { buffer: this.roundArgs },
      { buffer: splits },
    ];
    const key: unknown[] = [
      inputs.pairs,
      inputs.counts,
      inputs.dynamicBodies,
      colors,
      slots,
      offsets,
      order,
      ranks,
      splits,
      inputs.capacity,
    ];
    if (!this.groupCache || key.some((k, i) => k !== this.groupCache!.key[i]))
      this.groupCache = { key, groups: new Map() };
    const cache = this.groupCache.groups;
    const bindGroup = (name: KernelName, round: number): GPUBindGroup => {
      const id = `${name}:${round}`;
      let group = cache.get(id);
      if (!group) {
        group = this.device.createBindGroup({
          label: `coloring.${name}`,
          layout: this.kernels[name].layout,
          entries: kernelBindings(name).map((b) => ({
            binding: b,
            resource:
              b === 0
                ? { buffer: this.params, offset: round * UNIFORM_SLOT_BYTES, size: PARAMS_BYTES }
                : resources[b],
          })),
        });
        cache.set(id, group);
      }
      return group;
    };
    const pass = encoder.beginComputePass(passDescriptor);
    // groupCount < 0: dispatched indirectly from round `round`'s arguments (written by colorNext).
    const run = (name: KernelName, round: number, groupCount: number): void => {
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(0, bindGroup(name, round));
      if (groupCount < 0) pass.dispatchWorkgroupsIndirect(this.roundArgs, 12 * round);
      else dispatchRows(pass, groupCount);
    };
    for (let r = 0; r < COLOR_ROUNDS; r++) {
      run('colorCount', r, r === 0 ? groups : -1);
      run('colorClaim', r, r === 0 ? groups : -1);
      run('colorCheck', r, r === 0 ? groups : -1);
      if (r + 1 < COLOR_ROUNDS) run('colorNext', r, 1);
    }
    run('colorRank', 0, groups);
    this.scanner.encode(pass, scan);
    run('colorPlan', 0, 1);
    run('colorScatter', 0, groups);
    pass.end();
    return { colors, order, dispatch: this.dispatch, sizes: this.sizes, splits };
  }

  destroy(): void {
    this.scanPlan?.destroy();
    for (const b of [this.colors, this.slots, this.offsets, this.order, this.ranks, this.splits])
      b.destroy();
    for (const b of [this.params, this.sizes, this.dispatch, this.roundArgs]) b.destroy();
  }
}
