// `validate`: both backends on generated scenes (2D: box, ngon, mixed; 3D: box3d, hull3d, mixed3d),
// one JSON line per scene kind and the mismatch count; near-ties, where both answers pass the
// independent validity check, are counted apart. Exit status 1 when there are mismatches.

import type { Writable } from 'node:stream';
import { compareManifolds2D, compareManifolds3D } from '../compare-manifolds.ts';
import { createNarrowphase } from '../narrowphase.ts';
import { randomPairScene, type ShapeMix } from '../random2d.ts';
import { randomPairScene3D, SHAPE_MIXES_3D, type ShapeMix3D } from '../random3d.ts';
import { parseScene } from '../scene.ts';
import { splitNearTies2D } from '../validity2d.ts';
import { splitNearTies3D } from '../validity3d.ts';
import { write } from './output.ts';

export type SceneKind = ShapeMix | ShapeMix3D;
export const SCENE_KINDS: readonly SceneKind[] = ['box', 'ngon', 'mixed', ...SHAPE_MIXES_3D];

export async function validateCommand(
  opts: { pairs: number; seed: number; mix: SceneKind[] },
  out: Writable,
): Promise<number> {
  const cpu = await createNarrowphase({ backend: 'cpu' });
  const gpu = await createNarrowphase({ backend: 'gpu' });
  let total = 0;
  try {
    for (const mix of opts.mix) {
      const is3D = (SHAPE_MIXES_3D as readonly string[]).includes(mix);
      const json2D = is3D ? null : randomPairScene(opts.seed, opts.pairs, mix as ShapeMix);
      const scene = json2D
        ? parseScene(json2D)
        : parseScene(randomPairScene3D(opts.seed, opts.pairs, mix as ShapeMix3D));
      const a = await cpu.collide(scene);
      const b = await gpu.collide(scene);
      const touching = a.manifolds.filter((m) => m.points.length > 0).length;
      const compared = (is3D ? compareManifolds3D : compareManifolds2D)(a.manifolds, b.manifolds);
      // A mismatch where both manifolds pass the independent validity check (src/validity2d.ts,
      // src/validity3d.ts) is a near-tie that f32 broke differently from f64: counted apart.
      const split =
        scene.dim === 3
          ? splitNearTies3D(scene, scene.pairs!, a.manifolds, b.manifolds, compared)
          : splitNearTies2D(json2D!, a.manifolds, b.manifolds, compared);
      const mismatches = split.unexplained;
      total += mismatches.length;
      const line = {
        mix,
        pairs: opts.pairs,
        touching,
        mismatches: mismatches.length,
        nearTies: split.nearTies.length,
      };
      await write(
        out,
        `${JSON.stringify({ ...line, adapter: gpu.adapter, examples: mismatches.slice(0, 3) })}\n`,
      );
    }
    await write(out, `mismatches: ${total}\n`);
  } finally {
    cpu.destroy();
    gpu.destroy();
  }
  return total > 0 ? 1 : 0;
}
