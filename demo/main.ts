// The browser demo (`npm start`): several scenes of thousands of bodies whose contacts the
// library computes on the GPU every frame, drawn with WebGPU straight from the GPU buffers
// (demo/render2d.ts, demo/render3d.ts), with a stats panel and controls (demo/ui.ts, demo/stats.ts).
// Without WebGPU the page says why and runs a small CPU-reference scene instead (demo/fallback.ts).
//
// A frame: the scene steps and records its collision frame and render pass into one encoder,
// submits, then reads back the counts (and the timestamp queries); one frame at a time. The
// validate button runs between frames, on what the last frame left on the GPU (a frame run for
// it collides every pair anew). `window.__demo`
// (demo/state.ts) exposes the state for the browser tests (test/browser.test.ts).

import { acquireDevice, NoAdapterError } from '../src/gpu/device.ts';
import { adapterLine } from './adapter.ts';
import { startFallback } from './fallback.ts';
import { GpuTimer } from './gpu-timer.ts';
import { SCENES } from './scenes/registry.ts';
import type { DemoScene, FrameReport } from './scenes/scene.ts';
import { demo, element, messageOf, showError, showNotice } from './state.ts';
import { Stats } from './stats.ts';
import { readSettings, setupControls, type Controls } from './ui.ts';

/** Simulated seconds per frame: fixed, so a slow machine shows slow motion, never a different scene. */
const DT = 1 / 60;

window.addEventListener('error', (ev) => showError(`uncaught: ${ev.message}`));
window.addEventListener('unhandledrejection', (ev) =>
  showError(`unhandled rejection: ${messageOf(ev.reason)}`),
);

/** Why WebGPU cannot be used here, in words for the page. */
function noWebGpuMessage(e: unknown): string {
  const hint =
    'Use a browser with WebGPU (Chrome/Edge 113+, Firefox 141+ on Windows, Safari 26); on Linux Chrome ' +
    'needs --enable-unsafe-webgpu (chrome://flags/#enable-unsafe-webgpu). Running a small scene on the CPU reference instead.';
  if (!('gpu' in navigator) || !navigator.gpu)
    return `This browser has no WebGPU (navigator.gpu is undefined). ${hint}`;
  if (e instanceof NoAdapterError)
    return `WebGPU is present but no adapter is available (requestAdapter() returned null). ${hint}`;
  return `WebGPU could not be started (${messageOf(e)}).`;
}

/**
 * GPU stage times of a frame: the collision frame's stages, the whole recorded step (collision
 * frame, and the solver where there is one), what the step took besides the frame's stages (the
 * solver, the gaps between passes), and the render pass.
 */
function stageTimes(
  scene: DemoScene,
  report: FrameReport,
  spans: Record<string, number> | null,
): Record<string, number> | null {
  if (!report.gpuMs && !spans) return null;
  const out: Record<string, number> = { ...report.gpuMs };
  if (spans) {
    const solver = scene.motion === 'solver';
    if (report.gpuMs) {
      const stages = Object.values(report.gpuMs).reduce((a, b) => a + b, 0);
      out[solver ? 'solver and gaps' : 'gaps'] = Math.max(0, spans.step! - stages);
    }
    out[solver ? 'step total' : 'collide total'] = spans.step!;
    out.render = spans.render!;
  }
  return out;
}

async function validate(scene: DemoScene, controls: Controls): Promise<void> {
  controls.setValidation('validating…', 'busy');
  let r;
  try {
    r = await scene.validate();
  } catch (e) {
    controls.setValidation('validation failed', 'bad', messageOf(e));
    throw e;
  }
  demo.mismatches = r.mismatches;
  demo.nearTies = r.nearTies;
  demo.validatedManifolds = r.touching;
  demo.validations++;
  const ties = r.nearTies !== null ? `, ${r.nearTies} near-ties` : '';
  controls.setValidation(
    `${r.mismatches} mismatching of ${r.touching} manifolds (${r.pairs} pairs${ties})`,
    r.mismatches > 0 ? 'bad' : 'ok',
    r.mismatches > 0
      ? r.examples.join('\n')
      : 'GPU and CPU reference agree on every pair of this frame',
  );
}

async function start(): Promise<void> {
  const settings = readSettings();
  demo.scene = settings.scene;
  const canvas = element<HTMLCanvasElement>('view');
  const controls = setupControls(settings, canvas);
  let acquired;
  try {
    acquired = await acquireDevice();
  } catch (e) {
    demo.webgpu = false;
    showNotice(noWebGpuMessage(e));
    controls.disable();
    if (!(e instanceof NoAdapterError) && 'gpu' in navigator && navigator.gpu) {
      showError(`WebGPU failed to start: ${messageOf(e)}`);
      return;
    }
    canvas.hidden = true;
    startFallback(element<HTMLCanvasElement>('fallback'), element<HTMLDivElement>('stats'));
    return;
  }
  const { device, adapter } = acquired;
  demo.webgpu = true;
  demo.adapter = adapterLine(adapter);
  let stopped = false;
  device.addEventListener('uncapturederror', (ev) => {
    const err = (ev as GPUUncapturedErrorEvent).error;
    showError(`WebGPU error: ${err.message}`);
    console.error(err);
  });
  void device.lost.then((info) => {
    if (info.reason === 'destroyed') return;
    stopped = true;
    showError(`WebGPU device lost: ${info.message}`);
  });

  const context = canvas.getContext('webgpu');
  if (!context) throw new Error('the canvas gives no WebGPU context');
  const format = navigator.gpu.getPreferredCanvasFormat();
  context.configure({ device, format, alphaMode: 'opaque' });
  const entry = SCENES[settings.scene];
  const statsEl = element<HTMLDivElement>('stats');
  statsEl.textContent = `building ${entry.title} with ${settings.bodies} bodies…`;
  const scene = await entry.create(device, format, settings);
  demo.bodies = scene.bodyCount;
  demo.motion = scene.motion;
  const stats = new Stats(
    statsEl,
    `${entry.title} · ${demo.adapter} · margin ${settings.margin} · motion: ${scene.motion === 'kinematic' ? 'kinematic (no contact response: bodies pass through each other)' : 'GPU solver'}`,
  );
  const timer = new GpuTimer(device, ['step', 'render']);

  async function frame(): Promise<void> {
    const t0 = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const height = Math.max(1, Math.round(canvas.clientHeight * dpr));
    if (canvas.width !== width) canvas.width = width;
    if (canvas.height !== height) canvas.height = height;
    const encoder = device.createCommandEncoder({ label: 'demo-frame' });
    // The frame a validation checks collides every pair anew (no manifold reuse), and so does
    // every step while paused, so that validate checks the paused frame as it is.
    const afresh = controls.validateRequested || controls.paused;
    if (afresh) scene.collideAfreshNext();
    timer.mark(encoder, 'step', 'start');
    scene.encode(encoder, DT);
    timer.mark(encoder, 'step', 'end');
    scene.draw(
      encoder,
      context!.getCurrentTexture().createView(),
      controls.view(width, height),
      timer.whole('render'),
    );
    timer.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    const [report, spans] = await Promise.all([scene.finish(), timer.read()]);
    demo.frames++;
    demo.pairs = report.pairs;
    demo.contacts = report.contacts;
    demo.gpuMs = stageTimes(scene, report, spans);
    lastOverflowed = report.overflowed;
    lastAfresh = afresh;
    stats.update(report, performance.now() - t0, demo.gpuMs);
  }

  let busy = false;
  let lastOverflowed = false;
  let lastAfresh = false;
  function tick(): void {
    if (stopped) return;
    requestAnimationFrame(tick);
    if (busy) return;
    let job: (() => Promise<void>) | null = null;
    // Validation checks the last frame when it collided every pair anew and fit its buffers;
    // else such a frame runs first, paused or not.
    if (controls.validateRequested && demo.frames > 0 && !lastOverflowed && lastAfresh)
      job = () => validate(scene, controls);
    else if (
      !controls.paused ||
      controls.takeStep() ||
      demo.frames === 0 ||
      controls.validateRequested
    )
      job = frame;
    if (!job) return;
    busy = true;
    job()
      .catch((e: unknown) => {
        if (job === frame) stopped = true;
        showError(`${job === frame ? 'frame' : 'validation'} failed: ${messageOf(e)}`);
        console.error(e);
      })
      .finally(() => {
        busy = false;
      });
  }
  requestAnimationFrame(tick);
}

start().catch((e: unknown) => {
  showError(`demo failed to start: ${messageOf(e)}`);
  console.error(e);
});
