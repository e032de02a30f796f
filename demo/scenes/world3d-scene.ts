// A 3D scene on a world that moves its bodies and records the collision frame into the page's
// encoder: the solver's GpuWorld3D, or KinematicWorld3D (same surface). Drawing reads the world's
// Body3D buffer and the frame's contact list directly (demo/render3d.ts). Each frame first copies
// the bodies aside (the solver moves them in place after the collision), so validate() checks the
// last frame against the bodies it collided.

import { GpuFrame3D, type FrameCounts3D, type FrameOutputs3D } from '../../src/gpu/frame3d.ts';
import type { Shape3D } from '../../src/shapes3d.ts';
import { Renderer3D } from '../render3d.ts';
import { validateFrame3D } from '../validate3d.ts';
import { CLEAR_COLOUR, type DemoScene, type DrawView, type FrameReport, type SceneBounds, type ValidationReport } from './scene.ts';

/** What the scene needs of a world: GpuWorld3D's surface (src/solver/world3d.ts). */
export interface World3D {
  readonly device: GPUDevice;
  readonly bodyCount: number;
  /** array<Body3D>, STORAGE | COPY_SRC. */
  readonly bodies: GPUBuffer;
  /** The collision frame (a GpuFrame3D gives stage timings). */
  readonly frame: unknown;
  encodeStep(encoder: GPUCommandEncoder, dt: number): FrameOutputs3D;
  readCounts(): Promise<FrameCounts3D>;
  grow(counts: FrameCounts3D): void;
  destroy(): void;
}

/** GPU ms of the frame's own timed stages: broadphase, and ordering + persistence of the list. */
async function frameTimings(frame: unknown): Promise<Record<string, number> | null> {
  if (!(frame instanceof GpuFrame3D)) return null;
  const [bp, ct] = await Promise.all([frame.broadphase.readTimings(), frame.contacts.readTimings()]);
  if (!bp || !ct) return null;
  return { broadphase: bp.total, 'order+persist': ct.order + ct.persist };
}

export interface SceneBodies3D {
  /** The shapes as the library builds them. */
  shapes: readonly Shape3D[];
  /** Shape of each body (bodies of one shape contiguous: one instanced draw each). */
  bodyShape: Uint32Array;
  /** Shapes only static bodies use (drawn grey). */
  staticShapes: ReadonlySet<number>;
}

export class WorldScene3D implements DemoScene {
  readonly dim = 3;
  private outputs: FrameOutputs3D | null = null;
  private counts: FrameCounts3D | null = null;
  private readonly renderer: Renderer3D;
  private readonly collided: GPUBuffer;

  constructor(
    private readonly world: World3D,
    private readonly layout: SceneBodies3D,
    readonly margin: number,
    readonly bounds: SceneBounds,
    readonly motion: 'kinematic' | 'solver',
    format: GPUTextureFormat,
    normalLength: number,
  ) {
    const device = world.device;
    this.renderer = new Renderer3D(device, format, layout.shapes, layout.bodyShape, world.bodies, layout.staticShapes, normalLength);
    this.collided = device.createBuffer({ label: 'demo-collided-bodies3d', size: world.bodies.size, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
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
    this.world.grow(counts);
    return { pairs: counts.pairs, contacts: counts.contacts, overflowed: counts.pairsOverflow || counts.contactsOverflow, gpuMs };
  }

  draw(encoder: GPUCommandEncoder, target: GPUTextureView, view: DrawView, timestampWrites?: GPURenderPassTimestampWrites): void {
    this.renderer.draw(encoder, target, CLEAR_COLOUR, this.bounds, view, view.showContacts ? this.outputs?.contacts ?? null : null, timestampWrites);
  }

  validate(): Promise<ValidationReport> {
    if (!this.outputs || !this.counts) throw new Error('validate: no frame yet');
    return validateFrame3D({
      device: this.world.device,
      outputs: this.outputs,
      counts: this.counts,
      bodies: this.collided,
      bodyCount: this.world.bodyCount,
      shapes: this.layout.shapes,
      margin: this.margin,
    });
  }

  destroy(): void {
    this.renderer.destroy();
    this.collided.destroy();
    this.world.destroy();
  }
}
