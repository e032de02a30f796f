import { acquireDevice } from '../src/gpu/device.ts';
import { GpuFrame2D } from '../src/gpu/frame2d.ts';
import { makePile2D, pileBodies2D } from '../bench/pile-scenes.ts';
import { uploadInputs } from '../bench/pile-contenders.ts';
async function main(): Promise<void> {
  const a = await acquireDevice();
  const d = a.device;
  const n = Number(process.argv[2] ?? 10000);
  const frame = await GpuFrame2D.create(d, a.timestamps);
  const pile = makePile2D(n);
  const inputs = uploadInputs(d, pile);
  const sorts: number[] = []; const bps: number[] = []; const totals: number[] = [];
  for (let k = 0; k < 16; k++) {
    if (k > 0) d.queue.writeBuffer(inputs.bodies, 0, pileBodies2D(pile, k, 'wobble'));
    const r = await frame.step(inputs);
    const bp = (await frame.broadphase.readTimings())!;
    if (k >= 4) { sorts.push(bp.sort); bps.push(bp.total); totals.push(r.timings!.span); }
  }
  const med = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1]!.toFixed(2);
  const min = (x: number[]) => Math.min(...x).toFixed(2);
  console.log(`sort median ${med(sorts)} min ${min(sorts)}; broadphase median ${med(bps)} min ${min(bps)}; frame span median ${med(totals)} min ${min(totals)}`);
  frame.destroy(); d.destroy();
}
void main();
