// Firefox for the browser tests: Debian's /usr/bin/firefox-esr (or $FIREFOX) driven by
// `puppeteer-core` over WebDriver BiDi (never a downloaded browser), headless, with WebGPU turned
// on by prefs: Firefox's WebGPU (wgpu, WGSL through naga) is behind `dom.webgpu.enabled` on Linux,
// and its blocklist refuses software adapters such as lavapipe without `gfx.webgpu.ignore-blocklist`.
// Pages must come from http://127.0.0.1 or localhost: navigator.gpu needs a secure context.

import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { missingBrowser } from './missing-browser.ts';

/** The browser: $FIREFOX, else Debian's package. */
export const FIREFOX_PATH = process.env.FIREFOX ?? '/usr/bin/firefox-esr';

export const FIREFOX_PREFS = {
  'dom.webgpu.enabled': true,
  'gfx.webgpu.ignore-blocklist': true,
} as const;

/**
 * Mesa's shader cache for Firefox's lavapipe: Firefox starts with a fresh profile each time and
 * does not write Mesa's default cache, so every run would JIT the 3D kernels again (minutes; see
 * DEVELOPERS.md). A fixed directory keeps them across runs, as Dawn's cache does in Node.
 */
export const FIREFOX_MESA_CACHE = join(homedir(), '.cache', 'webgpu-narrowphase-firefox-mesa');

export async function launchFirefox(): Promise<Browser> {
  if (!existsSync(FIREFOX_PATH))
    throw missingBrowser('Firefox', FIREFOX_PATH, 'firefox-esr', 'FIREFOX');
  mkdirSync(FIREFOX_MESA_CACHE, { recursive: true });
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    extraPrefsFirefox: { ...FIREFOX_PREFS },
    env: {
      ...process.env,
      MESA_SHADER_CACHE_DIR: process.env.MESA_SHADER_CACHE_DIR ?? FIREFOX_MESA_CACHE,
    },
    protocolTimeout: 900_000,
    // Puppeteer's default wait for the browser's endpoint (30 s) is shorter than Firefox may need
    // to start on a machine busy with the GPU tests; Chromium's launch (Playwright) waits 180 s.
    timeout: 180_000,
  });
}
