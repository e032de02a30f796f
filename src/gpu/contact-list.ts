// The dense contact list on the GPU, one implementation for 2D and 3D (shaders/contact-list.wgsl after
// the per-dimension contact-list2d.wgsl or contact-list3d.wgsl, with scan.wgsl): from one manifold slot per
// pair (the narrowphase's output), the touching manifolds as a dense list in pair order, each
// point carrying last frame's user value of the point with the same pair and feature id, and the
// frame's contact events. src/cpu/contact-list.ts is the same stage on the host, kernel for kernel,
// byte for byte; src/gpu/contact-list2d.ts and contact-list3d.ts give the per-dimension classes.
//
//   compact  per batch of consecutive pairs: flags (count > 0) of its slots, an exclusive scan
//            (GpuScan), and a scatter of the touching slots' entries into the list at the running
//            total's offset (so the list is in pair order, batches or not), then the running
//            total; once all batches are in, the counts. The frames' pairs come in (bodyA, bodyB)
//            order by construction (src/gpu/broadphase.ts), so their lists are in that order with
//            no sort;
//   persist  per entry, last frame's entry of the same pair: the pair's slot in last frame's pair
//            list (prevSlot, which the frames' broadphase gives), and the entry that slot had
//            (kept per slot, denseOf); per point, that entry's user value of the point with the
//            same feature id, else 0;
//   events   the pairs that began touching (no previous entry) and those that stopped (last
//            frame's entries no entry continues), as two short lists in list order, with counts.
//
// Batches: a frame whose manifold slots do not fit in one binding (maxStorageBufferBindingSize) is
// compacted batch by batch: begin(), then per batch the narrowphase into a batch-sized manifold
// buffer and compactBatch() over it, then finish(). The list does not depend on the batches.
// Pages: the dense list is bound as two pages of pageEntries() entries each, so a list may be up
// to twice a binding (outputs.pageEntries tells a reader where to split it); the other per-entry
// buffers (user values, ids, keys) must fit one binding.
//
// Deterministic: no atomics; the list is byte-identical from run to run.
//
// Double-buffered: each frame writes one slot (list, ids, user values, counts, denseOf) and reads
// the other, last frame's. A solver writes this frame's user values into `outputs.userValues` on
// the GPU, or with setUserValues() from the host, after the frame and before the next encode(); the
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

import { prevSlots } from '../broadphase-fat.ts';
import { CapacityError } from '../errors.ts';
import { CONTACTS_GROWTH, CONTACTS_WORKGROUP_SIZE, MASK_BLOCK } from '../constants.ts';
import { maskBlocks } from '../mask-blocks.ts';
import {
  CONTACT_DISPATCH_LAYOUT,
  CONTACT_STATUS_COUNTS,
  checkBatchPairs,
  checkContactOptions,
  checkRunInputs,
  type ContactsLayout,
  type ContactsResult,
  type ContactsRunOptions,
  type ContactsTimings,
  NO_USER_VALUES,
} from '../contact-list-layout.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import {
  GrowingBuffer,
  PassTimer,
  bindingBytes,
  UNIFORM_SLOT_BYTES,
  createUniformSlots,
  dispatchRows,
  readBuffer,
  type BatchGrids,
} from './buffers.ts';
import { compileKernels, type Kernel, cachedBindGroup } from './pipelines.ts';
import { defaultStoreMode, type StoreMode } from './device.ts';
import type { BufferBindingLayout } from '../layout.ts';
export { contactsConstantsWgsl } from './frame-wgsl.ts';

/** Stages timed with timestamp queries, in order. */
export const CONTACTS_STAGES = ['compact', 'persist'] as const;

/** What differs between the dimensions: the module and the layouts. */
export interface ContactsDimension {
  /** 'contacts2d' or 'contacts3d': kernel and buffer labels. */
  label: string;
  /** The assembled module: constants, layouts, contactsNd.wgsl, contact-list.wgsl. */
  wgsl: () => string;
  /** The buffers each of its entry points binds (reflected at build time). */
  entries: Readonly<Record<string, readonly BufferBindingLayout[]>>;
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
   * array<u32>, one per pair slot: the pair's slot in last frame's pairs, or CONTACT_NONE (the
   * frames' broadphase gives it). Without it nothing carries from last frame.
   */
  prevSlot?: GPUBuffer;
  /** Entries the dense list holds; default: setCapacity's, or pairSlots (which cannot overflow). */
  capacity?: number;
  /** Record the frame again (after an overflow): reads the same last frame, rewrites this one. */
  retry?: boolean;
  /**
   * false: no contact events this frame, their kernels not recorded (counts.began and ended 0,
   * the lists empty). The next frame's events are whole either way. Default true.
   */
  events?: boolean;
  /**
   * false: no user values this frame: none carried from last frame, none written (a caller that
   * keeps its own per-contact data finds it through `previous` and `matched`), and the next
   * frame carries none from this one (its points start at 0). Default true.
   */
  userValues?: boolean;
}

/** begin()'s inputs: encode()'s without the buffers (compactBatch() gives them, batch by batch). */
export type ContactsFrameInputs = Omit<ContactsInputs, 'manifolds' | 'pairs' | 'pairSlots'> & {
  pairSlots: number;
};

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
  /** The broadphase's grids of the batch: flags, scan and scatter over its pairs, not its slots. */
  grids?: BatchGrids;
  /**
   * array<u32>, one per slot of the batch: the reuse stage's status (REUSE_STATUS). A kept slot
   * touches and one proven apart does not: only the other slots' manifolds are read for their
   * counts. The frames bind their reuse flags; without it every slot's count is read.
   */
  status?: GPUBufferBinding;
  /**
   * With `status`: 8 bytes, to which the batch adds its slots the status leaves to the collide
   * (word CONTACT_STATUS_COUNTS.collided) and those of them that touch (.touching). Not cleared.
   */
  statusCounts?: GPUBufferBinding;
}

export interface ContactsOutputs {
  /** The dense list: counts.written entries, in pair order (the frames': by (bodyA, bodyB)). */
  contacts: GPUBuffer;
  /** array<vec2u>: (bodyA, bodyB) of each entry. */
  keys: GPUBuffer;
  /**
   * User values per entry: carried from last frame; the solver overwrites them for the next.
   * A frame recorded with userValues false has none: a one-entry buffer, never written.
   */
  userValues: GPUBuffer;
  /** ContactCounts (the layout's counts), COPY_SRC: the list's counts and the events' (began, ended). */
  counts: GPUBuffer;
  /** array<vec2u>: the pairs that began touching this frame (counts.began of them), in list order. */
  began: GPUBuffer;
  /** array<vec2u>: the pairs that touched last frame and do not now (counts.ended), in last frame's order. */
  ended: GPUBuffer;
  /** array<u32>, one per pair slot: the slot's entry in the list, or CONTACT_NONE (what the next frame reads). */
  denseOf: GPUBuffer;
  capacity: number;
  /**
   * Entries per binding-sized page of `contacts`: a list longer than one binding
   * (maxStorageBufferBindingSize) is bound by a reader in pages of this many entries.
   */
  pageEntries: number;
}

// A workgroup of the contact kernels starts a block of slots (ctScatter's staging reads its place).
if (CONTACTS_WORKGROUP_SIZE % MASK_BLOCK !== 0)
  throw new Error('CONTACTS_WORKGROUP_SIZE must be a multiple of MASK_BLOCK');

const KERNEL_NAMES = [
  'ctFlags',
  'ctScatter',
  'ctScatterPaged',
  'ctAccumulate',
  'ctPersist',
  'ctPatch',
  'ctEvents',
] as const;
type KernelName = (typeof KERNEL_NAMES)[number];
/** Kernels of one invocation. */
const SINGLE: readonly KernelName[] = ['ctAccumulate'];

interface Slot {
  contacts: GrowingBuffer;
  ids: GrowingBuffer;
  keys: GrowingBuffer;
  userValues: GrowingBuffer;
  denseOf: GrowingBuffer;
  counts: GPUBuffer;
  /** The capacity of the frame it holds. */
  capacity: number;
  /** Whether the frame it holds wrote user values (ContactsInputs.userValues). */
  values: boolean;
}

/** The kernels and scan of one dimension, compiled for a device. */
export interface ContactsParts {
  kernels: Record<KernelName, Kernel>;
  bindings: Record<KernelName, number[]>;
  scanner: GpuScan;
}

/** A frame between begin() and finish(). */
interface OpenFrame {
  encoder: GPUCommandEncoder;
  pairSlots: number;
  capacity: number;
  prevCapacity: number;
  prevValid: boolean;
  batches: number;
  pageEntries: number;
  events: boolean;
  /** This frame writes user values; last frame's may be read. */
  values: boolean;
  prevValues: boolean;
  buffers: Record<number, GPUBufferBinding>;
}

/**
 * Whether a list of `capacity` entries needs its second page: the page bindings and the scatter's
 * entry point must agree (ctScatter stores into page 0 alone).
 */
const twoPages = (capacity: number, pageEntries: number): boolean => capacity > pageEntries;

// A function: in Node, GPUBufferUsage exists only once Dawn is loaded.
const storageUsage = (): number =>
  GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** Pair offsets of batches are multiples of this many pairs (256-byte binding offsets). */
export const CONTACTS_BATCH_ALIGN = 256;

export class GpuContacts {
  private capacity = 0;
  /** Uniform slots: one per batch, then the frame's. */
  private params: GPUBuffer;
  private paramSlots = 0;
  private readonly scratch: Record<string, GrowingBuffer> = {};
  /** Entries per page of the dense list (0: as many as one binding holds). */
  private pageLimit = 0;
  private readonly slots: [Slot, Slot];
  /** The slot the last encode() wrote. */
  private cur = 1;
  /** reset() was called: the next frame reads nothing of the last. */
  private forget = true;
  /** Whether the frame being recorded (and its retries) reads the last one. */
  private readsLast = false;
  private scanPlans: {
    plan: ScanPlan;
    data: GPUBuffer;
    n: number;
    countWord: number;
    countBuffer: GPUBuffer | undefined;
    frame: number;
  }[] = [];
  /** Frames begun: a scan plan used in the open frame must outlive it. */
  private frameCount = 0;
  private readonly timer: PassTimer | null;
  private readonly kernels: Record<KernelName, Kernel>;
  private readonly bindings: Record<KernelName, number[]>;
  private readonly scanner: GpuScan;
  private open: OpenFrame | null = null;
  private batchIndex = 0;
  /** run(): last run's pairs, for the next run's prevSlot. */
  private runPairs: Uint32Array | null = null;
  private readonly CB: number;
  private readonly UB: number;
  private readonly MB: number;
  /** ContactDispatch: the per-entry kernels' grids and the event scan's size (ctFinalize). */
  private readonly dispatchArgs: GPUBuffer;

  protected constructor(
    readonly device: GPUDevice,
    readonly dimension: ContactsDimension,
    parts: ContactsParts,
    timestamps: boolean,
  ) {
    ({ kernels: this.kernels, bindings: this.bindings, scanner: this.scanner } = parts);
    const L = dimension.layout;
    this.CB = L.contact.bytes;
    this.UB = L.userValues.bytes;
    this.MB = L.manifold.words * 4;
    const S = storageUsage();
    const label = dimension.label;
    const grow = (name: string): GrowingBuffer => new GrowingBuffer(device, S, `${label}-${name}`);
    this.params = createUniformSlots(device, `${label}-params`, 2);
    this.paramSlots = 2;
    const slot = (k: number): Slot => ({
      contacts: grow(`contacts-${k}`),
      ids: grow(`ids-${k}`),
      keys: grow(`keys-${k}`),
      userValues: grow(`user-values-${k}`),
      denseOf: grow(`dense-of-${k}`),
      counts: device.createBuffer({
        label: `${label}-counts-${k}`,
        size: Math.max(16, L.counts.bytes),
        usage: S,
      }),
      capacity: 0,
      values: true,
    });
    this.slots = [slot(0), slot(1)];
    this.dispatchArgs = device.createBuffer({
      label: `${label}-dispatch`,
      size: CONTACT_DISPATCH_LAYOUT.bytes,
      usage: S | GPUBufferUsage.INDIRECT,
    });
    this.timer = timestamps ? new PassTimer(device, CONTACTS_STAGES) : null;
  }

  /** What a frame without user values binds for them: it writes none, so one entry, not a list. */
  private noUserValues(): GPUBuffer {
    return this.buffer('no-user-values', this.UB);
  }

  /** A scratch buffer by name, at least `bytes` (grown on demand: contents lost when it grows). */
  private buffer(name: string, bytes: number): GPUBuffer {
    let g = this.scratch[name];
    if (!g)
      this.scratch[name] = g = new GrowingBuffer(
        this.device,
        storageUsage(),
        `${this.dimension.label}-${name}`,
      );
    return g.ensure(bytes);
  }

  /** Compiles the kernels of `dimension` for `device` (cached per device). */
  protected static async compile(
    device: GPUDevice,
    dimension: ContactsDimension,
    stores: StoreMode = defaultStoreMode(device),
  ): Promise<ContactsParts> {
    const [entryPoints, scanner] = await Promise.all([
      compileKernels(
        device,
        `${dimension.label}-${stores}`,
        KERNEL_NAMES,
        dimension.entries,
        () => `const CT_STAGED_STORES: bool = ${stores === 'staged'};\n${dimension.wgsl()}`,
      ),
      GpuScan.create(device),
    ]);
    return { ...entryPoints, scanner };
  }

  /** The dense list's capacity in frames that give none (0: as many as pair slots). */
  setCapacity(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0)
      throw new RangeError(`capacity must be an integer >= 0, got ${entries}`);
    this.capacity = entries;
  }

  /** Entries per page of the dense list: a multiple of 256 (any entry size then meets the offset alignment). */
  pageEntries(): number {
    const byLimit =
      Math.floor(this.device.limits.maxStorageBufferBindingSize / this.CB / 256) * 256;
    return this.pageLimit > 0 ? Math.min(byLimit, this.pageLimit) : byLimit;
  }

  /** Entries per page in later frames: at most `entries` (a multiple of 256), or 0: as many as a binding holds. Tests force small pages. */
  setPageEntries(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0 || entries % 256 !== 0)
      throw new RangeError(`page entries must be a multiple of 256, got ${entries}`);
    this.pageLimit = entries;
  }

  /**
   * The most entries one list can hold on this device: two pages of entries, and the unpaged
   * per-entry buffers (user values, ids, keys) each in one binding.
   */
  maxCapacity(): number {
    const limit = this.device.limits.maxStorageBufferBindingSize;
    const idsBytes = 4 * this.dimension.layout.ids.words;
    const byBuffer = Math.floor(this.device.limits.maxBufferSize / this.CB);
    return Math.min(
      2 * this.pageEntries(),
      byBuffer,
      Math.floor(limit / Math.max(this.UB, idsBytes, 8)),
    );
  }

  /** The capacity of a frame over `pairSlots` pair slots that gives none: setCapacity's, or as many as the slots (at most maxCapacity()). */
  defaultCapacity(pairSlots: number): number {
    return Math.max(1, this.capacity || Math.min(pairSlots, this.maxCapacity()));
  }

  /** Forgets last frame: the next frame carries nothing (and every pair of it begins touching). */
  reset(): void {
    this.forget = true;
    this.runPairs = null;
  }

  /** The last frame's outputs (what the next frame reads), or null before the first frame. */
  lastOutputs(): Pick<ContactsOutputs, 'contacts' | 'keys' | 'userValues' | 'counts'> | null {
    const s = this.slots[this.cur];
    // As finish() gave them: a frame without user values bound a one-entry buffer.
    const userValues = s.values ? s.userValues.buffer : this.noUserValues();
    if (!s.contacts.buffer || !s.keys.buffer || !userValues) return null;
    return { contacts: s.contacts.buffer, keys: s.keys.buffer, userValues, counts: s.counts };
  }

  /**
   * Writes user values of the last frame's entries from `first` on, for the next frame to carry.
   * Queued: call it after submitting the frame.
   */
  setUserValues(values: Float32Array, first = 0): void {
    if (!this.slots[this.cur].values) throw new Error(NO_USER_VALUES);
    const buffer = this.slots[this.cur].userValues.buffer;
    const at = first * this.UB;
    if (!buffer || at + values.byteLength > buffer.size) {
      throw new RangeError(
        `user values past the list's ${buffer ? Math.floor(buffer.size / this.UB) : 0} entries`,
      );
    }
    this.device.queue.writeBuffer(buffer, at, values.buffer, values.byteOffset, values.byteLength);
  }

  /**
   * An exclusive scan of `n` u32 of `data`, or of as many as word `count` of the dispatch buffer
   * says (plans kept for a few sizes and buffers).
   */
  private scanPlan(data: GPUBuffer, n: number, count?: number): ScanPlan {
    const source = count === undefined ? undefined : { buffer: this.dispatchArgs, word: count };
    const countWord = source?.word ?? -1;
    let p = this.scanPlans.find(
      (q) =>
        q.n === n &&
        q.data === data &&
        q.countWord === countWord &&
        q.countBuffer === source?.buffer,
    );
    if (!p) {
      // A frame scans a few sizes (full batches, the last, the event flags); keep the plans of
      // some, dropping the oldest not used in the frame being recorded.
      const stale = this.scanPlans.findIndex((q) => q.frame !== this.frameCount);
      if (this.scanPlans.length >= 8 && stale >= 0)
        this.scanPlans.splice(stale, 1)[0].plan.destroy();
      const plan = this.scanner.plan(data, n, 0, source);
      p = { plan, data, n, countWord, countBuffer: source?.buffer, frame: this.frameCount };
      this.scanPlans.push(p);
    }
    p.frame = this.frameCount;
    return p.plan;
  }

  /** Uniform slot `slot` (256 bytes each). */
  private paramSlot(slot: number): GPUBufferBinding {
    return {
      buffer: this.params,
      offset: slot * UNIFORM_SLOT_BYTES,
      size: this.dimension.layout.params.bytes,
    };
  }

  /**
   * Two page bindings of the first `capacity` entries in `buffer`; when one page holds them all,
   * the second is a spare one-entry buffer (writable bindings must not alias).
   */
  private pages(
    buffer: GPUBuffer,
    capacity: number,
    pageEntries: number,
  ): [GPUBufferBinding, GPUBufferBinding] {
    const first = { buffer, offset: 0, size: Math.min(capacity, pageEntries) * this.CB };
    if (!twoPages(capacity, pageEntries))
      return [first, { buffer: this.buffer('spare-contact', this.CB), size: this.CB }];
    return [
      first,
      { buffer, offset: pageEntries * this.CB, size: (capacity - pageEntries) * this.CB },
    ];
  }

  private writeParams(slot: number, first: number, slots: number, status = false): void {
    const o = this.open!;
    const P = this.dimension.layout.params;
    const words = new Uint32Array(P.bytes / 4);
    words[P.pairSlots] = o.pairSlots;
    words[P.capacity] = o.capacity;
    words[P.prevValid] = o.prevValid ? 1 : 0;
    words[P.first] = first;
    words[P.slots] = slots;
    words[P.pageEntries] = o.pageEntries;
    words[P.eventMasksAt] = maskBlocks(Math.max(o.capacity, o.prevCapacity), 2).masksAt;
    words[P.slotStatus] = status ? 1 : 0;
    words[P.values] = o.values ? 1 : 0;
    words[P.prevValues] = o.prevValues ? 1 : 0;
    this.device.queue.writeBuffer(this.params, slot * UNIFORM_SLOT_BYTES, words);
  }

  /**
   * Dispatches `name` over `invocations`, over the grid at word `invocations.grid` of the dispatch
   * buffer, or over a grid at byte `invocations.offset` of `invocations.buffer`.
   */
  private dispatch(
    pass: GPUComputePassEncoder,
    name: KernelName,
    invocations: number | { grid: number } | { buffer: GPUBuffer; offset: number },
    buffers: Record<number, GPUBufferBinding>,
  ): void {
    if (typeof invocations === 'number' && invocations <= 0) return;
    pass.setPipeline(this.kernels[name].pipeline);
    pass.setBindGroup(
      0,
      cachedBindGroup(this.device, {
        label: `${this.dimension.label}.${name}`,
        layout: this.kernels[name].layout,
        entries: this.bindings[name].map((b) => ({ binding: b, resource: buffers[b] })),
      }),
    );
    if (SINGLE.includes(name)) pass.dispatchWorkgroups(1);
    else if (typeof invocations === 'number')
      dispatchRows(pass, Math.ceil(invocations / CONTACTS_WORKGROUP_SIZE));
    else if ('grid' in invocations)
      pass.dispatchWorkgroupsIndirect(this.dispatchArgs, 4 * invocations.grid);
    else pass.dispatchWorkgroupsIndirect(invocations.buffer, invocations.offset);
  }

  /**
   * Starts recording a frame into `encoder` that will be compacted in `batches` batches (at least
   * one; compactBatch() each, then finish()). Checks the inputs and the capacity.
   */
  begin(encoder: GPUCommandEncoder, inputs: ContactsFrameInputs, batches = 1): void {
    const pairSlots = inputs.pairSlots;
    if (this.open) throw new Error('contacts: begin() before the last frame finished');
    // The last batch's ctAccumulate writes the frame's counts and grids: no batch, no counts.
    if (!Number.isInteger(batches) || batches < 1)
      throw new RangeError(`batches must be an integer >= 1, got ${batches}`);
    const capacity = this.checkFrameInputs(inputs);
    const { events, userValues } = checkContactOptions('inputs', inputs);
    this.ensureParamSlots(batches);

    // A retry reads what the first recording read; the first frame after reset() reads nothing.
    if (!inputs.retry) {
      this.cur ^= 1;
      this.readsLast = !this.forget && this.slots[this.cur ^ 1].capacity > 0;
      this.forget = false;
    }
    const cur = this.slots[this.cur];
    const prevValid = this.readsLast;
    const prevCapacity = prevValid ? this.slots[this.cur ^ 1].capacity : 0;
    cur.capacity = capacity;
    cur.values = userValues;
    const pageEntries = this.pageEntries();
    const buffers = this.frameBuffers(inputs, capacity, prevCapacity, pageEntries);
    this.open = {
      encoder,
      pairSlots,
      capacity,
      prevCapacity,
      prevValid: prevValid && inputs.prevSlot !== undefined,
      batches,
      pageEntries,
      events,
      values: cur.values,
      prevValues: prevValid && this.slots[this.cur ^ 1].values,
      buffers,
    };
    this.startCounts(encoder, inputs, cur.counts);
    encoder.clearBuffer(buffers[9].buffer, 0, 4 * Math.max(1, prevCapacity));
    this.writeParams(batches, 0, pairSlots);
    this.batchIndex = 0;
    this.frameCount++;
  }

  /** Refuses bad frame inputs before any GPU work; returns the frame's capacity. */
  private checkFrameInputs(inputs: ContactsFrameInputs): number {
    const pairSlots = inputs.pairSlots;
    if (!Number.isInteger(pairSlots) || pairSlots < 0)
      throw new RangeError(`pairSlots must be an integer >= 0, got ${pairSlots}`);
    if ((inputs.pairCount === undefined) === (inputs.pairCountSource === undefined))
      throw new Error('give pairCount or pairCountSource, not both or neither');
    if (
      inputs.pairCount !== undefined &&
      (!Number.isInteger(inputs.pairCount) || inputs.pairCount < 0 || inputs.pairCount > pairSlots)
    ) {
      throw new RangeError(
        `pairCount must be an integer in 0..${pairSlots} (the pair slots), got ${inputs.pairCount}`,
      );
    }
    if (inputs.pairCountSource && inputs.pairCountSource.offset % 4 !== 0)
      throw new RangeError(
        `pairCountSource.offset must be a multiple of 4, got ${inputs.pairCountSource.offset}`,
      );
    if (inputs.prevSlot && inputs.prevSlot.size < 4 * pairSlots)
      throw new RangeError(
        `prevSlot holds ${Math.floor(inputs.prevSlot.size / 4)} slots, not ${pairSlots}`,
      );
    const capacity = Math.max(1, inputs.capacity ?? this.defaultCapacity(pairSlots));
    if (!Number.isInteger(capacity))
      throw new RangeError(`capacity must be an integer, got ${capacity}`);
    if (capacity > this.maxCapacity()) {
      const bytes = this.CB * capacity;
      throw new CapacityError(
        `contacts: ${capacity} entries need ${bytes} bytes per buffer; this device binds at most ${this.device.limits.maxStorageBufferBindingSize} bytes per buffer.`,
      );
    }
    return capacity;
  }

  /** Grows the uniform slots to one per batch plus the frame's. */
  private ensureParamSlots(batches: number): void {
    if (batches + 1 > this.paramSlots) {
      this.params.destroy();
      this.paramSlots = batches + 1;
      this.params = createUniformSlots(
        this.device,
        `${this.dimension.label}-params`,
        this.paramSlots,
      );
    }
  }

  /** The frame's buffers by binding number: this frame's slot, the last frame's, and scratch. */
  private frameBuffers(
    inputs: ContactsFrameInputs,
    capacity: number,
    prevCapacity: number,
    pageEntries: number,
  ): Record<number, GPUBufferBinding> {
    const pairSlots = inputs.pairSlots;
    const cur = this.slots[this.cur];
    const prev = this.slots[this.cur ^ 1];
    const idsBytes = 4 * this.dimension.layout.ids.words;
    const [contacts0, contacts1] = this.pages(
      cur.contacts.ensure(this.CB * capacity),
      capacity,
      pageEntries,
    );
    const noSlots = this.buffer('no-prev-slot', 4);
    return {
      4: { buffer: cur.counts },
      5: { buffer: cur.denseOf.ensure(4 * Math.max(1, pairSlots)) },
      6: { buffer: this.readsLast && inputs.prevSlot ? inputs.prevSlot : noSlots },
      7: { buffer: prev.denseOf.ensure(4) },
      8: contacts0,
      9: { buffer: this.buffer('continued', 4 * Math.max(1, prevCapacity)) },
      10: { buffer: cur.values ? cur.userValues.ensure(this.UB * capacity) : this.noUserValues() },
      11: { buffer: prev.ids.ensure(idsBytes) },
      12: {
        buffer: this.buffer(
          'event-scratch',
          4 * maskBlocks(Math.max(capacity, prevCapacity), 2).words,
        ),
      },
      13: { buffer: prev.userValues.ensure(this.UB) },
      14: { buffer: prev.counts },
      16: { buffer: this.buffer(`began-${this.cur}`, 8 * capacity) },
      17: contacts1,
      18: { buffer: cur.ids.ensure(idsBytes * capacity) },
      20: { buffer: this.buffer(`ended-${this.cur}`, 8 * Math.max(1, prevCapacity)) },
      21: { buffer: cur.keys.ensure(8 * capacity) },
      22: { buffer: this.dispatchArgs },
    };
  }

  /** The running total starts at 0; the pair count comes from the host or the GPU. */
  private startCounts(
    encoder: GPUCommandEncoder,
    inputs: ContactsFrameInputs,
    counts: GPUBuffer,
  ): void {
    const L = this.dimension.layout;
    const words = new Uint32Array(L.counts.bytes / 4);
    words[L.counts.pairCount] = inputs.pairCount ?? 0;
    this.device.queue.writeBuffer(counts, 0, words);
    if (inputs.pairCountSource)
      encoder.copyBufferToBuffer(
        inputs.pairCountSource.buffer,
        inputs.pairCountSource.offset,
        counts,
        4 * L.counts.pairCount,
        4,
      );
  }

  /**
   * Compacts one batch of the frame begin() opened, in its own compute pass: timed as part of the
   * 'compact' stage, or with `descriptor` (the caller's timestamps) when given.
   */
  compactBatch(batch: ContactsBatch, descriptor?: GPUComputePassDescriptor): void {
    const o = this.open;
    if (!o) throw new Error('contacts: compactBatch() outside begin() … finish()');
    // Counted once the batch is checked: a refused batch leaves the frame as it was.
    const b = this.batchIndex;
    if (b >= o.batches)
      throw new Error(`contacts: more than the ${o.batches} batches begin() was given`);
    const { first, slots } = batch;
    if (
      !Number.isInteger(first) ||
      !Number.isInteger(slots) ||
      first < 0 ||
      slots < 0 ||
      first + slots > o.pairSlots
    ) {
      throw new RangeError(
        `batch ${first}..${first + slots} outside the frame's ${o.pairSlots} pair slots`,
      );
    }
    if (batch.manifolds.size < slots * this.MB)
      throw new RangeError(
        `batch manifolds hold ${Math.floor(batch.manifolds.size / this.MB)} slots, not ${slots}`,
      );
    if (batch.pairs.size < batch.pairsOffset + slots * 8)
      throw new RangeError(
        `batch pairs hold fewer than ${slots} pairs from byte ${batch.pairsOffset}`,
      );
    if (batch.status && bindingBytes(batch.status) < 4 * slots)
      throw new RangeError(
        `batch status holds ${Math.floor(bindingBytes(batch.status) / 4)} slots, not ${slots}`,
      );
    if (batch.statusCounts && !batch.status)
      throw new Error('batch statusCounts: counted from the status, and no status was given');
    if (batch.statusCounts && bindingBytes(batch.statusCounts) < CONTACT_STATUS_COUNTS.bytes)
      throw new RangeError(`batch statusCounts must hold ${CONTACT_STATUS_COUNTS.bytes} bytes`);
    // Per block of MASK_BLOCK slots its count (then its place), the 0 closing them, its mask.
    const { blocks, words } = maskBlocks(slots);
    const offsetBytes = 4 * words;
    if (offsetBytes > this.device.limits.maxStorageBufferBindingSize)
      throw new CapacityError(`contacts: ${slots} pair slots need ${offsetBytes} bytes of offsets`);
    const offsets = this.buffer('offsets', offsetBytes);
    this.batchIndex++;
    this.writeParams(b, first, slots, batch.status !== undefined);
    const buffers: Record<number, GPUBufferBinding> = {
      ...o.buffers,
      0: this.paramSlot(b),
      1: { buffer: batch.manifolds, offset: 0, size: Math.max(1, slots) * this.MB },
      2: { buffer: batch.pairs, offset: batch.pairsOffset, size: Math.max(1, slots) * 8 },
      3: { buffer: offsets, size: offsetBytes },
      15: batch.status ?? { buffer: this.buffer('no-status', 4) },
      23: batch.statusCounts ?? {
        buffer: this.buffer('no-status-counts', CONTACT_STATUS_COUNTS.bytes),
      },
    };
    const writes =
      o.batches === 1 ? 'both' : b === 0 ? 'begin' : b === o.batches - 1 ? 'end' : 'none';
    const label = `${this.dimension.label}.compact`;
    const pass = o.encoder.beginComputePass(
      descriptor ?? (this.timer ? this.timer.passDescriptor('compact', label, writes) : { label }),
    );
    const g = batch.grids;
    // Over every block of the slots (a 32nd of them: no grid from the GPU is worth its dispatch).
    this.dispatch(pass, 'ctFlags', blocks + 1, buffers);
    this.scanner.encode(pass, this.scanPlan(offsets, blocks + 1));
    // A list that one page holds stores into it alone (see ctStoreWord).
    const scatter = twoPages(o.capacity, o.pageEntries) ? 'ctScatterPaged' : 'ctScatter';
    this.dispatch(pass, scatter, g ? { buffer: g.buffer, offset: g.pairs } : slots, buffers);
    this.dispatch(pass, 'ctAccumulate', 1, buffers);
    pass.end();
  }

  /** Persists the frame begin() opened and lists its events, after its batches (1 compute pass). */
  finish(): ContactsOutputs {
    const o = this.open;
    if (!o) throw new Error('contacts: finish() without begin()');
    if (this.batchIndex !== o.batches)
      throw new Error(`contacts: finish() after ${this.batchIndex} of ${o.batches} batches`);
    this.open = null;
    const buffers: Record<number, GPUBufferBinding> = {
      ...o.buffers,
      0: this.paramSlot(o.batches),
    };
    const label = `${this.dimension.label}.persist`;
    const pass = o.encoder.beginComputePass(
      this.timer ? this.timer.passDescriptor('persist', label) : { label },
    );
    // Over the written entries (the last batch's ctAccumulate wrote the grids), however large the
    // capacity.
    const D = CONTACT_DISPATCH_LAYOUT;
    this.dispatch(pass, 'ctPersist', { grid: D.entries }, buffers);
    // Per block of entries: the headers, and the events' masks (unread without events).
    this.dispatch(pass, 'ctPatch', { grid: D.events }, buffers);
    if (o.events) {
      const { masksAt } = maskBlocks(Math.max(o.capacity, o.prevCapacity), 2);
      this.scanner.encode(pass, this.scanPlan(buffers[12].buffer, masksAt, D.eventBlocks));
      this.dispatch(pass, 'ctEvents', { grid: D.events }, buffers);
    }
    pass.end();
    this.timer?.resolve(o.encoder);
    const cur = this.slots[this.cur];
    return {
      contacts: buffers[8].buffer,
      keys: buffers[21].buffer,
      userValues: buffers[10].buffer,
      counts: cur.counts,
      began: buffers[16].buffer,
      ended: buffers[20].buffer,
      denseOf: buffers[5].buffer,
      capacity: o.capacity,
      pageEntries: o.pageEntries,
    };
  }

  /**
   * Records one frame into `encoder` in one batch (2 compute passes, timed when the instance has
   * timestamps; read them with readTimings() after the submit). The outputs are filled when it has run.
   */
  encode(encoder: GPUCommandEncoder, inputs: ContactsInputs): ContactsOutputs {
    const slotsHeld = Math.min(
      Math.floor(inputs.manifolds.size / this.MB),
      Math.floor(inputs.pairs.size / 8),
    );
    const pairSlots = inputs.pairSlots ?? slotsHeld;
    if (!Number.isInteger(pairSlots) || pairSlots < 0 || pairSlots > slotsHeld) {
      throw new RangeError(
        `pairSlots must be an integer in 0..${slotsHeld} (what the manifold and pair buffers hold), got ${pairSlots}`,
      );
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
    return { compact: t['compact'], persist: t['persist'], total: t['compact'] + t['persist'] };
  }

  /**
   * Convenience for tests and tools, one frame: uploads `manifolds` (one manifold slot per pair
   * of `pairs`), runs the stage (in batches of `options.batchPairs` pairs, rounded up to a multiple
   * of 256, when given), grows the list and runs the frame again when it did not fit, and reads
   * back the list, its user values and events. The pairs' slots last run (prevSlot) are found on
   * the host, so a run carries user values from the last by pair and feature id.
   */
  async run(
    manifolds: ArrayBuffer,
    pairs: Uint32Array,
    options: ContactsRunOptions = {},
  ): Promise<ContactsResult> {
    const start = performance.now();
    const device = this.device;
    const L = this.dimension.layout;
    const pairCount = checkRunInputs(L, manifolds, pairs, options.bodyCount);
    const { events, userValues } = checkContactOptions('options', options);
    const batchPairs =
      Math.ceil(checkBatchPairs(options.batchPairs, pairCount) / CONTACTS_BATCH_ALIGN) *
      CONTACTS_BATCH_ALIGN;
    const manifoldBuf = this.buffer('input-manifolds', Math.max(this.MB, pairCount * this.MB));
    const pairBuf = this.buffer('input-pairs', Math.max(8, 8 * pairCount));
    const prevSlotBuf = this.buffer('input-prev-slot', Math.max(4, 4 * pairCount));
    const prevSlot = prevSlots(pairs.subarray(0, 2 * pairCount), this.runPairs);
    if (pairCount > 0) {
      device.queue.writeBuffer(manifoldBuf, 0, manifolds, 0, pairCount * this.MB);
      device.queue.writeBuffer(pairBuf, 0, pairs.buffer, pairs.byteOffset, 8 * pairCount);
      device.queue.writeBuffer(prevSlotBuf, 0, prevSlot);
    }
    const batches = Math.max(1, Math.ceil(pairCount / batchPairs));
    let capacity = Math.max(1, options.capacity ?? this.defaultCapacity(pairCount));
    for (let runs = 1; ; runs++) {
      const encoder = device.createCommandEncoder({ label: this.dimension.label });
      const batchBuffers: GPUBuffer[] = [];
      this.begin(
        encoder,
        {
          pairCount,
          pairSlots: pairCount,
          prevSlot: prevSlotBuf,
          capacity,
          retry: runs > 1,
          events,
          userValues,
        },
        batches,
      );
      for (let b = 0; b < batches; b++) {
        const first = b * batchPairs;
        const slots = Math.min(batchPairs, pairCount - first);
        // The batch's manifolds as a narrowphase would leave them: in a buffer of their own.
        const batchBuf =
          batches === 1
            ? manifoldBuf
            : device.createBuffer({ size: Math.max(16, slots * this.MB), usage: storageUsage() });
        if (batches > 1) {
          batchBuffers.push(batchBuf);
          if (slots > 0)
            encoder.copyBufferToBuffer(manifoldBuf, first * this.MB, batchBuf, 0, slots * this.MB);
        }
        this.compactBatch({
          manifolds: batchBuf,
          pairs: pairBuf,
          pairsOffset: 8 * first,
          first,
          slots,
        });
      }
      const out = this.finish();
      device.queue.submit([encoder.finish()]);
      const counts = new Uint32Array(await readBuffer(device, out.counts, L.counts.bytes));
      for (const b of batchBuffers) b.destroy();
      const timings = await this.readTimings();
      const total = counts[L.counts.total];
      if (counts[L.counts.overflow] === 1) {
        if (runs > 1)
          throw new Error(`contacts: ${total} manifolds overflowed a list grown to ${capacity}`);
        capacity = Math.ceil(total * CONTACTS_GROWTH);
        if (capacity > this.maxCapacity()) capacity = total;
        if (options.capacity === undefined && this.capacity > 0) this.capacity = capacity;
        continue;
      }
      this.runPairs = pairs.slice(0, 2 * pairCount);
      const began = counts[L.counts.began];
      const ended = counts[L.counts.ended];
      const [dense, user, beganPairs, endedPairs] = await Promise.all([
        readBuffer(device, out.contacts, this.CB * total),
        readBuffer(device, out.userValues, userValues ? this.UB * total : 0),
        readBuffer(device, out.began, 8 * began),
        readBuffer(device, out.ended, 8 * ended),
      ]);
      return {
        dense,
        total,
        userValues: new Float32Array(user),
        began: new Uint32Array(beganPairs),
        ended: new Uint32Array(endedPairs),
        runs,
        capacity,
        timings,
        wallMs: performance.now() - start,
      };
    }
  }

  destroy(): void {
    for (const p of this.scanPlans) p.plan.destroy();
    this.scanPlans = [];
    for (const b of Object.values(this.scratch)) b.destroy();
    for (const s of this.slots) {
      s.contacts.destroy();
      s.ids.destroy();
      s.keys.destroy();
      s.userValues.destroy();
      s.denseOf.destroy();
      s.counts.destroy();
    }
    this.params.destroy();
    this.dispatchArgs.destroy();
    this.timer?.destroy();
  }
}
