// A 2D scene on a world that moves its bodies and records the collision frame into the page's
// encoder: the solver's GpuWorld2D, or KinematicWorld2D (same surface). Drawing reads the world's
// buffers directly (demo/render2d.ts); the contact list drawn is the frame's. Each frame first
// copies the bodies aside (the solver moves them in place after the collision), so validate()
// checks the last frame against the bodies it collided.

import { GpuFrame2D, type FrameCounts2D, type FrameOutputs2D } from '../../src/gpu/frame2d.ts';
import type { Shape2D } from '../../src/shapes2d.ts';
import { Renderer2D } from '../render2d.ts';
import { validateFrame2D } from '../validate2d.ts';
import { CLEAR_COLOUR, type DemoScene, type DrawView, type FrameReport, type SceneBounds, type ValidationReport } from './scene.ts';

/** What the scene needs of a world: GpuWorld2D's surface (src/solver/world2d.ts). */
export interface World2D {
  readonly device: GPUDevice;
  readonly bodyCount: number;
  /** array<Body2D>, STORAGE | COPY_SRC. */
  readonly bodies: GPUBuffer;
  /** array<Shape2D>, STORAGE. */
  readonly shapes: GPUBuffer;
  /** The collision frame (a GpuFrame2D gives stage timings). */
  readonly frame: unknown;
  encodeStep(encoder: GPUCommandEncoder, dt: number): FrameOutputs2D;
  readCounts(): Promise<FrameCounts2D>;
  grow(counts: FrameCounts2D): void;
  destroy(): void;
}

/** GPU ms of the frame's own timed stages: broadphase, and ordering + persistence of the list. */
async function frameTimings(frame: unknown): Promise<Record<string, number> | null> {
  if (!(frame instanceof GpuFrame2D)) return null;
  const [bp, ct] = await Promise.all([frame.broadphase.readTimings(), frame.contacts.readTimings()]);
  if (!bp || !ct) return null;
  return { broadphase: bp.total, 'order+persist': ct.order + ct.persist };
}

export class WorldScene2D implements DemoScene {
  readonly dim = 2;
  private outputs: FrameOutputs2D | null = null;
  private counts: FrameCounts2D | null = null;
  private readonly renderer: Renderer2D;
  private readonly collided: GPUBuffer;

  constructor(
    private readonly world: World2D,
    /** The shapes as the library builds them (the CPU reference's input). */
    private readonly shapeList: readonly Shape2D[],
    readonly margin: number,
    readonly bounds: SceneBounds,
    readonly motion: 'kinematic' | 'solver',
    format: GPUTextureFormat,
  ) {
    this.renderer = new Renderer2D(world.device, format);
    this.collided = world.device.createBuffer({ label: 'demo-collided-bodies2d', size: world.bodies.size, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  }

  get bodyCount(): number {
    return this.world.bodyCount;
  }

  encode(encoder: GPUCommandEncoder, dt: number): void {
    encoder.copyBufferToBuffer(this.world.bodies, 0, this.collided, 0, this.collided.size);
    this.outputs = this.world.encodeStep(encoder, dt);
  }

  async finish(): Promise<FrameReport> {
    const [counts, gpuMs] = await Promise.all([this.world.readCounts(), frameTimings(this.world.frame)]);
    this.counts = counts;
    // Overflowed: the next frame gets bigger buffers (this one dropped what did not fit).
    this.world.grow(counts);
    return { pairs: counts.pairs, contacts: counts.contacts, overflowed: counts.pairsOverflow || counts.contactsOverflow, gpuMs };
  }

  draw(encoder: GPUCommandEncoder, target: GPUTextureView, view: DrawView, timestampWrites?: GPURenderPassTimestampWrites): void {
    this.renderer.setView(this.bounds, view);
    const contacts = view.showContacts ? this.outputs?.contacts : undefined;
    if (contacts) this.renderer.prepareContacts(encoder, contacts);
    const pass = encoder.beginRenderPass({
      label: 'demo-2d',
      colorAttachments: [{ view: target, clearValue: CLEAR_COLOUR, loadOp: 'clear', storeOp: 'store' }],
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    this.renderer.drawBodies(pass, this.world.shapes, this.world.bodies, this.world.bodyCount);
    if (contacts) this.renderer.drawContacts(pass, contacts);
    pass.end();
  }

  async validate(): Promise<ValidationReport> {
    if (!this.outputs || !this.counts) throw new Error('validate: no frame yet');
    return validateFrame2D({
      device: this.world.device,
      outputs: this.outputs,
      counts: this.counts,
      bodies: this.collided,
      bodyCount: this.world.bodyCount,
      shapes: this.shapeList,
      margin: this.margin,
    });
  }

  destroy(): void {
    this.renderer.destroy();
    this.collided.destroy();
    this.world.destroy();
  }
}
