// The validate button in 2D: the CPU reference (src/cpu/narrowphase2d.ts) on every pair the GPU
// broadphase found this frame, with the bodies as the frame read them, against the GPU's dense
// contact list (the touching manifolds, ordered by body pair; a pair missing from it has none).
// Compared pair by pair with src/compare-manifolds.ts: point count, ids, normal within 1e-4,
// positions and depths within 1e-4 × the pair's size plus the f32 error of the world coordinates.
// A list entry for a pair the broadphase did not report counts as a mismatch too.

import { compareManifolds2D } from '../src/compare-manifolds.ts';
import { unpackContacts2D } from '../src/cpu/contact-list2d.ts';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { CONTACTS_LAYOUT_2D } from '../src/gpu/contact-list2d.ts';
import type { FrameCounts2D, FrameOutputs2D } from '../src/gpu/frame2d.ts';
import { packShapes2D, unpackManifolds2D } from '../src/pack2d.ts';
import type { Shape2D } from '../src/shapes2d.ts';
import type { ValidationReport } from './scenes/scene.ts';
import { alignListWithPairs, describeMismatches } from './validate-list.ts';

const TOLERANCE = 1e-4;

export interface FrameSnapshot2D {
  device: GPUDevice;
  outputs: FrameOutputs2D;
  counts: FrameCounts2D;
  /** The Body2D bytes the frame collided (a copy taken before the step moved them). */
  bodies: GPUBuffer;
  bodyCount: number;
  shapes: readonly Shape2D[];
  margin: number;
}

export async function validateFrame2D(s: FrameSnapshot2D): Promise<ValidationReport> {
  if (s.counts.pairsOverflow || s.counts.contactsOverflow) {
    throw new Error(
      'validate: the frame overflowed its buffers (they grow for the next frame); validate again',
    );
  }
  const pairCount = s.counts.pairs;
  const entryBytes = CONTACTS_LAYOUT_2D.contact.bytes;
  const [pairBuf, list, bodies] = await Promise.all([
    readBuffer(s.device, s.outputs.broadphase.pairs, Math.max(8, 8 * pairCount)),
    readBuffer(
      s.device,
      s.outputs.contacts.contacts,
      Math.max(entryBytes, s.counts.contacts * entryBytes),
    ),
    readBuffer(s.device, s.bodies, s.bodies.size),
  ]);
  const pairs = new Uint32Array(pairBuf, 0, 2 * pairCount);
  // The kernel reads the margin as f32 (Params2D).
  const packed = {
    shapes: packShapes2D(s.shapes),
    bodies,
    pairs,
    pairCount,
    margin: Math.fround(s.margin),
  };
  const prepared = prepareCpu2D(packed, s.shapes.length);
  const cpu = unpackManifolds2D(collidePacked2D(prepared, packed), pairs, false);
  const { manifolds: gpu, stray } = alignListWithPairs(
    pairs,
    unpackContacts2D(list.slice(0, s.counts.contacts * entryBytes)),
    2,
  );
  const extent = (body: number): number => prepared.shapes[prepared.bodyShape[body]!]!.extent;
  const scales = Array.from({ length: pairCount }, (_, k) =>
    Math.min(extent(pairs[2 * k]!), extent(pairs[2 * k + 1]!)),
  );
  const mismatches = compareManifolds2D(gpu, cpu, TOLERANCE, scales);
  return {
    pairs: pairCount,
    touching: gpu.filter((m, k) => m.points.length > 0 || cpu[k]!.points.length > 0).length,
    mismatches: mismatches.length + stray,
    nearTies: null,
    examples: describeMismatches(pairs, mismatches, stray),
  };
}
