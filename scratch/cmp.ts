import { reflectStructs } from '../src/layout.ts';
import { broadphaseWgsl2D, broadphaseWgsl3D, reuseWgsl2D, contactsWgsl2D } from '../src/gpu/frame-wgsl.ts';
import { STRUCTS_BROADPHASE, STRUCTS_REUSE_LAYOUT, STRUCTS_CONTACTS_LAYOUT } from '../src/reflection.generated.ts';
const cmp = (name: string, a: Record<string, unknown>, full: string) => {
  const f = reflectStructs(full);
  for (const k of Object.keys(a)) if (JSON.stringify(a[k]) !== JSON.stringify(f[k])) console.log(name, k, 'differs');
  console.log(name, Object.keys(a).length, 'structs checked');
};
cmp('bp2', STRUCTS_BROADPHASE, broadphaseWgsl2D());
cmp('bp3', STRUCTS_BROADPHASE, broadphaseWgsl3D());
cmp('reuse', STRUCTS_REUSE_LAYOUT, reuseWgsl2D());
cmp('contacts', STRUCTS_CONTACTS_LAYOUT, contactsWgsl2D());
