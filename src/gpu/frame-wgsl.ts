// The WGSL modules of the frame's stages (broadphase, manifold reuse, work list, contact list), as
// their pipelines compile them: each stage's constants block, then its files (src/gpu/shaders.ts).
// Nothing here imports a reflected layout, so the build-time reflection (src/reflection-sources.ts)
// reads these modules for the stages' bindings.

import {
  AABB_F32_STEPS,
  AABB_RELATIVE_PAD,
  ANCHOR_JOIN,
  ANCHOR_TWIN,
  BROADPHASE_MAX_BANDS,
  BROADPHASE_WORKGROUP_SIZE,
  CONTACT_NONE,
  CONTACT_SLOT_FLAGS,
  CONTACTS_WORKGROUP_SIZE,
  MASK_BLOCK,
  REUSE_NO_SLOT,
  REUSE_STATUS,
  REUSE_WORKGROUP_SIZE,
} from '../constants.ts';
import {
  classConstantsWgsl2D,
  classConstantsWgsl3D,
  type PairClass2D,
  type PairClass3D,
} from './pair-class-wgsl.ts';
import { MAX_GROUPS_PER_DIMENSION } from './buffers.ts';
import {
  broadphaseFiles2D,
  broadphaseFiles3D,
  contactListFiles2D,
  contactListFiles3D,
  reuseFiles2D,
  reuseFiles3D,
} from './shaders.ts';

/** The broadphase's constants as WGSL (defined once, in src/constants.ts). */
export function broadphaseConstantsWgsl(): string {
  return [
    `const AABB_RELATIVE_PAD: f32 = ${AABB_RELATIVE_PAD.toExponential()};`,
    `const AABB_F32_STEPS: f32 = ${AABB_F32_STEPS.toFixed(1)};`,
    `const BROADPHASE_WORKGROUP_SIZE: u32 = ${BROADPHASE_WORKGROUP_SIZE}u;`,
    `const BP_MAX_BANDS: u32 = ${BROADPHASE_MAX_BANDS}u;`,
    '',
  ].join('\n');
}

export function broadphaseWgsl2D(): string {
  return broadphaseFiles2D(broadphaseConstantsWgsl());
}

export function broadphaseWgsl3D(): string {
  return broadphaseFiles3D(broadphaseConstantsWgsl());
}

/** How reuseSlots finds last frame's slot (ReuseParams.prevMode). */
export const REUSE_PREV_MODE = { none: 0, identity: 1, slots: 2 } as const;

/** The reuse stage's constants as WGSL (defined once, in src/constants.ts). */
export function reuseConstantsWgsl(): string {
  return [
    `const REUSE_WORKGROUP_SIZE: u32 = ${REUSE_WORKGROUP_SIZE}u;`,
    `const REUSE_KEPT: u32 = ${REUSE_STATUS.kept}u;`,
    `const REUSE_COLLIDE: u32 = ${REUSE_STATUS.collide}u;`,
    `const REUSE_APART: u32 = ${REUSE_STATUS.apart}u;`,
    `const REUSE_NO_SLOT: u32 = ${REUSE_NO_SLOT}u;`,
    `const ANCHOR_JOIN: u32 = ${ANCHOR_JOIN}u;`,
    `const ANCHOR_TWIN: u32 = ${ANCHOR_TWIN}u;`,
    `const REUSE_PREV_NONE: u32 = ${REUSE_PREV_MODE.none}u;`,
    `const REUSE_PREV_IDENTITY: u32 = ${REUSE_PREV_MODE.identity}u;`,
    `const REUSE_PREV_SLOTS: u32 = ${REUSE_PREV_MODE.slots}u;`,
    '',
  ].join('\n');
}

/**
 * Reuse runs the narrowphase's functions as a kernel compiles them: the general kernel's (every
 * path), or one pair class's where a frame collides that class alone (ReuseDimension.kernelFor).
 */
export function reuseWgsl2D(kernel: PairClass2D | 'general' = 'general'): string {
  return reuseFiles2D(reuseConstantsWgsl() + classConstantsWgsl2D(kernel));
}

export function reuseWgsl3D(kernel: PairClass3D | 'general' = 'general'): string {
  return reuseFiles3D(reuseConstantsWgsl() + classConstantsWgsl3D(kernel));
}

/** The contact list's constants as WGSL (defined once, in src/constants.ts). */
export function contactsConstantsWgsl(): string {
  return [
    `const CONTACTS_WORKGROUP_SIZE: u32 = ${CONTACTS_WORKGROUP_SIZE}u;`,
    `const CONTACT_NONE: u32 = ${CONTACT_NONE}u;`,
    `const CT_MAX_GROUPS_PER_DIMENSION: u32 = ${MAX_GROUPS_PER_DIMENSION}u;`,
    `const CT_MASK_BLOCK: u32 = ${MASK_BLOCK}u;`,
    `const CT_SLOT_KEPT: u32 = ${REUSE_STATUS.kept}u;`,
    `const CT_SLOT_APART: u32 = ${REUSE_STATUS.apart}u;`,
    `const CT_SLOT_COLLIDE: u32 = ${REUSE_STATUS.collide}u;`,
    `const CT_TOUCHES: u32 = ${CONTACT_SLOT_FLAGS.touches}u;`,
    `const CT_COLLIDED: u32 = ${CONTACT_SLOT_FLAGS.collided}u;`,
    '',
  ].join('\n');
}

export function contactsWgsl2D(): string {
  return contactListFiles2D(contactsConstantsWgsl());
}

export function contactsWgsl3D(): string {
  return contactListFiles3D(contactsConstantsWgsl());
}
