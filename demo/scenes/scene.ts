// What every demo scene is to the page: a world that moves the bodies and records the collision
// frame (the solver's GpuWorld2D / GpuWorld3D, or a kinematic stand-in), drawn by a renderer. The page
// (demo/main.ts) records one frame as: scene.encode(encoder, dt) → render pass → submit →
// scene.finish(); validation runs between frames on what the last frame left on the GPU.

export interface FrameReport {
  /** Broadphase pairs. */
  pairs: number;
  /** Touching manifolds (entries of the contact list). */
  contacts: number;
  /** A buffer of the frame overflowed (it grows for the next frame; this frame dropped what did not fit). */
  overflowed: boolean;
  /** GPU milliseconds per stage (broadphase, narrowphase, contacts, ...), null without timestamps. */
  gpuMs: Record<string, number> | null;
}

export interface ValidationReport {
  /** Pairs collided on both sides. */
  pairs: number;
  /** Pairs with points on either side. */
  touching: number;
  /** Unexplained mismatches (the number shown). */
  mismatches: number;
  /** 3D: mismatches where both manifolds are valid (counted apart, as the CLI's validate does). */
  nearTies: number | null;
  /** A few mismatches in words. */
  examples: string[];
}

/** What a renderer needs to place the camera. */
export interface SceneBounds {
  min: number[];
  max: number[];
}

export interface DemoScene {
  readonly dim: 2 | 3;
  readonly bodyCount: number;
  readonly motion: 'kinematic' | 'solver';
  readonly bounds: SceneBounds;
  /** Advances the bodies by dt and records the step (collision frame, solver) into `encoder`. */
  encode(encoder: GPUCommandEncoder, dt: number): void;
  /** After the submit: what the frame found (may read back counts, grow buffers). */
  finish(): Promise<FrameReport>;
  /** Records the scene's render pass into `target` (bodies; contacts when asked). */
  draw(
    encoder: GPUCommandEncoder,
    target: GPUTextureView,
    view: DrawView,
    timestampWrites?: GPURenderPassTimestampWrites,
  ): void;
  /**
   * The next frame collides every pair anew: the frame reuses last frame's manifolds for pairs
   * that barely moved, which the CPU reference, computing each pair afresh, would not give.
   */
  collideAfreshNext(): void;
  /** The CPU reference on the last frame's pairs (collided afresh), compared with the GPU's manifolds. */
  validate(): Promise<ValidationReport>;
  destroy(): void;
}

/** The background every scene clears to. */
export const CLEAR_COLOUR: GPUColor = { r: 0.059, g: 0.067, b: 0.082, a: 1 };

/** The canvas and the user's view of it. */
export interface DrawView {
  width: number;
  height: number;
  showContacts: boolean;
  /** Camera orbit (3D) in radians, and a zoom factor (1 = the whole scene). */
  yaw: number;
  pitch: number;
  zoom: number;
}

/** The options every scene takes (from the URL and the controls). */
export interface SceneOptions {
  bodies: number;
  /** 'solver': the GPU solver's world where the dimension has one; 'kinematic': bodies fly through each other. */
  motion: 'kinematic' | 'solver';
  margin: number;
  seed: number;
}
