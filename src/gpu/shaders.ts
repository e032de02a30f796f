// Assembles WGSL modules: WGSL has no imports, so a kernel is the generated constants followed by
// the files it needs, in dependency order. The files are embedded at build time
// (scripts/embed-shaders.mjs), so this works in browsers and in Node without a .wgsl loader.
// The kernels of the narrowphase, the pair classifiers and the frame's stages take their files by
// named import (narrowphaseFiles2D, classifierFiles2D, broadphaseFiles2D, ...), so a bundle carries
// only the WGSL of the kernels it uses; wgslFile and assembleWgsl look files up by name in
// WGSL_SOURCES, which holds them all (tests, tools, the solver).

import { constantsWgsl } from '../constants.ts';
import { constants3dWgsl } from '../constants3d.ts';
import {
  WGSL_aabb2d,
  WGSL_aabb3d,
  WGSL_broadphase,
  WGSL_clip2d,
  WGSL_clip3d,
  WGSL_collide2d,
  WGSL_collide3d,
  WGSL_contact_list,
  WGSL_contact_list2d,
  WGSL_contact_list2d_layout,
  WGSL_contact_list3d,
  WGSL_contact_list3d_layout,
  WGSL_contact_list_layout,
  WGSL_distance2d,
  WGSL_distance3d,
  WGSL_gjk3d,
  WGSL_layout2d,
  WGSL_layout3d,
  WGSL_manifold2d,
  WGSL_manifold_words2d,
  WGSL_manifold3d,
  WGSL_manifold_words3d,
  WGSL_narrowphase2d,
  WGSL_narrowphase3d,
  WGSL_pair_classes,
  WGSL_pair_classes2d,
  WGSL_pair_classes3d,
  WGSL_radixsort,
  WGSL_reduce3d,
  WGSL_reuse,
  WGSL_reuse2d,
  WGSL_reuse3d,
  WGSL_reuse_layout,
  WGSL_round3d,
  WGSL_sat2d,
  WGSL_sat3d,
  WGSL_SOURCES,
} from './shaders.generated.ts';

export function wgslFile(name: string): string {
  const src = WGSL_SOURCES[name];
  if (src === undefined)
    throw new Error(`shaders/${name}.wgsl is missing (run \`npm run prepare\`?)`);
  return src;
}

/** Files by name, in dependency order, with their text. */
type WgslFiles = Readonly<Record<string, string>>;

/** `constants`, `prefix` (more constants), then the files, each under a comment naming it. */
function assemble(constants: string, prefix: string, files: WgslFiles): string {
  return [
    constants,
    prefix,
    ...Object.entries(files).map(([f, text]) => `// ---- shaders/${f}.wgsl ----\n${text}`),
  ].join('\n');
}

const byName = (files: readonly string[]): WgslFiles =>
  Object.fromEntries(files.map((f) => [f, wgslFile(f)]));

/** A 2D (or shared) module: the constants (src/constants.ts), `prefix`, then the files. */
export function assembleWgsl(files: readonly string[], prefix = ''): string {
  return assemble(constantsWgsl(), prefix, byName(files));
}

/** A 3D module: the 3D constants (src/constants3d.ts), `prefix`, then the files. */
export function assembleWgsl3D(files: readonly string[], prefix = ''): string {
  return assemble(constants3dWgsl(), prefix, byName(files));
}

/** A 2D (or shared) module from files given by named import, so a bundle carries only those. */
export function assembleWgslFiles(files: WgslFiles, prefix = ''): string {
  return assemble(constantsWgsl(), prefix, files);
}

/** The 2D narrowphase kernel's files, in dependency order. */
const NARROWPHASE_2D: WgslFiles = {
  layout2d: WGSL_layout2d,
  manifold2d: WGSL_manifold2d,
  sat2d: WGSL_sat2d,
  distance2d: WGSL_distance2d,
  clip2d: WGSL_clip2d,
  collide2d: WGSL_collide2d,
  narrowphase2d: WGSL_narrowphase2d,
};
export const NARROWPHASE_2D_FILES: readonly string[] = /* @__PURE__ */ Object.keys(NARROWPHASE_2D);

/** The 2D narrowphase kernel, assembled after `prefix` (what assembleWgsl(NARROWPHASE_2D_FILES, prefix) gives). */
export function narrowphaseFiles2D(prefix = ''): string {
  return assemble(constantsWgsl(), prefix, NARROWPHASE_2D);
}

/** The 2D pair classifier, assembled after `prefix` (the class ids). */
export function classifierFiles2D(prefix = ''): string {
  return assemble(constantsWgsl(), prefix, {
    layout2d: WGSL_layout2d,
    'pair-classes2d': WGSL_pair_classes2d,
    'pair-classes': WGSL_pair_classes,
  });
}

/** The 3D pair classifier, assembled after `prefix` (the class ids). */
export function classifierFiles3D(prefix = ''): string {
  return assemble(constants3dWgsl(), prefix, {
    layout3d: WGSL_layout3d,
    'pair-classes3d': WGSL_pair_classes3d,
    'pair-classes': WGSL_pair_classes,
  });
}

/** The 3D narrowphase kernel's files, in dependency order. */
const NARROWPHASE_3D: WgslFiles = {
  layout3d: WGSL_layout3d,
  manifold3d: WGSL_manifold3d,
  distance3d: WGSL_distance3d,
  gjk3d: WGSL_gjk3d,
  sat3d: WGSL_sat3d,
  reduce3d: WGSL_reduce3d,
  clip3d: WGSL_clip3d,
  round3d: WGSL_round3d,
  collide3d: WGSL_collide3d,
  narrowphase3d: WGSL_narrowphase3d,
};
export const NARROWPHASE_3D_FILES: readonly string[] = /* @__PURE__ */ Object.keys(NARROWPHASE_3D);

/** The 3D narrowphase kernel, assembled after `prefix` (what assembleWgsl3D(NARROWPHASE_3D_FILES, prefix) gives). */
export function narrowphaseFiles3D(prefix = ''): string {
  return assemble(constants3dWgsl(), prefix, NARROWPHASE_3D);
}

// The frame's stages (src/gpu/frame-wgsl.ts prepends each stage's constants).

/** The 2D broadphase: the 2D layout and boxes, then the shared sweep. */
export function broadphaseFiles2D(prefix = ''): string {
  return assemble(constantsWgsl(), prefix, {
    layout2d: WGSL_layout2d,
    aabb2d: WGSL_aabb2d,
    broadphase: WGSL_broadphase,
  });
}

/** The 3D broadphase: the 3D layout and boxes, then the shared sweep. */
export function broadphaseFiles3D(prefix = ''): string {
  return assemble(constants3dWgsl(), prefix, {
    layout3d: WGSL_layout3d,
    aabb3d: WGSL_aabb3d,
    broadphase: WGSL_broadphase,
  });
}

/** The 2D dense contact list. */
export function contactListFiles2D(prefix = ''): string {
  return assemble(constantsWgsl(), prefix, {
    layout2d: WGSL_layout2d,
    'manifold-words2d': WGSL_manifold_words2d,
    'contact-list-layout': WGSL_contact_list_layout,
    'contact-list2d-layout': WGSL_contact_list2d_layout,
    'contact-list2d': WGSL_contact_list2d,
    'contact-list': WGSL_contact_list,
  });
}

/** The 3D dense contact list. */
export function contactListFiles3D(prefix = ''): string {
  return assemble(constants3dWgsl(), prefix, {
    layout3d: WGSL_layout3d,
    'manifold-words3d': WGSL_manifold_words3d,
    'contact-list-layout': WGSL_contact_list_layout,
    'contact-list3d-layout': WGSL_contact_list3d_layout,
    'contact-list3d': WGSL_contact_list3d,
    'contact-list': WGSL_contact_list,
  });
}

/** 2D manifold reuse: the narrowphase's files but its kernel, then the reuse stage's. */
export function reuseFiles2D(prefix = ''): string {
  const { narrowphase2d: _kernel, ...files } = NARROWPHASE_2D;
  return assemble(constantsWgsl(), prefix, {
    ...files,
    'manifold-words2d': WGSL_manifold_words2d,
    reuse2d: WGSL_reuse2d,
    'reuse-layout': WGSL_reuse_layout,
    reuse: WGSL_reuse,
  });
}

/** 3D manifold reuse: the narrowphase's files but its kernel, then the reuse stage's. */
export function reuseFiles3D(prefix = ''): string {
  const { narrowphase3d: _kernel, ...files } = NARROWPHASE_3D;
  return assemble(constants3dWgsl(), prefix, {
    ...files,
    'manifold-words3d': WGSL_manifold_words3d,
    reuse3d: WGSL_reuse3d,
    'reuse-layout': WGSL_reuse_layout,
    reuse: WGSL_reuse,
  });
}

/** The radix sort. */
export function radixSortWgsl(prefix = ''): string {
  return assemble(constantsWgsl(), prefix, { radixsort: WGSL_radixsort });
}
