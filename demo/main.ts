// The browser demo: a few dozen 2D shapes (boxes, random convex polygons, circles, capsules,
// rounded polygons) move on slow deterministic orbits; every frame the scene goes through
// `np.collide` (the WGSL kernels through WebGPU, or the CPU reference) and the contact points and
// normals are drawn on a 2D canvas. No physics solver: the shapes overlap freely, so the contacts
// change every frame.
//
// One collide at a time: a frame starts a new collide only after the previous one (or a
// validation run) has finished. `window.__demo` exposes the state for automated checks
// (scripts/check-demo.mjs).

import {
  acquireDevice,
  createNarrowphase,
  makeShape2D,
  NoAdapterError,
  parseScene2D,
  sweepAndPrune2D,
  type Backend,
  type CollideResult,
  type Narrowphase,
  type Shape2D,
  type Shape2DInput,
  type SceneJson2D,
  type Vec2,
} from '../src/index.ts';
import { compareManifolds2D } from '../src/compare2d.ts';
import { rng } from '../src/random2d.ts';

// ---------------------------------------------------------------------------------------------
// State exposed for automated checks.

export interface DemoState {
  /** Frames collided and drawn so far. */
  frames: number;
  /** Contact points of the last frame. */
  contacts: number;
  /** Manifolds with at least one point in the last frame. */
  manifolds: number;
  /** Broadphase pairs of the last frame. */
  pairs: number;
  /** Mismatching manifolds of the last validation (null before the first). */
  mismatches: number | null;
  /** Validations completed. */
  validations: number;
  /** Manifolds with points (on either backend) compared by the last validation. */
  validatedManifolds: number;
  /** Backend of the last frame. */
  backend: Backend | null;
  /** The WebGPU adapter's name, or null without WebGPU. */
  adapter: string | null;
  /** Whether WebGPU is usable (null while starting). */
  webgpu: boolean | null;
  /** Why WebGPU is not used (no navigator.gpu, no adapter), shown on the page; null otherwise. */
  notice: string | null;
  /** A real failure (collide threw, device lost, WebGPU validation error); null when all is well. */
  error: string | null;
}

declare global {
  interface Window {
    __demo: DemoState;
  }
}

const demo: DemoState = {
  frames: 0,
  contacts: 0,
  manifolds: 0,
  pairs: 0,
  mismatches: null,
  validations: 0,
  validatedManifolds: 0,
  backend: null,
  adapter: null,
  webgpu: null,
  notice: null,
  error: null,
};
window.__demo = demo;

// ---------------------------------------------------------------------------------------------
// Page elements.

function element<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`demo/index.html has no #${id}`);
  return el as T;
}

const canvas = element<HTMLCanvasElement>('view');
const statsEl = element<HTMLDivElement>('stats');
const noticeEl = element<HTMLDivElement>('notice');
const errorEl = element<HTMLDivElement>('error');
const useCpuBox = element<HTMLInputElement>('use-cpu');
const pauseBox = element<HTMLInputElement>('pause');
const validateButton = element<HTMLButtonElement>('validate');
const validationEl = element<HTMLSpanElement>('validation');
const context = canvas.getContext('2d');
if (!context) throw new Error('this browser has no 2D canvas context');
const ctx: CanvasRenderingContext2D = context;

function showError(message: string): void {
  if (demo.error === null) demo.error = message;
  errorEl.hidden = false;
  errorEl.textContent = errorEl.textContent ? `${errorEl.textContent}\n${message}` : message;
}

function showNotice(message: string): void {
  demo.notice = message;
  noticeEl.hidden = false;
  noticeEl.textContent = message;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

window.addEventListener('error', (ev) => showError(`uncaught: ${ev.message}`));
window.addEventListener('unhandledrejection', (ev) => showError(`unhandled rejection: ${messageOf(ev.reason)}`));

// ---------------------------------------------------------------------------------------------
// The scene: shapes made once from a seeded random generator, bodies on slow orbits.

// Seeded (mulberry32), so every page load shows the same scene.
const random = rng(20240607);
const between = (lo: number, hi: number): number => lo + (hi - lo) * random();
const sign = (): number => (random() < 0.5 ? -1 : 1);

/** A random convex polygon: n points at jittered angles on an ellipse (convex, counter-clockwise). */
function randomPolygon(size: number, n: number): Vec2[] {
  const sx = between(0.75, 1);
  const sy = between(0.6, 1);
  const step = (2 * Math.PI) / n;
  const start = between(0, 2 * Math.PI);
  const pts: Vec2[] = [];
  for (let i = 0; i < n; i++) {
    const a = start + i * step + between(-0.3, 0.3) * step;
    pts.push([size * sx * Math.cos(a), size * sy * Math.sin(a)]);
  }
  // Centre the polygon on its vertex mean, so it spins about its middle.
  const cx = pts.reduce((s, p) => s + p[0], 0) / n;
  const cy = pts.reduce((s, p) => s + p[1], 0) / n;
  return pts.map(([x, y]) => [x - cx, y - cy] as Vec2);
}

type Kind = 'box' | 'polygon' | 'circle' | 'capsule' | 'rounded polygon' | 'rounded box';
const KINDS: Kind[] = ['box', 'polygon', 'circle', 'capsule', 'rounded polygon', 'polygon', 'box', 'rounded box'];
const KIND_COLOUR: Record<Kind, string> = {
  box: '#4f8ff7',
  polygon: '#a77cf2',
  circle: '#3fc1a5',
  capsule: '#f2a541',
  'rounded polygon': '#e26fb0',
  'rounded box': '#7fb5ff',
};

function makeInput(kind: Kind, size: number): Shape2DInput {
  switch (kind) {
    case 'box':
      return { type: 'box', halfExtents: [size * between(0.55, 1), size * between(0.35, 0.8)] };
    case 'rounded box':
      return { type: 'box', halfExtents: [size * between(0.45, 0.85), size * between(0.3, 0.6)], radius: size * 0.18 };
    case 'polygon':
      return { type: 'polygon', vertices: randomPolygon(size, 3 + Math.floor(random() * 6)) };
    case 'rounded polygon':
      return { type: 'polygon', vertices: randomPolygon(size * 0.78, 3 + Math.floor(random() * 4)), radius: size * 0.2 };
    case 'circle':
      return { type: 'circle', radius: size * between(0.6, 0.85) };
    case 'capsule': {
      const h = size * between(0.5, 0.75);
      return { type: 'capsule', a: [-h, 0], b: [h, 0], radius: size * between(0.25, 0.4) };
    }
  }
}

interface Mover {
  kind: Kind;
  cx: number;
  cy: number;
  orbit: number;
  omega: number;
  phase: number;
  angle0: number;
  spin: number;
}

const COLS = 8;
const ROWS = 5;
const SPACING = 2;
/** The world rectangle drawn on the canvas (centred on the origin). */
const WORLD_W = COLS * SPACING + 1.2;
const WORLD_H = ROWS * SPACING + 1.2;
/** Speculative margin: contacts up to this far apart are reported with depth < 0. */
const MARGIN = 0.05;

const shapeInputs: Shape2DInput[] = [];
const movers: Mover[] = [];
for (let row = 0; row < ROWS; row++) {
  for (let col = 0; col < COLS; col++) {
    const kind = KINDS[(row * 3 + col + Math.floor(random() * 3)) % KINDS.length]!;
    shapeInputs.push(makeInput(kind, between(0.8, 1.1)));
    movers.push({
      kind,
      cx: (col - (COLS - 1) / 2) * SPACING,
      cy: (row - (ROWS - 1) / 2) * SPACING,
      orbit: between(0.5, 0.9),
      omega: between(0.25, 0.5) * sign(),
      phase: between(0, 2 * Math.PI),
      angle0: between(0, 2 * Math.PI),
      spin: between(0.15, 0.5) * sign(),
    });
  }
}
/** The shapes as the library builds them (validated; used for drawing and tolerances). */
const shapes: Shape2D[] = shapeInputs.map((s, i) => makeShape2D(s, i));

interface Pose {
  x: number;
  y: number;
  angle: number;
}

function posesAt(t: number): Pose[] {
  return movers.map((m) => ({
    x: m.cx + m.orbit * Math.cos(m.omega * t + m.phase),
    y: m.cy + 0.8 * m.orbit * Math.sin(m.omega * t + m.phase),
    angle: m.angle0 + m.spin * t,
  }));
}

function sceneAt(poses: Pose[]): SceneJson2D {
  return {
    dim: 2,
    margin: MARGIN,
    shapes: shapeInputs,
    bodies: poses.map((p, i) => ({ shape: i, position: [p.x, p.y] as Vec2, angle: p.angle })),
  };
}

// ---------------------------------------------------------------------------------------------
// Drawing.

let view = { scale: 1, ox: 0, oy: 0, dpr: 1 };

function resize(): void {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(canvas.clientWidth * dpr));
  const h = Math.max(1, Math.round(canvas.clientHeight * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const scale = Math.min(w / WORLD_W, h / WORLD_H);
  view = { scale, ox: w / 2, oy: h / 2, dpr };
}

/** Traces a rounded convex polygon (circle, capsule, polygon; radius >= 0) in world coordinates. */
function traceShape(shape: Shape2D, pose: Pose): void {
  const c = Math.cos(pose.angle);
  const s = Math.sin(pose.angle);
  const vx = (i: number): number => pose.x + c * shape.vertices[2 * i]! - s * shape.vertices[2 * i + 1]!;
  const vy = (i: number): number => pose.y + s * shape.vertices[2 * i]! + c * shape.vertices[2 * i + 1]!;
  const n = shape.count;
  const r = shape.radius;
  ctx.beginPath();
  if (n === 1) {
    ctx.arc(vx(0), vy(0), r, 0, 2 * Math.PI);
    return;
  }
  if (r <= 0) {
    ctx.moveTo(vx(0), vy(0));
    for (let i = 1; i < n; i++) ctx.lineTo(vx(i), vy(i));
    ctx.closePath();
    return;
  }
  // Minkowski sum with a disc: around each vertex an arc from the previous edge's normal to the
  // next edge's; the straight offset edges are the lines the arcs join up with.
  for (let i = 0; i < n; i++) {
    const p = (i + n - 1) % n;
    const a0 = Math.atan2(shape.normals[2 * p + 1]!, shape.normals[2 * p]!) + pose.angle;
    const nx0 = shape.normals[2 * p]!;
    const ny0 = shape.normals[2 * p + 1]!;
    const nx1 = shape.normals[2 * i]!;
    const ny1 = shape.normals[2 * i + 1]!;
    let turn = Math.atan2(nx0 * ny1 - ny0 * nx1, nx0 * nx1 + ny0 * ny1);
    if (turn <= 0) turn += 2 * Math.PI; // a capsule's ends turn by exactly pi
    ctx.arc(vx(i), vy(i), r, a0, a0 + turn, false);
  }
  ctx.closePath();
}

function draw(poses: Pose[], result: CollideResult | null): void {
  resize();
  const { scale, ox, oy, dpr } = view;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  // World: y up, origin in the middle.
  ctx.setTransform(scale, 0, 0, -scale, ox, oy);
  const px = dpr / scale; // one CSS pixel in world units

  ctx.strokeStyle = 'rgba(255,255,255,0.06)';
  ctx.lineWidth = px;
  ctx.strokeRect(-WORLD_W / 2, -WORLD_H / 2, WORLD_W, WORLD_H);

  const touching = new Set<number>();
  for (const m of result?.manifolds ?? []) {
    if (m.points.length > 0) {
      touching.add(m.pair[0]);
      touching.add(m.pair[1]);
    }
  }

  ctx.lineJoin = 'round';
  poses.forEach((pose, i) => {
    const colour = KIND_COLOUR[movers[i]!.kind];
    traceShape(shapes[i]!, pose);
    ctx.globalAlpha = touching.has(i) ? 0.42 : 0.24;
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.globalAlpha = touching.has(i) ? 1 : 0.7;
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * px;
    ctx.stroke();
    // A spoke from the centre shows the rotation.
    ctx.globalAlpha = 0.45;
    ctx.beginPath();
    ctx.moveTo(pose.x, pose.y);
    const reach = 0.35 * shapes[i]!.extent;
    ctx.lineTo(pose.x + reach * Math.cos(pose.angle), pose.y + reach * Math.sin(pose.angle));
    ctx.stroke();
  });
  ctx.globalAlpha = 1;

  // Normals first, then the dots on top.
  const normalLength = 0.4;
  ctx.lineWidth = 1.6 * px;
  ctx.strokeStyle = '#f5f7fa';
  ctx.beginPath();
  for (const m of result?.manifolds ?? []) {
    for (const p of m.points) {
      const [x, y] = p.position as [number, number];
      ctx.moveTo(x, y);
      ctx.lineTo(x + normalLength * m.normal[0]!, y + normalLength * m.normal[1]!);
    }
  }
  ctx.stroke();
  for (const m of result?.manifolds ?? []) {
    for (const p of m.points) {
      const [x, y] = p.position as [number, number];
      ctx.beginPath();
      ctx.arc(x, y, 3.2 * px, 0, 2 * Math.PI);
      ctx.fillStyle = p.depth > 0 ? '#ff4d4d' : '#ffb020';
      ctx.fill();
    }
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
}

// ---------------------------------------------------------------------------------------------
// Validation: both backends on the same frame, manifold by manifold.
//
// The frame's broadphase pairs are given to both backends explicitly, so each returns one manifold
// per pair in the same order, and the library's comparison (src/compare2d.ts) checks them slot by
// slot: point count, feature ids, normal within 1e-4, positions and depths within 1e-4 × the pair's
// size (the smaller of the two shapes' extents), plus the few f32 ulps of the world coordinates.

const TOLERANCE = 1e-4;

interface Comparison {
  /** Pairs checked (every broadphase pair of the frame). */
  pairs: number;
  /** Pairs with contact points on either backend. */
  touching: number;
  mismatches: { pair: string; why: string }[];
}

async function compareBackends(gpu: Narrowphase, cpu: Narrowphase, scene: SceneJson2D): Promise<Comparison> {
  const flat = sweepAndPrune2D(parseScene2D(scene));
  const pairs: [number, number][] = [];
  for (let k = 0; k < flat.length; k += 2) pairs.push([flat[k]!, flat[k + 1]!]);
  const withPairs: SceneJson2D = { ...scene, pairs };
  const a = (await gpu.collide(withPairs)).manifolds;
  const b = (await cpu.collide(withPairs)).manifolds;
  const scales = pairs.map(([i, j]) => Math.min(shapes[i]!.extent, shapes[j]!.extent));
  const mismatches = compareManifolds2D(a, b, TOLERANCE, scales).map((m) => ({
    pair: m.index >= 0 ? `${pairs[m.index]![0]},${pairs[m.index]![1]}` : 'all',
    why: m.reason,
  }));
  const touching = a.filter((m, k) => m.points.length > 0 || (b[k]?.points.length ?? 0) > 0).length;
  return { pairs: pairs.length, touching, mismatches };
}

// ---------------------------------------------------------------------------------------------
// Backends and the frame loop.

let cpuNp: Narrowphase | null = null;
let gpuNp: Narrowphase | null = null;
let adapterName: string | null = null;

/** Serialises collides: a frame and a validation never run at the same time. */
let lock: Promise<unknown> = Promise.resolve();
function exclusive<T>(job: () => Promise<T>): Promise<T> {
  const run = lock.then(job);
  lock = run.catch(() => undefined);
  return run;
}

function activeBackend(): Narrowphase | null {
  if (useCpuBox.checked || !gpuNp) return cpuNp;
  return gpuNp;
}

let simTime = 0;
let lastNow: number | null = null;
let busy = false;
let stopped = false;
let currentPoses: Pose[] = posesAt(0);
let lastResult: CollideResult | null = null;
const frameTimes: number[] = [];

function formatMs(ms: number | null): string {
  return ms === null ? 'n/a' : ms < 10 ? ms.toFixed(3) : ms.toFixed(1);
}

function updateStats(result: CollideResult): void {
  const now = performance.now();
  frameTimes.push(now);
  while (frameTimes.length > 0 && now - frameTimes[0]! > 1000) frameTimes.shift();
  const backend = result.stats.backend;
  const adapter = backend === 'gpu' ? (adapterName ?? result.stats.adapter) : 'cpu reference (TypeScript)';
  const parts = [
    `backend ${backend}${backend === 'cpu' && !gpuNp ? ' (no WebGPU)' : ''}`,
    `adapter ${adapter}`,
    `pairs ${result.stats.pairs}`,
    `manifolds ${demo.manifolds}`,
    `contacts ${demo.contacts}`,
    `${backend === 'gpu' ? 'kernel' : 'compute'} ${formatMs(result.stats.computeMs)} ms`,
    `wall ${formatMs(result.stats.wallMs)} ms`,
    `frame ${demo.frames}`,
    `${frameTimes.length} fps`,
  ];
  statsEl.textContent = parts.join('  ·  ');
}

async function step(): Promise<void> {
  const np = activeBackend();
  if (!np) return;
  const poses = posesAt(simTime);
  const result = await np.collide(sceneAt(poses));
  currentPoses = poses;
  lastResult = result;
  demo.frames++;
  demo.backend = result.stats.backend;
  demo.pairs = result.stats.pairs;
  demo.manifolds = result.manifolds.filter((m) => m.points.length > 0).length;
  demo.contacts = result.manifolds.reduce((n, m) => n + m.points.length, 0);
  draw(poses, result);
  updateStats(result);
}

function frame(now: number): void {
  if (stopped) return;
  requestAnimationFrame(frame);
  // Simulation time follows the clock while running, in steps of at most 0.1 s (no jump after
  // the tab was hidden); the motion is a pure function of it.
  const dt = lastNow === null ? 0 : Math.min(0.1, (now - lastNow) / 1000);
  lastNow = now;
  if (pauseBox.checked) return;
  simTime += dt;
  if (busy) return;
  busy = true;
  exclusive(step)
    .catch((e: unknown) => {
      stopped = true;
      showError(`collide failed: ${messageOf(e)}`);
      console.error(e);
    })
    .finally(() => {
      busy = false;
    });
}

async function validate(): Promise<void> {
  if (!gpuNp || !cpuNp) return;
  validateButton.disabled = true;
  validationEl.className = 'validation';
  validationEl.textContent = 'validating…';
  try {
    const scene = sceneAt(currentPoses);
    const cmp = await exclusive(() => compareBackends(gpuNp!, cpuNp!, scene));
    demo.mismatches = cmp.mismatches.length;
    demo.validatedManifolds = cmp.touching;
    demo.validations++;
    const bad = cmp.mismatches.length > 0;
    validationEl.className = `validation ${bad ? 'bad' : 'ok'}`;
    validationEl.textContent = `${cmp.mismatches.length} mismatching of ${cmp.touching} manifolds (${cmp.pairs} pairs)`;
    validationEl.title = bad
      ? cmp.mismatches.slice(0, 10).map((m) => `pair ${m.pair}: ${m.why}`).join('\n')
      : `GPU and CPU agree on every pair: point count, ids, normal within ${TOLERANCE}, positions and depths within ${TOLERANCE} × size`;
  } catch (e) {
    showError(`validation failed: ${messageOf(e)}`);
    console.error(e);
  } finally {
    validateButton.disabled = false;
  }
}

/** Why WebGPU cannot be used here, in words for the page. */
function noWebGpuMessage(e: unknown): string {
  const hint =
    'Use a browser with WebGPU (Chrome/Edge 113+, Firefox 141+ on Windows, Safari 26); on Linux Chrome ' +
    'needs --enable-unsafe-webgpu (chrome://flags/#enable-unsafe-webgpu). Running the CPU reference instead.';
  if (!('gpu' in navigator) || !navigator.gpu) return `This browser has no WebGPU (navigator.gpu is undefined). ${hint}`;
  if (e instanceof NoAdapterError) return `WebGPU is present but no adapter is available (requestAdapter() returned null). ${hint}`;
  return `WebGPU could not be started (${messageOf(e)}). Running the CPU reference instead.`;
}

async function start(): Promise<void> {
  cpuNp = await createNarrowphase({ backend: 'cpu' });
  try {
    const acquired = await acquireDevice();
    const device = acquired.device;
    adapterName = acquired.adapter.name + (acquired.adapter.software ? ' (software)' : '');
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
    gpuNp = await createNarrowphase({ backend: 'gpu', device });
    demo.webgpu = true;
    demo.adapter = adapterName;
  } catch (e) {
    demo.webgpu = false;
    if (e instanceof NoAdapterError || !('gpu' in navigator) || !navigator.gpu) {
      showNotice(noWebGpuMessage(e));
    } else {
      // WebGPU is there but the library failed on it (e.g. a WGSL compile error): that is a bug.
      showNotice(noWebGpuMessage(e));
      showError(`GPU backend failed to start: ${messageOf(e)}`);
      console.error(e);
    }
    useCpuBox.checked = true;
    useCpuBox.disabled = true;
    validateButton.disabled = true;
    validateButton.title = 'validation compares the GPU backend with the CPU reference; it needs WebGPU';
  }
  draw(currentPoses, lastResult);
  requestAnimationFrame(frame);
}

useCpuBox.addEventListener('change', () => {
  statsEl.textContent = `switching to the ${useCpuBox.checked ? 'CPU reference' : 'GPU backend'}…`;
});
validateButton.addEventListener('click', () => void validate());
window.addEventListener('resize', () => draw(currentPoses, lastResult));

start().catch((e: unknown) => {
  showError(`demo failed to start: ${messageOf(e)}`);
  console.error(e);
});
