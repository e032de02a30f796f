// The dense contact list's layouts, results and input checks: what the CPU stage
// (src/cpu/contact-list.ts) and the GPU stage (src/gpu/contact-list.ts) share. The layouts are reflected
// from the WGSL at build time (src/reflection-sources.ts).

import { LAYOUT_2D } from './layout2d.ts';
import { LAYOUT_3D } from './layout3d.ts';
import { member, structTable, word, type StructLayout } from './layout.ts';
import { InputError, onUnlessFalse } from './errors.ts';
import type { ManifoldWords } from './pack2d.ts';
import {
  STRUCTS_CONTACTS_2D,
  STRUCTS_CONTACTS_3D,
  STRUCTS_CONTACTS_LAYOUT,
} from './reflection.generated.ts';

const shared = structTable(STRUCTS_CONTACTS_LAYOUT, 'shaders/contact-list-layout.wgsl');
const countsStruct = shared.struct('ContactCounts');
const paramsStruct = shared.struct('ContactParams');

/** ContactCounts (shaders/contact-list-layout.wgsl), the same in 2D and 3D. */
export const CONTACT_COUNTS_LAYOUT = {
  bytes: countsStruct.size,
  total: word(countsStruct, 'total'),
  written: word(countsStruct, 'written'),
  overflow: word(countsStruct, 'overflow'),
  pairCount: word(countsStruct, 'pairCount'),
  began: word(countsStruct, 'began'),
  ended: word(countsStruct, 'ended'),
} as const;

/** ContactParams (the kernels' uniform), the same in 2D and 3D. */
export const CONTACT_PARAMS_LAYOUT = {
  bytes: paramsStruct.size,
  pairSlots: word(paramsStruct, 'pairSlots'),
  capacity: word(paramsStruct, 'capacity'),
  prevValid: word(paramsStruct, 'prevValid'),
  first: word(paramsStruct, 'first'),
  slots: word(paramsStruct, 'slots'),
  pageEntries: word(paramsStruct, 'pageEntries'),
  eventMasksAt: word(paramsStruct, 'eventMasksAt'),
  slotStatus: word(paramsStruct, 'slotStatus'),
  values: word(paramsStruct, 'values'),
  prevValues: word(paramsStruct, 'prevValues'),
} as const;

const dispatchStruct = shared.struct('ContactDispatch');

/**
 * The words ctFlags adds to with the reuse status (ContactsBatch.statusCounts, ctStatusCounts):
 * the slots the status leaves to the collide, and those of them that touch.
 */
export const CONTACT_STATUS_COUNTS = { collided: 0, touching: 1, bytes: 8 } as const;

/** ContactDispatch (written by ctFinalize): the per-entry grids and the event scan's size. */
export const CONTACT_DISPATCH_LAYOUT = {
  bytes: dispatchStruct.size,
  entries: word(dispatchStruct, 'entriesX'),
  events: word(dispatchStruct, 'eventsX'),
  eventBlocks: word(dispatchStruct, 'eventBlocks'),
} as const;

/**
 * The word offsets of one dimension's contact list, from its WGSL's structs (reflected at build
 * time): the entry struct `contactName` (bodyA, bodyB, previous, matched, manifold) and the user
 * values struct `userName` (points: one vector per point).
 */
export function contactsLayout(
  structs: Readonly<Record<string, StructLayout>>,
  source: string,
  contactName: string,
  userName: string,
  M: ManifoldWords,
) {
  const { struct } = structTable(structs, source);
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
      /** Point i's feature id at ids + i × idStride. */
      ids: manifoldBase + M.ids,
      idStride: M.idStride,
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
    /**
     * CtEntryIds (shaders/contact-list.wgsl), per entry: bodyA, bodyB, previous, matched (the
     * header's words), its pair slot, count, then the point ids.
     */
    ids: {
      words: 6 + member(userStruct, 'points').count,
      bodyA: 0,
      bodyB: 1,
      previous: 2,
      matched: 3,
      slot: 4,
      count: 5,
      ids: 6,
    },
  } as const;
  // The entries are copied word for word: an entry must end with its manifold (no trailing
  // padding whose bytes the backends could fill differently).
  if (layout.contact.manifold + M.words !== layout.contact.words)
    throw new Error(`${contactName} must end with its manifold, without padding`);
  return layout;
}

export type ContactsLayout = ReturnType<typeof contactsLayout>;

/** Word (4-byte) offsets of the 2D contact list's structs (shaders/contact-list2d-layout.wgsl, contact-list-layout.wgsl). */
export const CONTACTS_LAYOUT_2D = contactsLayout(
  STRUCTS_CONTACTS_2D,
  'shaders/contact-list2d-layout.wgsl',
  'ContactManifold2D',
  'ContactUserValues2D',
  LAYOUT_2D.manifold,
);

/** Word (4-byte) offsets of the 3D contact list's structs (shaders/contact-list3d-layout.wgsl, contact-list-layout.wgsl). */
export const CONTACTS_LAYOUT_3D = contactsLayout(
  STRUCTS_CONTACTS_3D,
  'shaders/contact-list3d-layout.wgsl',
  'ContactManifold3D',
  'ContactUserValues3D',
  LAYOUT_3D.manifold,
);

export interface ContactsRunOptions {
  /** Entries the dense list holds in the first run (default: the instance's capacity, or the pair count). */
  capacity?: number;
  /** Every body index in the pairs is below it (checked). Default: unknown. */
  bodyCount?: number;
  /** Pairs per compaction batch (default: all in one); the result does not depend on it. */
  batchPairs?: number;
  /** false: no contact events (counts began and ended 0, the lists empty). Default true. */
  events?: boolean;
  /**
   * false: no user values (none carried, none written; the result's are empty, and the next run
   * carries none from this one). Default true.
   */
  userValues?: boolean;
}

/** A run's or frame's on/off contact options, checked (`path` names where they were given). */
export function checkContactOptions(
  path: string,
  options: { events?: unknown; userValues?: unknown },
): { events: boolean; userValues: boolean } {
  return {
    events: onUnlessFalse(`${path}.events`, options.events),
    userValues: onUnlessFalse(`${path}.userValues`, options.userValues),
  };
}

/** What setUserValues() says after a frame that has none. */
export const NO_USER_VALUES =
  'contacts: the last frame was recorded with userValues: false; it has no user values to set';

export interface ContactsTimings {
  /** Flags, scan, counts and scatter (ms). */
  compact: number;
  /** Last frame's entries and user values, and the events (ms). */
  persist: number;
  total: number;
}

/** One frame of the stage, read back (both backends). */
export interface ContactsResult {
  /** Entries (the layout's contact), `total` of them, in pair order. */
  dense: ArrayBuffer;
  /** Touching manifolds: the entries of `dense`. */
  total: number;
  /** User values per entry (the layout's userValues): carried from last frame, 0 for new points. */
  userValues: Float32Array;
  /** Pairs a0, b0, … that began touching this frame (no entry last frame), in list order. */
  began: Uint32Array;
  /** Pairs that touched last frame and do not now, in last frame's order. */
  ended: Uint32Array;
  /** Runs it took: 1, or 2 when the list had to grow. */
  runs: number;
  /** The dense list's capacity in the last run. */
  capacity: number;
  /** GPU time per stage of the last run from timestamps (ms); null on the CPU or without them. */
  timings: ContactsTimings | null;
  /** Everything, measured on the host (ms). */
  wallMs: number;
}

/** The batch size of a run: `batchPairs` (an integer >= 1), default all pairs in one batch. */
export function checkBatchPairs(batchPairs: number | undefined, pairCount: number): number {
  if (batchPairs === undefined) return Math.max(1, pairCount);
  if (!Number.isInteger(batchPairs) || batchPairs < 1)
    throw new RangeError(`batchPairs must be an integer >= 1, got ${batchPairs}`);
  return batchPairs;
}

/** Validates run()'s inputs (both backends); returns the pair count. */
export function checkRunInputs(
  L: ContactsLayout,
  manifolds: ArrayBuffer,
  pairs: Uint32Array,
  bodyCount?: number,
): number {
  const M = L.manifold;
  if (pairs.length % 2 !== 0)
    throw new RangeError(`pairs holds ${pairs.length} indices, not an even number`);
  const pairCount = pairs.length / 2;
  if (manifolds.byteLength < pairCount * M.words * 4) {
    throw new RangeError(
      `manifolds holds ${Math.floor(manifolds.byteLength / (M.words * 4))} slots for ${pairCount} pairs`,
    );
  }
  if (bodyCount !== undefined) {
    if (!Number.isInteger(bodyCount) || bodyCount < 0 || bodyCount > 0xffffffff)
      throw new RangeError(`bodyCount must be an integer in 0..2^32-1, got ${bodyCount}`);
    for (let i = 0; i < pairs.length; i++) {
      if (pairs[i] >= bodyCount)
        throw new RangeError(
          `pair ${i >> 1} names body ${pairs[i]}, not below bodyCount ${bodyCount}`,
        );
    }
  }
  return pairCount;
}

/**
 * A dense list's bytes (a buffer, or a view such as step()'s kept results) as its u32 and f32
 * words. A view must start on a word.
 */
export function entryWords(dense: ArrayBuffer | Uint8Array): { u: Uint32Array; f: Float32Array } {
  if (!ArrayBuffer.isView(dense)) return { u: new Uint32Array(dense), f: new Float32Array(dense) };
  if (dense.byteOffset % 4 !== 0 || dense.byteLength % 4 !== 0)
    throw new InputError(
      'dense',
      `a view at byte ${dense.byteOffset} of ${dense.byteLength} bytes: the list's words need a multiple of 4 for both`,
    );
  const words = dense.byteLength / 4;
  return {
    u: new Uint32Array(dense.buffer, dense.byteOffset, words),
    f: new Float32Array(dense.buffer, dense.byteOffset, words),
  };
}
