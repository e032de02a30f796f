// The demo end to end in real browsers: Debian's Chromium with WebGPU on SwiftShader (through
// playwright-core) and Debian's Firefox ESR with WebGPU (wgpu, naga) on Mesa's lavapipe (through
// puppeteer-core over WebDriver BiDi); test/helpers/browsers.ts, flags and prefs in DEVELOPERS.md.
// The page is served by Vite's dev server on 127.0.0.1. In each browser every scene loads (at a
// smaller body count than its default: both adapters run shaders on the CPU), runs at least 120
// frames, reports contacts, gets 0 mismatches from the validate button (the CPU reference on the
// frame's pairs), logs no console error, shows the adapter line, and its screenshot
// (test-results/browser/<browser>-<scene>.png) is not blank. Without WebGPU the page says so and
// runs the CPU reference. The bundle `vite build` makes runs too (Chromium). A missing browser
// fails these tests; they never skip.

import { join } from 'node:path';
import { build, preview } from 'vite';
import { describe, expect, test } from 'vitest';
import type { DemoState } from '../demo/state.ts';
import {
  browserFor,
  BROWSERS,
  inkOf,
  servePages,
  SHOTS,
  type BrowserName,
} from './helpers/browsers.ts';
import { root } from './helpers/chromium.ts';

/** The page's background (demo/scenes/scene.ts CLEAR_COLOUR, demo/style.css). */
const BACKGROUND: [number, number, number] = [15, 17, 21];
const FRAMES = 120;

/**
 * Scenes at sizes the software adapters run in seconds (the URL parameters any user can give),
 * each driven by the GPU solver as by default.
 */
const SCENES = [
  { name: '2d', query: 'scene=2d&bodies=400' },
  { name: 'particles', query: 'scene=particles&bodies=1500' },
  { name: '3d', query: 'scene=3d&bodies=200' },
  { name: 'pyramid', query: 'scene=pyramid&bodies=36' },
] as const;

/** What each browser's adapter line must say (demo/adapter.ts). */
const ADAPTER_LINE: Record<BrowserName, RegExp> = {
  // Chromium exposes GPUAdapterInfo's vendor and architecture (SwiftShader's), no description.
  chromium: /^vendor google · architecture swiftshader · description .+ · software$/,
  // Firefox 153 returns empty strings for every GPUAdapterInfo field.
  firefox: /^adapter hidden by the browser/,
};

/**
 * How long a scene may take to reach FRAMES frames: Firefox's first 3D frame compiles the 3D
 * pipelines through naga and lavapipe, minutes on a cold cache (DEVELOPERS.md has the times).
 */
const SCENE_TIMEOUT: Record<BrowserName, number> = { chromium: 240_000, firefox: 900_000 };

const pages = servePages();

for (const name of BROWSERS) {
  describe(`demo in ${name}`, () => {
    const launched = browserFor(name);

    for (const scene of SCENES) {
      test(
        `${scene.name}: ${FRAMES} frames, contacts, 0 mismatches, no console error, adapter line, not blank`,
        async () => {
          const t0 = performance.now();
          const page = await launched.browser.open(`${pages.url}?${scene.query}&contacts=1`);
          const state = (): Promise<DemoState> => page.evaluate(() => ({ ...window.__demo }));
          await page.waitFor(
            () => window.__demo.frames >= 1 || window.__demo.error !== null,
            undefined,
            SCENE_TIMEOUT[name],
          );
          const firstFrame = performance.now() - t0;
          await page.waitFor(
            (n) => window.__demo.frames >= n || window.__demo.error !== null,
            FRAMES,
            SCENE_TIMEOUT[name],
          );
          let s = await state();
          console.log(
            `${name} ${scene.name}: first frame after ${(firstFrame / 1000).toFixed(1)} s, ${FRAMES} frames after ${((performance.now() - t0) / 1000).toFixed(1)} s; ${s.adapter}`,
          );
          expect(s.error, s.errors.join('\n')).toBeNull();
          expect(s.webgpu).toBe(true);
          expect(s.scene).toBe(scene.name);
          expect(s.adapter).toMatch(ADAPTER_LINE[name]);
          expect(s.motion).toBe('solver');
          expect(s.frames).toBeGreaterThanOrEqual(FRAMES);
          expect(s.contacts).toBeGreaterThan(0);
          expect(s.pairs).toBeGreaterThanOrEqual(s.contacts);

          await page.click('#validate');
          await page.waitFor(
            () => window.__demo.validations > 0 || window.__demo.error !== null,
            undefined,
            120_000,
          );
          s = await state();
          const shown = await page.text('#validation');
          expect(s.error, s.errors.join('\n')).toBeNull();
          expect(s.mismatches, `${shown}\n${await page.attribute('#validation', 'title')}`).toBe(0);
          expect(s.validatedManifolds).toBeGreaterThan(0);
          expect(shown).toMatch(/^0 mismatching of \d+ manifolds/);
          const stats = await page.text('#stats');
          expect(stats).toMatch(/bodies \d+ · pairs \d+ · contacts \d+/);
          expect(stats).toContain(s.adapter!);

          const path = join(SHOTS, `${name}-${scene.name}.png`);
          const png = await page.screenshot('#view', path);
          const ink = await inkOf(page, png, BACKGROUND);
          expect(
            ink.fraction,
            `${path}: ${(100 * ink.fraction).toFixed(1)}% drawn`,
          ).toBeGreaterThan(0.02);
          expect(ink.colours, `${path}: ${ink.colours} colours`).toBeGreaterThanOrEqual(8);
          expect(page.problems).toEqual([]);
          await page.close();
        },
        SCENE_TIMEOUT[name] + 300_000,
      );
    }

    test(
      'pause stops the frames, step advances exactly one, validate checks the paused frame',
      async () => {
        const page = await launched.browser.open(
          `${pages.url}?scene=pyramid&bodies=15&motion=kinematic`,
        );
        await page.waitFor(
          () => window.__demo.frames >= 3 || window.__demo.error !== null,
          undefined,
          SCENE_TIMEOUT[name],
        );
        expect(await page.evaluate(() => window.__demo.error)).toBeNull();
        await page.check('#pause');
        await new Promise((r) => setTimeout(r, 500));
        const f0 = await page.evaluate(() => window.__demo.frames);
        await new Promise((r) => setTimeout(r, 500));
        expect(await page.evaluate(() => window.__demo.frames)).toBe(f0);
        await page.click('#step');
        await page.waitFor((n) => window.__demo.frames === n + 1, f0, 30_000);
        await new Promise((r) => setTimeout(r, 500));
        expect(await page.evaluate(() => window.__demo.frames)).toBe(f0 + 1);
        // Validate while paused checks the frame on screen, stepping nothing.
        await page.click('#validate');
        await page.waitFor(
          () => window.__demo.validations > 0 || window.__demo.error !== null,
          undefined,
          60_000,
        );
        const s = await page.evaluate(() => ({ ...window.__demo }));
        expect(s.error).toBeNull();
        expect(s.mismatches).toBe(0);
        expect(s.frames).toBe(f0 + 1);
        expect(page.problems).toEqual([]);
        await page.close();
      },
      SCENE_TIMEOUT[name] + 120_000,
    );

    test('without WebGPU the page says so and runs the CPU reference', async () => {
      const page = await launched.browser.open(`${pages.url}?scene=2d`, { hideWebGpu: true });
      await page.waitFor(
        () => window.__demo.frames > 3 || window.__demo.error !== null,
        undefined,
        60_000,
      );
      const s = await page.evaluate(() => ({ ...window.__demo }));
      expect(s.error).toBeNull();
      expect(s.webgpu).toBe(false);
      expect(s.contacts).toBeGreaterThan(0);
      expect(await page.visible('#notice')).toBe(true);
      expect(await page.text('#notice')).toMatch(/no WebGPU \(navigator\.gpu is undefined\)/);
      expect(
        await page.evaluate(
          () => (document.getElementById('validate') as HTMLButtonElement).disabled,
        ),
      ).toBe(true);
      const png = await page.screenshot('#fallback', join(SHOTS, `${name}-no-webgpu.png`));
      expect((await inkOf(page, png, BACKGROUND)).fraction).toBeGreaterThan(0.02);
      expect(page.problems).toEqual([]);
      await page.close();
    });

    if (name === 'chromium') {
      test('the built bundle (vite build, served by vite preview) runs a scene', async () => {
        const outDir = join(root, 'test-results', 'demo-build');
        await build({
          configFile: join(root, 'vite.config.ts'),
          logLevel: 'warn',
          build: { outDir, emptyOutDir: true },
        });
        const server = await preview({
          configFile: join(root, 'vite.config.ts'),
          logLevel: 'warn',
          build: { outDir },
        });
        try {
          const url = server.resolvedUrls?.local?.[0];
          expect(url).toBeTruthy();
          const page = await launched.browser.open(
            `${url}?scene=pyramid&bodies=15&motion=kinematic`,
          );
          await page.waitFor(
            () => window.__demo.frames >= 5 || window.__demo.error !== null,
            undefined,
            60_000,
          );
          const s = await page.evaluate(() => ({ ...window.__demo }));
          expect(s.error).toBeNull();
          expect(s.contacts).toBeGreaterThan(0);
          expect(page.problems).toEqual([]);
          await page.close();
        } finally {
          await server.close();
        }
      });
    }
  });
}
