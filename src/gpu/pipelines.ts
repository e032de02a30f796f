// Compute pipelines, compiled once per device and reused. Compilation errors are raised with the
// WGSL compiler's messages (a broken shader must never look like "no contacts").

import { assembleWgsl, assembleWgsl3D, NARROWPHASE_2D_FILES, NARROWPHASE_3D_FILES } from './shaders.ts';

export interface Kernel {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

const kernelCache = new WeakMap<GPUDevice, Map<string, Promise<Kernel>>>();

/** Compiles one entry point; WGSL errors are raised with the compiler's messages and the line. */
export async function compileKernel(device: GPUDevice, label: string, code: string, entryPoint: string): Promise<Kernel> {
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const lines = code.split('\n');
    const text = errors.map((e) => `${label}:${e.lineNum}:${e.linePos}: ${e.message}\n  ${lines[e.lineNum - 1] ?? ''}`).join('\n');
    throw new Error(`WGSL compilation failed:\n${text}`);
  }
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({ label: `${label}.${entryPoint}`, layout: 'auto', compute: { module, entryPoint } });
  const err = await device.popErrorScope();
  if (err) throw new Error(`pipeline ${label}.${entryPoint}: ${err.message}`);
  return { pipeline, layout: pipeline.getBindGroupLayout(0) };
}

/** compileKernel, once per device and (label, entry point). */
export function cachedKernel(device: GPUDevice, label: string, entryPoint: string, code: () => string): Promise<Kernel> {
  let perDevice = kernelCache.get(device);
  if (!perDevice) kernelCache.set(device, (perDevice = new Map()));
  const key = `${label}.${entryPoint}`;
  let p = perDevice.get(key);
  if (!p) {
    p = compileKernel(device, label, code(), entryPoint);
    perDevice.set(key, p);
    p.catch(() => perDevice.delete(key));
  }
  return p;
}

/** A compiled entry point and its bind-group layout (the narrowphase runners' name for Kernel). */
export type KernelPipeline = Kernel;

export function narrowphase2DPipeline(device: GPUDevice): Promise<KernelPipeline> {
  return cachedKernel(device, 'narrowphase2d', 'narrowphase2d', () => assembleWgsl(NARROWPHASE_2D_FILES));
}

export function narrowphase3DPipeline(device: GPUDevice): Promise<KernelPipeline> {
  return cachedKernel(device, 'narrowphase3d', 'narrowphase3d', () => assembleWgsl3D(NARROWPHASE_3D_FILES));
}
