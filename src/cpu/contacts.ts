// The dense contact list on the host, one implementation for 2D and 3D: the CPU reference of
// src/gpu/contacts.ts (shaders/contacts.wgsl), kernel for kernel, on the same buffer layouts, with
// the same results byte for byte. src/cpu/contacts2d.ts and contacts3d.ts give the per-dimension
// layouts (contactsLayout) and classes.
//
//   compaction   per batch of consecutive pairs (one batch unless the caller asks for more), the
//                touching manifold slots (count > 0) via flags, an exclusive prefix sum, a scatter
//                of their manifolds, pairs and sort keys into the touching list (in pair order) and
//                a running total (contactFlags, exclusiveScanSaturating, contactScatter,
//                contactScatterManifolds, contactAccumulate), then the counts (contactFinalize);
//   ordering     a stable sort of the touching entries by (bodyA, bodyB), the pair's bodies as given
//                (the broadphases give bodyA < bodyB), that is by K = bodyA << keyShift | bodyB: in
//                one sort when K fits in 32 bits, else by its low 32 bits and then by the rest
//                (stableSortByKey, contactKeysHigh), and a gather of the manifolds as entries, with
//                their ids and keys (contactGather, contactGatherKeys). The list does not depend on the order of the pairs, nor on the
//                batches; pairs listed twice keep their input order (their manifolds are equal);
//   persistence  each entry finds last frame's entry of the same pair by a search of last frame's
//                sorted keys (galloping from a guess, then bisection), and each of its points takes
//                the user value of last frame's point with the same feature id, else 0
//                (contactPersist, contactPatch). The lists are double-buffered: each frame writes one slot and
//                reads the other.
//
// Capacity: the list holds `capacity` entries; the counts always give the real total, and
// `overflow` is 1 when it did not fit; run() then grows the list and runs the frame again.

import { CONTACTS_GROWTH, RADIX_BITS } from '../constants.ts';
import { member, structLookup, word } from '../layout.ts';
import { WGSL_SOURCES } from '../gpu/shaders.generated.ts';

/** ContactManifold*.previous of an entry whose pair was not in last frame's list. */
export const CONTACT_NONE = 0xffffffff;

/** The narrowphase's manifold layout, as LAYOUT_2D.manifold / LAYOUT_3D.manifold give it (words). */
export interface ManifoldLayout {
  words: number;
  normal: number;
  count: number;
  points: number;
  pointStride: number;
  pointPosition: number;
  pointDepth: number;
  pointId: number;
}

const shared = structLookup(WGSL_SOURCES['contacts-layout'] ?? '', 'shaders/contacts-layout.wgsl');
const countsStruct = shared.struct('ContactCounts');
const paramsStruct = shared.struct('ContactParams');

/** ContactCounts (shaders/contacts-layout.wgsl), the same in 2D and 3D. */
export const CONTACT_COUNTS_LAYOUT = {
  bytes: countsStruct.size,
  total: word(countsStruct, 'total'),
  written: word(countsStruct, 'written'),
  overflow: word(countsStruct, 'overflow'),
  pairCount: word(countsStruct, 'pairCount'),
} as const;

/** ContactParams (the kernels' uniform), the same in 2D and 3D. */
export const CONTACT_PARAMS_LAYOUT = {
  bytes: paramsStruct.size,
  pairSlots: word(paramsStruct, 'pairSlots'),
  capacity: word(paramsStruct, 'capacity'),
  keyShift: word(paramsStruct, 'keyShift'),
  first: word(paramsStruct, 'first'),
  slots: word(paramsStruct, 'slots'),
  pageEntries: word(paramsStruct, 'pageEntries'),
} as const;

/**
 * The word offsets of one dimension's contact list, reflected from its WGSL: `wgsl` declares the
 * entry struct `contactName` (bodyA, bodyB, previous, matched, manifold) and the user values
 * struct `userName` (points: one vector per point).
 */
export function contactsLayout(wgsl: string, source: string, contactName: string, userName: string, M: ManifoldLayout) {
  const { struct } = structLookup(wgsl, source);
  const contactStruct = struct(contactName);
  const userStruct = struct(userName);
  const manifoldBase = word(contactStruct, 'manifold');
  const layout = {
    /** One entry of the dense list. */
    contact: {
      bytes: contactStruct.size,
      words: contactStruct.size / 4,
      bodyA: word(contactStruct, 'bodyA'),
      bodyB: word(contactStruct, 'bodyB'),
      previous: word(contactStruct, 'previous'),
      matched: word(contactStruct, 'matched'),
      /** Start of the manifold; its fields at manifold + the narrowphase layout's offsets. */
      manifold: manifoldBase,
      normal: manifoldBase + M.normal,
      count: manifoldBase + M.count,
      points: manifoldBase + M.points,
      pointStride: M.pointStride,
      pointPosition: M.pointPosition,
      pointDepth: M.pointDepth,
      pointId: M.pointId,
    },
    /** The user values of an entry: a vector per point, entry j at words * j, point i at + points + i * pointStride. */
    userValues: {
      bytes: userStruct.size,
      words: userStruct.size / 4,
      points: word(userStruct, 'points'),
      pointStride: member(userStruct, 'points').stride / 4,
      /** Points per entry (the manifold's capacity). */
      pointCount: member(userStruct, 'points').count,
    },
    counts: CONTACT_COUNTS_LAYOUT,
    params: CONTACT_PARAMS_LAYOUT,
    /** The narrowphase's manifold slot. */
    manifold: M,
    /** CtEntryIds (shaders/contacts.wgsl), per entry: bodyA, bodyB, count, then the point ids. */
    ids: { words: 3 + member(userStruct, 'points').count, bodyA: 0, bodyB: 1, count: 2, ids: 3 },
  } as const;
  // The entries are copied word for word: an entry must end with its manifold (no trailing
  // padding whose bytes the backends could fill differently).
  if (layout.contact.manifold + M.words !== layout.contact.words) throw new Error(`${contactName} must end with its manifold, without padding`);
  return layout;
}

export type ContactsLayout = ReturnType<typeof contactsLayout>;


// ---- the sort's keys ------------------------------------------------------------------------

export interface SortKeyPlan {
  /**
   * The sort key is K = bodyA << keyShift | bodyB, of 2 × keyShift bits (every index below
   * 2^keyShift; 32 when the body count is unknown).
   */
  keyShift: number;
  /** Bits of the first sort: of K's low 32 bits (a multiple of RADIX_BITS, 4 to 32). */
  lowBits: number;
  /** Bits of the second sort, of K >> 32 (a multiple of RADIX_BITS, 4 to 32), or 0: K fits in 32 bits, one sort. */
  highBits: number;
}

/**
 * The sorts for pairs whose body indices are below `bodyCount` (unknown: 32-bit indices). Every
 * plan gives the same order, by (bodyA, bodyB); fewer bits only take fewer radix passes (4 bits
 * each): up to 65536 bodies one sort of at most 8 passes (7 for 10k bodies), up to 2^18 bodies
 * 8 + 1 passes.
 */
export function sortKeyPlan(bodyCount?: number): SortKeyPlan {
  if (bodyCount !== undefined && (!Number.isInteger(bodyCount) || bodyCount < 0 || bodyCount > 0xffffffff)) {
    throw new RangeError(`bodyCount must be an integer in 0..2^32-1, got ${bodyCount}`);
  }
  const keyShift = bodyCount === undefined ? 32 : Math.max(1, 32 - Math.clz32(Math.max(0, bodyCount - 1)));
  // Whole radix digits (RADIX_BITS): one pass each.
  const round = (b: number): number => Math.ceil(b / RADIX_BITS) * RADIX_BITS;
  const bits = 2 * keyShift;
  return bits <= 32 ? { keyShift, lowBits: round(bits), highBits: 0 } : { keyShift, lowBits: 32, highBits: round(bits - 32) };
}

// ---- the kernels, on the host ---------------------------------------------------------------

/** One batch: the frame's pairs first .. first + slots - 1, of which `pairs` (min(pairCount - first, slots)) hold pairs. */
export interface ContactBatch {
  first: number;
  slots: number;
}

/** ctBatchPairs: the batch's slots that hold pairs. */
export function contactBatchPairs(pairCount: number, pairSlots: number, batch: ContactBatch): number {
  const n = Math.min(pairCount, pairSlots);
  return n <= batch.first ? 0 : Math.min(n - batch.first, batch.slots);
}

/** ctFlags: offsets[k] = 1 where the batch's slot k < its pairs touches, else 0, for k = 0..slots. */
export function contactFlags(L: ContactsLayout, manifolds: Uint32Array, batchPairs: number, slots: number, offsets: Uint32Array): void {
  const M = L.manifold;
  for (let k = 0; k <= slots; k++) offsets[k] = k < batchPairs && manifolds[k * M.words + M.count]! > 0 ? 1 : 0;
}

/** shaders/scan.wgsl: in-place exclusive prefix sums of the first `n` values, saturating at 0xffffffff. */
export function exclusiveScanSaturating(data: Uint32Array, n: number): void {
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    data[i] = sum;
    sum = Math.min(0xffffffff, sum + v);
  }
}

/** The low 32 bits of pair (a, b)'s sort key a << keyShift | b (ctSortKeyLow): the first sort's key. */
export function contactSortKeyLow(a: number, b: number, keyShift: number): number {
  return keyShift >= 32 ? b : ((a << keyShift) | b) >>> 0;
}

/** The bits from 32 on of pair (a, b)'s sort key (ctSortKeyHigh): the second sort's key. */
export function contactSortKeyHigh(a: number, keyShift: number): number {
  return keyShift >= 32 ? a : a >>> (32 - keyShift);
}

/** ctTouches: slot k touches where the scanned flags step up after it (see contacts.wgsl). */
export function contactTouches(offsets: Uint32Array, k: number): boolean {
  return offsets[k + 1] !== offsets[k];
}

/**
 * ctScatter: the batch's touching slot k goes to entry i = total + offsets[k] (below capacity): its
 * pair and k into the touching list, its sort key and i into the sort's buffers.
 */
export function contactScatter(
  pairs: Uint32Array, batchPairs: number, offsets: Uint32Array, total: number, capacity: number,
  keyShift: number, touchingPairs: Uint32Array, touchingSlots: Uint32Array, keys: Uint32Array, values: Uint32Array,
): void {
  for (let k = 0; k < batchPairs; k++) {
    const i = Math.min(0xffffffff, total + offsets[k]!);
    if (!contactTouches(offsets, k) || i >= capacity) continue;
    touchingPairs[2 * i] = pairs[2 * k]!;
    touchingPairs[2 * i + 1] = pairs[2 * k + 1]!;
    touchingSlots[i] = k;
    keys[i] = contactSortKeyLow(pairs[2 * k]!, pairs[2 * k + 1]!, keyShift);
    values[i] = i;
  }
}

/** ctScatterManifolds: the same entries' manifolds into the touching list. */
export function contactScatterManifolds(
  L: ContactsLayout, manifolds: Uint32Array, batchPairs: number, offsets: Uint32Array, total: number, capacity: number, touchingManifolds: Uint32Array,
): void {
  const M = L.manifold;
  for (let k = 0; k < batchPairs; k++) {
    const i = Math.min(0xffffffff, total + offsets[k]!);
    if (!contactTouches(offsets, k) || i >= capacity) continue;
    touchingManifolds.set(manifolds.subarray(k * M.words, (k + 1) * M.words), i * M.words);
  }
}

/** ctAccumulate: counts.total += the batch's total (offsets[slots] after the scan), saturating. */
export function contactAccumulate(offsets: Uint32Array, slots: number, counts: Uint32Array): void {
  counts[CONTACT_COUNTS_LAYOUT.total] = Math.min(0xffffffff, counts[CONTACT_COUNTS_LAYOUT.total]! + offsets[slots]!);
}

/** ctFinalize: written, overflow (counts.total summed over the batches, counts.pairCount set before). */
export function contactFinalize(capacity: number, counts: Uint32Array): void {
  const N = CONTACT_COUNTS_LAYOUT;
  const total = counts[N.total]!;
  counts[N.written] = Math.min(total, capacity);
  counts[N.overflow] = total > capacity ? 1 : 0;
}

/** ctKeysHigh: between the two sorts, the key of sorted position j < written becomes its pair's high key bits. */
export function contactKeysHigh(touchingPairs: Uint32Array, written: number, keyShift: number, keys: Uint32Array, values: Uint32Array): void {
  for (let j = 0; j < written; j++) keys[j] = contactSortKeyHigh(touchingPairs[2 * values[j]!]!, keyShift);
}

/**
 * A stable sort of the first `n` (key, value) pairs by the low `keyBits` bits of the keys, in
 * place (LSD, 8 bits a pass; any stable sort gives the GPU radix sort's order).
 */
export function stableSortByKey(keys: Uint32Array, values: Uint32Array, n: number, keyBits: number): void {
  let k0: Uint32Array = keys.subarray(0, n);
  let v0: Uint32Array = values.subarray(0, n);
  let k1: Uint32Array = new Uint32Array(n);
  let v1: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(257);
  for (let shift = 0; shift < keyBits; shift += 8) {
    // By the low keyBits bits only, as the GPU's passes.
    const mask = keyBits - shift >= 8 ? 0xff : (1 << (keyBits - shift)) - 1;
    count.fill(0);
    for (let i = 0; i < n; i++) count[((k0[i]! >>> shift) & mask) + 1]!++;
    for (let d = 0; d < 256; d++) count[d + 1]! += count[d]!;
    for (let i = 0; i < n; i++) {
      const d = (k0[i]! >>> shift) & mask;
      const at = count[d]!++;
      k1[at] = k0[i]!;
      v1[at] = v0[i]!;
    }
    [k0, k1] = [k1, k0];
    [v0, v1] = [v1, v0];
  }
  if (k0.buffer !== keys.buffer || k0.byteOffset !== keys.byteOffset) {
    keys.set(k0);
    values.set(v0);
  }
}

/** ctGather: contacts[j] = touching entry values[j] with its bodies, and its ids, for j < written. */
export function contactGather(
  L: ContactsLayout, touchingManifolds: Uint32Array, touchingPairs: Uint32Array, values: Uint32Array, written: number, contacts: Uint32Array, ids: Uint32Array,
): void {
  const C = L.contact;
  const M = L.manifold;
  const I = L.ids;
  for (let j = 0; j < written; j++) {
    const i = values[j]!;
    const o = j * C.words;
    const e = j * I.words;
    contacts[o + C.bodyA] = ids[e + I.bodyA] = touchingPairs[2 * i]!;
    contacts[o + C.bodyB] = ids[e + I.bodyB] = touchingPairs[2 * i + 1]!;
    contacts[o + C.previous] = CONTACT_NONE;
    contacts[o + C.matched] = 0;
    contacts.set(touchingManifolds.subarray(i * M.words, (i + 1) * M.words), o + C.manifold);
    ids[e + I.count] = contacts[o + C.count]!;
    for (let p = 0; p < I.words - I.ids; p++) ids[e + I.ids + p] = contacts[o + C.points + p * C.pointStride + C.pointId]!;
  }
}

/** ctGatherSlots: ctGather for a frame in one batch, the manifolds straight from its slots. */
export function contactGatherSlots(
  L: ContactsLayout, manifolds: Uint32Array, touchingSlots: Uint32Array, touchingPairs: Uint32Array, values: Uint32Array, written: number,
  contacts: Uint32Array, ids: Uint32Array,
): void {
  const M = L.manifold;
  // The touching list ctGather would read: entry i is slot touchingSlots[i].
  let entries = 0;
  for (let j = 0; j < written; j++) entries = Math.max(entries, values[j]! + 1);
  const touching = new Uint32Array(entries * M.words);
  for (let j = 0; j < written; j++) {
    const i = values[j]!;
    const k = touchingSlots[i]!;
    touching.set(manifolds.subarray(k * M.words, (k + 1) * M.words), i * M.words);
  }
  contactGather(L, touching, touchingPairs, values, written, contacts, ids);
}

/** ctGatherKeys: keys[j] = the pair of touching entry values[j], for j < written. */
export function contactGatherKeys(touchingPairs: Uint32Array, values: Uint32Array, written: number, keys: Uint32Array): void {
  for (let j = 0; j < written; j++) {
    const i = values[j]!;
    keys[2 * j] = touchingPairs[2 * i]!;
    keys[2 * j + 1] = touchingPairs[2 * i + 1]!;
  }
}

/** ctGuess: where entry j of `written` would be among last frame's n entries if the lists were alike. */
export function contactGuess(j: number, written: number, n: number): number {
  if (n === 0) return 0;
  return Math.min(Math.trunc(Math.fround(Math.fround(j) * Math.fround(Math.fround(n) / Math.fround(written)))), n - 1);
}

/**
 * ctLowerBound: the first of the n sorted keys (pairs of u32) that is not below (a, b), n when none
 * is: galloping from `guess`, then bisection. The result does not depend on the guess.
 */
export function lowerBound(keys: Uint32Array, n: number, a: number, b: number, guess = 0): number {
  const less = (i: number): boolean => keys[2 * i]! < a || (keys[2 * i] === a && keys[2 * i + 1]! < b);
  let lo = 0;
  let hi = n;
  if (n > 0) {
    const g = guess;
    let step = 1;
    if (less(g)) {
      lo = g + 1;
      for (let s = 0; s < 32 && step < n - g; s++) {
        const p = g + step;
        if (less(p)) {
          lo = p + 1;
          step *= 2;
        } else {
          hi = p;
          break;
        }
      }
    } else {
      hi = g;
      for (let s = 0; s < 32 && step <= g; s++) {
        const p = g - step;
        if (less(p)) {
          lo = p + 1;
          break;
        } else {
          hi = p;
          step *= 2;
        }
      }
    }
  }
  for (let s = 0; s < 32 && lo < hi; s++) {
    const mid = lo + ((hi - lo) >>> 1);
    if (less(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * ctPersist: each entry's last-frame entry (a search of prevKeys), and its points' user values:
 * last frame's value of the point with the same feature id (last frame's ids), else 0; `previous`
 * and `matched` into `matches`. `userValues` and `prevUserValues` as u32 words (bit-exact copies).
 */
export function contactPersist(
  L: ContactsLayout, ids: Uint32Array, written: number, userValues: Uint32Array, matches: Uint32Array,
  prevIds: Uint32Array, prevKeys: Uint32Array, prevWritten: number, prevUserValues: Uint32Array,
): void {
  const I = L.ids;
  const U = L.userValues;
  const P = U.pointCount;
  for (let j = 0; j < written; j++) {
    const e = j * I.words;
    const a = ids[e + I.bodyA]!;
    const b = ids[e + I.bodyB]!;
    const count = ids[e + I.count]!;
    const lo = lowerBound(prevKeys, prevWritten, a, b, contactGuess(j, written, prevWritten));
    let previous = CONTACT_NONE;
    let matched = 0;
    const u = j * U.words;
    userValues.fill(0, u, u + U.words);
    if (lo < prevWritten && prevKeys[2 * lo] === a && prevKeys[2 * lo + 1] === b) {
      previous = lo;
      const p = lo * I.words;
      const pu = lo * U.words;
      const prevCount = prevIds[p + I.count]!;
      for (let i = 0; i < P && i < count; i++) {
        const id = ids[e + I.ids + i]!;
        for (let q = 0; q < P; q++) {
          if (q < prevCount && prevIds[p + I.ids + q] === id) {
            const src = pu + U.points + q * U.pointStride;
            userValues.set(prevUserValues.subarray(src, src + U.pointStride), u + U.points + i * U.pointStride);
            matched |= 1 << i;
            break;
          }
        }
      }
    }
    matches[2 * j] = previous;
    matches[2 * j + 1] = matched;
  }
}

/** ctPatch: each entry's `previous` and `matched` from `matches`. */
export function contactPatch(L: ContactsLayout, matches: Uint32Array, written: number, contacts: Uint32Array): void {
  const C = L.contact;
  for (let j = 0; j < written; j++) {
    contacts[j * C.words + C.previous] = matches[2 * j]!;
    contacts[j * C.words + C.matched] = matches[2 * j + 1]!;
  }
}

// ---- the stage ------------------------------------------------------------------------------

export interface ContactsRunOptions {
  /** Entries the dense list holds in the first run (default: the instance's capacity, or the pair count). */
  capacity?: number;
  /** Every body index in the pairs is below it: shorter sort keys. Default: unknown. */
  bodyCount?: number;
  /** Pairs per compaction batch (default: all in one); the result does not depend on it. */
  batchPairs?: number;
}

export interface ContactsTimings {
  /** Flags, scan, counts and scatter (ms). */
  compact: number;
  /** Sort keys, radix sort(s) and gather (ms). */
  order: number;
  /** Binary search of last frame's list and the user values (ms). */
  persist: number;
  total: number;
}

/** One frame of the stage, read back (both backends). */
export interface ContactsResult {
  /** Entries (the layout's contact), `total` of them, ordered by (bodyA, bodyB). */
  dense: ArrayBuffer;
  /** Touching manifolds: the entries of `dense`. */
  total: number;
  /** User values per entry (the layout's userValues): carried from last frame, 0 for new points. */
  userValues: Float32Array;
  /** Runs it took: 1, or 2 when the list had to grow. */
  runs: number;
  /** The dense list's capacity in the last run. */
  capacity: number;
  /** GPU time per stage of the last run from timestamps (ms); null on the CPU or without them. */
  timings: ContactsTimings | null;
  /** Everything, measured on the host (ms). */
  wallMs: number;
}

interface CpuSlot {
  contacts: Uint32Array;
  ids: Uint32Array;
  keys: Uint32Array;
  userValues: Uint32Array;
  counts: Uint32Array;
}

function emptySlot(): CpuSlot {
  return { contacts: new Uint32Array(0), ids: new Uint32Array(0), keys: new Uint32Array(0), userValues: new Uint32Array(0), counts: new Uint32Array(CONTACT_COUNTS_LAYOUT.bytes / 4) };
}

/** The contact stage on the host, with last frame's list (the same API as the GPU stage's run()). */
export class CpuContacts {
  private capacity = 0;
  private readonly slots: [CpuSlot, CpuSlot] = [emptySlot(), emptySlot()];
  /** The slot the last frame wrote. */
  private cur = 1;

  constructor(readonly layout: ContactsLayout) {}

  /** The dense list's capacity in runs that give none (0: as many as pairs). */
  setCapacity(entries: number): void {
    if (!Number.isInteger(entries) || entries < 0) throw new RangeError(`capacity must be an integer >= 0, got ${entries}`);
    this.capacity = entries;
  }

  /** Forgets last frame: the next frame carries nothing. */
  reset(): void {
    for (const s of this.slots) s.counts.fill(0);
  }

  /**
   * Sets the user values of the last frame's entries from `first` on (the layout's user values
   * words), for the next frame to carry.
   */
  setUserValues(values: Float32Array, first = 0): void {
    const U = this.layout.userValues;
    const s = this.slots[this.cur];
    const at = first * U.words;
    if (at + values.length > s.userValues.length) throw new RangeError(`user values past the list's ${s.userValues.length / U.words} entries`);
    s.userValues.set(new Uint32Array(values.buffer, values.byteOffset, values.length), at);
  }

  /** One frame (kernel by kernel, as the GPU runs it): slot `cur` written, the other read. */
  private frame(manifolds: Uint32Array, pairs: Uint32Array, pairCount: number, capacity: number, plan: SortKeyPlan, batchSize: number): CpuSlot {
    const L = this.layout;
    const C = L.contact;
    const U = L.userValues;
    const M = L.manifold;
    const N = L.counts;
    const cur = this.slots[this.cur];
    const prev = this.slots[this.cur ^ 1];
    const pairSlots = pairCount;
    if (cur.contacts.length < capacity * C.words) {
      cur.contacts = new Uint32Array(capacity * C.words);
      cur.ids = new Uint32Array(capacity * L.ids.words);
      cur.keys = new Uint32Array(2 * capacity);
      cur.userValues = new Uint32Array(capacity * U.words);
    }
    cur.counts.fill(0);
    cur.counts[N.pairCount] = pairCount;
    const keys = new Uint32Array(capacity);
    const values = new Uint32Array(capacity);
    const touchingManifolds = new Uint32Array(capacity * M.words);
    const touchingPairs = new Uint32Array(2 * capacity);
    const touchingSlots = new Uint32Array(capacity);
    const single = batchSize >= pairSlots;
    for (let first = 0; first === 0 || first < pairSlots; first += batchSize) {
      const batch = { first, slots: Math.min(batchSize, Math.max(0, pairSlots - first)) };
      const n = contactBatchPairs(pairCount, pairSlots, batch);
      const offsets = new Uint32Array(batch.slots + 1);
      const m = manifolds.subarray(first * M.words, (first + batch.slots) * M.words);
      const p = pairs.subarray(2 * first, 2 * (first + batch.slots));
      contactFlags(L, m, n, batch.slots, offsets);
      exclusiveScanSaturating(offsets, batch.slots + 1);
      contactScatter(p, n, offsets, cur.counts[N.total]!, capacity, plan.keyShift, touchingPairs, touchingSlots, keys, values);
      if (!single) contactScatterManifolds(L, m, n, offsets, cur.counts[N.total]!, capacity, touchingManifolds);
      contactAccumulate(offsets, batch.slots, cur.counts);
    }
    contactFinalize(capacity, cur.counts);
    const written = cur.counts[N.written]!;
    // The GPU's sorts take their element count from the counts: the written entries only.
    stableSortByKey(keys, values, written, plan.lowBits);
    if (plan.highBits > 0) {
      contactKeysHigh(touchingPairs, written, plan.keyShift, keys, values);
      stableSortByKey(keys, values, written, plan.highBits);
    }
    if (single) contactGatherSlots(L, manifolds, touchingSlots, touchingPairs, values, written, cur.contacts, cur.ids);
    else contactGather(L, touchingManifolds, touchingPairs, values, written, cur.contacts, cur.ids);
    contactGatherKeys(touchingPairs, values, written, cur.keys);
    const matches = new Uint32Array(2 * written);
    contactPersist(L, cur.ids, written, cur.userValues, matches, prev.ids, prev.keys, prev.counts[N.written]!, prev.userValues);
    contactPatch(L, matches, written, cur.contacts);
    return cur;
  }

  /**
   * One frame: the dense list of `manifolds` (one manifold slot per pair of `pairs`), carrying
   * last frame's user values. Grows the list and runs the frame again when it did not fit.
   */
  run(manifolds: ArrayBuffer, pairs: Uint32Array, options: ContactsRunOptions = {}): ContactsResult {
    const L = this.layout;
    const start = performance.now();
    const pairCount = checkRunInputs(L, manifolds, pairs, options.bodyCount);
    const plan = sortKeyPlan(options.bodyCount);
    const m = new Uint32Array(manifolds, 0, pairCount * L.manifold.words);
    const batchSize = checkBatchPairs(options.batchPairs, pairCount);
    let capacity = Math.max(1, options.capacity ?? (this.capacity || pairCount));
    this.cur ^= 1;
    for (let runs = 1; ; runs++) {
      const s = this.frame(m, pairs, pairCount, capacity, plan, batchSize);
      const total = s.counts[L.counts.total]!;
      if (s.counts[L.counts.overflow] === 1) {
        if (runs > 1) throw new Error(`contacts: ${total} manifolds overflowed a list grown to ${capacity}`);
        capacity = Math.ceil(total * CONTACTS_GROWTH);
        if (options.capacity === undefined && this.capacity > 0) this.capacity = capacity;
        continue;
      }
      return {
        dense: s.contacts.slice(0, total * L.contact.words).buffer,
        total,
        userValues: new Float32Array(s.userValues.slice(0, total * L.userValues.words).buffer),
        runs,
        capacity,
        timings: null,
        wallMs: performance.now() - start,
      };
    }
  }
}

/** The batch size of a run: `batchPairs` (an integer >= 1), default all pairs in one batch. */
export function checkBatchPairs(batchPairs: number | undefined, pairCount: number): number {
  if (batchPairs === undefined) return Math.max(1, pairCount);
  if (!Number.isInteger(batchPairs) || batchPairs < 1) throw new RangeError(`batchPairs must be an integer >= 1, got ${batchPairs}`);
  return batchPairs;
}

/** Validates run()'s inputs (both backends); returns the pair count. */
export function checkRunInputs(L: ContactsLayout, manifolds: ArrayBuffer, pairs: Uint32Array, bodyCount?: number): number {
  const M = L.manifold;
  if (pairs.length % 2 !== 0) throw new RangeError(`pairs holds ${pairs.length} indices, not an even number`);
  const pairCount = pairs.length / 2;
  if (manifolds.byteLength < pairCount * M.words * 4) {
    throw new RangeError(`manifolds holds ${Math.floor(manifolds.byteLength / (M.words * 4))} slots for ${pairCount} pairs`);
  }
  if (bodyCount !== undefined) {
    sortKeyPlan(bodyCount);
    for (let i = 0; i < pairs.length; i++) {
      if (pairs[i]! >= bodyCount) throw new RangeError(`pair ${i >> 1} names body ${pairs[i]}, not below bodyCount ${bodyCount}`);
    }
  }
  return pairCount;
}
