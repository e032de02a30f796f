// A whole 3D collision frame on the GPU, for engines: broadphase (shaders/aabb3d.wgsl boxes, the
// shared sort and sweep) → the 3D narrowphase as pair classes (src/gpu/pair-classes3d.ts: box–box,
// hull–hull, round–hull, round–round, each its own pipeline) over the pairs it found, dispatched
// indirectly (no readback between stages) → dense ContactManifold3D list ordered by (bodyA, bodyB),
// with persistent ContactUserValues3D (a vec4f per point: x normal impulse, y/z tangent impulses,
// w free). The frame itself is the shared src/gpu/frame.ts (batches included); this file gives the
// 3D classes and inputs.
//
//   const frame = await GpuFrame3D.create(device, undefined, { kinds: ['box', 'capsule'] });
//   const out = frame.encode(encoder, { shapes, hullVertices, hullPlanes, hullFaces, hullIndices, bodies, bodyCount, margin, kinds: ['box', 'capsule'] });
//   device.queue.submit([encoder.finish()]);
//
// Without `kinds`, create() compiles every class and encode() accepts any shapes.

import { LAYOUT_3D } from '../layout3d.ts';
import { GpuBroadphase3D, type BroadphaseOutputs3D } from './broadphase3d.ts';
import type { StoreMode } from './device.ts';
import { GpuContacts3D, type ContactsOutputs3D } from './contact-list3d.ts';
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
import { GpuReuse, REUSE_DIMENSION_3D } from './reuse.ts';
import {
  classesOfKinds3D,
  NARROWPHASE_DIMENSION_3D,
  PAIR_CLASSES_3D,
  type NarrowphaseInputs3D,
  type PairClass3D,
  type ShapeKindName3D,
} from './pair-classes3d.ts';

/** The packed shapes (packShapes3D) and bodies on the GPU, all with STORAGE usage. */
export type FrameInputs3D = NarrowphaseInputs3D & FrameInputsBase<ShapeKindName3D>;

export interface FrameOutputs3D {
  broadphase: BroadphaseOutputs3D;
  /** Manifold3D slots of the last batch (one per broadphase pair when the frame ran in one batch). */
  manifolds: GPUBuffer;
  batches: number;
  contacts: ContactsOutputs3D;
}

export interface GpuFrame3DOptions {
  /** Shape kinds the scenes will hold: only the pair classes they can form are compiled. Default: every kind. */
  kinds?: readonly ShapeKindName3D[];
  /**
   * How the reuse and compaction kernels store their structs (StoreMode; default:
   * defaultStoreMode(device), 'staged' on GPUs, 'direct' on CPU adapters). Same bytes either way.
   */
  stores?: StoreMode;
}

export type FrameCounts3D = FrameCounts;
export type FrameTimings3D = FrameTimings;
/** contacts: ContactManifold3D entries (CONTACTS_LAYOUT_3D); userValues: ContactUserValues3D. */
export type FrameResult3D = FrameResult;

export const FRAME_DIMENSION_3D: FrameDimension<FrameInputs3D, PairClass3D, ShapeKindName3D> = {
  label: 'frame3d',
  manifoldBytes: LAYOUT_3D.manifold.words * 4,
  classesOfKinds: classesOfKinds3D,
  broadphaseInputs: (inputs) => ({
    shapes: inputs.shapes,
    hullVertices: inputs.hullVertices,
    bodies: inputs.bodies,
    bodyCount: inputs.bodyCount,
    margin: inputs.margin,
  }),
  reuse: REUSE_DIMENSION_3D,
  anchorInputs: (inputs) => ({
    shapes: { buffer: inputs.shapes },
    hullVertices: { buffer: inputs.hullVertices },
    hullPlanes: { buffer: inputs.hullPlanes },
  }),
};

export class GpuFrame3D extends GpuFrame<FrameInputs3D, PairClass3D, ShapeKindName3D> {
  declare readonly broadphase: GpuBroadphase3D;
  declare readonly contacts: GpuContacts3D;

  static async create(
    device: GPUDevice,
    timestamps?: FrameTimestamps,
    options: GpuFrame3DOptions = {},
  ): Promise<GpuFrame3D> {
    const timing = checkFrameTimestamps(device, timestamps);
    const classes = options.kinds ? classesOfKinds3D(options.kinds) : PAIR_CLASSES_3D;
    const [broadphase, contacts, pairClasses, reuse] = await Promise.all([
      GpuBroadphase3D.create(device, timing === true),
      GpuContacts3D.create(device, timing === true, options.stores),
      GpuPairClasses.create<PairClass3D, FrameInputs3D>(device, NARROWPHASE_DIMENSION_3D, classes),
      GpuReuse.create(device, REUSE_DIMENSION_3D, {
        windows: FRAME_REUSE_WINDOWS,
        list: true,
        kernel: REUSE_DIMENSION_3D.kernelFor(classes),
        ...(options.stores ? { stores: options.stores } : {}),
      }),
    ]);
    return new GpuFrame3D(
      device,
      FRAME_DIMENSION_3D,
      broadphase,
      contacts,
      pairClasses,
      reuse,
      timing,
    );
  }

  override encode(
    encoder: GPUCommandEncoder,
    inputs: FrameInputs3D,
    retry = false,
    recording: FrameRecording = {},
  ): FrameOutputs3D {
    return super.encode(encoder, inputs, retry, recording);
  }
}
