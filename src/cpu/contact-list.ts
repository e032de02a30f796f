// The dense contact list on the host, one implementation for 2D and 3D: the CPU reference of
// src/gpu/contact-list.ts (shaders/contact-list.wgsl), kernel for kernel, on the same buffer layouts, with
// the same results byte for byte. src/cpu/contact-list2d.ts and contact-list3d.ts give the per-dimension
// layouts (contactsLayout) and classes.
//
//   compaction   per batch of consecutive pairs (one batch unless the caller asks for more), the
//                touching manifold slots (count > 0; a frame's kept and apart slots by their
//                reuse status) as bit masks per block of slots with their counts, an exclusive
//                prefix sum of the counts, a scatter of their entries into the list (in pair
//                order) and of each slot's entry into denseOf, and a running total (contactFlags,
//                exclusiveScanSaturating, contactScatter, contactAccumulate), then the counts
//                (contactFinalize);
//   persistence  each entry finds last frame's entry of the same pair through its pair's slot last
//                frame (prevSlot) and that slot's entry then (denseOf), and each of its points takes
//                the user value of last frame's point with the same feature id, else 0; then per
//                block of entries their headers (contactPersist, contactPatch). The lists are
//                double-buffered: each frame writes one slot and reads the other;
//   events       the pairs that began touching and those that stopped: per block of entries, bit
//                masks and counts (contactPatch, with the headers), a scan of the counts, the
//                pairs placed (exclusiveScanSaturating, contactEvents).
//
// Capacity: the list holds `capacity` entries; the counts always give the real total, and
// `overflow` is 1 when it did not fit; run() then grows the list and runs the frame again.

import { prevSlots } from '../broadphase-fat.ts';
import {
  CONTACT_NONE,
  CONTACT_SLOT_FLAGS,
  CONTACTS_GROWTH,
  MASK_BLOCK,
  REUSE_STATUS,
} from '../constants.ts';
import { maskBlocks } from '../mask-blocks.ts';
import {
  CONTACT_COUNTS_LAYOUT,
  CONTACT_PARAMS_LAYOUT,
  CONTACT_STATUS_COUNTS,
  checkBatchPairs,
  checkContactOptions,
  checkRunInputs,
  contactsLayout,
  type ContactsLayout,
  type ContactsResult,
  type ContactsRunOptions,
  type ContactsTimings,
  NO_USER_VALUES,
} from '../contact-list-layout.ts';

export {
  CONTACT_NONE,
  CONTACT_COUNTS_LAYOUT,
  CONTACT_PARAMS_LAYOUT,
  checkBatchPairs,
  checkRunInputs,
  contactsLayout,
};
export type { ContactsLayout, ContactsResult, ContactsRunOptions, ContactsTimings };

// ---- the kernels, on the host ---------------------------------------------------------------

/** One batch: the frame's pairs first .. first + slots - 1, of which `pairs` (min(pairCount - first, slots)) hold pairs. */
export interface ContactBatch {
  first: number;
  slots: number;
}

/** ctBatchPairs: the batch's slots that hold pairs. */
export function contactBatchPairs(
  pairCount: number,
  pairSlots: number,
  batch: ContactBatch,
): number {
  const n = Math.min(pairCount, pairSlots);
  return n <= batch.first ? 0 : Math.min(n - batch.first, batch.slots);
}

/** WGSL's firstTrailingBit of a u32 other than 0: the index of its lowest set bit. */
function firstTrailingBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** WGSL's countOneBits of a u32. */
function countOneBits(x: number): number {
  let n = 0;
  for (let m = x >>> 0; m !== 0; m = (m & (m - 1)) >>> 0) n++;
  return n;
}

/**
 * ctFlags: per block b of MASK_BLOCK slots, the mask of the batch's slots k < its pairs that touch
 * at offsets[blocks + 1 + b] and its count at offsets[b]; offsets[blocks] = 0 closes the counts.
 * With the status, statusCounts (CONTACT_STATUS_COUNTS's words) += the slots it leaves to the
 * collide and those of them that touch.
 */
export function contactFlags(
  L: ContactsLayout,
  manifolds: Uint32Array,
  batchPairs: number,
  slots: number,
  offsets: Uint32Array,
  status: Uint32Array | null = null,
  statusCounts: Uint32Array | null = null,
): void {
  const { blocks, masksAt } = maskBlocks(slots);
  offsets[blocks] = 0;
  for (let b = 0; b < blocks; b++) {
    const first = b * MASK_BLOCK;
    const end = Math.min(Math.max(batchPairs, first), first + MASK_BLOCK);
    let mask = 0;
    for (let k = first; k < end; k++) {
      const f = contactSlotFlags(L, manifolds, status, k);
      if (f & CONTACT_SLOT_FLAGS.touches) mask |= 1 << (k - first);
      if (statusCounts && f & CONTACT_SLOT_FLAGS.collided) {
        statusCounts[CONTACT_STATUS_COUNTS.collided]++;
        if (f & CONTACT_SLOT_FLAGS.touches) statusCounts[CONTACT_STATUS_COUNTS.touching]++;
      }
    }
    offsets[masksAt + b] = mask;
    offsets[b] = countOneBits(mask);
  }
}

/**
 * ctSlotFlags: the batch's slot k as the flags take it, with one read of its status: touches when
 * its manifold has points (a kept slot does, one proven apart does not, the others' manifolds are
 * read), and with a status `collided` for a slot left to the collide (CONTACT_SLOT_FLAGS).
 */
export function contactSlotFlags(
  L: ContactsLayout,
  manifolds: Uint32Array,
  status: Uint32Array | null,
  k: number,
): number {
  const s = status ? status[k] : REUSE_STATUS.collide;
  if (s === REUSE_STATUS.kept) return CONTACT_SLOT_FLAGS.touches;
  if (s === REUSE_STATUS.apart) return 0;
  const touches = manifolds[k * L.manifold.words + L.manifold.count]! > 0;
  return (
    (touches ? CONTACT_SLOT_FLAGS.touches : 0) |
    (status && s === REUSE_STATUS.collide ? CONTACT_SLOT_FLAGS.collided : 0)
  );
}

/** shaders/scan.wgsl: in-place exclusive prefix sums of the first `n` values, saturating at 0xffffffff. */
export function exclusiveScanSaturating(data: Uint32Array, n: number): void {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = data[i];
    data[i] = sum;
    sum = Math.min(0xffffffff, sum + v);
  }
}

/**
 * ctPlace: after the scan of the block counts, slot k's place among the batch's touching slots
 * (its block's place + the touching slots below it in the block), or CONTACT_NONE.
 */
export function contactPlace(offsets: Uint32Array, masksAt: number, k: number): number {
  const b = Math.floor(k / MASK_BLOCK);
  const bit = (1 << (k % MASK_BLOCK)) >>> 0;
  const mask = offsets[masksAt + b]!;
  if ((mask & bit) === 0) return CONTACT_NONE;
  return Math.min(0xffffffff, offsets[b]! + countOneBits(mask & (bit - 1)));
}

/**
 * ctScatter: the batch's touching slot k (frame slot first + k) goes to entry i = total + its place
 * (below capacity): its manifold (its header is contactPatch's) and its ids; denseOf[first + k] =
 * i, or CONTACT_NONE for a slot that does not touch or does not fit.
 */
export function contactScatter(
  L: ContactsLayout,
  manifolds: Uint32Array,
  pairs: Uint32Array,
  batchPairs: number,
  slots: number,
  first: number,
  offsets: Uint32Array,
  total: number,
  capacity: number,
  contacts: Uint32Array,
  ids: Uint32Array,
  denseOf: Uint32Array,
): void {
  const C = L.contact;
  const M = L.manifold;
  const I = L.ids;
  const { masksAt } = maskBlocks(slots);
  for (let k = 0; k < batchPairs; k++) {
    const place = contactPlace(offsets, masksAt, k);
    const i = Math.min(0xffffffff, total + place);
    if (place === CONTACT_NONE || i >= capacity) {
      denseOf[first + k] = CONTACT_NONE;
      continue;
    }
    denseOf[first + k] = i;
    const o = i * C.words;
    const e = i * I.words;
    ids[e + I.bodyA] = pairs[2 * k];
    ids[e + I.bodyB] = pairs[2 * k + 1];
    contacts.set(manifolds.subarray(k * M.words, (k + 1) * M.words), o + C.manifold);
    ids[e + I.slot] = first + k;
    ids[e + I.count] = contacts[o + C.count];
    for (let p = 0; p < I.words - I.ids; p++)
      ids[e + I.ids + p] = contacts[o + C.ids + p * C.idStride];
  }
}

/** ctAccumulate: counts.total += the batch's total (the scanned block counts at their end), saturating. */
export function contactAccumulate(offsets: Uint32Array, slots: number, counts: Uint32Array): void {
  counts[CONTACT_COUNTS_LAYOUT.total] = Math.min(
    0xffffffff,
    counts[CONTACT_COUNTS_LAYOUT.total] + offsets[maskBlocks(slots).blocks]!,
  );
}

/** ctFinalize: written, overflow (counts.total summed over the batches, counts.pairCount set before). */
export function contactFinalize(capacity: number, counts: Uint32Array): void {
  const N = CONTACT_COUNTS_LAYOUT;
  const total = counts[N.total];
  counts[N.written] = Math.min(total, capacity);
  counts[N.overflow] = total > capacity ? 1 : 0;
}

/** Last frame's data a frame reads (persistence and events), or null after a reset. */
export interface PrevFrame {
  /** Per pair slot of this frame: its slot last frame, or CONTACT_NONE. */
  prevSlot: Uint32Array;
  /** Last frame's per-slot entries. */
  denseOf: Uint32Array;
  ids: Uint32Array;
  /** null: last frame wrote none (ContactsRunOptions.userValues). */
  userValues: Uint32Array | null;
  written: number;
}

/** ctPrevious: last frame's entry of entry j's pair, or CONTACT_NONE. */
export function contactPrevious(
  L: ContactsLayout,
  ids: Uint32Array,
  j: number,
  prev: PrevFrame | null,
): number {
  if (!prev) return CONTACT_NONE;
  const prevSlot = prev.prevSlot[ids[j * L.ids.words + L.ids.slot]];
  return prevSlot === CONTACT_NONE ? CONTACT_NONE : prev.denseOf[prevSlot];
}

/**
 * ctPersist: for each entry j < written, last frame's entry of the same pair (contactPrevious);
 * each point takes last frame's value of the point with the same feature id, else 0; `previous`
 * and `matched` into the entry's ids, and last frame's entry marked in `continued`. `userValues`
 * as u32 words (bit-exact copies); null: this frame has none (nothing read or written).
 */
export function contactPersist(
  L: ContactsLayout,
  ids: Uint32Array,
  written: number,
  userValues: Uint32Array | null,
  continued: Uint32Array,
  prev: PrevFrame | null,
): void {
  const I = L.ids;
  const U = L.userValues;
  const P = U.pointCount;
  for (let j = 0; j < written; j++) {
    const e = j * I.words;
    const previous = contactPrevious(L, ids, j, prev);
    let matched = 0;
    const u = j * U.words;
    const last = previous !== CONTACT_NONE ? prev : null;
    const count = last ? ids[e + I.count] : 0;
    const p = previous * I.words;
    const pu = previous * U.words;
    const prevCount = last ? last.ids[p + I.count] : 0;
    // Each point: last frame's value of the point with its id, else 0 (as ctPersist).
    for (let i = 0; i < P; i++) {
      const at = u + U.points + i * U.pointStride;
      userValues?.fill(0, at, at + U.pointStride);
      if (i >= count || !last) continue;
      const id = ids[e + I.ids + i];
      for (let q = 0; q < prevCount; q++) {
        if (last.ids[p + I.ids + q] === id) {
          const src = pu + U.points + q * U.pointStride;
          // A frame without user values neither reads nor writes them (as ctPersist).
          if (userValues && last.userValues)
            userValues.set(last.userValues.subarray(src, src + U.pointStride), at);
          matched |= 1 << i;
          break;
        }
      }
    }
    ids[e + I.previous] = previous;
    ids[e + I.matched] = matched;
    if (previous !== CONTACT_NONE) continued[previous] = 1;
  }
}

/**
 * ctPatch: per block of MASK_BLOCK entries, its entries' headers (their pair, `previous` and
 * `matched`, from their ids) and their pairs into `keys`; the entries j < written with no previous
 * (began) and last frame's entries j < prevWritten that none continues (ended), as bit masks at
 * masksAt + 2 b and + 1, and their counts: scratch[b] began, scratch[blocks + b] ended;
 * scratch[2 blocks] = 0 closes them (ctFinalize writes that on the GPU).
 */
export function contactPatch(
  L: ContactsLayout,
  ids: Uint32Array,
  written: number,
  contacts: Uint32Array,
  keys: Uint32Array,
  continued: Uint32Array,
  prevWritten: number,
  scratch: Uint32Array,
  masksAt: number,
): void {
  const blocks = maskBlocks(Math.max(written, prevWritten), 2).blocks;
  scratch[2 * blocks] = 0;
  for (let b = 0; b < blocks; b++) {
    let began = 0;
    let ended = 0;
    const first = b * MASK_BLOCK;
    const end = Math.min(Math.max(written, prevWritten), first + MASK_BLOCK);
    for (let j = first; j < end; j++) {
      if (j < written && contactPatchEntry(L, ids, j, contacts, keys)) began |= 1 << (j - first);
      if (j < prevWritten && continued[j] === 0) ended |= 1 << (j - first);
    }
    scratch[masksAt + 2 * b] = began;
    scratch[masksAt + 2 * b + 1] = ended;
    scratch[b] = countOneBits(began);
    scratch[blocks + b] = countOneBits(ended);
  }
}

/** ctPatchEntry: entry j's header and key from its ids; whether it began (no previous entry). */
function contactPatchEntry(
  L: ContactsLayout,
  ids: Uint32Array,
  j: number,
  contacts: Uint32Array,
  keys: Uint32Array,
): boolean {
  const C = L.contact;
  const I = L.ids;
  const e = j * I.words;
  contacts[j * C.words + C.bodyA] = ids[e + I.bodyA];
  contacts[j * C.words + C.bodyB] = ids[e + I.bodyB];
  contacts[j * C.words + C.previous] = ids[e + I.previous];
  contacts[j * C.words + C.matched] = ids[e + I.matched];
  keys[2 * j] = ids[e + I.bodyA];
  keys[2 * j + 1] = ids[e + I.bodyB];
  return ids[e + I.previous] === CONTACT_NONE;
}

/**
 * ctEvents: after the scan of the block counts, per block its began pairs, then its ended ones,
 * lowest bit first, from the block's places on; and their counts.
 */
export function contactEvents(
  L: ContactsLayout,
  scratch: Uint32Array,
  masksAt: number,
  written: number,
  prevWritten: number,
  ids: Uint32Array,
  prevIds: Uint32Array,
  counts: Uint32Array,
  began: Uint32Array,
  ended: Uint32Array,
): void {
  const I = L.ids;
  const blocks = maskBlocks(Math.max(written, prevWritten), 2).blocks;
  const beganTotal = scratch[blocks]!;
  counts[CONTACT_COUNTS_LAYOUT.began] = beganTotal;
  counts[CONTACT_COUNTS_LAYOUT.ended] = scratch[2 * blocks]! - beganTotal;
  for (let eb = 0; eb < blocks; eb++) {
    const first = eb * MASK_BLOCK;
    let b = scratch[masksAt + 2 * eb]!;
    let at = scratch[eb]!;
    while (b !== 0) {
      const j = first + firstTrailingBit(b);
      began[2 * at] = ids[j * I.words + I.bodyA]!;
      began[2 * at + 1] = ids[j * I.words + I.bodyB]!;
      at++;
      b = (b & (b - 1)) >>> 0;
    }
    let e = scratch[masksAt + 2 * eb + 1]!;
    at = scratch[blocks + eb]! - beganTotal;
    while (e !== 0) {
      const j = first + firstTrailingBit(e);
      ended[2 * at] = prevIds[j * I.words + I.bodyA]!;
      ended[2 * at + 1] = prevIds[j * I.words + I.bodyB]!;
      at++;
      e = (e & (e - 1)) >>> 0;
    }
  }
}

// ---- the stage ------------------------------------------------------------------------------

interface CpuSlot {
  contacts: Uint32Array;
  ids: Uint32Array;
  keys: Uint32Array;
  userValues: Uint32Array;
  denseOf: Uint32Array;
  counts: Uint32Array;
  capacity: number;
  /** Whether the frame it holds wrote user values. */
  values: boolean;
}

function emptySlot(): CpuSlot {
  const empty = new Uint32Array(0);
  return {
    contacts: empty,
    ids: empty,
    keys: empty,
    userValues: empty,
    denseOf: empty,
    counts: new Uint32Array(CONTACT_COUNTS_LAYOUT.bytes / 4),
    capacity: 0,
    values: true,
  };
}

/** The contact stage on the host, with last frame's list (the same API as the GPU stage's run()). */
export class CpuContacts {
  private capacity = 0;
  private readonly slots: [CpuSlot, CpuSlot] = [emptySlot(), emptySlot()];
  /** The slot the last frame wrote. */
  private cur = 1;
  /** reset() was called: the next frame reads nothing of the last. */
  private forget = true;
  /** run(): last run's pairs, for the next run's prevSlot. */
  private runPairs: Uint32Array | null = null;

  constructor(readonly layout: ContactsLayout) {}

  /** The dense list's capacity in runs that give none (0: as many as pairs). */
  setCapacity(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0)
      throw new RangeError(`capacity must be an integer >= 0, got ${entries}`);
    this.capacity = entries;
  }

  /** Forgets last frame: the next frame carries nothing (and every pair of it begins touching). */
  reset(): void {
    this.forget = true;
    this.runPairs = null;
  }

  /**
   * Sets the user values of the last frame's entries from `first` on (the layout's user values
   * words), for the next frame to carry.
   */
  setUserValues(values: Float32Array, first = 0): void {
    const U = this.layout.userValues;
    const s = this.slots[this.cur];
    if (!s.values) throw new Error(NO_USER_VALUES);
    const at = first * U.words;
    if (at + values.length > s.userValues.length)
      throw new RangeError(`user values past the list's ${s.userValues.length / U.words} entries`);
    s.userValues.set(new Uint32Array(values.buffer, values.byteOffset, values.length), at);
  }

  /**
   * One frame (kernel by kernel, as the GPU runs it): slot `cur` written, the other read (when
   * `prevSlot` is given). Returns it with its event lists.
   */
  frame(
    manifolds: Uint32Array,
    pairs: Uint32Array,
    pairCount: number,
    capacity: number,
    batchSize: number,
    prevSlot: Uint32Array | null,
    events = true,
    status: Uint32Array | null = null,
    statusCounts: Uint32Array | null = null,
    values = true,
  ): { slot: CpuSlot; began: Uint32Array; ended: Uint32Array } {
    const L = this.layout;
    const C = L.contact;
    const U = L.userValues;
    const M = L.manifold;
    const N = L.counts;
    const cur = this.slots[this.cur];
    const prevSlotOf = this.slots[this.cur ^ 1];
    const prev: PrevFrame | null = prevSlot
      ? {
          prevSlot,
          denseOf: prevSlotOf.denseOf,
          ids: prevSlotOf.ids,
          userValues: prevSlotOf.values ? prevSlotOf.userValues : null,
          written: prevSlotOf.counts[N.written],
        }
      : null;
    const prevCapacity = prev ? prevSlotOf.capacity : 0;
    const pairSlots = pairCount;
    if (cur.contacts.length < capacity * C.words) {
      cur.contacts = new Uint32Array(capacity * C.words);
      cur.ids = new Uint32Array(capacity * L.ids.words);
      cur.keys = new Uint32Array(2 * capacity);
      cur.userValues = new Uint32Array(capacity * U.words);
    }
    if (cur.denseOf.length < pairSlots) cur.denseOf = new Uint32Array(pairSlots);
    cur.capacity = capacity;
    cur.values = values;
    cur.counts.fill(0);
    cur.counts[N.pairCount] = pairCount;
    for (let first = 0; first === 0 || first < pairSlots; first += batchSize) {
      const batch = { first, slots: Math.min(batchSize, Math.max(0, pairSlots - first)) };
      const n = contactBatchPairs(pairCount, pairSlots, batch);
      const offsets = new Uint32Array(maskBlocks(batch.slots).words);
      const m = manifolds.subarray(first * M.words, (first + batch.slots) * M.words);
      const p = pairs.subarray(2 * first, 2 * (first + batch.slots));
      const st = status ? status.subarray(first, first + batch.slots) : null;
      contactFlags(L, m, n, batch.slots, offsets, st, statusCounts);
      exclusiveScanSaturating(offsets, maskBlocks(batch.slots).masksAt);
      contactScatter(
        L,
        m,
        p,
        n,
        batch.slots,
        first,
        offsets,
        cur.counts[N.total],
        capacity,
        cur.contacts,
        cur.ids,
        cur.denseOf,
      );
      contactAccumulate(offsets, batch.slots, cur.counts);
    }
    contactFinalize(capacity, cur.counts);
    const written = cur.counts[N.written];
    const continued = new Uint32Array(Math.max(1, prevCapacity));
    contactPersist(L, cur.ids, written, values ? cur.userValues : null, continued, prev);
    const prevWritten = prev ? prev.written : 0;
    const scratchAt = maskBlocks(Math.max(capacity, prevCapacity), 2);
    const scratch = new Uint32Array(scratchAt.words);
    contactPatch(
      L,
      cur.ids,
      written,
      cur.contacts,
      cur.keys,
      continued,
      prevWritten,
      scratch,
      scratchAt.masksAt,
    );
    if (!events) return { slot: cur, began: new Uint32Array(0), ended: new Uint32Array(0) };
    exclusiveScanSaturating(scratch, maskBlocks(Math.max(written, prevWritten), 2).masksAt);
    const began = new Uint32Array(2 * capacity);
    const ended = new Uint32Array(2 * prevCapacity);
    contactEvents(
      L,
      scratch,
      scratchAt.masksAt,
      written,
      prevWritten,
      cur.ids,
      prevSlotOf.ids,
      cur.counts,
      began,
      ended,
    );
    return {
      slot: cur,
      began: began.slice(0, 2 * cur.counts[N.began]),
      ended: ended.slice(0, 2 * cur.counts[N.ended]),
    };
  }

  /**
   * One frame: the dense list of `manifolds` (one manifold slot per pair of `pairs`), carrying
   * last frame's user values by pair (its slot last run found on the host, as run() on the GPU
   * does) and feature id. Grows the list and runs the frame again when it did not fit.
   */
  run(
    manifolds: ArrayBuffer,
    pairs: Uint32Array,
    options: ContactsRunOptions = {},
  ): ContactsResult {
    const start = performance.now();
    const prevSlot = prevSlots(pairs.subarray(0, pairs.length - (pairs.length % 2)), this.runPairs);
    const result = this.runFrame(manifolds, pairs, prevSlot, options);
    this.runPairs = pairs.slice();
    return { ...result, wallMs: performance.now() - start };
  }

  /**
   * run() with the pairs' slots last frame given (a frame's broadphase's prevSlot), and their
   * reuse status when the frame has it (ContactsBatch.status: the GPU frame's flags);
   * statusCounts is added to as ContactsBatch's is (by the run whose list fits).
   */
  runFrame(
    manifolds: ArrayBuffer,
    pairs: Uint32Array,
    prevSlot: Uint32Array,
    options: ContactsRunOptions & { status?: Uint32Array; statusCounts?: Uint32Array } = {},
  ): ContactsResult {
    const L = this.layout;
    const start = performance.now();
    const pairCount = checkRunInputs(L, manifolds, pairs, options.bodyCount);
    const { events, userValues } = checkContactOptions('options', options);
    if (prevSlot.length < pairCount)
      throw new RangeError(`prevSlot holds ${prevSlot.length} slots, not ${pairCount}`);
    const m = new Uint32Array(manifolds, 0, pairCount * L.manifold.words);
    const batchSize = checkBatchPairs(options.batchPairs, pairCount);
    let capacity = Math.max(1, options.capacity ?? (this.capacity || pairCount));
    this.cur ^= 1;
    const readsLast = !this.forget && this.slots[this.cur ^ 1].capacity > 0;
    this.forget = false;
    for (let runs = 1; ; runs++) {
      const statusCounts = options.statusCounts ? new Uint32Array(2) : null;
      const {
        slot: s,
        began,
        ended,
      } = this.frame(
        m,
        pairs,
        pairCount,
        capacity,
        batchSize,
        readsLast ? prevSlot : null,
        events,
        options.status ?? null,
        statusCounts,
        userValues,
      );
      const total = s.counts[L.counts.total];
      if (s.counts[L.counts.overflow] === 1) {
        if (runs > 1)
          throw new Error(`contacts: ${total} manifolds overflowed a list grown to ${capacity}`);
        capacity = Math.ceil(total * CONTACTS_GROWTH);
        if (options.capacity === undefined && this.capacity > 0) this.capacity = capacity;
        continue;
      }
      const sum = options.statusCounts;
      if (sum && statusCounts) statusCounts.forEach((c, i) => (sum[i] = sum[i]! + c));
      return {
        dense: s.contacts.slice(0, total * L.contact.words).buffer,
        total,
        userValues: new Float32Array(
          s.userValues.slice(0, s.values ? total * L.userValues.words : 0).buffer,
        ),
        began,
        ended,
        runs,
        capacity,
        timings: null,
        wallMs: performance.now() - start,
      };
    }
  }
}
