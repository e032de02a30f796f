// The command line as a user meets it: every failure exits 2 with one line on stderr naming what
// and why (missing file, directory, not JSON, a bad scene, bad options, no adapter), output
// streamed and equal to the library's, --stats one JSON line, and nothing Dawn prints reaching
// stdout (a helper makes Dawn print a real validation message inside the run).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureLine } from '../src/cli/failure.ts';
import { CapacityError, DeviceLostError, InputError } from '../src/errors.ts';
import { NoAdapterError } from '../src/gpu/device.ts';
import { createNarrowphase } from '../src/narrowphase.ts';
import { randomPairScene } from '../src/random2d.ts';
import { ROOT } from './helpers/readme.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const SCENE = {
  dim: 2,
  shapes: [
    { type: 'box', halfExtents: [0.5, 0.5] },
    { type: 'circle', radius: 0.5 },
  ],
  bodies: [
    { shape: 0, position: [0, 0] },
    { shape: 1, position: [0, 0.9] },
    { shape: 1, position: [5, 5] },
  ],
  pairs: [
    [0, 1],
    [0, 2],
  ],
};
const sceneFile = file('scene.json', JSON.stringify(SCENE));

function cli(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string; ours: string[] } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 30,
    timeout: 240_000,
  });
  // Our lines on stderr (Dawn's own warnings, "Warning: ...", come from the adapter, not from us).
  const ours = r.stderr.split('\n').filter((l) => l.startsWith('error') || l.startsWith('{'));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ours };
}

/** Exit status 2, nothing on stdout, and exactly one line of ours on stderr, matching `line`. */
function expectFailure(args: string[], line: RegExp, env?: Record<string, string>): void {
  const r = cli(args, env);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.ours).toHaveLength(1);
  expect(r.ours[0]).toMatch(line);
  expect(r.stderr).not.toMatch(/^\s+at .*\.[mc]?[jt]s:\d+:\d+\)?$/m); // no JavaScript stack trace (Dawn's own warnings may name its C++)
}

describe('collide', () => {
  it('prints what the library gives, on both backends, and --stats is one JSON line on stderr', async () => {
    const cpu = await createNarrowphase({ backend: 'cpu' });
    const expected = `${JSON.stringify({ manifolds: (await cpu.collide(SCENE)).manifolds })}\n`;
    for (const backend of ['cpu', 'gpu']) {
      const r = cli(['collide', '--backend', backend, '--stats', sceneFile]);
      expect(r.status, r.stderr).toBe(0);
      if (backend === 'cpu') expect(r.stdout).toBe(expected);
      expect(JSON.parse(r.stdout).manifolds).toHaveLength(2);
      expect(r.ours).toHaveLength(1);
      const stats = JSON.parse(r.ours[0]!);
      expect(Object.keys(stats)).toEqual([
        'backend',
        'adapter',
        'pairs',
        'computeMs',
        'wallMs',
        'rebasedPairs',
        'compileMs',
      ]);
      expect(stats.backend).toBe(backend);
    }
  });

  it('reads a file that starts with a UTF-8 byte-order mark, and stdin', () => {
    const r = cli([
      'collide',
      '--backend',
      'cpu',
      file('bom.json', `\ufeff${JSON.stringify(SCENE)}`),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).manifolds[0].pair).toEqual([0, 1]);
    const piped = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli.ts'), 'collide', '--backend', 'cpu', '-'],
      { cwd: ROOT, encoding: 'utf8', input: JSON.stringify(SCENE) },
    );
    expect(piped.stdout).toBe(r.stdout);
  });

  it('streams a large run: 300k pairs on the CPU backend, the JSON complete', () => {
    const big = file('big.json', JSON.stringify(randomPairScene(5, 300_000, 'box')));
    const r = cli(['collide', '--backend', 'cpu', big]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { manifolds: unknown[] };
    expect(out.manifolds).toHaveLength(300_000);
  });

  it("keeps Dawn's validation messages off stdout", () => {
    const r = cli(['collide', sceneFile], {
      NODE_OPTIONS: `--import=${join(ROOT, 'test/helpers/dawn-noise.mjs')}`,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/dawn-noise/); // Dawn did print it: on stderr
    expect(JSON.parse(r.stdout).manifolds).toHaveLength(2);
  });
});

describe('every failure: exit 2, one line naming what and why', () => {
  it('files that are not scenes', () => {
    expectFailure(['collide', join(dir, 'missing.json')], /^error: .*missing\.json: no such file$/);
    expectFailure(['collide', dir], /^error: .*cli-test-\w+: is a directory, not a scene file$/);
    expectFailure(
      ['collide', file('bad.json', '{"dim": 2,')],
      /^error: .*bad\.json: is not valid JSON: /,
    );
    expectFailure(
      ['collide', file('array.json', '[]')],
      /^error: scene: must be a JSON object \{ dim, shapes, bodies, pairs\? \}, got an array$/,
    );
    expectFailure(
      [
        'collide',
        file(
          'shape.json',
          JSON.stringify({
            ...SCENE,
            shapes: [
              {
                type: 'polygon',
                vertices: [
                  [0, 0],
                  [0, 1],
                  [1, 0],
                ],
              },
            ],
          }),
        ),
      ],
      /^error: shapes\[0\] \(polygon\): vertices are clockwise/,
    );
    expectFailure(
      ['collide', file('pair.json', JSON.stringify({ ...SCENE, pairs: [[0.5, 1]] }))],
      /^error: pairs\[0\]: \[0\.5,1\] must hold two body indices \(integers\)$/,
    );
  });

  it('options', () => {
    expectFailure(
      ['validate', '--pairs', 'abc'],
      /^error: option '--pairs <n>' argument 'abc' is invalid\. must be an integer >= 1$/,
    );
    expectFailure(
      ['validate', '--pairs', '-5'],
      /argument '-5' is invalid\. must be an integer >= 1$/,
    );
    expectFailure(['validate', '--pairs', '1.5'], /argument '1\.5' is invalid/);
    expectFailure(['validate', '--seed', 'x'], /argument 'x' is invalid/);
    expectFailure(
      ['validate', '--mix', 'box,cube'],
      /unknown scene kind "cube"; choose from box, ngon, mixed, box3d, hull3d, mixed3d$/,
    );
    expectFailure(
      ['collide', '--backend', 'GPU', sceneFile],
      /^error: option '--backend <backend>' argument 'GPU' is invalid\. Allowed choices are cpu, gpu\.$/,
    );
    expectFailure(['collide', '--fast', sceneFile], /^error: unknown option '--fast'/);
    expectFailure(['collid', sceneFile], /^error: unknown command/);
  });

  it('no WebGPU adapter', () => {
    expectFailure(['collide', sceneFile], /^error: No WebGPU adapter was found\./, {
      VK_ICD_FILENAMES: join(dir, 'no-such-driver.json'),
    });
  });

  it('the line for each kind of error', () => {
    expect(failureLine(new InputError('shapes[1]', 'radius must be > 0'))).toBe(
      'error: shapes[1]: radius must be > 0',
    );
    expect(
      failureLine(
        new CapacityError(
          'bodies: 134217752 bytes (128 MiB) of bodies; this device binds\nat most 134217728 bytes',
        ),
      ),
    ).toBe(
      'error: bodies: 134217752 bytes (128 MiB) of bodies; this device binds at most 134217728 bytes',
    );
    expect(failureLine(new DeviceLostError('unknown', 'driver reset'))).toBe(
      'error: the GPU device was lost (reason: unknown: driver reset); rebuild on a new device',
    );
    expect(failureLine(new NoAdapterError('WebGPU in Node needs Dawn: npm install webgpu'))).toBe(
      'error: WebGPU in Node needs Dawn: npm install webgpu',
    );
    expect(failureLine(new TypeError('x is not a function'))).toBe(
      'error: internal error (TypeError): x is not a function',
    );
  });
});
