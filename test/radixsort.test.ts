// The GPU radix sort (shaders/radixsort.wgsl, src/gpu/radixsort.ts) against a stable sort on the
// host: equal keys keep their input order. u32 keys (random, heavily repeated, around block
// boundaries), f32 keys through the order-preserving key (negative, equal, -0 and +0, infinities,
// denormals), a partial-width sort, rows of workgroups; and the WGSL sortKeyF32 against the host's
// f32SortKey bit for bit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuRadixSort, RADIX_BLOCK, f32SortKey } from '../src/gpu/radixsort.ts';
import { dispatchLimits, MAX_GROUPS_PER_DIMENSION, readBuffer } from '../src/gpu/buffers.ts';
import { compileKernel } from '../src/gpu/pipelines.ts';
import { assembleWgsl } from '../src/gpu/shaders.ts';
import { broadphaseConstantsWgsl } from '../src/gpu/broadphase2d.ts';
import { rng } from '../src/random2d.ts';

let gpu: AcquiredDevice;
let sorter: GpuRadixSort;

beforeAll(async () => {
  gpu = await acquireDevice();
  sorter = await GpuRadixSort.create(gpu.device);
});

afterAll(() => {
  dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
  gpu?.device.destroy();
});

/** The stable order of `keys` (ties by index), as the host's Array.prototype.sort gives it. */
function stableOrder(n: number, compare: (a: number, b: number) => number): Uint32Array {
  return Uint32Array.from(
    Array.from({ length: n }, (_, i) => i).sort((a, b) => compare(a, b) || a - b),
  );
}

function firstDifference(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

async function expectStableSort(keys: Uint32Array, keyBits = 32): Promise<void> {
  const mask = keyBits === 32 ? 0xffffffff : (1 << keyBits) - 1;
  const got = await sorter.sort(keys, undefined, keyBits);
  const want = stableOrder(
    keys.length,
    (a, b) => ((keys[a]! & mask) >>> 0) - ((keys[b]! & mask) >>> 0),
  );
  const at = firstDifference(got.values, want);
  expect(
    at,
    at < 0
      ? ''
      : `n=${keys.length}: position ${at} holds element ${got.values[at]}, want ${want[at]}`,
  ).toBe(-1);
  expect(
    firstDifference(
      got.keys,
      Uint32Array.from(want, (i) => keys[i]!),
    ),
  ).toBe(-1);
}

function randomKeys(seed: number, n: number, distinct: number): Uint32Array {
  const r = rng(seed);
  const out = new Uint32Array(n);
  // Repeated keys spread over all 32 bits, so every pass has ties to keep in order.
  const pool = Uint32Array.from({ length: distinct }, () => Math.floor(r() * 2 ** 32));
  for (let i = 0; i < n; i++) out[i] = pool[Math.floor(r() * distinct)]!;
  return out;
}

describe('GPU radix sort', () => {
  it('sorts 0 elements', async () => {
    const r = await sorter.sort(new Uint32Array(0));
    expect(r.keys.length).toBe(0);
  });

  const sizes = [1, 2, 100, RADIX_BLOCK - 1, RADIX_BLOCK, RADIX_BLOCK + 1, 5 * RADIX_BLOCK + 77];
  it.each(sizes)('sorts %i random u32 keys stably', async (n) => {
    await expectStableSort(randomKeys(n, n, Math.max(1, n >> 2)));
  });

  it('sorts 300k keys with many ties and the extremes 0 and 2^32 - 1', async () => {
    const keys = randomKeys(3, 300_000, 1000);
    for (let i = 0; i < keys.length; i += 997) keys[i] = i % 2 ? 0xffffffff : 0;
    await expectStableSort(keys);
  });

  it('keeps the input order of all-equal keys', async () => {
    await expectStableSort(new Uint32Array(10_000).fill(0x80000000));
  });

  it('sorts by the low 16 bits only with keyBits = 16, stably', async () => {
    await expectStableSort(randomKeys(5, 20_000, 50_000), 16);
  });

  it('sorts by an odd number of passes (keyBits 4, 12, 28: the result ends in the scratch buffers), stably', async () => {
    for (const bits of [4, 12, 28])
      await expectStableSort(randomKeys(6 + bits, 20_000, 50_000), bits);
  });

  it('sorts only the first count elements when the count comes from a GPU buffer (odd and even pass counts)', async () => {
    const device = gpu.device;
    const n = 20_000;
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    for (const [keyBits, count] of [
      [28, 13_001],
      [32, 4_097],
      [16, 0],
      [12, n],
      [8, n + 5],
    ] as const) {
      const keys = randomKeys(40 + keyBits, n, 5_000);
      const mask = keyBits === 32 ? 0xffffffff : 2 ** keyBits - 1;
      const kb = device.createBuffer({ size: 4 * n, usage: S });
      const vb = device.createBuffer({ size: 4 * n, usage: S });
      const scratch = {
        keys: device.createBuffer({ size: 4 * n, usage: S }),
        values: device.createBuffer({ size: 4 * n, usage: S }),
      };
      // The count at word 1 of a counts buffer (as a contact list's `written`).
      const cb = device.createBuffer({ size: 16, usage: S });
      device.queue.writeBuffer(kb, 0, keys);
      device.queue.writeBuffer(
        vb,
        0,
        Uint32Array.from({ length: n }, (_, i) => i),
      );
      device.queue.writeBuffer(cb, 0, Uint32Array.from([7, count, 7, 7]));
      const plan = sorter.plan(kb, vb, n, keyBits, scratch, { buffer: cb, word: 1 });
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      sorter.encode(pass, plan);
      pass.end();
      device.queue.submit([encoder.finish()]);
      const m = Math.min(n, count);
      const got = new Uint32Array(await readBuffer(device, plan.output.values, 4 * n)).subarray(
        0,
        m,
      );
      const want = stableOrder(m, (a, b) => ((keys[a]! & mask) >>> 0) - ((keys[b]! & mask) >>> 0));
      expect(firstDifference(got, want), `keyBits ${keyBits}, count ${count}`).toBe(-1);
      plan.destroy();
      for (const b of [kb, vb, cb, scratch.keys, scratch.values]) b.destroy();
    }
  });

  it('rejects keyBits that are not a multiple of the digit', async () => {
    const b = gpu.device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    expect(() => sorter.plan(b, b, 4, 10)).toThrow(/keyBits must be a multiple of 4/);
    b.destroy();
  });

  it('sorts f32 keys (negative, equal, ±0, infinities, denormals) in float order, stably', async () => {
    const r = rng(9);
    const special = [
      0,
      -0,
      1,
      -1,
      1.5,
      -1.5,
      Infinity,
      -Infinity,
      1e-45,
      -1e-45,
      3.4e38,
      -3.4e38,
      1e5,
      -1e5,
      2 ** -126,
    ];
    const floats = new Float32Array(20_000);
    for (let i = 0; i < floats.length; i++) {
      floats[i] =
        r() < 0.3
          ? special[Math.floor(r() * special.length)]!
          : (r() - 0.5) * 10 ** Math.floor(r() * 10 - 3);
    }
    const keys = Uint32Array.from(floats, f32SortKey);
    const got = await sorter.sort(keys);
    // The host's order of the f32 values: -0 equals +0, ties by index.
    const want = stableOrder(floats.length, (a, b) =>
      floats[a]! < floats[b]! ? -1 : floats[a]! > floats[b]! ? 1 : 0,
    );
    expect(firstDifference(got.values, want)).toBe(-1);
  });

  it('dispatches rows of workgroups when one row is not enough', async () => {
    dispatchLimits.maxGroupsPerDimension = 4; // 11 blocks: rows of 4
    try {
      await expectStableSort(randomKeys(13, 11 * RADIX_BLOCK - 3, 3000));
    } finally {
      dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
    }
  });
});

describe('f32 sort keys', () => {
  const values = [
    0,
    -0,
    1,
    -1,
    0.5,
    -0.5,
    Infinity,
    -Infinity,
    1e-45,
    -1e-45,
    1e-38,
    -1e-38,
    3.4028234663852886e38,
    -3.4028234663852886e38,
    123.456,
    -123.456,
  ];

  it('preserve the float order on the host, with -0 and +0 equal', () => {
    const sorted = [...values].map(Math.fround).sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1]!, sorted[i]!];
      if (a === b) expect(f32SortKey(a)).toBe(f32SortKey(b));
      else expect(f32SortKey(a)).toBeLessThan(f32SortKey(b));
    }
  });

  it('are the same bits in WGSL (sortKeyF32 of broadphase.wgsl) as on the host', async () => {
    const { device } = gpu;
    const code =
      broadphaseConstantsWgsl() +
      assembleWgsl(['layout2d', 'aabb2d', 'broadphase']) +
      `
@group(0) @binding(20) var<storage, read> testIn: array<f32>;
@group(0) @binding(21) var<storage, read_write> testOut: array<u32>;
@compute @workgroup_size(64)
fn testKeys(@builtin(global_invocation_id) id: vec3u) {
  if (id.x < arrayLength(&testIn)) { testOut[id.x] = sortKeyF32(testIn[id.x]); }
}`;
    const kernel = await compileKernel(device, 'sortkey-test', code, 'testKeys');
    const input = Float32Array.from(values);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const inBuf = device.createBuffer({ size: input.byteLength, usage: S });
    const outBuf = device.createBuffer({ size: input.byteLength, usage: S });
    device.queue.writeBuffer(inBuf, 0, input);
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(
      0,
      device.createBindGroup({
        layout: kernel.layout,
        entries: [
          { binding: 20, resource: { buffer: inBuf } },
          { binding: 21, resource: { buffer: outBuf } },
        ],
      }),
    );
    pass.dispatchWorkgroups(1);
    pass.end();
    device.queue.submit([encoder.finish()]);
    const got = new Uint32Array(await readBuffer(device, outBuf, input.byteLength));
    expect(Array.from(got)).toEqual(Array.from(input, f32SortKey));
    inBuf.destroy();
    outBuf.destroy();
  });
});
