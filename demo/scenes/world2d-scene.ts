// A 2D scene on a world that moves its bodies and records the collision frame into the page's
// encoder: the solver's GpuWorld2D, or KinematicWorld2D (same surface). Drawing reads the world's
// buffers directly (demo/render2d.ts); the contact list drawn is the frame's. The frame itself:
// ./world-scene.ts.

import type { FrameOutputs2D } from '../../src/gpu/frame2d.ts';
import type { Shape2D } from '../../src/shapes2d.ts';
import { Renderer2D } from '../render2d.ts';
import { validateFrame2D } from '../validate2d.ts';
import {
  CLEAR_COLOUR,
  type DemoScene,
  type DrawView,
  type SceneBounds,
  type ValidationReport,
} from './scene.ts';
import { WorldScene, type SteppingWorld } from './world-scene.ts';

/** What the scene needs of a world: GpuWorld2D's surface (src/solver/world2d.ts). */
export interface World2D extends SteppingWorld<FrameOutputs2D> {
  /** array<Shape2D>, STORAGE. */
  readonly shapes: GPUBuffer;
}

export class WorldScene2D extends WorldScene<FrameOutputs2D, World2D> implements DemoScene {
  readonly dim = 2;
  private readonly renderer: Renderer2D;

  constructor(
    world: World2D,
    /** The shapes as the library builds them (the CPU reference's input). */
    private readonly shapeList: readonly Shape2D[],
    readonly margin: number,
    readonly bounds: SceneBounds,
    readonly motion: 'kinematic' | 'solver',
    format: GPUTextureFormat,
  ) {
    super(world, 'demo-collided-bodies2d');
    this.renderer = new Renderer2D(world.device, format);
  }

  draw(
    encoder: GPUCommandEncoder,
    target: GPUTextureView,
    view: DrawView,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void {
    this.renderer.setView(this.bounds, view);
    const contacts = view.showContacts ? this.outputs?.contacts : undefined;
    if (contacts) this.renderer.prepareContacts(encoder, contacts);
    const pass = encoder.beginRenderPass({
      label: 'demo-2d',
      colorAttachments: [
        { view: target, clearValue: CLEAR_COLOUR, loadOp: 'clear', storeOp: 'store' },
      ],
      ...(timestampWrites ? { timestampWrites } : {}),
    });
    this.renderer.drawBodies(pass, this.world.shapes, this.world.bodies, this.world.bodyCount);
    if (contacts) this.renderer.drawContacts(pass, contacts);
    pass.end();
  }

  async validate(): Promise<ValidationReport> {
    const { outputs, counts } = this.lastFrame();
    return validateFrame2D({
      device: this.world.device,
      outputs,
      counts,
      bodies: this.collided,
      bodyCount: this.world.bodyCount,
      shapes: this.shapeList,
      margin: this.margin,
    });
  }

  override destroy(): void {
    this.renderer.destroy();
    super.destroy();
  }
}
