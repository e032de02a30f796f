// The validate button in 3D: the CPU reference (src/cpu/narrowphase3d.ts) on the frame's packed
// input (the same f32 shapes, bodies and pairs the GPU kernel read), compared slot by slot with
// the GPU's manifolds (src/compare2d.ts). As the CLI's validate does (src/cli.ts), a mismatch
// where both manifolds pass checkManifoldValidity3D is a near-tie f32 and f64 broke differently,
// counted apart; the rest are the mismatches shown.

import { compareManifolds3D } from '../src/compare2d.ts';
import { collidePacked3D, prepareCpu3D } from '../src/cpu/narrowphase3d.ts';
import { unpackManifolds3D, type Packed3D } from '../src/pack3d.ts';
import type { ManifoldJson } from '../src/pack2d.ts';
import type { Scene3D } from '../src/scene.ts';
import { splitNearTies3D } from '../src/validity3d.ts';
import type { ValidationReport } from './scenes/scene.ts';

export function validateFrame3D(scene: Scene3D, packed: Packed3D, gpu: readonly ManifoldJson[]): ValidationReport {
  const cpu = unpackManifolds3D(collidePacked3D(prepareCpu3D(packed), packed), packed.pairs, false);
  const all = compareManifolds3D(gpu, cpu);
  const { nearTies, unexplained } = splitNearTies3D(scene, packed.pairs, gpu, cpu, all);
  const pairs = packed.pairs;
  return {
    pairs: packed.pairCount,
    touching: gpu.filter((m, k) => m.points.length > 0 || (cpu[k]?.points.length ?? 0) > 0).length,
    mismatches: unexplained.length,
    nearTies: nearTies.length,
    examples: unexplained.slice(0, 8).map((m) => (m.index >= 0 ? `pair ${pairs[2 * m.index]},${pairs[2 * m.index + 1]}: ${m.reason}` : m.reason)),
  };
}
