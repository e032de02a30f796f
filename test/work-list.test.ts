// The work list (src/gpu/work-list.ts): the slots flagged for the full collide, in slot order,
// and their count on the GPU, as a host loop gives them: counts below, at and past a block of 32
// and a workgroup, few and many flagged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REUSE_STATUS } from '../src/constants.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuWorkList } from '../src/gpu/work-list.ts';
import { rng } from '../src/random2d.ts';

let gpu: AcquiredDevice;
let list: GpuWorkList;

beforeAll(async () => {
  gpu = await acquireDevice();
  list = await GpuWorkList.create(gpu.device);
});

afterAll(() => gpu?.device.destroy());

const S = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

describe('GPU work list', () => {
  it('lists the flagged slots below the pair count', async () => {
    const device = gpu.device;
    const r = rng(5);
    // [slots, count, every slot flagged (whole blocks of 32 marked) or a third at random]
    for (const [slots, count, all] of [
      [1, 0, false],
      [1, 1, false],
      [64, 64, false],
      [300, 257, false],
      [5000, 4096, false],
      [5000, 17, false],
      [300, 257, true],
    ] as const) {
      const flags = new Uint32Array(slots);
      for (let k = 0; k < slots; k++) flags[k] = all ? REUSE_STATUS.collide : Math.floor(r() * 3);
      const want = [...flags.keys()].filter((k) => k < count && flags[k] === REUSE_STATUS.collide);
      const flagBuf = device.createBuffer({ size: 4 * slots, usage: S() });
      device.queue.writeBuffer(flagBuf, 0, flags);
      // The pair count on the GPU, as the broadphase writes it.
      const batch = device.createBuffer({ size: 16, usage: S() });
      device.queue.writeBuffer(batch, 0, new Uint32Array([count, 0, 0, 0]));
      list.reserve(1);
      const encoder = device.createCommandEncoder();
      const out = list.encode(encoder, { buffer: flagBuf }, slots, { buffer: batch, offset: 0 }, 0);
      device.queue.submit([encoder.finish()]);
      const n = new Uint32Array(await readBuffer(device, out.count.buffer, out.count.offset + 4))[
        out.count.offset / 4
      ]!;
      const got = [
        ...new Uint32Array(await readBuffer(device, out.list.buffer, 4 * Math.max(1, n))).slice(
          0,
          n,
        ),
      ];
      expect({ slots, count, n, got }).toEqual({ slots, count, n: want.length, got: want });
      flagBuf.destroy();
      batch.destroy();
    }
  });
});
