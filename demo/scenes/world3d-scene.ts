// A 3D scene on a world that moves its bodies and records the collision frame into the page's
// encoder: the solver's GpuWorld3D, or KinematicWorld3D (same surface). Drawing reads the world's
// Body3D buffer and the frame's contact list directly (demo/render3d.ts). The frame itself:
// ./world-scene.ts.

import type { FrameOutputs3D } from '../../src/gpu/frame3d.ts';
import type { Shape3D } from '../../src/shapes3d.ts';
import { Renderer3D } from '../render3d.ts';
import { validateFrame3D } from '../validate3d.ts';
import {
  CLEAR_COLOUR,
  type DemoScene,
  type DrawView,
  type SceneBounds,
  type ValidationReport,
} from './scene.ts';
import { WorldScene, type SteppingWorld } from './world-scene.ts';

/** What the scene needs of a world: GpuWorld3D's surface (src/solver/world3d.ts). */
export type World3D = SteppingWorld<FrameOutputs3D>;

export interface SceneBodies3D {
  /** The shapes as the library builds them. */
  shapes: readonly Shape3D[];
  /** Shape of each body (bodies of one shape contiguous: one instanced draw each). */
  bodyShape: Uint32Array;
  /** Shapes only static bodies use (drawn grey). */
  staticShapes: ReadonlySet<number>;
}

export class WorldScene3D extends WorldScene<FrameOutputs3D, World3D> implements DemoScene {
  readonly dim = 3;
  private readonly renderer: Renderer3D;

  constructor(
    world: World3D,
    private readonly layout: SceneBodies3D,
    readonly margin: number,
    readonly bounds: SceneBounds,
    readonly motion: 'kinematic' | 'solver',
    format: GPUTextureFormat,
    normalLength: number,
  ) {
    super(world, 'demo-collided-bodies3d');
    this.renderer = new Renderer3D(
      world.device,
      format,
      layout.shapes,
      layout.bodyShape,
      world.bodies,
      layout.staticShapes,
      normalLength,
    );
  }

  draw(
    encoder: GPUCommandEncoder,
    target: GPUTextureView,
    view: DrawView,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void {
    this.renderer.draw(
      encoder,
      target,
      CLEAR_COLOUR,
      this.bounds,
      view,
      view.showContacts ? (this.outputs?.contacts ?? null) : null,
      timestampWrites,
    );
  }

  validate(): Promise<ValidationReport> {
    const { outputs, counts } = this.lastFrame();
    return validateFrame3D({
      device: this.world.device,
      outputs,
      counts,
      bodies: this.collided,
      bodyCount: this.world.bodyCount,
      shapes: this.layout.shapes,
      margin: this.margin,
    });
  }

  override destroy(): void {
    this.renderer.destroy();
    super.destroy();
  }
}
