// Benchmark scenes: N pairs of overlapping or nearly touching 2D shapes, the kind of pair list a
// broadphase hands a narrowphase.
//
// Bodies sit on a jittered grid (spacing 0.9, shapes about 1 across, random angles); each body is
// paired with its right, upper, upper-right and lower-right neighbours, as a sweep-and-prune over
// their AABBs would pair them, so a body takes part in about four pairs and pairs come in
// spatially coherent order. Side neighbours overlap, diagonal ones are overlapping or a little
// apart (a broadphase reports AABB overlaps, not contacts), so every contender also sees pairs
// that have no contact. Exactly N pairs: the grid is filled cell by cell until N are emitted.
//
// Shapes come from a small pool shared by the bodies, as in an engine: 16 boxes of varying
// aspect ('box'), or 64 random convex 8-gons ('ngon'). Deterministic: a fixed-seed LCG.

import { packScene2D, type Packed2D } from '../src/pack2d.ts';
import { parseScene, type Scene2D } from '../src/scene.ts';
import type { Shape2DInput, Vec2 } from '../src/shapes2d.ts';

export type ScenarioName = 'box' | 'ngon';

export const SCENARIOS: readonly ScenarioName[] = ['box', 'ngon'];

export const SCENARIO_LABEL: Record<ScenarioName, string> = {
  box: 'box–box',
  ngon: '8-gon–8-gon',
};

export interface BenchScene2D {
  scenario: ScenarioName;
  pairCount: number;
  /** The shapes as JSON (ours and the peers take the same description). */
  shapes: Shape2DInput[];
  /** The validated scene (shapes through parseScene; bodies and pairs filled in directly). */
  scene: Scene2D;
  /** Pairs, a0, b0, a1, b1, … */
  pairs: Uint32Array;
  /** The same bodies for the peers: x, y, angle, shape index per body. */
  peerBodies: Float64Array;
  /** The packed scene both of our backends consume. */
  packed: Packed2D;
  /** Host time to pack the scene (ms): shapes + bodies (cos/sin per body) into the WGSL layouts. */
  packMs: number;
}

/** Numerical Recipes LCG; returns [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

function boxPool(rnd: () => number): Shape2DInput[] {
  return Array.from({ length: 16 }, () => {
    const hx = 0.35 + 0.2 * rnd();
    const hy = 0.35 + 0.2 * rnd();
    return { type: 'box', halfExtents: [hx, hy] as Vec2 };
  });
}

/** A random convex 8-gon: 8 points on a circle at jittered angles (always convex, never collinear). */
function ngonPool(rnd: () => number): Shape2DInput[] {
  return Array.from({ length: 64 }, () => {
    const r = 0.5 + 0.12 * rnd();
    const phase = 2 * Math.PI * rnd();
    const vertices: Vec2[] = [];
    for (let i = 0; i < 8; i++) {
      const a = phase + (2 * Math.PI * (i + 0.2 + 0.6 * rnd())) / 8;
      vertices.push([r * Math.cos(a), r * Math.sin(a)]);
    }
    return { type: 'polygon', vertices };
  });
}

const SPACING = 0.8;
const JITTER = 0.06;
// Neighbour offsets (dx, dy): right, up, up-right, down-right.
const NEIGHBOURS: readonly [number, number][] = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

export function makeScene2D(
  scenario: ScenarioName,
  pairCount: number,
  seed = 0x5eed,
): BenchScene2D {
  const rnd = lcg(seed ^ (scenario === 'box' ? 0x1234 : 0x8765));
  const shapes = scenario === 'box' ? boxPool(rnd) : ngonPool(rnd);
  // Validate the shapes through the public parser (an empty body list is a valid scene).
  const parsed = parseScene({ dim: 2, margin: 0, shapes, bodies: [] });

  // A grid wide enough that about pairCount / 4 bodies emit pairCount pairs (+2 rows of slack).
  const w = Math.max(2, Math.ceil(Math.sqrt(pairCount / 4)));
  const h = Math.max(2, Math.ceil(pairCount / (4 * w)) + 2);
  const n = w * h;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(2 * n);
  const bodyAngle = new Float64Array(n);
  const peerBodies = new Float64Array(4 * n);
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const b = j * w + i;
      const x = i * SPACING + JITTER * (2 * rnd() - 1);
      const y = j * SPACING + JITTER * (2 * rnd() - 1);
      const angle = 2 * Math.PI * rnd();
      const shape = Math.floor(rnd() * shapes.length);
      bodyShape[b] = shape;
      bodyPosition[2 * b] = x;
      bodyPosition[2 * b + 1] = y;
      bodyAngle[b] = angle;
      peerBodies.set([x, y, angle, shape], 4 * b);
    }
  }
  const pairs = new Uint32Array(2 * pairCount);
  let k = 0;
  outer: for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      for (const [dx, dy] of NEIGHBOURS) {
        const i2 = i + dx;
        const j2 = j + dy;
        if (i2 >= w || j2 < 0 || j2 >= h) continue;
        if (k === pairCount) break outer;
        pairs[2 * k] = j * w + i;
        pairs[2 * k + 1] = j2 * w + i2;
        k++;
      }
    }
  }
  if (k !== pairCount)
    throw new Error(`scene generator: ${k} of ${pairCount} pairs (grid ${w}×${h} too small)`);

  const scene: Scene2D = {
    dim: 2,
    margin: 0,
    shapes: parsed.shapes,
    bodyShape,
    bodyPosition,
    bodyAngle,
    pairs,
  };
  const t0 = performance.now();
  const packed = packScene2D(scene, pairs);
  const packMs = performance.now() - t0;
  return { scenario, pairCount, shapes, scene, pairs, peerBodies, packed, packMs };
}
