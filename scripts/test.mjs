// `npm test`: the project's one test command (CI runs it through .ci/run).
//
//   1. node scripts/ensure-webgpu.mjs   finds a WebGPU adapter, installing Mesa lavapipe where it
//                                       may (root on Debian 12); prints `WebGPU adapter: <name>`
//   1b. node scripts/ensure-chromium.mjs and scripts/ensure-firefox.mjs
//                                       Debian's chromium and firefox-esr for the browser tests
//                                       (installed with apt where it may: root on Debian 12); when
//                                       one is missing, the run goes on and the browser tests fail
//                                       in it, saying what to install
//   2. node scripts/embed-shaders.mjs   shaders/*.wgsl -> src/gpu/shaders.generated.ts
//   3. tsc -p .                         type-check; a failure counts as one failed check
//   3b. npm run format:check            Prettier (.prettierrc.json: 100 columns); a file it would
//                                       change counts as one failed check (`npm run format` fixes)
//   4. vitest run                       default reporter, plus JSON to a temp file for the count
//
// Ends with one plain line `N passed, N failed` (`, N skipped` added where tests were skipped)
// and exits non-zero when anything failed. Counted as one failed check each, besides failed
// tests: a failed type-check, unformatted code, a test file that failed outside its tests (it would not load, a
// hook threw), errors vitest reports outside tests, vitest ending badly without a result, no
// tests run at all, and a step before vitest (no adapter, embedding) that stopped the run.
//
// Arguments after `npm test --` go to vitest, e.g. `npm test -- test/adapter.test.ts`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitestArgs = process.argv.slice(2);

function step(title) {
  console.log(`\n=== ${title}`);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.error) console.error(`${cmd}: ${r.error.message}`);
  return r;
}

function summary(passed, failed, skipped) {
  console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
}

function stop(reason) {
  console.log(`\nFAILED: ${reason}`);
  summary(0, 1, 0);
}

// 1. Adapter.
step('WebGPU adapter (scripts/ensure-webgpu.mjs)');
if (run(process.execPath, [join(root, 'scripts/ensure-webgpu.mjs')]).status !== 0) {
  stop('no WebGPU adapter; the GPU tests cannot run (see above for the commands to run).');
}

// 1b. Browsers for the browser tests (their failure says what is missing; no stop here).
step('Chromium for the browser tests (scripts/ensure-chromium.mjs)');
run(process.execPath, [join(root, 'scripts/ensure-chromium.mjs')]);
step('Firefox for the browser tests (scripts/ensure-firefox.mjs)');
run(process.execPath, [join(root, 'scripts/ensure-firefox.mjs')]);

// 2. Shaders.
step('Embedding shaders (scripts/embed-shaders.mjs)');
if (run(process.execPath, [join(root, 'scripts/embed-shaders.mjs')]).status !== 0) {
  stop('scripts/embed-shaders.mjs failed.');
}

// 3. Type-check.
const problems = [];
step('Type-check (tsc -p .)');
const tsc = join(root, 'node_modules', '.bin', 'tsc');
const tscRun = existsSync(tsc)
  ? run(tsc, ['-p', '.'])
  : { status: null, error: new Error('no node_modules/.bin/tsc') };
if (tscRun.status === 0) {
  console.log('Type-check passed.');
} else {
  console.log('Type-check FAILED (see above).');
  problems.push('type-check (tsc -p .) failed');
}

// 3b. Formatting.
step('Formatting (npm run format:check)');
const formatRun = run(process.platform === 'win32' ? 'npm.cmd' : 'npm', [
  'run',
  '--silent',
  'format:check',
]);
if (formatRun.status === 0) {
  console.log('Formatting checked.');
} else {
  console.log('Formatting FAILED: `npm run format` rewrites the files listed above.');
  problems.push('formatting (npm run format:check) failed');
}

// 4. Tests.
step(`vitest run${vitestArgs.length ? ' ' + vitestArgs.join(' ') : ''}`);
const tmp = mkdtempSync(join(tmpdir(), 'webgpu-narrowphase-test-'));
const jsonFile = join(tmp, 'vitest.json');
const vitestBin = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const vt = run(process.execPath, [
  vitestBin,
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${jsonFile}`,
  ...vitestArgs,
]);

let result = null;
try {
  if (existsSync(jsonFile)) result = JSON.parse(readFileSync(jsonFile, 'utf8'));
} catch (err) {
  console.error(`Could not read vitest's JSON result: ${err.message}`);
}
rmSync(tmp, { recursive: true, force: true });

const problemsBeforeVitest = problems.length;
let passed = 0;
let failed = 0;
let skipped = 0;
if (!result) {
  problems.push(
    `vitest produced no result (exit code ${vt.status}${vt.signal ? `, ${vt.signal}` : ''})`,
  );
} else {
  passed = result.numPassedTests ?? 0;
  failed = result.numFailedTests ?? 0;
  skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
  // A file that failed with none of its tests failing did not load, or a hook threw.
  for (const file of result.testResults ?? []) {
    const anyFailed = (file.assertionResults ?? []).some((t) => t.status === 'failed');
    if (file.status === 'failed' && !anyFailed) {
      const where = file.name?.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
      problems.push(`${where}: ${(file.message || 'failed outside its tests').split('\n')[0]}`);
    }
  }
  if (passed + failed === 0) {
    problems.push(
      vt.status === 0
        ? 'no tests ran'
        : `vitest exited with code ${vt.status} before running any test (see its error above)`,
    );
  }
  if (vt.status !== 0 && failed === 0 && problems.length === problemsBeforeVitest) {
    problems.push(
      `vitest exited with code ${vt.status}${vt.signal ? ` (${vt.signal})` : ''} with no test failing (errors outside tests?)`,
    );
  }
}

if (problems.length) {
  console.log('\nFailed outside the tests:');
  for (const p of problems) console.log(`  - ${p}`);
}
summary(passed, failed + problems.length, skipped);
