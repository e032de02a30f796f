// How fast read-back bytes reach JavaScript: per size, four reads of a GPU buffer through one
// mappable buffer, timing the copy into it (submit to done), the map, and the copy out of the
// mapped range into a new ArrayBuffer (as step() with results 'copies') or into one written
// before (results 'kept'). A new buffer's pages are faulted in at its first write; docs/frame.md,
// *Host memory for readback*, has the numbers. Not part of `npm run bench`.
//
//   node_modules/.bin/tsx bench/readback-host.ts [MB …]        # default 8 32 128

import { acquireDevice } from '../src/gpu/device.ts';

const sizesMb = process.argv.slice(2).map(Number);
const { device, adapter } = await acquireDevice();
console.log(`adapter ${adapter.name}`);
const ms = (t: number): string => (performance.now() - t).toFixed(2).padStart(7);
const gbps = (bytes: number, t: number): string =>
  (bytes / 1e9 / ((performance.now() - t) / 1e3)).toFixed(2).padStart(6);
for (const mb of sizesMb.length > 0 ? sizesMb : [8, 32, 128]) {
  const size = mb << 20;
  const src = device.createBuffer({
    size,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(src, 0, new Uint8Array(size).fill(7));
  const read = device.createBuffer({
    size,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const kept = new Uint8Array(size).fill(1);
  console.log(
    `${mb} MB: copy to mappable (ms), map (ms), out to a new buffer (GB/s), out to a kept one (GB/s)`,
  );
  for (let r = 0; r < 4; r++) {
    let t = performance.now();
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(src, 0, read, 0, size);
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const copy = ms(t);
    t = performance.now();
    await read.mapAsync(GPUMapMode.READ);
    const mapped = read.getMappedRange();
    const map = ms(t);
    t = performance.now();
    const fresh = mapped.slice(0);
    const toNew = gbps(size, t);
    t = performance.now();
    kept.set(new Uint8Array(mapped));
    const toKept = gbps(size, t);
    read.unmap();
    if (new Uint8Array(fresh)[size - 1] !== 7 || kept[size - 1] !== 7)
      throw new Error('read back the wrong bytes');
    console.log(`  ${copy} ${map} ${toNew} ${toKept}`);
  }
  src.destroy();
  read.destroy();
}
device.destroy();
