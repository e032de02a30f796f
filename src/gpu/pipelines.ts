// Compute pipelines, compiled once per device and reused. Compilation errors are raised with the
// WGSL compiler's messages (a broken shader must never look like "no contacts").

import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import type { BufferBindingLayout } from '../layout.ts';

export interface Kernel {
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

const kernelCache = new WeakMap<GPUDevice, Map<string, Promise<Kernel>>>();

/** Compiles one entry point; WGSL errors are raised with the compiler's messages and the line. */
export async function compileKernel(
  device: GPUDevice,
  label: string,
  code: string,
  entryPoint: string,
  constants?: Record<string, number>,
  layout?: GPUBindGroupLayout,
): Promise<Kernel> {
  const module = device.createShaderModule({ label, code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length > 0) {
    const lines = code.split('\n');
    const text = errors
      .map(
        (e) => `${label}:${e.lineNum}:${e.linePos}: ${e.message}\n  ${lines[e.lineNum - 1] ?? ''}`,
      )
      .join('\n');
    throw new Error(`WGSL compilation failed:\n${text}`);
  }
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({
    label: `${label}.${entryPoint}`,
    layout: layout ? device.createPipelineLayout({ bindGroupLayouts: [layout] }) : 'auto',
    compute: { module, entryPoint, ...(constants ? { constants } : {}) },
  });
  const err = await device.popErrorScope();
  if (err) throw new Error(`pipeline ${label}.${entryPoint}: ${err.message}`);
  return { pipeline, layout: pipeline.getBindGroupLayout(0) };
}

/** compileKernel, once per device and (label, entry point, override constants). */
export function cachedKernel(
  device: GPUDevice,
  label: string,
  entryPoint: string,
  code: () => string,
  constants?: Record<string, number>,
  layout?: () => Promise<GPUBindGroupLayout>,
): Promise<Kernel> {
  let perDevice = kernelCache.get(device);
  if (!perDevice) kernelCache.set(device, (perDevice = new Map()));
  const key = `${label}.${entryPoint}${constants ? JSON.stringify(constants) : ''}`;
  let p = perDevice.get(key);
  if (!p) {
    p = (layout ? layout() : Promise.resolve(undefined)).then((l) =>
      compileKernel(device, label, code(), entryPoint, constants, l),
    );
    perDevice.set(key, p);
    p.catch(() => perDevice.delete(key));
  }
  return p;
}

/** Entry points of one module, compiled, with the bindings each uses (its auto layout's). */
export interface EntryPoints<N extends string> {
  kernels: Record<N, Kernel>;
  /** Binding numbers per entry point, ascending, reflected from the WGSL. */
  bindings: Record<N, number[]>;
}

/** Compiles the named entry points of `code` (cachedKernel); a name the module lacks is an error. */
export async function compileEntryPoints<N extends string>(
  device: GPUDevice,
  label: string,
  names: readonly N[],
  code: () => string,
): Promise<EntryPoints<N>> {
  const reflected = new Map(
    new WgslReflect(code()).entry.compute.map((e) => [
      e.name,
      e.resources.map((r) => r.binding).sort((a, b) => a - b),
    ]),
  );
  const missing = names.filter((n) => !reflected.has(n));
  if (missing.length > 0)
    throw new Error(`${label}: the WGSL has no entry point ${missing.join(', ')}`);
  return compileNamed(device, label, names, code, (n) => reflected.get(n)!);
}

/**
 * compileEntryPoints with the bindings of every entry point already reflected (`entries`, from
 * src/reflection.generated.ts), so that wgsl_reflect need not run, nor travel in a bundle.
 * `layouts: 'reflected'` gives each pipeline the layout of its reflected bindings instead of
 * 'auto': for a module compiled with constants under which the compiler drops bindings the
 * reflection (of the general module) still lists.
 */
export function compileKernels<N extends string>(
  device: GPUDevice,
  label: string,
  names: readonly N[],
  entries: Readonly<Record<string, readonly BufferBindingLayout[]>>,
  code: () => string,
  layouts: 'auto' | 'reflected' = 'auto',
): Promise<EntryPoints<N>> {
  const missing = names.filter((n) => !entries[n]);
  if (missing.length > 0)
    throw new Error(
      `${label}: the WGSL has no entry point ${missing.join(', ')} (run \`npm run prepare\`?)`,
    );
  const layoutOf =
    layouts === 'reflected'
      ? (n: N) => async () => bufferLayout(device, `${label}.${n}`, entries[n])
      : undefined;
  return compileNamed(
    device,
    label,
    names,
    code,
    (n) => entries[n].map((b) => b.binding).sort((a, b) => a - b),
    layoutOf,
  );
}

async function compileNamed<N extends string>(
  device: GPUDevice,
  label: string,
  names: readonly N[],
  code: () => string,
  bindingsOf: (name: N) => number[],
  layoutOf?: (name: N) => () => Promise<GPUBindGroupLayout>,
): Promise<EntryPoints<N>> {
  const kernels = await Promise.all(
    names.map((n) => cachedKernel(device, label, n, code, undefined, layoutOf?.(n))),
  );
  return {
    kernels: Object.fromEntries(names.map((n, i) => [n, kernels[i]])) as Record<N, Kernel>,
    bindings: Object.fromEntries(names.map((n) => [n, bindingsOf(n)])) as Record<N, number[]>,
  };
}

/**
 * A bind-group layout of compute buffers (bindings of group 0, as reflectBindings gives them).
 * Pipelines given it share it, where 'auto' layouts belong to one pipeline each.
 */
export function bufferLayout(
  device: GPUDevice,
  label: string,
  bindings: readonly BufferBindingLayout[],
): GPUBindGroupLayout {
  return device.createBindGroupLayout({
    label,
    entries: bindings.map(({ binding, type }) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type },
    })),
  });
}

const warmedUp = new WeakMap<GPUComputePipeline, Promise<void>>();

/**
 * Dispatches `kernel` once (one workgroup, over zeroed throwaway buffers of its `bindings`) and
 * resolves when that has run; once per pipeline. Lavapipe compiles a pipeline's machine code at
 * its first dispatch, on its queue's thread: warmed up while other pipelines are still being
 * created, that compile overlaps theirs instead of delaying the first real submit. With
 * `dawnPipelines`, the dispatch is indirect and its pass timed (where the device has timestamps):
 * Dawn checks an indirect dispatch's arguments and converts resolved timestamps with compute
 * pipelines of its own, which a first run would otherwise compile after its kernels.
 */
export function warmUpKernel(
  device: GPUDevice,
  kernel: Kernel,
  bindings: readonly BufferBindingLayout[],
  label: string,
  dawnPipelines = false,
): Promise<void> {
  let done = warmedUp.get(kernel.pipeline);
  if (done) return done;
  const owned = bindings.map((b) =>
    device.createBuffer({
      label: `${label}.warm-up`,
      size: 256,
      usage: b.type === 'uniform' ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE,
    }),
  );
  const encoder = device.createCommandEncoder({ label: `${label}.warm-up` });
  const timed = dawnPipelines && device.features.has('timestamp-query');
  const querySet = timed ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
  const pass = encoder.beginComputePass(
    querySet
      ? {
          timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
        }
      : {},
  );
  pass.setPipeline(kernel.pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: kernel.layout,
      entries: bindings.map((b, i) => ({ binding: b.binding, resource: { buffer: owned[i]! } })),
    }),
  );
  let args: GPUBuffer | null = null;
  if (dawnPipelines) {
    args = device.createBuffer({
      label: `${label}.warm-up`,
      size: 12,
      usage: GPUBufferUsage.INDIRECT,
      mappedAtCreation: true,
    });
    new Uint32Array(args.getMappedRange()).set([1, 1, 1]);
    args.unmap();
    pass.dispatchWorkgroupsIndirect(args, 0);
  } else {
    pass.dispatchWorkgroups(1);
  }
  pass.end();
  const resolved = querySet
    ? device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE })
    : null;
  if (querySet && resolved) encoder.resolveQuerySet(querySet, 0, 2, resolved, 0);
  device.queue.submit([encoder.finish()]);
  done = device.queue.onSubmittedWorkDone().then(() => {
    for (const b of owned) b.destroy();
    args?.destroy();
    querySet?.destroy();
    resolved?.destroy();
  });
  warmedUp.set(kernel.pipeline, done);
  return done;
}

/** Bind groups kept per device, oldest dropped first past this many. */
const BIND_GROUP_CACHE_SIZE = 512;
const bindGroupCache = new WeakMap<GPUDevice, Map<string, GPUBindGroup>>();
const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

function objectId(o: object): number {
  let id = objectIds.get(o);
  if (id === undefined) objectIds.set(o, (id = nextObjectId++));
  return id;
}

/**
 * device.createBindGroup(descriptor), made once per layout and bound buffer ranges and reused:
 * a frame binds the same buffers frame after frame, and creating a bind group is among the
 * costliest host calls of an encode (docs/frame.md). Only buffer bindings are cached; any other
 * resource makes a new group each call. For groups made once (plans), call createBindGroup.
 */
export function cachedBindGroup(
  device: GPUDevice,
  descriptor: GPUBindGroupDescriptor,
): GPUBindGroup {
  const parts: (string | number)[] = [objectId(descriptor.layout)];
  for (const e of descriptor.entries) {
    const r = e.resource as Partial<GPUBufferBinding>;
    if (!r.buffer) return device.createBindGroup(descriptor);
    parts.push(e.binding, objectId(r.buffer), r.offset ?? 0, r.size ?? -1);
  }
  const key = parts.join(',');
  let perDevice = bindGroupCache.get(device);
  if (!perDevice) bindGroupCache.set(device, (perDevice = new Map()));
  let group = perDevice.get(key);
  if (group) {
    // Most recently used last: the oldest are dropped first.
    perDevice.delete(key);
  } else {
    group = device.createBindGroup(descriptor);
    if (perDevice.size >= BIND_GROUP_CACHE_SIZE) perDevice.delete(perDevice.keys().next().value!);
  }
  perDevice.set(key, group);
  return group;
}
