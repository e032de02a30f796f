// The layouts and bindings reflected at build time (scripts/reflect-layouts.ts ->
// src/reflection.generated.ts, so that wgsl_reflect need not travel in a bundle) are those of the
// WGSL as it is now: the generated file equals a fresh reflection, and the host's layouts and the
// 3D kernel's bind-group layout come from it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reflectionModule } from '../scripts/reflect-layouts.ts';
import { constantsWgsl } from '../src/constants.ts';
import { constants3dWgsl } from '../src/constants3d.ts';
import { assembleWgsl, assembleWgsl3D, NARROWPHASE_2D_FILES, NARROWPHASE_3D_FILES, narrowphase2DWgsl, narrowphase3DWgsl, wgslFile } from '../src/gpu/shaders.ts';
import { reflectBindings, reflectStructs } from '../src/layout.ts';
import { STRUCTS_2D } from '../src/layout2d.ts';
import { BINDINGS_NARROWPHASE_3D, STRUCTS_LAYOUT_3D } from '../src/reflection.generated.ts';
import { ROOT } from './helpers/readme.ts';

describe('build-time reflection', () => {
  it('src/reflection.generated.ts is what the WGSL gives now', () => {
    expect(readFileSync(join(ROOT, 'src/reflection.generated.ts'), 'utf8')).toBe(reflectionModule());
  });

  it('the host reads the layouts and bindings it holds', () => {
    expect(STRUCTS_2D).toEqual(reflectStructs(constantsWgsl() + wgslFile('layout2d')));
    expect(STRUCTS_LAYOUT_3D).toEqual(reflectStructs(constants3dWgsl() + wgslFile('layout3d')));
    expect(BINDINGS_NARROWPHASE_3D).toEqual(reflectBindings(assembleWgsl3D(NARROWPHASE_3D_FILES), 'narrowphase3d', '3d'));
    expect(BINDINGS_NARROWPHASE_3D.map((b) => b.type)).toEqual([...Array(7).fill('read-only-storage'), 'storage', 'uniform']);
  });

  it('the narrowphase kernels assembled from named imports are the kernels assembled by name', () => {
    expect(narrowphase2DWgsl()).toBe(assembleWgsl(NARROWPHASE_2D_FILES));
    expect(narrowphase3DWgsl()).toBe(assembleWgsl3D(NARROWPHASE_3D_FILES));
    expect(NARROWPHASE_3D_FILES.at(-1)).toBe('narrowphase3d');
  });
});
