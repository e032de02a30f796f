// Command line: `npm run cli -- collide [--backend cpu|gpu] [--stats] scene.json` prints the
// manifolds of a 2D or 3D scene as JSON; `npm run cli -- validate` runs both backends on generated
// scenes (2D: box, ngon, mixed; 3D: box3d, hull3d, mixed3d) and prints the mismatch count (near-ties,
// where both answers pass the independent validity check, counted apart). Bad
// input exits with status 2 and a message naming the offending item.

import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { compareManifolds2D, compareManifolds3D } from './compare2d.ts';
import { InputError } from './errors.ts';
import { createNarrowphase, type Backend } from './narrowphase.ts';
import { randomPairScene, type ShapeMix } from './random2d.ts';
import { randomPairScene3D, SHAPE_MIXES_3D, type ShapeMix3D } from './random3d.ts';
import { parseScene } from './scene.ts';
import { splitNearTies2D } from './validity2d.ts';
import { splitNearTies3D } from './validity3d.ts';

type SceneKind = ShapeMix | ShapeMix3D;
const SCENE_KINDS: readonly SceneKind[] = ['box', 'ngon', 'mixed', ...SHAPE_MIXES_3D];

/** Writes and waits until the stream took it: process.exit must not cut piped output short. */
function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (err) => (err ? reject(err) : resolve())));
}

async function collide(file: string, opts: { backend: Backend; stats: boolean }): Promise<void> {
  const text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError(file, `is not valid JSON: ${(e as Error).message}`);
  }
  const scene = parseScene(json); // validate before any device is created
  const np = await createNarrowphase({ backend: opts.backend });
  const { manifolds, stats } = await np.collide(scene);
  await write(process.stdout, `${JSON.stringify({ manifolds })}\n`);
  if (opts.stats) await write(process.stderr, `${JSON.stringify(stats)}\n`);
  np.destroy();
}

async function validate(opts: { pairs: number; seed: number; mix: SceneKind[] }): Promise<number> {
  for (const mix of opts.mix) {
    if (!SCENE_KINDS.includes(mix)) throw new InputError('--mix', `unknown scene kind "${mix}"; choose from ${SCENE_KINDS.join(', ')}`);
  }
  const cpu = await createNarrowphase({ backend: 'cpu' });
  const gpu = await createNarrowphase({ backend: 'gpu' });
  let total = 0;
  for (const mix of opts.mix) {
    const is3D = (SHAPE_MIXES_3D as readonly string[]).includes(mix);
    const json2D = is3D ? null : randomPairScene(opts.seed, opts.pairs, mix as ShapeMix);
    const scene = json2D ? parseScene(json2D) : parseScene(randomPairScene3D(opts.seed, opts.pairs, mix as ShapeMix3D));
    const a = await cpu.collide(scene);
    const b = await gpu.collide(scene);
    const touching = a.manifolds.filter((m) => m.points.length > 0).length;
    const compared = (is3D ? compareManifolds3D : compareManifolds2D)(a.manifolds, b.manifolds);
    // A mismatch where both manifolds pass the independent validity check (src/validity2d.ts,
    // src/validity3d.ts) is a near-tie that f32 broke differently from f64: counted apart.
    const split =
      scene.dim === 3 ? splitNearTies3D(scene, scene.pairs!, a.manifolds, b.manifolds, compared) : splitNearTies2D(json2D!, a.manifolds, b.manifolds, compared);
    const mismatches = split.unexplained;
    total += mismatches.length;
    const line = { mix, pairs: opts.pairs, touching, mismatches: mismatches.length, nearTies: split.nearTies.length };
    await write(process.stdout, `${JSON.stringify({ ...line, adapter: gpu.adapter, examples: mismatches.slice(0, 3) })}\n`);
  }
  await write(process.stdout, `mismatches: ${total}\n`);
  gpu.destroy();
  return total;
}

const program = new Command('webgpu-narrowphase').description('Contact manifolds for convex shape pairs on the GPU and the CPU.');

program
  .command('collide')
  .description('collide the pairs of a scene JSON file ("-" for stdin) and print the manifolds as JSON')
  .argument('<scene>', 'scene JSON file')
  .addOption(new Option('--backend <backend>', 'where to run').choices(['cpu', 'gpu']).default('gpu'))
  .option('--stats', 'print {"backend","adapter","pairs","computeMs","wallMs"} as one JSON line to stderr', false)
  .action(async (file: string, opts: { backend: Backend; stats: boolean }) => collide(file, opts));

program
  .command('validate')
  .description('run both backends on generated scenes and print the mismatch count (exit 1 if any; near-ties, where both answers are valid, are counted apart)')
  .option('--pairs <n>', 'pairs per scene', (v) => Number.parseInt(v, 10), 100000)
  .option('--seed <n>', 'random seed', (v) => Number.parseInt(v, 10), 1)
  .option('--mix <list>', `scene kinds: ${SCENE_KINDS.join(', ')}`, (v) => v.split(',') as SceneKind[], [...SCENE_KINDS])
  .action(async (opts: { pairs: number; seed: number; mix: SceneKind[] }) => {
    process.exitCode = (await validate(opts)) > 0 ? 1 : 0;
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof InputError) {
    process.stderr.write(`error: ${e.message}\n`);
    process.exit(2);
  }
  throw e;
}
// Dawn keeps Node's event loop alive after the device is done; leave explicitly.
process.exit(process.exitCode ?? 0);
