import { acquireDevice } from '../src/gpu/device.ts';
import { GpuFrame2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D } from '../src/gpu/frame3d.ts';
import { makePile2D, makePile3D, pileBodies2D, pileBodies3D } from '../bench/pile-scenes.ts';
import { uploadInputs, uploadInputs3D } from '../bench/pile-contenders.ts';
async function main(): Promise<void> {
  const a = await acquireDevice();
  const d = a.device;
  const n = Number(process.argv[2] ?? 10000);
  for (const dim of [2, 3]) {
    const frame = dim === 2 ? await GpuFrame2D.create(d, a.timestamps) : await GpuFrame3D.create(d, a.timestamps);
    const pile = dim === 2 ? makePile2D(n) : makePile3D(n, 'bricks');
    const inputs = dim === 2 ? uploadInputs(d, pile as never) : uploadInputs3D(d, pile as never);
    for (let k = 0; k < 8; k++) {
      if (k > 0) d.queue.writeBuffer(inputs.bodies, 0, dim === 2 ? pileBodies2D(pile as never, k, 'wobble') : pileBodies3D(pile as never, k, 'wobble'));
      const r = await (frame as GpuFrame2D).step(inputs as never);
      const bp = await frame.broadphase.readTimings();
      const ct = await frame.contacts.readTimings();
      if (k >= 5) console.log(dim, k, JSON.stringify(r.timings), 'bp', JSON.stringify(bp), 'ct', JSON.stringify(ct), 'reused', r.counts.reused, r.counts.apart, r.counts.collided, 'rebuilt', r.counts.rebuilt, 'moved', r.counts.moved);
    }
    frame.destroy();
  }
  d.destroy();
}
void main();
