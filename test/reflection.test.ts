// The layouts and bindings reflected at build time (scripts/reflect-layouts.ts ->
// src/reflection.generated.ts, so that wgsl_reflect need not travel in a bundle) are those of the
// WGSL as it is now: the generated file equals a fresh reflection, and the host's layouts and the
// narrowphase and classifier kernels' bindings come from it. And the embedded WGSL
// (src/gpu/shaders.generated.ts) is the files without their comments, line for line.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reflectionModule } from '../scripts/reflect-layouts.ts';
import { constantsWgsl } from '../src/constants.ts';
import { constants3dWgsl } from '../src/constants3d.ts';
import {
  assembleWgsl,
  assembleWgsl3D,
  NARROWPHASE_2D_FILES,
  NARROWPHASE_3D_FILES,
  narrowphaseFiles2D,
  narrowphaseFiles3D,
  wgslFile,
} from '../src/gpu/shaders.ts';
import { reflectBindings, reflectEntryPoints, reflectStructs } from '../src/layout.ts';
import * as generated from '../src/reflection.generated.ts';
import {
  BINDING_SOURCES,
  ENTRY_BINDING_SOURCES,
  STRUCT_SOURCES,
} from '../src/reflection-sources.ts';
import { STRUCTS_2D } from '../src/layout2d.ts';
import {
  classifierWgsl2D,
  classifierWgsl3D,
  narrowphaseWgsl2D,
  narrowphaseWgsl3D,
  pairClassStructsWgsl,
  PAIR_CLASSES_2D,
  PAIR_CLASSES_3D,
} from '../src/gpu/pair-class-wgsl.ts';
import {
  BINDINGS_NARROWPHASE_CLASS_2D,
  BINDINGS_NARROWPHASE_CLASS_3D,
  ENTRIES_PAIR_CLASSIFIER_2D,
  ENTRIES_PAIR_CLASSIFIER_3D,
  STRUCTS_LAYOUT_3D,
  STRUCTS_PAIR_CLASSES,
} from '../src/reflection.generated.ts';
import { WGSL_SOURCES } from '../src/gpu/shaders.generated.ts';
import { ROOT } from './helpers/readme.ts';

describe('embedded WGSL', () => {
  it('is each file without its comments, every line kept (compile errors name the file lines)', () => {
    const files = readdirSync(join(ROOT, 'shaders')).filter((f) => f.endsWith('.wgsl'));
    expect(Object.keys(WGSL_SOURCES).sort()).toEqual(files.map((f) => f.slice(0, -5)).sort());
    for (const f of files) {
      const text = readFileSync(join(ROOT, 'shaders', f), 'utf8');
      const shipped = WGSL_SOURCES[f.slice(0, -5)]!;
      expect(shipped.includes('//'), f).toBe(false);
      const lines = text.split('\n');
      const kept = shipped.split('\n');
      expect(kept.length, f).toBe(lines.length);
      // Each line is the file's up to its comment, whitespace before the comment dropped.
      kept.forEach((l, i) => expect(lines[i]!.startsWith(l), `${f}:${i + 1}`).toBe(true));
      expect(kept.filter((l, i) => l !== lines[i]).length, f).toBe(
        lines.filter((l) => l.includes('//')).length,
      );
    }
  });
});

describe('build-time reflection', () => {
  it('src/reflection.generated.ts is what the WGSL gives now', () => {
    expect(readFileSync(join(ROOT, 'src/reflection.generated.ts'), 'utf8')).toBe(
      reflectionModule(),
    );
  });

  it('every table the generated module unpacks equals a fresh reflection', () => {
    const tables = generated as Record<string, unknown>;
    for (const [name, { wgsl }] of Object.entries(STRUCT_SOURCES))
      expect(tables[name], name).toEqual(reflectStructs(wgsl()));
    for (const [name, { wgsl, entryPoint }] of Object.entries(BINDING_SOURCES))
      expect(tables[name], name).toEqual(reflectBindings(wgsl(), entryPoint, name));
    for (const [name, { wgsl }] of Object.entries(ENTRY_BINDING_SOURCES)) {
      const code = wgsl();
      const want = Object.fromEntries(
        reflectEntryPoints(code).map((e) => [e, reflectBindings(code, e, name)]),
      );
      expect(tables[name], name).toEqual(want);
    }
  });

  it('the host reads the layouts and bindings it holds', () => {
    expect(STRUCTS_2D).toEqual(reflectStructs(constantsWgsl() + wgslFile('layout2d')));
    expect(STRUCTS_LAYOUT_3D).toEqual(reflectStructs(constants3dWgsl() + wgslFile('layout3d')));
    expect(STRUCTS_PAIR_CLASSES).toEqual(reflectStructs(pairClassStructsWgsl()));
    // 3D: the class list is written too (what a closest pass is asked), then the manifolds.
    expect(BINDINGS_NARROWPHASE_CLASS_3D.map((b) => b.type)).toEqual([
      ...Array(6).fill('read-only-storage'),
      'storage',
      'storage',
      'uniform',
    ]);
    expect(BINDINGS_NARROWPHASE_CLASS_2D.map((b) => b.type)).toEqual([
      ...Array(3).fill('read-only-storage'),
      'storage',
      'uniform',
    ]);
    const classifier = ['pcCount', 'pcScatter', 'pcFinish', 'pcList'];
    expect(Object.keys(ENTRIES_PAIR_CLASSIFIER_2D)).toEqual(classifier);
    expect(Object.keys(ENTRIES_PAIR_CLASSIFIER_3D)).toEqual(classifier);
    for (const e of classifier) {
      expect(ENTRIES_PAIR_CLASSIFIER_2D[e]).toEqual(reflectBindings(classifierWgsl2D(), e, '2d'));
      expect(ENTRIES_PAIR_CLASSIFIER_3D[e]).toEqual(reflectBindings(classifierWgsl3D(), e, '3d'));
    }
  });

  it('one bind-group layout serves every class kernel and the general kernel', () => {
    // Each class module must bind what the shared layout holds, no more: a class that stopped
    // reading a buffer still declares it, and the general entry point binds the same buffers.
    for (const c of [...PAIR_CLASSES_3D, 'general'] as const) {
      expect(reflectBindings(narrowphaseWgsl3D(c), 'narrowphaseClass3D', c)).toEqual(
        BINDINGS_NARROWPHASE_CLASS_3D,
      );
    }
    expect(reflectBindings(narrowphaseWgsl3D('general'), 'narrowphase3D', 'general')).toEqual(
      BINDINGS_NARROWPHASE_CLASS_3D,
    );
    for (const c of [...PAIR_CLASSES_2D, 'general'] as const) {
      expect(reflectBindings(narrowphaseWgsl2D(c), 'narrowphaseClass2D', c)).toEqual(
        BINDINGS_NARROWPHASE_CLASS_2D,
      );
    }
    expect(reflectBindings(narrowphaseWgsl2D('general'), 'narrowphase2D', 'general')).toEqual(
      BINDINGS_NARROWPHASE_CLASS_2D,
    );
  });

  it('the narrowphase kernels assembled from named imports are the kernels assembled by name', () => {
    expect(narrowphaseFiles2D()).toBe(assembleWgsl(NARROWPHASE_2D_FILES));
    expect(narrowphaseFiles3D()).toBe(assembleWgsl3D(NARROWPHASE_3D_FILES));
    expect(NARROWPHASE_3D_FILES.at(-1)).toBe('narrowphase3d');
  });
});
