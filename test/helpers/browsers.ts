// The browsers the browser tests run in, behind one small page interface: Chromium through
// playwright-core (./chromium.ts) and Firefox through puppeteer-core over WebDriver BiDi
// (./firefox.ts), both Debian's packages. A test names the browser and drives a TestPage; every
// page records console errors, uncaught exceptions, failed requests and HTTP errors in `problems`.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser as PlaywrightBrowser, Page as PlaywrightPage } from 'playwright-core';
import type { Browser as PuppeteerBrowser, Page as PuppeteerPage } from 'puppeteer-core';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium, root, startDemoServer } from './chromium.ts';
import { launchFirefox } from './firefox.ts';

/** Where the browser tests leave their screenshots. */
export const SHOTS = join(root, 'test-results', 'browser');

export type BrowserName = 'chromium' | 'firefox';
export const BROWSERS: readonly BrowserName[] = ['chromium', 'firefox'];

export interface TestPage {
  /** Console errors, uncaught exceptions, failed requests and HTTP errors, as they came. */
  readonly problems: string[];
  evaluate<R, A = undefined>(fn: (arg: A) => R | Promise<R>, arg?: A): Promise<R>;
  /** Polls `fn` in the page until it returns something truthy (rejects after `timeoutMs`). */
  waitFor<A>(fn: (arg: A) => unknown, arg: A, timeoutMs: number): Promise<void>;
  click(selector: string): Promise<void>;
  check(selector: string): Promise<void>;
  text(selector: string): Promise<string>;
  attribute(selector: string, name: string): Promise<string | null>;
  visible(selector: string): Promise<boolean>;
  /** PNG of the element, also written to `path`. */
  screenshot(selector: string, path: string): Promise<Buffer>;
  close(): Promise<void>;
}

export interface TestBrowser {
  readonly name: BrowserName;
  /** e.g. "Chromium 156.0.8078.108" or "Firefox 153.7.0". */
  readonly version: string;
  open(url: string, options?: { hideWebGpu?: boolean }): Promise<TestPage>;
  close(): Promise<void>;
}

export const VIEWPORT = { width: 1024, height: 700 };

/** As in a browser without WebGPU: no navigator.gpu at all. */
function hideWebGpu(): void {
  delete (Navigator.prototype as { gpu?: unknown }).gpu;
}

function problemRecorder(): { problems: string[]; add: (s: string) => void } {
  const problems: string[] = [];
  return { problems, add: (s) => problems.push(s) };
}

function playwrightPage(page: PlaywrightPage, problems: string[]): TestPage {
  return {
    problems,
    evaluate: (fn, arg) => page.evaluate(fn as never, arg as never) as never,
    waitFor: async (fn, arg, timeout) => {
      await page.waitForFunction(fn as never, arg as never, { timeout, polling: 250 });
    },
    click: (s) => page.click(s),
    check: (s) => page.check(s),
    text: async (s) => (await page.textContent(s)) ?? '',
    attribute: (s, name) => page.getAttribute(s, name),
    visible: (s) => page.isVisible(s),
    screenshot: (s, path) => page.locator(s).screenshot({ path }),
    close: () => page.close(),
  };
}

async function chromiumBrowser(): Promise<TestBrowser> {
  const browser: PlaywrightBrowser = await launchChromium();
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    async open(url, options = {}) {
      const page = await browser.newPage({ viewport: VIEWPORT });
      const { problems, add } = problemRecorder();
      page.on('console', (msg) => {
        if (msg.type() === 'error') add(`console.error: ${msg.text()}`);
      });
      page.on('pageerror', (err) => add(`uncaught: ${err.message}`));
      page.on('requestfailed', (req) =>
        add(`request failed: ${req.url()} (${req.failure()?.errorText})`),
      );
      page.on('response', (res) => {
        if (res.status() >= 400) add(`HTTP ${res.status()}: ${res.url()}`);
      });
      if (options.hideWebGpu) await page.addInitScript(hideWebGpu);
      await page.goto(url, { waitUntil: 'load' });
      return playwrightPage(page, problems);
    },
    close: () => browser.close(),
  };
}

function puppeteerPage(page: PuppeteerPage, problems: string[]): TestPage {
  const element = async (s: string) => {
    const el = await page.$(s);
    if (!el) throw new Error(`no element ${s} on the page`);
    return el;
  };
  return {
    problems,
    evaluate: (fn, arg) => page.evaluate(fn as never, arg as never) as never,
    waitFor: async (fn, arg, timeout) => {
      await page.waitForFunction(fn as never, { timeout, polling: 250 }, arg as never);
    },
    click: async (s) => (await element(s)).click(),
    check: async (s) => {
      if (!(await page.$eval(s, (e) => (e as HTMLInputElement).checked)))
        await (await element(s)).click();
    },
    text: (s) => page.$eval(s, (e) => e.textContent ?? ''),
    attribute: (s, name) => page.$eval(s, (e, n) => e.getAttribute(n), name),
    visible: async (s) => (await element(s)).isVisible(),
    screenshot: async (s, path) =>
      Buffer.from(await (await element(s)).screenshot({ path: path as `${string}.png` })),
    close: () => page.close(),
  };
}

async function firefoxBrowser(): Promise<TestBrowser> {
  const browser: PuppeteerBrowser = await launchFirefox();
  const version = (await browser.version()).replace(/^firefox\//i, 'Firefox ');
  return {
    name: 'firefox',
    version,
    async open(url, options = {}) {
      const page = await browser.newPage();
      await page.setViewport(VIEWPORT);
      const { problems, add } = problemRecorder();
      page.on('console', (msg) => {
        if (msg.type() === 'error') add(`console.error: ${msg.text()}`);
      });
      page.on('pageerror', (err) =>
        add(`uncaught: ${err instanceof Error ? err.message : String(err)}`),
      );
      page.on('requestfailed', (req) =>
        add(`request failed: ${req.url()} (${req.failure()?.errorText})`),
      );
      page.on('response', (res) => {
        if (res.status() >= 400) add(`HTTP ${res.status()}: ${res.url()}`);
      });
      if (options.hideWebGpu) await page.evaluateOnNewDocument(hideWebGpu);
      await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
      return puppeteerPage(page, problems);
    },
    close: () => browser.close(),
  };
}

export function launchBrowser(name: BrowserName): Promise<TestBrowser> {
  return name === 'chromium' ? chromiumBrowser() : firefoxBrowser();
}

/** Vite's dev server on the pages for the file's tests (started before them, closed after): its URL. */
export function servePages(): { readonly url: string } {
  let server: ViteDevServer | undefined;
  let url = '';
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    ({ server, url } = await startDemoServer());
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get url() {
      return url;
    },
  };
}

/** `name` launched for the enclosing describe block (closed after it): the browser. */
export function browserFor(name: BrowserName): { readonly browser: TestBrowser } {
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser(name);
    console.log(`${name}: ${browser.version}`);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error(`${name} did not start`);
      return browser;
    },
  };
}

/**
 * How much of a PNG is drawn: the fraction of pixels that differ from `background` (r, g, b) by
 * more than a little, the fraction of clearly coloured (not grey) pixels, and the number of
 * distinct colours (4 bits per channel). Decoded in the page.
 */
export async function inkOf(
  page: TestPage,
  png: Buffer,
  background: [number, number, number],
): Promise<{ fraction: number; coloured: number; colours: number }> {
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
      let coloured = 0;
      let total = 0;
      const colours = new Set<number>();
      for (let i = 0; i < d.length; i += 4 * 5) {
        total++;
        if (
          Math.abs(d[i]! - bg[0]) + Math.abs(d[i + 1]! - bg[1]) + Math.abs(d[i + 2]! - bg[2]) >
          24
        )
          ink++;
        if (Math.max(d[i]!, d[i + 1]!, d[i + 2]!) - Math.min(d[i]!, d[i + 1]!, d[i + 2]!) > 60)
          coloured++;
        colours.add((d[i]! >> 4) * 256 + (d[i + 1]! >> 4) * 16 + (d[i + 2]! >> 4));
      }
      return { fraction: ink / total, coloured: coloured / total, colours: colours.size };
    },
    { b64: png.toString('base64'), bg: background },
  );
}
