// The work list (src/gpu/work-list.ts): the slots flagged for the full collide, in slot order,
// and their count, over every slot of a batch (host-sized) or over its pairs only (the grids the
// GPU broadphase writes): both give the list a host loop gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REUSE_STATUS } from '../src/constants.ts';
import { readBuffer, type BatchGrids } from '../src/gpu/buffers.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuWorkList } from '../src/gpu/work-list.ts';
import { WORK_LIST_WORKGROUP_SIZE } from '../src/gpu/frame-wgsl.ts';
import { rng } from '../src/random2d.ts';

let gpu: AcquiredDevice;
let list: GpuWorkList;

beforeAll(async () => {
  gpu = await acquireDevice();
  list = await GpuWorkList.create(gpu.device);
});

afterAll(() => gpu?.device.destroy());

const S = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** x, y, z of a grid over n invocations (one row: the sizes here are small). */
function grid(n: number): number[] {
  return [Math.ceil(n / WORK_LIST_WORKGROUP_SIZE), 1, 1];
}

describe('GPU work list', () => {
  it('lists the flagged slots below the pair count, host-sized and over the GPU grids', async () => {
    const device = gpu.device;
    const r = rng(5);
    for (const [slots, count] of [
      [1, 0],
      [1, 1],
      [64, 64],
      [300, 257],
      [5000, 4096],
      [5000, 17],
    ] as const) {
      const flags = new Uint32Array(slots);
      for (let k = 0; k < slots; k++) flags[k] = Math.floor(r() * 3);
      const want = [...flags.keys()].filter((k) => k < count && flags[k] === REUSE_STATUS.collide);
      const flagBuf = device.createBuffer({ size: 4 * slots, usage: S() });
      device.queue.writeBuffer(flagBuf, 0, flags);
      // A batch record as the broadphase writes one: the count, then the grid.
      const words = new Uint32Array(16);
      words[0] = count;
      words.set(grid(count), 4);
      const batch = device.createBuffer({
        size: 64,
        usage: S() | GPUBufferUsage.INDIRECT,
      });
      device.queue.writeBuffer(batch, 0, words);
      const grids: BatchGrids = { buffer: batch, pairs: 16 };
      for (const g of [undefined, grids]) {
        list.reserve(1);
        const encoder = device.createCommandEncoder();
        const out = list.encode(
          encoder,
          { buffer: flagBuf },
          slots,
          { buffer: batch, offset: 0 },
          0,
          g,
        );
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
        expect({ slots, count, grids: !!g, n, got }).toEqual({
          slots,
          count,
          grids: !!g,
          n: want.length,
          got: want,
        });
      }
      flagBuf.destroy();
      batch.destroy();
    }
  });
});
