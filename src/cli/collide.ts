// `collide`: the manifolds of a scene file on either backend, streamed as JSON to `out`; with
// --stats, the run's stats as one JSON line on stderr.

import type { Writable } from 'node:stream';
import { createNarrowphase, type Backend } from '../narrowphase.ts';
import { parseScene } from '../scene.ts';
import { write, writeManifolds } from './output.ts';
import { readSceneJson } from './scene-file.ts';

export async function collideCommand(
  file: string,
  opts: { backend: Backend; stats: boolean },
  out: Writable,
): Promise<number> {
  const scene = parseScene(readSceneJson(file)); // validated before any device is created
  const np = await createNarrowphase({ backend: opts.backend });
  try {
    const { manifolds, stats } = await np.collideLazy(scene);
    await writeManifolds(out, manifolds);
    if (opts.stats) await write(process.stderr, `${JSON.stringify(stats)}\n`);
  } finally {
    np.destroy();
  }
  return 0;
}
