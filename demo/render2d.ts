// Draws a 2D scene with WebGPU, straight from the GPU buffers of the collision frame: bodies and
// shapes (array<Body2D>, array<Shape2D>, shaders/layout2d.wgsl) one instance per body, and the
// dense contact list (contact-list2d-layout.wgsl) one instance per possible point. Nothing is read
// back. The shaders are demo/render2d.wgsl after the library's layouts.

import { MAX_MANIFOLD_POINTS_2D } from '../src/constants.ts';
import { assembleWgsl } from '../src/gpu/shaders.ts';
import { ContactDraws } from './contact-draws.ts';
import type { DrawView, SceneBounds } from './scenes/scene.ts';
import source from './render2d.wgsl?raw';

const VIEW_BYTES = 32;
/** Drawn length of a contact normal, device pixels (whatever the zoom). */
const NORMAL_PIXELS = 10;

export interface ContactBuffers2D {
  contacts: GPUBuffer;
  counts: GPUBuffer;
}

export class Renderer2D {
  private readonly bodyPipeline: GPURenderPipeline;
  private readonly dotPipeline: GPURenderPipeline;
  private readonly normalPipeline: GPURenderPipeline;
  private readonly viewBuffer: GPUBuffer;
  private bodyGroup: GPUBindGroup | null = null;
  private bodyGroupKey: [GPUBuffer, GPUBuffer] | null = null;
  private readonly contactDraws: ContactDraws;

  constructor(
    private readonly device: GPUDevice,
    format: GPUTextureFormat,
  ) {
    const module = device.createShaderModule({
      label: 'render2d',
      code: assembleWgsl(['layout2d', 'contact-list-layout', 'contact-list2d-layout']) + source,
    });
    const blend: GPUBlendState = {
      color: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
      alpha: { srcFactor: 'one', dstFactor: 'one-minus-src-alpha' },
    };
    const make = (vs: string, fs: string, topology: GPUPrimitiveTopology): GPURenderPipeline =>
      device.createRenderPipeline({
        label: `render2d-${vs}`,
        layout: 'auto',
        vertex: { module, entryPoint: vs },
        fragment: { module, entryPoint: fs, targets: [{ format, blend }] },
        primitive: { topology },
      });
    this.bodyPipeline = make('vsBody', 'fsBody', 'triangle-list');
    this.dotPipeline = make('vsContactDot', 'fsContactDot', 'triangle-list');
    this.normalPipeline = make('vsContactNormal', 'fsContactNormal', 'line-list');
    this.contactDraws = new ContactDraws(device, MAX_MANIFOLD_POINTS_2D, [2, 6]);
    this.viewBuffer = device.createBuffer({
      label: 'render2d-view',
      size: VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  /** Fits `bounds` (scaled by view.zoom) into the canvas, y up. */
  setView(bounds: SceneBounds, view: DrawView): void {
    const w = bounds.max[0]! - bounds.min[0]!;
    const h = bounds.max[1]! - bounds.min[1]!;
    const pixelsPerUnit = Math.min(view.width / w, view.height / h) * 0.96 * view.zoom;
    const sx = (2 * pixelsPerUnit) / view.width;
    const sy = (2 * pixelsPerUnit) / view.height;
    const cx = (bounds.min[0]! + bounds.max[0]!) / 2;
    const cy = (bounds.min[1]! + bounds.max[1]!) / 2;
    const pixel = 1 / pixelsPerUnit;
    const data = new Float32Array([sx, sy, -cx * sx, -cy * sy, pixel, NORMAL_PIXELS * pixel, 0, 0]);
    this.device.queue.writeBuffer(this.viewBuffer, 0, data);
  }

  drawBodies(
    pass: GPURenderPassEncoder,
    shapes: GPUBuffer,
    bodies: GPUBuffer,
    bodyCount: number,
  ): void {
    if (!this.bodyGroup || this.bodyGroupKey?.[0] !== shapes || this.bodyGroupKey[1] !== bodies) {
      this.bodyGroup = this.device.createBindGroup({
        layout: this.bodyPipeline.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: { buffer: shapes } },
          { binding: 1, resource: { buffer: bodies } },
          { binding: 2, resource: { buffer: this.viewBuffer } },
        ],
      });
      this.bodyGroupKey = [shapes, bodies];
    }
    pass.setPipeline(this.bodyPipeline);
    pass.setBindGroup(0, this.bodyGroup);
    pass.draw(6, bodyCount);
  }

  /** Before the render pass: the contact draws' instance counts from the list's counts. */
  prepareContacts(encoder: GPUCommandEncoder, list: ContactBuffers2D): void {
    this.contactDraws.encode(encoder, list.counts);
  }

  /** The contact list (after prepareContacts): normals (lines from each point along the manifold normal), then dots. */
  drawContacts(pass: GPURenderPassEncoder, list: ContactBuffers2D): void {
    for (const [pipeline, offset] of [
      [this.normalPipeline, 0],
      [this.dotPipeline, 16],
    ] as const) {
      const group = this.device.createBindGroup({
        layout: pipeline.getBindGroupLayout(0),
        entries: [
          { binding: 2, resource: { buffer: this.viewBuffer } },
          { binding: 3, resource: { buffer: list.contacts } },
          { binding: 4, resource: { buffer: list.counts } },
        ],
      });
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.drawIndirect(this.contactDraws.args, offset);
    }
  }

  destroy(): void {
    this.contactDraws.destroy();
    this.viewBuffer.destroy();
  }
}
