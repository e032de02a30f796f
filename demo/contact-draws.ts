// Indirect draw arguments for a contact list: one instance per possible point of the entries the
// frame wrote (counts.written × points per entry), computed on the GPU from the list's counts, so
// the draw neither reads anything back nor runs a vertex for every slot of the list's capacity.

import { assembleWgsl } from '../src/gpu/shaders.ts';

const SOURCE = /* wgsl */ `
struct DrawParams {
  pointsPerEntry: u32,
  draws: u32,
  vertices: vec2u,     // vertex count of draw 0 and draw 1
}

@group(0) @binding(0) var<storage, read> counts: ContactCounts;
@group(0) @binding(1) var<storage, read_write> args: array<u32, 8>;
@group(0) @binding(2) var<uniform> params: DrawParams;

@compute @workgroup_size(1)
fn contactDrawArgs() {
  for (var d = 0u; d < 2u; d++) {
    args[4u * d] = params.vertices[d];
    args[4u * d + 1u] = select(0u, counts.written * params.pointsPerEntry, d < params.draws);
    args[4u * d + 2u] = 0u;
    args[4u * d + 3u] = 0u;
  }
}
`;

export class ContactDraws {
  private readonly pipeline: GPUComputePipeline;
  /** Two DrawIndirect argument sets, at offsets 0 and 16. */
  readonly args: GPUBuffer;
  private readonly params: GPUBuffer;

  /** `vertices`: vertex counts of the (one or two) draws each point makes. */
  constructor(
    private readonly device: GPUDevice,
    pointsPerEntry: number,
    vertices: readonly number[],
  ) {
    const module = device.createShaderModule({
      label: 'contact-draws',
      code: assembleWgsl(['contact-list-layout']) + SOURCE,
    });
    this.pipeline = device.createComputePipeline({
      label: 'contact-draws',
      layout: 'auto',
      compute: { module, entryPoint: 'contactDrawArgs' },
    });
    this.args = device.createBuffer({
      label: 'contact-draw-args',
      size: 32,
      usage: GPUBufferUsage.INDIRECT | GPUBufferUsage.STORAGE,
    });
    this.params = device.createBuffer({
      label: 'contact-draw-params',
      size: 16,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    device.queue.writeBuffer(
      this.params,
      0,
      new Uint32Array([pointsPerEntry, vertices.length, vertices[0] ?? 0, vertices[1] ?? 0]),
    );
  }

  /** Records the arguments' computation from the list's ContactCounts (before the render pass). */
  encode(encoder: GPUCommandEncoder, counts: GPUBuffer): void {
    const pass = encoder.beginComputePass({ label: 'contact-draws' });
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(
      0,
      this.device.createBindGroup({
        layout: this.pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: counts } },
          { binding: 1, resource: { buffer: this.args } },
          { binding: 2, resource: { buffer: this.params } },
        ],
      }),
    );
    pass.dispatchWorkgroups(1);
    pass.end();
  }

  destroy(): void {
    this.args.destroy();
    this.params.destroy();
  }
}
