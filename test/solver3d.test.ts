// The 3D GPU rigid-body world (src/solver/world3d.ts): a 10-cube tower must stand 10 s at 60 Hz
// drifting less than 1% of a cube (the manifolds keep their 4 points and ids from frame to frame,
// warm starting carries the impulses), a dropped tilted cube must come to rest flat, and two runs
// must be byte-identical.

import { beforeAll, describe, expect, it } from 'vitest';
import { CONTACTS_LAYOUT_3D } from '../src/gpu/contacts3d.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import type { Shape3DInput, Vec3 } from '../src/shapes3d.ts';
import { GpuWorld3D, type WorldBody3D } from '../src/solver/index.ts';

const DT = 1 / 60;
const BOX = 1;
const DRIFT = 0.01 * BOX;

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});

const shapes: Shape3DInput[] = [
  { type: 'box', halfExtents: [20, 0.5, 20] }, // ground: top face at y = 0
  { type: 'box', halfExtents: [BOX / 2, BOX / 2, BOX / 2] },
];
const ground: WorldBody3D = { shape: 0, position: [0, -0.5, 0], density: 0 };

async function run(world: GpuWorld3D, steps: number): Promise<void> {
  for (let i = 0; i < steps; i++) await world.step(DT);
}

function maxDisplacement(a: { position: Vec3 }[], b: { position: Vec3 }[]): { max: number; at: number } {
  let max = 0;
  let at = -1;
  a.forEach((p, i) => {
    const q = b[i]!.position;
    const d = Math.hypot(p.position[0] - q[0], p.position[1] - q[1], p.position[2] - q[2]);
    if (d > max) [max, at] = [d, i];
  });
  return { max, at };
}

describe('GPU rigid-body world (3D)', () => {
  it('a 10-cube tower stands 10 s', async () => {
    const bodies: WorldBody3D[] = [ground, ...Array.from({ length: 10 }, (_, i) => ({ shape: 1, position: [0, BOX / 2 + i * BOX, 0] as Vec3 }))];
    const world = await GpuWorld3D.create(device, shapes, bodies);
    try {
      const t0 = performance.now();
      await run(world, 60); // settle into the soft contacts
      const settled = await world.readBodies();
      await run(world, 600);
      const end = await world.readBodies();
      const drift = maxDisplacement(settled, end);
      const fromStart = maxDisplacement(bodies.map((b) => ({ position: b.position })), end);
      console.log(`tower3d: drift ${drift.max.toExponential(3)} (body ${drift.at}), from start ${fromStart.max.toExponential(3)}, ${((performance.now() - t0) / 660).toFixed(1)} ms/step`);
      expect(drift.max).toBeLessThan(DRIFT);
      expect(fromStart.max).toBeLessThan(5 * DRIFT);
      // Upright: the quaternion stays near identity (|w| = cos(angle / 2)).
      for (const b of end) expect(Math.abs(b.rotation[3])).toBeGreaterThan(Math.cos(0.005));
      // Warm starting is in use: every cube-on-cube contact has its 4 points matched last frame's.
      const out = world.lastOutputs()!;
      const C = CONTACTS_LAYOUT_3D.contact;
      const U = CONTACTS_LAYOUT_3D.userValues;
      const counts = await world.readCounts();
      expect(counts.contacts).toBe(10);
      const contacts = new Uint32Array(await readBuffer(device, out.contacts.contacts, counts.contacts * C.bytes));
      const user = new Float32Array(await readBuffer(device, out.contacts.userValues, counts.contacts * U.bytes));
      for (let j = 0; j < counts.contacts; j++) {
        expect(contacts[j * C.words + C.count]).toBe(4);
        expect(contacts[j * C.words + C.matched]).toBe(0b1111);
        // Stored normal impulses carry the cubes above: (cubes above) × m g h / 4 points.
        const above = 10 - contacts[j * C.words + C.bodyA]!;
        let sum = 0;
        for (let i = 0; i < 4; i++) sum += user[j * U.words + U.points + i * U.pointStride]!;
        expect(sum).toBeCloseTo((above * 10 * DT) / 4, 2);
      }
    } finally {
      world.destroy();
    }
  });

  it('a dropped tilted cube comes to rest flat; two runs are byte-identical', async () => {
    const s = Math.sin(0.25);
    const bodies: WorldBody3D[] = [
      ground,
      { shape: 1, position: [0, 2, 0], rotation: [s * 0.6, 0, s * 0.8, Math.cos(0.25)] },
      { shape: 1, position: [2, 1.5, 0], angularVelocity: [0, 2, 0] },
    ];
    const once = async (): Promise<{ bytes: Uint8Array; end: { position: Vec3 }[]; jitter: number }> => {
      const world = await GpuWorld3D.create(device, shapes, bodies);
      try {
        await run(world, 180);
        const rest = await world.readBodies();
        await run(world, 30);
        const end = await world.readBodies();
        return { bytes: new Uint8Array(await world.readBodyBytes()), end, jitter: maxDisplacement(rest, end).max };
      } finally {
        world.destroy();
      }
    };
    const a = await once();
    const b = await once();
    console.log(`drop3d: ${JSON.stringify(a.end.slice(1))}, jitter ${a.jitter.toExponential(2)}`);
    for (const body of a.end.slice(1)) expect(Math.abs(body.position[1] - BOX / 2)).toBeLessThan(0.02); // on a face
    expect(a.jitter).toBeLessThan(1e-3);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });
});
