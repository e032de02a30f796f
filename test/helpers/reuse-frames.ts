// Frames of wobbling scenes for manifold reuse (test/reuse-*.test.ts, bench/reuse-accuracy.ts):
// a fixed pair list (slot k is slot k every frame, prevSlot = identity), bodies moved each frame,
// the CPU narrowphase's fresh manifold of every pair beside the reuse stage's, and what reuse cost.
//
// Scenes ("worlds"):
//   piles: a block of bodies in contact, each body moved every frame by a random offset of up to
//     1e-3 of its size per axis and turned by up to 1e-3 rad about a random axis (2D: about z),
//     around its rest pose (the bench's warm wobble); 2D boxes, 2D mixed (boxes, polygons,
//     circles, capsules), 3D bricks and block (boxes) and a 3D block of boxes, hulls, spheres
//     and capsules;
//   the coherence families of test/coherence3d.test.ts: B resting on a face of A 0.005 deep,
//     wobbled by that test's formula (B alone: 1e-3 rad, 1e-3 in position).
// A frame: the fresh manifolds F of every pair (collidePacked2D/3D); the reuse pass on last
// frame's anchors writes the kept and apart slots of R; the other slots of R are F's (what the
// full collide gives); the anchor pass builds their anchors. Costs are measured on R against F.

import { sweepAndPrune2D } from '../../src/broadphase2d.ts';
import { sweepAndPrune3D } from '../../src/broadphase3d.ts';
import { LAYOUT_2D } from '../../src/layout2d.ts';
import { LAYOUT_3D } from '../../src/layout3d.ts';
import { collidePacked2D, prepareCpu2D } from '../../src/cpu/narrowphase2d.ts';
import { collidePacked3D, prepareCpu3D } from '../../src/cpu/narrowphase3d.ts';
import { REUSE_STATUS, anchorSlots, reuseSlots, type ReuseCounts } from '../../src/cpu/reuse.ts';
import { emptyAnchor2D, loadAnchor2D, reusePairs2D } from '../../src/cpu/reuse2d.ts';
import { emptyAnchor3D, loadAnchor3D, reusePairs3D } from '../../src/cpu/reuse3d.ts';
import { REUSE_ROTATION } from '../../src/constants.ts';
import { CONTACT_KIND_3D, REUSE_ROTATION_3D } from '../../src/constants3d.ts';
import { packBodies2D, packScene2D, unpackShapes2D, type Packed2D } from '../../src/pack2d.ts';
import { packBodies3D, packScene3D, unpackShapes3D, type Packed3D } from '../../src/pack3d.ts';
import { rng, randomPolygon } from '../../src/random2d.ts';
import type { Scene2D, Scene3D } from '../../src/scene.ts';
import { makeShape2D, type Shape2D, type Shape2DInput } from '../../src/shapes2d.ts';
import {
  makeShape3D,
  type Quat,
  type Shape3D,
  type Shape3DInput,
  type Vec3,
} from '../../src/shapes3d.ts';
import {
  axisAngle,
  quatMul,
  randomBox3D,
  randomCapsule3D,
  randomHull3D,
  rotate,
  touchingOffset,
  type Rng,
} from './random3d.ts';

/** The bench's wobble: offsets up to this × the body's size per axis, turns up to this many radians. */
export const WOBBLE = 1e-3;
/** The piles' margin (the bench's). */
const PILE_MARGIN = 0.02;

const anchor2D = emptyAnchor2D();
const anchor3D = emptyAnchor3D();

/** A manifold slot read for comparison. */
export interface SlotView {
  count: number;
  normal: number[];
  depths: number[];
  ids: number[];
}

/** A wobbling scene with a fixed pair list, and its CPU stages. */
export interface ReuseWorld {
  name: string;
  dim: 2 | 3;
  margin: number;
  pairs: Uint32Array;
  pairCount: number;
  /** Per pair: its length scale min(extent A, extent B) and what it is (coverage). */
  scale: Float64Array;
  kinds: string[];
  anchorBytes: number;
  manifoldBytes: number;
  /** The packed scene (rest bodies): shapes, hull buffers, pairs, margin for the GPU. */
  packed: Packed2D | Packed3D;
  /** The packed bodies of frame f (frame 0: the rest pose). */
  bodiesAt(frame: number): ArrayBuffer;
  fresh(bodies: ArrayBuffer, margin: number): ArrayBuffer;
  reuse(
    bodies: ArrayBuffer,
    anchorsPrev: ArrayBuffer | null,
    anchorsCur: ArrayBuffer,
    manifolds: ArrayBuffer,
    flags: Uint32Array,
    margin: number,
  ): ReuseCounts;
  anchors(
    bodies: ArrayBuffer,
    manifolds: ArrayBuffer,
    flags: Uint32Array,
    anchorsCur: ArrayBuffer,
    margin: number,
  ): void;
  slot(manifolds: ArrayBuffer, k: number): SlotView;
  /** The point count of the anchor in slot k. */
  anchorCount(anchors: ArrayBuffer, k: number): number;
  /** Anchor k's normal carried with A and with B to the poses of `bodies`. */
  carried(bodies: ArrayBuffer, anchors: ArrayBuffer, k: number): CarriedNormal;
}

/** Manifold slot k of `buf` (layout M of either dimension). */
function readSlot(
  M: typeof LAYOUT_2D.manifold | typeof LAYOUT_3D.manifold,
  dim: number,
  buf: ArrayBuffer,
  k: number,
): SlotView {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const o = k * M.words;
  const count = u[o + M.count]!;
  const view: SlotView = {
    count,
    normal: Array.from(f.subarray(o + M.normal, o + M.normal + dim)),
    depths: [],
    ids: [],
  };
  for (let i = 0; i < count; i++) {
    view.depths.push(f[o + M.points + i * M.pointStride + M.pointDepth]!);
    view.ids.push(u[o + M.ids + i * M.idStride]!);
  }
  return view;
}

/** Per pair: its length scale and its kinds' names (coverage). */
function pairKinds(
  shapes: readonly { extent: number; kind: number }[],
  bodyShape: Uint32Array,
  pairs: Uint32Array,
  names: readonly string[],
): { scale: Float64Array; kinds: string[] } {
  const scale = new Float64Array(pairs.length / 2);
  const kinds: string[] = [];
  for (let k = 0; k < scale.length; k++) {
    const a = shapes[bodyShape[pairs[2 * k]!]!]!;
    const b = shapes[bodyShape[pairs[2 * k + 1]!]!]!;
    scale[k] = Math.min(a.extent, b.extent);
    kinds.push(`${names[a.kind]}-${names[b.kind]}`);
  }
  return { scale, kinds };
}

// ---- 2D --------------------------------------------------------------------------------------------

const KIND_2D = ['polygon', 'box', 'circle', 'capsule'];

export function world2D(
  name: string,
  scene: Scene2D,
  pairs: Uint32Array,
  bodyMotion: (frame: number, positions: Float64Array, angles: Float64Array) => void,
): ReuseWorld {
  const packed = packScene2D(scene, pairs);
  const prepared = prepareCpu2D(packed, scene.shapes.length);
  const shapes = unpackShapes2D(packed.shapes, scene.shapes.length);
  const n = scene.bodyShape.length;
  const pairCount = pairs.length / 2;
  const { scale, kinds } = pairKinds(shapes, scene.bodyShape, pairs, KIND_2D);
  const positions = new Float64Array(2 * n);
  const angles = new Float64Array(n);
  const cpu = (bodies: ArrayBuffer) => {
    prepared.bodies.set(new Float32Array(bodies));
    return { shapes, bodies: prepared.bodies };
  };
  const M = LAYOUT_2D.manifold;
  return {
    name,
    dim: 2,
    margin: scene.margin,
    pairs,
    pairCount,
    scale,
    kinds,
    packed,
    anchorBytes: Math.max(1, pairCount) * LAYOUT_2D.anchor.words * 4,
    manifoldBytes: Math.max(1, pairCount) * M.words * 4,
    bodiesAt(frame) {
      positions.set(scene.bodyPosition);
      angles.set(scene.bodyAngle);
      if (frame > 0) bodyMotion(frame, positions, angles);
      return packBodies2D({
        bodyShape: scene.bodyShape,
        bodyPosition: positions,
        bodyAngle: angles,
      });
    },
    fresh(bodies, margin) {
      cpu(bodies);
      return collidePacked2D(prepared, { ...packed, bodies, margin });
    },
    reuse: (bodies, prev, cur, manifolds, flags, margin) =>
      reuseSlots(
        reusePairs2D(cpu(bodies)),
        pairs,
        pairCount,
        null,
        0,
        prev,
        cur,
        manifolds,
        flags,
        margin,
      ),
    anchors: (bodies, manifolds, flags, cur, margin) =>
      anchorSlots(reusePairs2D(cpu(bodies)), pairs, pairCount, manifolds, flags, cur, margin),
    slot: (buf, k) => readSlot(M, 2, buf, k),
    anchorCount: (buf, k) =>
      new Uint32Array(buf)[k * LAYOUT_2D.anchor.words + LAYOUT_2D.anchor.countJoin]! & 0xff,
    carried(bodies, anchors, k) {
      loadAnchor2D(anchors, k, anchor2D);
      const f = new Float32Array(bodies);
      const B = LAYOUT_2D.body;
      const ia = pairs[2 * k]! * B.words + B.rotation;
      const ib = pairs[2 * k + 1]! * B.words + B.rotation;
      const ca = f[ia]!,
        sa = f[ia + 1]!,
        cb = f[ib]!,
        sb = f[ib + 1]!;
      // World normal carried with A: R_A n; with B: R_B R0ᵀ n (R0: B relative to A when built).
      const a = anchor2D;
      const nbx = a.c * a.nx + a.s * a.ny;
      const nby = -a.s * a.nx + a.c * a.ny;
      return {
        withA: [ca * a.nx - sa * a.ny, sa * a.nx + ca * a.ny],
        withB: [cb * nbx - sb * nby, sb * nbx + cb * nby],
        join: a.join,
      };
    },
  };
}

/** Moves every body by `wobble` around its rest pose (seeded by frame). */
function wobble2D(seed: number, size: Float64Array, wobble: number) {
  return (frame: number, positions: Float64Array, angles: Float64Array): void => {
    const random = rng(seed + 7919 * frame);
    for (let i = 0; i < angles.length; i++) {
      positions[2 * i] += wobble * size[i]! * (2 * random() - 1);
      positions[2 * i + 1] += wobble * size[i]! * (2 * random() - 1);
      angles[i] += wobble * (2 * random() - 1);
    }
  };
}

/**
 * A side × side block of 2D bodies, spacing a little under their size, jittered and turned a few
 * degrees (the bench's 2D pile); `mixed`: a third of them polygons, circles and capsules.
 * `wobble`: the motion each frame (default the bench's).
 */
export function pile2D(side: number, mixed: boolean, seed = 0x2d17, wobble = WOBBLE): ReuseWorld {
  const random = rng(seed);
  const inputs: Shape2DInput[] = Array.from({ length: 8 }, () => ({
    type: 'box',
    halfExtents: [0.47 + 0.04 * random(), 0.47 + 0.04 * random()],
  }));
  if (mixed) {
    for (let k = 0; k < 2; k++) inputs.push({ type: 'circle', radius: 0.47 + 0.03 * random() });
    for (let k = 0; k < 2; k++)
      inputs.push({ type: 'capsule', a: [-0.24, 0], b: [0.24, 0], radius: 0.24 + 0.02 * random() });
    for (let k = 0; k < 2; k++)
      inputs.push({ type: 'polygon', vertices: randomPolygon(random, 5 + k, 0.5) });
  }
  const shapes: Shape2D[] = inputs.map((s, i) => makeShape2D(s, i));
  const n = side * side;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(2 * n);
  const bodyAngle = new Float64Array(n);
  const size = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    bodyShape[i] =
      mixed && random() < 0.35 ? 8 + Math.floor(6 * random()) : Math.floor(8 * random());
    bodyPosition[2 * i] = 0.96 * (i % side) + 0.01 * (2 * random() - 1);
    bodyPosition[2 * i + 1] = 0.96 * Math.floor(i / side) + 0.01 * (2 * random() - 1);
    bodyAngle[i] = 0.04 * (2 * random() - 1);
    size[i] = shapes[bodyShape[i]!]!.extent;
  }
  const scene: Scene2D = {
    dim: 2,
    margin: PILE_MARGIN,
    shapes,
    bodyShape,
    bodyPosition,
    bodyAngle,
    pairs: null,
  };
  return world2D(
    mixed ? '2D mixed pile' : '2D box pile',
    scene,
    sweepAndPrune2D(scene),
    wobble2D(seed, size, wobble),
  );
}

// ---- 3D --------------------------------------------------------------------------------------------

const KIND_3D = ['hull', 'box', 'sphere', 'capsule'];

export function world3D(
  name: string,
  scene: Scene3D,
  pairs: Uint32Array,
  bodyMotion: (frame: number, positions: Float64Array, rotations: Float64Array) => void,
): ReuseWorld {
  const packed = packScene3D(scene, pairs);
  const prepared = prepareCpu3D(packed);
  const shapes = unpackShapes3D(packed);
  const n = scene.bodyShape.length;
  const pairCount = pairs.length / 2;
  const { scale, kinds } = pairKinds(shapes, scene.bodyShape, pairs, KIND_3D);
  const positions = new Float64Array(3 * n);
  const rotations = new Float64Array(4 * n);
  const cpu = (bodies: ArrayBuffer) => {
    prepared.bodies.set(new Float32Array(bodies));
    return { shapes, bodies: prepared.bodies };
  };
  const M = LAYOUT_3D.manifold;
  return {
    name,
    dim: 3,
    margin: scene.margin,
    pairs,
    pairCount,
    scale,
    kinds,
    packed,
    anchorBytes: Math.max(1, pairCount) * LAYOUT_3D.anchor.words * 4,
    manifoldBytes: Math.max(1, pairCount) * M.words * 4,
    bodiesAt(frame) {
      positions.set(scene.bodyPosition);
      rotations.set(scene.bodyRotation);
      if (frame > 0) bodyMotion(frame, positions, rotations);
      return packBodies3D({
        bodyShape: scene.bodyShape,
        bodyPosition: positions,
        bodyRotation: rotations,
      });
    },
    fresh(bodies, margin) {
      cpu(bodies);
      return collidePacked3D(prepared, { ...packed, bodies, margin });
    },
    reuse: (bodies, prev, cur, manifolds, flags, margin) =>
      reuseSlots(
        reusePairs3D(cpu(bodies)),
        pairs,
        pairCount,
        null,
        0,
        prev,
        cur,
        manifolds,
        flags,
        margin,
      ),
    anchors: (bodies, manifolds, flags, cur, margin) =>
      anchorSlots(reusePairs3D(cpu(bodies)), pairs, pairCount, manifolds, flags, cur, margin),
    slot: (buf, k) => readSlot(M, 3, buf, k),
    anchorCount: (buf, k) =>
      new Uint32Array(buf)[k * LAYOUT_3D.anchor.words + LAYOUT_3D.anchor.countKind]! & 0xff,
    carried(bodies, anchors, k) {
      loadAnchor3D(anchors, k, anchor3D);
      const f = new Float32Array(bodies);
      const B = LAYOUT_3D.body;
      const qa = f.subarray(
        pairs[2 * k]! * B.words + B.rotation,
        pairs[2 * k]! * B.words + B.rotation + 4,
      );
      const qb = f.subarray(
        pairs[2 * k + 1]! * B.words + B.rotation,
        pairs[2 * k + 1]! * B.words + B.rotation + 4,
      );
      const a = anchor3D;
      const q0 = a.rotation;
      // With A: R_A n; with B: R_B R0ᵀ n (R0: B relative to A when built).
      const inB = rotate([-q0[0]!, -q0[1]!, -q0[2]!, q0[3]!], a.normal);
      return {
        withA: rotate(qa, a.normal),
        withB: rotate(qb, inB),
        join: a.kind === CONTACT_KIND_3D.closest,
      };
    },
  };
}

/** A unit quaternion turning by up to `angle` about a uniformly random axis. */
function smallTurn(random: Rng, angle: number): Quat {
  const z = 2 * random() - 1;
  const t = 2 * Math.PI * random();
  const s = Math.sqrt(1 - z * z);
  return axisAngle([s * Math.cos(t), s * Math.sin(t), z], angle * (2 * random() - 1));
}

function wobble3D(seed: number, size: Float64Array, wobble: number) {
  return (frame: number, positions: Float64Array, rotations: Float64Array): void => {
    const random = rng(seed + 7919 * frame);
    for (let i = 0; i < size.length; i++) {
      for (let c = 0; c < 3; c++) positions[3 * i + c] += wobble * size[i]! * (2 * random() - 1);
      const q = quatMul(
        smallTurn(random, wobble),
        Array.from(rotations.subarray(4 * i, 4 * i + 4)) as Quat,
      );
      rotations.set(q, 4 * i);
    }
  };
}

export type Pile3DLayout = 'bricks' | 'block' | 'mixed';

/**
 * side³ bodies in layers along y, turned up to 0.04 rad about random axes (the bench's 3D piles):
 * `bricks`, every other layer shifted half a spacing and side neighbours apart (each box rests on
 * 4 below); `block`, a cubic block pressing on every neighbour; `mixed`, the block with a third
 * of the boxes replaced by hulls, spheres and capsules. `wobble`: the motion each frame.
 */
export function pile3D(
  side: number,
  layout: Pile3DLayout,
  seed = 0x3d17,
  wobble = WOBBLE,
): ReuseWorld {
  const random = rng(seed);
  const inputs: Shape3DInput[] = Array.from({ length: 8 }, () => ({
    type: 'box',
    halfExtents: [0.47 + 0.04 * random(), 0.47 + 0.04 * random(), 0.47 + 0.04 * random()] as Vec3,
  }));
  if (layout === 'mixed') {
    for (let k = 0; k < 2; k++) inputs.push(randomHull3D(random, 0.45));
    for (let k = 0; k < 2; k++) inputs.push({ type: 'sphere', radius: 0.47 + 0.03 * random() });
    for (let k = 0; k < 2; k++)
      inputs.push({
        type: 'capsule',
        a: [-0.24, 0, 0],
        b: [0.24, 0, 0],
        radius: 0.24 + 0.02 * random(),
      });
  }
  const shapes = inputs.map((s, i) => makeShape3D(s, i));
  const n = side * side * side;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(3 * n);
  const bodyRotation = new Float64Array(4 * n);
  const size = new Float64Array(n);
  const h = layout === 'bricks' ? 1.06 : 0.96;
  for (let i = 0; i < n; i++) {
    bodyShape[i] =
      layout === 'mixed' && random() < 0.35
        ? 8 + Math.floor(6 * random())
        : Math.floor(8 * random());
    const level = Math.floor(i / (side * side));
    const shift = layout === 'bricks' && level % 2 === 1 ? h / 2 : 0;
    bodyPosition[3 * i] = h * (i % side) + shift + 0.01 * (2 * random() - 1);
    bodyPosition[3 * i + 1] = 0.96 * level + 0.01 * (2 * random() - 1);
    bodyPosition[3 * i + 2] = h * (Math.floor(i / side) % side) + shift + 0.01 * (2 * random() - 1);
    bodyRotation.set(smallTurn(random, 0.04), 4 * i);
    size[i] = shapes[bodyShape[i]!]!.extent;
  }
  const scene: Scene3D = {
    dim: 3,
    margin: PILE_MARGIN,
    shapes,
    bodyShape,
    bodyPosition,
    bodyRotation,
    pairs: null,
  };
  return world3D(`3D ${layout} pile`, scene, sweepAndPrune3D(scene), wobble3D(seed, size, wobble));
}

/** The coherence families of test/coherence3d.test.ts: A on the ground, B on it (its xy offset). */
export const COHERENCE_FAMILIES: Record<
  string,
  (random: Rng) => { a: Shape3DInput; b: Shape3DInput; offset: [number, number] }
> = {
  'equal cubes stacked': () => ({
    a: { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
    b: { type: 'box', halfExtents: [0.5, 0.5, 0.5] },
    offset: [0, 0],
  }),
  'box over a box edge': (r) => ({
    a: randomBox3D(r, 0.5),
    b: randomBox3D(r, 0.5),
    offset: [1.2 * r() - 0.6, 1.2 * r() - 0.6],
  }),
  'hull on a box': (r) => ({
    a: { type: 'box', halfExtents: [3, 3, 0.5] },
    b: randomHull3D(r, 0.5),
    offset: [2 * r() - 1, 2 * r() - 1],
  }),
  'box on a hull': (r) => ({ a: randomHull3D(r, 1.5), b: randomBox3D(r, 0.3), offset: [0, 0] }),
  'hull on a hull': (r) => ({ a: randomHull3D(r, 0.7), b: randomHull3D(r, 0.5), offset: [0, 0] }),
  'capsule on a hull': (r) => ({
    a: randomHull3D(r, 1.5),
    b: randomCapsule3D(r, 0.5),
    offset: [0, 0],
  }),
};

/** A rotation turning a random face of hull s to `to` (boxes and round shapes: none). */
function faceTurnedTo(random: Rng, s: Shape3D, to: Vec3): Quat {
  if (s.kind !== 0) return [0, 0, 0, 1];
  const f = Math.floor(random() * s.faceCount);
  const n: Vec3 = [s.planes[4 * f]!, s.planes[4 * f + 1]!, s.planes[4 * f + 2]!];
  const axis: Vec3 = [
    n[1] * to[2] - n[2] * to[1],
    n[2] * to[0] - n[0] * to[2],
    n[0] * to[1] - n[1] * to[0],
  ];
  const sine = Math.hypot(...axis);
  return sine < 1e-12
    ? [0, 0, 0, 1]
    : axisAngle(axis, Math.atan2(sine, n[0] * to[0] + n[1] * to[1] + n[2] * to[2]));
}

/**
 * `poses` pairs of one coherence family, 10 apart: B on A's top 0.005 deep at a random yaw, then
 * B wobbled each frame by coherence3d's formula (1e-3 rad and 1e-3 in position; margin 0.01).
 */
export function coherenceFamily(name: string, poses: number, seed = 1): ReuseWorld {
  const random = rng(seed);
  const family = COHERENCE_FAMILIES[name]!;
  const inputs: Shape3DInput[] = [];
  const bodyPosition = new Float64Array(6 * poses);
  const bodyRotation = new Float64Array(8 * poses);
  const restB: Quat[] = [];
  for (let c = 0; c < poses; c++) {
    const yaw = axisAngle([0, 0, 1], 2 * Math.PI * random());
    const { a, b, offset } = family(random);
    const sa = makeShape3D(a, 0);
    const sb = makeShape3D(b, 1);
    const qa = faceTurnedTo(random, sa, [0, 0, 1]);
    const qb = quatMul(yaw, faceTurnedTo(random, sb, [0, 0, -1]));
    const up = touchingOffset(a, qa, b, qb, [0, 0, 1], -0.005);
    inputs.push(a, b);
    bodyPosition.set([10 * c, 0, 0, 10 * c + offset[0], offset[1], up[2]], 6 * c);
    bodyRotation.set([...qa, ...qb], 8 * c);
    restB.push(qb);
  }
  const shapes = inputs.map((s, i) => makeShape3D(s, i));
  const bodyShape = Uint32Array.from({ length: 2 * poses }, (_, i) => i);
  const pairs = Uint32Array.from({ length: 2 * poses }, (_, i) => i);
  const scene: Scene3D = {
    dim: 3,
    margin: 0.01,
    shapes,
    bodyShape,
    bodyPosition,
    bodyRotation,
    pairs,
  };
  return world3D(name, scene, pairs, (s, positions, rotations) => {
    for (let c = 0; c < poses; c++) {
      const q = quatMul(
        axisAngle([Math.sin(s * 1.7), Math.cos(s * 0.3), 0.2], WOBBLE * Math.sin(s * 0.9)),
        restB[c]!,
      );
      rotations.set(q, 8 * c + 4);
      positions[6 * c + 3] += WOBBLE * Math.sin(s * 1.3);
      positions[6 * c + 4] += WOBBLE * Math.cos(s * 0.7);
      positions[6 * c + 5] += WOBBLE * Math.sin(s * 0.5);
    }
  });
}

// ---- frames and what reuse cost ------------------------------------------------------------------

/**
 * What reuse cost against fresh manifolds, over the frames after the first. A kept manifold is
 * compared with the fresh one of the same pose. The fresh collide "switched" when its normal is
 * within REUSE_ROTATION of neither the anchor's normal carried with A (the reused normal) nor
 * the anchor's normal carried with B: it picked another SAT axis or feature (near-ties: two
 * boxes overlapping at a corner or an edge tie two face axes); there the reused normal may be up
 * to 90° off and what counts is the deepest depth, which a solver pushes out (kept within the
 * slop). Join contacts (recomputed as joins) never switch. The other kept manifolds "agree"
 * and carry the normal, depth and point costs.
 */
export interface ReuseCost {
  pairs: number;
  frames: number;
  kept: number;
  apart: number;
  collide: number;
  /** Pair-frames with a contact (fresh count > 0) and, of them, reused ones. */
  touching: number;
  touchingReused: number;
  /** Agreeing kept pair-frames; the largest angle between reused and fresh normal (radians). */
  agree: number;
  normalError: number;
  /** Largest |deepest reused depth − deepest fresh depth| / scale, agreeing and switched. */
  depthError: number;
  switched: number;
  switchedDepthError: number;
  /** Kept pair-frames whose deepest depth is off by more than the linear slop (0.005 × scale). */
  depthOverSlop: number;
  /** Points the reuse dropped (slid too far or beyond the margin). */
  dropped: number;
  /** Agreeing: fresh points (by id) the reused manifold lacks, and the deepest of them (× scale). */
  missing: number;
  missingDeepest: number;
  /** Agreeing: reused points (by id) the fresh manifold lacks. */
  stale: number;
  /** Reused manifolds where the fresh one has no contact. */
  phantom: number;
  /** Pairs reused as apart whose fresh manifold has a contact: must be 0 (the proof is exact). */
  apartWrong: number;
  /** Points of fresh and reused manifolds (agreeing pair-frames). */
  freshPoints: number;
  reusedPoints: number;
}

export function emptyCost(): ReuseCost {
  return {
    pairs: 0,
    frames: 0,
    kept: 0,
    apart: 0,
    collide: 0,
    touching: 0,
    touchingReused: 0,
    agree: 0,
    normalError: 0,
    depthError: 0,
    switched: 0,
    switchedDepthError: 0,
    depthOverSlop: 0,
    dropped: 0,
    missing: 0,
    missingDeepest: -Infinity,
    stale: 0,
    phantom: 0,
    apartWrong: 0,
    freshPoints: 0,
    reusedPoints: 0,
  };
}

/** Box2D's linear slop, relative to the size. */
export const LINEAR_SLOP = 0.005;

export function angleBetween(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let cross2 = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  if (a.length === 2) cross2 = (a[0]! * b[1]! - a[1]! * b[0]!) ** 2;
  else {
    cross2 =
      (a[1]! * b[2]! - a[2]! * b[1]!) ** 2 +
      (a[2]! * b[0]! - a[0]! * b[2]!) ** 2 +
      (a[0]! * b[1]! - a[1]! * b[0]!) ** 2;
  }
  return Math.atan2(Math.sqrt(cross2), dot);
}

/** The anchor's normal carried with A and with B to the current pose (world), and whether it is a join. */
export interface CarriedNormal {
  withA: number[];
  withB: number[];
  join: boolean;
}

/** Adds slot k's cost (R reused with `status`, F fresh, the anchor's normal carried) into `cost`. */
export function costOfSlot(
  world: ReuseWorld,
  k: number,
  status: number,
  R: SlotView,
  F: SlotView,
  anchorCount: number,
  carried: CarriedNormal,
  cost: ReuseCost,
): void {
  if (F.count > 0) cost.touching++;
  if (status === REUSE_STATUS.collide) return;
  if (status === REUSE_STATUS.apart) {
    if (F.count > 0) cost.apartWrong++;
    return;
  }
  if (F.count > 0) cost.touchingReused++;
  cost.dropped += anchorCount - R.count;
  if (F.count === 0) {
    cost.phantom++;
    return;
  }
  const scale = world.scale[k]!;
  const depthError = Math.abs(Math.max(...R.depths) - Math.max(...F.depths)) / scale;
  if (depthError > LINEAR_SLOP) cost.depthOverSlop++;
  const rotation = world.dim === 2 ? REUSE_ROTATION : REUSE_ROTATION_3D;
  const same =
    carried.join ||
    Math.min(angleBetween(F.normal, carried.withA), angleBetween(F.normal, carried.withB)) <=
      rotation;
  if (!same) {
    cost.switched++;
    cost.switchedDepthError = Math.max(cost.switchedDepthError, depthError);
    return;
  }
  cost.agree++;
  cost.freshPoints += F.count;
  cost.reusedPoints += R.count;
  cost.normalError = Math.max(cost.normalError, angleBetween(R.normal, F.normal));
  cost.depthError = Math.max(cost.depthError, depthError);
  F.ids.forEach((id, i) => {
    if (!R.ids.includes(id)) {
      cost.missing++;
      cost.missingDeepest = Math.max(cost.missingDeepest, F.depths[i]! / scale);
    }
  });
  for (const id of R.ids) if (!F.ids.includes(id)) cost.stale++;
}

/** One frame's buffers: R (fresh slots overwritten by the reuse pass), flags, counts. */
export interface ReuseFrame {
  bodies: ArrayBuffer;
  fresh: ArrayBuffer;
  manifolds: ArrayBuffer;
  flags: Uint32Array;
  counts: ReuseCounts;
  anchors: ArrayBuffer;
}

/**
 * Runs `frames` frames of `world` on the CPU stages; `each` sees every frame (0 is the first, all
 * fresh). The stages may be replaced (GPU runs) by `stages`.
 */
export async function runFrames(
  world: ReuseWorld,
  frames: number,
  each: (frame: number, f: ReuseFrame, anchorsPrev: ArrayBuffer | null) => void | Promise<void>,
  margin: (frame: number) => number = () => world.margin,
): Promise<void> {
  let anchorsPrev: ArrayBuffer | null = null;
  for (let frame = 0; frame < frames; frame++) {
    const bodies = world.bodiesAt(frame);
    const fresh = world.fresh(bodies, margin(frame));
    const manifolds = fresh.slice(0);
    const flags = new Uint32Array(world.pairCount);
    const anchors = new ArrayBuffer(world.anchorBytes);
    const counts = world.reuse(bodies, anchorsPrev, anchors, manifolds, flags, margin(frame));
    world.anchors(bodies, manifolds, flags, anchors, margin(frame));
    await each(frame, { bodies, fresh, manifolds, flags, counts, anchors }, anchorsPrev);
    anchorsPrev = anchors;
  }
}

const NO_NORMAL: CarriedNormal = { withA: [], withB: [], join: false };

/** What reuse cost on `world` over `frames` frames (CPU). */
export async function measureReuse(world: ReuseWorld, frames: number): Promise<ReuseCost> {
  const cost = emptyCost();
  cost.pairs = world.pairCount;
  await runFrames(world, frames, (frame, f, anchorsPrev) => {
    if (frame === 0) return;
    cost.frames++;
    cost.kept += f.counts.kept;
    cost.apart += f.counts.apart;
    cost.collide += f.counts.collide;
    for (let k = 0; k < world.pairCount; k++) {
      if (!anchorsPrev || f.flags[k] !== REUSE_STATUS.kept) {
        costOfSlot(
          world,
          k,
          f.flags[k]!,
          world.slot(f.manifolds, k),
          world.slot(f.fresh, k),
          0,
          NO_NORMAL,
          cost,
        );
        continue;
      }
      const anchorCount = world.anchorCount(anchorsPrev, k);
      costOfSlot(
        world,
        k,
        f.flags[k]!,
        world.slot(f.manifolds, k),
        world.slot(f.fresh, k),
        anchorCount,
        world.carried(f.bodies, anchorsPrev, k),
        cost,
      );
    }
  });
  return cost;
}

// ---- fixtures: explicit poses frame by frame ------------------------------------------------------

export interface Pose2D {
  position: [number, number];
  angle: number;
}

/** A world of the given shapes and bodies whose frame f has the poses frames[f] (the last one after). */
export function framesWorld2D(
  name: string,
  inputs: Shape2DInput[],
  bodyShape: number[],
  frames: Pose2D[][],
  pairs: [number, number][],
  margin: number,
): ReuseWorld {
  const shapes = inputs.map((s, i) => makeShape2D(s, i));
  const at = (f: number) => frames[Math.min(f, frames.length - 1)]!;
  const scene: Scene2D = {
    dim: 2,
    margin,
    shapes,
    bodyShape: Uint32Array.from(bodyShape),
    bodyPosition: Float64Array.from(at(0).flatMap((p) => p.position)),
    bodyAngle: Float64Array.from(at(0).map((p) => p.angle)),
    pairs: null,
  };
  return world2D(name, scene, Uint32Array.from(pairs.flat()), (frame, positions, angles) => {
    positions.set(at(frame).flatMap((p) => p.position));
    angles.set(at(frame).map((p) => p.angle));
  });
}

export interface Pose3D {
  position: Vec3;
  rotation: Quat;
}

/** framesWorld2D in 3D. */
export function framesWorld3D(
  name: string,
  inputs: Shape3DInput[],
  bodyShape: number[],
  frames: Pose3D[][],
  pairs: [number, number][],
  margin: number,
): ReuseWorld {
  const shapes = inputs.map((s, i) => makeShape3D(s, i));
  const at = (f: number) => frames[Math.min(f, frames.length - 1)]!;
  const scene: Scene3D = {
    dim: 3,
    margin,
    shapes,
    bodyShape: Uint32Array.from(bodyShape),
    bodyPosition: Float64Array.from(at(0).flatMap((p) => p.position)),
    bodyRotation: Float64Array.from(at(0).flatMap((p) => p.rotation)),
    pairs: null,
  };
  return world3D(name, scene, Uint32Array.from(pairs.flat()), (frame, positions, rotations) => {
    positions.set(at(frame).flatMap((p) => p.position));
    rotations.set(at(frame).flatMap((p) => p.rotation));
  });
}
