// A 3D scene: a world that steps and collides (KinematicWorld3D today: host integrator and
// broadphase, GPU narrowphase with readback), drawn from a Body3D buffer the scene uploads each
// frame (demo/render3d.ts); contacts are the read-back manifolds.

import { LAYOUT_3D } from '../../src/layout3d.ts';
import { Renderer3D } from '../render3d.ts';
import { validateFrame3D } from '../validate3d.ts';
import type { Frame3D, KinematicWorld3D } from './kinematic3d.ts';
import { CLEAR_COLOUR, type DemoScene, type DrawView, type FrameReport, type SceneBounds, type ValidationReport } from './scene.ts';

export class WorldScene3D implements DemoScene {
  readonly dim = 3;
  private readonly renderer: Renderer3D;
  private readonly bodies: GPUBuffer;
  private frame: Frame3D | null = null;

  constructor(private readonly world: KinematicWorld3D, readonly bounds: SceneBounds, readonly motion: 'kinematic' | 'solver', format: GPUTextureFormat, private readonly normalLength: number) {
    const device = world.device;
    this.bodies = device.createBuffer({ label: 'demo-bodies3d', size: Math.max(16, world.bodyCount * LAYOUT_3D.body.words * 4), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.renderer = new Renderer3D(device, format, world.scene.shapes, world.scene.bodyShape, this.bodies, world.staticShapes());
  }

  get bodyCount(): number {
    return this.world.bodyCount;
  }

  async encode(_encoder: GPUCommandEncoder, dt: number): Promise<void> {
    const frame = await this.world.step(dt);
    this.frame = frame;
    this.world.device.queue.writeBuffer(this.bodies, 0, frame.packed.bodies);
    this.renderer.setContacts(frame.manifolds, this.normalLength);
  }

  finish(): Promise<FrameReport> {
    const f = this.frame;
    if (!f) throw new Error('finish() before encode()');
    return Promise.resolve({
      pairs: f.packed.pairCount,
      contacts: f.manifolds.reduce((n, m) => n + (m.points.length > 0 ? 1 : 0), 0),
      gpuMs: f.kernelMs === null ? null : { narrowphase: f.kernelMs },
      hostMs: f.hostMs,
    });
  }

  draw(encoder: GPUCommandEncoder, target: GPUTextureView, view: DrawView, timestampWrites?: GPURenderPassTimestampWrites): void {
    this.renderer.draw(encoder, target, CLEAR_COLOUR, this.bounds, view, timestampWrites);
  }

  validate(): Promise<ValidationReport> {
    if (!this.frame) throw new Error('validate: no frame yet');
    return Promise.resolve(validateFrame3D(this.world.scene, this.frame.packed, this.frame.manifolds));
  }

  destroy(): void {
    this.renderer.destroy();
    this.bodies.destroy();
    this.world.destroy();
  }
}
