// Dawn's polls paced (src/gpu/dawn-polls.ts): where waiting competes with the adapter (Node, a
// software adapter: this machine's lavapipe), each of Dawn's polls while a GPU promise is pending
// sleeps the thread first; the results are the same, and other setImmediate callbacks run as
// before. Elsewhere nothing is paced.
import { describe, expect, it } from 'vitest';
import { acquireDevice } from '../src/gpu/device.ts';
import {
  dawnPollsPaced,
  paceDawnPollsFor,
  unpaceDawnPolls,
  waitingCompetesWithDevice,
} from '../src/gpu/dawn-polls.ts';

/** Clears a buffer on the GPU and maps a copy of its first words back: a wait Dawn polls for. */
async function clearAndRead(device: GPUDevice, value: number): Promise<number[]> {
  const words = 1 << 20;
  const data = device.createBuffer({
    size: 4 * words,
    usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const read = device.createBuffer({
    size: 16,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(data, 0, new Uint32Array(words).fill(value));
  const encoder = device.createCommandEncoder();
  encoder.clearBuffer(data, 8, 4 * words - 8);
  encoder.copyBufferToBuffer(data, 0, read, 0, 16);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = [...new Uint32Array(read.getMappedRange())];
  read.unmap();
  data.destroy();
  read.destroy();
  return out;
}

describe("Dawn's polls", () => {
  it('sleep first while a GPU promise is pending, on a software adapter under Node', async () => {
    const { device, adapter } = await acquireDevice();
    try {
      expect(waitingCompetesWithDevice(device)).toBe(adapter.software);
      unpaceDawnPolls();
      expect(await clearAndRead(device, 7)).toEqual([7, 7, 0, 0]);
      expect(dawnPollsPaced()).toBe(0);

      paceDawnPollsFor(device);
      paceDawnPollsFor(device); // once: a second call wraps nothing again
      expect(await clearAndRead(device, 9)).toEqual([9, 9, 0, 0]);
      const paced = dawnPollsPaced();
      if (adapter.software) expect(paced).toBeGreaterThan(0);
      else expect(paced).toBe(0);

      // Callbacks that are not Dawn's polls: a function, a promise's resolve, arguments passed on.
      let ran = '';
      await new Promise<void>((resolve) =>
        setImmediate((a: string) => ((ran = a), resolve()), 'passed'),
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(ran).toBe('passed');
      expect(dawnPollsPaced()).toBe(paced);

      unpaceDawnPolls();
      expect(dawnPollsPaced()).toBe(0);
      expect(await clearAndRead(device, 5)).toEqual([5, 5, 0, 0]);
      expect(dawnPollsPaced()).toBe(0);
    } finally {
      unpaceDawnPolls();
      device.destroy();
    }
  });
});
