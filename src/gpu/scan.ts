// Exclusive prefix sums of u32 arrays on the GPU (shaders/scan.wgsl): a work-efficient workgroup
// scan per block of SCAN_BLOCK elements, then the block totals are scanned the same way, level by
// level (2 levels reach SCAN_BLOCK² = 4M elements, 3 levels 8G), and added back. Additions
// saturate at 0xffffffff (see scan.wgsl). Used by the radix sort and the GPU broadphase.
//
// Also the small GPU helpers the broadphase modules share (kernel compilation, rows of workgroups,
// uniform slots, growing buffers).
// TODO(lead): compileKernel/cachedKernel duplicate src/gpu/pipelines.ts's private compile/cached;
// export those there and use them here instead.

import { SCAN_ITEMS, SCAN_RAKE } from '../constants.ts';
import { assembleWgsl } from './shaders.ts';

export { SCAN_RAKE, SCAN_ITEMS };
/** Invocations per scan workgroup. */
export const SCAN_WORKGROUP_SIZE = SCAN_RAKE * SCAN_RAKE;
/** Elements per scan block (one workgroup). */
export const SCAN_BLOCK = SCAN_WORKGROUP_SIZE * SCAN_ITEMS;

/** Workgroups per dispatch dimension (WebGPU's default and lavapipe's limit). */
export const MAX_GROUPS_PER_DIMENSION = 65535;

/**
 * The row length dispatchRows uses; tests lower it to exercise rows of workgroups (more than
 * 65535 workgroups) on small inputs. Affects dispatches recorded afterwards.
 */
export const dispatchLimits = { maxGroupsPerDimension: MAX_GROUPS_PER_DIMENSION };

/** The scan's constants as WGSL (prepended to scan.wgsl; defined once, here). */
export function scanConstantsWgsl(): string {
  return [
    `const SCAN_RAKE: u32 = ${SCAN_RAKE}u;`,
    `const SCAN_WORKGROUP_SIZE: u32 = ${SCAN_WORKGROUP_SIZE}u;`,
    `const SCAN_ITEMS: u32 = ${SCAN_ITEMS}u;`,
    `const SCAN_BLOCK: u32 = ${SCAN_BLOCK}u;`,
    '',
  ].join('\n');
}

// ---- shared helpers -------------------------------------------------------------------------

export interface Kernel {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

const kernelCache = new WeakMap<GPUDevice, Map<string, Promise<Kernel>>>();

/** Compiles one entry point; WGSL errors are raised with the compiler's messages and the line. */
export async function compileKernel(device: GPUDevice, label: string, code: string, entryPoint: string): Promise<Kernel> {
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const lines = code.split('\n');
    const text = errors.map((e) => `${label}:${e.lineNum}:${e.linePos}: ${e.message}\n  ${lines[e.lineNum - 1] ?? ''}`).join('\n');
    throw new Error(`WGSL compilation failed:\n${text}`);
  }
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({ label: `${label}.${entryPoint}`, layout: 'auto', compute: { module, entryPoint } });
  const err = await device.popErrorScope();
  if (err) throw new Error(`pipeline ${label}.${entryPoint}: ${err.message}`);
  return { pipeline, layout: pipeline.getBindGroupLayout(0) };
}

/** compileKernel, once per device and (label, entry point). */
export function cachedKernel(device: GPUDevice, label: string, entryPoint: string, code: () => string): Promise<Kernel> {
  let perDevice = kernelCache.get(device);
  if (!perDevice) kernelCache.set(device, (perDevice = new Map()));
  const key = `${label}.${entryPoint}`;
  let p = perDevice.get(key);
  if (!p) {
    p = compileKernel(device, label, code(), entryPoint);
    perDevice.set(key, p);
    p.catch(() => perDevice.delete(key));
  }
  return p;
}

/**
 * Dispatches `groups` workgroups as rows of at most 65535 (x) by as many rows as needed (y);
 * kernels take workgroup_id.x + workgroup_id.y * num_workgroups.x as their linear index and
 * return when it is past the end. Nothing is dispatched for 0 groups.
 */
export function dispatchRows(pass: GPUComputePassEncoder, groups: number): void {
  if (groups <= 0) return;
  const x = Math.min(groups, dispatchLimits.maxGroupsPerDimension, MAX_GROUPS_PER_DIMENSION);
  const y = Math.ceil(groups / x);
  if (y > MAX_GROUPS_PER_DIMENSION) throw new Error(`${groups} workgroups do not fit in one 2D dispatch`);
  pass.dispatchWorkgroups(x, y);
}

/** Uniform-buffer slots of 256 bytes (the minimum uniform offset alignment WebGPU allows). */
export const UNIFORM_SLOT_BYTES = 256;

export function createUniformSlots(device: GPUDevice, label: string, slots: number): GPUBuffer {
  return device.createBuffer({ label, size: Math.max(1, slots) * UNIFORM_SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
}

/** A buffer that is replaced by a larger one when more room is needed (never shrinks). */
export class GrowingBuffer {
  buffer: GPUBuffer | null = null;
  constructor(
    private readonly device: GPUDevice,
    private readonly usage: number,
    private readonly label: string,
  ) {}
  /** The buffer, at least `bytes` large (at least 16); a new one (contents lost) when it grows. */
  ensure(bytes: number): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (!this.buffer || this.buffer.size < size) {
      this.buffer?.destroy();
      this.buffer = this.device.createBuffer({ label: this.label, size, usage: this.usage });
    }
    return this.buffer;
  }
  destroy(): void {
    this.buffer?.destroy();
    this.buffer = null;
  }
}

/** Copies `bytes` of `src` to the host (one submit, one map). */
export async function readBuffer(device: GPUDevice, src: GPUBuffer, bytes: number, offset = 0): Promise<ArrayBuffer> {
  const size = Math.max(4, Math.ceil(bytes / 4) * 4);
  const read = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  encoder.copyBufferToBuffer(src, offset, read, 0, size);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = read.getMappedRange().slice(0, bytes);
  read.unmap();
  read.destroy();
  return out;
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
  ) {}

  static async create(device: GPUDevice): Promise<GpuScan> {
    const code = (): string => scanConstantsWgsl() + assembleWgsl(['scan']);
    const [blocks, add] = await Promise.all([
      cachedKernel(device, 'scan', 'scanBlocks', code),
      cachedKernel(device, 'scan', 'scanAdd', code),
    ]);
    return new GpuScan(device, blocks, add);
  }

  /**
   * Plans an in-place exclusive scan of `n` u32 at `offset` bytes into `data` (offset a multiple
   * of 256). Allocates the block-sum buffers and writes the levels' parameters (once).
   */
  plan(data: GPUBuffer, n: number, offset = 0): ScanPlan {
    const device = this.device;
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const counts: number[] = [];
    for (let m = n; ; ) {
      counts.push(m);
      const blocks = scanBlockCount(m);
      if (blocks <= 1) break;
      m = blocks;
    }
    if (n === 0) counts.length = 0;
    const owned: GPUBuffer[] = [];
    const sums = counts.map((m, k) => {
      const b = device.createBuffer({ label: `scan-sums-${k}`, size: Math.max(16, Math.ceil((4 * scanBlockCount(m)) / 16) * 16), usage: S });
      owned.push(b);
      return b;
    });
    const total = sums[sums.length - 1] ?? device.createBuffer({ label: 'scan-total-empty', size: 16, usage: S });
    if (sums.length === 0) owned.push(total);
    const params = createUniformSlots(device, 'scan-params', counts.length);
    owned.push(params);
    const words = new Uint32Array((Math.max(1, counts.length) * UNIFORM_SLOT_BYTES) / 4);
    counts.forEach((m, k) => (words[(k * UNIFORM_SLOT_BYTES) / 4] = m));
    device.queue.writeBuffer(params, 0, words);
    const levels: ScanLevel[] = counts.map((m, k) => {
      const dataBinding: GPUBufferBinding = k === 0 ? { buffer: data, offset, size: Math.max(4, 4 * m) } : { buffer: sums[k - 1]! };
      const entries = (layout: GPUBindGroupLayout): GPUBindGroupDescriptor => ({
        layout,
        entries: [
          { binding: 0, resource: dataBinding },
          { binding: 1, resource: { buffer: sums[k]! } },
          { binding: 2, resource: { buffer: params, offset: k * UNIFORM_SLOT_BYTES, size: 16 } },
        ],
      });
      return {
        n: m,
        blocks: scanBlockCount(m),
        bindGroup: device.createBindGroup(entries(this.blocksKernel.layout)),
        addBindGroup: device.createBindGroup(entries(this.addKernel.layout)),
      };
    });
    return new ScanPlan(n, levels, owned, total);
  }

  /** Records the scan into `pass`: block scans down the levels, then the adds back up. */
  encode(pass: GPUComputePassEncoder, plan: ScanPlan): void {
    const levels = plan.levels;
    pass.setPipeline(this.blocksKernel.pipeline);
    for (const level of levels) {
      pass.setBindGroup(0, level.bindGroup);
      dispatchRows(pass, level.blocks);
    }
    if (levels.length > 1) pass.setPipeline(this.addKernel.pipeline);
    for (let k = levels.length - 2; k >= 0; k--) {
      pass.setBindGroup(0, levels[k]!.addBindGroup);
      dispatchRows(pass, levels[k]!.blocks);
    }
  }

  /** Convenience: exclusive prefix sums of `input` (saturating) and the total. */
  async scan(input: Uint32Array): Promise<{ prefix: Uint32Array; total: number; kernelMs: number | null }> {
    const device = this.device;
    const n = input.length;
    const bytes = Math.max(16, Math.ceil((4 * n) / 16) * 16);
    const data = device.createBuffer({ label: 'scan-data', size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    if (n > 0) device.queue.writeBuffer(data, 0, input.buffer, input.byteOffset, 4 * n);
    const plan = this.plan(data, n);
    const timing = device.features.has('timestamp-query') ? new PassTimer(device, ['scan']) : null;
    const encoder = device.createCommandEncoder({ label: 'scan' });
    const pass = encoder.beginComputePass(timing?.passDescriptor('scan') ?? {});
    this.encode(pass, plan);
    pass.end();
    timing?.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    const [prefix, total] = await Promise.all([readBuffer(device, data, 4 * n), readBuffer(device, plan.total.buffer, 4)]);
    const ms = timing ? await timing.read() : null;
    timing?.destroy();
    plan.destroy();
    data.destroy();
    return { prefix: new Uint32Array(prefix), total: n === 0 ? 0 : new Uint32Array(total)[0]!, kernelMs: ms ? ms['scan']! : null };
  }
}

// ---- timestamps -----------------------------------------------------------------------------

/** Timestamp queries around named compute passes (a device with 'timestamp-query'). */
export class PassTimer {
  private readonly querySet: GPUQuerySet;
  private readonly resolveBuf: GPUBuffer;
  private readonly readBuf: GPUBuffer;
  constructor(
    device: GPUDevice,
    readonly stages: readonly string[],
  ) {
    const count = 2 * stages.length;
    this.querySet = device.createQuerySet({ type: 'timestamp', count });
    this.resolveBuf = device.createBuffer({ size: 8 * count, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    this.readBuf = device.createBuffer({ size: 8 * count, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }
  /** The descriptor of stage `name`'s compute pass, with its two timestamp writes. */
  passDescriptor(name: string, label?: string): GPUComputePassDescriptor {
    const i = this.stages.indexOf(name);
    if (i < 0) throw new Error(`no timed stage ${name}`);
    return { label: label ?? name, timestampWrites: { querySet: this.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } };
  }
  /** Records the resolve and the copy to the readable buffer (after the timed passes). */
  resolve(encoder: GPUCommandEncoder): void {
    encoder.resolveQuerySet(this.querySet, 0, 2 * this.stages.length, this.resolveBuf, 0);
    encoder.copyBufferToBuffer(this.resolveBuf, 0, this.readBuf, 0, 16 * this.stages.length);
  }
  /** Milliseconds per stage, after the submit that resolved them. */
  async read(): Promise<Record<string, number>> {
    await this.readBuf.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(this.readBuf.getMappedRange().slice(0));
    this.readBuf.unmap();
    const out: Record<string, number> = {};
    this.stages.forEach((s, i) => (out[s] = Number(t[2 * i + 1]! - t[2 * i]!) / 1e6));
    return out;
  }
  destroy(): void {
    this.querySet.destroy();
    this.resolveBuf.destroy();
    this.readBuf.destroy();
  }
}
