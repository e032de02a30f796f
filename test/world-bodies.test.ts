// Engines add and remove bodies, set velocities and push bodies between steps (src/solver/world.ts,
// body-store.ts, commands.ts; shaders/commands2d.wgsl, commands3d.wgsl):
//   - impulses and forces: a unit cube (mass 1 at density 1, inertia 1/6 about every axis) in a
//     world without gravity takes impulse J at its centre → velocity J; J = (0, 0, 1) at the
//     point (0.5, 0, 0) off its centre → angular velocity r × J / I = (0, -0.5, 0) × 6 = (0, -3, 0);
//     a force F over one step of dt → velocity F dt; in 2D a unit box (mass 1, inertia 1/6) the same;
//   - setVelocity / readVelocities round trip; impulses given before setVelocity are dropped;
//   - static bodies and bad indices refused with InputErrors naming them;
//   - removeBodies on a settled stack: the others keep their order and poses, their contacts
//     persist (the next frame matches every point of the pairs that stay by feature id) and the
//     stack stays put; addBodies: a new box falls and lands, the others undisturbed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackContacts3D } from '../src/cpu/contact-list3d.ts';
import { readBuffer } from '../src/gpu/buffers.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { InputError } from '../src/errors.ts';
import { CONTACTS_LAYOUT_3D } from '../src/gpu/contact-list3d.ts';
import { GpuWorld2D } from '../src/solver/world2d.ts';
import { GpuWorld3D } from '../src/solver/world3d.ts';

let device: GPUDevice;
beforeAll(async () => {
  device = (await acquireDevice()).device;
});
afterAll(() => device?.destroy());

const close = (a: readonly number[], b: readonly number[], tol = 1e-5): void => {
  expect(a.length).toBe(b.length);
  a.forEach((x, k) =>
    expect(Math.abs(x - b[k]!), `component ${k}: ${a} vs ${b}`).toBeLessThanOrEqual(tol),
  );
};

describe('world bodies: velocities, impulses and forces', () => {
  it('3D: impulses at the centre and at a point, forces over a step, setVelocity', async () => {
    const world = await GpuWorld3D.create(
      device,
      [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }],
      [
        { shape: 0, position: [0, 0, 0] },
        { shape: 0, position: [5, 0, 0] },
        { shape: 0, position: [10, 0, 0], density: 0 },
      ],
      { gravity: [0, 0, 0] },
    );
    world.applyImpulse(0, [1, 2, 3]);
    world.applyImpulse(1, [0, 0, 1], [5.5, 0, 0]);
    let v = await world.readVelocities();
    close(v[0]!.velocity, [1, 2, 3]);
    close(v[0]!.angularVelocity, [0, 0, 0]);
    close(v[1]!.velocity, [0, 0, 1]);
    close(v[1]!.angularVelocity, [0, -3, 0], 1e-4);
    // setVelocity replaces, and drops impulses given before it.
    world.applyImpulse(0, [100, 0, 0]);
    world.setVelocity(0, [0, 0, 0], [0, 0, 0]);
    world.setVelocity(1, [0, 0, 0], [0, 0, 0]);
    world.applyForce(0, [6, 0, 0]);
    await world.step(1 / 60);
    v = await world.readVelocities();
    close(v[0]!.velocity, [6 / 60, 0, 0]);
    close(v[1]!.velocity, [0, 0, 0]);
    // The force lasted one step.
    await world.step(1 / 60);
    close((await world.readVelocities())[0]!.velocity, [6 / 60, 0, 0]);
    expect(() => world.applyImpulse(2, [1, 0, 0])).toThrow(InputError);
    expect(() => world.applyImpulse(2, [1, 0, 0])).toThrow(/body 2 is static/);
    expect(() => world.applyImpulse(3, [1, 0, 0])).toThrow(
      /applyImpulse: must be a body index in 0..2, got 3/,
    );
    expect(() => world.setVelocity(0, [1, Number.NaN, 0], [0, 0, 0])).toThrow(
      /setVelocity: velocity: must be 3 finite numbers/,
    );
    expect(() => world.applyForce(0, [1, 0] as unknown as [number, number, number])).toThrow(
      /must be 3 finite numbers/,
    );
    world.destroy();
  });

  it('2D: the same', async () => {
    const world = await GpuWorld2D.create(
      device,
      [{ type: 'box', halfExtents: [0.5, 0.5] }],
      [
        { shape: 0, position: [0, 0], angle: 0 },
        { shape: 0, position: [5, 0], angle: 0 },
      ],
      { gravity: [0, 0] },
    );
    world.applyImpulse(0, [1, 2]);
    world.applyImpulse(1, [0, 1], [5.5, 0]);
    const v = await world.readVelocities();
    close(v[0]!.velocity, [1, 2]);
    expect(Math.abs(v[0]!.angularVelocity)).toBeLessThan(1e-6);
    close(v[1]!.velocity, [0, 1]);
    // r × J = (0.5, 0) × (0, 1) = 0.5; / (1/6) = 3.
    expect(Math.abs(v[1]!.angularVelocity - 3)).toBeLessThan(1e-4);
    world.destroy();
  });

  it('2D: a step whose commands the device refuses is reported, not read from stale counts', async () => {
    const world = await GpuWorld2D.create(
      device,
      [{ type: 'box', halfExtents: [0.5, 0.5] }],
      [
        { shape: 0, position: [0, 0], angle: 0, density: 0 },
        { shape: 0, position: [0, 0.99], angle: 0 },
      ],
    );
    expect((await world.step(1 / 60)).contacts).toBe(1);
    // Last frame's contact list, which the next frame reads, destroyed under the world.
    world.frame.contacts.lastOutputs()!.contacts.destroy();
    await expect(world.step(1 / 60)).rejects.toThrow(
      /the device refused the step's commands: .*destroyed/s,
    );
    world.destroy();
  });
});

describe('world bodies: removed and added between steps', () => {
  it('3D: a settled stack keeps its contacts when a body far away is removed, and takes a new box', async () => {
    const box = { type: 'box' as const, halfExtents: [0.5, 0.5, 0.5] as [number, number, number] };
    const ground = { type: 'box' as const, halfExtents: [20, 0.5, 20] as [number, number, number] };
    // Ground, then two stacks of 3 cubes, 4 apart.
    const bodies = [{ shape: 1, position: [0, -0.5, 0] as [number, number, number], density: 0 }];
    for (const x of [0, 4])
      for (let k = 0; k < 3; k++) bodies.push({ shape: 0, position: [x, 0.5 + k, 0], density: 1 });
    const world = await GpuWorld3D.create(device, [box, ground], bodies);
    for (let s = 0; s < 90; s++) await world.step(1 / 60);
    const before = await world.readBodies();
    const listBefore = unpackContacts3D(await readContacts(world));
    // Remove the second stack's bottom cube (index 4): its stack falls, the first stack (1..3) stays.
    world.removeBodies([4]);
    expect(world.bodyCount).toBe(6);
    const after = await world.readBodies();
    for (const [now, was] of [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 5],
      [5, 6],
    ] as const) {
      close(after[now]!.position, before[was]!.position, 0);
      close(after[now]!.rotation, before[was]!.rotation, 0);
    }
    await world.step(1 / 60);
    const list = unpackContacts3D(await readContacts(world));
    // The first stack's contacts (ground-1, 1-2, 2-3) continue, every point matched by feature id.
    for (const [a, b] of [
      [0, 1],
      [1, 2],
      [2, 3],
    ] as const) {
      const e = list.find((c) => c.bodyA === a && c.bodyB === b);
      expect(e, `pair ${a}-${b}`).toBeDefined();
      expect(e!.previous, `pair ${a}-${b} continues`).not.toBe(0xffffffff);
      expect(listBefore[e!.previous]!.bodyA).toBe(a);
      expect(e!.matched).toBe((1 << e!.points.length) - 1);
    }
    // A new cube above the first stack falls and lands on it; the stack barely moves.
    const [added] = world.addBodies([{ shape: 0, position: [0, 5, 0] }]);
    expect(added).toBe(6);
    for (let s = 0; s < 120; s++) await world.step(1 / 60);
    const end = await world.readBodies();
    expect(Math.abs(end[6]!.position[1] - 3.5)).toBeLessThan(0.05);
    for (const k of [1, 2, 3])
      expect(Math.abs(end[k]!.position[0] - before[k]!.position[0])).toBeLessThan(0.02);
    expect(() => world.removeBodies([1, 1])).toThrow(/removeBodies\[1\]: body 1 is listed twice/);
    expect(() => world.removeBodies([9])).toThrow(InputError);
    world.destroy();
  });
});

async function readContacts(world: GpuWorld3D): Promise<ArrayBuffer> {
  const counts = await world.readCounts();
  const out = world.lastOutputs()!;
  return readBuffer(
    device,
    out.contacts.contacts,
    counts.contacts * CONTACTS_LAYOUT_3D.contact.bytes,
  );
}
