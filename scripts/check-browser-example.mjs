// Runs the README's browser example in a real Chromium with WebGPU (SwiftShader), from the package
// as a user installs it:
//
//   node scripts/check-browser-example.mjs [--chromium /usr/bin/chromium]
//
//   1. npm pack + offline install into an empty project (scripts/pack-install.mjs)
//   2. the README's `example:browser` block bundled by esbuild for the browser from that install
//   3. a page with <pre id="out"> runs the bundle: WebGPU (navigator.gpu, SwiftShader), then again
//      with navigator.gpu hidden, where the example falls back to the CPU reference; both must
//      print the same touching-pair and point counts, and no page error or console error
//
// Chromium is not a project dependency (as for scripts/check-demo.mjs): on Debian,
// `apt-get install -y chromium`. Exits 0 when every check passed, 1 otherwise.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { packAndInstall } from './pack-install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--chromium');
const executablePath = i >= 0 ? process.argv[i + 1] : '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--disable-gpu-sandbox',
];

let failures = 0;
function check(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures++;
  return ok;
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const at = readme.indexOf('<!-- example:browser -->');
const example = at >= 0 ? /```js\n([\s\S]*?)\n```/.exec(readme.slice(at))?.[1] : undefined;
if (!example) {
  console.log('FAIL README.md has no <!-- example:browser --> block');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'check-browser-example-'));
let browser;
try {
  const { consumer } = packAndInstall(root, work);
  writeFileSync(join(consumer, 'main.js'), example);
  const bundle = await build({
    absWorkingDir: consumer,
    entryPoints: ['main.js'],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  check(
    bundle.warnings.length === 0,
    'esbuild bundles the example without warnings',
    bundle.warnings.map((w) => w.text).join('; '),
  );
  const js = bundle.outputFiles[0].text;

  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  /** Runs the bundle in a fresh page (localhost: a secure context, as WebGPU needs); returns #out's text. */
  async function run(hideWebGpu) {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    if (hideWebGpu)
      await page.addInitScript(() =>
        Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }),
      );
    await page.route('http://localhost/**', (route) =>
      route.request().url().endsWith('/main.js')
        ? route.fulfill({ contentType: 'text/javascript', body: js })
        : route.fulfill({
            contentType: 'text/html',
            body: '<!doctype html><meta charset="utf-8"><pre id="out"></pre><script type="module" src="/main.js"></script>',
          }),
    );
    await page.goto('http://localhost/');
    await page
      .waitForFunction(
        () => /touching pairs/.test(document.querySelector('#out')?.textContent ?? ''),
        null,
        { timeout: 60_000 },
      )
      .catch(() => {});
    const text = (await page.textContent('#out')) ?? '';
    await page.close();
    return { text: text.trim(), errors };
  }

  const gpu = await run(false);
  const counts = (t) => /(\d+) touching pairs, (\d+) points/.exec(t)?.slice(1, 3).join('/');
  check(
    /on .*swiftshader/i.test(gpu.text) && counts(gpu.text) !== undefined,
    'WebGPU page: the example ran on the GPU',
    gpu.text,
  );
  check(gpu.errors.length === 0, 'WebGPU page: no errors', gpu.errors.join('; '));
  const cpu = await run(true);
  check(
    /CPU reference instead/.test(cpu.text) && /on cpu in/.test(cpu.text),
    'page without WebGPU: the example says so and runs the CPU reference',
    cpu.text,
  );
  check(cpu.errors.length === 0, 'page without WebGPU: no errors', cpu.errors.join('; '));
  check(
    counts(gpu.text) !== undefined && counts(gpu.text) === counts(cpu.text),
    'GPU and CPU find the same touching pairs and points',
    `${counts(gpu.text)} vs ${counts(cpu.text)}`,
  );
} catch (e) {
  check(false, 'the check ran', e instanceof Error ? e.message : String(e));
} finally {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(
  failures === 0
    ? 'browser example: every check passed'
    : `browser example: ${failures} check(s) failed`,
);
process.exit(failures === 0 ? 0 : 1);
