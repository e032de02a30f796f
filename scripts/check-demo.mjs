// Checks the browser demo (demo/) end to end in a real Chromium with WebGPU (SwiftShader):
//
//   node scripts/check-demo.mjs [--chromium /usr/bin/chromium] [--screenshot /tmp/demo.png]
//                               [--url http://127.0.0.1:5173/] [--no-build] [--keep-open]
//
//   1. regenerates the embedded shaders and runs `vite build` (dist/demo/), unless --no-build
//   2. starts the Vite dev server through Vite's JS API (or uses --url)
//   3. GPU page: backend 'gpu', frames advance, contacts > 0, "validate" gives 0 mismatching
//      manifolds (three times, on different frames), the CPU checkbox switches backends and back,
//      the canvas is not blank; screenshot to --screenshot
//   4. the built bundle (dist/demo/, served by `vite preview`): backend 'gpu', frames, contacts
//   5. a browser without WebGPU (navigator.gpu hidden): the page says so, runs the CPU backend
//   Every page: no console errors, no uncaught exceptions, no failed requests.
//
// Chromium is not a project dependency: on Debian, `apt-get install -y chromium`. Exits 0 when
// every check passed, 1 otherwise (each failed check is printed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build, createServer, preview } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const flag = (name) => process.argv.includes(name);

const executablePath = option('--chromium', '/usr/bin/chromium');
const screenshot = option('--screenshot', '/tmp/demo.png');
const givenUrl = option('--url', null);
const doBuild = !flag('--no-build');

const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--disable-gpu-sandbox',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let failures = 0;
function check(ok, what, detail = '') {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` — ${detail}` : ''}`);
  if (!ok) failures++;
  return ok;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` in the page until it returns a truthy value (returned) or `ms` pass (null). */
async function waitFor(page, fn, arg, ms) {
  try {
    const handle = await page.waitForFunction(fn, arg, { timeout: ms, polling: 100 });
    return await handle.jsonValue();
  } catch {
    return null;
  }
}

const demoState = (page) => page.evaluate(() => ({ ...window.__demo }));

/** Fraction of canvas pixels that differ from the background (a blank canvas gives ~0). */
const canvasInk = (page) =>
  page.evaluate(() => {
    const c = document.getElementById('view');
    const g = c.getContext('2d');
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4 * 7) {
      if (d[i + 3] > 0) {
        ink++;
        colours.add((d[i] >> 4) * 256 + (d[i + 1] >> 4) * 16 + (d[i + 2] >> 4));
      }
    }
    return { fraction: ink / (d.length / (4 * 7)), colours: colours.size, width: c.width, height: c.height };
  });

/** Opens `url` in a fresh context, recording console errors, page errors and failed requests. */
async function openPage(browser, url, { hideWebGpu = false } = {}) {
  const page = await browser.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  if (hideWebGpu) {
    await page.addInitScript(() => {
      // As in a browser without WebGPU: no navigator.gpu at all.
      delete Navigator.prototype.gpu;
    });
  }
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}

async function checkGpuPage(browser, url, label, full) {
  console.log(`\n=== ${label}: ${url}`);
  const { page, problems } = await openPage(browser, url);
  const first = await waitFor(page, () => window.__demo && (window.__demo.frames > 0 || window.__demo.error !== null), undefined, 90_000);
  let s = await demoState(page);
  if (!check(first !== null && s.frames > 0, `${label}: first frame drawn`, JSON.stringify(s))) {
    await page.screenshot({ path: screenshot.replace(/\.png$/, `-${label}-failed.png`) });
    return { page, problems };
  }
  check(s.webgpu === true && s.backend === 'gpu', `${label}: GPU backend in use`, `backend ${s.backend}, adapter ${s.adapter}`);
  const f0 = s.frames;
  await sleep(3000);
  s = await demoState(page);
  check(s.frames >= f0 + 3, `${label}: frames advance`, `${f0} -> ${s.frames} in 3 s`);
  check(s.contacts > 0, `${label}: contacts > 0`, `${s.contacts} contacts in ${s.manifolds} manifolds of ${s.pairs} pairs`);
  const stats = await page.textContent('#stats');
  check(/backend gpu/.test(stats ?? '') && /adapter \S/.test(stats ?? ''), `${label}: stats line`, stats ?? '');

  if (full) {
    for (let k = 1; k <= 3; k++) {
      await page.click('#validate');
      const done = await waitFor(page, (n) => window.__demo.validations >= n, k, 60_000);
      s = await demoState(page);
      const text = await page.textContent('#validation');
      const title = await page.getAttribute('#validation', 'title');
      check(done !== null && s.mismatches === 0 && s.validatedManifolds > 0, `${label}: validate #${k} (frame ${s.frames})`, `${text}${s.mismatches ? `\n${title}` : ''}`);
      await sleep(700);
    }

    await page.check('#use-cpu');
    let sw = await waitFor(page, () => window.__demo.backend === 'cpu', undefined, 10_000);
    const fc = (await demoState(page)).frames;
    await sleep(1000);
    s = await demoState(page);
    check(sw !== null && s.frames > fc && s.contacts > 0, `${label}: CPU checkbox switches to the CPU reference`, `backend ${s.backend}, frames ${fc} -> ${s.frames}`);
    await page.uncheck('#use-cpu');
    sw = await waitFor(page, () => window.__demo.backend === 'gpu', undefined, 10_000);
    check(sw !== null, `${label}: unchecking switches back to the GPU`);
    await sleep(1000);

    const ink = await canvasInk(page);
    check(ink.fraction > 0.05 && ink.colours >= 6, `${label}: canvas is not blank`, `${(100 * ink.fraction).toFixed(1)}% of pixels drawn, ${ink.colours} colours, ${ink.width}x${ink.height}`);
    await page.screenshot({ path: screenshot });
    console.log(`     screenshot: ${screenshot}`);
  }
  s = await demoState(page);
  check(s.error === null, `${label}: window.__demo.error is null`, String(s.error));
  check(problems.length === 0, `${label}: no console errors`, problems.join('\n'));
  await page.close();
  return { page, problems };
}

async function checkNoWebGpu(browser, url) {
  console.log(`\n=== no WebGPU (navigator.gpu hidden): ${url}`);
  const { page, problems } = await openPage(browser, url, { hideWebGpu: true });
  const first = await waitFor(page, () => window.__demo && (window.__demo.frames > 1 || window.__demo.error !== null), undefined, 30_000);
  const s = await demoState(page);
  check(first !== null && s.frames > 1 && s.backend === 'cpu' && s.webgpu === false, 'no WebGPU: runs the CPU backend', `backend ${s.backend}, frames ${s.frames}, contacts ${s.contacts}`);
  const notice = (await page.isVisible('#notice')) ? await page.textContent('#notice') : null;
  check(notice !== null && /WebGPU/.test(notice), 'no WebGPU: the page says so', notice ?? '(no notice shown)');
  const stats = await page.textContent('#stats');
  check(/backend cpu \(no WebGPU\)/.test(stats ?? ''), 'no WebGPU: stats labelled cpu', stats ?? '');
  check(await page.isDisabled('#validate'), 'no WebGPU: validate is disabled');
  check(s.error === null, 'no WebGPU: window.__demo.error is null', String(s.error));
  check(problems.length === 0, 'no WebGPU: no console errors', problems.join('\n'));
  await page.screenshot({ path: screenshot.replace(/\.png$/, '-nowebgpu.png') });
  await page.close();
}

async function main() {
  const embed = spawnSync(process.execPath, [join(root, 'scripts', 'embed-shaders.mjs')], { stdio: 'inherit' });
  if (!check(embed.status === 0, 'shaders embedded (scripts/embed-shaders.mjs)')) return;

  if (doBuild) {
    try {
      await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
      check(true, 'vite build -> dist/demo/');
    } catch (e) {
      check(false, 'vite build -> dist/demo/', String(e?.message ?? e));
    }
  }

  let server = null;
  let url = givenUrl;
  if (!url) {
    // No HMR: a file saved elsewhere during the run must not reload the page under the checks.
    server = await createServer({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', server: { hmr: false, watch: null } });
    await server.listen();
    url = server.resolvedUrls?.local?.[0];
    if (!check(Boolean(url), 'vite dev server started', url ?? '')) return;
    console.log(`     dev server: ${url}`);
  }

  let previewServer = null;
  const userDataDir = mkdtempSync(join(tmpdir(), 'check-demo-chromium-'));
  let context = null;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: false, // --headless=new is in the arguments
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 800 },
    });
    await checkGpuPage(context, url, 'dev', true);
    if (doBuild && !givenUrl) {
      previewServer = await preview({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
      const purl = previewServer.resolvedUrls?.local?.[0];
      if (check(Boolean(purl), 'vite preview (dist/demo/) started', purl ?? '')) await checkGpuPage(context, purl, 'built', false);
    }
    await checkNoWebGpu(context, url);
  } finally {
    if (flag('--keep-open') && server) {
      console.log(`--keep-open: the dev server stays at ${url}; Ctrl-C to stop`);
      await new Promise(() => {});
    }
    await context?.close().catch(() => {});
    await previewServer?.close().catch(() => {});
    await server?.close().catch(() => {});
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (e) {
  check(false, 'check-demo ran to the end', e?.stack ?? String(e));
}
console.log(`\n${failures === 0 ? 'demo OK' : `${failures} check(s) failed`}`);
process.exit(failures === 0 ? 0 : 1);
