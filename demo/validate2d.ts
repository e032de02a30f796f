// The validate button in 2D: the CPU reference (src/cpu/narrowphase2d.ts) on the pairs the GPU
// broadphase found this frame, with the bodies as the GPU holds them, compared slot by slot with
// the manifolds the GPU kernel wrote (src/compare2d.ts: count, ids, normal within 1e-4, positions
// and depths within 1e-4 × the pair's size plus the f32 error of the world coordinates).

import { compareManifolds2D } from '../src/compare2d.ts';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import type { FrameCounts2D, FrameOutputs2D } from '../src/gpu/frame2d.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { manifoldBytes2D, packShapes2D, unpackManifolds2D } from '../src/pack2d.ts';
import type { Shape2D } from '../src/shapes2d.ts';
import type { ValidationReport } from './scenes/scene.ts';

const TOLERANCE = 1e-4;

export interface FrameSnapshot2D {
  device: GPUDevice;
  outputs: FrameOutputs2D;
  counts: FrameCounts2D;
  bodies: GPUBuffer;
  bodyCount: number;
  shapes: readonly Shape2D[];
  margin: number;
}

/** Reads the frame's pairs, manifold slots and bodies back and checks them against the CPU. */
export async function validateFrame2D(s: FrameSnapshot2D): Promise<ValidationReport> {
  if (s.counts.pairsOverflow) throw new Error('validate: the frame overflowed its pair buffer (it grows for the next frame); validate again');
  const pairCount = s.counts.pairs;
  const [pairBuf, gpuSlots, bodies] = await Promise.all([
    readBuffer(s.device, s.outputs.broadphase.pairs, Math.max(8, 8 * pairCount)),
    readBuffer(s.device, s.outputs.manifolds, manifoldBytes2D(pairCount)),
    readBuffer(s.device, s.bodies, s.bodyCount * LAYOUT_2D.body.words * 4),
  ]);
  const pairs = new Uint32Array(pairBuf, 0, 2 * pairCount);
  // The kernel reads the margin as f32 (Params2D).
  const packed = { shapes: packShapes2D(s.shapes), bodies, pairs, pairCount, margin: Math.fround(s.margin) };
  const prepared = prepareCpu2D(packed, s.shapes.length);
  const cpuSlots = collidePacked2D(prepared, packed);
  const gpu = unpackManifolds2D(gpuSlots, pairs, false);
  const cpu = unpackManifolds2D(cpuSlots, pairs, false);
  const extent = (body: number): number => prepared.shapes[prepared.bodyShape[body]!]!.extent;
  const scales = Array.from({ length: pairCount }, (_, k) => Math.min(extent(pairs[2 * k]!), extent(pairs[2 * k + 1]!)));
  const mismatches = compareManifolds2D(gpu, cpu, TOLERANCE, scales);
  const touching = gpu.filter((m, k) => m.points.length > 0 || cpu[k]!.points.length > 0).length;
  return {
    pairs: pairCount,
    touching,
    mismatches: mismatches.length,
    nearTies: null,
    examples: mismatches.slice(0, 8).map((m) => (m.index >= 0 ? `pair ${pairs[2 * m.index]},${pairs[2 * m.index + 1]}: ${m.reason}` : m.reason)),
  };
}
