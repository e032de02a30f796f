// The dense contact list of the 3D pipeline on the host: the CPU reference of src/gpu/contact-list3d.ts,
// with the same results byte for byte. The stage itself is the shared src/cpu/contact-list.ts (the
// mirror of shaders/contact-list.wgsl); this file reads 3D entries back as objects (the layouts, in
// src/contact-list-layout.ts: ContactManifold3D entries of 128 bytes, ContactUserValues3D of a vec4f
// per point: x the normal impulse, y and z the tangent impulses, w free).

import { LAYOUT_3D } from '../layout3d.ts';
import { CONTACTS_LAYOUT_3D, entryWords } from '../contact-list-layout.ts';
import { CpuContacts, checkRunInputs } from './contact-list.ts';
import { InputError, wholeEntries } from '../errors.ts';

export { CONTACTS_LAYOUT_3D };

/** Validates run()'s inputs (both backends); returns the pair count. */
export function checkRunInputs3D(
  manifolds: ArrayBuffer,
  pairs: Uint32Array,
  bodyCount?: number,
): number {
  return checkRunInputs(CONTACTS_LAYOUT_3D, manifolds, pairs, bodyCount);
}

/** The 3D contact stage on the host, with last frame's list (the same API as GpuContacts3D.run). */
export class CpuContacts3D extends CpuContacts {
  constructor() {
    super(CONTACTS_LAYOUT_3D);
  }
}

const C = CONTACTS_LAYOUT_3D.contact;
const U = CONTACTS_LAYOUT_3D.userValues;

type V3 = [number, number, number];
type V4 = [number, number, number, number];

export interface ContactJson3D {
  bodyA: number;
  bodyB: number;
  previous: number;
  matched: number;
  normal: V3;
  /** CONTACT_KIND_3D of the manifold. */
  kind: number;
  points: { position: V3; depth: number; id: number; userValue: V4 }[];
}

/** The entries of a dense list (and their user values, where given) as objects. */
export function unpackContacts3D(
  dense: ArrayBuffer | Uint8Array,
  userValues?: Float32Array,
): ContactJson3D[] {
  const { u, f } = entryWords(dense);
  const out: ContactJson3D[] = [];
  const n = wholeEntries('dense', dense.byteLength, C.words * 4, 'ContactManifold3D');
  if (userValues && userValues.length < n * U.words)
    throw new InputError(
      'userValues',
      `holds ${userValues.length} numbers; ${n} entries need ${n * U.words}`,
    );
  const kind = C.manifold + LAYOUT_3D.manifold.kind;
  for (let j = 0; j < n; j++) {
    const o = j * C.words;
    const count = u[o + C.count];
    const points = [];
    for (let i = 0; i < count; i++) {
      const p = o + C.points + i * C.pointStride;
      const v = j * U.words + U.points + i * U.pointStride;
      const uv = (k: number): number => userValues?.[v + k] ?? 0;
      points.push({
        position: [
          f[p + C.pointPosition],
          f[p + C.pointPosition + 1],
          f[p + C.pointPosition + 2],
        ] as V3,
        depth: f[p + C.pointDepth],
        id: u[o + C.ids + i * C.idStride],
        userValue: [uv(0), uv(1), uv(2), uv(3)] as V4,
      });
    }
    out.push({
      bodyA: u[o + C.bodyA],
      bodyB: u[o + C.bodyB],
      previous: u[o + C.previous],
      matched: u[o + C.matched],
      normal: [f[o + C.normal], f[o + C.normal + 1], f[o + C.normal + 2]],
      kind: u[o + kind],
      points,
    });
  }
  return out;
}
