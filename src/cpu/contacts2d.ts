// The dense contact list of the 2D pipeline on the host: the CPU reference of src/gpu/contacts2d.ts
// (shaders/contacts2d.wgsl), kernel for kernel, on the same buffer layouts, with the same results
// byte for byte. Also the CPU backend's implementation of the stage, and the layouts both share.
//
//   compaction   the touching manifold slots (count > 0) of the pairs, via flags, an exclusive
//                prefix sum and a scatter of their sort keys and pair indices (contactFlags2D,
//                exclusiveScanSaturating, contactFinalize2D, contactScatter2D, contactPad2D);
//   ordering     a stable sort of the pair indices by (bodyA, bodyB), the pair's bodies as given
//                (the broadphases give bodyA < bodyB), that is by K = bodyA << keyShift | bodyB: in
//                one sort when K fits in 32 bits, else by its low 32 bits and then by the rest
//                (stableSortByKey, contactKeysHigh2D), and a gather of the manifolds as ContactManifold2D entries
//                (contactGather2D). The list does not depend on the order of the pairs; pairs
//                listed twice keep their input order (their manifolds are equal, so the bytes are too);
//   persistence  each entry finds last frame's entry of the same pair by a search of last frame's
//                sorted keys (galloping from a guess, then bisection), and each of its points takes
//                the user value of last frame's point with the same feature id, else 0
//                (contactPersist2D). The lists are double-buffered:
//                each frame writes one slot and reads the other.
//
// Capacity: the list holds `capacity` entries; the counts always give the real total, and
// `overflow` is 1 when it did not fit; run() then grows the list and runs the frame again.

import { constantsWgsl, CONTACTS_GROWTH, MAX_MANIFOLD_POINTS_2D } from '../constants.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { structLookup, member, word } from '../layout.ts';
import { WGSL_SOURCES } from '../gpu/shaders.generated.ts';

/** ContactManifold2D.previous of an entry whose pair was not in last frame's list. */
export const CONTACT_NONE = 0xffffffff;

const { struct } = structLookup(constantsWgsl() + (WGSL_SOURCES['layout2d'] ?? '') + (WGSL_SOURCES['contacts2d-layout'] ?? ''), 'shaders/contacts2d-layout.wgsl');
const contactStruct = struct('ContactManifold2D');
const userStruct = struct('ContactUserValues2D');
const countsStruct = struct('ContactCounts2D');
const paramsStruct = struct('ContactParams2D');
const manifoldBase = word(contactStruct, 'manifold');

/** Word (4-byte) offsets of the contact list's structs (shaders/contacts2d-layout.wgsl). */
export const CONTACTS_LAYOUT_2D = {
  /** ContactManifold2D: one entry of the dense list. */
  contact: {
    bytes: contactStruct.size,
    words: contactStruct.size / 4,
    bodyA: word(contactStruct, 'bodyA'),
    bodyB: word(contactStruct, 'bodyB'),
    previous: word(contactStruct, 'previous'),
    matched: word(contactStruct, 'matched'),
    /** Start of the Manifold2D; its fields at manifold + LAYOUT_2D.manifold.*. */
    manifold: manifoldBase,
    normal: manifoldBase + LAYOUT_2D.manifold.normal,
    count: manifoldBase + LAYOUT_2D.manifold.count,
    flags: manifoldBase + LAYOUT_2D.manifold.flags,
    points: manifoldBase + LAYOUT_2D.manifold.points,
    pointStride: LAYOUT_2D.manifold.pointStride,
    pointPosition: LAYOUT_2D.manifold.pointPosition,
    pointDepth: LAYOUT_2D.manifold.pointDepth,
    pointId: LAYOUT_2D.manifold.pointId,
  },
  /** ContactUserValues2D: a vec2f per point, entry j at words * j, point i at + points + i * pointStride. */
  userValues: {
    bytes: userStruct.size,
    words: userStruct.size / 4,
    points: word(userStruct, 'points'),
    pointStride: member(userStruct, 'points').stride / 4,
  },
  /** ContactCounts2D. */
  counts: {
    bytes: countsStruct.size,
    total: word(countsStruct, 'total'),
    written: word(countsStruct, 'written'),
    overflow: word(countsStruct, 'overflow'),
    pairCount: word(countsStruct, 'pairCount'),
  },
  /** ContactParams2D (the kernels' uniform). */
  params: {
    bytes: paramsStruct.size,
    pairSlots: word(paramsStruct, 'pairSlots'),
    capacity: word(paramsStruct, 'capacity'),
    keyShift: word(paramsStruct, 'keyShift'),
  },
} as const;


// The entries are copied word for word: a ContactManifold2D must end with its Manifold2D (no
// trailing padding whose bytes the backends could fill differently).
if (CONTACTS_LAYOUT_2D.contact.manifold + LAYOUT_2D.manifold.words !== CONTACTS_LAYOUT_2D.contact.words) {
  throw new Error('ContactManifold2D must end with its Manifold2D, without padding');
}

const C = CONTACTS_LAYOUT_2D.contact;
const U = CONTACTS_LAYOUT_2D.userValues;
const N = CONTACTS_LAYOUT_2D.counts;
const M = LAYOUT_2D.manifold;
const PAD_KEY = 0xffffffff;

// ---- the sort's keys ------------------------------------------------------------------------

export interface SortKeyPlan2D {
  /**
   * The sort key is K = bodyA << keyShift | bodyB, of 2 × keyShift bits (every index below
   * 2^keyShift; 32 when the body count is unknown).
   */
  keyShift: number;
  /** Bits of the first sort: of K's low 32 bits (8, 16, 24 or 32). */
  lowBits: number;
  /** Bits of the second sort, of K >> 32 (8, 16, 24 or 32), or 0: K fits in 32 bits, one sort. */
  highBits: number;
}

/**
 * The sorts for pairs whose body indices are below `bodyCount` (unknown: 32-bit indices). Every
 * plan gives the same order, by (bodyA, bodyB); fewer bits only take fewer radix passes (4 bits
 * each): up to 65536 bodies one sort of at most 8 passes, up to 2^20 bodies 8 + 2 passes.
 */
export function sortKeyPlan2D(bodyCount?: number): SortKeyPlan2D {
  if (bodyCount !== undefined && (!Number.isInteger(bodyCount) || bodyCount < 0 || bodyCount > 0xffffffff)) {
    throw new RangeError(`bodyCount must be an integer in 0..2^32-1, got ${bodyCount}`);
  }
  const keyShift = bodyCount === undefined ? 32 : Math.max(1, 32 - Math.clz32(Math.max(0, bodyCount - 1)));
  const round8 = (b: number): number => Math.ceil(b / 8) * 8;
  const bits = 2 * keyShift;
  return bits <= 32 ? { keyShift, lowBits: round8(bits), highBits: 0 } : { keyShift, lowBits: 32, highBits: round8(bits - 32) };
}

// ---- the kernels, on the host ---------------------------------------------------------------

/** ctFlags: offsets[k] = 1 where pair k < pairCount touches, else 0, for k = 0..pairSlots. */
export function contactFlags2D(manifolds: Uint32Array, pairCount: number, pairSlots: number, offsets: Uint32Array): void {
  const n = Math.min(pairCount, pairSlots);
  for (let k = 0; k <= pairSlots; k++) offsets[k] = k < n && manifolds[k * M.words + M.count]! > 0 ? 1 : 0;
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

/** ctFinalize: total, written, overflow (counts.pairCount is the frame's input, set before). */
export function contactFinalize2D(offsets: Uint32Array, pairSlots: number, capacity: number, counts: Uint32Array): void {
  const total = offsets[pairSlots]!;
  counts[N.total] = total;
  counts[N.written] = Math.min(total, capacity);
  counts[N.overflow] = total > capacity ? 1 : 0;
}

/** The low 32 bits of pair (a, b)'s sort key a << keyShift | b (ctSortKeyLow): the first sort's key. */
export function contactSortKeyLow2D(a: number, b: number, keyShift: number): number {
  return keyShift >= 32 ? b : ((a << keyShift) | b) >>> 0;
}

/** The bits from 32 on of pair (a, b)'s sort key (ctSortKeyHigh): the second sort's key. */
export function contactSortKeyHigh2D(a: number, keyShift: number): number {
  return keyShift >= 32 ? a : a >>> (32 - keyShift);
}

/** ctScatter: touching pair k puts its sort key and its index at offsets[k] (those below capacity). */
export function contactScatter2D(
  manifolds: Uint32Array, pairs: Uint32Array, pairCount: number, pairSlots: number, offsets: Uint32Array, capacity: number,
  keyShift: number, keys: Uint32Array, values: Uint32Array,
): void {
  const n = Math.min(pairCount, pairSlots);
  for (let k = 0; k < n; k++) {
    const i = offsets[k]!;
    if (manifolds[k * M.words + M.count] === 0 || i >= capacity) continue;
    keys[i] = contactSortKeyLow2D(pairs[2 * k]!, pairs[2 * k + 1]!, keyShift);
    values[i] = k;
  }
}

/** ctPad: keys (and values) 0xffffffff from `written` to `capacity`. */
export function contactPad2D(written: number, capacity: number, keys: Uint32Array, values: Uint32Array): void {
  keys.fill(PAD_KEY, written, capacity);
  values.fill(PAD_KEY, written, capacity);
}

/** ctKeysHigh: between the two sorts, the key of sorted position j < written becomes its pair's high key bits. */
export function contactKeysHigh2D(pairs: Uint32Array, written: number, keyShift: number, keys: Uint32Array, values: Uint32Array): void {
  for (let j = 0; j < written; j++) keys[j] = contactSortKeyHigh2D(pairs[2 * values[j]!]!, keyShift);
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
    count.fill(0);
    for (let i = 0; i < n; i++) count[((k0[i]! >>> shift) & 0xff) + 1]!++;
    for (let d = 0; d < 256; d++) count[d + 1]! += count[d]!;
    for (let i = 0; i < n; i++) {
      const d = (k0[i]! >>> shift) & 0xff;
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

/** ctGather: contacts[j] = the manifold of pair values[j] with its bodies; keys[j] = the pair, for j < written. */
export function contactGather2D(manifolds: Uint32Array, pairs: Uint32Array, values: Uint32Array, written: number, contacts: Uint32Array, keys: Uint32Array): void {
  for (let j = 0; j < written; j++) {
    const k = values[j]!;
    const o = j * C.words;
    contacts[o + C.bodyA] = keys[2 * j] = pairs[2 * k]!;
    contacts[o + C.bodyB] = keys[2 * j + 1] = pairs[2 * k + 1]!;
    contacts[o + C.previous] = CONTACT_NONE;
    contacts[o + C.matched] = 0;
    contacts.set(manifolds.subarray(k * M.words, (k + 1) * M.words), o + C.manifold);
  }
}

/** ctGuess: where entry j of `written` would be among last frame's n entries if the lists were alike. */
export function contactGuess2D(j: number, written: number, n: number): number {
  if (n === 0) return 0;
  return Math.min(Math.trunc(Math.fround(Math.fround(j) * Math.fround(Math.fround(n) / Math.fround(written)))), n - 1);
}

/**
 * ctLowerBound: the first of the n sorted keys (pairs of u32) that is not below (a, b), n when none
 * is: galloping from `guess`, then bisection. The result does not depend on the guess.
 */
export function lowerBound2D(keys: Uint32Array, n: number, a: number, b: number, guess = 0): number {
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
 * ctPersist: each entry's last-frame entry (a search of prevKeys), and its points' user
 * values: last frame's value of the point with the same feature id, else 0. `userValues` and
 * `prevUserValues` as u32 words (bit-exact copies).
 */
export function contactPersist2D(
  contacts: Uint32Array, written: number, userValues: Uint32Array,
  prevContacts: Uint32Array, prevKeys: Uint32Array, prevWritten: number, prevUserValues: Uint32Array,
): void {
  const P = MAX_MANIFOLD_POINTS_2D;
  for (let j = 0; j < written; j++) {
    const o = j * C.words;
    const a = contacts[o + C.bodyA]!;
    const b = contacts[o + C.bodyB]!;
    const count = contacts[o + C.count]!;
    const lo = lowerBound2D(prevKeys, prevWritten, a, b, contactGuess2D(j, written, prevWritten));
    let previous = CONTACT_NONE;
    let matched = 0;
    const u = j * U.words;
    userValues.fill(0, u, u + U.words);
    if (lo < prevWritten && prevKeys[2 * lo] === a && prevKeys[2 * lo + 1] === b) {
      previous = lo;
      const p = lo * C.words;
      const pu = lo * U.words;
      const prevCount = prevContacts[p + C.count]!;
      for (let i = 0; i < P && i < count; i++) {
        const id = contacts[o + C.points + i * C.pointStride + C.pointId]!;
        for (let q = 0; q < P; q++) {
          if (q < prevCount && prevContacts[p + C.points + q * C.pointStride + C.pointId] === id) {
            const src = pu + U.points + q * U.pointStride;
            const dst = u + U.points + i * U.pointStride;
            userValues[dst] = prevUserValues[src]!;
            userValues[dst + 1] = prevUserValues[src + 1]!;
            matched |= 1 << i;
            break;
          }
        }
      }
    }
    contacts[o + C.previous] = previous;
    contacts[o + C.matched] = matched;
  }
}

// ---- the stage ------------------------------------------------------------------------------

export interface ContactsRunOptions2D {
  /** Entries the dense list holds in the first run (default: the instance's capacity, or the pair count). */
  capacity?: number;
  /** Every body index in the pairs is below it: shorter sort keys. Default: unknown. */
  bodyCount?: number;
}

export interface ContactsTimings2D {
  /** Flags, scan, counts and scatter (ms). */
  compact: number;
  /** Sort keys, radix sort(s) and gather (ms). */
  order: number;
  /** Binary search of last frame's list and the user values (ms). */
  persist: number;
  total: number;
}

/** One frame of the stage, read back (both backends). */
export interface ContactsResult2D {
  /** ContactManifold2D entries (CONTACTS_LAYOUT_2D.contact), `total` of them, ordered by (bodyA, bodyB). */
  dense: ArrayBuffer;
  /** Touching manifolds: the entries of `dense`. */
  total: number;
  /** ContactUserValues2D per entry (CONTACTS_LAYOUT_2D.userValues): carried from last frame, 0 for new points. */
  userValues: Float32Array;
  /** Runs it took: 1, or 2 when the list had to grow. */
  runs: number;
  /** The dense list's capacity in the last run. */
  capacity: number;
  /** GPU time per stage of the last run from timestamps (ms); null on the CPU or without them. */
  timings: ContactsTimings2D | null;
  /** Everything, measured on the host (ms). */
  wallMs: number;
}

interface CpuSlot {
  contacts: Uint32Array;
  keys: Uint32Array;
  userValues: Uint32Array;
  counts: Uint32Array;
}

function emptySlot(): CpuSlot {
  return { contacts: new Uint32Array(0), keys: new Uint32Array(0), userValues: new Uint32Array(0), counts: new Uint32Array(N.bytes / 4) };
}

/** The contact stage on the host, with last frame's list (the same API as GpuContacts2D.run). */
export class CpuContacts2D {
  private capacity = 0;
  private readonly slots: [CpuSlot, CpuSlot] = [emptySlot(), emptySlot()];
  /** The slot the last frame wrote. */
  private cur = 1;

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
   * Sets the user values of the last frame's entries from `first` on (ContactUserValues2D words:
   * a vec2f per point), for the next frame to carry.
   */
  setUserValues(values: Float32Array, first = 0): void {
    const s = this.slots[this.cur];
    const at = first * U.words;
    if (at + values.length > s.userValues.length) throw new RangeError(`user values past the list's ${s.userValues.length / U.words} entries`);
    s.userValues.set(new Uint32Array(values.buffer, values.byteOffset, values.length), at);
  }

  /** One frame (kernel by kernel, as the GPU runs it): slot `cur` written, the other read. */
  private frame(manifolds: Uint32Array, pairs: Uint32Array, pairCount: number, capacity: number, plan: SortKeyPlan2D): CpuSlot {
    const cur = this.slots[this.cur];
    const prev = this.slots[this.cur ^ 1];
    const pairSlots = pairCount;
    if (cur.contacts.length < capacity * C.words) {
      cur.contacts = new Uint32Array(capacity * C.words);
      cur.keys = new Uint32Array(2 * capacity);
      cur.userValues = new Uint32Array(capacity * U.words);
    }
    cur.counts.fill(0);
    cur.counts[N.pairCount] = pairCount;
    const offsets = new Uint32Array(pairSlots + 1);
    contactFlags2D(manifolds, pairCount, pairSlots, offsets);
    exclusiveScanSaturating(offsets, pairSlots + 1);
    contactFinalize2D(offsets, pairSlots, capacity, cur.counts);
    const written = cur.counts[N.written]!;
    const keys = new Uint32Array(capacity);
    const values = new Uint32Array(capacity);
    contactScatter2D(manifolds, pairs, pairCount, pairSlots, offsets, capacity, plan.keyShift, keys, values);
    contactPad2D(written, capacity, keys, values);
    stableSortByKey(keys, values, capacity, plan.lowBits);
    if (plan.highBits > 0) {
      contactKeysHigh2D(pairs, written, plan.keyShift, keys, values);
      stableSortByKey(keys, values, capacity, plan.highBits);
    }
    contactGather2D(manifolds, pairs, values, written, cur.contacts, cur.keys);
    contactPersist2D(cur.contacts, written, cur.userValues, prev.contacts, prev.keys, prev.counts[N.written]!, prev.userValues);
    return cur;
  }

  /**
   * One frame: the dense list of `manifolds` (one Manifold2D slot per pair of `pairs`), carrying
   * last frame's user values. Grows the list and runs the frame again when it did not fit.
   */
  run(manifolds: ArrayBuffer, pairs: Uint32Array, options: ContactsRunOptions2D = {}): ContactsResult2D {
    const start = performance.now();
    const pairCount = checkRunInputs2D(manifolds, pairs, options.bodyCount);
    const plan = sortKeyPlan2D(options.bodyCount);
    const m = new Uint32Array(manifolds, 0, pairCount * M.words);
    let capacity = Math.max(1, options.capacity ?? (this.capacity || pairCount));
    this.cur ^= 1;
    for (let runs = 1; ; runs++) {
      const s = this.frame(m, pairs, pairCount, capacity, plan);
      const total = s.counts[N.total]!;
      if (s.counts[N.overflow] === 1) {
        if (runs > 1) throw new Error(`contacts: ${total} manifolds overflowed a list grown to ${capacity}`);
        capacity = Math.ceil(total * CONTACTS_GROWTH);
        if (options.capacity === undefined && this.capacity > 0) this.capacity = capacity;
        continue;
      }
      return {
        dense: s.contacts.slice(0, total * C.words).buffer,
        total,
        userValues: new Float32Array(s.userValues.slice(0, total * U.words).buffer),
        runs,
        capacity,
        timings: null,
        wallMs: performance.now() - start,
      };
    }
  }
}

/** Validates run()'s inputs (both backends); returns the pair count. */
export function checkRunInputs2D(manifolds: ArrayBuffer, pairs: Uint32Array, bodyCount?: number): number {
  if (pairs.length % 2 !== 0) throw new RangeError(`pairs holds ${pairs.length} indices, not an even number`);
  const pairCount = pairs.length / 2;
  if (manifolds.byteLength < pairCount * M.words * 4) {
    throw new RangeError(`manifolds holds ${Math.floor(manifolds.byteLength / (M.words * 4))} slots for ${pairCount} pairs`);
  }
  if (bodyCount !== undefined) {
    sortKeyPlan2D(bodyCount);
    for (let i = 0; i < pairs.length; i++) {
      if (pairs[i]! >= bodyCount) throw new RangeError(`pair ${i >> 1} names body ${pairs[i]}, not below bodyCount ${bodyCount}`);
    }
  }
  return pairCount;
}

// ---- reading entries ------------------------------------------------------------------------

export interface ContactJson2D {
  bodyA: number;
  bodyB: number;
  previous: number;
  matched: number;
  normal: [number, number];
  points: { position: [number, number]; depth: number; id: number; userValue: [number, number] }[];
}

/** The entries of a dense list (and their user values, where given) as objects. */
export function unpackContacts2D(dense: ArrayBuffer, userValues?: Float32Array): ContactJson2D[] {
  const u = new Uint32Array(dense);
  const f = new Float32Array(dense);
  const out: ContactJson2D[] = [];
  const n = u.length / C.words;
  for (let j = 0; j < n; j++) {
    const o = j * C.words;
    const count = u[o + C.count]!;
    const points = [];
    for (let i = 0; i < count; i++) {
      const p = o + C.points + i * C.pointStride;
      const v = j * U.words + U.points + i * U.pointStride;
      points.push({
        position: [f[p + C.pointPosition]!, f[p + C.pointPosition + 1]!] as [number, number],
        depth: f[p + C.pointDepth]!,
        id: u[p + C.pointId]!,
        userValue: [userValues?.[v] ?? 0, userValues?.[v + 1] ?? 0] as [number, number],
      });
    }
    out.push({ bodyA: u[o + C.bodyA]!, bodyB: u[o + C.bodyB]!, previous: u[o + C.previous]!, matched: u[o + C.matched]!, normal: [f[o + C.normal]!, f[o + C.normal + 1]!], points });
  }
  return out;
}
