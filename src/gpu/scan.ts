// Exclusive prefix sums of u32 arrays on the GPU (shaders/scan.wgsl): a work-efficient workgroup
// scan per block of SCAN_BLOCK elements, then the block totals are scanned the same way, level by
// level (2 levels reach SCAN_BLOCK² = 4M elements, 3 levels 8G), and added back. Additions
// saturate at 0xffffffff (see scan.wgsl). An array of at most SCAN_CHUNKS blocks is scanned by one
// workgroup walking its blocks in turn (scanChunks): one dispatch where the levels take three.
// Used by the radix sort, the GPU broadphase and the frames' lists.
// A plan may take its element count from a GPU buffer (at most the planned count): a one-invocation
// kernel then sizes the levels, and the planned grids' blocks past them return at once (a direct
// dispatch costs less than an indirect one, which WebGPU implementations validate with a dispatch
// of their own); scanChunks reads the count itself.

import { SCAN_ITEMS, SCAN_RAKE } from '../constants.ts';
import { dispatchRows, PassTimer, readBuffer, UNIFORM_SLOT_BYTES } from './buffers.ts';
import { cachedKernel, type Kernel } from './pipelines.ts';
import { WGSL_scan } from './shaders.generated.ts';
import { assembleWgslFiles } from './shaders.ts';

export { SCAN_RAKE, SCAN_ITEMS };
/** Invocations per scan workgroup. */
export const SCAN_WORKGROUP_SIZE = SCAN_RAKE * SCAN_RAKE;
/** Elements per scan block (one workgroup). */
export const SCAN_BLOCK = SCAN_WORKGROUP_SIZE * SCAN_ITEMS;
/**
 * Blocks one workgroup scans in turn (scanChunks) rather than a level per block and the adds: the
 * frames' scans of a 10k scene (the broadphase's groups, the event blocks) fit in it, and on a GPU
 * eight blocks one after another cost about what the levels' three dispatches and barriers do.
 */
export const SCAN_CHUNKS = 8;
/** Levels a scan may have: SCAN_BLOCK⁴ elements, more than a u32 counts. */
const SCAN_MAX_LEVELS = 4;
/** ScanParams (shaders/scan.wgsl): n, limit, levels, countWord. */
const SCAN_PARAMS_BYTES = 16;
/** ScanParams.countWord of a scan of the planned count. */
const SCAN_UNCOUNTED = 0xffffffff;

/** The scan's constants as WGSL (prepended to scan.wgsl; defined once, here). */
export function scanConstantsWgsl(): string {
  return [
    `const SCAN_RAKE: u32 = ${SCAN_RAKE}u;`,
    `const SCAN_WORKGROUP_SIZE: u32 = ${SCAN_WORKGROUP_SIZE}u;`,
    `const SCAN_ITEMS: u32 = ${SCAN_ITEMS}u;`,
    `const SCAN_BLOCK: u32 = ${SCAN_BLOCK}u;`,
    `const SCAN_MAX_LEVELS: u32 = ${SCAN_MAX_LEVELS}u;`,
    `const SCAN_PARAMS_STRIDE: u32 = ${UNIFORM_SLOT_BYTES / SCAN_PARAMS_BYTES}u;`,
    `const SCAN_UNCOUNTED: u32 = ${SCAN_UNCOUNTED}u;`,
    '',
  ].join('\n');
}

// ---- the scan -------------------------------------------------------------------------------

/** Blocks of SCAN_BLOCK elements needed for `n` elements. */
export function scanBlockCount(n: number): number {
  return Math.ceil(n / SCAN_BLOCK);
}

interface ScanLevel {
  n: number;
  blocks: number;
  /** Bind group: this level's data and its block sums (the next level's data). */
  bindGroup: GPUBindGroup;
  addBindGroup: GPUBindGroup;
  /** A plan of at most SCAN_CHUNKS blocks (one level, one workgroup): scanChunks' bind group. */
  chunksBindGroup: GPUBindGroup | null;
}

/** A scan of `n` elements of one buffer, with its scratch buffers; encode it with GpuScan.encode. */
export class ScanPlan {
  /** Where the grand total lies after the scan (u32): the top level's one block sum. */
  readonly total: { buffer: GPUBuffer; offset: number };
  constructor(
    readonly n: number,
    readonly levels: readonly ScanLevel[],
    private readonly owned: readonly GPUBuffer[],
    total: GPUBuffer,
    /** GPU-sized over levels: scanSizes' bind group (a one-workgroup plan reads its count itself). */
    readonly sizes: { bindGroup: GPUBindGroup } | null = null,
  ) {
    this.total = { buffer: total, offset: 0 };
  }
  destroy(): void {
    for (const b of this.owned) b.destroy();
  }
}

export class GpuScan {
  private constructor(
    readonly device: GPUDevice,
    private readonly blocksKernel: Kernel,
    private readonly addKernel: Kernel,
    private readonly sizesKernel: Kernel,
    private readonly chunksKernel: Kernel,
  ) {}

  static async create(device: GPUDevice): Promise<GpuScan> {
    const code = (): string => scanConstantsWgsl() + assembleWgslFiles({ scan: WGSL_scan });
    const [blocks, add, sizes, chunks] = await Promise.all([
      cachedKernel(device, 'scan', 'scanBlocks', code),
      cachedKernel(device, 'scan', 'scanAdd', code),
      cachedKernel(device, 'scan', 'scanSizes', code),
      cachedKernel(device, 'scan', 'scanChunks', code),
    ]);
    return new GpuScan(device, blocks, add, sizes, chunks);
  }

  /**
   * Plans an in-place exclusive scan of `n` u32 at `offset` bytes into `data` (offset a multiple
   * of 256). Allocates the block-sum buffers and writes the levels' parameters (once). With
   * `count`, the scan covers min(count, n) elements, the u32 at word `count.word` of
   * `count.buffer` when the scan runs (written by an earlier dispatch).
   */
  plan(
    data: GPUBuffer,
    n: number,
    offset = 0,
    count?: { buffer: GPUBuffer; word: number },
  ): ScanPlan {
    const device = this.device;
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const chunked = scanBlockCount(n) <= SCAN_CHUNKS;
    const counts: number[] = [];
    for (let m = n; ;) {
      counts.push(m);
      const blocks = scanBlockCount(m);
      if (blocks <= 1 || chunked) break;
      m = blocks;
    }
    if (n === 0) counts.length = 0;
    const owned: GPUBuffer[] = [];
    const sums = counts.map((m, k) => {
      const b = device.createBuffer({
        label: `scan-sums-${k}`,
        size: Math.max(16, Math.ceil((4 * scanBlockCount(m)) / 16) * 16),
        usage: S,
      });
      owned.push(b);
      return b;
    });
    const total =
      sums[sums.length - 1] ??
      device.createBuffer({ label: 'scan-total-empty', size: 16, usage: S });
    if (sums.length === 0) owned.push(total);
    // Storage too: scanSizes writes it, and scanChunks of an uncounted scan binds it as its count.
    const params = device.createBuffer({
      label: 'scan-params',
      size: Math.max(1, counts.length) * UNIFORM_SLOT_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    owned.push(params);
    const words = new Uint32Array((Math.max(1, counts.length) * UNIFORM_SLOT_BYTES) / 4);
    counts.forEach((m, k) => (words[(k * UNIFORM_SLOT_BYTES) / 4] = m));
    words[1] = n;
    words[2] = counts.length;
    words[3] = count?.word ?? SCAN_UNCOUNTED;
    device.queue.writeBuffer(params, 0, words);
    const levels: ScanLevel[] = counts.map((m, k) => {
      const dataBinding: GPUBufferBinding =
        k === 0 ? { buffer: data, offset, size: Math.max(4, 4 * m) } : { buffer: sums[k - 1] };
      const entries = (
        layout: GPUBindGroupLayout,
        countBinding = false,
      ): GPUBindGroupDescriptor => ({
        layout,
        entries: [
          { binding: 0, resource: dataBinding },
          { binding: 1, resource: { buffer: sums[k] } },
          { binding: 2, resource: { buffer: params, offset: k * UNIFORM_SLOT_BYTES, size: 16 } },
          // scanChunks' count (an uncounted scan never reads it).
          ...(countBinding ? [{ binding: 3, resource: { buffer: count?.buffer ?? params } }] : []),
        ],
      });
      return {
        n: m,
        blocks: scanBlockCount(m),
        bindGroup: device.createBindGroup(entries(this.blocksKernel.layout)),
        addBindGroup: device.createBindGroup(entries(this.addKernel.layout)),
        chunksBindGroup: chunked
          ? device.createBindGroup(entries(this.chunksKernel.layout, true))
          : null,
      };
    });
    let sizes: ScanPlan['sizes'] = null;
    if (count && !chunked) {
      const bindGroup = device.createBindGroup({
        layout: this.sizesKernel.layout,
        entries: [
          { binding: 3, resource: { buffer: count.buffer } },
          { binding: 4, resource: { buffer: params } },
        ],
      });
      sizes = { bindGroup };
    }
    return new ScanPlan(n, levels, owned, total, sizes);
  }

  /** Records the scan into `pass`: block scans down the levels, then the adds back up (or one workgroup). */
  encode(pass: GPUComputePassEncoder, plan: ScanPlan): void {
    const levels = plan.levels;
    const sizes = plan.sizes;
    if (sizes && levels.length > 0) {
      pass.setPipeline(this.sizesKernel.pipeline);
      pass.setBindGroup(0, sizes.bindGroup);
      pass.dispatchWorkgroups(1);
    }
    const chunks = levels[0]?.chunksBindGroup;
    if (chunks) {
      pass.setPipeline(this.chunksKernel.pipeline);
      pass.setBindGroup(0, chunks);
      pass.dispatchWorkgroups(1);
      return;
    }
    pass.setPipeline(this.blocksKernel.pipeline);
    for (const level of levels) {
      pass.setBindGroup(0, level.bindGroup);
      dispatchRows(pass, level.blocks);
    }
    if (levels.length > 1) pass.setPipeline(this.addKernel.pipeline);
    for (let k = levels.length - 2; k >= 0; k--) {
      pass.setBindGroup(0, levels[k].addBindGroup);
      dispatchRows(pass, levels[k].blocks);
    }
  }

  /** Convenience: exclusive prefix sums of `input` (saturating) and the total. */
  async scan(
    input: Uint32Array,
  ): Promise<{ prefix: Uint32Array; total: number; kernelMs: number | null }> {
    const device = this.device;
    const n = input.length;
    const bytes = Math.max(16, Math.ceil((4 * n) / 16) * 16);
    const data = device.createBuffer({
      label: 'scan-data',
      size: bytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
    if (n > 0) device.queue.writeBuffer(data, 0, input.buffer, input.byteOffset, 4 * n);
    const plan = this.plan(data, n);
    const timing = device.features.has('timestamp-query') ? new PassTimer(device, ['scan']) : null;
    const encoder = device.createCommandEncoder({ label: 'scan' });
    const pass = encoder.beginComputePass(timing?.passDescriptor('scan') ?? {});
    this.encode(pass, plan);
    pass.end();
    timing?.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    const [prefix, total] = await Promise.all([
      readBuffer(device, data, 4 * n),
      readBuffer(device, plan.total.buffer, 4),
    ]);
    const ms = timing ? await timing.read() : null;
    timing?.destroy();
    plan.destroy();
    data.destroy();
    return {
      prefix: new Uint32Array(prefix),
      total: n === 0 ? 0 : new Uint32Array(total)[0],
      kernelMs: ms ? ms['scan'] : null,
    };
  }
}
