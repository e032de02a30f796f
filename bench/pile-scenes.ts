// The pile benchmark's scenes (bench/pile.ts in Node, bench.html in the browsers): boxes on a
// square block in 2D, boxes in layers in 3D (`bricks` or `block`); see bench/pile.ts's header. And
// how warm frames move them: a settled pile's wobble, the same poses for every contender.

import { packBodies3D, packScene3D, type Packed3D } from '../src/pack3d.ts';
import { rng } from '../src/random2d.ts';
import type { Scene2D, Scene3D } from '../src/scene.ts';
import { makeShape3D } from '../src/shapes3d.ts';
import { packBodies2D, packScene2D, type Packed2D } from '../src/pack2d.ts';
import { makeShape2D, type Shape2DInput, type Vec2 } from '../src/shapes2d.ts';
import type { ShapeKindName2D } from '../src/shape-kinds2d.ts';
import type { ShapeKindName3D } from '../src/shape-kinds3d.ts';

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
  /** The kinds of the pool's shapes: a frame for this pile compiles the pair classes they form. */
  kinds: ShapeKindName2D[];
  scene: Scene2D;
  /** Shapes and bodies packed once (the GPU uploads them once; the CPU path reads them). */
  packed: Packed2D;
}

function hexagon(random: () => number): Vec2[] {
  const r = 0.5 + 0.03 * random();
  const phase = (Math.PI / 3) * random();
  return Array.from(
    { length: 6 },
    (_, k) =>
      [r * Math.cos(phase + (k * Math.PI) / 3), r * Math.sin(phase + (k * Math.PI) / 3)] as Vec2,
  );
}

/** `n` bodies on a ⌈√n⌉-wide block, row by row. */
export function makePile2D(n: number, mixed = false, seed = 0x9117): Pile2D {
  const random = rng(seed);
  const shapes: Shape2DInput[] = Array.from({ length: 16 }, () => ({
    type: 'box',
    halfExtents: [0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as Vec2,
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
    bodyShape[i] =
      mixed && random() < MIXED_FRACTION
        ? 16 + Math.floor(8 * random())
        : Math.floor(16 * random());
    bodyPosition[2 * i] = SPACING * (i % w) + JITTER * (2 * random() - 1);
    bodyPosition[2 * i + 1] = SPACING * Math.floor(i / w) + JITTER * (2 * random() - 1);
    bodyAngle[i] = TURN * (2 * random() - 1);
  }
  const scene: Scene2D = {
    dim: 2,
    margin: PILE_MARGIN,
    shapes: parsed,
    bodyShape,
    bodyPosition,
    bodyAngle,
    pairs: null,
  };
  return {
    bodies: n,
    shapes,
    kinds: pileKinds2D(mixed),
    scene,
    packed: packScene2D(scene, new Uint32Array(0)),
  };
}

/** The shape kinds of a 2D pile (makePile2D with `mixed` or not). */
export function pileKinds2D(mixed: boolean): ShapeKindName2D[] {
  return mixed ? ['box', 'circle', 'polygon'] : ['box'];
}

export interface Pile3D {
  bodies: number;
  layout: Pile3DLayout;
  /** Half extents per shape (16 boxes). */
  halfExtents: [number, number, number][];
  /** The kinds of its shapes (boxes): a frame for this pile compiles the pair classes they form. */
  kinds: ShapeKindName3D[];
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
/** The shape kinds of a 3D pile (boxes only). */
export const PILE_KINDS_3D: readonly ShapeKindName3D[] = ['box'];
export const PILE_3D_LAYOUTS: readonly Pile3DLayout[] = ['bricks', 'block'];

/**
 * `n` boxes (⌈∛n⌉ wide and deep, layer by layer along y), turned a little about random axes:
 * `bricks`, every other layer shifted half a spacing in x and z and side neighbours apart, so each
 * box rests on the 4 below; `block`, a cubic block with every neighbour pressing (see the header).
 */
export function makePile3D(n: number, layout: Pile3DLayout = 'bricks', seed = 0x3117): Pile3D {
  const random = rng(seed);
  const halfExtents = Array.from(
    { length: 16 },
    () =>
      [0.47 + 0.04 * random(), 0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as [
        number,
        number,
        number,
      ],
  );
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
  const scene: Scene3D = {
    dim: 3,
    margin: PILE_MARGIN,
    shapes,
    bodyShape,
    bodyPosition: position,
    bodyRotation: rotation,
    pairs: null,
  };
  return {
    bodies: n,
    layout,
    halfExtents,
    kinds: [...PILE_KINDS_3D],
    bodyShape,
    position,
    rotation,
    scene,
    packed: packScene3D(scene, new Uint32Array(0)),
  };
}

/**
 * How warm frames move the bodies: `wobble`, each frame every body sits a little off where it was
 * built (a settled pile's wobble: what a resting pile's frame sees); `still`, every body back where
 * it was built (each frame the same scene).
 */
export type PileMotion = 'wobble' | 'still';
/** Wobble: along each axis a body sits up to this far from its built position (m; 1e-3 of the ~1 m boxes). */
export const WOBBLE_OFFSET = 1e-3;
/** Wobble: and turned up to this far (rad) from its built orientation (2D: either way; 3D: about a random axis). */
export const WOBBLE_ANGLE = 1e-3;
/** Seeds of the wobble (frame k draws from rng(WOBBLE_SEED + k)). */
const WOBBLE_SEED = 0x50b1e;

/** The 2D pile's poses in frame `frame` (0: as built; warm frames 1, 2, …). */
export function pilePoses2D(
  pile: Pile2D,
  frame: number,
  motion: PileMotion,
): Pick<Scene2D, 'bodyShape' | 'bodyPosition' | 'bodyAngle'> {
  const { bodyShape, bodyPosition, bodyAngle } = pile.scene;
  if (motion === 'still' || frame === 0) return { bodyShape, bodyPosition, bodyAngle };
  const random = rng(WOBBLE_SEED + frame);
  const position = new Float64Array(bodyPosition.length);
  const angle = new Float64Array(bodyAngle.length);
  for (let i = 0; i < pile.bodies; i++) {
    position[2 * i] = bodyPosition[2 * i]! + WOBBLE_OFFSET * (2 * random() - 1);
    position[2 * i + 1] = bodyPosition[2 * i + 1]! + WOBBLE_OFFSET * (2 * random() - 1);
    angle[i] = bodyAngle[i]! + WOBBLE_ANGLE * (2 * random() - 1);
  }
  return { bodyShape, bodyPosition: position, bodyAngle: angle };
}

/** The 3D pile's poses in frame `frame` (0: as built; warm frames 1, 2, …): positions, unit quaternions (x, y, z, w). */
export function pilePoses3D(
  pile: Pile3D,
  frame: number,
  motion: PileMotion,
): { position: Float64Array; rotation: Float64Array } {
  if (motion === 'still' || frame === 0)
    return { position: pile.position, rotation: pile.rotation };
  const random = rng(WOBBLE_SEED + frame);
  const position = new Float64Array(pile.position.length);
  const rotation = new Float64Array(pile.rotation.length);
  const p = pile.position;
  const q = pile.rotation;
  for (let i = 0; i < pile.bodies; i++) {
    for (let k = 0; k < 3; k++)
      position[3 * i + k] = p[3 * i + k]! + WOBBLE_OFFSET * (2 * random() - 1);
    // A turn of up to WOBBLE_ANGLE about an axis uniform on the sphere, applied after the built one.
    const z = 2 * random() - 1;
    const t = 2 * Math.PI * random();
    const r = Math.sqrt(1 - z * z);
    const half = (WOBBLE_ANGLE * random()) / 2;
    const sh = Math.sin(half);
    const dx = r * Math.cos(t) * sh,
      dy = r * Math.sin(t) * sh,
      dz = z * sh,
      dw = Math.cos(half);
    const qx = q[4 * i]!,
      qy = q[4 * i + 1]!,
      qz = q[4 * i + 2]!,
      qw = q[4 * i + 3]!;
    rotation[4 * i] = dw * qx + dx * qw + dy * qz - dz * qy;
    rotation[4 * i + 1] = dw * qy - dx * qz + dy * qw + dz * qx;
    rotation[4 * i + 2] = dw * qz + dx * qy - dy * qx + dz * qw;
    rotation[4 * i + 3] = dw * qw - dx * qx - dy * qy - dz * qz;
  }
  return { position, rotation };
}

/** The Body2D bytes of the pile at `poses` (pilePoses2D; the built poses: the bytes packed once). */
export function pileBodies2D(pile: Pile2D, poses: ReturnType<typeof pilePoses2D>): ArrayBuffer {
  return poses.bodyPosition === pile.scene.bodyPosition ? pile.packed.bodies : packBodies2D(poses);
}

/** The Body3D bytes of the pile at `poses` (pilePoses3D; the built poses: the bytes packed once). */
export function pileBodies3D(pile: Pile3D, poses: ReturnType<typeof pilePoses3D>): ArrayBuffer {
  if (poses.position === pile.position) return pile.packed.bodies;
  return packBodies3D({
    bodyShape: pile.bodyShape,
    bodyPosition: poses.position,
    bodyRotation: poses.rotation,
  });
}

/** What runGpuFrame writes before each warm frame: the pile's bodies (none when still: they stay). */
export function bodiesAt2D(
  pile: Pile2D,
  motion: PileMotion,
): ((frame: number) => ArrayBuffer) | undefined {
  return motion === 'still' ? undefined : (k) => pileBodies2D(pile, pilePoses2D(pile, k, motion));
}

export function bodiesAt3D(
  pile: Pile3D,
  motion: PileMotion,
): ((frame: number) => ArrayBuffer) | undefined {
  return motion === 'still' ? undefined : (k) => pileBodies3D(pile, pilePoses3D(pile, k, motion));
}
