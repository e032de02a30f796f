// GPU time per kernel of one whole frame on the bench's pile (bench/pile.ts makePile2D/3D): every
// dispatch the frame records is replayed in a compute pass of its own with timestamps (the
// frame's own passes and timestamps are set aside), over `frames` frames; per kernel, the median
// and every sample (ms), after the counts of the two frames before them (pairs, touching, and
// what reuse kept, proved apart and collided). Under machine load, compare minima and medians of
// A/B runs, not single frames. Not part of `npm run bench`: a tool for finding where a frame's
// time goes.
//
//   node_modules/.bin/tsx bench/profile-dispatches.ts 3 10000 9 block   # dim, bodies, frames, 3D layout (bricks or block)
//
// With --first, the frame's first step alone, every dispatch on its own, slowest first: with the
// driver's shader cache off (MESA_SHADER_CACHE_DISABLE=true) a lavapipe dispatch then includes
// compiling its pipeline's machine code, so this lists what a cold frame waits for per kernel.
// With --cold, every profiled frame is a cold one (frame.reset() before it: the broadphase
// rebuilds, nothing is reused), its pipelines already compiled. With --wobble, every frame's bodies
// sit where the pile bench's warm frames put them (pile-scenes.ts: a settled pile's wobble), so
// that reuse sees the bench's motion; without it every frame has the built poses. With
// --no-values the frames carry no user values (userValues: false).
//
//   MESA_SHADER_CACHE_DISABLE=true node_modules/.bin/tsx bench/profile-dispatches.ts 3 100 1 bricks --first

import { acquireDevice, createNodeGpu, nodeVersion } from '../src/gpu/device.ts';
import type { GpuFrame } from '../src/gpu/frame.ts';
import { GpuFrame2D, type FrameInputs2D } from '../src/gpu/frame2d.ts';
import { GpuFrame3D, type FrameInputs3D } from '../src/gpu/frame3d.ts';
import { assertShadersEmbedded } from './fresh-shaders.ts';
import { gpuWarmupMs, keepGpuBusy } from './timing.ts';
import { makePile2D, makePile3D, PILE_3D_LAYOUTS, type Pile3DLayout } from './pile.ts';
import { bodiesAt2D, bodiesAt3D } from './pile-scenes.ts';

const first = process.argv.includes('--first');
const cold = process.argv.includes('--cold');
const wobble = process.argv.includes('--wobble');
const noValues = process.argv.includes('--no-values');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const dim = Number(args[0] ?? 3);
const bodies = Number(args[1] ?? 10_000);
const frames = first ? 1 : Number(args[2] ?? 5);
const layout = (args[3] ?? 'bricks') as Pile3DLayout;
if (!PILE_3D_LAYOUTS.includes(layout))
  throw new Error(`layout ${layout}: give one of ${PILE_3D_LAYOUTS.join(', ')}`);
assertShadersEmbedded();
await unquantizedTimestamps();
const { device, adapter } = await acquireDevice();
// On a GPU, each profiled frame follows the benches' warm-up, so that it runs at the clocks of an
// engine stepping every frame (not with --first: that frame measures the compiles).
const warmupMs = first ? 0 : gpuWarmupMs(undefined, !adapter.software);
const MAX_QUERIES = 4096;
const querySet = device.createQuerySet({ type: 'timestamp', count: MAX_QUERIES });
const resolveBuf = device.createBuffer({
  size: 8 * MAX_QUERIES,
  usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
});
const readBuf = device.createBuffer({
  size: 8 * MAX_QUERIES,
  usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
});
let labels: string[] = [];
let profiling = false;

// While profiling, encoders hand out recording passes: each dispatch becomes a timed pass of its own.
const createEncoder = device.createCommandEncoder.bind(device);
device.createCommandEncoder = (descriptor?: GPUCommandEncoderDescriptor): GPUCommandEncoder => {
  const encoder = createEncoder(descriptor);
  if (!profiling) return encoder;
  const beginPass = encoder.beginComputePass.bind(encoder);
  const finish = encoder.finish.bind(encoder);
  encoder.beginComputePass = (pass?: GPUComputePassDescriptor): GPUComputePassEncoder => {
    const passLabel = pass?.label ?? '?';
    let pipeline: GPUComputePipeline | null = null;
    const groups = new Map<number, GPUBindGroup | null>();
    const timed = (dispatch: (p: GPUComputePassEncoder) => void): void => {
      const q = labels.length;
      labels.push(`${passLabel} ${pipeline?.label ?? '?'}`);
      const p = beginPass({
        label: passLabel,
        timestampWrites: {
          querySet,
          beginningOfPassWriteIndex: 2 * q,
          endOfPassWriteIndex: 2 * q + 1,
        },
      });
      if (pipeline) p.setPipeline(pipeline);
      for (const [i, g] of groups) p.setBindGroup(i, g);
      dispatch(p);
      p.end();
    };
    const recorder = {
      setPipeline: (p: GPUComputePipeline): void => void (pipeline = p),
      setBindGroup: (i: number, g: GPUBindGroup | null): void => void groups.set(i, g),
      dispatchWorkgroups: (x: number, y?: number, z?: number): void =>
        timed((p) => p.dispatchWorkgroups(x, y, z)),
      dispatchWorkgroupsIndirect: (b: GPUBuffer, o: number): void =>
        timed((p) => p.dispatchWorkgroupsIndirect(b, o)),
      end: (): void => {},
    };
    return recorder as unknown as GPUComputePassEncoder;
  };
  encoder.finish = (d?: GPUCommandBufferDescriptor): GPUCommandBuffer => {
    if (labels.length > 0) {
      encoder.resolveQuerySet(querySet, 0, 2 * labels.length, resolveBuf, 0);
      encoder.copyBufferToBuffer(resolveBuf, 0, readBuf, 0, 16 * labels.length);
    }
    return finish(d);
  };
  return encoder;
};

/**
 * In Node, Dawn without its timestamp quantization (on by default: it rounds every timestamp to
 * 2^16 ns, as browsers do against timing attacks), so that short dispatches read as more than 0 or
 * 65.5 µs. acquireDevice() takes navigator.gpu where there is one.
 */
async function unquantizedTimestamps(): Promise<void> {
  const g = globalThis as { navigator?: { gpu?: GPU } };
  if (g.navigator?.gpu || !nodeVersion()) return;
  const gpu = await createNodeGpu(['disable-dawn-features=timestamp_quantization']);
  Object.defineProperty(globalThis, 'navigator', {
    value: { ...g.navigator, gpu },
    configurable: true,
  });
}

function storage(data: ArrayBuffer | ArrayBufferView): GPUBuffer {
  const b = device.createBuffer({
    size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  if (ArrayBuffer.isView(data))
    device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
  else device.queue.writeBuffer(b, 0, data);
  return b;
}

/** The frame, once created; prints how long its creation took (its stages' and the piles' pair classes' pipelines). */
async function created<F>(frame: Promise<F>): Promise<F> {
  const t = performance.now();
  const f = await frame;
  console.log(`create() ${(performance.now() - t).toFixed(0)} ms`);
  return f;
}

async function profile<
  I extends { bodies: GPUBuffer; bodyCount: number; margin: number; userValues?: boolean },
>(
  frame: GpuFrame<I>,
  inputs: I,
  bodiesAt: ((frame: number) => ArrayBuffer) | undefined,
): Promise<void> {
  // --no-values: every frame without user values (FrameInputsBase.userValues).
  if (noValues) inputs = { ...inputs, userValues: false };
  // Frame k's bodies (--wobble; else they stay as built).
  const move = (k: number): void => {
    if (bodiesAt) device.queue.writeBuffer(inputs.bodies, 0, bodiesAt(k));
  };
  // Two normal frames first (not with --first): buffers grown to fit, last frame's list in place.
  for (let i = 0; i < (first ? 0 : 2); i++) {
    move(i);
    const { counts: c } = await frame.step(inputs);
    console.log(
      `frame ${i}: pairs ${c.pairs}, touching ${c.contacts}, reused ${c.reused}, apart ${c.apart}, collided ${c.collided}`,
    );
  }
  const samples = new Map<string, number[]>();
  for (let r = 0; r < frames; r++) {
    move(r + 2);
    if (warmupMs > 0) await keepGpuBusy(device, warmupMs);
    if (cold) frame.reset();
    profiling = true;
    labels = [];
    const encoder = device.createCommandEncoder();
    // As step() records a frame after a quiet one: an update, without the rebuild's sorts, and
    // held-only (the pile stays in its fat boxes; a deferred frame would show its own dispatches).
    const quiet = !first && !cold;
    frame.encode(encoder, inputs, false, { deferRebuild: quiet, expectHeld: quiet });
    device.queue.submit([encoder.finish()]);
    profiling = false;
    await readBuf.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(readBuf.getMappedRange().slice(0, 16 * labels.length));
    readBuf.unmap();
    const frameMs = new Map<string, number>();
    labels.forEach((l, i) =>
      frameMs.set(l, (frameMs.get(l) ?? 0) + Number(t[2 * i + 1]! - t[2 * i]!) / 1e6),
    );
    for (const [l, v] of frameMs) samples.set(l, [...(samples.get(l) ?? []), v]);
    if (r === 0) console.log(`dispatches ${labels.length}`);
  }
  let sum = 0;
  const rows = [...samples];
  if (first) rows.sort(([, a], [, b]) => b[0]! - a[0]!);
  for (const [label, v] of rows) {
    v.sort((a, b) => a - b);
    const median = v[Math.floor(v.length / 2)]!;
    sum += median;
    console.log(median.toFixed(2).padStart(8), label, v.map((x) => x.toFixed(2)).join(' '));
  }
  console.log(`sum of medians ${sum.toFixed(1)}`);
}

if (dim === 3) {
  const pile = makePile3D(bodies, layout);
  const p = pile.packed;
  const inputs: FrameInputs3D = {
    shapes: storage(p.shapes),
    hullVertices: storage(p.hullVertices),
    hullPlanes: storage(p.hullPlanes),
    hullFaces: storage(p.hullFaces),
    hullIndices: storage(p.hullIndices),
    bodies: storage(p.bodies),
    bodyCount: bodies,
    margin: pile.scene.margin,
    kinds: ['box'],
  };
  await profile(
    await created(GpuFrame3D.create(device, true, { kinds: ['box'] })),
    inputs,
    wobble ? bodiesAt3D(pile, 'wobble') : undefined,
  );
} else {
  const pile = makePile2D(bodies);
  const inputs: FrameInputs2D = {
    shapes: storage(pile.packed.shapes),
    bodies: storage(pile.packed.bodies),
    bodyCount: bodies,
    margin: pile.scene.margin,
    kinds: ['box'],
  };
  await profile(
    await created(GpuFrame2D.create(device, true, { kinds: ['box'] })),
    inputs,
    wobble ? bodiesAt2D(pile, 'wobble') : undefined,
  );
}
process.exit(0);
