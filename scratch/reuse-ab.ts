import { acquireDevice } from '../src/gpu/device.ts';
import { GpuFrame2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D } from '../src/gpu/frame3d.ts';
import { makePile2D, makePile3D, pileBodies2D, pileBodies3D, type Pile3DLayout } from '../bench/pile-scenes.ts';
import { uploadInputs, uploadInputs3D } from '../bench/pile-contenders.ts';
async function main(): Promise<void> {
  const a = await acquireDevice();
  const d = a.device;
  const med = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1]!.toFixed(1);
  for (const scene of ['2d', 'bricks', 'block'] as const) {
    for (const reuse of [true, false, true, false]) {
      const frame = scene === '2d' ? await GpuFrame2D.create(d, a.timestamps) : await GpuFrame3D.create(d, a.timestamps);
      const pile = scene === '2d' ? makePile2D(10000) : makePile3D(10000, scene as Pile3DLayout);
      const inputs = scene === '2d' ? uploadInputs(d, pile as never) : uploadInputs3D(d, pile as never);
      const spans: number[] = []; const stages: Record<string, number[]> = {};
      for (let k = 0; k < 10; k++) {
        if (k > 0) d.queue.writeBuffer(inputs.bodies, 0, scene === '2d' ? pileBodies2D(pile as never, k, 'wobble') : pileBodies3D(pile as never, k, 'wobble'));
        const r = await (frame as GpuFrame2D).step({ ...(inputs as never as object), reuse } as never);
        if (k >= 3) { spans.push(r.timings!.span); for (const [s, v] of Object.entries(r.timings!)) (stages[s] ??= []).push(v); }
      }
      console.log(scene, reuse ? 'reuse' : 'fresh', 'span', med(spans), Object.entries(stages).map(([s, v]) => `${s} ${med(v)}`).join(' '));
      frame.destroy(); (inputs as { destroy(): void }).destroy();
    }
  }
  d.destroy();
}
void main();
