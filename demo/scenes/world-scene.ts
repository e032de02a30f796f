// What the 2D and 3D world scenes share (demo/scenes/world2d-scene.ts, world3d-scene.ts): each
// frame copies the bodies aside (the solver moves them in place after the collision, and validate()
// checks the last frame against the bodies it collided), records the world's step, then reads the
// counts, grows the world's buffers after an overflow (this frame dropped what did not fit; the
// next gets bigger buffers) and reports the collision frame's GPU stage times.

import { GpuFrame, type FrameCounts } from '../../src/gpu/frame.ts';
import type { FrameReport } from './scene.ts';

/** What a scene needs of a world: the surface GpuWorld2D and GpuWorld3D share (src/solver/). */
export interface SteppingWorld<O> {
  readonly device: GPUDevice;
  readonly bodyCount: number;
  /** array<Body2D> or array<Body3D>, STORAGE | COPY_SRC. */
  readonly bodies: GPUBuffer;
  /** The collision frame (a GpuFrame gives its stages' times). */
  readonly frame: unknown;
  encodeStep(encoder: GPUCommandEncoder, dt: number): O;
  collideAfreshNext(): void;
  readCounts(): Promise<FrameCounts>;
  grow(counts: FrameCounts): void;
  destroy(): void;
}

/** GPU ms of the collision frame's stages (GpuFrame.readTimings). */
async function frameTimings(frame: unknown): Promise<Record<string, number> | null> {
  if (!(frame instanceof GpuFrame)) return null;
  const { timings } = await frame.readTimings();
  if (!timings) return null;
  const { broadphase, reuse, narrowphase, compaction, persistence } = timings;
  return { broadphase, reuse, narrowphase, compaction, persistence };
}

export abstract class WorldScene<O, W extends SteppingWorld<O>> {
  protected outputs: O | null = null;
  protected counts: FrameCounts | null = null;
  /** The bodies as the last frame collided them. */
  protected readonly collided: GPUBuffer;

  constructor(
    protected readonly world: W,
    label: string,
  ) {
    this.collided = world.device.createBuffer({
      label,
      size: world.bodies.size,
      usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
  }

  get bodyCount(): number {
    return this.world.bodyCount;
  }

  encode(encoder: GPUCommandEncoder, dt: number): void {
    encoder.copyBufferToBuffer(this.world.bodies, 0, this.collided, 0, this.collided.size);
    this.outputs = this.world.encodeStep(encoder, dt);
  }

  collideAfreshNext(): void {
    this.world.collideAfreshNext();
  }

  async finish(): Promise<FrameReport> {
    const [counts, gpuMs] = await Promise.all([
      this.world.readCounts(),
      frameTimings(this.world.frame),
    ]);
    this.counts = counts;
    this.world.grow(counts);
    return {
      pairs: counts.pairs,
      contacts: counts.contacts,
      overflowed: counts.pairsOverflow || counts.contactsOverflow,
      gpuMs,
    };
  }

  /** The last frame's outputs and counts, for validate(). */
  protected lastFrame(): { outputs: O; counts: FrameCounts } {
    if (!this.outputs || !this.counts) throw new Error('validate: no frame yet');
    return { outputs: this.outputs, counts: this.counts };
  }

  destroy(): void {
    this.collided.destroy();
    this.world.destroy();
  }
}
