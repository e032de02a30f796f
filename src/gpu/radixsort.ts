// Stable LSD radix sort of (u32 key, u32 value) pairs on the GPU (shaders/radixsort.wgsl):
// RADIX_BITS = 4 bits per pass (only as many passes as the key's bits need), each pass a per-block histogram, an exclusive scan of the
// digit-major histograms (src/gpu/scan.ts) and a stable scatter. Deterministic: equal keys keep
// their input order, and no result depends on the order in which atomics or workgroups run.
//
// Float keys: f32SortKey (and sortKeyF32 in shaders/broadphase.wgsl) maps an f32 to a u32 whose
// unsigned order is the float order, with -0 and +0 mapped to the same key.

import { RADIX_BITS, RADIX_ITEMS, RADIX_WORKGROUP_SIZE } from '../constants.ts';
import { radixSortWgsl } from './shaders.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import {
  PassTimer,
  UNIFORM_SLOT_BYTES,
  createUniformSlots,
  dispatchRows,
  readBuffer,
} from './buffers.ts';
import { cachedKernel, type Kernel } from './pipelines.ts';

export { RADIX_BITS, RADIX_WORKGROUP_SIZE, RADIX_ITEMS };
/** Digits per pass (2^RADIX_BITS); the kernel's packed counters hold exactly 16. */
export const RADIX_BUCKETS = 1 << RADIX_BITS;
/** Elements per workgroup block; below 65536, the range of the kernel's 16-bit packed counts. */
export const RADIX_BLOCK = RADIX_WORKGROUP_SIZE * RADIX_ITEMS;

if (RADIX_BUCKETS !== 16 || RADIX_BLOCK >= 65536)
  throw new Error('radixsort.wgsl packs 16 digit counts of < 65536');

/** RadixParams.countWord of a sort of all its elements (shaders/radixsort.wgsl). */
const RADIX_NO_COUNT = 0xffffffff;

export function radixConstantsWgsl(): string {
  return [
    `const RADIX_BITS: u32 = ${RADIX_BITS}u;`,
    `const RADIX_BUCKETS: u32 = ${RADIX_BUCKETS}u;`,
    `const RADIX_WORKGROUP_SIZE: u32 = ${RADIX_WORKGROUP_SIZE}u;`,
    `const RADIX_ITEMS: u32 = ${RADIX_ITEMS}u;`,
    `const RADIX_BLOCK: u32 = ${RADIX_BLOCK}u;`,
    `const RADIX_NO_COUNT: u32 = ${RADIX_NO_COUNT}u;`,
    '',
  ].join('\n');
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The u32 whose unsigned order is the order of the f32 `x` (-0 and +0 give the same key). */
export function f32SortKey(x: number): number {
  f32[0] = x;
  let b = u32[0];
  if (b === 0x80000000) b = 0;
  return (b & 0x80000000 ? ~b : b | 0x80000000) >>> 0;
}

/** A sort of `n` pairs in two caller buffers, with its scratch; encode it with GpuRadixSort.encode. */
export class RadixSortPlan {
  constructor(
    readonly n: number,
    readonly keyBits: number,
    readonly blocks: number,
    readonly passes: readonly { histogram: GPUBindGroup; scatter: GPUBindGroup }[],
    readonly scanPlan: ScanPlan | null,
    private readonly owned: readonly GPUBuffer[],
    /**
     * Where the sorted pairs end: the caller's buffers after an even number of passes (keyBits a
     * multiple of 8), the scratch buffers after an odd one.
     */
    readonly output: { keys: GPUBuffer; values: GPUBuffer },
  ) {}
  destroy(): void {
    this.scanPlan?.destroy();
    for (const b of this.owned) b.destroy();
  }
}

export class GpuRadixSort {
  /** Bound as radixCount by sorts without a count source (never read). */
  private readonly noCount: GPUBuffer;

  private constructor(
    readonly device: GPUDevice,
    private readonly histogramKernel: Kernel,
    private readonly scatterKernel: Kernel,
    private readonly scan: GpuScan,
  ) {
    this.noCount = device.createBuffer({
      label: 'radix-no-count',
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
  }

  static async create(device: GPUDevice): Promise<GpuRadixSort> {
    const code = (): string => radixSortWgsl(radixConstantsWgsl());
    const [histogram, scatter, scan] = await Promise.all([
      cachedKernel(device, 'radixsort', 'radixHistogram', code),
      cachedKernel(device, 'radixsort', 'radixScatter', code),
      GpuScan.create(device),
    ]);
    return new GpuRadixSort(device, histogram, scatter, scan);
  }

  /**
   * Plans sorting the first `n` elements of `keys` and `values` (u32 each) by the low `keyBits`
   * bits of the keys (a multiple of RADIX_BITS, 4 to 32): one pass per RADIX_BITS, so 8, 16, 24
   * or 32 bits (an even number of passes) end in the caller's buffers, the others in the scratch
   * buffers (plan.output says which). Allocates the ping-pong buffers (unless `scratch` gives two
   * of at least 4n bytes, which the plan then uses and does not own), the histograms and the scan,
   * and writes the passes' parameters (once).
   */
  plan(
    keys: GPUBuffer,
    values: GPUBuffer,
    n: number,
    keyBits = 32,
    scratch?: { keys: GPUBuffer; values: GPUBuffer },
    /**
     * Sort only the first min(n, u32 at word `word` of `buffer`) elements, a count the GPU writes
     * before the sort (the others stay where they are, in one buffer of the pair or the other).
     * The passes still dispatch every planned block: those past the count count nothing and move
     * nothing (a direct dispatch costs less than an indirect one, which WebGPU validates).
     */
    count?: { buffer: GPUBuffer; word: number },
  ): RadixSortPlan {
    if (
      !Number.isInteger(keyBits) ||
      keyBits < RADIX_BITS ||
      keyBits > 32 ||
      keyBits % RADIX_BITS !== 0
    ) {
      throw new Error(
        `keyBits must be a multiple of ${RADIX_BITS} from ${RADIX_BITS} to 32, not ${keyBits}`,
      );
    }
    const device = this.device;
    const passCount = keyBits / RADIX_BITS;
    const blocks = Math.ceil(n / RADIX_BLOCK);
    if (n === 0) return new RadixSortPlan(0, keyBits, 0, [], null, [], { keys, values });
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const bytes = Math.ceil((4 * n) / 16) * 16;
    if (scratch && (scratch.keys.size < 4 * n || scratch.values.size < 4 * n))
      throw new Error(`radix sort scratch buffers hold fewer than ${n} elements`);
    const tmpKeys =
      scratch?.keys ?? device.createBuffer({ label: 'radix-keys-tmp', size: bytes, usage: S });
    const tmpValues =
      scratch?.values ?? device.createBuffer({ label: 'radix-values-tmp', size: bytes, usage: S });
    const hist = device.createBuffer({
      label: 'radix-hist',
      size: Math.ceil((4 * RADIX_BUCKETS * blocks) / 16) * 16,
      usage: S,
    });
    const params = createUniformSlots(device, 'radix-params', passCount);
    const words = new Uint32Array((passCount * UNIFORM_SLOT_BYTES) / 4);
    for (let p = 0; p < passCount; p++) {
      const o = (p * UNIFORM_SLOT_BYTES) / 4;
      words[o] = n;
      words[o + 1] = p * RADIX_BITS;
      words[o + 2] = blocks;
      words[o + 3] = count ? count.word : RADIX_NO_COUNT;
    }
    device.queue.writeBuffer(params, 0, words);
    const size = 4 * n;
    const ping = [
      { keys: { buffer: keys, size }, values: { buffer: values, size } },
      { keys: { buffer: tmpKeys, size }, values: { buffer: tmpValues, size } },
    ];
    const passes = Array.from({ length: passCount }, (_, p) => {
      const src = ping[p % 2];
      const dst = ping[(p + 1) % 2];
      const uniform = { buffer: params, offset: p * UNIFORM_SLOT_BYTES, size: 16 };
      return {
        histogram: device.createBindGroup({
          label: `radix-histogram-${p}`,
          layout: this.histogramKernel.layout,
          entries: [
            { binding: 0, resource: src.keys },
            { binding: 4, resource: { buffer: hist } },
            { binding: 5, resource: uniform },
            { binding: 6, resource: { buffer: count?.buffer ?? this.noCount } },
          ],
        }),
        scatter: device.createBindGroup({
          label: `radix-scatter-${p}`,
          layout: this.scatterKernel.layout,
          entries: [
            { binding: 0, resource: src.keys },
            { binding: 1, resource: src.values },
            { binding: 2, resource: dst.keys },
            { binding: 3, resource: dst.values },
            { binding: 4, resource: { buffer: hist } },
            { binding: 5, resource: uniform },
            { binding: 6, resource: { buffer: count?.buffer ?? this.noCount } },
          ],
        }),
      };
    });
    const scanPlan = this.scan.plan(hist, RADIX_BUCKETS * blocks);
    const output = passCount % 2 === 0 ? { keys, values } : { keys: tmpKeys, values: tmpValues };
    return new RadixSortPlan(
      n,
      keyBits,
      blocks,
      passes,
      scanPlan,
      scratch ? [hist, params] : [tmpKeys, tmpValues, hist, params],
      output,
    );
  }

  /** Records the sort into `pass` (histogram, scan, scatter per digit). */
  encode(pass: GPUComputePassEncoder, plan: RadixSortPlan): void {
    if (plan.n === 0) return;
    for (const p of plan.passes) {
      pass.setPipeline(this.histogramKernel.pipeline);
      pass.setBindGroup(0, p.histogram);
      dispatchRows(pass, plan.blocks);
      this.scan.encode(pass, plan.scanPlan!);
      pass.setPipeline(this.scatterKernel.pipeline);
      pass.setBindGroup(0, p.scatter);
      dispatchRows(pass, plan.blocks);
    }
  }

  /**
   * Convenience: sorts `keys` with `values` (default: the indices 0..n-1), stably, and reads both
   * back, with the kernel time when the device has timestamps.
   */
  async sort(
    keys: Uint32Array,
    values?: Uint32Array,
    keyBits = 32,
  ): Promise<{ keys: Uint32Array; values: Uint32Array; kernelMs: number | null }> {
    const device = this.device;
    const n = keys.length;
    const vals = values ?? Uint32Array.from({ length: n }, (_, i) => i);
    if (vals.length !== n) throw new Error(`${n} keys but ${vals.length} values`);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const bytes = Math.max(16, Math.ceil((4 * n) / 16) * 16);
    const kb = device.createBuffer({ label: 'radix-keys', size: bytes, usage: S });
    const vb = device.createBuffer({ label: 'radix-values', size: bytes, usage: S });
    if (n > 0) {
      device.queue.writeBuffer(kb, 0, keys.buffer, keys.byteOffset, 4 * n);
      device.queue.writeBuffer(vb, 0, vals.buffer, vals.byteOffset, 4 * n);
    }
    const plan = this.plan(kb, vb, n, keyBits);
    const timer = device.features.has('timestamp-query') ? new PassTimer(device, ['sort']) : null;
    const encoder = device.createCommandEncoder({ label: 'radixsort' });
    const pass = encoder.beginComputePass(timer?.passDescriptor('sort') ?? {});
    this.encode(pass, plan);
    pass.end();
    timer?.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    const [k, v] = await Promise.all([
      readBuffer(device, plan.output.keys, 4 * n),
      readBuffer(device, plan.output.values, 4 * n),
    ]);
    const ms = timer ? (await timer.read())['sort'] : null;
    timer?.destroy();
    plan.destroy();
    kb.destroy();
    vb.destroy();
    return { keys: new Uint32Array(k), values: new Uint32Array(v), kernelMs: ms };
  }
}
