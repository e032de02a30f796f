// The dense contact list of the 2D pipeline on the host: the CPU reference of src/gpu/contact-list2d.ts,
// with the same results byte for byte. The stage itself is the shared src/cpu/contact-list.ts (the
// mirror of shaders/contact-list.wgsl); this file reads 2D entries back as objects
// (the layouts: src/contact-list-layout.ts).

import { CONTACTS_LAYOUT_2D, entryWords } from '../contact-list-layout.ts';
import {
  CONTACT_NONE,
  CpuContacts,
  checkRunInputs,
  type ContactsResult,
  type ContactsRunOptions,
} from './contact-list.ts';
import { InputError, wholeEntries } from '../errors.ts';

export { CONTACT_NONE, CONTACTS_LAYOUT_2D };
export type ContactsRunOptions2D = ContactsRunOptions;
/** One frame of the stage, read back: ContactManifold2D entries and ContactUserValues2D. */
export type ContactsResult2D = ContactsResult;

/** Validates run()'s inputs (both backends); returns the pair count. */
export function checkRunInputs2D(
  manifolds: ArrayBuffer,
  pairs: Uint32Array,
  bodyCount?: number,
): number {
  return checkRunInputs(CONTACTS_LAYOUT_2D, manifolds, pairs, bodyCount);
}

/** The 2D contact stage on the host, with last frame's list (the same API as GpuContacts2D.run). */
export class CpuContacts2D extends CpuContacts {
  constructor() {
    super(CONTACTS_LAYOUT_2D);
  }
}

const C = CONTACTS_LAYOUT_2D.contact;
const U = CONTACTS_LAYOUT_2D.userValues;

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
export function unpackContacts2D(
  dense: ArrayBuffer | Uint8Array,
  userValues?: Float32Array,
): ContactJson2D[] {
  const { u, f } = entryWords(dense);
  const out: ContactJson2D[] = [];
  const n = wholeEntries('dense', dense.byteLength, C.words * 4, 'ContactManifold2D');
  if (userValues && userValues.length < n * U.words)
    throw new InputError(
      'userValues',
      `holds ${userValues.length} numbers; ${n} entries need ${n * U.words}`,
    );
  for (let j = 0; j < n; j++) {
    const o = j * C.words;
    const count = u[o + C.count];
    const points = [];
    for (let i = 0; i < count; i++) {
      const p = o + C.points + i * C.pointStride;
      const v = j * U.words + U.points + i * U.pointStride;
      points.push({
        position: [f[p + C.pointPosition], f[p + C.pointPosition + 1]] as [number, number],
        depth: f[p + C.pointDepth],
        id: u[o + C.ids + i * C.idStride],
        userValue: [userValues?.[v] ?? 0, userValues?.[v + 1] ?? 0] as [number, number],
      });
    }
    out.push({
      bodyA: u[o + C.bodyA],
      bodyB: u[o + C.bodyB],
      previous: u[o + C.previous],
      matched: u[o + C.matched],
      normal: [f[o + C.normal], f[o + C.normal + 1]],
      points,
    });
  }
  return out;
}
