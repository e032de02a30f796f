// The pages besides the demo, in both browsers (test/helpers/browsers.ts: Debian's Chromium on
// SwiftShader, Debian's Firefox ESR on lavapipe), served by Vite's dev server on 127.0.0.1:
//   validation.html  the kernels through the browser's WGSL compiler (Tint, naga) against the CPU
//                    reference on 10k random pairs of every 2D and 3D pair class: 0 unexplained
//                    mismatches, 0 invalid CPU manifolds, each class producing contacts; and
//                    with ?sets=adversarial the Node suites' adversarial sets, 0 unexplained;
//   bench.html?quick=1  every scenario and contender at the small sizes, the record as JSON;
//   three.html       three.js's WebGPURenderer and GpuWorld3D on one device: frames, contacts,
//                    a picture that is not blank.
// No console error on any page. A missing browser fails these tests; they never skip.

import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { BenchRow } from '../demo/bench.ts';
import type { ValidationRow } from '../demo/validation.ts';
import { ADVERSARIAL_SETS_2D, ADVERSARIAL_SETS_3D } from './helpers/adversarial-sets.ts';
import { browserFor, BROWSERS, inkOf, servePages, SHOTS } from './helpers/browsers.ts';
import { SWEEP_TYPES } from './helpers/random2d.ts';
import { PAIR_CLASSES_3D } from './helpers/random3d.ts';

/** Firefox compiles the 3D kernels through naga and lavapipe: minutes on a cold cache. */
const PAGE_TIMEOUT = { chromium: 900_000, firefox: 1_500_000 } as const;

interface ValidationState {
  done: boolean;
  error: string | null;
  adapter: string | null;
  rows: ValidationRow[];
  classMs: Record<string, number>;
}

interface ThreeState {
  error: string | null;
  adapter: string | null;
  bodies: number;
  frames: number;
  contacts: number;
  frameMs: number | null;
  firstFrameMs: number | null;
}

interface BenchState {
  done: boolean;
  error: string | null;
  adapter: string | null;
  browser: string;
  rows: BenchRow[];
  warnings: string[];
}

declare global {
  interface Window {
    __validation: ValidationState;
    __bench: BenchState;
    __three: ThreeState;
  }
}

const pages = servePages();

for (const name of BROWSERS) {
  describe(`pages in ${name}`, () => {
    const launched = browserFor(name);

    /**
     * validation.html with `query`, run to its end, and what every run of it must give: no error,
     * the rows `expected` names in that order, 0 unexplained mismatches, 0 invalid CPU manifolds.
     */
    async function runValidation(query: string, expected: string[]) {
      const t0 = performance.now();
      const page = await launched.browser.open(new URL(`validation.html${query}`, pages.url).href);
      await page.waitFor(
        () => window.__validation.done || window.__validation.error !== null,
        undefined,
        PAGE_TIMEOUT[name],
      );
      const s = await page.evaluate(() => window.__validation);
      const cases = await page.text('#cases');
      const seconds = ((performance.now() - t0) / 1000).toFixed(0);
      expect(s.error).toBeNull();
      expect(s.rows.map((r) => `${r.dim}:${r.pairClass}`)).toEqual(expected);
      for (const r of s.rows) {
        const what = `${r.dim}D ${r.pairClass}`;
        expect(r.unexplained, `${what}: unexplained mismatches\n${cases}`).toBe(0);
        expect(r.cpuInvalid, `${what}: invalid CPU manifolds\n${cases}`).toBe(0);
      }
      return { page, s, seconds };
    }

    test(
      'validation.html: GPU against the CPU reference, 10k random pairs of every 2D and 3D pair class',
      async () => {
        const { page, s, seconds } = await runValidation('', [
          ...Object.keys(SWEEP_TYPES).map((c) => `2:${c}`),
          ...Object.keys(PAIR_CLASSES_3D).map((c) => `3:${c}`),
        ]);
        console.log(
          `${name} validation.html in ${seconds} s; wall time per class (ms): ${JSON.stringify(Object.fromEntries(Object.entries(s.classMs).map(([k, v]) => [k, Math.round(v)])))}`,
        );
        expect(s.adapter).toBeTruthy();
        for (const r of s.rows) {
          const what = `${r.dim}D ${r.pairClass}`;
          expect(r.pairs, what).toBe(10_000);
          // Coverage: the class made contacts, and near-ties stay rare.
          expect(r.touching, what).toBeGreaterThan(0.3 * r.pairs);
          expect(r.nearTies, what).toBeLessThan(0.005 * r.pairs);
        }
        await page.screenshot('body', join(SHOTS, `${name}-validation.png`));
        expect(page.problems).toEqual([]);
        await page.close();
      },
      PAGE_TIMEOUT[name] + 120_000,
    );

    test(
      "validation.html?sets=adversarial: the Node suites' adversarial sets, 0 unexplained",
      async () => {
        const { page, s, seconds } = await runValidation('?sets=adversarial', [
          ...Object.keys(ADVERSARIAL_SETS_2D).map((c) => `2:${c}`),
          ...Object.keys(ADVERSARIAL_SETS_3D).map((c) => `3:${c}`),
        ]);
        console.log(
          `${name} validation.html?sets=adversarial in ${seconds} s; near-ties per set: ${JSON.stringify(Object.fromEntries(s.rows.map((r) => [`${r.dim}D ${r.pairClass}`, r.nearTies])))}`,
        );
        for (const r of s.rows) expect(r.pairs, `${r.dim}D ${r.pairClass}`).toBeGreaterThan(0);
        expect(page.problems).toEqual([]);
        await page.close();
      },
      PAGE_TIMEOUT[name] + 120_000,
    );

    test(
      'bench.html?quick=1: every scenario, size and contender, with the record as JSON',
      async () => {
        const t0 = performance.now();
        const page = await launched.browser.open(new URL('bench.html?quick=1', pages.url).href);
        await page.waitFor(
          () => window.__bench.done || window.__bench.error !== null,
          undefined,
          PAGE_TIMEOUT[name],
        );
        const s = await page.evaluate(() => window.__bench);
        const record = JSON.parse(await page.text('#record')) as {
          adapter: string;
          browser: string;
          rows: BenchRow[];
        };
        const table = record.rows
          .map(
            (r) =>
              `  ${r.scenario} ${r.size} ${r.contender}: ${r.ms?.toFixed(2)} ms (${r.timing}), touching ${r.touching}`,
          )
          .join('\n');
        console.log(
          `${name} bench.html?quick=1 in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${record.adapter}\n${table}\nwarnings: ${s.warnings.join('; ') || 'none'}`,
        );
        expect(s.error).toBeNull();
        expect(record.adapter).toBe(s.adapter);
        expect(record.browser).toMatch(name === 'chromium' ? /Chrome\// : /Firefox\//);
        // 2 sizes × (2 2D + 3 3D narrowphase scenarios + 2 piles) × (ours, rapier).
        expect(record.rows).toHaveLength(2 * 7 * 2);
        for (const r of record.rows) {
          const what = `${r.scenario} ${r.size} ${r.contender}`;
          expect(r.skipped, what).toBeNull();
          expect(r.ms, what).toBeGreaterThan(0);
          expect(r.timing, what).toMatch(
            r.contender === 'webgpu-narrowphase'
              ? /^(gpu-timestamps|wall)$/
              : /^(wall|engine-profiler)$/,
          );
          expect(r.touching, what).toBeGreaterThan(0);
        }
        expect(new Set(record.rows.map((r) => r.contender))).toEqual(
          new Set(['webgpu-narrowphase', 'rapier2d', 'rapier3d']),
        );
        await page.screenshot('body', join(SHOTS, `${name}-bench.png`));
        expect(page.problems).toEqual([]);
        await page.close();
      },
      PAGE_TIMEOUT[name] + 120_000,
    );

    test(
      'three.html: three.js WebGPURenderer and GpuWorld3D on one device, bodies drawn from the body buffer',
      async () => {
        const page = await launched.browser.open(new URL('three.html?bodies=120', pages.url).href);
        await page.waitFor(
          () => window.__three.frames >= 90 || window.__three.error !== null,
          undefined,
          PAGE_TIMEOUT[name],
        );
        const s = await page.evaluate(() => window.__three);
        const stats = await page.text('#stats');
        console.log(
          `${name} three.html: first frame after ${((s.firstFrameMs ?? 0) / 1000).toFixed(1)} s; ${stats}`,
        );
        expect(s.error).toBeNull();
        expect(s.bodies).toBe(125);
        expect(s.contacts).toBeGreaterThan(100);
        expect(stats).toMatch(/bodies 125 · contacts \d+ · frame \d+ · frame [\d.]+ ms/);
        expect(stats).toMatch(/contacts [1-9]\d*/);
        const png = await page.screenshot('#view', join(SHOTS, `${name}-three.png`));
        const ink = await inkOf(page, png, [15, 17, 21]);
        expect(ink.fraction).toBeGreaterThan(0.05);
        // The moving bodies are coloured (the container grey): they are drawn where the world put them.
        expect(ink.coloured, 'coloured (moving) bodies on screen').toBeGreaterThan(0.005);
        expect(ink.colours).toBeGreaterThanOrEqual(8);
        expect(page.problems).toEqual([]);
        await page.close();
      },
      PAGE_TIMEOUT[name] + 120_000,
    );
  });
}
