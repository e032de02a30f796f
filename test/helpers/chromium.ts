// Chromium for the browser tests (test/browser.test.ts): Debian's /usr/bin/chromium driven by
// playwright-core (never a downloaded browser), with WebGPU on SwiftShader (Vulkan on the CPU),
// and the demo served by Vite's dev server. A missing Chromium fails the tests loudly, naming
// the command that installs it; nothing is skipped. Flags: see DEVELOPERS.md.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The browser: $CHROMIUM, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * WebGPU on SwiftShader in headless Chromium. --use-angle=swiftshader is needed besides the
 * WebGPU flags: without it Chromium 156 cannot create the WebGPU canvas's swap-chain images
 * (mapAsync then fails with "A valid external Instance reference no longer exists").
 */
export const CHROMIUM_ARGS = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
  '--no-sandbox',
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}: the browser tests need it. On Debian 12 run ` +
        '`node scripts/ensure-chromium.mjs` as root (it runs `apt-get install -y chromium`; `npm test` does this ' +
        'itself as root), or point $CHROMIUM at a Chromium binary.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Vite's dev server on the demo, without HMR or file watching (nothing reloads a page mid-test). */
export async function startDemoServer(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', server: { hmr: false, watch: null } });
  await server.listen();
  const url = server.resolvedUrls?.local?.[0];
  if (!url) throw new Error('the Vite dev server gave no local URL');
  return { server, url };
}

/** A page that records console errors, uncaught exceptions, failed requests and HTTP errors. */
export async function openPage(browser: Browser, url: string, options: { hideWebGpu?: boolean } = {}): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  if (options.hideWebGpu) {
    await page.addInitScript(() => {
      // As in a browser without WebGPU: no navigator.gpu at all.
      delete (Navigator.prototype as { gpu?: unknown }).gpu;
    });
  }
  await page.goto(url, { waitUntil: 'load' });
  return { page, problems };
}

/**
 * How much of a PNG is drawn: the fraction of pixels that differ from `background` (r, g, b) by
 * more than a little, and the number of distinct colours (4 bits per channel). Decoded in the page.
 */
export async function inkOf(page: Page, png: Buffer, background: [number, number, number]): Promise<{ fraction: number; colours: number }> {
  return page.evaluate(
    async ({ b64, bg }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      let ink = 0;
      let total = 0;
      const colours = new Set<number>();
      for (let i = 0; i < d.length; i += 4 * 5) {
        total++;
        if (Math.abs(d[i]! - bg[0]) + Math.abs(d[i + 1]! - bg[1]) + Math.abs(d[i + 2]! - bg[2]) > 24) ink++;
        colours.add((d[i]! >> 4) * 256 + (d[i + 1]! >> 4) * 16 + (d[i + 2]! >> 4));
      }
      return { fraction: ink / total, colours: colours.size };
    },
    { b64: png.toString('base64'), bg: background },
  );
}
