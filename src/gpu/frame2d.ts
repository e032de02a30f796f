// A whole 2D collision frame on the GPU, for engines: broadphase → narrowphase over the pairs it
// found, dispatched indirectly (no readback between stages) → dense, canonically ordered contact
// list with persistent user values. The frame itself is the shared src/gpu/frame.ts (batches
// included); this file gives the 2D narrowphase kernel and inputs.
//
//   const frame = await GpuFrame2D.create(device);
//   const out = frame.encode(encoder, { shapes, bodies, bodyCount, margin }); // your buffers, your encoder
//   device.queue.submit([encoder.finish()]);
//   // out.contacts.contacts / .userValues / .counts stay on the GPU; frame.readCounts() when you want them.

import { LAYOUT_2D } from '../layout2d.ts';
import { GpuBroadphase2D, type BroadphaseOutputs2D } from './broadphase2d.ts';
import { GpuContacts2D, type ContactsOutputs2D } from './contacts2d.ts';
import { GpuFrame, type FrameCounts, type FrameDimension, type FrameResult, type FrameTimings } from './frame.ts';
import { narrowphase2DPipeline } from './pipelines.ts';

export interface FrameInputs2D {
  /** array<Shape2D> (shaders/layout2d.wgsl), STORAGE usage. */
  shapes: GPUBuffer;
  /** array<Body2D>, STORAGE usage: may be the engine's own buffer in this layout. */
  bodies: GPUBuffer;
  bodyCount: number;
  /** Speculative distance, scene units. */
  margin: number;
}

export interface FrameOutputs2D {
  broadphase: BroadphaseOutputs2D;
  /** Manifold2D slots of the last batch (one per broadphase pair when the frame ran in one batch). */
  manifolds: GPUBuffer;
  batches: number;
  contacts: ContactsOutputs2D;
}

export type FrameCounts2D = FrameCounts;
export type FrameTimings2D = FrameTimings;
/** contacts: ContactManifold2D entries (CONTACTS_LAYOUT_2D); userValues: ContactUserValues2D. */
export type FrameResult2D = FrameResult;

export const FRAME_DIMENSION_2D: FrameDimension<FrameInputs2D> = {
  label: 'frame2d',
  manifoldBytes: LAYOUT_2D.manifold.words * 4,
  paramsBytes: LAYOUT_2D.params.bytes,
  bindings: (inputs, pairs, manifolds, params) => [
    { binding: 0, resource: { buffer: inputs.shapes } },
    { binding: 1, resource: { buffer: inputs.bodies } },
    { binding: 2, resource: pairs },
    { binding: 3, resource: manifolds },
    { binding: 4, resource: { buffer: params } },
  ],
  broadphaseInputs: (inputs) => ({ shapes: inputs.shapes, bodies: inputs.bodies, bodyCount: inputs.bodyCount, margin: inputs.margin }),
};

export class GpuFrame2D extends GpuFrame<FrameInputs2D> {
  declare readonly broadphase: GpuBroadphase2D;
  declare readonly contacts: GpuContacts2D;

  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query')): Promise<GpuFrame2D> {
    const [broadphase, contacts, kernel] = await Promise.all([
      GpuBroadphase2D.create(device, timestamps),
      GpuContacts2D.create(device, timestamps),
      narrowphase2DPipeline(device),
    ]);
    return new GpuFrame2D(device, FRAME_DIMENSION_2D, broadphase, contacts, kernel, timestamps);
  }

  override encode(encoder: GPUCommandEncoder, inputs: FrameInputs2D, retry = false): FrameOutputs2D {
    return super.encode(encoder, inputs, retry);
  }
}
