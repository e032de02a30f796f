// The package as a user gets it: `npm pack` of a clean copy of the project (what git tracks for the
// build, without dist/ or the generated files, so no stale output can slip in), installed from the
// tarball into an empty ESM project, with Dawn (`webgpu`, the package's optional peer dependency)
// beside it as a Node user installs it. Used by test/pack.test.ts and scripts/check-browser-example.mjs.
//
// No network and no npm cache are needed: every npm command runs offline with a cache of its own,
// empty at the start, and the consumer installs the package's dependencies (and theirs) from
// `file:` paths of the project's own node_modules, where `npm ci` put them. (A cache filled by
// `npm ci` lacks the registry's package listings that `npm install <name>@<range>` asks for.)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs npm offline in `cwd` with the cache `cache`. --legacy-peer-deps: npm 11's arborist fails
 * ("Cannot read properties of null (reading 'matches')") placing a peer dependency (webgpu) that is
 * a `file:` link; the link satisfies it all the same.
 */
function npm(args, cwd, cache) {
  return execFileSync(
    'npm',
    [
      ...args,
      '--offline',
      '--legacy-peer-deps',
      '--loglevel=error',
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
    ],
    {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_cache: cache },
    },
  );
}

const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** `names` and their runtime dependencies, transitively, as `file:` specs of root's node_modules. */
export function localDependencies(root, names) {
  const specs = {};
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop();
    if (specs[name]) continue;
    const dir = join(root, 'node_modules', name);
    specs[name] = `file:${dir}`;
    queue.push(...Object.keys(manifest(dir).dependencies ?? {}));
  }
  return specs;
}

/**
 * Installs the tarball into a new project `dir` (package.json, type module), with its dependencies
 * and, with `dawn`, webgpu from root's node_modules. Returns `dir`.
 */
export function installTarball(root, dir, tarball, cache, { dawn }) {
  mkdirSync(dir, { recursive: true });
  const deps = localDependencies(root, [
    ...Object.keys(manifest(root).dependencies ?? {}),
    ...(dawn ? ['webgpu'] : []),
  ]);
  const dependencies = { 'webgpu-narrowphase': `file:${tarball}`, ...deps };
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      { name: 'consumer', version: '1.0.0', private: true, type: 'module', dependencies },
      null,
      2,
    ),
  );
  npm(['install'], dir, cache);
  return dir;
}

/**
 * Packs `root` (the project) inside `work` (an empty folder) and installs the tarball into
 * `work/consumer`. Returns the tarball's path, the packed file list, the consumer folder and the
 * npm cache used (empty before).
 */
export function packAndInstall(root, work) {
  const cache = join(work, 'npm-cache');
  const source = join(work, 'source');
  mkdirSync(source);
  for (const f of [
    'package.json',
    'package-lock.json',
    '.npmrc',
    'tsconfig.json',
    'tsconfig.build.json',
    'tsconfig.cli.json',
    'README.md',
  ])
    cpSync(join(root, f), join(source, f));
  for (const d of ['src', 'shaders', 'scripts']) {
    cpSync(join(root, d), join(source, d), {
      recursive: true,
      filter: (p) => !p.endsWith('.generated.ts'),
    });
  }
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'), 'dir');
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], source, cache));
  const tarball = join(work, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  const consumer = installTarball(root, join(work, 'consumer'), tarball, cache, { dawn: true });
  return { tarball, files, consumer, cache };
}
