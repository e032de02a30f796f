// Assembles WGSL modules: WGSL has no imports, so a kernel is the generated constants followed by
// the files it needs, in dependency order. The files are embedded at build time
// (scripts/embed-shaders.mjs), so this works in browsers and in Node without a .wgsl loader.

import { constantsWgsl } from '../constants.ts';
import { constants3dWgsl } from '../constants3d.ts';
import { WGSL_SOURCES } from './shaders.generated.ts';

export function wgslFile(name: string): string {
  const src = WGSL_SOURCES[name];
  if (src === undefined) throw new Error(`shaders/${name}.wgsl is missing (run \`npm run prepare\`?)`);
  return src;
}

/** A 2D (or shared) module: the constants (src/constants.ts), `prefix` (more constants), then the files. */
export function assembleWgsl(files: readonly string[], prefix = ''): string {
  return [constantsWgsl(), prefix, ...files.map((f) => `// ---- shaders/${f}.wgsl ----\n${wgslFile(f)}`)].join('\n');
}

/** The 2D narrowphase kernel's files, in dependency order. */
export const NARROWPHASE_2D_FILES = ['layout2d', 'manifold2d', 'sat2d', 'distance2d', 'clip2d', 'collide2d', 'narrowphase2d'] as const;

/** A 3D module: the 3D constants (src/constants3d.ts), `prefix` (more constants), then the files. */
export function assembleWgsl3D(files: readonly string[], prefix = ''): string {
  return [constants3dWgsl(), prefix, ...files.map((f) => `// ---- shaders/${f}.wgsl ----\n${wgslFile(f)}`)].join('\n');
}

/** The 3D narrowphase kernel's files, in dependency order. */
export const NARROWPHASE_3D_FILES = ['layout3d', 'manifold3d', 'distance3d', 'gjk3d', 'sat3d', 'reduce3d', 'clip3d', 'round3d', 'collide3d', 'narrowphase3d'] as const;
