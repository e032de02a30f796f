// The 3D pair classes (src/gpu/pair-classes.ts runs them): which pairs of shape kinds go to which
// narrowphase pipeline, and what each pipeline compiles. Every class kernel is the one
// narrowphase3d.wgsl module with a block of CLASS_*_3D constants prepended: conditions on them
// fold at compile time, so a class keeps only its own paths and private arrays, sized by its
// shapes' real maxima.
//
//   boxBox      two boxes: box support, the 15 box axes, the register-held quad clip; GJK for
//               boxes apart in a closest pass of its own (narrowphaseClosest3D, after the kernel)
//   hullHull    two hulls, or a box and a hull: the general SAT, then clip and reduction in a
//               contact pass of their own (narrowphaseContact3D); GJK in a closest pass as box–box's
//   roundHull   a sphere or capsule with a hull or box (round3d.wgsl)
//   roundRound  spheres and capsules with each other (round3d.wgsl)
//
// The general kernel ('general': every path, the kinds decide at run time) stays for the tests,
// which check that each class writes the very bytes it writes.

import { SHAPE_KIND_3D, WORKGROUP_SIZE_3D } from '../constants3d.ts';
import { shapeKind3D, type CollideClass3D, type ShapeKindName3D } from '../shape-kinds3d.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import type { Packed3D } from '../pack3d.ts';
import {
  BINDINGS_NARROWPHASE_CLASS_3D,
  ENTRIES_PAIR_CLASSIFIER_3D,
} from '../reflection.generated.ts';
import {
  classifierWgsl3D,
  CLOSEST_ENTRY_3D,
  CLOSEST_PASS_CLASSES_3D,
  CONTACT_PASS_CLASSES_3D,
  leanOnDemand3D,
  narrowphaseWgsl3D,
  PAIR_CLASSES_3D,
  type PairClass3D,
} from './pair-class-wgsl.ts';
import {
  classesOfKinds,
  classesOfPairs,
  type ClassRule,
  type NarrowphaseDimension,
} from './pair-classes.ts';

export {
  classConstantsWgsl3D,
  classifierWgsl3D,
  narrowphaseWgsl3D,
  PAIR_CLASSES_3D,
  type PairClass3D,
} from './pair-class-wgsl.ts';
export type { ShapeKindName3D } from '../shape-kinds3d.ts';

/** Names for messages and reports. */
export const PAIR_CLASS_LABEL_3D: Record<PairClass3D, string> = {
  boxBox: 'box–box',
  hullHull: 'hull–hull (hulls, or a hull and a box)',
  roundHull: 'round–hull (a sphere or capsule with a hull or box)',
  roundRound: 'round–round (spheres and capsules)',
};

/** The class of two kinds' collide classes (src/shape-kinds3d.ts); symmetric. */
const PAIR_CLASS_OF_3D: Record<CollideClass3D, Record<CollideClass3D, PairClass3D>> = {
  box: { box: 'boxBox', hull: 'hullHull', round: 'roundHull' },
  hull: { box: 'hullHull', hull: 'hullHull', round: 'roundHull' },
  round: { box: 'roundHull', hull: 'roundHull', round: 'roundRound' },
};

/** A kind's collide class; a number outside the table (a hand-built shape) pairs as round, as isHullKind in the WGSL reads it. */
function collideClass3D(kind: number): CollideClass3D {
  return shapeKind3D(kind)?.collide ?? 'round';
}

/** The class of a pair of shape kinds (SHAPE_KIND_3D values); pcPairClass in pair-classes3d.wgsl. */
export function pairClass3D(kindA: number, kindB: number): PairClass3D {
  return PAIR_CLASS_OF_3D[collideClass3D(kindA)][collideClass3D(kindB)];
}

const RULE_3D: ClassRule<PairClass3D> = {
  dim: '3D',
  classes: PAIR_CLASSES_3D,
  pairClass: pairClass3D,
  kinds: SHAPE_KIND_3D,
};

/** The classes shapes of these kinds can form (two bodies may share a shape, so a kind pairs with itself). */
export function classesOfKinds3D(kinds: Iterable<ShapeKindName3D | number>): PairClass3D[] {
  return classesOfKinds(RULE_3D, kinds);
}

/** A packed scene's lookup of a body's shape kind (SHAPE_KIND_3D value). */
export function bodyKinds3D(p: Packed3D): (body: number) => number {
  const shapes = new Uint32Array(p.shapes);
  const bodies = new Uint32Array(p.bodies);
  const S = LAYOUT_3D.shape;
  const B = LAYOUT_3D.body;
  return (body) => shapes[bodies[body * B.words + B.shape] * S.words + S.kind];
}

/** The classes the pairs of a packed scene fall in (collide() compiles those alone). */
export function classesOfPairs3D(p: Packed3D): PairClass3D[] {
  return classesOfPairs(RULE_3D, p.pairs, p.pairCount, bodyKinds3D(p));
}

/** The narrowphase's buffers (packShapes3D, packBodies3D), all with STORAGE usage; FrameInputs3D has them too. */
export interface NarrowphaseInputs3D {
  /** array<Shape3D> (shaders/layout3d.wgsl). */
  shapes: GPUBuffer;
  /** The four flat hull buffers the shapes index (see layout3d.wgsl). */
  hullVertices: GPUBuffer;
  hullPlanes: GPUBuffer;
  hullFaces: GPUBuffer;
  hullIndices: GPUBuffer;
  /** array<Body3D>: may be the engine's own buffer in this layout. */
  bodies: GPUBuffer;
}

export const NARROWPHASE_DIMENSION_3D: NarrowphaseDimension<PairClass3D, NarrowphaseInputs3D> = {
  label: 'narrowphase3d',
  classes: PAIR_CLASSES_3D,
  classLabel: PAIR_CLASS_LABEL_3D,
  kernelWgsl: narrowphaseWgsl3D,
  leanOnDemand: leanOnDemand3D,
  classifierWgsl: classifierWgsl3D,
  generalEntry: 'narrowphase3D',
  classEntry: 'narrowphaseClass3D',
  contactClasses: CONTACT_PASS_CLASSES_3D,
  contactEntry: 'narrowphaseContact3D',
  closestClasses: CLOSEST_PASS_CLASSES_3D,
  closestEntry: CLOSEST_ENTRY_3D,
  classBindings: BINDINGS_NARROWPHASE_CLASS_3D,
  classifierBindings: ENTRIES_PAIR_CLASSIFIER_3D,
  workgroupSize: WORKGROUP_SIZE_3D,
  manifoldBytes: LAYOUT_3D.manifold.words * 4,
  params: LAYOUT_3D.params,
  bindings: (inputs, pairs, manifolds, params) => [
    { binding: 0, resource: { buffer: inputs.shapes } },
    { binding: 1, resource: { buffer: inputs.hullVertices } },
    { binding: 2, resource: { buffer: inputs.hullPlanes } },
    { binding: 3, resource: { buffer: inputs.hullFaces } },
    { binding: 4, resource: { buffer: inputs.hullIndices } },
    { binding: 5, resource: { buffer: inputs.bodies } },
    { binding: 6, resource: pairs },
    { binding: 7, resource: manifolds },
    { binding: 8, resource: { buffer: params } },
  ],
  classifierInputs: (inputs) => ({ shapes: inputs.shapes, bodies: inputs.bodies }),
};
