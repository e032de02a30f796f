// readBuffers with kept mappable buffers (ReadbackBuffers, src/gpu/buffers.ts), as a frame's step()
// reads its counts and lists: every call returns the regions' bytes; calls in flight at once each
// get their own buffer; calls after each other reuse one (no new MAP_READ buffer per frame), a
// larger read makes a larger one, and at most four are kept. readBuffersInto: into kept host
// memory, the same bytes, the same memory call after call until a region outgrows it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostBuffers, ReadbackBuffers, readBuffers, readBuffersInto } from '../src/gpu/buffers.ts';
import { acquireDevice } from '../src/gpu/device.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});
afterAll(() => device?.destroy());

/** A storage buffer holding words seed, seed + 1, … (n of them). */
function words(seed: number, n: number): GPUBuffer {
  const b = device.createBuffer({
    size: 4 * n,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(
    b,
    0,
    Uint32Array.from({ length: n }, (_, i) => seed + i),
  );
  return b;
}

describe('readBuffers with kept mappable buffers', () => {
  it('reads every region, reuses its buffers, and keeps at most four', async () => {
    const staging = new ReadbackBuffers(device, 'test-readback');
    const create = device.createBuffer.bind(device);
    let mappable = 0;
    device.createBuffer = (d: GPUBufferDescriptor): GPUBuffer => {
      if (d.usage & GPUBufferUsage.MAP_READ) mappable++;
      return create(d);
    };
    try {
      const a = words(1000, 300);
      const b = words(5000, 40);
      const check = (out: ArrayBuffer[], n: number, offset: number): void => {
        expect(Array.from(new Uint32Array(out[0]!))).toEqual(
          Array.from({ length: n }, (_, i) => 1000 + offset / 4 + i),
        );
        expect(Array.from(new Uint32Array(out[1]!))).toEqual(
          Array.from({ length: 40 }, (_, i) => 5000 + i),
        );
      };
      // After each other, sizes wobbling within 1.25 × the first: one buffer.
      for (const n of [200, 180, 240, 200]) {
        const out = await readBuffers(
          device,
          [
            { buffer: a, bytes: 4 * n, offset: 16 },
            { buffer: b, bytes: 160 },
          ],
          staging,
        );
        check(out, n, 16);
      }
      expect(mappable).toBe(1);
      // Larger: a new one.
      check(
        await readBuffers(
          device,
          [
            { buffer: a, bytes: 1200 },
            { buffer: b, bytes: 160 },
          ],
          staging,
        ),
        300,
        0,
      );
      expect(mappable).toBe(2);
      // Six in flight at once: each its own buffer, each right; four kept after.
      const outs = await Promise.all(
        [10, 20, 30, 40, 50, 60].map((n) =>
          readBuffers(
            device,
            [
              { buffer: a, bytes: 4 * n },
              { buffer: b, bytes: 160 },
            ],
            staging,
          ),
        ),
      );
      outs.forEach((out, i) => check(out, 10 * (i + 1), 0));
      expect(mappable).toBe(6);
      mappable = 0;
      await Promise.all(
        [1, 2, 3, 4].map(() => readBuffers(device, [{ buffer: b, bytes: 160 }], staging)),
      );
      expect(mappable).toBe(0);
      a.destroy();
      b.destroy();
      staging.destroy();
    } finally {
      device.createBuffer = create;
    }
  });
});

describe('readBuffersInto kept host memory', () => {
  it('reads each region into a view of its kept buffer, grown only when short', async () => {
    const a = words(1000, 300);
    const b = words(5000, 40);
    const host = new HostBuffers();
    const read = (n: number): Promise<Uint8Array[]> =>
      readBuffersInto(
        device,
        [
          { buffer: a, bytes: 4 * n },
          { buffer: b, bytes: 160 },
        ],
        host,
      );
    const first = await read(200);
    for (const n of [200, 240, 120]) {
      const out = await read(n);
      expect(out[0]!.byteLength).toBe(4 * n);
      expect(Array.from(new Uint32Array(out[0]!.buffer, 0, n))).toEqual(
        Array.from({ length: n }, (_, i) => 1000 + i),
      );
      expect(Array.from(new Uint32Array(out[1]!.buffer, 0, 40))).toEqual(
        Array.from({ length: 40 }, (_, i) => 5000 + i),
      );
      // Within 1.25 × the first: the same memory.
      expect(out[0]!.buffer).toBe(first[0]!.buffer);
      expect(out[1]!.buffer).toBe(first[1]!.buffer);
    }
    const grown = await read(300);
    expect(grown[0]!.buffer).not.toBe(first[0]!.buffer);
    expect(grown[1]!.buffer).toBe(first[1]!.buffer);
    expect(new Uint32Array(grown[0]!.buffer, 0, 300)[299]).toBe(1299);
    a.destroy();
    b.destroy();
  });
});

describe('readBuffers of a buffer the device refuses to copy', () => {
  it('throws the device message, not the bytes last read there; the staging buffer stays usable', async () => {
    const staging = new ReadbackBuffers(device, 'test-refused');
    const a = words(100, 64);
    expect(
      new Uint32Array((await readBuffers(device, [{ buffer: a, bytes: 256 }], staging))[0]!)[0],
    ).toBe(100);
    const gone = words(500, 64);
    gone.destroy();
    await expect(readBuffers(device, [{ buffer: gone, bytes: 256 }], staging)).rejects.toThrow(
      /readBuffer: the device refused the copy: .*destroyed/s,
    );
    expect(
      new Uint32Array((await readBuffers(device, [{ buffer: a, bytes: 256 }], staging))[0]!)[63],
    ).toBe(163);
    a.destroy();
  });
});
