// The demo end to end in a real browser: Debian's Chromium with WebGPU on SwiftShader
// (test/helpers/chromium.ts; flags in DEVELOPERS.md), the page served by Vite's dev server. Every
// scene loads (at a smaller body count than its default: SwiftShader runs shaders on the CPU),
// runs at least 120 frames, reports contacts, gets 0 mismatches from the validate button (the CPU
// reference on the frame's pairs), logs no console error, and its screenshot
// (test-results/browser/<scene>.png) is not blank. Without WebGPU the page says so and runs the
// CPU reference. The bundle `vite build` makes runs too. A missing Chromium fails these tests;
// they never skip.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build, preview, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DemoState } from '../demo/state.ts';
import { inkOf, launchChromium, openPage, root, startDemoServer } from './helpers/chromium.ts';

const SHOTS = join(root, 'test-results', 'browser');
/** The page's background (demo/scenes/scene.ts CLEAR_COLOUR, demo/style.css). */
const BACKGROUND: [number, number, number] = [15, 17, 21];
const FRAMES = 120;

/**
 * Scenes at sizes SwiftShader runs in seconds (the URL parameters any user can give), each driven
 * by the GPU solver as by default.
 */
const SCENES = [
  { name: '2d', query: 'scene=2d&bodies=400' },
  { name: 'particles', query: 'scene=particles&bodies=1500' },
  { name: '3d', query: 'scene=3d&bodies=200' },
  { name: 'pyramid', query: 'scene=pyramid&bodies=36' },
] as const;

let browser: Browser;
let server: ViteDevServer;
let baseUrl: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ server, url: baseUrl } = await startDemoServer());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('demo scenes in Chromium with WebGPU (SwiftShader)', () => {
  for (const scene of SCENES) {
    test(`${scene.name}: ${FRAMES} frames, contacts, 0 mismatches, no console error, not blank`, async () => {
      const { page, problems } = await openPage(browser, `${baseUrl}?${scene.query}&contacts=1`);
      const state = (): Promise<DemoState> => page.evaluate(() => ({ ...window.__demo }));
      await page.waitForFunction((n) => window.__demo.frames >= n || window.__demo.error !== null, FRAMES, { timeout: 240_000, polling: 250 });
      let s = await state();
      expect(s.error, s.errors.join('\n')).toBeNull();
      expect(s.webgpu).toBe(true);
      expect(s.scene).toBe(scene.name);
      expect(s.motion).toBe(scene.query.includes('motion=kinematic') ? 'kinematic' : 'solver');
      expect(s.frames).toBeGreaterThanOrEqual(FRAMES);
      expect(s.contacts).toBeGreaterThan(0);
      expect(s.pairs).toBeGreaterThanOrEqual(s.contacts);

      await page.click('#validate');
      await page.waitForFunction(() => window.__demo.validations > 0 || window.__demo.error !== null, undefined, { timeout: 120_000, polling: 250 });
      s = await state();
      const shown = await page.textContent('#validation');
      expect(s.error, s.errors.join('\n')).toBeNull();
      expect(s.mismatches, `${shown}\n${await page.getAttribute('#validation', 'title')}`).toBe(0);
      expect(s.validatedManifolds).toBeGreaterThan(0);
      expect(shown).toMatch(/^0 mismatching of \d+ manifolds/);
      expect(await page.textContent('#stats')).toMatch(/bodies \d+ · pairs \d+ · contacts \d+/);

      const path = join(SHOTS, `${scene.name}.png`);
      const png = await page.locator('#view').screenshot({ path });
      const ink = await inkOf(page, png, BACKGROUND);
      expect(ink.fraction, `${path}: ${(100 * ink.fraction).toFixed(1)}% drawn`).toBeGreaterThan(0.02);
      expect(ink.colours, `${path}: ${ink.colours} colours`).toBeGreaterThanOrEqual(8);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  test('pause stops the frames, step advances exactly one, validate checks the paused frame', async () => {
    const { page, problems } = await openPage(browser, `${baseUrl}?scene=pyramid&bodies=15&motion=kinematic`);
    await page.waitForFunction(() => window.__demo.frames >= 3, undefined, { timeout: 60_000 });
    await page.check('#pause');
    await page.waitForTimeout(500);
    const f0 = await page.evaluate(() => window.__demo.frames);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.__demo.frames)).toBe(f0);
    await page.click('#step');
    await page.waitForFunction((n) => window.__demo.frames === n + 1, f0, { timeout: 30_000 });
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.__demo.frames)).toBe(f0 + 1);
    // Validate while paused checks the frame on screen, stepping nothing.
    await page.click('#validate');
    await page.waitForFunction(() => window.__demo.validations > 0 || window.__demo.error !== null, undefined, { timeout: 60_000 });
    const s = await page.evaluate(() => ({ ...window.__demo }));
    expect(s.error).toBeNull();
    expect(s.mismatches).toBe(0);
    expect(s.frames).toBe(f0 + 1);
    expect(problems).toEqual([]);
    await page.close();
  });
});

test('the built bundle (vite build, served by vite preview) runs a scene', async () => {
  const outDir = join(root, 'test-results', 'demo-build');
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir } });
  try {
    const url = server.resolvedUrls?.local?.[0];
    expect(url).toBeTruthy();
    const { page, problems } = await openPage(browser, `${url}?scene=pyramid&bodies=15&motion=kinematic`);
    await page.waitForFunction(() => window.__demo.frames >= 5 || window.__demo.error !== null, undefined, { timeout: 60_000 });
    const s = await page.evaluate(() => ({ ...window.__demo }));
    expect(s.error).toBeNull();
    expect(s.contacts).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  } finally {
    await server.close();
  }
});

test('without WebGPU the page says so and runs the CPU reference', async () => {
  const { page, problems } = await openPage(browser, `${baseUrl}?scene=2d`, { hideWebGpu: true });
  await page.waitForFunction(() => window.__demo.frames > 3 || window.__demo.error !== null, undefined, { timeout: 60_000 });
  const s = await page.evaluate(() => ({ ...window.__demo }));
  expect(s.error).toBeNull();
  expect(s.webgpu).toBe(false);
  expect(s.contacts).toBeGreaterThan(0);
  expect(await page.isVisible('#notice')).toBe(true);
  expect(await page.textContent('#notice')).toMatch(/no WebGPU \(navigator\.gpu is undefined\)/);
  expect(await page.isDisabled('#validate')).toBe(true);
  const png = await page.locator('#fallback').screenshot({ path: join(SHOTS, 'no-webgpu.png') });
  expect((await inkOf(page, png, BACKGROUND)).fraction).toBeGreaterThan(0.02);
  expect(problems).toEqual([]);
  await page.close();
});
