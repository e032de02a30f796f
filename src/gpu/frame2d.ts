// A whole 2D collision frame on the GPU, for engines: broadphase → narrowphase as pair classes
// (src/gpu/pair-classes2d.ts: polygons, circles) over the pairs it found, dispatched indirectly (no
// readback between stages) → dense, canonically ordered contact list with persistent user values.
// The frame itself is the shared src/gpu/frame.ts (batches included); this file gives the 2D
// classes and inputs.
//
//   const frame = await GpuFrame2D.create(device);
//   const out = frame.encode(encoder, { shapes, bodies, bodyCount, margin }); // your buffers, your encoder
//   device.queue.submit([encoder.finish()]);
//   // out.contacts.contacts / .userValues / .counts stay on the GPU; frame.readCounts() when you want them.
//
// create(device, timestamps, { kinds }) compiles only the classes those kinds form; encode() then
// needs inputs.kinds.

import { LAYOUT_2D } from '../layout2d.ts';
import { GpuBroadphase2D, type BroadphaseOutputs2D } from './broadphase2d.ts';
import type { StoreMode } from './device.ts';
import { GpuContacts2D, type ContactsOutputs2D } from './contact-list2d.ts';
import {
  checkFrameTimestamps,
  FRAME_REUSE_WINDOWS,
  GpuFrame,
  type FrameCounts,
  type FrameDimension,
  type FrameInputsBase,
  type FrameRecording,
  type FrameResult,
  type FrameTimestamps,
  type FrameTimings,
} from './frame.ts';
import { GpuPairClasses } from './pair-classes.ts';
import { GpuReuse, REUSE_DIMENSION_2D } from './reuse.ts';
import {
  classesOfKinds2D,
  NARROWPHASE_DIMENSION_2D,
  PAIR_CLASSES_2D,
  type NarrowphaseInputs2D,
  type PairClass2D,
  type ShapeKindName2D,
} from './pair-classes2d.ts';

export type FrameInputs2D = NarrowphaseInputs2D & FrameInputsBase<ShapeKindName2D>;

export interface FrameOutputs2D {
  broadphase: BroadphaseOutputs2D;
  /** Manifold2D slots of the last batch (one per broadphase pair when the frame ran in one batch). */
  manifolds: GPUBuffer;
  batches: number;
  contacts: ContactsOutputs2D;
}

export interface GpuFrame2DOptions {
  /** Shape kinds the scenes will hold: only the pair classes they can form are compiled. Default: every kind. */
  kinds?: readonly ShapeKindName2D[];
  /**
   * How the reuse and compaction kernels store their structs (StoreMode; default:
   * defaultStoreMode(device), 'staged' on GPUs, 'direct' on CPU adapters). Same bytes either way.
   */
  stores?: StoreMode;
}

export type FrameCounts2D = FrameCounts;
export type FrameTimings2D = FrameTimings;
/** contacts: ContactManifold2D entries (CONTACTS_LAYOUT_2D); userValues: ContactUserValues2D. */
export type FrameResult2D = FrameResult;

export const FRAME_DIMENSION_2D: FrameDimension<FrameInputs2D, PairClass2D, ShapeKindName2D> = {
  label: 'frame2d',
  manifoldBytes: LAYOUT_2D.manifold.words * 4,
  classesOfKinds: classesOfKinds2D,
  broadphaseInputs: (inputs) => ({
    shapes: inputs.shapes,
    bodies: inputs.bodies,
    bodyCount: inputs.bodyCount,
    margin: inputs.margin,
  }),
  reuse: REUSE_DIMENSION_2D,
  anchorInputs: (inputs) => ({ shapes: { buffer: inputs.shapes } }),
};

export class GpuFrame2D extends GpuFrame<FrameInputs2D, PairClass2D, ShapeKindName2D> {
  declare readonly broadphase: GpuBroadphase2D;
  declare readonly contacts: GpuContacts2D;

  static async create(
    device: GPUDevice,
    timestamps?: FrameTimestamps,
    options: GpuFrame2DOptions = {},
  ): Promise<GpuFrame2D> {
    const timing = checkFrameTimestamps(device, timestamps);
    const classes = options.kinds ? classesOfKinds2D(options.kinds) : PAIR_CLASSES_2D;
    const [broadphase, contacts, pairClasses, reuse] = await Promise.all([
      GpuBroadphase2D.create(device, timing === true),
      GpuContacts2D.create(device, timing === true, options.stores),
      GpuPairClasses.create<PairClass2D, FrameInputs2D>(device, NARROWPHASE_DIMENSION_2D, classes),
      GpuReuse.create(device, REUSE_DIMENSION_2D, {
        windows: FRAME_REUSE_WINDOWS,
        list: true,
        kernel: REUSE_DIMENSION_2D.kernelFor(classes),
        ...(options.stores ? { stores: options.stores } : {}),
      }),
    ]);
    return new GpuFrame2D(
      device,
      FRAME_DIMENSION_2D,
      broadphase,
      contacts,
      pairClasses,
      reuse,
      timing,
    );
  }

  override encode(
    encoder: GPUCommandEncoder,
    inputs: FrameInputs2D,
    retry = false,
    recording: FrameRecording = {},
  ): FrameOutputs2D {
    return super.encode(encoder, inputs, retry, recording);
  }
}
