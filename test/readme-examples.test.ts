// The README's Node and engine examples, run as written (the package name pointed at src/) in a
// child Node process on the real adapter; what they print must be the output the README shows.
// The three.js embedding needs a browser: its block must be demo/three-world.ts, which three.html
// runs in Chromium and Firefox (test/browser-pages.test.ts).
// (test/pack.test.ts runs the Node example on the installed tarball and bundles the browser one.)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fencedBlock, readme, ROOT } from './helpers/readme.ts';

const dir = mkdtempSync(join(tmpdir(), 'readme-examples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runExample(name: string): { stdout: string; stderr: string; status: number | null } {
  const code = fencedBlock(readme(), `example:${name}`);
  expect(code).toContain("from 'webgpu-narrowphase'");
  const file = join(dir, `${name}.mjs`);
  writeFileSync(
    file,
    code.replaceAll(
      "from 'webgpu-narrowphase'",
      `from ${JSON.stringify(pathToFileURL(join(ROOT, 'src/index.ts')).href)}`,
    ),
  );
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe('README examples', () => {
  for (const name of ['node', 'engine']) {
    it(`${name}: runs and prints what the README shows`, () => {
      const r = runExample(name);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(fencedBlock(readme(), `output:${name}`).trim());
    });
  }

  it('three: the three.js embedding is demo/three-world.ts as it is (three.html runs it in both browsers)', () => {
    // test/browser-pages.test.ts runs three.html, which imports demo/three-world.ts, in Chromium
    // and Firefox; here the README's block must be that file, its header comment apart.
    const file = readFileSync(join(ROOT, 'demo/three-world.ts'), 'utf8')
      .replace(/^(\/\/.*\n)+/, '')
      .replace("from '../src/solver/index.ts'", "from 'webgpu-narrowphase/solver'")
      .replace("from '../src/index.ts'", "from 'webgpu-narrowphase'");
    expect(fencedBlock(readme(), 'example:three').trim()).toBe(file.trim());
  });

  it('every example marker has its code block', () => {
    const text = readme();
    for (const name of ['node', 'browser', 'engine', 'three'])
      expect(fencedBlock(text, `example:${name}`).split('\n').length).toBeGreaterThan(10);
  });
});
