// Waiting for submitted GPU work without the host thread competing with it. Dawn's Node bindings
// (the `webgpu` package) settle a pending GPU promise by re-queuing a setImmediate until it
// resolves, so the JS thread runs flat out for as long as it waits. On a software adapter
// (lavapipe, SwiftShader) the GPU is the CPU, and that thread takes a core from the adapter's own
// threads. There a waiter sleeps through most of the time the last wait's work would take at
// this size before it asks; elsewhere (a browser, a GPU) it asks at once. docs/frame.md, *Waiting
// without spinning*.

import { isSoftwareDevice, nodeVersion } from './device.ts';

/** Of the expected time, the part slept before asking: short of it, so that faster work loses little. */
const SLEEP_FRACTION = 0.8;
/** Shorter sleeps are not worth a timer (Node's granularity is about 1 ms). */
const MIN_SLEEP_MS = 2;
/**
 * A result this soon after the sleep (a readback's own round trip, at least 1 ms, or a quarter of
 * the sleep) means the sleep ran past the work.
 */
const OVERSLEPT_MS = 1;
const OVERSLEPT_FRACTION = 0.25;

/** Whether waiting on `device` spins the host thread that its adapter's work also needs. */
export function waitingCompetesWithDevice(device: GPUDevice): boolean {
  return nodeVersion() !== undefined && isSoftwareDevice(device);
}

export class GpuWaiter {
  /** The last measured wait (ms, from the submit to its results) per unit of work; 0 before any. */
  private msPerWork = 0;
  /** The first wait holds the pipelines' compiles on a software adapter: not the work's time. */
  private first = true;

  constructor(private readonly sleeps: boolean) {}

  static forDevice(device: GPUDevice): GpuWaiter {
    return new GpuWaiter(waitingCompetesWithDevice(device));
  }

  /**
   * Call right after a submit: `read` (a readback of its results) once the work is likely done.
   * `work` sizes it (pairs, bodies: anything its time grows with), so that a small run after a
   * large one sleeps less.
   */
  async wait<T>(read: () => Promise<T>, work = 1): Promise<T> {
    const start = performance.now();
    const units = Math.max(1, work);
    const sleep = this.sleeps ? SLEEP_FRACTION * this.msPerWork * units : 0;
    if (sleep >= MIN_SLEEP_MS) await new Promise((resolve) => setTimeout(resolve, sleep));
    const asked = performance.now();
    const out = await read();
    const done = performance.now();
    // Overslept: the work's time is unknown, only that it was shorter; back off.
    const overslept =
      sleep >= MIN_SLEEP_MS && done - asked < Math.max(OVERSLEPT_MS, OVERSLEPT_FRACTION * sleep);
    if (!this.first) this.msPerWork = (overslept ? sleep / 2 : done - start) / units;
    this.first = false;
    return out;
  }
}
