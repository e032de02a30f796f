// The validate button in 3D: the CPU reference (src/cpu/narrowphase3d.ts) on every pair the GPU
// broadphase found this frame, with the shapes and bodies as the frame read them, against the
// GPU's dense contact list (a pair missing from it has no points), compared pair by pair with
// src/compare-manifolds.ts. As the CLI's validate does (src/cli.ts), a mismatch where both
// manifolds pass checkManifoldValidity3D is a near-tie f32 and f64 broke differently, counted
// apart; the rest are the mismatches shown. A list entry for a pair the broadphase did not report counts too.

import { compareManifolds3D } from '../src/compare-manifolds.ts';
import { unpackContacts3D } from '../src/cpu/contact-list3d.ts';
import { collidePacked3D, prepareCpu3D } from '../src/cpu/narrowphase3d.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { CONTACTS_LAYOUT_3D } from '../src/gpu/contact-list3d.ts';
import type { FrameCounts3D, FrameOutputs3D } from '../src/gpu/frame3d.ts';
import { LAYOUT_3D } from '../src/layout3d.ts';
import { packShapes3D, unpackManifolds3D } from '../src/pack3d.ts';
import type { Scene3D } from '../src/scene.ts';
import type { Shape3D } from '../src/shapes3d.ts';
import { splitNearTies3D } from '../src/validity3d.ts';
import type { ValidationReport } from './scenes/scene.ts';
import { alignListWithPairs, describeMismatches } from './validate-list.ts';

export interface FrameSnapshot3D {
  device: GPUDevice;
  outputs: FrameOutputs3D;
  counts: FrameCounts3D;
  /** The Body3D bytes the frame collided (a copy taken before the step moved them). */
  bodies: GPUBuffer;
  bodyCount: number;
  shapes: readonly Shape3D[];
  margin: number;
}

/** The scene the frame collided, as the library's checks take it (f32 positions and rotations). */
function collidedScene(
  bytes: ArrayBuffer,
  bodyCount: number,
  shapes: readonly Shape3D[],
  margin: number,
  pairs: Uint32Array,
): Scene3D {
  const f = new Float32Array(bytes);
  const u = new Uint32Array(bytes);
  const { words, position, rotation, shape } = LAYOUT_3D.body;
  const scene: Scene3D = {
    dim: 3,
    margin,
    shapes: [...shapes],
    bodyShape: new Uint32Array(bodyCount),
    bodyPosition: new Float64Array(3 * bodyCount),
    bodyRotation: new Float64Array(4 * bodyCount),
    pairs,
  };
  for (let i = 0; i < bodyCount; i++) {
    const o = i * words;
    scene.bodyShape[i] = u[o + shape]!;
    for (let k = 0; k < 3; k++) scene.bodyPosition[3 * i + k] = f[o + position + k]!;
    for (let k = 0; k < 4; k++) scene.bodyRotation[4 * i + k] = f[o + rotation + k]!;
  }
  return scene;
}

export async function validateFrame3D(s: FrameSnapshot3D): Promise<ValidationReport> {
  if (s.counts.pairsOverflow || s.counts.contactsOverflow) {
    throw new Error(
      'validate: the frame overflowed its buffers (they grow for the next frame); validate again',
    );
  }
  const pairCount = s.counts.pairs;
  const entryBytes = CONTACTS_LAYOUT_3D.contact.bytes;
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
  // The kernel reads the margin as f32.
  const margin = Math.fround(s.margin);
  const packed = { ...packShapes3D(s.shapes), bodies, pairs, pairCount, margin };
  const cpu = unpackManifolds3D(collidePacked3D(prepareCpu3D(packed), packed), pairs, false);
  const { manifolds: gpu, stray } = alignListWithPairs(
    pairs,
    unpackContacts3D(list.slice(0, s.counts.contacts * entryBytes)),
    3,
  );
  const all = compareManifolds3D(gpu, cpu);
  const { nearTies, unexplained } = splitNearTies3D(
    collidedScene(bodies, s.bodyCount, s.shapes, margin, pairs),
    pairs,
    gpu,
    cpu,
    all,
  );
  return {
    pairs: pairCount,
    touching: gpu.filter((m, k) => m.points.length > 0 || cpu[k]!.points.length > 0).length,
    mismatches: unexplained.length + stray,
    nearTies: nearTies.length,
    examples: describeMismatches(pairs, unexplained, stray),
  };
}
