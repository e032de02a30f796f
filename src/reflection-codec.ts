// The reflected layouts (src/reflection.generated.ts) in a compact form, which every bundle of the
// package carries: a struct as [size, align, members], each member as [offset, size, stride,
// count]; an entry point's bindings as one string of binding numbers with a type letter each
// ('0u 1r 5s': uniform, read-only storage, storage). scripts/reflect-layouts.ts packs, the
// generated module unpacks as it loads: as JSON objects the tables were a tenth of a bundle.

import type { BufferBindingLayout, MemberLayout, StructLayout } from './layout.ts';

type PackedMember = readonly [offset: number, size: number, stride: number, count: number];
/** A struct's size, alignment and members. */
export type PackedStruct = readonly [
  size: number,
  align: number,
  members: Readonly<Record<string, PackedMember>>,
];

const TYPE_OF_LETTER: Readonly<Record<string, GPUBufferBindingType>> = {
  u: 'uniform',
  r: 'read-only-storage',
  s: 'storage',
};

export function packStruct(layout: StructLayout): PackedStruct {
  const members = Object.entries(layout.members).map(
    ([name, m]) => [name, [m.offset, m.size, m.stride, m.count] as const] as const,
  );
  return [layout.size, layout.align, Object.fromEntries(members)];
}

export function packBindings(bindings: readonly BufferBindingLayout[]): string {
  const letter = (type: GPUBufferBindingType): string => {
    const found = Object.keys(TYPE_OF_LETTER).find((l) => TYPE_OF_LETTER[l] === type);
    if (!found) throw new Error(`no letter for binding type ${type}`);
    return found;
  };
  return bindings.map((b) => `${b.binding}${letter(b.type)}`).join(' ');
}

/** A struct table, by struct name. */
export function unpackStructs(
  packed: Readonly<Record<string, PackedStruct>>,
): Readonly<Record<string, StructLayout>> {
  const member = ([offset, size, stride, count]: PackedMember): MemberLayout => ({
    offset,
    size,
    stride,
    count,
  });
  const struct = (name: string, [size, align, members]: PackedStruct): StructLayout => ({
    name,
    size,
    align,
    members: Object.fromEntries(Object.entries(members).map(([m, p]) => [m, member(p)])),
  });
  return Object.fromEntries(Object.entries(packed).map(([name, p]) => [name, struct(name, p)]));
}

export function unpackBindings(packed: string): readonly BufferBindingLayout[] {
  if (packed === '') return [];
  return packed.split(' ').map((t) => ({
    binding: Number.parseInt(t, 10),
    type: TYPE_OF_LETTER[t.slice(-1)]!,
  }));
}

/** The bindings of each entry point, by entry point. */
export function unpackEntries(
  packed: Readonly<Record<string, string>>,
): Readonly<Record<string, readonly BufferBindingLayout[]>> {
  return Object.fromEntries(Object.entries(packed).map(([e, p]) => [e, unpackBindings(p)]));
}
