// Without WebGPU: a small 2D scene (a few dozen shapes on slow deterministic orbits) collided by
// the library's CPU reference (`createNarrowphase({ backend: 'cpu' })`) and drawn on a 2D canvas,
// so the page still shows what the library computes. The notice above says why.

import { createNarrowphase, type CollideResult, type Narrowphase } from '../src/narrowphase.ts';
import { randomShapePool2D } from './scenes/shapes2d.ts';
import { rng } from '../src/random2d.ts';
import type { SceneJson2D } from '../src/scene.ts';
import { makeShape2D, type Shape2D, type Vec2 } from '../src/shapes2d.ts';
import { demo, messageOf, showError } from './state.ts';

const COLS = 8;
const ROWS = 5;
const SPACING = 2;
const WORLD_W = COLS * SPACING + 1.2;
const WORLD_H = ROWS * SPACING + 1.2;
const MARGIN = 0.05;
const COLOURS = ['#a77cf2', '#4f8ff7', '#3fc1a5', '#f2a541'];

interface Mover {
  cx: number;
  cy: number;
  orbit: number;
  omega: number;
  phase: number;
  angle0: number;
  spin: number;
}

const random = rng(20240607);
const between = (lo: number, hi: number): number => lo + (hi - lo) * random();
const shapeInputs = randomShapePool2D(random, COLS * ROWS, 1);
const shapes: Shape2D[] = shapeInputs.map((s, i) => makeShape2D(s, i));
const movers: Mover[] = shapes.map((_, i) => ({
  cx: ((i % COLS) - (COLS - 1) / 2) * SPACING,
  cy: (Math.floor(i / COLS) - (ROWS - 1) / 2) * SPACING,
  orbit: between(0.5, 0.9),
  omega: between(0.25, 0.5) * (random() < 0.5 ? -1 : 1),
  phase: between(0, 2 * Math.PI),
  angle0: between(0, 2 * Math.PI),
  spin: between(0.15, 0.5) * (random() < 0.5 ? -1 : 1),
}));

function sceneAt(t: number): SceneJson2D {
  return {
    dim: 2,
    margin: MARGIN,
    shapes: shapeInputs,
    bodies: movers.map((m, i) => ({
      shape: i,
      position: [
        m.cx + m.orbit * Math.cos(m.omega * t + m.phase),
        m.cy + 0.8 * m.orbit * Math.sin(m.omega * t + m.phase),
      ] as Vec2,
      angle: m.angle0 + m.spin * t,
    })),
  };
}

/** Traces a rounded convex polygon (circle, capsule, polygon) in world coordinates. */
function trace(
  ctx: CanvasRenderingContext2D,
  shape: Shape2D,
  x: number,
  y: number,
  angle: number,
): void {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const vx = (i: number): number => x + c * shape.vertices[2 * i]! - s * shape.vertices[2 * i + 1]!;
  const vy = (i: number): number => y + s * shape.vertices[2 * i]! + c * shape.vertices[2 * i + 1]!;
  const n = shape.count;
  ctx.beginPath();
  if (n === 1) {
    ctx.arc(vx(0), vy(0), shape.radius, 0, 2 * Math.PI);
    return;
  }
  // Minkowski sum with a disc: an arc around each vertex from the previous edge's normal to the next's.
  for (let i = 0; i < n; i++) {
    const p = (i + n - 1) % n;
    const [nx0, ny0, nx1, ny1] = [
      shape.normals[2 * p]!,
      shape.normals[2 * p + 1]!,
      shape.normals[2 * i]!,
      shape.normals[2 * i + 1]!,
    ];
    let turn = Math.atan2(nx0 * ny1 - ny0 * nx1, nx0 * nx1 + ny0 * ny1);
    if (turn <= 0) turn += 2 * Math.PI;
    const a0 = Math.atan2(ny0, nx0) + angle;
    ctx.arc(vx(i), vy(i), shape.radius, a0, a0 + turn, false);
  }
  ctx.closePath();
}

function draw(
  canvas: HTMLCanvasElement,
  ctx: CanvasRenderingContext2D,
  scene: SceneJson2D,
  result: CollideResult,
): void {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(canvas.clientWidth * dpr));
  canvas.height = Math.max(1, Math.round(canvas.clientHeight * dpr));
  const scale = Math.min(canvas.width / WORLD_W, canvas.height / WORLD_H);
  ctx.setTransform(scale, 0, 0, -scale, canvas.width / 2, canvas.height / 2);
  const px = dpr / scale;
  ctx.lineWidth = 1.5 * px;
  scene.bodies.forEach((b, i) => {
    const colour = COLOURS[shapes[i]!.kind] ?? '#ccc';
    trace(ctx, shapes[i]!, b.position[0], b.position[1], b.angle ?? 0);
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = colour;
    ctx.stroke();
  });
  for (const m of result.manifolds) {
    for (const p of m.points) {
      const [x, y] = p.position as [number, number];
      ctx.strokeStyle = '#f5f7fa';
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + 0.4 * m.normal[0]!, y + 0.4 * m.normal[1]!);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x, y, 3.2 * px, 0, 2 * Math.PI);
      ctx.fillStyle = p.depth > 0 ? '#ff4d4d' : '#ffb020';
      ctx.fill();
    }
  }
}

export function startFallback(canvas: HTMLCanvasElement, statsEl: HTMLElement): void {
  canvas.hidden = false;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('this browser has no 2D canvas context');
  const ctx = context;
  let np: Narrowphase | null = null;
  let t = 0;
  const tick = async (): Promise<void> => {
    np ??= await createNarrowphase({ backend: 'cpu' });
    const scene = sceneAt(t);
    t += 1 / 60;
    const result = await np.collide(scene);
    demo.frames++;
    demo.bodies = scene.bodies.length;
    demo.pairs = result.stats.pairs;
    demo.contacts = result.manifolds.filter((m) => m.points.length > 0).length;
    draw(canvas, ctx, scene, result);
    statsEl.textContent = `CPU reference (no WebGPU) · bodies ${demo.bodies} · pairs ${demo.pairs} · contacts ${demo.contacts} · collide ${result.stats.wallMs.toFixed(2)} ms · frame ${demo.frames}`;
    requestAnimationFrame(() => void tick().catch(fail));
  };
  const fail = (e: unknown): void => {
    showError(`CPU fallback failed: ${messageOf(e)}`);
    console.error(e);
  };
  tick().catch(fail);
}
