// Waiting for the GPU without the host thread competing with it. Dawn's Node bindings (the
// `webgpu` package) settle a pending GPU promise (mapAsync, onSubmittedWorkDone, an async pipeline)
// from a poll they queue with setImmediate, and queue the next poll at once until nothing is
// pending: the JS thread runs flat out for as long as the GPU works. On a software adapter
// (lavapipe, SwiftShader) the GPU is the CPU, and that thread takes a core from the adapter's own.
// Paced, each of Dawn's polls first sleeps the thread briefly: a result comes at most that much
// later, and the thread is idle nearly all the time it waits. docs/frame.md, *Waiting without
// spinning*.

import { isSoftwareDevice, nodeVersion } from './device.ts';

/** The thread's sleep before each of Dawn's polls (ms): the most a result is delayed by it. */
export const DAWN_POLL_PAUSE_MS = 0.25;

/** Marks a paced setImmediate, whichever copy of this module paced it (never twice). */
const PACED = Symbol.for('webgpu-narrowphase.pacedDawnPolls');

/** Node's setImmediate (none in a browser), typed here: the package builds without Node's types. */
type Immediate = ((callback: (...args: unknown[]) => void, ...args: unknown[]) => unknown) & {
  __promisify__?: unknown;
  [PACED]?: { unpaced: Immediate; polls: number };
};
const host = globalThis as unknown as { setImmediate?: Immediate };

/**
 * Whether `callback` is one of Dawn's polls: the bindings make a nameless native function of no
 * parameters per poll (a promise's resolve, the other native callback setImmediate meets, has one).
 */
function isDawnPoll(callback: unknown): callback is () => void {
  return (
    typeof callback === 'function' &&
    callback.name === '' &&
    callback.length === 0 &&
    Function.prototype.toString.call(callback).includes('[native code]')
  );
}

/** Whether waiting on `device` spins the host thread that its adapter's work also needs. */
export function waitingCompetesWithDevice(device: GPUDevice): boolean {
  return nodeVersion() !== undefined && isSoftwareDevice(device);
}

/**
 * Paces Dawn's polls in this process where waiting on `device` competes with its adapter (Node, a
 * software adapter); elsewhere does nothing. Once per process: GpuPairClasses.create() calls it, where
 * every frame and narrowphase starts.
 */
export function paceDawnPollsFor(device: GPUDevice): void {
  if (!waitingCompetesWithDevice(device)) return;
  const immediate = host.setImmediate;
  if (!immediate || immediate[PACED]) return;
  const state = { unpaced: immediate, polls: 0 };
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const paced = (callback: (...args: unknown[]) => void, ...args: unknown[]): unknown => {
    if (!isDawnPoll(callback)) return immediate(callback, ...args);
    return immediate(() => {
      try {
        Atomics.wait(cell, 0, 0, DAWN_POLL_PAUSE_MS);
        state.polls++;
      } catch {
        // A thread that may not block (a browser's main thread under Electron): poll at once.
      }
      callback();
    });
  };
  host.setImmediate = Object.assign(paced, {
    __promisify__: immediate.__promisify__,
    [PACED]: state,
  });
}

/** Puts setImmediate back as it was (Dawn's polls spin again); for tests. */
export function unpaceDawnPolls(): void {
  const state = host.setImmediate?.[PACED];
  if (state) host.setImmediate = state.unpaced;
}

/** How many of Dawn's polls have slept first since they were paced; 0 while they are not. */
export function dawnPollsPaced(): number {
  return host.setImmediate?.[PACED]?.polls ?? 0;
}
