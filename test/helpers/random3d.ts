// Seeded random 3D scenes for the GPU-vs-CPU and determinism tests.
//
// Everything is reproducible from a seed (mulberry32) and builds plain scene JSON (SceneJson3D),
// so any failing pair can be printed as a self-contained scene. Coordinates, sizes, positions and
// quaternions are rounded to f32 (Math.fround) when generated, so the scene holds the numbers both
// backends receive after packing.
//
// Every pair gets its own two shapes and two bodies. Random poses rarely give face–face contacts
// (most random pairs touch at a vertex or an edge), so every sweep mixes in nearly aligned poses
// (multiples of 90° plus up to 0.01 rad) and contact directions along a face normal.

import type { Body3DInput, SceneJson3D } from '../../src/scene.ts';
import type { Quat, Shape3DInput, Vec3 } from '../../src/shapes3d.ts';
import { rng } from '../../src/random2d.ts';
import { PairSceneBuilder, type PairTag } from './scene-builder.ts';

export type Rng = () => number;

/** mulberry32 (src/random2d.ts's rng, the one seeded generator): floats in [0, 1). */
export const mulberry32: (seed: number) => Rng = rng;

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

// ---- quaternions ---------------------------------------------------------------------------------

export function quatMul(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

export function axisAngle(axis: Vec3, angle: number): Quat {
  const l = Math.hypot(axis[0], axis[1], axis[2]);
  const s = Math.sin(angle / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}

/** Uniformly random unit quaternion. */
export function randomQuat(rng: Rng): Quat {
  const u1 = rng(),
    u2 = rng(),
    u3 = rng();
  const a = Math.sqrt(1 - u1),
    b = Math.sqrt(u1);
  return [
    a * Math.sin(2 * Math.PI * u2),
    a * Math.cos(2 * Math.PI * u2),
    b * Math.sin(2 * Math.PI * u3),
    b * Math.cos(2 * Math.PI * u3),
  ];
}

function randomAxis(rng: Rng): Vec3 {
  for (;;) {
    const v: Vec3 = [2 * rng() - 1, 2 * rng() - 1, 2 * rng() - 1];
    const l = Math.hypot(v[0], v[1], v[2]);
    if (l > 0.1 && l <= 1) return [v[0] / l, v[1] / l, v[2] / l];
  }
}

/** A rotation by a multiple of 90° about each of x, y, z (one of the 24 cube symmetries, possibly repeated). */
export function axisAlignedQuat(rng: Rng): Quat {
  let q: Quat = [0, 0, 0, 1];
  for (const axis of [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ] as Vec3[])
    q = quatMul(axisAngle(axis, (Math.PI / 2) * randInt(rng, 0, 3)), q);
  return q;
}

/** Nearly axis aligned: a cube symmetry followed by a rotation of up to `wobble` rad about a random axis. */
export function nearlyAlignedQuat(rng: Rng, wobble = 0.01): Quat {
  return quatMul(axisAngle(randomAxis(rng), wobble * rng()), axisAlignedQuat(rng));
}

/** A quaternion rounded to f32 (renormalised first). */
export function f32Quat(q: Quat): Quat {
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  return [fr(q[0] / l), fr(q[1] / l), fr(q[2] / l), fr(q[3] / l)];
}

/** v rotated by the unit quaternion q = [x, y, z, w]. */
export function rotate(q: ArrayLike<number>, v: ArrayLike<number>): Vec3 {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const t = [
    2 * (y * v[2]! - z * v[1]!),
    2 * (z * v[0]! - x * v[2]!),
    2 * (x * v[1]! - y * v[0]!),
  ] as Vec3;
  return [
    v[0]! + w * t[0] + y * t[2] - z * t[1],
    v[1]! + w * t[1] + z * t[0] - x * t[2],
    v[2]! + w * t[2] + x * t[1] - y * t[0],
  ];
}

// ---- shapes --------------------------------------------------------------------------------------

export type ShapeKind3D = 'box' | 'hull' | 'sphere' | 'capsule';

/** Core points of a shape input in its local frame (hull: the input points) and its radius. */
export function localCore3D(s: Shape3DInput): { points: Vec3[]; radius: number } {
  switch (s.type) {
    case 'box': {
      const [x, y, z] = s.halfExtents;
      const points: Vec3[] = [];
      for (let i = 0; i < 8; i++) points.push([i & 1 ? x : -x, i & 2 ? y : -y, i & 4 ? z : -z]);
      return { points, radius: 0 };
    }
    case 'hull':
      return { points: s.vertices, radius: 0 };
    case 'sphere':
      return { points: [s.center ?? [0, 0, 0]], radius: s.radius };
    case 'capsule':
      return { points: [s.a, s.b], radius: s.radius };
  }
}

/** Support of a shape input at (position, rotation) along unit u: max over its surface of u · x. */
export function support3D(s: Shape3DInput, position: Vec3, rotation: Quat, u: Vec3): number {
  const { points, radius } = localCore3D(s);
  let h = -Infinity;
  for (const p of points) {
    const w = rotate(rotation, p);
    h = Math.max(h, u[0] * w[0] + u[1] * w[1] + u[2] * w[2]);
  }
  return h + radius + u[0] * position[0] + u[1] * position[1] + u[2] * position[2];
}

/** A random box of about `size` (half extents 0.3..1.2 × size, at least 1/4 of the largest). */
export function randomBox3D(rng: Rng, size: number): Shape3DInput {
  return {
    type: 'box',
    halfExtents: [
      fr(size * uniform(rng, 0.3, 1.2)),
      fr(size * uniform(rng, 0.3, 1.2)),
      fr(size * uniform(rng, 0.3, 1.2)),
    ],
  };
}

/**
 * A random hull of about `size`: `n` points (default 8..32) in an ellipsoid (on its surface, or
 * inside it, or the corners of a jittered box, so that faces are triangles or merged polygons).
 */
export function randomHull3D(rng: Rng, size: number, n = randInt(rng, 8, 32)): Shape3DInput {
  const ax = size * uniform(rng, 0.5, 1.2),
    ay = size * uniform(rng, 0.5, 1.2),
    az = size * uniform(rng, 0.5, 1.2);
  const style = rng();
  const vertices: Vec3[] = [];
  if (style < 0.2) {
    // A prism-like hull: two parallel polygons (big coplanar faces).
    const k = Math.max(3, Math.floor(n / 2));
    for (let i = 0; i < k; i++) {
      const t = (2 * Math.PI * (i + 0.3 * rng())) / k;
      vertices.push([fr(ax * Math.cos(t)), fr(ay * Math.sin(t)), fr(-az)]);
      vertices.push([fr(ax * Math.cos(t)), fr(ay * Math.sin(t)), fr(az)]);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const u = randomAxis(rng);
      const r = style < 0.7 ? 1 : Math.cbrt(rng());
      vertices.push([fr(ax * r * u[0]), fr(ay * r * u[1]), fr(az * r * u[2])]);
    }
  }
  return { type: 'hull', vertices };
}

export function randomSphere3D(rng: Rng, size: number): Shape3DInput {
  return { type: 'sphere', radius: fr(size * uniform(rng, 0.3, 1.0)) };
}

export function randomCapsule3D(rng: Rng, size: number): Shape3DInput {
  const h = size * uniform(rng, 0.3, 1.0);
  return {
    type: 'capsule',
    a: [fr(-h), 0, 0],
    b: [fr(h), 0, 0],
    radius: fr(size * uniform(rng, 0.15, 0.6)),
  };
}

export function randomShape3D(rng: Rng, kind: ShapeKind3D, size: number): Shape3DInput {
  switch (kind) {
    case 'box':
      return randomBox3D(rng, size);
    case 'hull':
      return randomHull3D(rng, size);
    case 'sphere':
      return randomSphere3D(rng, size);
    case 'capsule':
      return randomCapsule3D(rng, size);
  }
}

// ---- scenes --------------------------------------------------------------------------------------

export type PairTag3D = PairTag;

/** Accumulates pairs of fresh bodies into one scene. */
export class SceneBuilder3D extends PairSceneBuilder<Shape3DInput, Body3DInput> {
  /** Adds shapes a and b at the given poses; with `bothOrders` also the pair (b, a). */
  add(
    a: Shape3DInput,
    pa: Vec3,
    qa: Quat,
    b: Shape3DInput,
    pb: Vec3,
    qb: Quat,
    tag: PairTag3D,
    bothOrders = false,
  ): void {
    const i = this.addBodyOf(a, { position: pa.map(fr) as Vec3, rotation: f32Quat(qa) });
    const j = this.addBodyOf(b, { position: pb.map(fr) as Vec3, rotation: f32Quat(qb) });
    this.addPairOf(i, j, tag, bothOrders, {
      ...tag,
      note: `${tag.note ? `${tag.note}, ` : ''}swapped`,
    });
  }

  scene(): SceneJson3D {
    return {
      dim: 3,
      margin: this.margin,
      shapes: this.shapes,
      bodies: this.bodies,
      pairs: this.pairs,
    };
  }
}

/**
 * B's offset from A's position that makes B touch A along direction u (from A to B), moved by
 * `gap` along u (negative: into A).
 */
export function touchingOffset(
  a: Shape3DInput,
  qa: Quat,
  b: Shape3DInput,
  qb: Quat,
  u: Vec3,
  gap: number,
): Vec3 {
  const d =
    support3D(a, [0, 0, 0], qa, u) + support3D(b, [0, 0, 0], qb, [-u[0], -u[1], -u[2]]) + gap;
  return [u[0] * d, u[1] * d, u[2] * d];
}

export const SWEEP_TYPES_3D = {
  'box-box': ['box', 'box'],
  'hull-hull': ['hull', 'hull'],
  'sphere-hull': ['sphere', 'hull'],
  'capsule-hull': ['capsule', 'hull'],
  'sphere-sphere': ['sphere', 'sphere'],
  'sphere-capsule': ['sphere', 'capsule'],
  'capsule-capsule': ['capsule', 'capsule'],
} as const satisfies Record<string, readonly [ShapeKind3D, ShapeKind3D]>;
export type SweepType3D = keyof typeof SWEEP_TYPES_3D;

/**
 * Every pair class the 3D narrowphase dispatches, for the browsers' validation page: the sweep
 * types plus boxes against hulls and round shapes (a box is a hull with its own fast paths).
 */
export const PAIR_CLASSES_3D = {
  ...SWEEP_TYPES_3D,
  'box-hull': ['box', 'hull'],
  'sphere-box': ['sphere', 'box'],
  'capsule-box': ['capsule', 'box'],
} as const satisfies Record<string, readonly [ShapeKind3D, ShapeKind3D]>;
export type PairClass3D = keyof typeof PAIR_CLASSES_3D;

export interface SweepOptions3D {
  /** Random geometries; each is listed in both orders. */
  geometries: number;
  margin: number;
  /** Shape size (scale of everything). */
  size?: number;
  /** Distance of the pairs from the origin. */
  offset?: number;
}

/**
 * Random pairs of one type: half with random rotations, half nearly aligned; the contact
 * direction is random or (for half the aligned ones) along one of A's axes; B touches A along it,
 * then moves by a gap between -0.3 and +0.1 of the size plus the margin (deep, touching,
 * speculative and separated pairs).
 */
export function sweepScene3D(
  type: PairClass3D,
  seed: number,
  opts: SweepOptions3D,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const size = opts.size ?? 1;
  const offset = opts.offset ?? 10;
  const out = new SceneBuilder3D(opts.margin);
  const [ka, kb] = PAIR_CLASSES_3D[type];
  for (let g = 0; g < opts.geometries; g++) {
    const a = randomShape3D(rng, ka, size);
    const b = randomShape3D(rng, kb, size);
    const aligned = rng() < 0.5;
    const qa = aligned ? nearlyAlignedQuat(rng) : randomQuat(rng);
    const qb = aligned ? nearlyAlignedQuat(rng) : randomQuat(rng);
    let u: Vec3;
    if (aligned && rng() < 0.6) {
      const axis: Vec3 = [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ][randInt(rng, 0, 2)]! as Vec3;
      const s = rng() < 0.5 ? -1 : 1;
      const w = rotate(qa, [s * axis[0], s * axis[1], s * axis[2]]);
      // Off the axis by a little, so B's face is offset over A's face.
      const j = randomAxis(rng);
      const e = 0.05 * rng();
      const l = Math.hypot(w[0] + e * j[0], w[1] + e * j[1], w[2] + e * j[2]);
      u = [(w[0] + e * j[0]) / l, (w[1] + e * j[1]) / l, (w[2] + e * j[2]) / l];
    } else {
      u = randomAxis(rng);
    }
    const pa: Vec3 = [
      offset * uniform(rng, -1, 1),
      offset * uniform(rng, -1, 1),
      offset * uniform(rng, -1, 1),
    ];
    const gap = size * uniform(rng, -0.3, 0.1) + (rng() < 0.3 ? opts.margin * rng() : 0);
    const rel = touchingOffset(a, qa, b, qb, u, gap);
    // Slide B sideways a little (contacts off-centre).
    const side = randomAxis(rng);
    const sl = 0.3 * size * rng();
    const pb: Vec3 = [
      pa[0] + rel[0] + sl * (side[0] - u[0] * (side[0] * u[0] + side[1] * u[1] + side[2] * u[2])),
      pa[1] + rel[1] + sl * (side[1] - u[1] * (side[0] * u[0] + side[1] * u[1] + side[2] * u[2])),
      pa[2] + rel[2] + sl * (side[2] - u[2] * (side[0] * u[0] + side[1] * u[1] + side[2] * u[2])),
    ];
    out.add(a, pa, qa, b, pb, qb, { set: type, note: aligned ? 'aligned' : 'random' }, true);
  }
  return out;
}

/**
 * One scene of every sweep type (seeds seed, seed + 1, ...; `geometries` each, margin 0.05): the
 * builders' shapes, bodies and pairs concatenated (the 3D determinism test's scene).
 */
export function mixedSweepScene3D(seed: number, geometries: number): SceneJson3D {
  const builders = (Object.keys(SWEEP_TYPES_3D) as SweepType3D[]).map((t, i) =>
    sweepScene3D(t, seed + i, { geometries, margin: 0.05 }),
  );
  const scene = builders[0]!.scene();
  for (const b of builders.slice(1)) {
    const s = b.scene();
    const shapeBase = scene.shapes.length;
    const bodyBase = scene.bodies.length;
    scene.shapes.push(...s.shapes);
    scene.bodies.push(...s.bodies.map((x) => ({ ...x, shape: x.shape + shapeBase })));
    scene.pairs!.push(
      ...s.pairs!.map(([a, c]) => [a + bodyBase, c + bodyBase] as [number, number]),
    );
  }
  return scene;
}

// ---- adversarial sets ----------------------------------------------------------------------------

const AXES: Vec3[] = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
];

/** A box, a prism-like hull (parallel faces), or for `round` also capsules and spheres. */
function faceyShape(rng: Rng, size: number, round = false): Shape3DInput {
  const k = rng();
  if (round && k < 0.15) return randomCapsule3D(rng, size);
  if (round && k < 0.25) return randomSphere3D(rng, size);
  if (k < 0.6) return randomBox3D(rng, size);
  // Prism hull: exact parallel top and bottom faces.
  const n = randInt(rng, 3, 10);
  const h = fr(size * uniform(rng, 0.3, 1));
  const vertices: Vec3[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * (i + 0.3 * rng())) / n;
    const r = size * uniform(rng, 0.6, 1.2);
    vertices.push(
      [fr(r * Math.cos(t)), fr(r * Math.sin(t)), -h],
      [fr(r * Math.cos(t)), fr(r * Math.sin(t)), h],
    );
  }
  return { type: 'hull', vertices };
}

/**
 * Parallel and anti-parallel faces: both shapes exactly axis aligned (cube symmetries), B touching
 * A along one of the world axes, slid sideways, gaps from -0.2 × size to the margin.
 */
export function parallelFacesScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  for (let g = 0; g < geometries; g++) {
    const a = faceyShape(rng, 1);
    const b = faceyShape(rng, uniform(rng, 0.3, 1.5));
    const qa = axisAlignedQuat(rng);
    const qb = axisAlignedQuat(rng);
    const u = AXES[randInt(rng, 0, 5)]!;
    const gap = rng() < 0.2 ? 0 : uniform(rng, -0.2, margin);
    const rel = touchingOffset(a, qa, b, qb, u, gap);
    const pa: Vec3 = [uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)];
    // Slide along the two other axes by up to the size, on the f32 grid of 1/64.
    const slide = AXES.filter((w) => w[0] * u[0] + w[1] * u[1] + w[2] * u[2] === 0);
    const s1 = slide[randInt(rng, 0, slide.length - 1)]!;
    const s2 = slide[randInt(rng, 0, slide.length - 1)]!;
    const k1 = Math.round(64 * uniform(rng, -1, 1)) / 64;
    const k2 = Math.round(64 * uniform(rng, -1, 1)) / 64;
    const pb: Vec3 = [0, 1, 2].map((i) => pa[i]! + rel[i]! + k1 * s1[i]! + k2 * s2[i]!) as Vec3;
    out.add(
      a,
      pa,
      qa,
      b,
      pb,
      qb,
      { set: 'parallel-faces', note: `gap ${gap.toPrecision(3)}` },
      true,
    );
  }
  return out;
}

/** The vertex of a sharp shape input (box, hull) at rotation q furthest along u, in the body frame. */
function supportPoint3D(s: Shape3DInput, q: Quat, u: Vec3): Vec3 {
  let best: Vec3 = [0, 0, 0];
  let h = -Infinity;
  for (const p of localCore3D(s).points) {
    const w = rotate(q, p);
    const d = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
    if (d > h) [h, best] = [d, w];
  }
  return best;
}

/**
 * Hulls apart by less than the margin at a vertex: boxes and hulls, half of the boxes axis aligned
 * and apart along a diagonal (corner to corner, where a face's vertices tie as the deepest), the
 * rest in random poses apart along a random direction u; A's vertex furthest along u and B's
 * furthest along -u are placed `gap` apart along u (0.1 to 0.9 of the margin), so that is the
 * shapes' distance (up to the f32 positions).
 */
export function apartAtVerticesScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  for (let g = 0; g < geometries; g++) {
    const aligned = rng() < 0.5;
    const a = aligned || rng() < 0.5 ? randomBox3D(rng, 1) : randomHull3D(rng, 1);
    const b =
      aligned || rng() < 0.5
        ? randomBox3D(rng, uniform(rng, 0.3, 1.5))
        : randomHull3D(rng, uniform(rng, 0.3, 1.5));
    const qa = aligned ? axisAlignedQuat(rng) : randomQuat(rng);
    const qb = aligned ? axisAlignedQuat(rng) : randomQuat(rng);
    const u: Vec3 = aligned
      ? ([rng() < 0.5 ? -1 : 1, rng() < 0.5 ? -1 : 1, rng() < 0.5 ? -1 : 1].map(
          (x) => x / Math.sqrt(3),
        ) as Vec3)
      : randomAxis(rng);
    const gap = uniform(rng, 0.1, 0.9) * margin;
    const va = supportPoint3D(a, qa, u);
    const vb = supportPoint3D(b, qb, [-u[0], -u[1], -u[2]]);
    const pa: Vec3 = [uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)];
    const pb: Vec3 = [0, 1, 2].map((i) => pa[i]! + va[i]! - vb[i]! + gap * u[i]!) as Vec3;
    out.add(
      a,
      pa,
      qa,
      b,
      pb,
      qb,
      {
        set: 'apart-at-vertices',
        note: `${aligned ? 'aligned, diagonal' : 'random'} gap ${gap.toPrecision(3)}`,
      },
      true,
    );
  }
  return out;
}

/**
 * Features exactly on features: boxes, prisms and hulls (half axis aligned by cube symmetries, half
 * random), a vertex of B put exactly on a vertex of A, or on the midpoint of an edge between two of
 * A's vertices, or on A's vertex shifted by an eighth of A's size along an axis (an edge or face
 * point of an aligned box): where clipping meets its ties (a vertex on a side plane, an edge along
 * one, a 2-point polygon, a corner on a corner). A's and B's vertices are the support points
 * along u and -u, so the shapes touch there, and B then moves along u by a gap of 0, ±1e-7 or up
 * to the margin, or sinks by up to a tenth of A's size. u: an axis, a face or body diagonal
 * (aligned shapes) or random. `round`: B is a sphere or a capsule, its surface point along -u on
 * A's feature.
 */
export function featureOnFeatureScene3D(
  seed: number,
  geometries: number,
  margin: number,
  round = false,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  const diagonals: Vec3[] = [
    [1, 1, 0],
    [1, 0, 1],
    [0, 1, 1],
    [1, -1, 0],
    [1, 1, 1],
    [1, -1, 1],
  ].map((d) => {
    const l = Math.hypot(d[0]!, d[1]!, d[2]!);
    return d.map((x) => x / l) as Vec3;
  });
  for (let g = 0; g < geometries; g++) {
    const aligned = rng() < 0.5;
    const a = aligned
      ? faceyShape(rng, 1)
      : rng() < 0.5
        ? faceyShape(rng, 1)
        : randomHull3D(rng, 1, randInt(rng, 6, 16));
    const b = round
      ? (rng() < 0.5 ? randomCapsule3D : randomSphere3D)(rng, uniform(rng, 0.3, 1.5))
      : aligned
        ? faceyShape(rng, uniform(rng, 0.3, 1.5))
        : rng() < 0.5
          ? faceyShape(rng, uniform(rng, 0.3, 1.5))
          : randomHull3D(rng, uniform(rng, 0.3, 1.5), randInt(rng, 6, 16));
    const qa = aligned ? axisAlignedQuat(rng) : randomQuat(rng);
    const qb = aligned ? axisAlignedQuat(rng) : randomQuat(rng);
    const pick = rng();
    const sign = rng() < 0.5 ? -1 : 1;
    const u: Vec3 = !aligned
      ? randomAxis(rng)
      : pick < 0.4
        ? AXES[randInt(rng, 0, 5)]!
        : (diagonals[randInt(rng, 0, diagonals.length - 1)]!.map((x) => sign * x) as Vec3);
    let va = supportPoint3D(a, qa, u);
    const where = rng();
    if (where < 0.3) {
      // The midpoint of the segment to another vertex of A's face along u (an edge, or a chord).
      const other = supportPoint3D(a, qa, [
        u[0] + 0.3 * (rng() - 0.5),
        u[1] + 0.3 * (rng() - 0.5),
        u[2] + 0.3 * (rng() - 0.5),
      ]);
      va = [0, 1, 2].map((i) => fr((va[i]! + other[i]!) / 2)) as Vec3;
    } else if (where < 0.5) {
      const axis = randInt(rng, 0, 2);
      va = [...va];
      va[axis] = va[axis]! + (rng() < 0.5 ? -0.125 : 0.125);
    }
    // B's surface point furthest along -u: a core point, out by the radius for round shapes.
    const rb = localCore3D(b).radius;
    const vb = supportPoint3D(b, qb, [-u[0], -u[1], -u[2]]).map((x, i) => x - rb * u[i]!) as Vec3;
    const k = rng();
    const gap =
      k < 0.3
        ? 0
        : k < 0.45
          ? 1e-7
          : k < 0.6
            ? -1e-7
            : k < 0.8
              ? uniform(rng, 0, margin)
              : -uniform(rng, 0, 0.1);
    const pa: Vec3 = [
      randInt(rng, -32, 32) / 8,
      randInt(rng, -32, 32) / 8,
      randInt(rng, -32, 32) / 8,
    ];
    const pb: Vec3 = [0, 1, 2].map((i) => pa[i]! + va[i]! - vb[i]! + gap * u[i]!) as Vec3;
    out.add(
      a,
      pa,
      qa,
      b,
      pb,
      qb,
      {
        set: 'feature-on-feature',
        note: `${aligned ? 'aligned' : 'random'}, ${where < 0.3 ? 'edge midpoint' : where < 0.5 ? 'shifted vertex' : 'vertex'}, gap ${gap.toPrecision(3)}`,
      },
      true,
    );
  }
  return out;
}

/**
 * Spheres and capsules exactly touching: a core point of A (a capsule end or midpoint, a sphere's
 * centre) and one of B placed the sum of the radii apart along u, plus a gap of 0, ±1e-7, up to
 * the margin, or sunk by up to a tenth; half aligned by cube symmetries (u an axis: parallel and
 * crossed capsules), half random.
 */
export function roundOnRoundScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  for (let g = 0; g < geometries; g++) {
    const a = rng() < 0.7 ? randomCapsule3D(rng, 1) : randomSphere3D(rng, 1);
    const b =
      rng() < 0.7
        ? randomCapsule3D(rng, uniform(rng, 0.3, 1.5))
        : randomSphere3D(rng, uniform(rng, 0.3, 1.5));
    const aligned = rng() < 0.5;
    const qa = aligned ? axisAlignedQuat(rng) : randomQuat(rng);
    const qb = aligned ? axisAlignedQuat(rng) : randomQuat(rng);
    const ca = localCore3D(a);
    const cb = localCore3D(b);
    const wa = rotate(qa, ca.points[randInt(rng, 0, ca.points.length - 1)]!);
    const wb = rotate(qb, cb.points[randInt(rng, 0, cb.points.length - 1)]!);
    const u = aligned ? AXES[randInt(rng, 0, 5)]! : randomAxis(rng);
    const k = rng();
    const gap =
      k < 0.3
        ? 0
        : k < 0.45
          ? 1e-7
          : k < 0.6
            ? -1e-7
            : k < 0.8
              ? uniform(rng, 0, margin)
              : -uniform(rng, 0, 0.1);
    const d = ca.radius + cb.radius + gap;
    const pa: Vec3 = [
      randInt(rng, -32, 32) / 8,
      randInt(rng, -32, 32) / 8,
      randInt(rng, -32, 32) / 8,
    ];
    const pb: Vec3 = [0, 1, 2].map((i) => pa[i]! + wa[i]! - wb[i]! + d * u[i]!) as Vec3;
    out.add(
      a,
      pa,
      qa,
      b,
      pb,
      qb,
      {
        set: 'round-on-round',
        note: `${aligned ? 'aligned' : 'random'}, gap ${gap.toPrecision(3)}`,
      },
      true,
    );
  }
  return out;
}

/**
 * Coplanar touching (margin 0): identity rotations, B's face exactly on A's face (positions on
 * the f32 grid, so the faces coincide exactly), or beside A with coplanar faces and touching
 * sides.
 */
export function coplanarTouchingScene3D(seed: number, geometries: number): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(0);
  const grid = (x: number): number => Math.round(x * 256) / 256;
  for (let g = 0; g < geometries; g++) {
    const ha: Vec3 = [
      grid(uniform(rng, 0.2, 1.2)),
      grid(uniform(rng, 0.2, 1.2)),
      grid(uniform(rng, 0.2, 1.2)),
    ];
    const hb: Vec3 = [
      grid(uniform(rng, 0.2, 1.2)),
      grid(uniform(rng, 0.2, 1.2)),
      grid(uniform(rng, 0.2, 1.2)),
    ];
    const a: Shape3DInput = { type: 'box', halfExtents: ha };
    const b: Shape3DInput = { type: 'box', halfExtents: hb };
    const axis = randInt(rng, 0, 2);
    const sign = rng() < 0.5 ? -1 : 1;
    const pa: Vec3 = [
      grid(uniform(rng, -4, 4)),
      grid(uniform(rng, -4, 4)),
      grid(uniform(rng, -4, 4)),
    ];
    const pb: Vec3 = [...pa];
    pb[axis] = pa[axis]! + sign * (ha[axis]! + hb[axis]!);
    const beside = rng() < 0.3;
    for (let k = 0; k < 3; k++) {
      if (k === axis) continue;
      // On top: offsets within the overlap; beside: faces coplanar (aligned on one side).
      pb[k] =
        pa[k]! +
        (beside ? hb[k]! - ha[k]! : grid(uniform(rng, -0.8, 0.8) * Math.min(ha[k]!, hb[k]!)));
    }
    out.add(
      a,
      pa,
      [0, 0, 0, 1],
      b,
      pb,
      [0, 0, 0, 1],
      { set: 'coplanar-touching', note: beside ? 'beside' : 'on top' },
      true,
    );
  }
  return out;
}

/** A box (or prism) balanced on one of its edges on a face of A, gap around 0. */
export function edgeOnFaceScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  for (let g = 0; g < geometries; g++) {
    const a = faceyShape(rng, 1.5);
    const b = randomBox3D(rng, uniform(rng, 0.3, 1));
    const qa = axisAlignedQuat(rng);
    // 45° (± a little) about one of B's axes: an edge points down.
    const axis: Vec3 = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ][randInt(rng, 0, 2)]! as Vec3;
    const tilt = Math.PI / 4 + (rng() < 0.5 ? 0 : uniform(rng, -1e-3, 1e-3));
    const qb = quatMul(axisAlignedQuat(rng), axisAngle(axis, tilt));
    const u = AXES[randInt(rng, 0, 5)]!;
    const gap = rng() < 0.4 ? 0 : uniform(rng, -0.05, margin);
    const rel = touchingOffset(a, qa, b, qb, u, gap);
    const pa: Vec3 = [uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)];
    const pb: Vec3 = [0, 1, 2].map(
      (i) => pa[i]! + rel[i]! + (u[i] === 0 ? uniform(rng, -0.5, 0.5) : 0),
    ) as Vec3;
    out.add(a, pa, qa, b, pb, qb, { set: 'edge-on-face', note: `gap ${gap.toPrecision(3)}` }, true);
  }
  return out;
}

/** Deep penetration: B's centre anywhere inside A's reach, down to coincident centres. */
export function deepPenetrationScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  const kinds: ShapeKind3D[] = ['box', 'hull', 'sphere', 'capsule'];
  for (let g = 0; g < geometries; g++) {
    const a = randomShape3D(rng, kinds[randInt(rng, 0, 3)]!, 1);
    const b = randomShape3D(rng, kinds[randInt(rng, 0, 3)]!, uniform(rng, 0.3, 1.2));
    const aligned = rng() < 0.5;
    const qa = aligned ? nearlyAlignedQuat(rng) : randomQuat(rng);
    const qb = aligned ? nearlyAlignedQuat(rng) : randomQuat(rng);
    const u = randomAxis(rng);
    const touch = touchingOffset(a, qa, b, qb, u, 0);
    const f = rng() < 0.05 ? 0 : uniform(rng, 0, 0.7);
    const pa: Vec3 = [uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)];
    const pb: Vec3 = [0, 1, 2].map((i) => pa[i]! + f * touch[i]!) as Vec3;
    out.add(
      a,
      pa,
      qa,
      b,
      pb,
      qb,
      { set: 'deep-penetration', note: `${a.type}-${b.type} at ${f.toFixed(2)} of touching` },
      true,
    );
  }
  return out;
}

/** Every pair type mixed at one scale (sizes, positions and margin scaled alike). */
export function scaledScene3D(seed: number, geometries: number, scale: number): SceneBuilder3D {
  const rng = mulberry32(seed);
  const types = Object.keys(SWEEP_TYPES_3D) as SweepType3D[];
  const out = new SceneBuilder3D(0.05 * scale);
  for (let g = 0; g < geometries; g++) {
    const type = types[randInt(rng, 0, types.length - 1)]!;
    const one = sweepScene3D(type, Math.floor(rng() * 2 ** 32), {
      geometries: 1,
      margin: 0.05 * scale,
      size: scale,
      offset: 10 * scale,
    });
    const [ia, ib] = one.pairs[0]!;
    const ba = one.bodies[ia]!;
    const bb = one.bodies[ib]!;
    out.add(
      one.shapes[ba.shape]!,
      ba.position,
      ba.rotation!,
      one.shapes[bb.shape]!,
      bb.position,
      bb.rotation!,
      { set: `scale ${scale}`, note: type },
      true,
    );
  }
  return out;
}

/** Rotations within 1e-7..1e-3 rad of 90° about a shared axis (face pairs nearly parallel, nearly perpendicular edges). */
export function nearRightAnglesScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  for (let g = 0; g < geometries; g++) {
    const a = faceyShape(rng, 1, true);
    const b = faceyShape(rng, uniform(rng, 0.3, 1.2), true);
    const qa = axisAlignedQuat(rng);
    const axis: Vec3 = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ][randInt(rng, 0, 2)]! as Vec3;
    const eps = (rng() < 0.5 ? -1 : 1) * logUniform(rng, 1e-7, 1e-3);
    const qb = quatMul(axisAngle(axis, Math.PI / 2 + eps), qa);
    const u = rng() < 0.6 ? AXES[randInt(rng, 0, 5)]! : randomAxis(rng);
    const gap = uniform(rng, -0.2, margin);
    const rel = touchingOffset(a, qa, b, qb, u, gap);
    const pa: Vec3 = [uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)];
    const pb: Vec3 = [0, 1, 2].map(
      (i) => pa[i]! + rel[i]! + (rng() < 0.5 ? 0 : uniform(rng, -0.3, 0.3)),
    ) as Vec3;
    out.add(
      a,
      pa,
      qa,
      b,
      pb,
      qb,
      { set: 'near-right-angles', note: `90° + ${eps.toExponential(1)}` },
      true,
    );
  }
  return out;
}

/**
 * A hull of points sampled on the faces of a box of half extents h, each off its face by up to
 * `noise` of the box's size, plus the corners: merged faces whose vertices lie up to the merge
 * tolerance off their planes.
 */
function noisyBoxHull3D(rng: Rng, h: Vec3, noise: number): Shape3DInput {
  const size = Math.max(...h);
  const vertices: Vec3[] = [];
  for (let k = 0; k < randInt(rng, 8, 40); k++) {
    const p: Vec3 = [uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1)];
    const axis = randInt(rng, 0, 2);
    p[axis] = rng() < 0.5 ? -1 : 1;
    vertices.push(
      p.map((x, i) =>
        fr(x * h[i]! + (i === axis ? noise * size * uniform(rng, -1, 1) : 0)),
      ) as Vec3,
    );
  }
  for (let k = 0; k < 8; k++)
    vertices.push(
      [k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]].map(fr) as Vec3,
    );
  return { type: 'hull', vertices };
}

/**
 * Noisy merged faces and thin shapes: hulls sampled on a box's faces with noise up to the merge
 * tolerance (1e-7..1e-4 of the size), plates (thickness 2e-4..1e-2 of the size) and needles as
 * boxes and as hulls, against each other and against boxes, hulls, spheres and capsules; nearly
 * aligned or random, touching along a random or axis direction, sunk by up to half the thinner
 * size or apart by up to the margin, 30% slid sideways by up to 0.05.
 */
export function noisyAndThinScene3D(
  seed: number,
  geometries: number,
  margin: number,
): SceneBuilder3D {
  const rng = mulberry32(seed);
  const out = new SceneBuilder3D(margin);
  const shape = (size: number): { s: Shape3DInput; thin: number; name: string } => {
    const k = randInt(rng, 0, 7);
    const t = logUniform(rng, 2e-4, 1e-2) * size;
    const h: Vec3 = [
      size * uniform(rng, 0.5, 1),
      size * uniform(rng, 0.5, 1),
      size * uniform(rng, 0.5, 1),
    ];
    if (k === 0)
      return {
        s: noisyBoxHull3D(rng, h, logUniform(rng, 1e-7, 1e-4)),
        thin: Math.min(...h),
        name: 'noisy box hull',
      };
    if (k === 1)
      return {
        s: { type: 'box', halfExtents: [h[0], h[1], t].map(fr) as Vec3 },
        thin: t,
        name: 'plate box',
      };
    if (k === 2)
      return {
        s: { type: 'box', halfExtents: [h[0], t, t].map(fr) as Vec3 },
        thin: t,
        name: 'needle box',
      };
    if (k === 3) return { s: noisyBoxHull3D(rng, [h[0], h[1], t], 0), thin: t, name: 'plate hull' };
    if (k === 4) return { s: randomBox3D(rng, size), thin: size / 2, name: 'box' };
    if (k === 5) return { s: randomHull3D(rng, size), thin: size / 2, name: 'hull' };
    if (k === 6) return { s: randomSphere3D(rng, size), thin: size / 2, name: 'sphere' };
    return { s: randomCapsule3D(rng, size), thin: size / 4, name: 'capsule' };
  };
  for (let g = 0; g < geometries; g++) {
    const a = shape(1);
    const b = shape(uniform(rng, 0.3, 1.2));
    const aligned = rng() < 0.5;
    const qa = aligned ? nearlyAlignedQuat(rng) : randomQuat(rng);
    const qb = aligned ? nearlyAlignedQuat(rng) : randomQuat(rng);
    const u = aligned && rng() < 0.7 ? AXES[randInt(rng, 0, 5)]! : randomAxis(rng);
    const gap =
      rng() < 0.5 ? uniform(rng, -0.5 * Math.min(a.thin, b.thin), 0) : uniform(rng, 0, margin);
    const rel = touchingOffset(a.s, qa, b.s, qb, u, gap);
    const pa: Vec3 = [uniform(rng, -5, 5), uniform(rng, -5, 5), uniform(rng, -5, 5)];
    const slide = rng() < 0.7 ? 0 : 0.05;
    const pb: Vec3 = [0, 1, 2].map((i) => pa[i]! + rel[i]! + uniform(rng, -slide, slide)) as Vec3;
    out.add(
      a.s,
      pa,
      qa,
      b.s,
      pb,
      qb,
      { set: 'noisy-and-thin', note: `${a.name}-${b.name}, gap ${gap.toExponential(1)}` },
      true,
    );
  }
  return out;
}
