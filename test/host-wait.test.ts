// GpuWaiter (src/gpu/host-wait.ts): on a software adapter under Node it sleeps through most of
// the time the last wait took, scaled by the work, before it asks for the results; it backs off
// when it slept past them; elsewhere it asks at once. Reads here are timers standing in for GPU
// work; the margins are wide (a loaded machine's timers run late, never early).
import { describe, expect, it } from 'vitest';
import { GpuWaiter, waitingCompetesWithDevice } from '../src/gpu/host-wait.ts';
import { acquireDevice } from '../src/gpu/device.ts';

/** A read whose results come `ms` after it is asked; records when it was asked. */
function timedRead(ms: number, asked: number[]): () => Promise<void> {
  return () => {
    asked.push(performance.now());
    return new Promise((resolve) => setTimeout(resolve, ms));
  };
}

/** How long after its start a wait asked for the results. */
async function askedAfter(waiter: GpuWaiter, readMs: number, work: number): Promise<number> {
  const asked: number[] = [];
  const start = performance.now();
  await waiter.wait(timedRead(readMs, asked), work);
  return asked[0]! - start;
}

describe('GpuWaiter', () => {
  it('sleeps through most of the expected time, scaled by the work, and backs off after oversleeping', async () => {
    const waiter = new GpuWaiter(true);
    // The first wait holds compiles: it asks at once and teaches nothing.
    expect(await askedAfter(waiter, 200, 10)).toBeLessThan(20);
    expect(await askedAfter(waiter, 60, 10)).toBeLessThan(20);
    // 60 ms for 10 units: 5 units are expected to take 30 ms, of which it sleeps 24.
    const slept = await askedAfter(waiter, 30, 5);
    expect(slept).toBeGreaterThanOrEqual(20);
    expect(slept).toBeLessThan(60);
    // Results ready at once after a sleep: it overslept, and halves the next sleep at most.
    const before = await askedAfter(waiter, 0, 5);
    const after = await askedAfter(waiter, 0, 5);
    expect(after).toBeLessThan(0.75 * before);
  });

  it('asks at once where waiting does not compete with the adapter', async () => {
    const waiter = new GpuWaiter(false);
    await askedAfter(waiter, 50, 1);
    await askedAfter(waiter, 50, 1);
    expect(await askedAfter(waiter, 50, 1)).toBeLessThan(20);
  });

  it("sleeps on this machine's software adapter under Node", async () => {
    const { device, adapter } = await acquireDevice();
    try {
      expect(waitingCompetesWithDevice(device)).toBe(adapter.software);
    } finally {
      device.destroy();
    }
  });
});
