#!/usr/bin/env node
// Command line, the package's `bin` (`npx webgpu-narrowphase collide scene.json`; in the
// repository `npm run cli -- ...`):
//   collide [--backend cpu|gpu] [--stats] scene.json   the manifolds of a 2D or 3D scene as JSON
//   validate [--pairs n] [--seed n] [--mix kinds]       both backends on generated scenes
// Every failure exits with status 2 and one line on stderr naming what and why (no stack trace);
// validate exits 1 when it finds mismatches. Arguments are checked here; the work runs in a
// worker process (src/cli/worker.ts) so that nothing Dawn writes reaches stdout.

import type { Writable } from 'node:stream';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Backend } from './narrowphase.ts';
import { FAILURE_EXIT, failureLine } from './cli/failure.ts';
import { isWorker, outputStream, runWorker } from './cli/worker.ts';
import { SCENE_KINDS, type SceneKind } from './cli/validate.ts';

/** An option's integer: digits only (with a sign where negatives are allowed), at least `min`. */
function integer(min: number): (value: string) => number {
  return (value) => {
    const n = /^[+-]?\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(`must be an integer >= ${min}`);
    return n;
  };
}

function sceneKinds(value: string): SceneKind[] {
  const kinds = value.split(',').map((k) => k.trim());
  const unknown = kinds.filter((k) => !(SCENE_KINDS as readonly string[]).includes(k));
  if (kinds.length === 0 || unknown.length > 0)
    throw new InvalidArgumentError(
      `unknown scene kind ${JSON.stringify(unknown[0] ?? '')}; choose from ${SCENE_KINDS.join(', ')}`,
    );
  return kinds as SceneKind[];
}

/** Runs a command: in the worker the work itself, writing to the output pipe; here, the worker. */
async function run(work: (out: Writable) => Promise<number>): Promise<void> {
  if (!isWorker()) {
    process.exitCode = await runWorker();
    return;
  }
  const out = outputStream();
  try {
    process.exitCode = await work(out);
  } finally {
    await new Promise<void>((resolve) => out.end(resolve));
  }
}

const program = new Command('webgpu-narrowphase')
  .description('Contact manifolds for convex shape pairs on the GPU and the CPU.')
  .exitOverride()
  .configureOutput({
    outputError: (text, write) =>
      write(
        text
          .split('\n')
          .filter((l) => l.trim())
          .join(' ') + '\n',
      ),
  });

program
  .command('collide')
  .description(
    'collide the pairs of a scene JSON file ("-" for stdin) and print the manifolds as JSON',
  )
  .argument('<scene>', 'scene JSON file')
  .addOption(
    new Option('--backend <backend>', 'where to run').choices(['cpu', 'gpu']).default('gpu'),
  )
  .option(
    '--stats',
    'print {"backend","adapter","pairs","computeMs","wallMs","rebasedPairs"} as one JSON line to stderr',
    false,
  )
  .action((file: string, opts: { backend: Backend; stats: boolean }) =>
    run(async (out) => (await import('./cli/collide.ts')).collideCommand(file, opts, out)),
  );

program
  .command('validate')
  .description(
    'run both backends on generated scenes and print the mismatch count (exit 1 if any; near-ties, where both answers are valid, are counted apart)',
  )
  .option('--pairs <n>', 'pairs per scene', integer(1), 100000)
  .option('--seed <n>', 'random seed', integer(-(2 ** 31)), 1)
  .option('--mix <list>', `scene kinds: ${SCENE_KINDS.join(', ')}`, sceneKinds, [...SCENE_KINDS])
  .action((opts: { pairs: number; seed: number; mix: SceneKind[] }) =>
    run(async (out) => (await import('./cli/validate.ts')).validateCommand(opts, out)),
  );

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    // Commander printed its one line (usage errors) or the help; --help and --version exit 0.
    process.exitCode = e.exitCode === 0 ? 0 : FAILURE_EXIT;
  } else {
    process.stderr.write(`${failureLine(e)}\n`);
    process.exitCode = FAILURE_EXIT;
  }
}
// Dawn keeps Node's event loop alive after the device is done; leave explicitly (stdout and
// stderr are drained first: process.exit must not cut piped output short).
await new Promise<void>((resolve) =>
  process.stdout.write('', () => process.stderr.write('', () => resolve())),
);
process.exit(process.exitCode ?? 0);
