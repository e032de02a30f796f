// What the pages besides the demo (bench.html, validation.html, three.html) share: their state
// object on `window` for the browser tests, the error box, the WebGPU device with its adapter line.

import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { adapterLine } from './adapter.ts';
import { messageOf } from './state.ts';

/** The state every page exposes: `done` once finished, `error` the first failure. */
export interface PageState {
  /** The adapter line (demo/adapter.ts), or null before the device. */
  adapter: string | null;
  /** navigator.userAgent. */
  browser: string;
  done: boolean;
  error: string | null;
}

/** Each page state's failure reporter (its error box). */
const pageFailures = new WeakMap<object, (message: string) => void>();

export function pageState<T extends object>(name: string, extra: T): PageState & T {
  const state: PageState & T = {
    adapter: null,
    browser: navigator.userAgent,
    done: false,
    error: null,
    ...extra,
  };
  (window as unknown as Record<string, unknown>)[name] = state;
  const fail = (message: string): void => {
    state.error ??= message;
    const el = document.getElementById('error');
    if (el) {
      el.hidden = false;
      el.textContent = el.textContent ? `${el.textContent}\n${message}` : message;
    }
  };
  window.addEventListener('error', (ev) => fail(`uncaught: ${ev.message}`));
  window.addEventListener('unhandledrejection', (ev) =>
    fail(`unhandled rejection: ${messageOf(ev.reason)}`),
  );
  pageFailures.set(state, fail);
  return state;
}

/** Shows `e` in the page's error box and records it in the state. */
export function pageFailed(state: PageState, e: unknown): void {
  console.error(e);
  pageFailures.get(state)?.(messageOf(e));
}

/** The device, with uncaptured WebGPU errors reported as page failures. */
export async function pageDevice(state: PageState): Promise<AcquiredDevice> {
  const acquired = await acquireDevice();
  state.adapter = adapterLine(acquired.adapter);
  acquired.device.addEventListener('uncapturederror', (ev) =>
    pageFailed(state, new Error(`WebGPU error: ${(ev as GPUUncapturedErrorEvent).error.message}`)),
  );
  return acquired;
}

/** A positive integer URL parameter, `fallback` where absent; anything else is an error. */
export function intParam(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`URL parameter ${name}=${raw}: not a positive integer`);
  return n;
}
