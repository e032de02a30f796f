// The 3D GPU broadphase: the pairs of src/broadphase3d.ts's sweepAndPrune3D. The sort, scan and
// sweep are the shared ones of src/gpu/broadphase.ts (shaders/broadphase.wgsl); this file gives the
// 3D boxes (shaders/aabb3d.wgsl: hull vertices rotated, sphere and capsule radius, margin and pads
// as the host's bodyAabbs3D) and the 3D inputs (shapes, hull vertices, bodies as pack3d.ts packs
// them).

import { LAYOUT_3D } from '../layout3d.ts';
import type { PackedShapes3D } from '../pack3d.ts';
import { ENTRIES_BROADPHASE_3D } from '../reflection.generated.ts';
import { broadphaseWgsl3D } from './frame-wgsl.ts';
import {
  BROADPHASE_LAYOUT,
  BROADPHASE_STAGES,
  GpuBroadphase,
  type BroadphaseDimension,
  type BroadphaseInputs,
  type BroadphaseOutputs,
  type GpuBroadphaseResult,
} from './broadphase.ts';

/** Word offsets of the broadphase's GPU structs (the same in 2D and 3D); counts.narrowphase holds a Params3D. */
export const BROADPHASE_LAYOUT_3D = BROADPHASE_LAYOUT;
export const BROADPHASE_STAGES_3D = BROADPHASE_STAGES;
export type BroadphaseInputs3D = BroadphaseInputs & { hullVertices: GPUBuffer };
export type BroadphaseOutputs3D = BroadphaseOutputs;
export type GpuBroadphaseResult3D = GpuBroadphaseResult;

export const BROADPHASE_DIMENSION_3D: BroadphaseDimension = {
  label: 'broadphase3d',
  wgsl: broadphaseWgsl3D,
  entries: ENTRIES_BROADPHASE_3D,
  bodyBytes: LAYOUT_3D.body.words * 4,
  hullVertices: true,
  narrowphaseParams: LAYOUT_3D.params,
};

export class GpuBroadphase3D extends GpuBroadphase {
  /** Compiles the kernels for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(
    device: GPUDevice,
    timestamps = device.features.has('timestamp-query'),
  ): Promise<GpuBroadphase3D> {
    return new GpuBroadphase3D(
      device,
      BROADPHASE_DIMENSION_3D,
      await GpuBroadphase.compile(device, BROADPHASE_DIMENSION_3D),
      timestamps,
    );
  }

  override encode(encoder: GPUCommandEncoder, inputs: BroadphaseInputs3D): BroadphaseOutputs3D {
    return super.encode(encoder, inputs);
  }

  /**
   * Convenience for tests and tools: uploads packed shapes (packShapes3D) and bodies
   * (packBodies3D), runs the broadphase, grows the pairs buffer and runs again when the pairs did
   * not fit, and reads the pairs back, sorted by (a, b).
   */
  run(
    shapes: PackedShapes3D,
    bodies: ArrayBuffer,
    bodyCount: number,
    margin: number,
    options: { capacity?: number; fatMargin?: number } = {},
  ): Promise<GpuBroadphaseResult3D> {
    return this.runUploads(
      { shapes: shapes.shapes, bodies, hullVertices: shapes.hullVertices },
      bodyCount,
      margin,
      options,
    );
  }
}
