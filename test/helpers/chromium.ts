// Chromium for the browser tests (test/browser.test.ts): Debian's /usr/bin/chromium driven by
// playwright-core (never a downloaded browser), with WebGPU on SwiftShader (Vulkan on the CPU),
// and the demo served by Vite's dev server. A missing Chromium fails the tests loudly, naming
// the command that installs it; nothing is skipped. Flags: see DEVELOPERS.md.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { missingBrowser } from './missing-browser.ts';

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
  if (!existsSync(CHROMIUM_PATH))
    throw missingBrowser('Chromium', CHROMIUM_PATH, 'chromium', 'CHROMIUM');
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Vite's dev server on the demo, without HMR or file watching (nothing reloads a page mid-test). */
export async function startDemoServer(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    server: { hmr: false, watch: null },
  });
  await server.listen();
  const url = server.resolvedUrls?.local?.[0];
  if (!url) throw new Error('the Vite dev server gave no local URL');
  return { server, url };
}
