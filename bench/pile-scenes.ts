// The pile benchmark's scenes (bench/pile.ts in Node, bench.html in the browsers): boxes on a
// square block in 2D, boxes in layers in 3D (`bricks` or `block`); see bench/pile.ts's header.

import { packScene3D, type Packed3D } from '../src/pack3d.ts';
import { rng } from '../src/random2d.ts';
import type { Scene2D, Scene3D } from '../src/scene.ts';
import { makeShape3D } from '../src/shapes3d.ts';
import { packScene2D, type Packed2D } from '../src/pack2d.ts';
import { makeShape2D, type Shape2DInput, type Vec2 } from '../src/shapes2d.ts';

const SPACING = 0.96;
/** Bricks layout: centre spacing within a layer (boxes are 0.94–1.02 wide: side gaps of 0.04 or more, over the margin). */
const BRICK_SPACING = 1.06;
const JITTER = 0.01;
const TURN = 0.04; // radians, either way
/** Margin of every pile (rapier's prediction distance is set to the same). */
export const PILE_MARGIN = 0.02;
const MIXED_FRACTION = 0.05;

export interface Pile2D {
  bodies: number;
  /** Shape pool: 16 boxes, then (with `mixed`) 4 circles and 4 hexagons. */
  shapes: Shape2DInput[];
  scene: Scene2D;
  /** Shapes and bodies packed once (the GPU uploads them once; the CPU path reads them). */
  packed: Packed2D;
}

function hexagon(random: () => number): Vec2[] {
  const r = 0.5 + 0.03 * random();
  const phase = (Math.PI / 3) * random();
  return Array.from({ length: 6 }, (_, k) => [r * Math.cos(phase + (k * Math.PI) / 3), r * Math.sin(phase + (k * Math.PI) / 3)] as Vec2);
}

/** `n` bodies on a ⌈√n⌉-wide block, row by row. */
export function makePile2D(n: number, mixed = false, seed = 0x9117): Pile2D {
  const random = rng(seed);
  const shapes: Shape2DInput[] = Array.from({ length: 16 }, () => ({
    type: 'box', halfExtents: [0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as Vec2,
  }));
  if (mixed) {
    for (let k = 0; k < 4; k++) shapes.push({ type: 'circle', radius: 0.47 + 0.03 * random() });
    for (let k = 0; k < 4; k++) shapes.push({ type: 'polygon', vertices: hexagon(random) });
  }
  const parsed = shapes.map((s, i) => makeShape2D(s, i));
  const w = Math.ceil(Math.sqrt(n));
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(2 * n);
  const bodyAngle = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    bodyShape[i] = mixed && random() < MIXED_FRACTION ? 16 + Math.floor(8 * random()) : Math.floor(16 * random());
    bodyPosition[2 * i] = SPACING * (i % w) + JITTER * (2 * random() - 1);
    bodyPosition[2 * i + 1] = SPACING * Math.floor(i / w) + JITTER * (2 * random() - 1);
    bodyAngle[i] = TURN * (2 * random() - 1);
  }
  const scene: Scene2D = { dim: 2, margin: PILE_MARGIN, shapes: parsed, bodyShape, bodyPosition, bodyAngle, pairs: null };
  return { bodies: n, shapes, scene, packed: packScene2D(scene, new Uint32Array(0)) };
}

export interface Pile3D {
  bodies: number;
  layout: Pile3DLayout;
  /** Half extents per shape (16 boxes). */
  halfExtents: [number, number, number][];
  bodyShape: Uint32Array;
  /** x, y, z per body. */
  position: Float64Array;
  /** x, y, z, w per body (unit). */
  rotation: Float64Array;
  /** The same bodies as our scene, packed once (the GPU uploads them once). */
  scene: Scene3D;
  packed: Packed3D;
}

export type Pile3DLayout = 'bricks' | 'block';
export const PILE_3D_LAYOUTS: readonly Pile3DLayout[] = ['bricks', 'block'];

/**
 * `n` boxes (⌈∛n⌉ wide and deep, layer by layer along y), turned a little about random axes:
 * `bricks`, every other layer shifted half a spacing in x and z and side neighbours apart, so each
 * box rests on the 4 below; `block`, a cubic block with every neighbour pressing (see the header).
 */
export function makePile3D(n: number, layout: Pile3DLayout = 'bricks', seed = 0x3117): Pile3D {
  const random = rng(seed);
  const halfExtents = Array.from({ length: 16 }, () =>
    [0.47 + 0.04 * random(), 0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as [number, number, number]);
  const w = Math.ceil(Math.cbrt(n));
  const bodyShape = new Uint32Array(n);
  const position = new Float64Array(3 * n);
  const rotation = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    bodyShape[i] = Math.floor(16 * random());
    const level = Math.floor(i / (w * w));
    const h = layout === 'bricks' ? BRICK_SPACING : SPACING;
    const shift = layout === 'bricks' && level % 2 === 1 ? h / 2 : 0;
    position[3 * i] = h * (i % w) + shift + JITTER * (2 * random() - 1);
    position[3 * i + 1] = SPACING * level + JITTER * (2 * random() - 1); // layers along y (up)
    position[3 * i + 2] = h * (Math.floor(i / w) % w) + shift + JITTER * (2 * random() - 1);
    // Axis uniform on the sphere, angle within ±TURN.
    const z = 2 * random() - 1;
    const t = 2 * Math.PI * random();
    const s = Math.sqrt(1 - z * z);
    const half = (TURN * (2 * random() - 1)) / 2;
    const sh = Math.sin(half);
    rotation.set([s * Math.cos(t) * sh, s * Math.sin(t) * sh, z * sh, Math.cos(half)], 4 * i);
  }
  const shapes = halfExtents.map((h, i) => makeShape3D({ type: 'box', halfExtents: h }, i));
  const scene: Scene3D = { dim: 3, margin: PILE_MARGIN, shapes, bodyShape, bodyPosition: position, bodyRotation: rotation, pairs: null };
  return { bodies: n, layout, halfExtents, bodyShape, position, rotation, scene, packed: packScene3D(scene, new Uint32Array(0)) };
}

