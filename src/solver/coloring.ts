// Graph colouring of contact constraints on the GPU (shaders/coloring.wgsl), shared by the 2D and
// 3D solvers: from the body pair of each constraint (a dense contact list's keys) and which bodies
// are dynamic, a colour per constraint such that no two constraints of one colour share a dynamic
// body; COLOR_NONE for the few left after COLOR_ROUNDS rounds. Deterministic (see the WGSL).
// Recorded into the caller's encoder with no readback: the constraint count is read on the GPU.

import { CapacityError } from '../errors.ts';
import { createUniformSlots, dispatchRows, GrowingBuffer, UNIFORM_SLOT_BYTES } from '../gpu/buffers.ts';
import { cachedKernel, type Kernel } from '../gpu/pipelines.ts';
import { wgslFile } from '../gpu/shaders.ts';
import { COLOR_INDEX_BITS, COLOR_NONE, COLOR_ROUNDS, SOLVER_WORKGROUP_SIZE, solverConstantsWgsl } from './constants.ts';

export { COLOR_NONE, COLOR_ROUNDS };

const coloringWgsl = (): string => solverConstantsWgsl() + wgslFile('coloring');

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

export class GpuColoring {
  private readonly colors: GrowingBuffer;
  private readonly slots: GrowingBuffer;
  private readonly params: GPUBuffer;

  private constructor(readonly device: GPUDevice, private readonly claim: Kernel, private readonly check: Kernel) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.colors = new GrowingBuffer(device, S, 'coloring-colors');
    this.slots = new GrowingBuffer(device, S, 'coloring-slots');
    this.params = createUniformSlots(device, 'coloring-params', COLOR_ROUNDS);
  }

  static async create(device: GPUDevice): Promise<GpuColoring> {
    const [claim, check] = await Promise.all([
      cachedKernel(device, 'coloring', 'colorClaim', coloringWgsl),
      cachedKernel(device, 'coloring', 'colorCheck', coloringWgsl),
    ]);
    return new GpuColoring(device, claim, check);
  }

  /** Records the colouring; returns array<u32> of colours per constraint (0..COLOR_ROUNDS-1 or COLOR_NONE). */
  encode(encoder: GPUCommandEncoder, inputs: ColoringInputs): GPUBuffer {
    if (inputs.capacity >= 2 ** COLOR_INDEX_BITS) {
      throw new CapacityError(`coloring: ${inputs.capacity} constraints; at most ${2 ** COLOR_INDEX_BITS - 1} per step`);
    }
    const colors = this.colors.ensure(4 * Math.max(1, inputs.capacity));
    const slots = this.slots.ensure(4 * Math.max(1, inputs.bodyCount));
    const words = new Uint32Array((COLOR_ROUNDS * UNIFORM_SLOT_BYTES) / 4);
    for (let r = 0; r < COLOR_ROUNDS; r++) {
      words[(r * UNIFORM_SLOT_BYTES) / 4] = r;
      words[(r * UNIFORM_SLOT_BYTES) / 4 + 1] = inputs.countWord;
    }
    this.device.queue.writeBuffer(this.params, 0, words);
    encoder.clearBuffer(slots);
    const groups = Math.ceil(inputs.capacity / SOLVER_WORKGROUP_SIZE);
    const pass = encoder.beginComputePass({ label: 'coloring' });
    for (let r = 0; r < COLOR_ROUNDS; r++) {
      for (const kernel of [this.claim, this.check]) {
        pass.setPipeline(kernel.pipeline);
        pass.setBindGroup(0, this.device.createBindGroup({
          layout: kernel.layout,
          entries: [
            { binding: 0, resource: { buffer: this.params, offset: r * UNIFORM_SLOT_BYTES, size: 16 } },
            { binding: 1, resource: { buffer: inputs.pairs } },
            { binding: 2, resource: { buffer: inputs.counts } },
            { binding: 3, resource: { buffer: inputs.dynamicBodies } },
            { binding: 4, resource: { buffer: colors } },
            { binding: 5, resource: { buffer: slots } },
          ],
        }));
        dispatchRows(pass, groups);
      }
    }
    pass.end();
    return colors;
  }

  destroy(): void {
    this.colors.destroy();
    this.slots.destroy();
    this.params.destroy();
  }
}

