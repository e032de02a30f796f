// The demo's observable state: `window.__demo`, read by the browser tests (test/browser.test.ts)
// and by scripts/check-demo.mjs. Also the page's two message boxes (notice: why WebGPU is not
// used; error: a real failure), so every failure lands both on the page and in `__demo.error`.

export type SceneName = '2d' | '3d' | 'pyramid' | 'particles';

export interface DemoState {
  /** The scene on screen (null while starting). */
  scene: SceneName | null;
  /** Bodies in the scene (static ones included). */
  bodies: number;
  /** Frames stepped, collided and drawn so far. */
  frames: number;
  /** Broadphase pairs of the last frame. */
  pairs: number;
  /** Touching manifolds (contact-list entries) of the last frame. */
  contacts: number;
  /** Unexplained GPU/CPU mismatches of the last validation (null before the first). */
  mismatches: number | null;
  /** 3D only: mismatches where both manifolds are valid (a near-tie f32 broke differently). */
  nearTies: number | null;
  /** Validations completed. */
  validations: number;
  /** Touching manifolds (on either side) compared by the last validation. */
  validatedManifolds: number;
  /** Mean frame time of the last second, ms (host wall time from one frame's start to its end). */
  frameMs: number | null;
  /** Per-stage GPU times of the last frame, ms (null without timestamp queries). */
  gpuMs: Record<string, number> | null;
  /** What moves the bodies: 'kinematic' (host integrator, no contact response) or 'solver'. */
  motion: 'kinematic' | 'solver' | null;
  /** The WebGPU adapter's name, or null without WebGPU. */
  adapter: string | null;
  /** Whether WebGPU is usable (null while starting). */
  webgpu: boolean | null;
  /** Why WebGPU is not used, as shown on the page; null otherwise. */
  notice: string | null;
  /** The first real failure (a frame threw, device lost, WebGPU validation error); null when all is well. */
  error: string | null;
  /** Every failure message, in order. */
  errors: string[];
}

declare global {
  interface Window {
    __demo: DemoState;
  }
}

export const demo: DemoState = {
  scene: null,
  bodies: 0,
  frames: 0,
  pairs: 0,
  contacts: 0,
  mismatches: null,
  nearTies: null,
  validations: 0,
  validatedManifolds: 0,
  frameMs: null,
  gpuMs: null,
  motion: null,
  adapter: null,
  webgpu: null,
  notice: null,
  error: null,
  errors: [],
};
window.__demo = demo;

export function element<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`demo/index.html has no #${id}`);
  return el as T;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

export function showError(message: string): void {
  demo.error ??= message;
  demo.errors.push(message);
  const el = element<HTMLDivElement>('error');
  el.hidden = false;
  el.textContent = el.textContent ? `${el.textContent}\n${message}` : message;
}

export function showNotice(message: string): void {
  demo.notice = message;
  const el = element<HTMLDivElement>('notice');
  el.hidden = false;
  el.textContent = message;
}
