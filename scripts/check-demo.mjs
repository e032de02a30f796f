// Checks the browser pages (demo/) end to end: embeds the shaders, then runs the browser tests
// (test/browser.test.ts: every demo scene in Debian's Chromium with WebGPU on SwiftShader and in
// Debian's Firefox ESR on lavapipe, the built bundle, the page without WebGPU;
// test/browser-pages.test.ts: validation.html, bench.html?quick=1, three.html in both).
// Screenshots land in test-results/browser/.
//
//   node scripts/check-demo.mjs [more vitest arguments, e.g. -t pyramid, -t firefox]
//
// $CHROMIUM and $FIREFOX override /usr/bin/chromium and /usr/bin/firefox-esr. `npm test` runs
// the same tests among all the others.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) =>
  spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

let status = run([join(root, 'scripts', 'embed-shaders.mjs')]);
if (status === 0)
  status = run([
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    'test/browser.test.ts',
    'test/browser-pages.test.ts',
    ...process.argv.slice(2),
  ]);
process.exit(status);
