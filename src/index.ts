// webgpu-narrowphase: contact manifolds for convex shape pairs on the GPU (WebGPU/WGSL), with a
// CPU reference implementation of the same algorithms.

export {
  createNarrowphase,
  type Backend,
  type CollideResult,
  type CollideStats,
  type LazyCollideResult,
  type LazyManifolds,
  type Narrowphase,
  type NarrowphaseOptions,
} from './narrowphase.ts';
export { rebaseFarPairs, type Rebased } from './precision.ts';
export {
  parseScene,
  parseScene2D,
  parseScene3D,
  type Scene,
  type Scene2D,
  type SceneJson2D,
  type Body2DInput,
  type Scene3D,
  type SceneJson3D,
  type Body3DInput,
} from './scene.ts';
export { makeShape2D, type Shape2D, type Shape2DInput, type Vec2 } from './shapes2d.ts';
export { checkShape2D, checkShape3D } from './checkshapes.ts';
export {
  DEFAULT_CATEGORY_BITS,
  DEFAULT_MASK_BITS,
  shouldCollide,
  type ShapeFilterInput,
} from './filter.ts';
export { InputError, CapacityError, DeviceLostError } from './errors.ts';
export {
  packScene2D,
  packShapes2D,
  packBodies2D,
  unpackManifolds2D,
  manifoldBytes2D,
  type Packed2D,
  type ManifoldJson,
  type ContactPointJson,
} from './pack2d.ts';
export { collidePacked2D, prepareCpu2D } from './cpu/narrowphase2d.ts';
export { collideShapes2D } from './cpu/collide2d.ts';
export {
  GpuNarrowphase2D,
  type GpuNarrowphase2DOptions,
  type GpuRunResult,
  type GpuRunResultKept,
  type ResultsMode,
  type RunOptions,
} from './gpu/narrowphase2d.ts';
export {
  acquireDevice,
  watchDeviceLoss,
  guardDeviceLoss,
  getGpu,
  NoAdapterError,
  type AcquiredDevice,
  type AdapterDescription,
} from './gpu/device.ts';
export { sweepAndPrune2D } from './broadphase2d.ts';
export { LAYOUT_2D } from './layout2d.ts';
export * as constants from './constants.ts';
export {
  makeShape3D,
  makeBody3D,
  type Shape3D,
  type Shape3DInput,
  type Body3D,
  type Vec3,
  type Quat,
} from './shapes3d.ts';
export { buildHull3D, type HullData3D } from './hull3d.ts';
export {
  packScene3D,
  packShapes3D,
  packBodies3D,
  unpackShapes3D,
  unpackManifolds3D,
  manifoldBytes3D,
  type Packed3D,
  type PackedShapes3D,
} from './pack3d.ts';
export { collidePacked3D, prepareCpu3D, type CpuNarrowphase3D } from './cpu/narrowphase3d.ts';
export { collide3D } from './cpu/collide3d.ts';
export {
  emptyManifold3D,
  manifoldToJson3D,
  manifold3DToJson,
  CONTACT_KIND_3D,
  type Manifold3D,
  type ManifoldJson3D,
  type Manifold3DJson,
  type Transform3D,
} from './cpu/manifold3d.ts';
export { GpuNarrowphase3D, type GpuNarrowphase3DOptions } from './gpu/narrowphase3d.ts';
export {
  GpuPairClasses,
  MissingPairClassError,
  type GpuCount,
  type NarrowphaseDimension,
  type PairClassBatch,
  type PairClassPasses,
  type PairClassRow,
  type WorkList,
} from './gpu/pair-classes.ts';
export { PAIR_CLASS_BLOCK } from './gpu/pair-class-wgsl.ts';
export {
  NARROWPHASE_DIMENSION_3D,
  PAIR_CLASSES_3D,
  PAIR_CLASS_LABEL_3D,
  classesOfKinds3D,
  pairClass3D,
  type PairClass3D,
  type ShapeKindName3D,
  type NarrowphaseInputs3D,
} from './gpu/pair-classes3d.ts';
export {
  NARROWPHASE_DIMENSION_2D,
  PAIR_CLASSES_2D,
  PAIR_CLASS_LABEL_2D,
  classesOfKinds2D,
  pairClass2D,
  type PairClass2D,
  type ShapeKindName2D,
  type NarrowphaseInputs2D,
} from './gpu/pair-classes2d.ts';
export { sweepAndPrune3D, bodyAabbs3D } from './broadphase3d.ts';
export {
  checkManifoldValidity3D,
  placeShape3D,
  type PlacedShape3D,
  type Validity3D,
} from './validity3d.ts';
export { compareManifolds2D, compareManifolds3D, type Mismatch } from './compare-manifolds.ts';
export { LAYOUT_3D } from './layout3d.ts';
export * as constants3d from './constants3d.ts';
export {
  GpuFrame2D,
  type GpuFrame2DOptions,
  type FrameInputs2D,
  type FrameOutputs2D,
  type FrameCounts2D,
  type FrameResult2D,
  type FrameTimings2D,
} from './gpu/frame2d.ts';
export { GpuBroadphase2D, BROADPHASE_LAYOUT_2D } from './gpu/broadphase2d.ts';
export { GpuContacts2D, CONTACTS_LAYOUT_2D } from './gpu/contact-list2d.ts';
export { CpuContacts2D, unpackContacts2D, type ContactJson2D } from './cpu/contact-list2d.ts';
export {
  GpuFrame3D,
  type GpuFrame3DOptions,
  type FrameInputs3D,
  type FrameOutputs3D,
  type FrameCounts3D,
  type FrameResult3D,
  type FrameTimings3D,
} from './gpu/frame3d.ts';
export type { FrameRecording, FrameResultKept, FrameTimestamps, StepOptions } from './gpu/frame.ts';
export { GpuBroadphase3D, BROADPHASE_LAYOUT_3D } from './gpu/broadphase3d.ts';
export { GpuContacts3D, CONTACTS_LAYOUT_3D } from './gpu/contact-list3d.ts';
export { CpuContacts3D, unpackContacts3D, type ContactJson3D } from './cpu/contact-list3d.ts';
export { GpuScan } from './gpu/scan.ts';
export { readBuffer } from './gpu/buffers.ts';
export { GpuRadixSort } from './gpu/radixsort.ts';
