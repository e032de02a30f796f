// Seeded random 2D scenes for the GPU-vs-CPU and determinism tests.
//
// Everything here is reproducible from a seed (mulberry32: src/random2d.ts's `rng`) and builds
// plain scene JSON (`SceneJson2D`), so any failing pair can be printed as a self-contained scene.
// Coordinates, sizes and positions are rounded to f32 (Math.fround) when generated, so the scene
// holds exactly the numbers both backends receive after packing (only cos/sin of the angles are
// rounded later, by pack2d).
//
// Every pair gets its own two shapes and two bodies; `bothOrders` lists the pair as (a, b) and
// then (b, a), which exercises the swap paths (circle first, flipped reference faces).

import { rng as mulberry32 } from '../../src/random2d.ts';
import type { Body2DInput, SceneJson2D } from '../../src/scene.ts';
import type { Shape2DInput, Vec2 } from '../../src/shapes2d.ts';
import { localCore } from '../../src/validity2d.ts';
import { PairSceneBuilder, type PairTag } from './scene-builder.ts';

export type Rng = () => number;

/** mulberry32, src/random2d.ts's `rng`: a tiny, fast 32-bit PRNG; returns floats in [0, 1). */
export { mulberry32 };

const fr = Math.fround;

export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}

export function logUniform(rng: Rng, lo: number, hi: number): number {
  return Math.exp(uniform(rng, Math.log(lo), Math.log(hi)));
}

export function randInt(rng: Rng, lo: number, hiInclusive: number): number {
  return lo + Math.floor(rng() * (hiInclusive - lo + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!;
}

function rot(x: number, y: number, angle: number): Vec2 {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return [c * x - s * y, s * x + c * y];
}

// ---------------------------------------------------------------------------------------------
// Shapes. `size` is the shape's approximate extent (half its diameter).

/** Core vertices of a shape in its local frame, as its input describes them (CCW). */
export { localCore };

export function shapeRadius(shape: Shape2DInput): number {
  return shape.radius ?? 0;
}

/** Largest distance of the shape's surface from its local origin (for placing bodies). */
export function reach(shape: Shape2DInput): number {
  let r = 0;
  for (const v of localCore(shape)) r = Math.max(r, Math.hypot(v[0], v[1]));
  return r + shapeRadius(shape);
}

export function randomBox(rng: Rng, size: number, radius = 0): Shape2DInput {
  // half extents with aspect up to 1:4, scaled so the half-diagonal + radius is about `size`
  const core = size - radius;
  const t = uniform(rng, 0.25, 1);
  const hx = core / Math.hypot(1, t);
  const box: Shape2DInput = { type: 'box', halfExtents: [fr(hx), fr(hx * t)] };
  if (rng() < 0.5) box.halfExtents.reverse();
  if (radius > 0) box.radius = fr(radius);
  return box;
}

/** Turn sine at each vertex of a closed polygon; min over vertices (negative: not convex/CCW). */
export function minTurnSine(pts: readonly Vec2[]): number {
  const n = pts.length;
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % n]!;
    const c = pts[(i + 2) % n]!;
    const e1x = b[0] - a[0];
    const e1y = b[1] - a[1];
    const e2x = c[0] - b[0];
    const e2y = c[1] - b[1];
    min = Math.min(min, (e1x * e2y - e1y * e2x) / (Math.hypot(e1x, e1y) * Math.hypot(e2x, e2y)));
  }
  return min;
}

/**
 * A random convex polygon with 3..8 vertices (or exactly `n`), CCW: sorted random angles (one
 * per sector of 2π/n) on a randomly stretched and rotated ellipse, radially jittered, shifted off
 * the origin a little; near-collinear vertices (turn sine < 0.05), short edges (< 0.08 size) and
 * gaps over 0.9π are rejected and redrawn.
 */
export function randomPolygonVertices(rng: Rng, size: number, n = randInt(rng, 3, 8)): Vec2[] {
  for (;;) {
    const ea = size * uniform(rng, 0.55, 1);
    const eb = size * uniform(rng, 0.55, 1);
    const spin = uniform(rng, 0, 2 * Math.PI);
    // Stratified: one random angle in each of n equal sectors (sorted, never crowded).
    const angles = Array.from(
      { length: n },
      (_, i) => ((i + uniform(rng, 0.1, 0.9)) * 2 * Math.PI) / n,
    );
    let ok = true;
    for (let i = 0; i < n; i++) {
      const gap = i + 1 < n ? angles[i + 1]! - angles[i]! : angles[0]! + 2 * Math.PI - angles[i]!;
      if (gap > Math.PI * 0.9) ok = false;
    }
    if (!ok) continue;
    const ox = size * uniform(rng, -0.15, 0.15);
    const oy = size * uniform(rng, -0.15, 0.15);
    const pts: Vec2[] = angles.map((t) => {
      const j = uniform(rng, 0.9, 1);
      const p = rot(ea * Math.cos(t) * j, eb * Math.sin(t) * j, spin);
      return [fr(p[0] + ox), fr(p[1] + oy)];
    });
    let minEdge = Infinity;
    for (let i = 0; i < n; i++) {
      const a = pts[i]!;
      const b = pts[(i + 1) % n]!;
      minEdge = Math.min(minEdge, Math.hypot(b[0] - a[0], b[1] - a[1]));
    }
    if (minEdge < 0.08 * size || minTurnSine(pts) < 0.05) continue;
    return pts;
  }
}

export function randomPolygon(rng: Rng, size: number, radius = 0): Shape2DInput {
  const core = size - radius;
  const shape: Shape2DInput = { type: 'polygon', vertices: randomPolygonVertices(rng, core) };
  if (radius > 0) shape.radius = fr(radius);
  return shape;
}

export function randomCircle(rng: Rng, size: number): Shape2DInput {
  const c: Shape2DInput = { type: 'circle', radius: fr(size * uniform(rng, 0.6, 1)) };
  if (rng() < 0.3)
    c.center = [fr(size * uniform(rng, -0.2, 0.2)), fr(size * uniform(rng, -0.2, 0.2))];
  return c;
}

export function randomCapsule(rng: Rng, size: number): Shape2DInput {
  const radius = size * uniform(rng, 0.1, 0.5);
  const half = (size - radius) * uniform(rng, 0.5, 1);
  const dir = uniform(rng, 0, 2 * Math.PI);
  const off =
    rng() < 0.3 ? rot(size * uniform(rng, -0.1, 0.1), 0, uniform(rng, 0, 2 * Math.PI)) : [0, 0];
  const d = rot(half, 0, dir);
  return {
    type: 'capsule',
    a: [fr(off[0]! - d[0]), fr(off[1]! - d[1])],
    b: [fr(off[0]! + d[0]), fr(off[1]! + d[1])],
    radius: fr(radius),
  };
}

export type ShapeGen = 'box' | 'polygon' | 'rounded' | 'anyPolygon' | 'circle' | 'capsule';

/** A random shape of a generator family with extent about `size`. */
export function randomShape(rng: Rng, gen: ShapeGen, size: number): Shape2DInput {
  switch (gen) {
    case 'box':
      return randomBox(rng, size);
    case 'polygon':
      return randomPolygon(rng, size);
    case 'rounded': {
      const radius = size * uniform(rng, 0.03, 0.35);
      return rng() < 0.2 ? randomBox(rng, size, radius) : randomPolygon(rng, size, radius);
    }
    case 'anyPolygon': {
      const u = rng();
      if (u < 0.25) return randomBox(rng, size);
      if (u < 0.6) return randomPolygon(rng, size);
      return randomShape(rng, 'rounded', size);
    }
    case 'circle':
      return randomCircle(rng, size);
    case 'capsule':
      return randomCapsule(rng, size);
  }
}

// ---------------------------------------------------------------------------------------------
// Scenes.

export type { PairTag };

/** A 2D scene under construction: every pair has its own shapes and bodies. */
export class SceneBuilder extends PairSceneBuilder<Shape2DInput, Body2DInput> {
  addBody(shape: Shape2DInput, position: Vec2, angle: number): number {
    return this.addBodyOf(shape, { position: [fr(position[0]), fr(position[1])], angle });
  }

  /** Adds bodies for A and B and the pair (A, B), then (B, A) when `bothOrders`. */
  addPair(
    shapeA: Shape2DInput,
    posA: Vec2,
    angleA: number,
    shapeB: Shape2DInput,
    posB: Vec2,
    angleB: number,
    tag: PairTag,
    bothOrders = true,
  ): void {
    this.addPairOf(
      this.addBody(shapeA, posA, angleA),
      this.addBody(shapeB, posB, angleB),
      tag,
      bothOrders,
    );
  }

  scene(): SceneJson2D {
    return {
      dim: 2,
      margin: this.margin,
      shapes: this.shapes,
      bodies: this.bodies,
      pairs: this.pairs,
    };
  }
}

/** A self-contained scene JSON of pair k of `scene` (two shapes, two bodies, pair [0, 1]); 2D or 3D. */
export function pairScene<
  S extends {
    margin?: number;
    shapes: unknown[];
    bodies: { shape: number }[];
    pairs?: [number, number][];
  },
>(scene: S, k: number): S {
  const [a, b] = scene.pairs![k]!;
  const ba = scene.bodies[a]!;
  const bb = scene.bodies[b]!;
  return {
    ...scene,
    margin: scene.margin ?? 0,
    shapes: [scene.shapes[ba.shape]!, scene.shapes[bb.shape]!],
    bodies: [
      { ...ba, shape: 0 },
      { ...bb, shape: 1 },
    ],
    pairs: [[0, 1]],
  };
}

/**
 * Places B relative to A so that most pairs overlap or are within the margin: B's origin at a
 * random direction from A's, at a distance of u × (reach A + reach B) with u mostly in [0, 0.95)
 * and sometimes in [0.95, 1.25) (some of those are separated).
 */
function placeB(rng: Rng, shapeA: Shape2DInput, posA: Vec2, shapeB: Shape2DInput): Vec2 {
  const u = rng() < 0.85 ? uniform(rng, 0, 0.95) : uniform(rng, 0.95, 1.25);
  const d = u * (reach(shapeA) + reach(shapeB));
  const phi = uniform(rng, 0, 2 * Math.PI);
  return [posA[0] + d * Math.cos(phi), posA[1] + d * Math.sin(phi)];
}

/** The shape-pair types of the random sweeps and the generator family of each side. */
export const SWEEP_TYPES = {
  'box-box': ['box', 'box'],
  'polygon-polygon': ['polygon', 'polygon'],
  'rounded-polygon': ['rounded', 'anyPolygon'],
  'polygon-circle': ['anyPolygon', 'circle'],
  'polygon-capsule': ['anyPolygon', 'capsule'],
  'capsule-capsule': ['capsule', 'capsule'],
  'capsule-circle': ['capsule', 'circle'],
  'circle-circle': ['circle', 'circle'],
} as const satisfies Record<string, readonly [ShapeGen, ShapeGen]>;

export type SweepType = keyof typeof SWEEP_TYPES;

export interface SweepOptions {
  /** Geometric pairs; the scene has twice as many pairs with `bothOrders` (the default). */
  geometries: number;
  margin?: number;
  /** Shape extents are drawn from [0.5, 1.5] × scale; positions within ±20 × scale. */
  scale?: number;
  bothOrders?: boolean;
}

/** Random pairs of one shape-pair type, in both orders. */
export function sweepScene(type: SweepType, seed: number, opts: SweepOptions): SceneBuilder {
  const rng = mulberry32(seed);
  const scale = opts.scale ?? 1;
  const sb = new SceneBuilder(opts.margin ?? 0.05 * scale);
  const [genA, genB] = SWEEP_TYPES[type];
  for (let i = 0; i < opts.geometries; i++) {
    const shapeA = randomShape(rng, genA, scale * uniform(rng, 0.5, 1.5));
    const shapeB = randomShape(rng, genB, scale * uniform(rng, 0.5, 1.5));
    const posA: Vec2 = [scale * uniform(rng, -20, 20), scale * uniform(rng, -20, 20)];
    const posB = placeB(rng, shapeA, posA, shapeB);
    sb.addPair(
      shapeA,
      posA,
      uniform(rng, -Math.PI, Math.PI),
      shapeB,
      posB,
      uniform(rng, -Math.PI, Math.PI),
      { set: type },
      opts.bothOrders ?? true,
    );
  }
  return sb;
}

/** Every sweep type mixed, `geometries` pairs in all (for the determinism test). */
export function mixedScene(
  seed: number,
  geometries: number,
  margin = 0.05,
  bothOrders = false,
): SceneBuilder {
  const rng = mulberry32(seed);
  const types = Object.keys(SWEEP_TYPES) as SweepType[];
  const sb = new SceneBuilder(margin);
  for (let i = 0; i < geometries; i++) {
    const type = pick(rng, types);
    const [genA, genB] = SWEEP_TYPES[type];
    const shapeA = randomShape(rng, genA, uniform(rng, 0.5, 1.5));
    const shapeB = randomShape(rng, genB, uniform(rng, 0.5, 1.5));
    const posA: Vec2 = [uniform(rng, -20, 20), uniform(rng, -20, 20)];
    const swap = rng() < 0.5;
    const posB = placeB(rng, shapeA, posA, shapeB);
    const angA = uniform(rng, -Math.PI, Math.PI);
    const angB = uniform(rng, -Math.PI, Math.PI);
    if (swap)
      sb.addPair(
        shapeB,
        posB,
        angB,
        shapeA,
        posA,
        angA,
        { set: `mixed ${type} (B,A)` },
        bothOrders,
      );
    else sb.addPair(shapeA, posA, angA, shapeB, posB, angB, { set: `mixed ${type}` }, bothOrders);
  }
  return sb;
}

// ---------------------------------------------------------------------------------------------
// Adversarial sets.

/** Edge i of a local core polygon (n >= 2): its midpoint, outward unit normal and half length. */
function localEdge(core: readonly Vec2[], i: number): { mid: Vec2; normal: Vec2; half: number } {
  const a = core[i]!;
  const b = core[(i + 1) % core.length]!;
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len = Math.hypot(dx, dy);
  return {
    mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2],
    normal: [dy / len, -dx / len],
    half: len / 2,
  };
}

function polygonish(rng: Rng, size: number, rounded: boolean): Shape2DInput {
  const radius = rounded ? size * uniform(rng, 0.05, 0.3) : 0;
  return rng() < 0.4 ? randomBox(rng, size, radius) : randomPolygon(rng, size, radius);
}

/**
 * Faces exactly anti-parallel (in f64; the packed f32 cos/sin make them parallel to ~1e-8): B is
 * turned so one of its faces opposes a face of A, then moved to a gap of -0.2 .. +margin along
 * A's face normal, with a lateral offset so the faces partly or fully overlap. Angles are random
 * or aligned (A at a multiple of 90°). Boxes, polygons, rounded ones and capsules.
 */
export function parallelEdgesScene(seed: number, geometries: number, margin = 0.05): SceneBuilder {
  const rng = mulberry32(seed);
  const sb = new SceneBuilder(margin);
  const gaps = [-0.2, -0.05, -0.01, -1e-3, -1e-5, 0, 1e-5, 1e-3, 0.5 * margin, margin];
  for (let i = 0; i < geometries; i++) {
    const kindA = pick(rng, ['box', 'poly', 'rounded', 'capsule'] as const);
    const kindB = pick(rng, ['box', 'poly', 'rounded', 'capsule'] as const);
    const make = (k: typeof kindA): Shape2DInput =>
      k === 'capsule'
        ? randomCapsule(rng, uniform(rng, 0.5, 1.5))
        : polygonish(rng, uniform(rng, 0.5, 1.5), k === 'rounded');
    const shapeA = make(kindA);
    const shapeB = make(kindB);
    const coreA = localCore(shapeA);
    const coreB = localCore(shapeB);
    const ea = localEdge(coreA, randInt(rng, 0, coreA.length - 1));
    const eb = localEdge(coreB, randInt(rng, 0, coreB.length - 1));
    const angleA =
      rng() < 0.3 ? randInt(rng, -2, 2) * (Math.PI / 2) : uniform(rng, -Math.PI, Math.PI);
    const nA = rot(ea.normal[0], ea.normal[1], angleA);
    const angleB =
      angleA +
      Math.atan2(ea.normal[1], ea.normal[0]) -
      Math.atan2(eb.normal[1], eb.normal[0]) +
      Math.PI;
    const midA = rot(ea.mid[0], ea.mid[1], angleA);
    const midB = rot(eb.mid[0], eb.mid[1], angleB);
    const gap = pick(rng, gaps) + shapeRadius(shapeA) + shapeRadius(shapeB);
    const lateral = uniform(rng, -1, 1) * (ea.half + eb.half) * 0.9;
    const posA: Vec2 = [uniform(rng, -10, 10), uniform(rng, -10, 10)];
    const posB: Vec2 = [
      posA[0] + midA[0] + gap * nA[0] - nA[1] * lateral - midB[0],
      posA[1] + midA[1] + gap * nA[1] + nA[0] * lateral - midB[1],
    ];
    sb.addPair(shapeA, posA, angleA, shapeB, posB, angleB, {
      set: 'parallel-edges',
      note: `${kindA}/${kindB} gap ${gap}`,
    });
  }
  return sb;
}

/**
 * Exact touching with margin 0: angles 0 and small dyadic coordinates, so f32 and f64 compute
 * the same numbers and the surfaces meet at distance exactly 0 (faces, vertex on face, corner on
 * corner, circles, capsules, rounded boxes). Every pair here must have a contact of depth exactly 0.
 */
export function exactTouchingScene(seed: number, copies: number): SceneBuilder {
  const rng = mulberry32(seed);
  const sb = new SceneBuilder(0);
  // Dyadic sizes: multiples of 1/8 in [0.25, 2].
  const d = (): number => randInt(rng, 2, 16) / 8;
  const tag = (note: string): PairTag => ({ set: 'exact-touching', note });
  for (let i = 0; i < copies; i++) {
    const ox = randInt(rng, -64, 64) / 4;
    const oy = randInt(rng, -64, 64) / 4;
    const o: Vec2 = [ox, oy];
    const at = (x: number, y: number): Vec2 => [ox + x, oy + y];
    // box on box, face to face, B shifted sideways by a dyadic amount (partial face overlap)
    {
      const ha: Vec2 = [d(), d()];
      const hb: Vec2 = [d(), d()];
      const sx = randInt(rng, -4, 4) / 8;
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        { type: 'box', halfExtents: hb },
        at(sx, ha[1] + hb[1]),
        0,
        tag('box face on box face (+y)'),
      );
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        { type: 'box', halfExtents: hb },
        at(ha[0] + hb[0], sx),
        0,
        tag('box face on box face (+x)'),
      );
      // corner on corner
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        { type: 'box', halfExtents: hb },
        at(ha[0] + hb[0], ha[1] + hb[1]),
        0,
        tag('box corner on box corner'),
      );
      // rounded boxes face to face
      const ra = randInt(rng, 1, 4) / 16;
      const rb = randInt(rng, 1, 4) / 16;
      sb.addPair(
        { type: 'box', halfExtents: ha, radius: ra },
        o,
        0,
        { type: 'box', halfExtents: hb, radius: rb },
        at(-sx, -(ha[1] + hb[1] + ra + rb)),
        0,
        tag('rounded box face on rounded box face (-y)'),
      );
    }
    // diamond vertex on a box face (vertex exactly on an edge)
    {
      const ha: Vec2 = [d(), d()];
      const s = d();
      const diamond: Shape2DInput = {
        type: 'polygon',
        vertices: [
          [0, -s],
          [s, 0],
          [0, s],
          [-s, 0],
        ],
      };
      const x = (randInt(rng, -7, 7) / 8) * ha[0];
      const y = (randInt(rng, -7, 7) / 8) * ha[1];
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        diamond,
        at(x, ha[1] + s),
        0,
        tag('diamond vertex on box top face'),
      );
      // a triangle left of A, pointing right (+x), its tip on A's left face
      const tri: Shape2DInput = {
        type: 'polygon',
        vertices: [
          [0, -s],
          [s, 0],
          [0, s],
        ],
      };
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        tri,
        at(-ha[0] - s, y),
        0,
        tag('triangle vertex on box left face'),
      );
    }
    // circles: along an axis and along a 3-4-5 diagonal
    {
      const ra = d();
      const rb = d();
      sb.addPair(
        { type: 'circle', radius: ra },
        o,
        0,
        { type: 'circle', radius: rb },
        at(ra + rb, 0),
        0,
        tag('circle on circle (x)'),
      );
      const k = randInt(rng, 1, 4) / 4;
      sb.addPair(
        { type: 'circle', radius: 2 * k },
        o,
        0,
        { type: 'circle', radius: 3 * k },
        at(3 * k, 4 * k),
        0,
        tag('circle on circle (3-4-5)'),
      );
      const ha: Vec2 = [d(), d()];
      const x = (randInt(rng, -7, 7) / 8) * ha[0];
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        { type: 'circle', radius: rb },
        at(x, -(ha[1] + rb)),
        0,
        tag('circle on box bottom face'),
      );
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        { type: 'circle', radius: 5 * k },
        at(ha[0] + 3 * k, ha[1] + 4 * k),
        0,
        tag('circle on box corner (3-4-5)'),
      );
    }
    // capsules: side by side, end to end, on a box
    {
      const la = d();
      const lb = d();
      const ra = randInt(rng, 2, 8) / 16;
      const rb = randInt(rng, 2, 8) / 16;
      const ca: Shape2DInput = { type: 'capsule', a: [-la, 0], b: [la, 0], radius: ra };
      const cb: Shape2DInput = { type: 'capsule', a: [-lb, 0], b: [lb, 0], radius: rb };
      const sx = randInt(rng, -4, 4) / 8;
      sb.addPair(ca, o, 0, cb, at(sx, ra + rb), 0, tag('capsule side on capsule side'));
      sb.addPair(ca, o, 0, cb, at(la + lb + ra + rb, 0), 0, tag('capsule end on capsule end'));
      const ha: Vec2 = [d(), d()];
      sb.addPair(
        { type: 'box', halfExtents: ha },
        o,
        0,
        cb,
        at(sx, ha[1] + rb),
        0,
        tag('capsule side on box face'),
      );
      sb.addPair(
        ca,
        o,
        0,
        { type: 'circle', radius: rb },
        at(sx * la, -(ra + rb)),
        0,
        tag('circle on capsule side'),
      );
    }
  }
  return sb;
}

/**
 * A vertex exactly on (or within 1e-6 of) an edge, at arbitrary angles: a polygon vertex of B is
 * placed on a point of an edge of A computed in f64 (f32 rounding moves it by ~1e-7), the rest of
 * B outside A. With margin 0 and margin > 0.
 */
export function vertexOnEdgeScene(seed: number, geometries: number, margin: number): SceneBuilder {
  const rng = mulberry32(seed);
  const sb = new SceneBuilder(margin);
  for (let i = 0; i < geometries; i++) {
    const size = uniform(rng, 0.5, 1.5);
    const shapeA = polygonish(rng, size, rng() < 0.3);
    const shapeB = randomShape(
      rng,
      pick(rng, ['box', 'polygon', 'rounded'] as const),
      uniform(rng, 0.5, 1.5),
    );
    const coreA = localCore(shapeA);
    const coreB = localCore(shapeB);
    const ea = localEdge(coreA, randInt(rng, 0, coreA.length - 1));
    const angleA = rng() < 0.3 ? 0 : uniform(rng, -Math.PI, Math.PI);
    // B's vertex j, turned so that B lies on the outer side of A's edge: pick B's angle so the
    // bisector of vertex j's normal cone points against A's edge normal.
    const j = randInt(rng, 0, coreB.length - 1);
    const vj = coreB[j]!;
    const prev = localEdge(coreB, (j + coreB.length - 1) % coreB.length).normal;
    const next = localEdge(coreB, j).normal;
    const bis = [prev[0] + next[0], prev[1] + next[1]];
    // within the vertex's normal cone (exterior angle), so B's edges stay outside A's edge line
    const wobble =
      uniform(rng, -0.45, 0.45) *
      Math.acos(Math.max(-1, Math.min(1, prev[0] * next[0] + prev[1] * next[1])));
    const nA = rot(ea.normal[0], ea.normal[1], angleA);
    const angleB = Math.atan2(-nA[1], -nA[0]) - Math.atan2(bis[1]!, bis[0]!) + wobble;
    const t = uniform(rng, -0.95, 0.95) * ea.half;
    const onEdge = rot(ea.mid[0] - ea.normal[1] * t, ea.mid[1] + ea.normal[0] * t, angleA);
    const eps = pick(rng, [0, 0, 0, 1e-6, -1e-6]);
    const out = shapeRadius(shapeA) + shapeRadius(shapeB) + eps;
    const vjw = rot(vj[0], vj[1], angleB);
    const posA: Vec2 = [uniform(rng, -10, 10), uniform(rng, -10, 10)];
    const posB: Vec2 = [
      posA[0] + onEdge[0] + out * nA[0] - vjw[0],
      posA[1] + onEdge[1] + out * nA[1] - vjw[1],
    ];
    sb.addPair(shapeA, posA, angleA, shapeB, posB, angleB, {
      set: 'vertex-on-edge',
      note: `eps ${eps}`,
    });
  }
  return sb;
}

/** Deep penetration: B's origin on A's or off by 1e-7..1e-2 × size; identical shapes sometimes. */
export function deepPenetrationScene(
  seed: number,
  geometries: number,
  margin = 0.05,
): SceneBuilder {
  const rng = mulberry32(seed);
  const sb = new SceneBuilder(margin);
  const gens: ShapeGen[] = ['box', 'polygon', 'rounded', 'circle', 'capsule'];
  for (let i = 0; i < geometries; i++) {
    const shapeA = randomShape(rng, pick(rng, gens), uniform(rng, 0.5, 1.5));
    const identical = rng() < 0.25;
    const shapeB = identical ? shapeA : randomShape(rng, pick(rng, gens), uniform(rng, 0.5, 1.5));
    const posA: Vec2 = [uniform(rng, -10, 10), uniform(rng, -10, 10)];
    const off = pick(rng, [0, 0, 1e-7, 1e-5, 1e-3, 1e-2]);
    const phi = uniform(rng, 0, 2 * Math.PI);
    const posB: Vec2 = [posA[0] + off * Math.cos(phi), posA[1] + off * Math.sin(phi)];
    const angleA = rng() < 0.3 ? 0 : uniform(rng, -Math.PI, Math.PI);
    const angleB =
      identical && rng() < 0.5 ? angleA : rng() < 0.3 ? 0 : uniform(rng, -Math.PI, Math.PI);
    sb.addPair(identical ? { ...shapeA } : shapeA, posA, angleA, shapeB, posB, angleB, {
      set: 'deep',
      note: `offset ${off}${identical ? ' identical' : ''}`,
    });
  }
  return sb;
}

/** Angles k·π/2 ± 1e-7..1e-3 on both bodies, boxes/polygons/capsules stacked near contact. */
export function nearRightAnglesScene(
  seed: number,
  geometries: number,
  margin = 0.05,
): SceneBuilder {
  const rng = mulberry32(seed);
  const sb = new SceneBuilder(margin);
  const angle = (): number =>
    randInt(rng, -4, 4) * (Math.PI / 2) + (rng() < 0.5 ? -1 : 1) * logUniform(rng, 1e-7, 1e-3);
  for (let i = 0; i < geometries; i++) {
    const gA = pick(rng, ['box', 'box', 'polygon', 'rounded', 'capsule'] as const);
    const gB = pick(rng, ['box', 'box', 'polygon', 'rounded', 'capsule', 'circle'] as const);
    const shapeA = randomShape(rng, gA, uniform(rng, 0.5, 1.5));
    const shapeB = randomShape(rng, gB, uniform(rng, 0.5, 1.5));
    const posA: Vec2 = [uniform(rng, -10, 10), uniform(rng, -10, 10)];
    // B straight above/below/beside A (axis direction), near the sum of the extents along it.
    const axis = randInt(rng, 0, 3) * (Math.PI / 2);
    const dist = uniform(rng, 0.3, 1.05) * (reach(shapeA) + reach(shapeB));
    const posB: Vec2 = [posA[0] + dist * Math.cos(axis), posA[1] + dist * Math.sin(axis)];
    sb.addPair(shapeA, posA, angle(), shapeB, posB, angle(), {
      set: 'near-right-angles',
      note: `${gA}/${gB}`,
    });
  }
  return sb;
}

/** The random mix, every coordinate, size and the margin scaled by `scale` (1e-3 .. 1e3). */
export function scaledScene(seed: number, geometries: number, scale: number): SceneBuilder {
  const rng = mulberry32(seed);
  const types = Object.keys(SWEEP_TYPES) as SweepType[];
  const sb = new SceneBuilder(fr(0.05 * scale));
  for (let i = 0; i < geometries; i++) {
    const type = types[i % types.length]!;
    const [genA, genB] = SWEEP_TYPES[type];
    const shapeA = randomShape(rng, genA, scale * uniform(rng, 0.5, 1.5));
    const shapeB = randomShape(rng, genB, scale * uniform(rng, 0.5, 1.5));
    const posA: Vec2 = [scale * uniform(rng, -5, 5), scale * uniform(rng, -5, 5)];
    const posB = placeB(rng, shapeA, posA, shapeB);
    sb.addPair(
      shapeA,
      posA,
      uniform(rng, -Math.PI, Math.PI),
      shapeB,
      posB,
      uniform(rng, -Math.PI, Math.PI),
      { set: `scale ${scale}`, note: type },
    );
  }
  return sb;
}

/** The random mix far from the origin: positions ~1e3 (500 .. 2000 in each coordinate), shapes ~1. */
export function largeOffsetScene(seed: number, geometries: number, margin = 0.05): SceneBuilder {
  const rng = mulberry32(seed);
  const types = Object.keys(SWEEP_TYPES) as SweepType[];
  const sb = new SceneBuilder(margin);
  for (let i = 0; i < geometries; i++) {
    const type = types[i % types.length]!;
    const [genA, genB] = SWEEP_TYPES[type];
    const shapeA = randomShape(rng, genA, uniform(rng, 0.5, 1.5));
    const shapeB = randomShape(rng, genB, uniform(rng, 0.5, 1.5));
    const sx = rng() < 0.5 ? -1 : 1;
    const sy = rng() < 0.5 ? -1 : 1;
    const posA: Vec2 = [sx * uniform(rng, 500, 2000), sy * uniform(rng, 500, 2000)];
    const posB = placeB(rng, shapeA, posA, shapeB);
    sb.addPair(
      shapeA,
      posA,
      uniform(rng, -Math.PI, Math.PI),
      shapeB,
      posB,
      uniform(rng, -Math.PI, Math.PI),
      { set: 'large-offset', note: type },
    );
  }
  return sb;
}

/**
 * Capsules on one line: capsule–capsule end to end and circles on a capsule's axis beyond its
 * end, with end gaps from overlapping (−0.5 × the radii) to far apart (2), exactly collinear
 * (angle 0, multiples of 90°) or off by 1e-7..1e-3 rad. Their face normals (the capsules' sides)
 * see no separation at all: only the end-to-end axis tells the truth.
 */
export function collinearCapsulesScene(
  seed: number,
  geometries: number,
  margin = 0.05,
): SceneBuilder {
  const rng = mulberry32(seed);
  const sb = new SceneBuilder(margin);
  for (let i = 0; i < geometries; i++) {
    const la = randInt(rng, 2, 12) / 8;
    const ra = randInt(rng, 2, 8) / 16;
    const a: Shape2DInput = { type: 'capsule', a: [-la, 0], b: [la, 0], radius: ra };
    const withCircle = rng() < 0.4;
    const lb = randInt(rng, 2, 12) / 8;
    const rb = randInt(rng, 2, 8) / 16;
    const b: Shape2DInput = withCircle
      ? { type: 'circle', radius: rb }
      : { type: 'capsule', a: [-lb, 0], b: [lb, 0], radius: rb };
    const R = ra + rb;
    const gap = pick(rng, [-0.5 * R, -0.1 * R, -1e-3, 0, 0.5 * margin, 2 * margin, 1, 2]);
    const exact = rng() < 0.5;
    const base = randInt(rng, -2, 2) * (Math.PI / 2);
    const tilt = exact ? 0 : (rng() < 0.5 ? -1 : 1) * logUniform(rng, 1e-7, 1e-3);
    const angleA = exact ? (rng() < 0.5 ? 0 : base) : base + tilt;
    const angleB = exact ? angleA : angleA + (rng() < 0.5 ? 0 : tilt);
    const dist = la + (withCircle ? 0 : lb) + R + gap;
    const side = rng() < 0.5 ? 1 : -1;
    const posA: Vec2 =
      exact && angleA === 0
        ? [randInt(rng, -40, 40) / 4, randInt(rng, -40, 40) / 4]
        : [uniform(rng, -10, 10), uniform(rng, -10, 10)];
    const posB: Vec2 = [
      posA[0] + side * dist * Math.cos(angleA),
      posA[1] + side * dist * Math.sin(angleA),
    ];
    sb.addPair(a, posA, angleA, b, posB, angleB, {
      set: 'collinear-capsules',
      note: `${withCircle ? 'circle on capsule axis' : 'capsule end to capsule end'}, gap ${gap}, tilt ${tilt}`,
    });
  }
  return sb;
}
