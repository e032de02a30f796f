// Buffer layouts read from the WGSL struct definitions with wgsl_reflect: the shaders define each
// layout once and the host packs and unpacks through these offsets, never through copied numbers.
// The narrowphase's layouts and bindings are reflected at build time (scripts/reflect-layouts.ts
// writes src/reflection.generated.ts, read through structTable), so wgsl_reflect itself need not
// travel in its bundle; structLookup and reflectBindings reflect at run time.

import { ResourceType, WgslReflect, type ArrayInfo } from 'wgsl_reflect/wgsl_reflect.module.js';

export interface MemberLayout {
  /** Byte offset within the struct. */
  offset: number;
  size: number;
  /** For arrays: element stride in bytes and element count; 0 otherwise. */
  stride: number;
  count: number;
}

export interface StructLayout {
  name: string;
  /** Size in bytes, which is also the stride of an array of this struct. */
  size: number;
  align: number;
  members: Readonly<Record<string, MemberLayout>>;
}

/** Every struct declared in `wgsl`, by name. */
export function reflectStructs(wgsl: string): Readonly<Record<string, StructLayout>> {
  const reflect = new WgslReflect(wgsl);
  const out: Record<string, StructLayout> = {};
  for (const s of reflect.structs) {
    const members: Record<string, MemberLayout> = {};
    for (const m of s.members) {
      const arr = m.type.isArray ? (m.type as ArrayInfo) : undefined;
      members[m.name] = {
        offset: m.offset,
        size: m.size,
        stride: arr?.stride ?? 0,
        count: arr?.count ?? 0,
      };
    }
    out[s.name] = { name: s.name, size: s.size, align: s.align, members };
  }
  return out;
}

/** Structs by name, and a lookup that throws naming `source` when one the host needs is missing. */
export interface StructTable {
  structs: Readonly<Record<string, StructLayout>>;
  struct: (name: string) => StructLayout;
}

/** A lookup of already reflected structs (src/reflection.generated.ts) that names `source` (the WGSL files) in its errors. */
export function structTable(
  structs: Readonly<Record<string, StructLayout>>,
  source: string,
): StructTable {
  const struct = (name: string): StructLayout => {
    const s = structs[name];
    if (!s) throw new Error(`${source} declares no struct ${name} (run \`npm run prepare\`?)`);
    return s;
  };
  return { structs, struct };
}

/**
 * A lookup of the structs declared in `wgsl` that throws, naming `source` (the WGSL files), when a
 * struct the host needs is missing: a layout and the host disagree.
 */
export function structLookup(wgsl: string, source: string): StructTable {
  return structTable(reflectStructs(wgsl), source);
}

/** A buffer binding of group 0, as a bind-group layout entry needs it. */
export interface BufferBindingLayout {
  binding: number;
  type: GPUBufferBindingType;
}

/** The names of the compute entry points of `wgsl`, in declaration order. */
export function reflectEntryPoints(wgsl: string): string[] {
  return new WgslReflect(wgsl).entry.compute.map((e) => e.name);
}

/** The group-0 buffer bindings an entry point of `wgsl` uses (storage read-only or not, uniform), by binding. */
export function reflectBindings(
  wgsl: string,
  entryPoint: string,
  label: string,
): BufferBindingLayout[] {
  const entry = new WgslReflect(wgsl).entry.compute.find((e) => e.name === entryPoint);
  if (!entry) throw new Error(`${label}: the WGSL has no entry point ${entryPoint}`);
  return entry.resources
    .map((r) => {
      if (
        r.group !== 0 ||
        (r.resourceType !== ResourceType.Uniform && r.resourceType !== ResourceType.Storage)
      ) {
        throw new Error(`${label}: binding ${r.name} is not a buffer of group 0`);
      }
      const type: GPUBufferBindingType =
        r.resourceType === ResourceType.Uniform
          ? 'uniform'
          : r.access === 'read'
            ? 'read-only-storage'
            : 'storage';
      return { binding: r.binding, type };
    })
    .sort((a, b) => a.binding - b.binding);
}

/** A struct's member, or an error naming what the WGSL lacks (a layout and the host disagree). */
export function member(layout: StructLayout, name: string): MemberLayout {
  const m = layout.members[name];
  if (!m) throw new Error(`WGSL struct ${layout.name} has no member "${name}"`);
  return m;
}

/** Offsets in 4-byte words, for Float32Array/Uint32Array access. */
export function word(layout: StructLayout, name: string): number {
  return member(layout, name).offset / 4;
}
