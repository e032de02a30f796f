// shaders/layout3d.wgsl is the one definition of the 3D buffer layouts: it must parse with the
// generated constants prepended, and its structs must have the sizes the packing relies on.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { constants3dWgsl, MAX_MANIFOLD_POINTS_3D } from '../src/constants3d.ts';

describe('layout3d.wgsl', () => {
  const src = constants3dWgsl() + readFileSync(new URL('../shaders/layout3d.wgsl', import.meta.url), 'utf8');
  const reflect = new WgslReflect(src);
  const struct = (name: string) => {
    const s = reflect.structs.find((x) => x.name === name);
    expect(s, name).toBeDefined();
    return s!;
  };
  const member = (s: ReturnType<typeof struct>, name: string) => s.members.find((m) => m.name === name)!;

  it('reflects every struct with vec3f-aligned sizes', () => {
    expect(struct('Shape3D').size).toBe(64);
    expect(struct('Body3D').size).toBe(32);
    expect(member(struct('Body3D'), 'rotation').offset).toBe(16);
    expect(struct('ManifoldPoint3D').size).toBe(32);
    const m = struct('Manifold3D');
    expect(member(m, 'count').offset).toBe(12);
    expect(member(m, 'points').offset).toBe(32);
    expect(m.size).toBe(32 + 32 * MAX_MANIFOLD_POINTS_3D);
    expect(struct('Params3D').size).toBe(16);
  });
});
