// The package as a user gets it: `npm pack` of a clean copy of the project (what git tracks for the
// build, without dist/ or the generated shaders, so no stale output can slip in), installed from the
// tarball into an empty ESM project with `npm install --offline` (npm's cache; no network), with
// Dawn (`webgpu`, the package's optional peer dependency) beside it as a Node user installs it.
// Used by test/pack.test.ts and scripts/check-browser-example.mjs.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--loglevel=error', '--no-audit', '--no-fund', '--no-update-notifier'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * Packs `root` (the project) inside `work` (an empty folder) and installs the tarball into
 * `work/consumer`. Returns the tarball's path, the packed file list and the consumer folder.
 */
export function packAndInstall(root, work) {
  const source = join(work, 'source');
  mkdirSync(source);
  for (const f of ['package.json', 'package-lock.json', '.npmrc', 'tsconfig.json', 'tsconfig.build.json', 'README.md']) cpSync(join(root, f), join(source, f));
  for (const d of ['src', 'shaders', 'scripts']) {
    cpSync(join(root, d), join(source, d), { recursive: true, filter: (p) => !p.endsWith('shaders.generated.ts') });
  }
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'), 'dir');
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], source));
  const tarball = join(work, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  // Dawn is an optional peer dependency: a Node user installs it beside the package.
  const dawn = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies.webgpu;
  npm(['install', '--offline', tarball, `webgpu@${dawn}`], consumer);
  return { tarball, files, consumer };
}
