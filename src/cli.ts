// Command line: `npm run cli -- collide [--backend cpu|gpu] [--stats] scene.json` prints the
// manifolds as JSON; `npm run cli -- validate` runs both backends on generated scenes and prints the
// mismatch count. Bad input exits with status 2 and a message naming the offending item.

import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { compareManifolds2D } from './compare2d.ts';
import { InputError } from './errors.ts';
import { createNarrowphase, type Backend } from './narrowphase.ts';
import { randomPairScene, type ShapeMix } from './random2d.ts';
import { parseScene } from './scene.ts';

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

async function validate(opts: { pairs: number; seed: number; mix: ShapeMix[] }): Promise<number> {
  const cpu = await createNarrowphase({ backend: 'cpu' });
  const gpu = await createNarrowphase({ backend: 'gpu' });
  let total = 0;
  for (const mix of opts.mix) {
    const scene = parseScene(randomPairScene(opts.seed, opts.pairs, mix));
    const a = await cpu.collide(scene);
    const b = await gpu.collide(scene);
    const touching = a.manifolds.filter((m) => m.points.length > 0).length;
    const mismatches = compareManifolds2D(a.manifolds, b.manifolds);
    total += mismatches.length;
    await write(process.stdout, `${JSON.stringify({ mix, pairs: opts.pairs, touching, mismatches: mismatches.length, adapter: gpu.adapter, examples: mismatches.slice(0, 3) })}\n`);
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
  .description('run both backends on generated scenes and print the mismatch count (exit 1 if any)')
  .option('--pairs <n>', 'pairs per scene', (v) => Number.parseInt(v, 10), 100000)
  .option('--seed <n>', 'random seed', (v) => Number.parseInt(v, 10), 1)
  .option('--mix <list>', 'scene kinds: box, ngon, mixed', (v) => v.split(',') as ShapeMix[], ['box', 'ngon', 'mixed'] as ShapeMix[])
  .action(async (opts: { pairs: number; seed: number; mix: ShapeMix[] }) => {
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
