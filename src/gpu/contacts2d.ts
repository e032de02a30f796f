// The dense contact list of the 2D pipeline on the GPU (shaders/contacts2d-layout.wgsl,
// shaders/contacts2d.wgsl, with scan.wgsl and radixsort.wgsl): from one Manifold2D slot per pair
// (the narrowphase's output), the touching manifolds as a dense list ordered by (bodyA, bodyB),
// each point carrying last frame's user value of the point with the same pair and feature id.
// src/cpu/contacts2d.ts is the same stage on the host, kernel for kernel, byte for byte.
//
//   compact  flags (count > 0) of the pair slots, an exclusive scan (GpuScan), the counts, and a
//            scatter of the touching pairs' sort keys and indices, in pair order;
//   order    a stable radix sort (GpuRadixSort) of the pair indices by K = bodyA << keyShift | bodyB
//            (keyShift: the bits of the largest body index, when the caller gives bodyCount; else
//            32): one sort when K fits in 32 bits, else one by its low 32 bits and one by the rest;
//            then a gather of the manifolds into this frame's list and keys;
//   persist  per entry, a search of last frame's keys (galloping from where the entry would be if
//            the lists were alike, then bisection; at most 2 × 32 steps); per point, last frame's
//            user value of the point with the same feature id, else 0.
//
// Deterministic: no atomics; the list is byte-identical from run to run, and does not depend on
// the order in which the pairs are listed (the pair's bodies as given decide it; the broadphases
// give bodyA < bodyB). Pairs listed twice keep their input order (their manifolds are equal).
//
// Double-buffered: each frame writes one slot (list, keys, user values, counts) and reads the
// other, last frame's. A solver writes this frame's user values (ContactUserValues2D, a vec2f per
// point, e.g. normal and tangent impulse) into `outputs.userValues` on the GPU, or with
// setUserValues() from the host, after the frame and before the next encode(); the next frame
// carries them. A grown capacity replaces a slot's buffers: take them from each encode()'s outputs.
//
// Capacity: the list holds `capacity` entries; `counts.total` is always the real total and
// `counts.overflow` 1 when it did not fit. Encode the frame again with `retry: true` and a larger
// capacity (it reads the same last frame); run() does so. Never drops a manifold silently.
//
// encode() records everything into the caller's encoder; pairCountSource lets the pair count come
// from a GPU buffer (the broadphase's counts), with no readback. It writes its parameters with
// queue.writeBuffer and reuses its scratch buffers: submit each encoded frame before the next
// encode() on the same instance.

import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { CapacityError } from '../errors.ts';
import { CONTACTS_GROWTH, CONTACTS_WORKGROUP_SIZE } from '../constants.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import {
  CONTACT_NONE,
  CONTACTS_LAYOUT_2D,
  checkRunInputs2D,
  sortKeyPlan2D,
  type ContactsResult2D,
  type ContactsRunOptions2D,
  type ContactsTimings2D,
  type SortKeyPlan2D,
} from '../cpu/contacts2d.ts';
import { assembleWgsl } from './shaders.ts';
import { GpuRadixSort, type RadixSortPlan } from './radixsort.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import { GrowingBuffer, PassTimer, createUniformSlots, dispatchRows, readBuffer } from './buffers.ts';
import { cachedKernel, type Kernel } from './pipelines.ts';

export { CONTACT_NONE, CONTACTS_LAYOUT_2D, CONTACTS_WORKGROUP_SIZE, CONTACTS_GROWTH };
export type { ContactsResult2D, ContactsRunOptions2D, ContactsTimings2D };

/** The stage's constants as WGSL (defined once, in src/constants.ts and src/cpu/contacts2d.ts). */
export function contactsConstantsWgsl(): string {
  return [`const CONTACTS_WORKGROUP_SIZE: u32 = ${CONTACTS_WORKGROUP_SIZE}u;`, `const CONTACT_NONE: u32 = ${CONTACT_NONE}u;`, ''].join('\n');
}

const FILES = ['layout2d', 'contacts2d-layout', 'contacts2d'] as const;
const contactsWgsl = (): string => contactsConstantsWgsl() + assembleWgsl(FILES);

/** Stages timed with timestamp queries, in order. */
export const CONTACTS_STAGES_2D = ['compact', 'order', 'persist'] as const;

export interface ContactsInputs2D {
  /** Manifold2D slots, one per pair (the narrowphase's output). */
  manifolds: GPUBuffer;
  /** array<vec2u>: the pairs (bodyA, bodyB) of the slots. */
  pairs: GPUBuffer;
  /** The pair count, when the host knows it. */
  pairCount?: number;
  /**
   * Or where the GPU holds it: a u32 at `offset` (a multiple of 4) of a buffer with COPY_SRC usage,
   * e.g. the GPU broadphase's counts buffer at 4 × BROADPHASE_LAYOUT_2D.counts.written.
   */
  pairCountSource?: { buffer: GPUBuffer; offset: number };
  /**
   * Pair slots the kernels look at: the most pairs there can be (a larger pair count is clamped to
   * it; counts.pairCount still shows it). Default: as many as both buffers hold.
   */
  pairSlots?: number;
  /**
   * Every body index in the pairs is below it: shorter sort keys (fewer radix passes). Not checked
   * on the GPU (run() checks it): a larger index gives a wrong order. Default: unknown (32 bits).
   */
  bodyCount?: number;
  /** Entries the dense list holds; default: setCapacity's, or pairSlots (which cannot overflow). */
  capacity?: number;
  /** Record the frame again (after an overflow): reads the same last frame, rewrites this one. */
  retry?: boolean;
}

export interface ContactsOutputs2D {
  /** array<ContactManifold2D>: counts.written entries, ordered by (bodyA, bodyB). */
  contacts: GPUBuffer;
  /** array<vec2u>: (bodyA, bodyB) of each entry (what the next frame searches). */
  keys: GPUBuffer;
  /** array<ContactUserValues2D>, per entry: carried from last frame; the solver overwrites them for the next. */
  userValues: GPUBuffer;
  /** ContactCounts2D (CONTACTS_LAYOUT_2D.counts), COPY_SRC. */
  counts: GPUBuffer;
  capacity: number;
}

const KERNEL_NAMES = ['ctFlags', 'ctFinalize', 'ctScatter', 'ctPad', 'ctKeysHigh', 'ctGather', 'ctPersist'] as const;
type KernelName = (typeof KERNEL_NAMES)[number];

let bindingsCache: Record<string, number[]> | null = null;
/** The bindings each kernel uses (its auto layout's), read from the WGSL. */
function kernelBindings(name: KernelName): number[] {
  if (!bindingsCache) {
    const reflect = new WgslReflect(contactsWgsl());
    bindingsCache = Object.fromEntries(reflect.entry.compute.map((e) => [e.name, e.resources.map((r) => r.binding).sort((a, b) => a - b)]));
  }
  const b = bindingsCache[name];
  if (!b) throw new Error(`shaders/contacts2d.wgsl has no entry point ${name}`);
  return b;
}

interface Slot {
  contacts: GrowingBuffer;
  keys: GrowingBuffer;
  userValues: GrowingBuffer;
  counts: GPUBuffer;
}

// A function: in Node, GPUBufferUsage exists only once Dawn is loaded.
const storageUsage = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

const CB = CONTACTS_LAYOUT_2D.contact.bytes;
const UB = CONTACTS_LAYOUT_2D.userValues.bytes;
const K = CONTACTS_LAYOUT_2D.counts;
const P = CONTACTS_LAYOUT_2D.params;
const MANIFOLD_BYTES = LAYOUT_2D.manifold.words * 4;

export class GpuContacts2D {
  private capacity = 0;
  private readonly params: GPUBuffer;
  private readonly offsets: GrowingBuffer;
  private readonly sortKeys: GrowingBuffer;
  private readonly sortValues: GrowingBuffer;
  private readonly sortKeysTmp: GrowingBuffer;
  private readonly sortValuesTmp: GrowingBuffer;
  private readonly inputManifolds: GrowingBuffer;
  private readonly inputPairs: GrowingBuffer;
  private readonly slots: [Slot, Slot];
  /** The slot the last encode() wrote. */
  private cur = 1;
  private scanPlan: { plan: ScanPlan; data: GPUBuffer; n: number } | null = null;
  private sortPlans: { plan: RadixSortPlan; keys: GPUBuffer; values: GPUBuffer; buffers: GPUBuffer[]; n: number; keyBits: number }[] = [];
  private readonly timer: PassTimer | null;

  private constructor(
    readonly device: GPUDevice,
    private readonly kernels: Record<KernelName, Kernel>,
    private readonly sorter: GpuRadixSort,
    private readonly scanner: GpuScan,
    timestamps: boolean,
  ) {
    const S = storageUsage();
    this.params = createUniformSlots(device, 'contacts2d-params', 1);
    this.offsets = new GrowingBuffer(device, S, 'contacts2d-offsets');
    this.sortKeys = new GrowingBuffer(device, S, 'contacts2d-sort-keys');
    this.sortValues = new GrowingBuffer(device, S, 'contacts2d-sort-values');
    this.sortKeysTmp = new GrowingBuffer(device, S, 'contacts2d-sort-keys-tmp');
    this.sortValuesTmp = new GrowingBuffer(device, S, 'contacts2d-sort-values-tmp');
    this.inputManifolds = new GrowingBuffer(device, S, 'contacts2d-input-manifolds');
    this.inputPairs = new GrowingBuffer(device, S, 'contacts2d-input-pairs');
    const slot = (k: number): Slot => ({
      contacts: new GrowingBuffer(device, S, `contacts2d-contacts-${k}`),
      keys: new GrowingBuffer(device, S, `contacts2d-keys-${k}`),
      userValues: new GrowingBuffer(device, S, `contacts2d-user-values-${k}`),
      counts: device.createBuffer({ label: `contacts2d-counts-${k}`, size: Math.max(16, K.bytes), usage: S }),
    });
    this.slots = [slot(0), slot(1)];
    this.timer = timestamps ? new PassTimer(device, CONTACTS_STAGES_2D) : null;
  }

  /** Compiles the kernels for `device`; `timestamps` needs a device created with 'timestamp-query'. */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query')): Promise<GpuContacts2D> {
    const [kernels, sorter, scanner] = await Promise.all([
      Promise.all(KERNEL_NAMES.map((e) => cachedKernel(device, 'contacts2d', e, contactsWgsl))),
      GpuRadixSort.create(device),
      GpuScan.create(device),
    ]);
    const k = Object.fromEntries(KERNEL_NAMES.map((e, i) => [e, kernels[i]!])) as Record<KernelName, Kernel>;
    return new GpuContacts2D(device, k, sorter, scanner, timestamps);
  }

  /** The dense list's capacity in frames that give none (0: as many as pair slots). */
  setCapacity(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0) throw new RangeError(`capacity must be an integer >= 0, got ${entries}`);
    this.capacity = entries;
  }

  /** The most entries one list can hold on this device. */
  maxCapacity(): number {
    return Math.floor(Math.min(this.device.limits.maxStorageBufferBindingSize, this.device.limits.maxBufferSize) / CB);
  }

  /** Forgets last frame (queued with writeBuffer): the next frame carries nothing. */
  reset(): void {
    const zero = new Uint32Array(K.bytes / 4);
    for (const s of this.slots) this.device.queue.writeBuffer(s.counts, 0, zero);
  }

  /** The last frame's outputs (what the next frame reads), or null before the first frame. */
  lastOutputs(): Omit<ContactsOutputs2D, 'capacity'> | null {
    const s = this.slots[this.cur];
    if (!s.contacts.buffer || !s.keys.buffer || !s.userValues.buffer) return null;
    return { contacts: s.contacts.buffer, keys: s.keys.buffer, userValues: s.userValues.buffer, counts: s.counts };
  }

  /**
   * Writes user values (ContactUserValues2D: a vec2f per point) of the last frame's entries from
   * `first` on, for the next frame to carry. Queued: call it after submitting the frame.
   */
  setUserValues(values: Float32Array, first = 0): void {
    const buffer = this.slots[this.cur].userValues.buffer;
    const at = first * UB;
    if (!buffer || at + values.byteLength > buffer.size) {
      throw new RangeError(`user values past the list's ${buffer ? Math.floor(buffer.size / UB) : 0} entries`);
    }
    this.device.queue.writeBuffer(buffer, at, values.buffer, values.byteOffset, values.byteLength);
  }

  private ensureScanPlan(n: number): ScanPlan {
    const data = this.offsets.ensure(4 * n);
    const p = this.scanPlan;
    if (p && p.n === n && p.data === data) return p.plan;
    p?.plan.destroy();
    this.scanPlan = { plan: this.scanner.plan(data, n), data, n };
    return this.scanPlan.plan;
  }

  /** The sort of `n` keys by `keyBits` bits, on the instance's sort buffers (plans cached by bit count). */
  private ensureSortPlan(n: number, keyBits: number): { plan: RadixSortPlan; keys: GPUBuffer; values: GPUBuffer } {
    const buffers = [this.sortKeys, this.sortValues, this.sortKeysTmp, this.sortValuesTmp].map((b) => b.ensure(4 * n));
    if (!(this.sortPlans.length > 0 && this.sortPlans[0]!.n === n && this.sortPlans[0]!.buffers.every((b, i) => b === buffers[i]))) {
      for (const p of this.sortPlans) p.plan.destroy();
      this.sortPlans = [];
    }
    let p = this.sortPlans.find((q) => q.keyBits === keyBits);
    if (!p) {
      const [keys, values, keysTmp, valuesTmp] = buffers as [GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer];
      p = { plan: this.sorter.plan(keys, values, n, keyBits, { keys: keysTmp, values: valuesTmp }), keys, values, buffers, n, keyBits };
      this.sortPlans.push(p);
    }
    return p;
  }

  /**
   * Records one frame into `encoder` (3 compute passes, timed when the instance has timestamps;
   * read them with readTimings() after the submit). The outputs are filled when it has run.
   */
  encode(encoder: GPUCommandEncoder, inputs: ContactsInputs2D): ContactsOutputs2D {
    const device = this.device;
    const slotsHeld = Math.min(Math.floor(inputs.manifolds.size / MANIFOLD_BYTES), Math.floor(inputs.pairs.size / 8));
    const pairSlots = inputs.pairSlots ?? slotsHeld;
    if (!Number.isInteger(pairSlots) || pairSlots < 0 || pairSlots > slotsHeld) {
      throw new RangeError(`pairSlots must be an integer in 0..${slotsHeld} (what the manifold and pair buffers hold), got ${pairSlots}`);
    }
    if ((inputs.pairCount === undefined) === (inputs.pairCountSource === undefined)) throw new Error('give pairCount or pairCountSource, not both or neither');
    if (inputs.pairCount !== undefined && (!Number.isInteger(inputs.pairCount) || inputs.pairCount < 0 || inputs.pairCount > pairSlots)) {
      throw new RangeError(`pairCount must be an integer in 0..${pairSlots} (the pair slots), got ${inputs.pairCount}`);
    }
    if (inputs.pairCountSource && inputs.pairCountSource.offset % 4 !== 0) throw new RangeError(`pairCountSource.offset must be a multiple of 4, got ${inputs.pairCountSource.offset}`);
    const capacity = Math.max(1, inputs.capacity ?? (this.capacity || pairSlots));
    if (!Number.isInteger(capacity)) throw new RangeError(`capacity must be an integer, got ${capacity}`);
    if (capacity > this.maxCapacity()) {
      throw new CapacityError(`contacts: ${capacity} entries need ${CB * capacity} bytes; this device binds at most ${CB * this.maxCapacity()} bytes per buffer.`);
    }
    if (4 * (pairSlots + 1) > device.limits.maxStorageBufferBindingSize) throw new CapacityError(`contacts: ${pairSlots} pair slots need ${4 * (pairSlots + 1)} bytes of offsets`);
    const keyPlan: SortKeyPlan2D = sortKeyPlan2D(inputs.bodyCount);

    if (!inputs.retry) this.cur ^= 1;
    const cur = this.slots[this.cur];
    const prev = this.slots[this.cur ^ 1];
    const contacts = cur.contacts.ensure(CB * capacity);
    const keys = cur.keys.ensure(8 * capacity);
    const userValues = cur.userValues.ensure(UB * capacity);
    const prevContacts = prev.contacts.ensure(CB);
    const prevKeys = prev.keys.ensure(8);
    const prevUserValues = prev.userValues.ensure(UB);
    const scanPlan = this.ensureScanPlan(pairSlots + 1);
    const sort = this.ensureSortPlan(capacity, keyPlan.lowBits);
    const sortHigh = keyPlan.highBits > 0 ? this.ensureSortPlan(capacity, keyPlan.highBits) : null;

    const words = new Uint32Array(P.bytes / 4);
    words[P.pairSlots] = pairSlots;
    words[P.capacity] = capacity;
    words[P.keyShift] = keyPlan.keyShift;
    device.queue.writeBuffer(this.params, 0, words);
    if (inputs.pairCountSource) {
      encoder.copyBufferToBuffer(inputs.pairCountSource.buffer, inputs.pairCountSource.offset, cur.counts, 4 * K.pairCount, 4);
    } else {
      device.queue.writeBuffer(cur.counts, 4 * K.pairCount, new Uint32Array([inputs.pairCount!]));
    }

    const buffers: Record<number, GPUBufferBinding> = {
      0: { buffer: this.params, offset: 0, size: P.bytes },
      1: { buffer: inputs.manifolds },
      2: { buffer: inputs.pairs },
      3: { buffer: this.offsets.buffer!, size: 4 * (pairSlots + 1) },
      4: { buffer: cur.counts },
      6: { buffer: sort.keys },
      7: { buffer: sort.values },
      8: { buffer: contacts },
      9: { buffer: keys },
      10: { buffer: userValues },
      11: { buffer: prevContacts },
      12: { buffer: prevKeys },
      13: { buffer: prevUserValues },
      14: { buffer: prev.counts },
    };
    const run = (pass: GPUComputePassEncoder, name: KernelName, invocations: number): void => {
      if (invocations <= 0) return;
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(
        0,
        device.createBindGroup({
          label: `contacts2d.${name}`,
          layout: this.kernels[name].layout,
          entries: kernelBindings(name).map((b) => ({ binding: b, resource: buffers[b]! })),
        }),
      );
      if (name === 'ctFinalize') pass.dispatchWorkgroups(1);
      else dispatchRows(pass, Math.ceil(invocations / CONTACTS_WORKGROUP_SIZE));
    };
    const begin = (stage: (typeof CONTACTS_STAGES_2D)[number]): GPUComputePassEncoder =>
      encoder.beginComputePass(this.timer ? this.timer.passDescriptor(stage, `contacts2d.${stage}`) : { label: `contacts2d.${stage}` });

    let pass = begin('compact');
    run(pass, 'ctFlags', pairSlots + 1);
    this.scanner.encode(pass, scanPlan);
    run(pass, 'ctFinalize', 1);
    run(pass, 'ctScatter', pairSlots);
    run(pass, 'ctPad', capacity);
    pass.end();
    pass = begin('order');
    this.sorter.encode(pass, sort.plan);
    if (sortHigh) {
      run(pass, 'ctKeysHigh', capacity);
      this.sorter.encode(pass, sortHigh.plan);
    }
    run(pass, 'ctGather', capacity);
    pass.end();
    pass = begin('persist');
    run(pass, 'ctPersist', capacity);
    pass.end();
    this.timer?.resolve(encoder);
    return { contacts, keys, userValues, counts: cur.counts, capacity };
  }

  /** GPU time per stage of the last encoded frame (after its submit), or null without timestamps. */
  async readTimings(): Promise<ContactsTimings2D | null> {
    if (!this.timer) return null;
    const t = await this.timer.read();
    return { compact: t['compact']!, order: t['order']!, persist: t['persist']!, total: t['compact']! + t['order']! + t['persist']! };
  }

  /**
   * Convenience for tests and tools, one frame: uploads `manifolds` (one Manifold2D slot per pair
   * of `pairs`), runs the stage, grows the list and runs the frame again when it did not fit, and
   * reads back the list and its user values.
   */
  async run(manifolds: ArrayBuffer, pairs: Uint32Array, options: ContactsRunOptions2D = {}): Promise<ContactsResult2D> {
    const start = performance.now();
    const device = this.device;
    const pairCount = checkRunInputs2D(manifolds, pairs, options.bodyCount);
    const manifoldBuf = this.inputManifolds.ensure(Math.max(MANIFOLD_BYTES, pairCount * MANIFOLD_BYTES));
    const pairBuf = this.inputPairs.ensure(Math.max(8, 8 * pairCount));
    if (pairCount > 0) {
      device.queue.writeBuffer(manifoldBuf, 0, manifolds, 0, pairCount * MANIFOLD_BYTES);
      device.queue.writeBuffer(pairBuf, 0, pairs.buffer, pairs.byteOffset, 8 * pairCount);
    }
    let capacity = Math.max(1, options.capacity ?? (this.capacity || pairCount));
    for (let runs = 1; ; runs++) {
      const encoder = device.createCommandEncoder({ label: 'contacts2d' });
      const out = this.encode(encoder, {
        manifolds: manifoldBuf,
        pairs: pairBuf,
        pairCount,
        pairSlots: pairCount,
        ...(options.bodyCount !== undefined ? { bodyCount: options.bodyCount } : {}),
        capacity,
        retry: runs > 1,
      });
      device.queue.submit([encoder.finish()]);
      const counts = new Uint32Array(await readBuffer(device, out.counts, K.bytes));
      const timings = await this.readTimings();
      const total = counts[K.total]!;
      if (counts[K.overflow] === 1) {
        if (runs > 1) throw new Error(`contacts: ${total} manifolds overflowed a list grown to ${capacity}`);
        capacity = Math.ceil(total * CONTACTS_GROWTH);
        if (capacity > this.maxCapacity()) capacity = total;
        if (options.capacity === undefined && this.capacity > 0) this.capacity = capacity;
        continue;
      }
      const [dense, user] = await Promise.all([readBuffer(device, out.contacts, CB * total), readBuffer(device, out.userValues, UB * total)]);
      return { dense, total, userValues: new Float32Array(user), runs, capacity, timings, wallMs: performance.now() - start };
    }
  }

  destroy(): void {
    this.scanPlan?.plan.destroy();
    for (const p of this.sortPlans) p.plan.destroy();
    this.scanPlan = null;
    this.sortPlans = [];
    for (const b of [this.offsets, this.sortKeys, this.sortValues, this.sortKeysTmp, this.sortValuesTmp, this.inputManifolds, this.inputPairs]) b.destroy();
    for (const s of this.slots) {
      s.contacts.destroy();
      s.keys.destroy();
      s.userValues.destroy();
      s.counts.destroy();
    }
    this.params.destroy();
    this.timer?.destroy();
  }
}
