// A whole 3D collision frame on the GPU, for engines: broadphase (shaders/aabb3d.wgsl boxes, the
// shared sort and sweep) → the 3D narrowphase kernel over the pairs it found, dispatched indirectly
// (no readback between stages) → dense ContactManifold3D list ordered by (bodyA, bodyB), with
// persistent ContactUserValues3D (a vec4f per point: x normal impulse, y/z tangent impulses, w
// free). The frame itself is the shared src/gpu/frame.ts (batches included); this file gives the
// 3D narrowphase kernels and inputs: the general one, and the one compiled for boxes alone, which
// runs instead when every body is a box (the broadphase decides on the GPU: no readback).
//
//   const frame = await GpuFrame3D.create(device);
//   const out = frame.encode(encoder, { shapes, hullVertices, hullPlanes, hullFaces, hullIndices, bodies, bodyCount, margin });
//   device.queue.submit([encoder.finish()]);

import { LAYOUT_3D } from '../layout3d.ts';
import { GpuBroadphase3D, type BroadphaseOutputs3D } from './broadphase3d.ts';
import { GpuContacts3D, type ContactsOutputs3D } from './contacts3d.ts';
import { GpuFrame, type FrameCounts, type FrameDimension, type FrameResult, type FrameTimings } from './frame.ts';
import { narrowphase3DPipeline } from './pipelines.ts';

/** The packed shapes (packShapes3D) and bodies on the GPU, all with STORAGE usage. */
export interface FrameInputs3D {
  /** array<Shape3D> (shaders/layout3d.wgsl). */
  shapes: GPUBuffer;
  /** The four flat hull buffers the shapes index (see layout3d.wgsl). */
  hullVertices: GPUBuffer;
  hullPlanes: GPUBuffer;
  hullFaces: GPUBuffer;
  hullIndices: GPUBuffer;
  /** array<Body3D>: may be the engine's own buffer in this layout. */
  bodies: GPUBuffer;
  bodyCount: number;
  /** Speculative distance, scene units. */
  margin: number;
}

export interface FrameOutputs3D {
  broadphase: BroadphaseOutputs3D;
  /** Manifold3D slots of the last batch (one per broadphase pair when the frame ran in one batch). */
  manifolds: GPUBuffer;
  batches: number;
  contacts: ContactsOutputs3D;
}

export type FrameCounts3D = FrameCounts;
export type FrameTimings3D = FrameTimings;
/** contacts: ContactManifold3D entries (CONTACTS_LAYOUT_3D); userValues: ContactUserValues3D. */
export type FrameResult3D = FrameResult;

// The narrowphase kernel's bindings (shaders/narrowphase3d.wgsl).
export const FRAME_DIMENSION_3D: FrameDimension<FrameInputs3D> = {
  label: 'frame3d',
  manifoldBytes: LAYOUT_3D.manifold.words * 4,
  paramsBytes: LAYOUT_3D.params.bytes,
  bindings: (inputs, pairs, manifolds, params) => [
    { binding: 0, resource: { buffer: inputs.shapes } },
    { binding: 1, resource: { buffer: inputs.hullVertices } },
    { binding: 2, resource: { buffer: inputs.hullPlanes } },
    { binding: 3, resource: { buffer: inputs.hullFaces } },
    { binding: 4, resource: { buffer: inputs.hullIndices } },
    { binding: 5, resource: { buffer: inputs.bodies } },
    { binding: 6, resource: pairs },
    { binding: 7, resource: manifolds },
    { binding: 8, resource: { buffer: params } },
  ],
  broadphaseInputs: (inputs) => ({ shapes: inputs.shapes, hullVertices: inputs.hullVertices, bodies: inputs.bodies, bodyCount: inputs.bodyCount, margin: inputs.margin }),
};

export class GpuFrame3D extends GpuFrame<FrameInputs3D> {
  declare readonly broadphase: GpuBroadphase3D;
  declare readonly contacts: GpuContacts3D;

  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query')): Promise<GpuFrame3D> {
    const [broadphase, contacts, kernel] = await Promise.all([
      GpuBroadphase3D.create(device, timestamps),
      GpuContacts3D.create(device, timestamps),
      narrowphase3DPipeline(device),
    ]);
    return new GpuFrame3D(device, FRAME_DIMENSION_3D, broadphase, contacts, kernel, timestamps);
  }

  override encode(encoder: GPUCommandEncoder, inputs: FrameInputs3D, retry = false): FrameOutputs3D {
    return super.encode(encoder, inputs, retry);
  }
}
