// The published package, as a user gets it (scripts/pack-install.mjs): `npm pack` of a clean copy
// of the project (so no stale build output can slip in), installed from the tarball into an empty
// project without network and with an empty npm cache (dependencies from `file:` paths of the
// project's node_modules), then
//   - Node (ESM, no loader, no tsx): the README's Node example runs on the installed package and
//     prints what the README shows; the CLI runs as the package's bin (`npx webgpu-narrowphase`);
//   - browser: the README's browser example is bundled by esbuild for the browser from the
//     installed package; the bundle has no .wgsl import and no trace of Dawn's native module, and
//     its minified size is measured: no wgsl_reflect (layouts are reflected at build time) and no
//     WGSL but the narrowphase kernels'; the engine example (a GpuFrame2D) bundles without
//     wgsl_reflect or the solver's WGSL;
//   - source maps carry their sources;
//   - TypeScript: a consumer type-checks against the package's declarations.
// (scripts/check-browser-example.mjs runs that browser bundle in Chromium with WebGPU.)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTarball, packAndInstall } from '../scripts/pack-install.mjs';
import { fencedBlock, readme, ROOT } from './helpers/readme.ts';

const work = mkdtempSync(join(tmpdir(), 'pack-test-'));
let consumer = '';
let tarball = '';
let cache = '';
let packedFiles: string[] = [];

beforeAll(() => {
  const r = packAndInstall(ROOT, work);
  packedFiles = r.files;
  consumer = r.consumer;
  tarball = r.tarball;
  cache = r.cache;
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The README's example `tag`, bundled by esbuild for the browser from the installed package (minified), and bytes per input. */
async function bundleExample(
  tag: string,
): Promise<{ code: string; inputs: string[]; bytes: (match: RegExp) => number }> {
  writeFileSync(join(consumer, `${tag}.js`), fencedBlock(readme(), `example:${tag}`));
  const result = await build({
    absWorkingDir: consumer,
    entryPoints: [`${tag}.js`],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    metafile: true,
    minify: true,
  });
  expect(result.errors).toEqual([]);
  expect(result.warnings.map((w) => w.text)).toEqual([]);
  const bytes = (match: RegExp): number =>
    Object.entries(result.metafile.outputs).reduce(
      (n, [, o]) =>
        n +
        Object.entries(o.inputs)
          .filter(([p]) => match.test(p))
          .reduce((m, [, i]) => m + i.bytesInOutput, 0),
      0,
    );
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs), bytes };
}

describe('npm pack', () => {
  it('holds the built ESM with declarations and the shader sources, nothing of the development tree', () => {
    expect(packedFiles).toContain('dist/index.js');
    expect(packedFiles).toContain('dist/index.d.ts');
    expect(packedFiles).toContain('dist/gpu/shaders.generated.js');
    expect(packedFiles).toContain('dist/reflection.generated.js');
    expect(packedFiles).toContain('dist/cli.js');
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('README.md');
    const unexpected = packedFiles.filter(
      (f) =>
        !/^(dist\/.*\.(js|d\.ts|js\.map)|shaders\/\w[\w-]*\.wgsl|package\.json|README\.md)$/.test(
          f,
        ),
    );
    expect(unexpected).toEqual([]);
    expect(packedFiles.filter((f) => /^(src|test|bench|demo)\//.test(f))).toEqual([]);
    // The CLI's declarations are not part of the API.
    expect(packedFiles.filter((f) => /^dist\/cli.*\.d\.ts$/.test(f))).toEqual([]);
    // Every module was compiled from the current src/ (no .ts specifier left for Node to trip on).
    const index = readFileSync(
      join(consumer, 'node_modules/webgpu-narrowphase/dist/index.js'),
      'utf8',
    );
    expect(index).not.toMatch(/from '[^']+\.ts'/);
    // Dawn (130 MB of native binaries) is an optional peer: a browser project never downloads it.
    const manifest = JSON.parse(
      readFileSync(join(consumer, 'node_modules/webgpu-narrowphase/package.json'), 'utf8'),
    );
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain('webgpu');
    expect(manifest.peerDependenciesMeta?.webgpu?.optional).toBe(true);
  });

  it("runs the README's Node example in plain Node on the installed package", () => {
    const file = join(consumer, 'collide.mjs');
    writeFileSync(file, fencedBlock(readme(), 'example:node'));
    const r = spawnSync(process.execPath, [file], {
      cwd: consumer,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(fencedBlock(readme(), 'output:node').trim());
  });

  it("runs the CLI as the package's bin: npx webgpu-narrowphase collide scene.json", () => {
    const scene = {
      dim: 2,
      shapes: [
        { type: 'box', halfExtents: [0.5, 0.5] },
        { type: 'circle', radius: 0.5 },
      ],
      bodies: [
        { shape: 0, position: [0, 0] },
        { shape: 1, position: [0, 0.9] },
      ],
      pairs: [[0, 1]],
    };
    writeFileSync(join(consumer, 'scene.json'), JSON.stringify(scene));
    const env = { ...process.env, npm_config_cache: cache };
    const r = spawnSync(
      'npx',
      ['--offline', 'webgpu-narrowphase', 'collide', '--stats', 'scene.json'],
      { cwd: consumer, encoding: 'utf8', timeout: 120_000, env },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      manifolds: { pair: number[]; points: { depth: number }[] }[];
    };
    expect(out.manifolds[0]!.pair).toEqual([0, 1]);
    expect(out.manifolds[0]!.points[0]!.depth).toBeCloseTo(0.1, 5);
    expect(r.stderr).toMatch(/^\{"backend":"gpu",/m);
    const missing = spawnSync(
      'npx',
      ['--offline', 'webgpu-narrowphase', 'collide', 'missing.json'],
      { cwd: consumer, encoding: 'utf8', timeout: 120_000, env },
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n').pop()).toBe('error: missing.json: no such file');
  });

  it('source maps carry the TypeScript they map to', () => {
    const dist = join(consumer, 'node_modules/webgpu-narrowphase/dist');
    const maps = packedFiles.filter((f) => f.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(50);
    for (const f of maps) {
      const map = JSON.parse(
        readFileSync(join(consumer, 'node_modules/webgpu-narrowphase', f), 'utf8'),
      ) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sourcesContent?.length, f).toBe(map.sources.length);
      map.sources.forEach((source, i) => {
        // The map's own folder in the package mirrors dist/ in the project, two levels below src/.
        const original = resolve(ROOT, dirname(f), source);
        if (!original.endsWith('.generated.ts'))
          expect(map.sourcesContent![i], `${f}: ${source}`).toBe(readFileSync(original, 'utf8'));
      });
    }
    expect(existsSync(join(dist, 'index.js.map'))).toBe(true);
  });

  it('without Dawn installed, Node says how to get it', () => {
    // A project that installed the package alone (as a browser project does).
    const bare = installTarball(ROOT, join(work, 'bare'), tarball, cache, { dawn: false });
    expect(existsSync(join(bare, 'node_modules/webgpu'))).toBe(false);
    writeFileSync(
      join(bare, 'try.mjs'),
      [
        "import { createNarrowphase, NoAdapterError } from 'webgpu-narrowphase';",
        'try { await createNarrowphase(); console.log("no error"); }',
        'catch (e) { console.log(e instanceof NoAdapterError, e.message); }',
      ].join('\n'),
    );
    const r = spawnSync(process.execPath, ['try.mjs'], {
      cwd: bare,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^true WebGPU in Node needs Dawn: npm install webgpu/);
  });

  it("bundles the README's browser example for the browser, without .wgsl imports or Dawn", async () => {
    const { code, bytes, inputs } = await bundleExample('browser');
    expect(inputs.some((p) => p.includes('node_modules/webgpu-narrowphase/dist/'))).toBe(true);
    expect(inputs.filter((p) => /\.wgsl$|node_modules\/webgpu\//.test(p))).toEqual([]);
    expect(code).not.toMatch(/import\s*\(?\s*["'][^"']*\.wgsl["']/);
    expect(code).not.toMatch(/dawn\.node|\.node["']/);
    // The kernels travel as strings inside the bundle: the narrowphase's, no other, without their
    // comments (the WGSL files' headers say "GPU mirror of").
    expect(code).not.toContain('GPU mirror of');
    expect(code).toContain('fn narrowphase2D(');
    expect(code).toContain('fn narrowphase3D(');
    expect(code).not.toMatch(/fn solver\w*\(|fn bp\w*\(|BroadphaseCounts|ContactManifold2D/);
    const shaders = bytes(/shaders\.generated\.js$/);
    console.log(
      `README browser example, minified: ${code.length} bytes (gzipped ${gzipSync(code).length}; shaders ${shaders}, wgsl_reflect ${bytes(/wgsl_reflect/)})`,
    );
    expect(bytes(/wgsl_reflect/)).toBe(0); // imported by modules the bundle does not use, tree-shaken
    // The 2D and 3D narrowphase kernels, the pair classifier (its one-class kernels too), the scan;
    // the closest passes compiled on demand, the hull–hull contact pass, the box–box contacts
    // collide()'s closest pass makes.
    expect(shaders).toBeLessThan(87_500);
    expect(code.length).toBeLessThan(238_000);
  });

  it("bundles the README's engine example (a GpuFrame2D) without wgsl_reflect or the solver's WGSL", async () => {
    const { code, bytes } = await bundleExample('engine');
    expect(code).toContain('fn narrowphaseClass2D(');
    expect(code).toMatch(/fn bp\w*\(/);
    expect(code).not.toMatch(/fn solver\w*\(|fn color\w*\(/);
    const shaders = bytes(/shaders\.generated\.js$/);
    console.log(
      `README engine example, minified: ${code.length} bytes (gzipped ${gzipSync(code).length}; shaders ${shaders}, wgsl_reflect ${bytes(/wgsl_reflect/)})`,
    );
    expect(bytes(/wgsl_reflect/)).toBe(0);
    // The frame's stages with the narrowphase of both dimensions (the frame modules hold both).
    expect(shaders).toBeLessThan(155_500);
    expect(code.length).toBeLessThan(266_500);
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
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          lib: ['ES2022', 'DOM'],
          types: ['@webgpu/types'],
          typeRoots: [join(ROOT, 'node_modules/@types'), join(ROOT, 'node_modules')],
        },
        files: ['use.ts'],
      }),
    );
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', consumer],
      { cwd: consumer, encoding: 'utf8' },
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });
});
