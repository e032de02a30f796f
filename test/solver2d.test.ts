// The GPU rigid-body world (src/solver/world2d.ts) on stacks that only stand when the manifolds
// are right from frame to frame (stable feature ids, both points, true depths) and warm starting
// carries the impulses: a 10-box tower and a 20-row pyramid must drift less than 1% of a box over
// 10 s at 60 Hz; a dropped box must come to rest on the ground; two runs must be byte-identical.

import { beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_LAYOUT_2D } from '../src/gpu/contact-list2d.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { PAIR_CLASSES_2D } from '../src/gpu/pair-classes2d.ts';
import { GpuWorld2D, SOLVER_LAYOUT_2D, type WorldBody2D } from '../src/solver/index.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import type { Shape2DInput, Vec2 } from '../src/shapes2d.ts';

const DT = 1 / 60;
/** Box size (1 × 1) and the allowed drift: 1% of it. */
const BOX = 1;
const DRIFT = 0.01 * BOX;

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});

const shapes: Shape2DInput[] = [
  { type: 'box', halfExtents: [40, 0.5] }, // ground: top face at y = 0
  { type: 'box', halfExtents: [BOX / 2, BOX / 2] },
];
const ground: WorldBody2D = { shape: 0, position: [0, -0.5], angle: 0, density: 0 };

/** A tower of `n` boxes resting on each other, the lowest on the ground (all faces touching). */
function tower(n: number): WorldBody2D[] {
  return [
    ground,
    ...Array.from({ length: n }, (_, i) => ({
      shape: 1,
      position: [0, BOX / 2 + i * BOX] as Vec2,
      angle: 0,
    })),
  ];
}

/** A pyramid of `rows` rows: row r has rows - r boxes 1.05 apart, each on two of the row below. */
function pyramid(rows: number): WorldBody2D[] {
  const out: WorldBody2D[] = [ground];
  for (let r = 0; r < rows; r++) {
    const n = rows - r;
    for (let j = 0; j < n; j++)
      out.push({
        shape: 1,
        position: [(j - (n - 1) / 2) * 1.05 * BOX, BOX / 2 + r * BOX],
        angle: 0,
      });
  }
  return out;
}

async function run(world: GpuWorld2D, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await world.step(DT);
}

/** Largest distance any body moved between two snapshots. */
function maxDisplacement(
  a: { position: Vec2 }[],
  b: { position: Vec2 }[],
): { max: number; at: number } {
  let max = 0;
  let at = -1;
  a.forEach((p, i) => {
    const d = Math.hypot(p.position[0] - b[i]!.position[0], p.position[1] - b[i]!.position[1]);
    if (d > max) [max, at] = [d, i];
  });
  return { max, at };
}

describe('GPU rigid-body world (2D)', () => {
  const stand = async (bodies: WorldBody2D[], label: string): Promise<void> => {
    const world = await GpuWorld2D.create(device, shapes, bodies);
    try {
      const t0 = performance.now();
      await run(world, 60); // settle (1 s): the stack sinks into its soft contacts
      const settled = await world.readBodies();
      // The largest displacement from the settled positions over the 10 s, sampled every 0.5 s.
      const drift = { max: 0, at: -1 };
      let end = settled;
      for (let k = 0; k < 20; k++) {
        await run(world, 30);
        end = await world.readBodies();
        const d = maxDisplacement(settled, end);
        if (d.max > drift.max) Object.assign(drift, d);
      }
      const fromStart = maxDisplacement(
        bodies.map((b) => ({ position: b.position })),
        end,
      );
      console.log(
        `${label}: drift ${drift.max.toExponential(3)} (body ${drift.at}), from start ${fromStart.max.toExponential(3)}, ${((performance.now() - t0) / 660).toFixed(1)} ms/step`,
      );
      expect(drift.max).toBeLessThan(DRIFT);
      // From the start the stack sinks into its soft contacts (a few mm); a collapse moves metres.
      expect(fromStart.max).toBeLessThan(5 * DRIFT);
      for (const b of end) expect(Math.abs(b.angle)).toBeLessThan(0.01);
    } finally {
      world.destroy();
    }
  };

  it('a 10-box tower stands 10 s', async () => {
    await stand(tower(10), 'tower');
  });

  it('a 20-row pyramid stands 10 s', async () => {
    await stand(pyramid(20), 'pyramid');
  });

  it('a dropped box lands and comes to rest: no bounce-through, no jitter', async () => {
    // Two boxes: one falling flat from 3 m (hits at about 7 m/s), one tilted 0.4 rad landing on a corner.
    const bodies: WorldBody2D[] = [
      ground,
      { shape: 1, position: [-3, 3.5], angle: 0 },
      { shape: 1, position: [3, 3.5], angle: 0.4 },
    ];
    const world = await GpuWorld2D.create(device, shapes, bodies);
    try {
      // Its shapes are boxes: its frame compiled the polygon class alone (no circle pairs).
      expect(Object.keys(world.frame.compileMs)).toEqual(['polygons']);
      let lowest = Infinity;
      let landed = -1;
      let rebound = 0;
      for (let f = 0; f < 180; f++) {
        await world.step(DT);
        const y = (await world.readBodies())[1]!.position[1];
        // The flat box's centre never sinks below half a box minus a few mm of penetration...
        lowest = Math.min(lowest, y);
        // ...and once down, it does not bounce up again.
        if (landed < 0 && y < BOX / 2 + 0.01) landed = f;
        if (landed >= 0) rebound = Math.max(rebound, y - BOX / 2);
      }
      expect(landed).toBeGreaterThan(0);
      expect(rebound).toBeLessThan(0.01);
      const rest = await world.readBodies();
      await run(world, 60);
      const later = await world.readBodies();
      console.log(
        `drop: lowest centre ${lowest.toFixed(4)}, landed at frame ${landed}, rebound ${rebound.toExponential(2)}, rest ${JSON.stringify(rest.slice(1))}, jitter ${maxDisplacement(rest, later).max.toExponential(2)}`,
      );
      expect(lowest).toBeGreaterThan(BOX / 2 - 0.05);
      for (const b of later.slice(1)) {
        expect(Math.abs(b.position[1] - BOX / 2)).toBeLessThan(0.02); // resting on a face
        const quarter = b.angle / (Math.PI / 2);
        expect(Math.abs(quarter - Math.round(quarter))).toBeLessThan(0.01); // flat, not on a corner
      }
      expect(maxDisplacement(rest, later).max).toBeLessThan(1e-3); // still for the last second
    } finally {
      world.destroy();
    }
  });

  it("collision filters reach the world: a box whose shape's mask leaves out the ground's category falls through it", async () => {
    // Shape 2 is the box in category 2 meeting only category 2; the ground (shape 0) is in category 1.
    const filtered: Shape2DInput[] = [
      ...shapes,
      { type: 'box', halfExtents: [BOX / 2, BOX / 2], filter: { categoryBits: 2, maskBits: 2 } },
    ];
    const bodies: WorldBody2D[] = [
      ground,
      { shape: 1, position: [-3, 2], angle: 0 },
      { shape: 2, position: [3, 2], angle: 0 },
    ];
    const world = await GpuWorld2D.create(device, filtered, bodies);
    try {
      await run(world, 90);
      const [, kept, fell] = await world.readBodies();
      expect(Math.abs(kept!.position[1] - BOX / 2)).toBeLessThan(0.02); // resting on the ground
      expect(fell!.position[1]).toBeLessThan(-5); // 1.5 s of free fall from 2 m: about -9 m
    } finally {
      world.destroy();
    }
  });

  it('warm starts: impulses are stored, carried by feature id and matched', async () => {
    const world = await GpuWorld2D.create(device, shapes, tower(4));
    try {
      await run(world, 20);
      const counts = await world.step(DT);
      const out = world.lastOutputs()!;
      const C = CONTACTS_LAYOUT_2D.contact;
      const U = CONTACTS_LAYOUT_2D.userValues;
      const n = counts.contacts;
      const contacts = new Uint32Array(
        await readBuffer(device, out.contacts.contacts, n * C.bytes),
      );
      const user = new Float32Array(await readBuffer(device, out.contacts.userValues, n * U.bytes));
      expect(n).toBe(4); // ground-box and box-box, each with both corners
      for (let j = 0; j < n; j++) {
        const count = contacts[j * C.words + C.count]!;
        expect(count).toBe(2);
        // Every point matched last frame's point with its feature id, so it started from last frame's impulse.
        expect(contacts[j * C.words + C.matched]).toBe(0b11);
        // The stored normal impulses carry the weight above: (boxes above) × m × g × h / 2 per point.
        const above = 4 - contacts[j * C.words + C.bodyA]!;
        for (let i = 0; i < 2; i++) {
          const normal = user[j * U.words + U.points + i * U.pointStride]!;
          expect(normal).toBeGreaterThan((0.8 * (above * 10 * DT)) / 4 / 2);
          expect(normal).toBeLessThan((1.2 * (above * 10 * DT)) / 4 / 2);
        }
      }
    } finally {
      world.destroy();
    }
  });

  it("warm starts a point whose feature id changed from last frame's point where it is (a box turned a quarter turn)", async () => {
    // Two resting boxes; one is turned by exactly 90° about its centre: its corners take each
    // other's places, so its contact points stay put while their feature ids (the box's vertices)
    // change. No id matches; each point starts from the impulse of last frame's point at its place,
    // and the step goes on as the other box's does; a cold start would let the box sink and spin.
    const turned = await GpuWorld2D.create(device, shapes, tower(1));
    const still = await GpuWorld2D.create(device, shapes, tower(1));
    try {
      for (let i = 0; i < 30; i++) {
        await turned.step(DT);
        await still.step(DT);
      }
      const B = LAYOUT_2D.body;
      const bytes = await turned.readBodyBytes();
      const f = new Float32Array(bytes);
      const r = B.words + B.rotation;
      // (cos, sin) → (−sin, cos): a quarter turn, exact in f32.
      [f[r], f[r + 1]] = [-f[r + 1]!, f[r]!];
      device.queue.writeBuffer(turned.bodies, 0, bytes);
      await turned.step(DT);
      await still.step(DT);
      const C = CONTACTS_LAYOUT_2D.contact;
      const matched = async (w: GpuWorld2D): Promise<number> =>
        new Uint32Array(await readBuffer(device, w.lastOutputs()!.contacts.contacts, C.bytes))[
          C.matched
        ]!;
      expect(await matched(still), 'the box not turned: both points matched by id').toBe(0b11);
      expect(await matched(turned), 'the turned box: no point matched by id').toBe(0);
      const [a, b] = [(await turned.readVelocities())[1]!, (await still.readVelocities())[1]!];
      expect(Math.abs(a.velocity[1] - b.velocity[1])).toBeLessThan(1e-7);
      expect(Math.abs(a.angularVelocity - b.angularVelocity)).toBeLessThan(1e-5);
    } finally {
      turned.destroy();
      still.destroy();
    }
  });

  it('is deterministic: two runs give byte-identical bodies and velocities', async () => {
    // A pile that collides, slides and tumbles (not only resting contacts): boxes dropped in a jumble.
    const bodies: WorldBody2D[] = [ground];
    for (let i = 0; i < 40; i++)
      bodies.push({
        shape: 1,
        position: [(i % 8) * 1.1 - 4 + 0.3 * Math.sin(i), 1 + Math.floor(i / 8) * 1.2],
        angle: 0.7 * i,
      });
    const runOnce = async (): Promise<[Uint8Array, Uint8Array]> => {
      const world = await GpuWorld2D.create(device, shapes, bodies);
      try {
        await run(world, 90);
        return [
          new Uint8Array(await world.readBodyBytes()),
          new Uint8Array(await world.readStateBytes()),
        ];
      } finally {
        world.destroy();
      }
    };
    const [a, b] = [await runOnce(), await runOnce()];
    expect(Buffer.from(a[0]).equals(Buffer.from(b[0]))).toBe(true);
    expect(Buffer.from(a[1]).equals(Buffer.from(b[1]))).toBe(true);
    // And the pile did move (a check on still bodies would prove nothing).
    const moved = await (async () => {
      const f = new Float32Array(a[0].buffer);
      return Math.abs(
        f[LAYOUT_2D.body.words + LAYOUT_2D.body.position + 1]! - bodies[1]!.position[1],
      );
    })();
    expect(moved).toBeGreaterThan(0.1);
  });

  it('step() restores the bodies, grows and reruns when the frame overflows: same result as roomy buffers', async () => {
    const bodies = pyramid(6);
    const runOnce = async (tight: boolean): Promise<Uint8Array> => {
      const world = await GpuWorld2D.create(device, shapes, bodies);
      try {
        if (tight) {
          world.frame.broadphase.setCapacity(4);
          world.frame.contacts.setCapacity(2);
        }
        // The first step needs more than the tight capacities: it overflowed, grew and ran again.
        const counts = await world.step(DT);
        expect(counts.pairs).toBeGreaterThan(4);
        expect(counts.contacts).toBeGreaterThan(2);
        await run(world, 19);
        return new Uint8Array(await world.readBodyBytes());
      } finally {
        world.destroy();
      }
    };
    const roomy = await runOnce(false);
    const tight = await runOnce(true);
    expect(Buffer.from(tight).equals(Buffer.from(roomy))).toBe(true);
  });

  it('a mixed pile (boxes, discs, capsules, rounded polygons) settles between walls', async () => {
    const mixed: Shape2DInput[] = [
      ...shapes,
      { type: 'circle', radius: 0.4 },
      { type: 'capsule', a: [-0.4, 0], b: [0.4, 0], radius: 0.2 },
      {
        type: 'polygon',
        vertices: [
          [0, -0.5],
          [0.5, -0.1],
          [0.3, 0.4],
          [-0.3, 0.4],
          [-0.5, -0.1],
        ],
        radius: 0.05,
      },
      { type: 'box', halfExtents: [0.5, 0.3], radius: 0.1 },
    ];
    // Walls: the ground box stood on end at x = ±6.
    const bodies: WorldBody2D[] = [
      ground,
      { shape: 0, position: [-6.5, 5], angle: Math.PI / 2, density: 0 },
      { shape: 0, position: [6.5, 5], angle: Math.PI / 2, density: 0 },
    ];
    for (let i = 0; i < 100; i++)
      bodies.push({
        shape: 1 + (i % 5),
        position: [-5 + (i % 10) * 1.1, 1 + Math.floor(i / 10) * 1.1],
        angle: 0.9 * i,
      });
    const world = await GpuWorld2D.create(device, mixed, bodies);
    try {
      expect(Object.keys(world.frame.compileMs).sort()).toEqual([...PAIR_CLASSES_2D].sort());
      await run(world, 330); // the pile keeps shifting for about 4.5 s
      const state = new Float32Array(await world.readStateBytes());
      const S = SOLVER_LAYOUT_2D.state;
      let fastest = 0;
      let fastestAt = -1;
      for (let i = 3; i < bodies.length; i++) {
        const o = i * S.words;
        const speed = Math.hypot(state[o + S.linearVelocity]!, state[o + S.linearVelocity + 1]!);
        expect(Number.isFinite(speed)).toBe(true);
        // Discs roll on without rolling resistance (none is modelled): everything else must rest.
        if (bodies[i]!.shape !== 2 && speed > fastest) [fastest, fastestAt] = [speed, i];
      }
      const end = await world.readBodies();
      const lowest = Math.min(...end.slice(3).map((b) => b.position[1]));
      const widest = Math.max(...end.slice(3).map((b) => Math.abs(b.position[0])));
      console.log(
        `mixed pile: fastest non-disc ${fastest.toExponential(2)} m/s (body ${fastestAt}, shape ${bodies[fastestAt]?.shape}), lowest centre ${lowest.toFixed(3)}, widest |x| ${widest.toFixed(3)}`,
      );
      expect(fastest).toBeLessThan(0.05); // at rest after 5.5 s
      expect(lowest).toBeGreaterThan(0.15); // no centre below the smallest half-height (0.2) by more than the soft sink
      expect(widest).toBeLessThan(6); // nothing through the walls
    } finally {
      world.destroy();
    }
  });
});
