// Device loss: device.destroy() makes the implementation resolve GPUDevice.lost with reason
// "destroyed", exactly like a driver reset resolves it with "unknown". A narrowphase must then
// reject with a DeviceLostError naming the reason (never hang, never return stale slots), tell
// the owner (`lost`, `onDeviceLost`), and work again after rebuild(), equal to the CPU reference.

import { afterAll, describe, expect, it } from 'vitest';
import { compareManifolds2D, compareManifolds3D } from '../src/compare-manifolds.ts';
import { DeviceLostError } from '../src/errors.ts';
import { acquireDevice, guardDeviceLoss, watchDeviceLoss } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { packScene2D } from '../src/pack2d.ts';
import { packScene3D } from '../src/pack3d.ts';
import { createNarrowphase, type Narrowphase } from '../src/narrowphase.ts';
import { randomPairScene } from '../src/random2d.ts';
import { randomPairScene3D } from '../src/random3d.ts';
import { parseScene } from '../src/scene.ts';

// Large enough that the kernel and readback are still in flight when the device goes away.
const scene2D = parseScene(randomPairScene(7, 20_000, 'mixed'));
const scene3D = parseScene(randomPairScene3D(7, 500, 'mixed3d'));
const cleanup: Narrowphase[] = [];
afterAll(() => cleanup.forEach((np) => np.destroy()));

async function expectLost(p: Promise<unknown>): Promise<DeviceLostError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeviceLostError);
  const lost = err as DeviceLostError;
  expect(lost.reason).toBe('destroyed');
  expect(lost.message).toMatch(/GPU device was lost \(reason: destroyed/);
  return lost;
}

describe('a narrowphase that owns its device', () => {
  it('rejects with DeviceLostError when the device is destroyed mid-collide, and works again after rebuild()', async () => {
    const lostErrors: DeviceLostError[] = [];
    const np = await createNarrowphase({ backend: 'gpu', onDeviceLost: (e) => lostErrors.push(e) });
    cleanup.push(np);
    const cpu = await createNarrowphase({ backend: 'cpu' });
    const reference = (await cpu.collide(scene2D)).manifolds;
    const before = (await np.collide(scene2D)).manifolds;
    expect(compareManifolds2D(reference, before)).toEqual([]);

    const oldDevice = np.device!;
    // collide() uploads and submits synchronously, then waits for the readback: destroy now.
    const inFlight = np.collide(scene2D);
    oldDevice.destroy();
    await expectLost(inFlight);
    expect((await np.lost).reason).toBe('destroyed');
    expect(lostErrors.map((e) => e.reason)).toEqual(['destroyed']);
    // Later calls fail the same way at once, in both dimensions (3D would compile on the lost device).
    await expectLost(np.collide(scene2D));
    await expectLost(np.collide(scene3D));

    await np.rebuild();
    expect(np.device).not.toBe(oldDevice);
    const after = (await np.collide(scene2D)).manifolds;
    expect(after).toEqual(before);
    expect(compareManifolds2D(reference, after)).toEqual([]);
    const after3D = (await np.collide(scene3D)).manifolds;
    expect(compareManifolds3D((await cpu.collide(scene3D)).manifolds, after3D)).toEqual([]);
    expect(after3D.filter((m) => m.points.length > 0).length).toBeGreaterThan(50);
    // The retired device's loss (it was ours) reports nothing more; destroy() is not a loss either.
    expect(lostErrors.length).toBe(1);
  });

  it('rejects when the device is lost while the 3D kernel compiles', async () => {
    const np = await createNarrowphase({ backend: 'gpu' });
    cleanup.push(np);
    const inFlight = np.collide(scene3D); // first 3D call: compiles the kernel, then runs
    np.device!.destroy();
    await expectLost(inFlight);
  });
});

describe("a narrowphase on the engine's device", () => {
  it("reports the loss, refuses rebuild() without a device, and runs on the engine's new device", async () => {
    const first = (await acquireDevice()).device;
    const seen: string[] = [];
    const watched: string[] = [];
    watchDeviceLoss(first, (info, error) => watched.push(`${info.reason}/${error.reason}`));
    const np = await createNarrowphase({ device: first, onDeviceLost: (e) => seen.push(e.reason) });
    cleanup.push(np);
    const before = (await np.collide(scene2D)).manifolds;
    first.destroy();
    await expectLost(np.collide(scene2D));
    expect(seen).toEqual(['destroyed']);
    expect(watched).toEqual(['destroyed/destroyed']);
    await expect(np.rebuild()).rejects.toThrow(/pass the new one, rebuild\(device\)/);

    const second = (await acquireDevice()).device;
    await np.rebuild(second);
    expect(np.device).toBe(second);
    expect((await np.collide(scene2D)).manifolds).toEqual(before);
    np.destroy();
    // The engine's device is the engine's: destroy() leaves it alive.
    expect(
      await Promise.race([
        second.lost.then(() => 'lost'),
        new Promise((r) => setTimeout(() => r('alive'), 50)),
      ]),
    ).toBe('alive');
    second.destroy();
  });

  it('the packed runners (GpuNarrowphase2D/3D.run) reject with DeviceLostError too', async () => {
    const device = (await acquireDevice()).device;
    const gpu2d = await GpuNarrowphase2D.create(device);
    const gpu3d = await GpuNarrowphase3D.create(device);
    const packed2D = packScene2D(scene2D, scene2D.pairs!);
    const packed3D = packScene3D(scene3D, scene3D.pairs!);
    expect((await gpu2d.run(packed2D)).manifolds.byteLength).toBeGreaterThan(0);
    const inFlight = [gpu2d.run(packed2D), gpu3d.run(packed3D)];
    device.destroy();
    for (const p of inFlight) await expectLost(p);
    await expectLost(gpu2d.run(packed2D));
    // Work that fails on its own on a live device keeps its own error.
    const live = (await acquireDevice()).device;
    await expect(
      guardDeviceLoss(live, () => Promise.reject(new RangeError('not a loss'))),
    ).rejects.toThrow(RangeError);
    live.destroy();
  });

  it('watchDeviceLoss stops reporting once unwatched', async () => {
    const device = (await acquireDevice()).device;
    const seen: string[] = [];
    const stop = watchDeviceLoss(device, (info) => seen.push(info.reason));
    stop();
    device.destroy();
    await device.lost;
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual([]);
  });
});
