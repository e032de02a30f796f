// The 2D GPU broadphase: the pairs of src/broadphase2d.ts's sweepAndPrune2D. The sort, scan and
// sweep are the shared ones of src/gpu/broadphase.ts (shaders/broadphase.wgsl); this file gives the
// 2D boxes (shaders/aabb2d.wgsl: polygon vertices rotated, radius, margin and pads as the host's
// bodyAabbs2D) and the 2D inputs.

import { LAYOUT_2D } from '../layout2d.ts';
import { ENTRIES_BROADPHASE_2D } from '../reflection.generated.ts';
import { broadphaseWgsl2D } from './frame-wgsl.ts';
import {
  AABB_RELATIVE_PAD,
  AABB_F32_STEPS,
  BROADPHASE_WORKGROUP_SIZE,
  BROADPHASE_PAIR_CACHE,
  BROADPHASE_LAYOUT,
  BROADPHASE_STAGES,
  GpuBroadphase,
  PAIR_COUNT_SATURATED,
  broadphaseConstantsWgsl,
  sortPairs,
  type BroadphaseDimension,
  type BroadphaseInputs,
  type BroadphaseOutputs,
  type GpuBroadphaseResult,
} from './broadphase.ts';

export {
  AABB_RELATIVE_PAD,
  AABB_F32_STEPS,
  BROADPHASE_WORKGROUP_SIZE,
  BROADPHASE_PAIR_CACHE,
  PAIR_COUNT_SATURATED,
  broadphaseConstantsWgsl,
  sortPairs,
};

/** Word offsets of the broadphase's GPU structs (the same in 2D and 3D); counts.narrowphase holds a Params2D. */
export const BROADPHASE_LAYOUT_2D = BROADPHASE_LAYOUT;
export const BROADPHASE_STAGES_2D = BROADPHASE_STAGES;
export type BroadphaseInputs2D = Omit<BroadphaseInputs, 'hullVertices'>;
export type BroadphaseOutputs2D = BroadphaseOutputs;
export type GpuBroadphaseResult2D = GpuBroadphaseResult;

export const BROADPHASE_DIMENSION_2D: BroadphaseDimension = {
  label: 'broadphase2d',
  wgsl: broadphaseWgsl2D,
  entries: ENTRIES_BROADPHASE_2D,
  bodyBytes: LAYOUT_2D.body.words * 4,
  hullVertices: false,
  narrowphaseParams: LAYOUT_2D.params,
};

export class GpuBroadphase2D extends GpuBroadphase {
  /** Compiles the kernels for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(
    device: GPUDevice,
    timestamps = device.features.has('timestamp-query'),
  ): Promise<GpuBroadphase2D> {
    return new GpuBroadphase2D(
      device,
      BROADPHASE_DIMENSION_2D,
      await GpuBroadphase.compile(device, BROADPHASE_DIMENSION_2D),
      timestamps,
    );
  }

  override encode(encoder: GPUCommandEncoder, inputs: BroadphaseInputs2D): BroadphaseOutputs2D {
    return super.encode(encoder, inputs);
  }

  /**
   * Convenience for tests and tools: uploads packed shapes and bodies (pack2d.ts), runs the
   * broadphase, grows the pairs buffer and runs again when the pairs did not fit, and reads the
   * pairs back, sorted by (a, b). `capacity` sets the first run's pairs capacity (default: as
   * encode()).
   */
  run(
    shapes: ArrayBuffer,
    bodies: ArrayBuffer,
    bodyCount: number,
    margin: number,
    options: { capacity?: number; fatMargin?: number } = {},
  ): Promise<GpuBroadphaseResult2D> {
    return this.runUploads({ shapes, bodies }, bodyCount, margin, options);
  }
}
