// Compute pipelines, compiled once per device and reused. Compilation errors are raised with the
// WGSL compiler's messages (a broken shader must never look like "no contacts").

import { assembleWgsl, assembleWgsl3D, NARROWPHASE_2D_FILES, NARROWPHASE_3D_FILES } from './shaders.ts';

export interface KernelPipeline {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

const cache = new WeakMap<GPUDevice, Map<string, Promise<KernelPipeline>>>();

async function compile(device: GPUDevice, label: string, code: string, entryPoint: string): Promise<KernelPipeline> {
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const lines = code.split('\n');
    const text = errors.map((e) => `${label}:${e.lineNum}:${e.linePos}: ${e.message}\n  ${lines[e.lineNum - 1] ?? ''}`).join('\n');
    throw new Error(`WGSL compilation failed:\n${text}`);
  }
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({ label, layout: 'auto', compute: { module, entryPoint } });
  const err = await device.popErrorScope();
  if (err) throw new Error(`pipeline ${label}: ${err.message}`);
  return { pipeline, layout: pipeline.getBindGroupLayout(0) };
}

function cached(device: GPUDevice, key: string, make: () => Promise<KernelPipeline>): Promise<KernelPipeline> {
  let perDevice = cache.get(device);
  if (!perDevice) cache.set(device, (perDevice = new Map()));
  let p = perDevice.get(key);
  if (!p) perDevice.set(key, (p = make()));
  return p;
}

export function narrowphase2DPipeline(device: GPUDevice): Promise<KernelPipeline> {
  return cached(device, 'narrowphase2d', () => compile(device, 'narrowphase2d', assembleWgsl(NARROWPHASE_2D_FILES), 'narrowphase2d'));
}

export function narrowphase3DPipeline(device: GPUDevice): Promise<KernelPipeline> {
  return cached(device, 'narrowphase3d', () => compile(device, 'narrowphase3d', assembleWgsl3D(NARROWPHASE_3D_FILES), 'narrowphase3d'));
}
