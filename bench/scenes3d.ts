// 3D benchmark scenes: N pairs of overlapping or nearly touching convex shapes, the kind of pair
// list a broadphase hands a narrowphase (the 3D counterpart of ./scenes2d.ts).
//
// Bodies sit on a jittered cubic grid (shapes about 0.6 to 1.2 across; the spacing, 0.5 to 0.88,
// is set per scenario so that about two thirds of the pairs touch in each); each body is
// paired with its +x, +y and +z neighbours and its (+1, +1, +1) diagonal neighbour, as a sweep over
// their AABBs would pair them, so a body takes part in about four pairs and pairs come in
// spatially coherent order. Axis neighbours mostly overlap, diagonal ones (√3 spacings away) mostly
// do not (a broadphase reports AABB overlaps, not contacts), so every contender also sees pairs
// without contact. Exactly N pairs: the grid is filled cell by cell until N are emitted.
//
// Poses: half of the bodies are nearly aligned with the axes (a rotation of up to 0.03 rad about
// a random axis: face–face contacts with 4 points, like resting boxes), the others have uniformly
// random rotations (edge–edge, vertex–face contacts).
//
// Shapes come from a small pool shared by the bodies, as in an engine:
//   box3        16 boxes, half extents 0.3–0.5 per axis;
//   hull8/16/32 32 hulls of 8/16/32 random points on an ellipsoid (semi-axes 0.4–0.6): every point
//               of a strictly convex surface is a hull vertex, so each hull has exactly that many
//               vertices, with triangular faces (2V − 4 of them);
//   hull64      16 hulls of 64 points on an ellipsoid in 8 rings of 8 (random ring latitudes and
//               axes): 64 vertices, 56 quads and two octagon caps. 64 random points would give about
//               124 triangles, more than the narrowphase's MAX_HULL_FACES (64) allows;
//   spherehull  spheres (radius 0.3–0.45) and the 16-point hulls on a checkerboard, so that every
//               pair (all four neighbour offsets change the checkerboard colour) is sphere–hull.
// Deterministic: a fixed-seed LCG.

import { packScene3D, unpackShapes3D, type Packed3D } from '../src/pack3d.ts';
import { parseScene, type Scene3D } from '../src/scene.ts';
import type { Quat, Shape3D, Shape3DInput, Vec3 } from '../src/shapes3d.ts';

export type Scenario3DName = 'box3' | 'hull8' | 'hull16' | 'hull32' | 'hull64' | 'spherehull';

export const SCENARIOS_3D: readonly Scenario3DName[] = [
  'box3',
  'hull8',
  'hull16',
  'hull32',
  'hull64',
  'spherehull',
];

export const SCENARIO_3D_LABEL: Record<Scenario3DName, string> = {
  box3: 'box–box 3D',
  hull8: 'hull8–hull8',
  hull16: 'hull16–hull16',
  hull32: 'hull32–hull32',
  hull64: 'hull64–hull64',
  spherehull: 'sphere–hull16',
};

/** Points per hull of the hull scenarios (the vertex-count scaling table reads this). */
export const HULL_POINTS: Partial<Record<Scenario3DName, number>> = {
  hull8: 8,
  hull16: 16,
  hull32: 32,
  hull64: 64,
};

export interface BenchScene3D {
  scenario: Scenario3DName;
  pairCount: number;
  /** The shapes as JSON (the input our parser validated). */
  shapes: Shape3DInput[];
  /** The validated scene (shapes through parseScene; bodies and pairs filled in directly). */
  scene: Scene3D;
  /** Pairs, a0, b0, a1, b1, … */
  pairs: Uint32Array;
  /**
   * The shapes exactly as both of our backends see them (read back from the packed f32 buffers):
   * the peers build their engine shapes from these, so every contender collides the same geometry.
   */
  peerShapes: Shape3D[];
  /** The same bodies for the peers, 8 numbers per body: x, y, z, qx, qy, qz, qw, shape (all f32-rounded as packed). */
  peerBodies: Float64Array;
  /** The packed scene both of our backends consume. */
  packed: Packed3D;
  /** Host time to pack the scene (ms): shapes (hull buffers) + bodies into the WGSL layouts. */
  packMs: number;
  /** Mean hull vertex and face count of the pool (hull shapes only), for the scaling table. */
  meanVertices: number;
  meanFaces: number;
}

/** Numerical Recipes LCG; returns [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** Uniformly random unit quaternion (Shoemake). */
function randomQuat(rnd: () => number): Quat {
  const u1 = rnd();
  const u2 = rnd();
  const u3 = rnd();
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [
    a * Math.sin(2 * Math.PI * u2),
    a * Math.cos(2 * Math.PI * u2),
    b * Math.sin(2 * Math.PI * u3),
    b * Math.cos(2 * Math.PI * u3),
  ];
}

/** A rotation of up to `maxAngle` about a random axis. */
function nearIdentityQuat(rnd: () => number, maxAngle: number): Quat {
  const z = 2 * rnd() - 1;
  const phi = 2 * Math.PI * rnd();
  const s = Math.sqrt(1 - z * z);
  const half = 0.5 * maxAngle * rnd();
  const sh = Math.sin(half);
  return [s * Math.cos(phi) * sh, s * Math.sin(phi) * sh, z * sh, Math.cos(half)];
}

function randomUnit(rnd: () => number): Vec3 {
  const z = 2 * rnd() - 1;
  const phi = 2 * Math.PI * rnd();
  const s = Math.sqrt(1 - z * z);
  return [s * Math.cos(phi), s * Math.sin(phi), z];
}

function boxPool(rnd: () => number): Shape3DInput[] {
  return Array.from({ length: 16 }, () => ({
    type: 'box' as const,
    halfExtents: [0.3 + 0.2 * rnd(), 0.3 + 0.2 * rnd(), 0.3 + 0.2 * rnd()] as Vec3,
  }));
}

function ellipsoidAxes(rnd: () => number): Vec3 {
  return [0.4 + 0.2 * rnd(), 0.4 + 0.2 * rnd(), 0.4 + 0.2 * rnd()];
}

/** `points` random points on a random ellipsoid; redrawn until the hull builder accepts it. */
function randomHull(rnd: () => number, points: number): Shape3DInput {
  for (let attempt = 0; ; attempt++) {
    const ax = ellipsoidAxes(rnd);
    const vertices: Vec3[] = Array.from({ length: points }, () => {
      const u = randomUnit(rnd);
      return [ax[0] * u[0], ax[1] * u[1], ax[2] * u[2]];
    });
    const shape: Shape3DInput = { type: 'hull', vertices };
    try {
      parseScene({ dim: 3, shapes: [shape], bodies: [] });
      return shape;
    } catch (e) {
      if (attempt >= 100) throw e;
    }
  }
}

/** 8 rings of 8 points on a random ellipsoid: quads between rings, octagon caps (planar by symmetry). */
function ringHull(rnd: () => number): Shape3DInput {
  const ax = ellipsoidAxes(rnd);
  const rings = 8;
  const perRing = 8;
  const phase = (2 * Math.PI * rnd()) / perRing;
  const vertices: Vec3[] = [];
  for (let i = 0; i < rings; i++) {
    const theta = (Math.PI * (i + 0.5 + 0.5 * (rnd() - 0.5))) / rings;
    const rr = Math.sin(theta);
    const z = Math.cos(theta);
    for (let j = 0; j < perRing; j++) {
      const phi = phase + (2 * Math.PI * j) / perRing;
      vertices.push([ax[0] * rr * Math.cos(phi), ax[1] * rr * Math.sin(phi), ax[2] * z]);
    }
  }
  return { type: 'hull', vertices };
}

function shapePool(
  scenario: Scenario3DName,
  rnd: () => number,
): { shapes: Shape3DInput[]; sphereCount: number } {
  switch (scenario) {
    case 'box3':
      return { shapes: boxPool(rnd), sphereCount: 0 };
    case 'hull8':
    case 'hull16':
    case 'hull32':
      return {
        shapes: Array.from({ length: 32 }, () => randomHull(rnd, HULL_POINTS[scenario]!)),
        sphereCount: 0,
      };
    case 'hull64':
      return { shapes: Array.from({ length: 16 }, () => ringHull(rnd)), sphereCount: 0 };
    case 'spherehull': {
      // Spheres first (indices 0..15), then hulls.
      const spheres: Shape3DInput[] = Array.from({ length: 16 }, () => ({
        type: 'sphere' as const,
        radius: 0.3 + 0.15 * rnd(),
      }));
      const hulls = Array.from({ length: 32 }, () => randomHull(rnd, 16));
      return { shapes: [...spheres, ...hulls], sphereCount: 16 };
    }
  }
}

/** Grid spacing per scenario: chosen so that about two thirds of the pairs touch in every scenario (hulls of few points are smaller than their ellipsoid). */
export const SPACING_3D: Record<Scenario3DName, number> = {
  box3: 0.82,
  hull8: 0.5,
  hull16: 0.68,
  hull32: 0.8,
  hull64: 0.88,
  spherehull: 0.68,
};
const JITTER = 0.05;
/** Share of bodies in a nearly axis-aligned pose, and their largest tilt (rad). */
const ALIGNED_SHARE = 0.5;
const ALIGNED_TILT = 0.03;
// Neighbour offsets: +x, +y, +z and the (+1, +1, +1) diagonal (all change the parity of i + j + k).
const NEIGHBOURS: readonly [number, number, number][] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 1],
];

const SEEDS: Record<Scenario3DName, number> = {
  box3: 0x3b0c,
  hull8: 0x3808,
  hull16: 0x3816,
  hull32: 0x3832,
  hull64: 0x3864,
  spherehull: 0x35f1,
};

export function makeScene3D(
  scenario: Scenario3DName,
  pairCount: number,
  seed = 0x5eed,
  spacing = SPACING_3D[scenario],
): BenchScene3D {
  const SPACING = spacing;
  const rnd = lcg(seed ^ SEEDS[scenario]);
  const { shapes, sphereCount } = shapePool(scenario, rnd);
  // Validate the shapes through the public parser (an empty body list is a valid scene).
  const parsed = parseScene({ dim: 3, margin: 0, shapes, bodies: [] });
  const hullCount = shapes.length - sphereCount;

  // A grid wide enough that about pairCount / 4 bodies emit pairCount pairs (+2 layers of slack).
  const w = Math.max(2, Math.ceil(Math.cbrt(pairCount / 4)));
  const h = Math.max(2, Math.ceil(pairCount / (4 * w * w)) + 2);
  const n = w * w * h;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(3 * n);
  const bodyRotation = new Float64Array(4 * n);
  const peerBodies = new Float64Array(8 * n);
  const f = Math.fround;
  for (let k = 0; k < h; k++) {
    for (let j = 0; j < w; j++) {
      for (let i = 0; i < w; i++) {
        const b = (k * w + j) * w + i;
        const x = f(i * SPACING + JITTER * (2 * rnd() - 1));
        const y = f(j * SPACING + JITTER * (2 * rnd() - 1));
        const z = f(k * SPACING + JITTER * (2 * rnd() - 1));
        const q = rnd() < ALIGNED_SHARE ? nearIdentityQuat(rnd, ALIGNED_TILT) : randomQuat(rnd);
        const l = Math.hypot(q[0], q[1], q[2], q[3]);
        const qf = q.map((c) => f(c / l)) as Quat;
        const shape =
          sphereCount > 0 && (i + j + k) % 2 === 0
            ? Math.floor(rnd() * sphereCount)
            : sphereCount + Math.floor(rnd() * hullCount);
        bodyShape[b] = shape;
        bodyPosition.set([x, y, z], 3 * b);
        bodyRotation.set(qf, 4 * b);
        peerBodies.set([x, y, z, qf[0], qf[1], qf[2], qf[3], shape], 8 * b);
      }
    }
  }
  const pairs = new Uint32Array(2 * pairCount);
  let p = 0;
  outer: for (let k = 0; k < h; k++) {
    for (let j = 0; j < w; j++) {
      for (let i = 0; i < w; i++) {
        for (const [dx, dy, dz] of NEIGHBOURS) {
          const i2 = i + dx;
          const j2 = j + dy;
          const k2 = k + dz;
          if (i2 >= w || j2 >= w || k2 >= h) continue;
          if (p === pairCount) break outer;
          pairs[2 * p] = (k * w + j) * w + i;
          pairs[2 * p + 1] = (k2 * w + j2) * w + i2;
          p++;
        }
      }
    }
  }
  if (p !== pairCount)
    throw new Error(`scene generator: ${p} of ${pairCount} pairs (grid ${w}×${w}×${h} too small)`);

  const scene: Scene3D = {
    dim: 3,
    margin: 0,
    shapes: parsed.shapes,
    bodyShape,
    bodyPosition,
    bodyRotation,
    pairs,
  };
  const t0 = performance.now();
  const packed = packScene3D(scene, pairs);
  const packMs = performance.now() - t0;
  const peerShapes = unpackShapes3D(packed);
  const hulls = parsed.shapes.filter((s) => s.faceCount > 0);
  const meanVertices = hulls.reduce((a, s) => a + s.vertexCount, 0) / Math.max(1, hulls.length);
  const meanFaces = hulls.reduce((a, s) => a + s.faceCount, 0) / Math.max(1, hulls.length);
  return {
    scenario,
    pairCount,
    shapes,
    scene,
    pairs,
    peerShapes,
    peerBodies,
    packed,
    packMs,
    meanVertices,
    meanFaces,
  };
}
