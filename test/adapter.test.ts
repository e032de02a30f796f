// Smoke test of the whole GPU path: Dawn loads, an adapter and a device come, a WGSL compute
// shader compiles and runs, and its result reads back. Fails (never skips) without an adapter.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';

const ADD_WGSL = /* wgsl */ `
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> sum: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let i = id.x;
  if (i < arrayLength(&sum)) {
    sum[i] = a[i] + b[i];
  }
}
`;

describe('WebGPU adapter', () => {
  let gpu: AcquiredDevice;

  beforeAll(async () => {
    gpu = await acquireDevice();
  });

  afterAll(() => {
    gpu?.device.destroy();
  });

  it('is the adapter the global setup reported', () => {
    expect(gpu.adapter.name.length).toBeGreaterThan(0);
    expect(gpu.adapter.name).toBe(inject('webgpuAdapter'));
  });

  it('adds two arrays in a compute shader and reads the sum back', async () => {
    const { device } = gpu;
    const n = 1000; // not a multiple of the workgroup size: the bounds check matters
    const a = new Float32Array(n);
    const b = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      a[i] = i;
      b[i] = 0.5 * i - 7;
    }
    const bytes = n * 4;
    const makeInput = (data: Float32Array) => {
      const buf = device.createBuffer({
        size: bytes,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(buf, 0, data);
      return buf;
    };
    const bufA = makeInput(a);
    const bufB = makeInput(b);
    const bufSum = device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
    const readback = device.createBuffer({
      size: bytes,
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    });

    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code: ADD_WGSL });
    const info = await module.getCompilationInfo();
    expect(info.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([]);
    const pipeline = device.createComputePipeline({
      layout: 'auto',
      compute: { module, entryPoint: 'main' },
    });
    const bindGroup = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: bufA } },
        { binding: 1, resource: { buffer: bufB } },
        { binding: 2, resource: { buffer: bufSum } },
      ],
    });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(Math.ceil(n / 64));
    pass.end();
    encoder.copyBufferToBuffer(bufSum, 0, readback, 0, bytes);
    device.queue.submit([encoder.finish()]);
    const error = await device.popErrorScope();
    expect(error?.message ?? null).toBeNull();

    await readback.mapAsync(GPUMapMode.READ);
    const sum = new Float32Array(readback.getMappedRange().slice(0));
    readback.unmap();
    for (const buf of [bufA, bufB, bufSum, readback]) buf.destroy();

    const expected = Float32Array.from(a, (x, i) => x + b[i]!);
    expect(sum).toEqual(expected);
  });
});
