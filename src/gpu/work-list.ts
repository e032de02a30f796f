// The slots of a batch flagged for the full collide (REUSE_STATUS.collide, src/gpu/reuse.ts), as
// a list in slot order with its length on the GPU (shaders/work-list.wgsl: masks per block of
// slots, a scan of their counts, a scatter), for the pair classes (src/gpu/pair-classes.ts) to
// collide those slots alone.

import { createUniformSlots, dispatchRows, GrowingBuffer, UNIFORM_SLOT_BYTES } from './buffers.ts';
import { ENTRIES_WORK_LIST } from '../reflection.generated.ts';
import { WORK_LIST_WORKGROUP_SIZE as WORKGROUP, workListModuleWgsl } from './frame-wgsl.ts';
import { maskBlocks } from '../mask-blocks.ts';
import { compileKernels, type Kernel, cachedBindGroup } from './pipelines.ts';
import { GpuScan, type ScanPlan } from './scan.ts';

const KERNELS = ['wlFlags', 'wlScatter'] as const;
type KernelName = (typeof KERNELS)[number];

/** A batch's work list: the slots (u32 each) and, on the GPU, how many (a u32 at `count`). */
export interface WorkList {
  list: { buffer: GPUBuffer; offset: number; capacity: number };
  count: { buffer: GPUBuffer; offset: number };
}

export class GpuWorkList {
  private readonly marks: GrowingBuffer[] = [];
  private readonly lists: GrowingBuffer[] = [];
  private params: GPUBuffer;
  /** Each batch's pair count, copied where a binding may start (256-byte slots). */
  private counts: GPUBuffer;
  private paramSlots = 1;
  private plans: { plan: ScanPlan; data: GPUBuffer; n: number }[] = [];

  private constructor(
    readonly device: GPUDevice,
    private readonly kernels: Record<KernelName, Kernel>,
    private readonly bindings: Record<KernelName, number[]>,
    private readonly scan: GpuScan,
  ) {
    this.params = createUniformSlots(device, 'work-list-params', 1);
    this.counts = this.countSlots(1);
  }

  private countSlots(batches: number): GPUBuffer {
    return this.device.createBuffer({
      label: 'work-list-counts',
      size: batches * UNIFORM_SLOT_BYTES,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  static async create(device: GPUDevice): Promise<GpuWorkList> {
    const [{ kernels, bindings }, scan] = await Promise.all([
      compileKernels(device, 'work-list', KERNELS, ENTRIES_WORK_LIST, workListModuleWgsl),
      GpuScan.create(device),
    ]);
    return new GpuWorkList(device, kernels, bindings, scan);
  }

  /** Room for `batches` batches in one submit (each its own buffers and parameters). */
  reserve(batches: number): void {
    if (batches > this.paramSlots) {
      this.params.destroy();
      this.counts.destroy();
      this.params = createUniformSlots(this.device, 'work-list-params', batches);
      this.counts = this.countSlots(batches);
      this.paramSlots = batches;
    }
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    while (this.marks.length < batches) {
      this.marks.push(new GrowingBuffer(this.device, S, `work-list-marks-${this.marks.length}`));
      this.lists.push(new GrowingBuffer(this.device, S, `work-list-${this.lists.length}`));
    }
  }

  /**
   * Records batch `index`'s list (after reserve(batches)): the slots below `count` (a u32 on the
   * GPU) whose flag is REUSE_STATUS.collide. The masks, the scan and the scatter run over the
   * blocks of every slot (a 32nd of them).
   */
  encode(
    encoder: GPUCommandEncoder,
    flags: GPUBufferBinding,
    slots: number,
    count: { buffer: GPUBuffer; offset: number },
    index: number,
  ): WorkList {
    if (index >= this.paramSlots)
      throw new RangeError(`work list: batch ${index} past the ${this.paramSlots} reserved`);
    // Per block of MASK_BLOCK slots its count (then its place), the 0 closing them, its mask.
    const { blocks, words } = maskBlocks(slots);
    const markBytes = 4 * words;
    const marks = this.marks[index].ensure(markBytes);
    const list = this.lists[index].ensure(4 * Math.max(1, slots));
    this.device.queue.writeBuffer(
      this.params,
      index * UNIFORM_SLOT_BYTES,
      new Uint32Array([slots, 0, 0, 0]),
    );
    encoder.copyBufferToBuffer(
      count.buffer,
      count.offset,
      this.counts,
      index * UNIFORM_SLOT_BYTES,
      4,
    );
    const resources: Record<number, GPUBufferBinding> = {
      0: { buffer: this.params, offset: index * UNIFORM_SLOT_BYTES, size: 16 },
      1: { buffer: this.counts, offset: index * UNIFORM_SLOT_BYTES, size: 4 },
      2: flags,
      3: { buffer: marks, size: markBytes },
      4: { buffer: list, size: 4 * Math.max(1, slots) },
    };
    const pass = encoder.beginComputePass({ label: 'work-list' });
    const run = (name: KernelName, n: number): void => {
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(
        0,
        cachedBindGroup(this.device, {
          label: `work-list.${name}`,
          layout: this.kernels[name].layout,
          entries: this.bindings[name].map((b) => ({ binding: b, resource: resources[b] })),
        }),
      );
      dispatchRows(pass, Math.ceil(n / WORKGROUP));
    };
    // Over every block of the slots (a 32nd of them: no grid from the GPU is worth its dispatch).
    run('wlFlags', blocks + 1);
    this.scan.encode(pass, this.plan(marks, blocks + 1));
    run('wlScatter', blocks);
    pass.end();
    return {
      list: { buffer: list, offset: 0, capacity: Math.max(1, slots) },
      count: { buffer: marks, offset: 4 * blocks },
    };
  }

  private plan(data: GPUBuffer, n: number): ScanPlan {
    let p = this.plans.find((q) => q.data === data && q.n === n);
    if (!p) {
      for (const q of this.plans.filter((q) => q.data === data)) q.plan.destroy();
      this.plans = this.plans.filter((q) => q.data !== data);
      p = { plan: this.scan.plan(data, n), data, n };
      this.plans.push(p);
    }
    return p.plan;
  }

  destroy(): void {
    for (const p of this.plans) p.plan.destroy();
    for (const b of [...this.marks, ...this.lists]) b.destroy();
    this.params.destroy();
    this.counts.destroy();
  }
}
