// The GPU exclusive prefix sum (shaders/scan.wgsl, src/gpu/scan.ts) against the sequential one on
// the host: sizes around the workgroup and block boundaries and around the largest array one
// workgroup scans (SCAN_CHUNKS blocks), a 1M-element scan (2 levels), a 4M-element one (3 levels),
// rows of workgroups, saturation instead of wrap-around, and plans whose element count the GPU
// gives, run at several counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuScan, SCAN_BLOCK, SCAN_CHUNKS } from '../src/gpu/scan.ts';
import { dispatchLimits, MAX_GROUPS_PER_DIMENSION, readBuffer } from '../src/gpu/buffers.ts';
import { rng } from '../src/random2d.ts';

let gpu: AcquiredDevice;
let scan: GpuScan;

beforeAll(async () => {
  gpu = await acquireDevice();
  scan = await GpuScan.create(gpu.device);
});

afterAll(() => {
  dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
  gpu?.device.destroy();
});

function randomValues(seed: number, n: number, max: number): Uint32Array {
  const r = rng(seed);
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.floor(r() * max);
  return a;
}

/** Sequential exclusive prefix sums, saturating at 2^32 - 1 as the kernel does. */
function cpuScan(a: Uint32Array): { prefix: Uint32Array; total: number } {
  const prefix = new Uint32Array(a.length);
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    prefix[i] = s;
    s = Math.min(0xffffffff, s + a[i]!);
  }
  return { prefix, total: s };
}

/** First index where two arrays differ, or -1 (a plain toEqual on 1M elements is slow to report). */
function firstDifference(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

async function expectScan(input: Uint32Array): Promise<void> {
  const got = await scan.scan(input);
  const want = cpuScan(input);
  const at = firstDifference(got.prefix, want.prefix);
  expect(
    at,
    at < 0 ? '' : `n=${input.length}: prefix[${at}] = ${got.prefix[at]}, want ${want.prefix[at]}`,
  ).toBe(-1);
  expect(got.total).toBe(want.total);
}

describe('GPU exclusive scan', () => {
  it('scans 0 elements to a total of 0', async () => {
    const r = await scan.scan(new Uint32Array(0));
    expect(r.prefix.length).toBe(0);
    expect(r.total).toBe(0);
  });

  const sizes = [
    1,
    2,
    7,
    255,
    256,
    257,
    SCAN_BLOCK - 1,
    SCAN_BLOCK,
    SCAN_BLOCK + 1,
    3 * SCAN_BLOCK + 17,
    SCAN_CHUNKS * SCAN_BLOCK,
    SCAN_CHUNKS * SCAN_BLOCK + 1,
    100_000,
  ];
  it.each(sizes)('equals the sequential prefix sums for n = %i', async (n) => {
    await expectScan(randomValues(n, n, 1000));
  });

  it('scans 1e6 + 3 elements (two levels)', async () => {
    await expectScan(randomValues(7, 1_000_003, 4096));
  });

  it('scans SCAN_BLOCK² + 5 elements (three levels, over 4M)', async () => {
    const n = SCAN_BLOCK * SCAN_BLOCK + 5;
    const input = new Uint32Array(n);
    // Mostly ones (sums stay exact), with a few large values across block boundaries.
    input.fill(1);
    for (let i = 0; i < n; i += 65_537) input[i] = 100_000;
    await expectScan(input);
  });

  it('dispatches rows of workgroups when one row is not enough', async () => {
    dispatchLimits.maxGroupsPerDimension = 3; // 49 blocks -> 17 rows of 3, the last one partly idle
    try {
      await expectScan(randomValues(11, 49 * SCAN_BLOCK - 5, 1000));
    } finally {
      dispatchLimits.maxGroupsPerDimension = MAX_GROUPS_PER_DIMENSION;
    }
  });

  it('saturates at 2^32 - 1 instead of wrapping around', async () => {
    const n = 3 * SCAN_BLOCK + 3;
    const input = new Uint32Array(n).fill(3_000_000); // the sum passes 2^32 at element 1432
    const got = await scan.scan(input);
    expect(got.total).toBe(0xffffffff);
    const want = cpuScan(input);
    expect(firstDifference(got.prefix, want.prefix)).toBe(-1);
    expect(got.prefix[n - 1]).toBe(0xffffffff);
  });

  // Three levels planned, or one workgroup's blocks; each run scans min(count, n) elements and
  // leaves the rest untouched.
  it.each([
    ['three levels', SCAN_BLOCK * SCAN_BLOCK + 5],
    ['one workgroup', SCAN_CHUNKS * SCAN_BLOCK - 3],
  ])('scans as many elements as a GPU word says, one plan for every count (%s)', async (_, n) => {
    const device = gpu.device;
    const input = randomValues(12, n, 5);
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const data = device.createBuffer({ size: 4 * n, usage: S });
    const count = device.createBuffer({ size: 16, usage: S });
    const plan = scan.plan(data, n, 0, { buffer: count, word: 2 });
    try {
      for (const c of [
        5,
        0,
        1,
        SCAN_BLOCK,
        SCAN_BLOCK + 1,
        3 * SCAN_BLOCK + 7,
        n - 1,
        n,
        n + 100,
      ]) {
        device.queue.writeBuffer(data, 0, input);
        device.queue.writeBuffer(count, 8, new Uint32Array([c]));
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        scan.encode(pass, plan);
        pass.end();
        device.queue.submit([encoder.finish()]);
        const got = new Uint32Array(await readBuffer(device, data, 4 * n));
        const m = Math.min(c, n);
        const want = input.slice();
        want.set(cpuScan(input.subarray(0, m)).prefix);
        const at = firstDifference(got, want);
        expect(at, `count ${c}: [${at}] = ${got[at]}, want ${want[at]}`).toBe(-1);
        const total = new Uint32Array(await readBuffer(device, plan.total.buffer, 4))[0];
        expect(total, `count ${c}`).toBe(cpuScan(input.subarray(0, m)).total);
      }
    } finally {
      plan.destroy();
      data.destroy();
      count.destroy();
    }
  });
});
