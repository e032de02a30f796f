// Checks the browser demo (demo/) end to end: embeds the shaders, then runs the browser tests
// (test/browser.test.ts: every scene in Debian's Chromium with WebGPU on SwiftShader, the built
// bundle, the page without WebGPU). Screenshots land in test-results/browser/.
//
//   node scripts/check-demo.mjs [more vitest arguments, e.g. -t pyramid]
//
// $CHROMIUM overrides /usr/bin/chromium. `npm test` runs the same tests among all the others.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

let status = run([join(root, 'scripts', 'embed-shaders.mjs')]);
if (status === 0) status = run([join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/browser.test.ts', ...process.argv.slice(2)]);
process.exit(status);
