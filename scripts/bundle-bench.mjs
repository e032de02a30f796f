// Bundles the benches for a machine with a GPU but no Node toolchain (docs/testing.md,
// "Benchmarks on a machine with a GPU but no Node"): dist/bench.mjs (npm run bench),
// dist/profile-dispatches.mjs and dist/cold-start.mjs, each one ES module that needs only Node and
// the `webgpu` package, the WGSL embedded; box2d-wasm's files beside them (its WASM is loaded from
// its package at run time).
//
//   node scripts/bundle-bench.mjs               the working tree's benches
//   node scripts/bundle-bench.mjs --base REV    and REV's profile-dispatches.mjs in dist/base/, for
//                                               an A/B in one device call (scripts/device-run.sh)
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { base: { type: 'string' } } });

// CommonJS peers call require() and read __dirname: an ES module bundle defines both.
const banner = [
  "import{createRequire as __bcr}from'node:module';",
  "import{fileURLToPath as __bfu}from'node:url';",
  "import{dirname as __bdn}from'node:path';",
  'const require=__bcr(import.meta.url);',
  'const __filename=__bfu(import.meta.url);',
  'const __dirname=__bdn(__filename);',
].join('');

/** Bundles `entries` (bench/NAME.ts) of the tree at `tree` into `outDir`/NAME.mjs. */
async function bundle(tree, entries, outDir) {
  execFileSync('node', [join(tree, 'scripts/embed-shaders.mjs')], { cwd: tree, stdio: 'inherit' });
  for (const [name, out] of entries) {
    await build({
      entryPoints: [join(tree, `bench/${name}.ts`)],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: ['webgpu'],
      outfile: join(outDir, `${out}.mjs`),
      banner: { js: banner },
      logLevel: 'warning',
    });
  }
}

const dist = join(root, 'dist');
await bundle(
  root,
  [
    ['main', 'bench'],
    ['profile-dispatches', 'profile-dispatches'],
    ['cold-start', 'cold-start'],
  ],
  dist,
);
const wasm = join(dist, 'node_modules/box2d-wasm');
rmSync(wasm, { recursive: true, force: true });
mkdirSync(join(wasm, 'dist/umd'), { recursive: true });
const box2d = join(root, 'node_modules/box2d-wasm');
for (const f of ['package.json', 'LICENSE.zlib.txt']) cpSync(join(box2d, f), join(wasm, f));
for (const f of ['entry.js', 'Box2D.wasm', 'Box2D.simd.wasm'])
  cpSync(join(box2d, 'dist/umd', f), join(wasm, 'dist/umd', f));

if (values.base) {
  // The base revision in a worktree of its own, sharing this tree's node_modules.
  const tree = join(mkdtempSync(join(tmpdir(), 'bench-base-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', tree, values.base], { cwd: root });
  try {
    symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'));
    rmSync(join(dist, 'base'), { recursive: true, force: true });
    await bundle(tree, [['profile-dispatches', 'profile-dispatches']], join(dist, 'base'));
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root });
  }
}
console.log(`wrote ${dist}${values.base ? ` (base ${values.base} in dist/base)` : ''}`);
