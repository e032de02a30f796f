// What scripts/reflect-layouts.ts reflects at build time into src/reflection.generated.ts: the
// WGSL (constants and files, as the kernels assemble it) whose structs the host packs through,
// and the kernels whose bind-group layouts are made from their declared bindings. Build-time only:
// no module the package runs imports this one (it holds every shader), and adding an entry here
// adds an export there.

import { constantsWgsl } from './constants.ts';
import { constants3dWgsl } from './constants3d.ts';
import { WGSL_SOURCES } from './gpu/shaders.generated.ts';
import {
  broadphaseWgsl2D,
  broadphaseWgsl3D,
  contactsWgsl2D,
  contactsWgsl3D,
  reuseWgsl2D,
  reuseWgsl3D,
} from './gpu/frame-wgsl.ts';
import {
  classifierWgsl2D,
  classifierWgsl3D,
  narrowphaseWgsl2D,
  narrowphaseWgsl3D,
  pairClassStructsWgsl,
} from './gpu/pair-class-wgsl.ts';

/** Struct tables, by export name: the WGSL and the files it names in errors. */
export const STRUCT_SOURCES: Readonly<Record<string, { source: string; wgsl: () => string }>> = {
  STRUCTS_LAYOUT_2D: {
    source: 'shaders/layout2d.wgsl',
    wgsl: () => constantsWgsl() + WGSL_SOURCES['layout2d'],
  },
  STRUCTS_LAYOUT_3D: {
    source: 'shaders/layout3d.wgsl',
    wgsl: () => constants3dWgsl() + WGSL_SOURCES['layout3d'],
  },
  STRUCTS_PAIR_CLASSES: { source: 'shaders/pair-classes.wgsl', wgsl: pairClassStructsWgsl },
  STRUCTS_BROADPHASE: {
    source: 'shaders/broadphase.wgsl',
    wgsl: () => WGSL_SOURCES['broadphase'],
  },
  STRUCTS_REUSE_LAYOUT: {
    source: 'shaders/reuse-layout.wgsl',
    wgsl: () => WGSL_SOURCES['reuse-layout'],
  },
  STRUCTS_CONTACTS_LAYOUT: {
    source: 'shaders/contact-list-layout.wgsl',
    wgsl: () => WGSL_SOURCES['contact-list-layout'],
  },
  STRUCTS_CONTACTS_2D: {
    source: 'shaders/contact-list2d-layout.wgsl',
    wgsl: () => constantsWgsl() + WGSL_SOURCES['layout2d'] + WGSL_SOURCES['contact-list2d-layout'],
  },
  STRUCTS_CONTACTS_3D: {
    source: 'shaders/contact-list3d-layout.wgsl',
    wgsl: () =>
      constants3dWgsl() + WGSL_SOURCES['layout3d'] + WGSL_SOURCES['contact-list3d-layout'],
  },
};

/** Bindings of group 0 per kernel entry point, by export name. */
export const BINDING_SOURCES: Readonly<Record<string, { wgsl: () => string; entryPoint: string }>> =
  {
    BINDINGS_NARROWPHASE_CLASS_2D: {
      wgsl: () => narrowphaseWgsl2D('general'),
      entryPoint: 'narrowphaseClass2D',
    },
    BINDINGS_NARROWPHASE_CLASS_3D: {
      wgsl: () => narrowphaseWgsl3D('general'),
      entryPoint: 'narrowphaseClass3D',
    },
  };

/** Bindings of group 0 of every compute entry point of a module, by export name. */
export const ENTRY_BINDING_SOURCES: Readonly<Record<string, { wgsl: () => string }>> = {
  ENTRIES_PAIR_CLASSIFIER_2D: { wgsl: classifierWgsl2D },
  ENTRIES_PAIR_CLASSIFIER_3D: { wgsl: classifierWgsl3D },
  ENTRIES_BROADPHASE_2D: { wgsl: broadphaseWgsl2D },
  ENTRIES_BROADPHASE_3D: { wgsl: broadphaseWgsl3D },
  ENTRIES_REUSE_2D: { wgsl: reuseWgsl2D },
  ENTRIES_REUSE_3D: { wgsl: reuseWgsl3D },
  ENTRIES_CONTACTS_2D: { wgsl: contactsWgsl2D },
  ENTRIES_CONTACTS_3D: { wgsl: contactsWgsl3D },
};
