// The dense contact list on the GPU, one implementation for 2D and 3D (shaders/contacts.wgsl after
// the per-dimension contacts2d.wgsl or contacts3d.wgsl, with scan.wgsl and radixsort.wgsl): from
// one manifold slot per pair (the narrowphase's output), the touching manifolds as a dense list
// ordered by (bodyA, bodyB), each point carrying last frame's user value of the point with the same
// pair and feature id. src/cpu/contacts.ts is the same stage on the host, kernel for kernel, byte
// for byte; src/gpu/contacts2d.ts and contacts3d.ts give the per-dimension classes.
//
//   compact  per batch of consecutive pairs: flags (count > 0) of its slots, an exclusive scan
//            (GpuScan), and a scatter of the touching slots' manifolds, pairs and sort keys into the
//            touching list at the running total's offset (so the list is in pair order, batches or
//            not), then the running total; once all batches are in, the counts;
//   order    a stable radix sort (GpuRadixSort) of the touching entries by K = bodyA << keyShift |
//            bodyB (keyShift: the bits of the largest body index, when the caller gives bodyCount;
//            else 32): one sort when K fits in 32 bits, else one by its low 32 bits and one by the
//            rest; then a gather of the manifolds into this frame's list and keys;
//   persist  per entry, a search of last frame's keys (galloping from where the entry would be if
//            the lists were alike, then bisection; at most 2 × 32 steps); per point, last frame's
//            user value of the point with the same feature id, else 0.
//
// Batches: a frame whose manifold slots do not fit in one binding (maxStorageBufferBindingSize) is
// compacted batch by batch: begin(), then per batch the narrowphase into a batch-sized manifold
// buffer and compactBatch() over it, then finish(). The list does not depend on the batches.
// Pages: the touching manifolds and the dense list are bound as two pages of pageEntries()
// entries each, so a list may be up to twice a binding (outputs.pageEntries tells a reader where
// to split it); the other per-entry buffers (keys, user values, ids) must fit one binding.
//
// Deterministic: no atomics; the list is byte-identical from run to run, and does not depend on
// the order in which the pairs are listed (the pair's bodies as given decide it; the broadphases
// give bodyA < bodyB). Pairs listed twice keep their input order (their manifolds are equal).
//
// Double-buffered: each frame writes one slot (list, keys, user values, counts) and reads the
// other, last frame's. A solver writes this frame's user values into `outputs.userValues` on the
// GPU, or with setUserValues() from the host, after the frame and before the next encode(); the
// next frame carries them. A grown capacity replaces a slot's buffers: take them from each
// encode()'s outputs.
//
// Capacity: the list holds `capacity` entries; `counts.total` is always the real total and
// `counts.overflow` 1 when it did not fit. Encode the frame again with `retry: true` and a larger
// capacity (it reads the same last frame); run() does so. Never drops a manifold silently.
//
// encode() records everything into the caller's encoder; pairCountSource lets the pair count come
// from a GPU buffer (the broadphase's counts), with no readback. It writes its parameters with
// queue.writeBuffer and reuses its scratch buffers: submit each encoded frame before the next
// encode() on the same instance.

import { CapacityError } from '../errors.ts';
import { CONTACTS_GROWTH, CONTACTS_WORKGROUP_SIZE } from '../constants.ts';
import {
  CONTACT_NONE,
  checkBatchPairs,
  checkRunInputs,
  sortKeyPlan,
  type ContactsLayout,
  type ContactsResult,
  type ContactsRunOptions,
  type ContactsTimings,
} from '../cpu/contacts.ts';
import { GpuRadixSort, type RadixSortPlan } from './radixsort.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import { GrowingBuffer, PassTimer, UNIFORM_SLOT_BYTES, createUniformSlots, dispatchRows, readBuffer } from './buffers.ts';
import { compileEntryPoints, type Kernel } from './pipelines.ts';

/** The stage's constants as WGSL (defined once, in src/constants.ts and src/cpu/contacts.ts). */
export function contactsConstantsWgsl(): string {
  return [`const CONTACTS_WORKGROUP_SIZE: u32 = ${CONTACTS_WORKGROUP_SIZE}u;`, `const CONTACT_NONE: u32 = ${CONTACT_NONE}u;`, ''].join('\n');
}

/** Stages timed with timestamp queries, in order. */
export const CONTACTS_STAGES = ['compact', 'order', 'persist'] as const;

/** What differs between the dimensions: the module and the layouts. */
export interface ContactsDimension {
  /** 'contacts2d' or 'contacts3d': kernel and buffer labels. */
  label: string;
  /** The assembled module: constants, layouts, contactsNd.wgsl, contacts.wgsl. */
  wgsl: () => string;
  layout: ContactsLayout;
}

export interface ContactsInputs {
  /** Manifold slots, one per pair (the narrowphase's output). */
  manifolds: GPUBuffer;
  /** array<vec2u>: the pairs (bodyA, bodyB) of the slots. */
  pairs: GPUBuffer;
  /** The pair count, when the host knows it. */
  pairCount?: number;
  /**
   * Or where the GPU holds it: a u32 at `offset` (a multiple of 4) of a buffer with COPY_SRC usage,
   * e.g. the GPU broadphase's counts buffer at 4 × BROADPHASE_LAYOUT.counts.written.
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

/** begin()'s inputs: encode()'s without the buffers (compactBatch() gives them, batch by batch). */
export type ContactsFrameInputs = Omit<ContactsInputs, 'manifolds' | 'pairs' | 'pairSlots'> & { pairSlots: number };

/** One batch for compactBatch(): slot k of the buffers is the frame's pair first + k. */
export interface ContactsBatch {
  /** At least `slots` manifold slots (bound from offset 0). */
  manifolds: GPUBuffer;
  /** The frame's pairs buffer (bound from pair `first`) or a buffer of this batch's pairs (`pairsOffset` 0). */
  pairs: GPUBuffer;
  /** Byte offset of the batch's first pair in `pairs` (a multiple of 256). */
  pairsOffset: number;
  first: number;
  slots: number;
}

export interface ContactsOutputs {
  /** The dense list: counts.written entries, ordered by (bodyA, bodyB). */
  contacts: GPUBuffer;
  /** array<vec2u>: (bodyA, bodyB) of each entry (what the next frame searches). */
  keys: GPUBuffer;
  /** User values per entry: carried from last frame; the solver overwrites them for the next. */
  userValues: GPUBuffer;
  /** ContactCounts (the layout's counts), COPY_SRC. */
  counts: GPUBuffer;
  capacity: number;
  /**
   * Entries per binding-sized page of `contacts`: a list longer than one binding
   * (maxStorageBufferBindingSize) is bound by a reader in pages of this many entries.
   */
  pageEntries: number;
}

const KERNEL_NAMES = [
  'ctFlags', 'ctScatter', 'ctScatterManifolds', 'ctAccumulate', 'ctFinalize', 'ctKeysHigh', 'ctGather', 'ctGatherSlots', 'ctGatherKeys', 'ctPersist', 'ctPatch',
] as const;
type KernelName = (typeof KERNEL_NAMES)[number];

interface Slot {
  contacts: GrowingBuffer;
  ids: GrowingBuffer;
  keys: GrowingBuffer;
  userValues: GrowingBuffer;
  counts: GPUBuffer;
}

/** The kernels, sort and scan of one dimension, compiled for a device. */
export interface ContactsParts {
  kernels: Record<KernelName, Kernel>;
  bindings: Record<KernelName, number[]>;
  sorter: GpuRadixSort;
  scanner: GpuScan;
}

/** A frame between begin() and finish(). */
interface OpenFrame {
  encoder: GPUCommandEncoder;
  pairSlots: number;
  capacity: number;
  keyShift: number;
  lowBits: number;
  highBits: number;
  batches: number;
  pageEntries: number;
  buffers: Record<number, GPUBufferBinding>;
  /** A frame of one batch: that batch's bindings (its manifold slots for ctGatherSlots). */
  single?: Record<number, GPUBufferBinding>;
}

// A function: in Node, GPUBufferUsage exists only once Dawn is loaded.
const storageUsage = (): number => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** Pair offsets of batches are multiples of this many pairs (256-byte binding offsets). */
export const CONTACTS_BATCH_ALIGN = 256;

export class GpuContacts {
  private capacity = 0;
  /** Uniform slots: one per batch, then the frame's. */
  private params: GPUBuffer;
  private paramSlots = 0;
  private readonly offsets: GrowingBuffer;
  private readonly sortKeys: GrowingBuffer;
  private readonly sortValues: GrowingBuffer;
  private readonly sortKeysTmp: GrowingBuffer;
  private readonly sortValuesTmp: GrowingBuffer;
  private readonly touchingManifolds: GrowingBuffer;
  private readonly touchingPairs: GrowingBuffer;
  private readonly matches: GrowingBuffer;
  private readonly touchingSlots: GrowingBuffer;
  private readonly spareContact: GrowingBuffer;
  private readonly spareTouching: GrowingBuffer;
  /** Entries per page of the touching and dense lists (0: as many as one binding holds). */
  private pageLimit = 0;
  private readonly inputManifolds: GrowingBuffer;
  private readonly inputPairs: GrowingBuffer;
  private readonly slots: [Slot, Slot];
  /** The slot the last encode() wrote. */
  private cur = 1;
  private scanPlans: { plan: ScanPlan; data: GPUBuffer; n: number }[] = [];
  private sortPlans: { plan: RadixSortPlan; keys: GPUBuffer; values: GPUBuffer; buffers: GPUBuffer[]; n: number; keyBits: number; swapped: boolean; counts: GPUBuffer }[] = [];
  private readonly timer: PassTimer | null;
  private readonly kernels: Record<KernelName, Kernel>;
  private readonly bindings: Record<KernelName, number[]>;
  private readonly sorter: GpuRadixSort;
  private readonly scanner: GpuScan;
  private open: OpenFrame | null = null;
  private readonly CB: number;
  private readonly UB: number;
  private readonly MB: number;

  protected constructor(readonly device: GPUDevice, readonly dimension: ContactsDimension, parts: ContactsParts, timestamps: boolean) {
    ({ kernels: this.kernels, bindings: this.bindings, sorter: this.sorter, scanner: this.scanner } = parts);
    const L = dimension.layout;
    this.CB = L.contact.bytes;
    this.UB = L.userValues.bytes;
    this.MB = L.manifold.words * 4;
    const S = storageUsage();
    const label = dimension.label;
    const grow = (name: string): GrowingBuffer => new GrowingBuffer(device, S, `${label}-${name}`);
    this.params = createUniformSlots(device, `${label}-params`, 2);
    this.paramSlots = 2;
    this.offsets = grow('offsets');
    this.sortKeys = grow('sort-keys');
    this.sortValues = grow('sort-values');
    this.sortKeysTmp = grow('sort-keys-tmp');
    this.sortValuesTmp = grow('sort-values-tmp');
    this.touchingManifolds = grow('touching-manifolds');
    this.touchingPairs = grow('touching-pairs');
    this.matches = grow('matches');
    this.touchingSlots = grow('touching-slots');
    this.spareContact = grow('spare-contact');
    this.spareTouching = grow('spare-touching');
    this.inputManifolds = grow('input-manifolds');
    this.inputPairs = grow('input-pairs');
    const slot = (k: number): Slot => ({
      contacts: grow(`contacts-${k}`),
      ids: grow(`ids-${k}`),
      keys: grow(`keys-${k}`),
      userValues: grow(`user-values-${k}`),
      counts: device.createBuffer({ label: `${label}-counts-${k}`, size: Math.max(16, L.counts.bytes), usage: S }),
    });
    this.slots = [slot(0), slot(1)];
    this.timer = timestamps ? new PassTimer(device, CONTACTS_STAGES) : null;
  }

  /** Compiles the kernels of `dimension` for `device` (cached per device). */
  protected static async compile(device: GPUDevice, dimension: ContactsDimension): Promise<ContactsParts> {
    const [entryPoints, sorter, scanner] = await Promise.all([
      compileEntryPoints(device, dimension.label, KERNEL_NAMES, dimension.wgsl),
      GpuRadixSort.create(device),
      GpuScan.create(device),
    ]);
    return { ...entryPoints, sorter, scanner };
  }

  /** The dense list's capacity in frames that give none (0: as many as pair slots). */
  setCapacity(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0) throw new RangeError(`capacity must be an integer >= 0, got ${entries}`);
    this.capacity = entries;
  }

  /** Entries per page of the touching and dense lists: a multiple of 256 (any entry size then meets the offset alignment). */
  pageEntries(): number {
    const byLimit = Math.floor(this.device.limits.maxStorageBufferBindingSize / Math.max(this.CB, this.MB) / 256) * 256;
    return this.pageLimit > 0 ? Math.min(byLimit, this.pageLimit) : byLimit;
  }

  /** Entries per page in later frames: at most `entries` (a multiple of 256), or 0: as many as a binding holds. Tests force small pages. */
  setPageEntries(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0 || entries % 256 !== 0) throw new RangeError(`page entries must be a multiple of 256, got ${entries}`);
    this.pageLimit = entries;
  }

  /**
   * The most entries one list can hold on this device: two pages of entries and touching
   * manifolds, and the unpaged per-entry buffers (user values, ids, keys) each in one binding.
   */
  maxCapacity(): number {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    const idsBytes = 4 * this.dimension.layout.ids.words;
    const byBuffer = Math.floor(this.device.limits.maxBufferSize / Math.max(this.CB, this.MB));
    return Math.min(2 * this.pageEntries(), byBuffer, Math.floor(limit / Math.max(this.UB, idsBytes, 8)));
  }

  /** The capacity of a frame over `pairSlots` pair slots that gives none: setCapacity's, or as many as the slots (at most maxCapacity()). */
  defaultCapacity(pairSlots: number): number {
    return Math.max(1, this.capacity || Math.min(pairSlots, this.maxCapacity()));
  }

  /** Forgets last frame (queued with writeBuffer): the next frame carries nothing. */
  reset(): void {
    const zero = new Uint32Array(this.dimension.layout.counts.bytes / 4);
    for (const s of this.slots) this.device.queue.writeBuffer(s.counts, 0, zero);
  }

  /** The last frame's outputs (what the next frame reads), or null before the first frame. */
  lastOutputs(): Omit<ContactsOutputs, 'capacity' | 'pageEntries'> | null {
    const s = this.slots[this.cur];
    if (!s.contacts.buffer || !s.keys.buffer || !s.userValues.buffer) return null;
    return { contacts: s.contacts.buffer, keys: s.keys.buffer, userValues: s.userValues.buffer, counts: s.counts };
  }

  /**
   * Writes user values of the last frame's entries from `first` on, for the next frame to carry.
   * Queued: call it after submitting the frame.
   */
  setUserValues(values: Float32Array, first = 0): void {
    const buffer = this.slots[this.cur].userValues.buffer;
    const at = first * this.UB;
    if (!buffer || at + values.byteLength > buffer.size) {
      throw new RangeError(`user values past the list's ${buffer ? Math.floor(buffer.size / this.UB) : 0} entries`);
    }
    this.device.queue.writeBuffer(buffer, at, values.buffer, values.byteOffset, values.byteLength);
  }

  private ensureScanPlan(data: GPUBuffer, n: number): ScanPlan {
    if (this.scanPlans.length > 0 && this.scanPlans[0]!.data !== data) {
      for (const p of this.scanPlans) p.plan.destroy();
      this.scanPlans = [];
    }
    let p = this.scanPlans.find((q) => q.n === n);
    if (!p) {
      // A frame scans at most two sizes (full batches and the last); keep the plans of a few.
      if (this.scanPlans.length >= 4) this.scanPlans.shift()!.plan.destroy();
      p = { plan: this.scanner.plan(data, n), data, n };
      this.scanPlans.push(p);
    }
    return p.plan;
  }

  /** The sort of `n` keys by `keyBits` bits, on the instance's sort buffers (plans cached by bit count). */
  // `swapped`: the sort starts from the scratch pair (where an odd number of passes left the last
  // sort). It sorts the first `written` of `counts` (a slot's) of its n elements.
  private ensureSortPlan(n: number, keyBits: number, counts: GPUBuffer, swapped = false): { plan: RadixSortPlan; keys: GPUBuffer; values: GPUBuffer } {
    const buffers = [this.sortKeys, this.sortValues, this.sortKeysTmp, this.sortValuesTmp].map((b) => b.ensure(4 * n));
    if (!(this.sortPlans.length > 0 && this.sortPlans[0]!.n === n && this.sortPlans[0]!.buffers.every((b, i) => b === buffers[i]))) {
      for (const p of this.sortPlans) p.plan.destroy();
      this.sortPlans = [];
    }
    let p = this.sortPlans.find((q) => q.keyBits === keyBits && q.swapped === swapped && q.counts === counts);
    if (!p) {
      const [keys, values, keysTmp, valuesTmp] = (swapped ? [buffers[2], buffers[3], buffers[0], buffers[1]] : buffers) as [GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer];
      const count = { buffer: counts, word: this.dimension.layout.counts.written };
      p = { plan: this.sorter.plan(keys, values, n, keyBits, { keys: keysTmp, values: valuesTmp }, count), keys, values, buffers, n, keyBits, swapped, counts };
      this.sortPlans.push(p);
    }
    return p;
  }

  /** Uniform slot `slot` (256 bytes each), growing the buffer (before any is bound in a frame). */
  private paramSlot(slot: number): GPUBufferBinding {
    return { buffer: this.params, offset: slot * UNIFORM_SLOT_BYTES, size: this.dimension.layout.params.bytes };
  }

  /**
   * Two page bindings of the first `capacity` entries of `entryBytes` in `buffer`; when one page
   * holds them all, the second is a spare one-entry buffer (writable bindings must not alias).
   */
  private pages(buffer: GPUBuffer, entryBytes: number, capacity: number, pageEntries: number): [GPUBufferBinding, GPUBufferBinding] {
    const first = { buffer, offset: 0, size: Math.min(capacity, pageEntries) * entryBytes };
    if (capacity <= pageEntries) return [first, { buffer: (entryBytes === this.CB ? this.spareContact : this.spareTouching).ensure(entryBytes), size: entryBytes }];
    return [first, { buffer, offset: pageEntries * entryBytes, size: (capacity - pageEntries) * entryBytes }];
  }

  private writeParams(slot: number, first: number, slots: number): void {
    const o = this.open!;
    const P = this.dimension.layout.params;
    const words = new Uint32Array(P.bytes / 4);
    words[P.pairSlots] = o.pairSlots;
    words[P.capacity] = o.capacity;
    words[P.keyShift] = o.keyShift;
    words[P.first] = first;
    words[P.slots] = slots;
    words[P.pageEntries] = o.pageEntries;
    this.device.queue.writeBuffer(this.params, slot * UNIFORM_SLOT_BYTES, words);
  }

  private dispatch(pass: GPUComputePassEncoder, name: KernelName, invocations: number, buffers: Record<number, GPUBufferBinding>): void {
    if (invocations <= 0) return;
    pass.setPipeline(this.kernels[name].pipeline);
    pass.setBindGroup(
      0,
      this.device.createBindGroup({
        label: `${this.dimension.label}.${name}`,
        layout: this.kernels[name].layout,
        entries: this.bindings[name].map((b) => ({ binding: b, resource: buffers[b]! })),
      }),
    );
    if (name === 'ctFinalize' || name === 'ctAccumulate') pass.dispatchWorkgroups(1);
    else dispatchRows(pass, Math.ceil(invocations / CONTACTS_WORKGROUP_SIZE));
  }

  /**
   * Starts recording a frame into `encoder` that will be compacted in `batches` batches
   * (compactBatch() each, then finish()). Checks the inputs and the capacity.
   */
  begin(encoder: GPUCommandEncoder, inputs: ContactsFrameInputs, batches = 1): void {
    const device = this.device;
    const L = this.dimension.layout;
    const pairSlots = inputs.pairSlots;
    if (this.open) throw new Error('contacts: begin() before the last frame finished');
    if (!Number.isInteger(pairSlots) || pairSlots < 0) throw new RangeError(`pairSlots must be an integer >= 0, got ${pairSlots}`);
    if ((inputs.pairCount === undefined) === (inputs.pairCountSource === undefined)) throw new Error('give pairCount or pairCountSource, not both or neither');
    if (inputs.pairCount !== undefined && (!Number.isInteger(inputs.pairCount) || inputs.pairCount < 0 || inputs.pairCount > pairSlots)) {
      throw new RangeError(`pairCount must be an integer in 0..${pairSlots} (the pair slots), got ${inputs.pairCount}`);
    }
    if (inputs.pairCountSource && inputs.pairCountSource.offset % 4 !== 0) throw new RangeError(`pairCountSource.offset must be a multiple of 4, got ${inputs.pairCountSource.offset}`);
    const capacity = Math.max(1, inputs.capacity ?? this.defaultCapacity(pairSlots));
    if (!Number.isInteger(capacity)) throw new RangeError(`capacity must be an integer, got ${capacity}`);
    if (capacity > this.maxCapacity()) {
      const bytes = Math.max(this.CB, this.MB) * capacity;
      throw new CapacityError(`contacts: ${capacity} entries need ${bytes} bytes per buffer; this device binds at most ${device.limits.maxStorageBufferBindingSize} bytes per buffer.`);
    }
    const keyPlan = sortKeyPlan(inputs.bodyCount);
    if (batches + 1 > this.paramSlots) {
      this.params.destroy();
      this.paramSlots = batches + 1;
      this.params = createUniformSlots(device, `${this.dimension.label}-params`, this.paramSlots);
    }

    if (!inputs.retry) this.cur ^= 1;
    const cur = this.slots[this.cur];
    const prev = this.slots[this.cur ^ 1];
    const idsBytes = 4 * L.ids.words;
    const pageEntries = this.pageEntries();
    const [touching0, touching1] = this.pages(this.touchingManifolds.ensure(this.MB * capacity), this.MB, capacity, pageEntries);
    const [contacts0, contacts1] = this.pages(cur.contacts.ensure(this.CB * capacity), this.CB, capacity, pageEntries);
    const buffers: Record<number, GPUBufferBinding> = {
      4: { buffer: cur.counts },
      5: touching0,
      8: contacts0,
      9: { buffer: cur.keys.ensure(8 * capacity) },
      10: { buffer: cur.userValues.ensure(this.UB * capacity) },
      11: { buffer: prev.ids.ensure(idsBytes) },
      12: { buffer: prev.keys.ensure(8) },
      13: { buffer: prev.userValues.ensure(this.UB) },
      14: { buffer: prev.counts },
      15: { buffer: this.touchingPairs.ensure(8 * capacity) },
      16: touching1,
      17: contacts1,
      18: { buffer: cur.ids.ensure(idsBytes * capacity) },
      19: { buffer: this.matches.ensure(8 * capacity) },
      20: { buffer: this.touchingSlots.ensure(4 * capacity) },
    };
    // The low sort's input (ctScatter writes it).
    buffers[6] = { buffer: this.sortKeys.ensure(4 * capacity) };
    buffers[7] = { buffer: this.sortValues.ensure(4 * capacity) };
    this.open = { encoder, pairSlots, capacity, keyShift: keyPlan.keyShift, lowBits: keyPlan.lowBits, highBits: keyPlan.highBits, batches, pageEntries, buffers };
    // The running total starts at 0; the pair count comes from the host or the GPU.
    const counts = new Uint32Array(L.counts.bytes / 4);
    counts[L.counts.pairCount] = inputs.pairCount ?? 0;
    device.queue.writeBuffer(cur.counts, 0, counts);
    if (inputs.pairCountSource) encoder.copyBufferToBuffer(inputs.pairCountSource.buffer, inputs.pairCountSource.offset, cur.counts, 4 * L.counts.pairCount, 4);
    this.writeParams(batches, 0, pairSlots);
    this.batchIndex = 0;
  }

  private batchIndex = 0;

  /**
   * Compacts one batch of the frame begin() opened, in its own compute pass: timed as part of the
   * 'compact' stage, or with `descriptor` (the caller's timestamps) when given.
   */
  compactBatch(batch: ContactsBatch, descriptor?: GPUComputePassDescriptor): void {
    const o = this.open;
    if (!o) throw new Error('contacts: compactBatch() outside begin() … finish()');
    const b = this.batchIndex++;
    if (b >= o.batches) throw new Error(`contacts: more than the ${o.batches} batches begin() was given`);
    const { first, slots } = batch;
    if (!Number.isInteger(first) || !Number.isInteger(slots) || first < 0 || slots < 0 || first + slots > o.pairSlots) {
      throw new RangeError(`batch ${first}..${first + slots} outside the frame's ${o.pairSlots} pair slots`);
    }
    if (batch.manifolds.size < slots * this.MB) throw new RangeError(`batch manifolds hold ${Math.floor(batch.manifolds.size / this.MB)} slots, not ${slots}`);
    if (batch.pairs.size < batch.pairsOffset + slots * 8) throw new RangeError(`batch pairs hold fewer than ${slots} pairs from byte ${batch.pairsOffset}`);
    const offsets = this.offsets.ensure(4 * (slots + 1));
    if (offsets.size > this.device.limits.maxStorageBufferBindingSize) throw new CapacityError(`contacts: ${slots} pair slots need ${4 * (slots + 1)} bytes of offsets`);
    const scanPlan = this.ensureScanPlan(offsets, slots + 1);
    this.writeParams(b, first, slots);
    const buffers: Record<number, GPUBufferBinding> = {
      ...o.buffers,
      0: this.paramSlot(b),
      1: { buffer: batch.manifolds, offset: 0, size: Math.max(1, slots) * this.MB },
      2: { buffer: batch.pairs, offset: batch.pairsOffset, size: Math.max(1, slots) * 8 },
      3: { buffer: offsets, size: 4 * (slots + 1) },
    };
    const writes = o.batches === 1 ? 'both' : b === 0 ? 'begin' : b === o.batches - 1 ? 'end' : 'none';
    const label = `${this.dimension.label}.compact`;
    const pass = o.encoder.beginComputePass(descriptor ?? (this.timer ? this.timer.passDescriptor('compact', label, writes) : { label }));
    this.dispatch(pass, 'ctFlags', slots + 1, buffers);
    this.scanner.encode(pass, scanPlan);
    this.dispatch(pass, 'ctScatter', slots, buffers);
    // One batch: finish() gathers from its slots (which must then stay as they are until it).
    if (o.batches > 1) this.dispatch(pass, 'ctScatterManifolds', slots, buffers);
    else o.single = { ...buffers };
    this.dispatch(pass, 'ctAccumulate', 1, buffers);
    pass.end();
  }

  /** Orders and persists the frame begin() opened, after its batches (2 compute passes). */
  finish(): ContactsOutputs {
    const o = this.open;
    if (!o) throw new Error('contacts: finish() without begin()');
    if (this.batchIndex !== o.batches) throw new Error(`contacts: finish() after ${this.batchIndex} of ${o.batches} batches`);
    this.open = null;
    const buffers: Record<number, GPUBufferBinding> = { ...o.buffers, 0: this.paramSlot(o.batches) };
    const counts = this.slots[this.cur].counts;
    const sort = this.ensureSortPlan(o.capacity, o.lowBits, counts);
    // An odd number of passes leaves a sort's result in the scratch pair: the next sort starts
    // there, and the kernels after the sorts read the last one's output.
    const sortHigh = o.highBits > 0 ? this.ensureSortPlan(o.capacity, o.highBits, counts, sort.plan.output.keys !== sort.keys) : null;
    const sorted = (plan: RadixSortPlan): Record<number, GPUBufferBinding> => ({ 6: { buffer: plan.output.keys }, 7: { buffer: plan.output.values } });
    const begin = (stage: (typeof CONTACTS_STAGES)[number]): GPUComputePassEncoder =>
      o.encoder.beginComputePass(this.timer ? this.timer.passDescriptor(stage, `${this.dimension.label}.${stage}`) : { label: `${this.dimension.label}.${stage}` });
    let pass = begin('order');
    this.dispatch(pass, 'ctFinalize', 1, buffers);
    this.sorter.encode(pass, sort.plan);
    let order = sorted(sort.plan);
    if (sortHigh) {
      this.dispatch(pass, 'ctKeysHigh', o.capacity, { ...buffers, ...order });
      this.sorter.encode(pass, sortHigh.plan);
      order = sorted(sortHigh.plan);
    }
    if (o.single) this.dispatch(pass, 'ctGatherSlots', o.capacity, { ...o.single, 0: buffers[0]!, ...order });
    else this.dispatch(pass, 'ctGather', o.capacity, { ...buffers, ...order });
    this.dispatch(pass, 'ctGatherKeys', o.capacity, { ...buffers, ...order });
    pass.end();
    pass = begin('persist');
    this.dispatch(pass, 'ctPersist', o.capacity, buffers);
    this.dispatch(pass, 'ctPatch', o.capacity, buffers);
    pass.end();
    this.timer?.resolve(o.encoder);
    const cur = this.slots[this.cur];
    return { contacts: o.buffers[8]!.buffer, keys: o.buffers[9]!.buffer, userValues: o.buffers[10]!.buffer, counts: cur.counts, capacity: o.capacity, pageEntries: o.pageEntries };
  }

  /**
   * Records one frame into `encoder` in one batch (3 compute passes, timed when the instance has
   * timestamps; read them with readTimings() after the submit). The outputs are filled when it has run.
   */
  encode(encoder: GPUCommandEncoder, inputs: ContactsInputs): ContactsOutputs {
    const slotsHeld = Math.min(Math.floor(inputs.manifolds.size / this.MB), Math.floor(inputs.pairs.size / 8));
    const pairSlots = inputs.pairSlots ?? slotsHeld;
    if (!Number.isInteger(pairSlots) || pairSlots < 0 || pairSlots > slotsHeld) {
      throw new RangeError(`pairSlots must be an integer in 0..${slotsHeld} (what the manifold and pair buffers hold), got ${pairSlots}`);
    }
    const { manifolds, pairs, ...rest } = inputs;
    this.begin(encoder, { ...rest, pairSlots });
    this.compactBatch({ manifolds, pairs, pairsOffset: 0, first: 0, slots: pairSlots });
    return this.finish();
  }

  /** GPU time per stage of the last encoded frame (after its submit), or null without timestamps. */
  async readTimings(): Promise<ContactsTimings | null> {
    if (!this.timer) return null;
    const t = await this.timer.read();
    return { compact: t['compact']!, order: t['order']!, persist: t['persist']!, total: t['compact']! + t['order']! + t['persist']! };
  }

  /**
   * Convenience for tests and tools, one frame: uploads `manifolds` (one manifold slot per pair
   * of `pairs`), runs the stage (in batches of `options.batchPairs` pairs, rounded up to a multiple
   * of 256, when given), grows the list and runs the frame again when it did not fit, and reads
   * back the list and its user values.
   */
  async run(manifolds: ArrayBuffer, pairs: Uint32Array, options: ContactsRunOptions = {}): Promise<ContactsResult> {
    const start = performance.now();
    const device = this.device;
    const L = this.dimension.layout;
    const pairCount = checkRunInputs(L, manifolds, pairs, options.bodyCount);
    const batchPairs = Math.ceil(checkBatchPairs(options.batchPairs, pairCount) / CONTACTS_BATCH_ALIGN) * CONTACTS_BATCH_ALIGN;
    const manifoldBuf = this.inputManifolds.ensure(Math.max(this.MB, pairCount * this.MB));
    const pairBuf = this.inputPairs.ensure(Math.max(8, 8 * pairCount));
    if (pairCount > 0) {
      device.queue.writeBuffer(manifoldBuf, 0, manifolds, 0, pairCount * this.MB);
      device.queue.writeBuffer(pairBuf, 0, pairs.buffer, pairs.byteOffset, 8 * pairCount);
    }
    const batches = Math.max(1, Math.ceil(pairCount / batchPairs));
    let capacity = Math.max(1, options.capacity ?? this.defaultCapacity(pairCount));
    for (let runs = 1; ; runs++) {
      const encoder = device.createCommandEncoder({ label: this.dimension.label });
      const batchBuffers: GPUBuffer[] = [];
      this.begin(encoder, { pairCount, pairSlots: pairCount, ...(options.bodyCount !== undefined ? { bodyCount: options.bodyCount } : {}), capacity, retry: runs > 1 }, batches);
      for (let b = 0; b < batches; b++) {
        const first = b * batchPairs;
        const slots = Math.min(batchPairs, pairCount - first);
        // The batch's manifolds as a narrowphase would leave them: in a buffer of their own.
        const batchBuf = batches === 1 ? manifoldBuf : device.createBuffer({ size: Math.max(16, slots * this.MB), usage: storageUsage() });
        if (batches > 1) {
          batchBuffers.push(batchBuf);
          if (slots > 0) encoder.copyBufferToBuffer(manifoldBuf, first * this.MB, batchBuf, 0, slots * this.MB);
        }
        this.compactBatch({ manifolds: batchBuf, pairs: pairBuf, pairsOffset: 8 * first, first, slots });
      }
      const out = this.finish();
      device.queue.submit([encoder.finish()]);
      const counts = new Uint32Array(await readBuffer(device, out.counts, L.counts.bytes));
      for (const b of batchBuffers) b.destroy();
      const timings = await this.readTimings();
      const total = counts[L.counts.total]!;
      if (counts[L.counts.overflow] === 1) {
        if (runs > 1) throw new Error(`contacts: ${total} manifolds overflowed a list grown to ${capacity}`);
        capacity = Math.ceil(total * CONTACTS_GROWTH);
        if (capacity > this.maxCapacity()) capacity = total;
        if (options.capacity === undefined && this.capacity > 0) this.capacity = capacity;
        continue;
      }
      const [dense, user] = await Promise.all([readBuffer(device, out.contacts, this.CB * total), readBuffer(device, out.userValues, this.UB * total)]);
      return { dense, total, userValues: new Float32Array(user), runs, capacity, timings, wallMs: performance.now() - start };
    }
  }

  destroy(): void {
    for (const p of this.scanPlans) p.plan.destroy();
    for (const p of this.sortPlans) p.plan.destroy();
    this.scanPlans = [];
    this.sortPlans = [];
    for (const b of [this.offsets, this.sortKeys, this.sortValues, this.sortKeysTmp, this.sortValuesTmp, this.touchingManifolds, this.touchingPairs, this.matches, this.touchingSlots, this.spareContact, this.spareTouching, this.inputManifolds, this.inputPairs]) b.destroy();
    for (const s of this.slots) {
      s.contacts.destroy();
      s.ids.destroy();
      s.keys.destroy();
      s.userValues.destroy();
      s.counts.destroy();
    }
    this.params.destroy();
    this.timer?.destroy();
  }
}
