// Manifold reuse on analytic fixtures, CPU and GPU alike (src/cpu/reuse2d.ts, reuse3d.ts; the
// GpuReuse stage on shaders/reuse*.wgsl). Each fixture is a pair posed frame by frame: frame 0
// builds the anchor (full collide), later frames reuse it or not. Expected numbers come from the
// geometry in each comment, computed from the f32 poses both backends read.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REUSE_ROTATION, REUSE_TRANSLATION } from '../src/constants.ts';
import { REUSE_ROTATION_3D } from '../src/constants3d.ts';
import { quatToMatrix3D } from '../src/cpu/manifold3d.ts';
import { REUSE_STATUS } from '../src/cpu/reuse.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { LAYOUT_3D } from '../src/layout3d.ts';
import type { Quat, Vec3 } from '../src/shapes3d.ts';
import { axisAngle, quatMul } from './helpers/random3d.ts';
import {
  framesWorld2D,
  framesWorld3D,
  runFrames,
  type Pose2D,
  type Pose3D,
  type ReuseFrame,
  type ReuseWorld,
  type SlotView,
} from './helpers/reuse-frames.ts';
import { GpuReuseRunner } from './helpers/reuse-gpu.ts';

const f32 = Math.fround;
const I: Quat = [0, 0, 0, 1];
let device: GPUDevice;

beforeAll(async () => {
  device = (await acquireDevice()).device;
});

afterAll(() => device?.destroy());

interface Run {
  backend: 'CPU' | 'GPU';
  frames: ReuseFrame[];
}

/** The world's frames 0..count-1 on the CPU and on the GPU (margins per frame). */
async function both(world: ReuseWorld, count: number, margins: number[] = []): Promise<Run[]> {
  const margin = (f: number): number => margins[f] ?? world.margin;
  const cpu: ReuseFrame[] = [];
  await runFrames(world, count, (_f, frame) => void cpu.push(frame), margin);
  const runner = await GpuReuseRunner.create(device, world);
  const gpu: ReuseFrame[] = [];
  for (let f = 0; f < count; f++) gpu.push(await runner.frame(margin(f)));
  runner.destroy();
  return [
    { backend: 'CPU', frames: cpu },
    { backend: 'GPU', frames: gpu },
  ];
}

/** Reused (or fresh) manifold of slot k in frame f, and its status. */
function slot(
  world: ReuseWorld,
  run: Run,
  f: number,
  k = 0,
): SlotView & { status: number; fresh: SlotView } {
  const fr = run.frames[f]!;
  return { ...world.slot(fr.manifolds, k), status: fr.flags[k]!, fresh: world.slot(fr.fresh, k) };
}

/** Depth tolerance: the f64 reference is exact to rounding; the GPU computes in f32 near 1. */
const tol = (run: Run): number => (run.backend === 'CPU' ? 1e-9 : 2e-6);

describe('2D manifold reuse, analytic fixtures (CPU and GPU)', () => {
  // A 4 × 1 box A at the origin; a unit box B on it, its centre at y = 0.99, so it sinks 0.01:
  // A's top face is the reference, B's bottom corners (±0.5, −0.5) the two points, depth 0.01.
  // Frame 1 turns B by φ = 1e-3 rad about its centre (under REUSE_ROTATION): corner (x, −0.5)
  // goes to y = 0.99 + x sin φ − 0.5 cos φ, so its depth is 0.5 − y, exactly, with the same ids.
  const phi = 1e-3;
  const rest: Pose2D[] = [
    { position: [0, 0], angle: 0 },
    { position: [0, 0.99], angle: 0 },
  ];
  const box = (hx: number, hy: number) => ({
    type: 'box' as const,
    halfExtents: [hx, hy] as [number, number],
  });
  const shapes = [box(2, 0.5), box(0.5, 0.5)];

  it('a box resting on a box, turned by 1e-3 rad: reused, its depths recomputed exactly, ids kept', async () => {
    const world = framesWorld2D(
      'turned',
      shapes,
      [0, 1],
      [rest, [rest[0]!, { position: [0, 0.99], angle: phi }]],
      [[0, 1]],
      0.02,
    );
    const c = f32(Math.cos(phi));
    const s = f32(Math.sin(phi));
    const yB = f32(0.99);
    for (const run of await both(world, 2)) {
      const built = slot(world, run, 0);
      expect(built.status, run.backend).toBe(REUSE_STATUS.collide);
      expect(built.count).toBe(2);
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      expect(m.ids, run.backend).toEqual(built.ids);
      expect(m.ids).toEqual(m.fresh.ids);
      expect(m.normal[0]).toBeCloseTo(0, 6);
      expect(m.normal[1]).toBeCloseTo(1, 6);
      // Which corner each point is: its id's B feature (incident vertex 0 or 1 of B's bottom edge);
      // match by depth order instead, the deeper one is the corner at x = −0.5.
      const expected = [-0.5, 0.5].map((x) => 0.5 - (yB + x * s - 0.5 * c)).sort((a, b) => a - b);
      const got = [...m.depths].sort((a, b) => a - b);
      for (let i = 0; i < 2; i++)
        expect(Math.abs(got[i]! - expected[i]!), run.backend).toBeLessThan(tol(run));
      // The fresh manifold has the same depths (the same features).
      const fresh = [...m.fresh.depths].sort((a, b) => a - b);
      for (let i = 0; i < 2; i++) expect(Math.abs(got[i]! - fresh[i]!)).toBeLessThan(2e-6);
    }
  });

  it('turned or moved past the tolerances: recomputed', async () => {
    const turned = { position: [0, 0.99] as [number, number], angle: 2 * REUSE_ROTATION };
    // B's scale is its extent √0.5; moved sideways by twice REUSE_TRANSLATION of it.
    const moved = {
      position: [2 * REUSE_TRANSLATION * Math.SQRT1_2, 0.99] as [number, number],
      angle: 0,
    };
    const world = framesWorld2D(
      'past',
      shapes,
      [0, 1, 0, 1],
      [
        [...rest, ...rest],
        [rest[0]!, turned, rest[0]!, moved],
      ],
      [
        [0, 1],
        [2, 3],
      ],
      0.02,
    );
    for (const run of await both(world, 2)) {
      expect(slot(world, run, 1, 0).status, run.backend).toBe(REUSE_STATUS.collide);
      expect(slot(world, run, 1, 1).status, run.backend).toBe(REUSE_STATUS.collide);
      // The slots hold the fresh manifolds then.
      expect(slot(world, run, 1, 0).ids).toEqual(slot(world, run, 1, 0).fresh.ids);
    }
  });

  it('a box rocking on its corner: the lifted corner leaves the margin and is dropped, the other kept', async () => {
    // B sinks 0.001 (centre at y = 0.999); margin 0.002. Frame 1 turns B by ψ = 4e-3 rad about
    // its bottom-left corner (−0.5, −0.5) of B: that corner stays (depth 0.001, no slide), the
    // bottom-right one rises by sin ψ = 0.004 to depth −0.003, beyond the margin. B's centre
    // moves by 0.0028 (under REUSE_TRANSLATION × 0.707) and turns by ψ < REUSE_ROTATION.
    const psi = 4e-3;
    const pivot = [-0.5, 0.999 - 0.5];
    const centre = [
      pivot[0]! + 0.5 * Math.cos(psi) - 0.5 * Math.sin(psi),
      pivot[1]! + 0.5 * Math.sin(psi) + 0.5 * Math.cos(psi),
    ] as [number, number];
    const world = framesWorld2D(
      'rock',
      shapes,
      [0, 1],
      [
        [rest[0]!, { position: [0, 0.999], angle: 0 }],
        [rest[0]!, { position: centre, angle: psi }],
      ],
      [[0, 1]],
      0.002,
    );
    for (const run of await both(world, 2)) {
      const built = slot(world, run, 0);
      expect(built.count).toBe(2);
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      expect(m.count, run.backend).toBe(1);
      // The kept point is the pivot corner (the fresh collide keeps it alone too), at its depth.
      expect(m.ids).toEqual(m.fresh.ids);
      expect(built.ids).toContain(m.ids[0]);
      expect(Math.abs(m.depths[0]! - built.depths[built.ids.indexOf(m.ids[0]!)]!)).toBeLessThan(
        1e-5,
      );
    }
  });

  it('a pair 0.1 apart is proven apart while it moves less than the gap less the margin, then collides', async () => {
    // Unit boxes, B's centre at x = 1.1: separated by 0.1 along A's face +x; margin 0.02. Frame 1
    // moves B by (−0.04, 0.01) and turns it by 0.01 rad: B's points move by at most
    // 0.0412 + 0.01 × 0.707 < 0.1 − 0.02, so the empty manifold is kept without a collide. Frame 2
    // puts B 0.01 from A: within the margin, the proof fails and the fresh collide finds it (one
    // speculative point: the narrowphase joins the closest corners of faces this far apart).
    const unit = box(0.5, 0.5);
    const frames: Pose2D[][] = [
      [
        { position: [0, 0], angle: 0 },
        { position: [1.1, 0], angle: 0 },
      ],
      [
        { position: [0, 0], angle: 0 },
        { position: [1.06, 0.01], angle: 0.01 },
      ],
      [
        { position: [0, 0], angle: 0 },
        { position: [1.01, 0], angle: 0 },
      ],
    ];
    const world = framesWorld2D('apart', [unit, unit], [0, 1], frames, [[0, 1]], 0.02);
    for (const run of await both(world, 3)) {
      expect(slot(world, run, 0).count).toBe(0);
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.apart);
      expect(m.count).toBe(0);
      expect(m.fresh.count).toBe(0);
      // Byte for byte the fresh empty slot.
      const M = LAYOUT_2D.manifold.words;
      expect(Array.from(new Uint32Array(run.frames[1]!.manifolds, 0, M))).toEqual(
        Array.from(new Uint32Array(run.frames[1]!.fresh, 0, M)),
      );
      const near = slot(world, run, 2);
      expect(near.status, run.backend).toBe(REUSE_STATUS.collide);
      expect(near.count).toBeGreaterThan(0);
    }
  });

  it('a changed margin is never reused; a pair apart is judged with the new margin', async () => {
    // Frame 1: the resting pair and an apart pair (0.1) unmoved, the margin 0.02 → 0.05: the
    // resting pair collides again (its points were clipped with the old margin); the apart pair
    // still proves 0.1 > 0.05. Frame 2: margin 0.12 > 0.1: it collides.
    const unit = box(0.5, 0.5);
    const frame: Pose2D[] = [
      ...rest,
      { position: [10, 0], angle: 0 },
      { position: [11.1, 0], angle: 0 },
    ];
    const world = framesWorld2D(
      'margin',
      [...shapes, unit],
      [0, 1, 2, 2],
      [frame],
      [
        [0, 1],
        [2, 3],
      ],
      0.02,
    );
    for (const run of await both(world, 3, [0.02, 0.05, 0.12])) {
      expect(slot(world, run, 1, 0).status, run.backend).toBe(REUSE_STATUS.collide);
      expect(slot(world, run, 1, 1).status, run.backend).toBe(REUSE_STATUS.apart);
      expect(slot(world, run, 2, 1).status, run.backend).toBe(REUSE_STATUS.collide);
      expect(slot(world, run, 2, 1).count).toBeGreaterThan(0);
    }
  });

  it('a circle rolling over a circle: the join is recomputed exactly', async () => {
    // Radius 0.5 circles, B's centre at (0, 0.99): one point, normal (0, 1), depth 0.01. Frame 1
    // moves B to (0.002, 0.99): the join (0.002, 0.99) turns by 0.002 rad (< REUSE_ROTATION); the
    // reused manifold is the fresh one: normal along the join, depth 1 − |join|.
    const circle = { type: 'circle' as const, radius: 0.5 };
    const at = (x: number): Pose2D[] => [
      { position: [0, 0], angle: 0 },
      { position: [x, 0.99], angle: 0 },
    ];
    const world = framesWorld2D(
      'circles',
      [circle, circle],
      [0, 1],
      [at(0), at(0.002)],
      [[0, 1]],
      0.02,
    );
    for (const run of await both(world, 2)) {
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      const d = Math.hypot(f32(0.002), f32(0.99));
      expect(Math.abs(m.depths[0]! - (1 - d))).toBeLessThan(tol(run));
      expect(Math.abs(m.normal[0]! - f32(0.002) / d)).toBeLessThan(tol(run));
      expect(Math.abs(m.depths[0]! - m.fresh.depths[0]!)).toBeLessThan(2e-6);
    }
  });

  it('two corners 0.01 apart: the join is recomputed while it turns less than REUSE_ROTATION, else collided', async () => {
    // Unit boxes, B's corner (−0.5, −0.5) 0.01 from A's corner (0.5, 0.5) along the diagonal: a
    // speculative vertex–vertex contact whose normal is their join. Frame 1 slides B across the
    // join by 1e-5 √2: the join turns by 1.4e-3 rad, reused. Frame 2 by 1e-4 √2: it turns by
    // 0.014 rad (B moved only 1.4e-4, far under REUSE_TRANSLATION): recomputed.
    const unit = box(0.5, 0.5);
    const c = 1 + 0.01 * Math.SQRT1_2;
    const at = (e: number): Pose2D[] => [
      { position: [0, 0], angle: 0 },
      { position: [c + e, c - e], angle: 0 },
    ];
    const world = framesWorld2D(
      'corners',
      [unit, unit],
      [0, 1],
      [at(0), at(1e-5), at(1e-4)],
      [[0, 1]],
      0.02,
    );
    for (const run of await both(world, 3)) {
      expect(slot(world, run, 0).count).toBe(1);
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      expect(Math.abs(m.depths[0]! - m.fresh.depths[0]!)).toBeLessThan(2e-6);
      expect(
        Math.hypot(m.normal[0]! - m.fresh.normal[0]!, m.normal[1]! - m.fresh.normal[1]!),
      ).toBeLessThan(2e-4);
      expect(slot(world, run, 2).status, run.backend).toBe(REUSE_STATUS.collide);
    }
  });

  it('a body whose shape changed is recomputed', async () => {
    const world = framesWorld2D(
      'shape',
      [...shapes, box(0.5, 0.5)],
      [0, 1],
      [rest],
      [[0, 1]],
      0.02,
    );
    const bodiesAt = world.bodiesAt.bind(world);
    // Frame 1: body 1 takes shape 2 (the same box under another index).
    world.bodiesAt = (f) => {
      const b = bodiesAt(f);
      if (f > 0) new Uint32Array(b)[LAYOUT_2D.body.words + LAYOUT_2D.body.shape] = 2;
      return b;
    };
    for (const run of await both(world, 2))
      expect(slot(world, run, 1).status, run.backend).toBe(REUSE_STATUS.collide);
  });
});

describe('3D manifold reuse, analytic fixtures (CPU and GPU)', () => {
  // A 6 × 6 × 1 ground box A at the origin; a unit cube B on it, centre at z = 0.99: B's four
  // bottom corners (±0.5, ±0.5, −0.5) are the points, depth 0.01, normal +z (A's top face).
  const ground = { type: 'box' as const, halfExtents: [3, 3, 0.5] as Vec3 };
  const cube = { type: 'box' as const, halfExtents: [0.5, 0.5, 0.5] as Vec3 };
  const rest: Pose3D[] = [
    { position: [0, 0, 0], rotation: I },
    { position: [0, 0, 0.99], rotation: I },
  ];
  const f32q = (q: Quat): Quat => q.map(f32) as Quat;

  it('a cube resting on a box, turned by 1e-3 rad about x: reused, its depths recomputed exactly, ids kept', async () => {
    // Corner c of B goes to z = 0.99 + (R(q) c)_z, depth 0.5 − z (R(q) as the kernels build it).
    const q = f32q(axisAngle([1, 0, 0], 1e-3));
    const world = framesWorld3D(
      'turned',
      [ground, cube],
      [0, 1],
      [rest, [rest[0]!, { position: [0, 0, 0.99], rotation: q }]],
      [[0, 1]],
      0.02,
    );
    const r = new Float64Array(9);
    quatToMatrix3D(q, r);
    const expected = [-0.5, 0.5]
      .flatMap((x) =>
        [-0.5, 0.5].map((y) => 0.5 - (f32(0.99) + r[6]! * x + r[7]! * y - 0.5 * r[8]!)),
      )
      .sort((a, b) => a - b);
    for (const run of await both(world, 2)) {
      const built = slot(world, run, 0);
      expect(built.count).toBe(4);
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      expect(m.ids).toEqual(built.ids);
      expect(new Set(m.ids)).toEqual(new Set(m.fresh.ids));
      expect(m.normal[2]).toBeCloseTo(1, 6);
      const got = [...m.depths].sort((a, b) => a - b);
      for (let i = 0; i < 4; i++)
        expect(Math.abs(got[i]! - expected[i]!), run.backend).toBeLessThan(tol(run));
    }
  });

  it('turned past REUSE_ROTATION_3D: recomputed', async () => {
    const q = f32q(axisAngle([1, 0, 0], 2 * REUSE_ROTATION_3D));
    const world = framesWorld3D(
      'past',
      [ground, cube],
      [0, 1],
      [rest, [rest[0]!, { position: [0, 0, 0.99], rotation: q }]],
      [[0, 1]],
      0.02,
    );
    for (const run of await both(world, 2))
      expect(slot(world, run, 1).status, run.backend).toBe(REUSE_STATUS.collide);
  });

  it('a sliding, turning cube drops the corners that slid past REUSE_SLIDE_3D and keeps the others', async () => {
    // Frame 1 moves B by 8e-3 along x and turns it by 4e-3 rad about z (its centre): both under
    // the tolerances (REUSE_TRANSLATION_3D × scale = 8.66e-3, scale = B's extent √0.75). Corner
    // (x, y) slides by (8e-3 − 4e-3 y, 4e-3 x): the corners at y = −0.5 by 0.0102, past
    // REUSE_SLIDE_3D × scale = 8.66e-3, and are dropped; those at y = +0.5 by 0.0063 are kept,
    // at their depth 0.01 (the motion is level).
    const q = f32q(axisAngle([0, 0, 1], 4e-3));
    const world = framesWorld3D(
      'slide',
      [ground, cube],
      [0, 1],
      [rest, [rest[0]!, { position: [8e-3, 0, 0.99], rotation: q }]],
      [[0, 1]],
      0.02,
    );
    for (const run of await both(world, 2)) {
      const built = slot(world, run, 0);
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      expect(m.count, run.backend).toBe(2);
      // B's corners at y = +0.5 are its vertices 2, 3, 6, 7 (bit 1 set): B's half of the id.
      for (const id of m.ids) {
        expect(built.ids).toContain(id);
        expect(id & 2).toBe(2);
      }
      for (const d of m.depths) expect(Math.abs(d - (0.5 - (f32(0.99) - 0.5)))).toBeLessThan(2e-6);
    }
  });

  it('a sphere rolling over a sphere: the join is recomputed exactly; moved past REUSE_TRANSLATION_3D, collided', async () => {
    // Radius 0.5 spheres, B's centre at (0, 0, 0.99); frame 1 at x = 0.002 (the join turns by
    // 0.002 rad); frame 2 at x = 0.008, past REUSE_TRANSLATION_3D × 0.5.
    const ball = { type: 'sphere' as const, radius: 0.5 };
    const at = (x: number): Pose3D[] => [
      { position: [0, 0, 0], rotation: I },
      { position: [x, 0, 0.99], rotation: I },
    ];
    const world = framesWorld3D(
      'spheres',
      [ball, ball],
      [0, 1],
      [at(0), at(0.002), at(0.008)],
      [[0, 1]],
      0.02,
    );
    for (const run of await both(world, 3)) {
      const m = slot(world, run, 1);
      expect(m.status, run.backend).toBe(REUSE_STATUS.kept);
      const d = Math.hypot(f32(0.002), f32(0.99));
      expect(Math.abs(m.depths[0]! - (1 - d))).toBeLessThan(tol(run));
      expect(Math.abs(m.normal[0]! - f32(0.002) / d)).toBeLessThan(tol(run));
      expect(slot(world, run, 2).status, run.backend).toBe(REUSE_STATUS.collide);
    }
  });

  it('a hull apart from a box is proven apart, then collides when it comes within the margin', async () => {
    // An octahedron (vertices ±0.5 on the axes) 0.1 above the ground's top face (its lowest
    // vertex at z = 0.6); turned by 0.01 rad and moved by 0.03 toward it, it is still apart by
    // more than the margin; moved down to 0.01 it collides.
    const octa = {
      type: 'hull' as const,
      vertices: [
        [0.5, 0, 0],
        [-0.5, 0, 0],
        [0, 0.5, 0],
        [0, -0.5, 0],
        [0, 0, 0.5],
        [0, 0, -0.5],
      ] as Vec3[],
    };
    const frames: Pose3D[][] = [
      [rest[0]!, { position: [0, 0, 1.1], rotation: I }],
      [
        rest[0]!,
        { position: [0.01, 0, 1.07], rotation: f32q(quatMul(axisAngle([0, 1, 0], 0.01), I)) },
      ],
      [rest[0]!, { position: [0, 0, 1.01], rotation: I }],
    ];
    const world = framesWorld3D('apart', [ground, octa], [0, 1], frames, [[0, 1]], 0.02);
    for (const run of await both(world, 3)) {
      expect(slot(world, run, 1).status, run.backend).toBe(REUSE_STATUS.apart);
      expect(slot(world, run, 1).fresh.count).toBe(0);
      const M = LAYOUT_3D.manifold.words;
      expect(Array.from(new Uint32Array(run.frames[1]!.manifolds, 0, M))).toEqual(
        Array.from(new Uint32Array(run.frames[1]!.fresh, 0, M)),
      );
      expect(slot(world, run, 2).status, run.backend).toBe(REUSE_STATUS.collide);
      expect(slot(world, run, 2).count).toBeGreaterThan(0);
    }
  });
});
