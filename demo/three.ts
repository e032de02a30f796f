// three.html: the three.js embedding (demo/three-world.ts) with a container of falling boxes and
// hulls, and the stats line (bodies, contacts, frame time). `window.__three` is what the browser
// tests read (test/browser-pages.test.ts).

import { rng } from '../src/random2d.ts';
import { randomHullPoints3D } from '../src/random3d.ts';
import type { Shape3DInput } from '../src/shapes3d.ts';
import type { WorldBody3D } from '../src/solver/index.ts';
import { intParam, pageDevice, pageFailed, pageState } from './page.ts';
import { element } from './state.ts';
import { createThreeWorld } from './three-world.ts';

const state = pageState('__three', {
  bodies: 0,
  frames: 0,
  contacts: 0,
  frameMs: null as number | null,
  firstFrameMs: null as number | null,
});
const DT = 1 / 60;
const HALF = 4; // container half width
const WALL = 1.2; // container wall half height
const SHAPE_KINDS = 6; // 3 boxes and 3 hulls

/** The container (static floor and walls, shape 0 and 1), then `n` bodies over the box and hull shapes above it. */
function sceneOf(n: number, seed: number): { shapes: Shape3DInput[]; bodies: WorldBody3D[] } {
  const random = rng(seed);
  const shapes: Shape3DInput[] = [
    { type: 'box', halfExtents: [HALF + 0.5, 0.5, HALF + 0.5] },
    { type: 'box', halfExtents: [0.25, WALL, HALF + 0.5] },
    { type: 'box', halfExtents: [HALF + 0.5, WALL, 0.25] },
  ];
  for (let k = 0; k < SHAPE_KINDS / 2; k++)
    shapes.push({
      type: 'box',
      halfExtents: [0.2 + 0.15 * random(), 0.2 + 0.15 * random(), 0.2 + 0.15 * random()],
    });
  for (let k = 0; k < SHAPE_KINDS / 2; k++)
    shapes.push({ type: 'hull', vertices: randomHullPoints3D(random, 12, 0.35) });
  const bodies: WorldBody3D[] = [
    { shape: 0, position: [0, -0.5, 0], density: 0 },
    { shape: 1, position: [-HALF - 0.25, WALL, 0], density: 0 },
    { shape: 1, position: [HALF + 0.25, WALL, 0], density: 0 },
    { shape: 2, position: [0, WALL, -HALF - 0.25], density: 0 },
    { shape: 2, position: [0, WALL, HALF + 0.25], density: 0 },
  ];
  const side = Math.max(1, Math.floor(2 * HALF - 1));
  for (let i = 0; i < n; i++) {
    const layer = Math.floor(i / (side * side));
    const cell = i % (side * side);
    bodies.push({
      shape: 3 + (i % SHAPE_KINDS),
      position: [
        -HALF + 1 + (cell % side) + 0.2 * random(),
        1 + 0.9 * layer,
        -HALF + 1 + Math.floor(cell / side) + 0.2 * random(),
      ],
      rotation: (() => {
        const [x, y, z] = [random() - 0.5, random() - 0.5, random() - 0.5];
        const w = 1;
        const l = Math.hypot(x, y, z, w);
        return [x / l, y / l, z / l, w / l] as [number, number, number, number];
      })(),
    });
  }
  // One instanced draw per shape: the bodies of a shape together.
  bodies.sort((a, b) => a.shape - b.shape);
  return { shapes, bodies };
}

async function start(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const n = intParam(params, 'bodies', 300);
  const seed = intParam(params, 'seed', 7);
  const { device } = await pageDevice(state);
  const canvas = element<HTMLCanvasElement>('view');
  canvas.width = Math.max(1, canvas.clientWidth * (window.devicePixelRatio || 1));
  canvas.height = Math.max(1, canvas.clientHeight * (window.devicePixelRatio || 1));
  const { shapes, bodies } = sceneOf(n, seed);
  const stats = element<HTMLDivElement>('stats');
  stats.textContent = `compiling the world's kernels and three.js's pipelines for ${bodies.length} bodies…`;
  const t0 = performance.now();
  const three = await createThreeWorld(canvas, device, shapes, bodies);
  state.bodies = bodies.length;
  const recent: number[] = [];
  const loop = async (): Promise<void> => {
    const t = performance.now();
    state.contacts = await three.frame(DT);
    const ms = performance.now() - t;
    state.frames++;
    state.firstFrameMs ??= performance.now() - t0;
    recent.push(ms);
    if (recent.length > 30) recent.shift();
    state.frameMs = recent.reduce((a, b) => a + b, 0) / recent.length;
    stats.textContent =
      `three.js r${(await import('three/webgpu')).REVISION} WebGPURenderer + GpuWorld3D on one device · ${state.adapter}\n` +
      `bodies ${state.bodies} · contacts ${state.contacts} · frame ${state.frames} · frame ${state.frameMs.toFixed(1)} ms`;
    requestAnimationFrame(() => void loop().catch((e: unknown) => pageFailed(state, e)));
  };
  await loop();
}

start().catch((e: unknown) => pageFailed(state, e));
