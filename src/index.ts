// webgpu-narrowphase: contact manifolds for convex shape pairs on the GPU (WebGPU/WGSL), with a
// CPU reference implementation of the same algorithms.

export { createNarrowphase, type Backend, type CollideResult, type CollideStats, type Narrowphase, type NarrowphaseOptions } from './narrowphase.ts';
export { parseScene, parseScene2D, type Scene2D, type SceneJson2D, type Body2DInput } from './scene.ts';
export { makeShape2D, type Shape2D, type Shape2DInput, type Vec2 } from './shapes2d.ts';
export { InputError, CapacityError } from './errors.ts';
export { packScene2D, unpackManifolds2D, manifoldBytes2D, type Packed2D, type ManifoldJson, type ContactPointJson } from './pack2d.ts';
export { collidePacked2D, prepareCpu2D } from './cpu/narrowphase2d.ts';
export { collideShapes2D } from './cpu/collide2d.ts';
export { GpuNarrowphase2D, type GpuRunResult } from './gpu/narrowphase2d.ts';
export { acquireDevice, NoAdapterError, type AcquiredDevice, type AdapterDescription } from './gpu/device.ts';
export { sweepAndPrune2D } from './broadphase2d.ts';
export { LAYOUT_2D } from './layout2d.ts';
export * as constants from './constants.ts';
