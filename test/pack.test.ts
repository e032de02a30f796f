// The published package, as a user gets it (scripts/pack-install.mjs): `npm pack` of a clean copy
// of the project (so no stale build output can slip in), installed from the tarball into an empty
// project without network (`npm install --offline`, from npm's cache), then
//   - Node (ESM, no loader, no tsx): the README's Node example runs on the installed package and
//     prints what the README shows;
//   - browser: the README's browser example is bundled by esbuild for the browser from the
//     installed package; the bundle has no .wgsl import and no trace of Dawn's native module;
//   - TypeScript: a consumer type-checks against the package's declarations.
// (scripts/check-browser-example.mjs runs that browser bundle in Chromium with WebGPU.)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packAndInstall } from '../scripts/pack-install.mjs';
import { fencedBlock, readme, ROOT } from './helpers/readme.ts';

const work = mkdtempSync(join(tmpdir(), 'pack-test-'));
let consumer = '';
let tarball = '';
let packedFiles: string[] = [];

beforeAll(() => {
  const r = packAndInstall(ROOT, work);
  packedFiles = r.files;
  consumer = r.consumer;
  tarball = r.tarball;
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack', () => {
  it('holds the built ESM with declarations and the shader sources, nothing of the development tree', () => {
    expect(packedFiles).toContain('dist/index.js');
    expect(packedFiles).toContain('dist/index.d.ts');
    expect(packedFiles).toContain('dist/gpu/shaders.generated.js');
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('README.md');
    const unexpected = packedFiles.filter((f) => !/^(dist\/.*\.(js|d\.ts|js\.map)|shaders\/\w[\w-]*\.wgsl|package\.json|README\.md)$/.test(f));
    expect(unexpected).toEqual([]);
    expect(packedFiles.filter((f) => /^(src|test|bench|demo)\/|cli\.js$/.test(f))).toEqual([]);
    // Every module was compiled from the current src/ (no .ts specifier left for Node to trip on).
    const index = readFileSync(join(consumer, 'node_modules/webgpu-narrowphase/dist/index.js'), 'utf8');
    expect(index).not.toMatch(/from '[^']+\.ts'/);
    // Dawn (130 MB of native binaries) is an optional peer: a browser project never downloads it.
    const manifest = JSON.parse(readFileSync(join(consumer, 'node_modules/webgpu-narrowphase/package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain('webgpu');
    expect(manifest.peerDependenciesMeta?.webgpu?.optional).toBe(true);
  });

  it("runs the README's Node example in plain Node on the installed package", () => {
    const file = join(consumer, 'collide.mjs');
    writeFileSync(file, fencedBlock(readme(), 'example:node'));
    const r = spawnSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(fencedBlock(readme(), 'output:node').trim());
  });

  it('without Dawn installed, Node says how to get it', () => {
    // A project that installed the package alone (as a browser project does).
    const bare = join(work, 'bare');
    mkdirSync(bare);
    writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'bare', version: '1.0.0', private: true, type: 'module' }));
    const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: bare, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    expect(existsSync(join(bare, 'node_modules/webgpu'))).toBe(false);
    writeFileSync(join(bare, 'try.mjs'), [
      "import { createNarrowphase, NoAdapterError } from 'webgpu-narrowphase';",
      'try { await createNarrowphase(); console.log("no error"); }',
      'catch (e) { console.log(e instanceof NoAdapterError, e.message); }',
    ].join('\n'));
    const r = spawnSync(process.execPath, ['try.mjs'], { cwd: bare, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^true WebGPU in Node needs Dawn: npm install webgpu/);
  });

  it("bundles the README's browser example for the browser, without .wgsl imports or Dawn", async () => {
    writeFileSync(join(consumer, 'main.js'), fencedBlock(readme(), 'example:browser'));
    const result = await build({
      absWorkingDir: consumer,
      entryPoints: ['main.js'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.text)).toEqual([]);
    const code = result.outputFiles[0]!.text;
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes('node_modules/webgpu-narrowphase/dist/'))).toBe(true);
    expect(inputs.filter((p) => /\.wgsl$|node_modules\/webgpu\//.test(p))).toEqual([]);
    expect(code).not.toMatch(/import\s*\(?\s*["'][^"']*\.wgsl["']/);
    expect(code).not.toMatch(/dawn\.node|\.node["']/);
    // The kernels travel as strings inside the bundle.
    expect(code).toContain('@compute');
  });

  it('type-checks a TypeScript consumer against the declarations', () => {
    writeFileSync(
      join(consumer, 'use.ts'),
      [
        "import { createNarrowphase, DeviceLostError, type Narrowphase, type CollideResult } from 'webgpu-narrowphase';",
        "const np: Narrowphase = await createNarrowphase({ backend: 'cpu', onDeviceLost: (e: DeviceLostError) => console.log(e.reason) });",
        "const r: CollideResult = await np.collide({ dim: 2, shapes: [{ type: 'circle', radius: 1 }], bodies: [] });",
        'const n: number = r.manifolds.length;',
        'console.log(n, np.lost instanceof Promise);',
        '// @ts-expect-error: the declarations must be real types (an any would let this through)',
        "await createNarrowphase({ backend: 'metal' });",
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022', 'DOM'], types: ['@webgpu/types'], typeRoots: [join(ROOT, 'node_modules/@types'), join(ROOT, 'node_modules')] }, files: ['use.ts'] }),
    );
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer], { cwd: consumer, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});
