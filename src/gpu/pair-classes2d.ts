// The 2D pair classes (src/gpu/pair-classes.ts runs them). collide2d.wgsl has three paths, picked
// by the core vertex counts: collidePolygons (SAT, clipping) for anything without a circle, capsules
// included (a capsule is a 2-gon with a radius), collidePolygonAndCircle and collideCircles for a
// circle with anything. The split follows the code, not the shape names: a class of the round
// shapes would hold capsule–capsule pairs and with them the whole polygon path.
//
//   polygons  polygons, boxes and capsules with each other: collidePolygons
//   circles   a circle with anything: collidePolygonAndCircle, collideCircles (no SAT, no clip)
//
// Every class kernel is the one narrowphase2d.wgsl module with CLASS_*_2D constants prepended;
// the general kernel ('general', every path) stays for the tests.

import { WORKGROUP_SIZE_2D } from '../constants.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import {
  SHAPE_KIND_2D,
  shapeKind2D,
  type CollideClass2D,
  type ShapeKindName2D,
} from '../shape-kinds2d.ts';
import type { Packed2D } from '../pack2d.ts';
import {
  BINDINGS_NARROWPHASE_CLASS_2D,
  ENTRIES_PAIR_CLASSIFIER_2D,
} from '../reflection.generated.ts';
import {
  classifierWgsl2D,
  narrowphaseWgsl2D,
  PAIR_CLASSES_2D,
  type PairClass2D,
} from './pair-class-wgsl.ts';
import {
  classesOfKinds,
  classesOfPairs,
  type ClassRule,
  type NarrowphaseDimension,
} from './pair-classes.ts';

export {
  classConstantsWgsl2D,
  classifierWgsl2D,
  narrowphaseWgsl2D,
  PAIR_CLASSES_2D,
  type PairClass2D,
} from './pair-class-wgsl.ts';
export type { ShapeKindName2D } from '../shape-kinds2d.ts';

export const PAIR_CLASS_LABEL_2D: Record<PairClass2D, string> = {
  polygons: 'polygons (polygons, boxes and capsules with each other)',
  circles: 'circles (a circle with any shape)',
};

/** The class of two kinds' collide classes (src/shape-kinds2d.ts): a circle on either side, or none. */
const PAIR_CLASS_OF_2D: Record<CollideClass2D, Record<CollideClass2D, PairClass2D>> = {
  polygon: { polygon: 'polygons', circle: 'circles' },
  circle: { polygon: 'circles', circle: 'circles' },
};

/** A kind's collide class; a number outside the table (a hand-built shape) pairs as a polygon. */
function collideClass2D(kind: number): CollideClass2D {
  return shapeKind2D(kind)?.collide ?? 'polygon';
}

/** The class of a pair of shape kinds (SHAPE_KIND_2D values); pcPairClass in pair-classes2d.wgsl. */
export function pairClass2D(kindA: number, kindB: number): PairClass2D {
  return PAIR_CLASS_OF_2D[collideClass2D(kindA)][collideClass2D(kindB)];
}

const RULE_2D: ClassRule<PairClass2D> = {
  dim: '2D',
  classes: PAIR_CLASSES_2D,
  pairClass: pairClass2D,
  kinds: SHAPE_KIND_2D,
};

/** The classes shapes of these kinds can form (two bodies may share a shape, so a kind pairs with itself). */
export function classesOfKinds2D(kinds: Iterable<ShapeKindName2D | number>): PairClass2D[] {
  return classesOfKinds(RULE_2D, kinds);
}

/** The classes the pairs of a packed scene fall in (collide() compiles those alone). */
export function classesOfPairs2D(p: Packed2D): PairClass2D[] {
  const shapes = new Uint32Array(p.shapes);
  const bodies = new Uint32Array(p.bodies);
  const S = LAYOUT_2D.shape;
  const B = LAYOUT_2D.body;
  return classesOfPairs(
    RULE_2D,
    p.pairs,
    p.pairCount,
    (body) => shapes[bodies[body * B.words + B.shape] * S.words + S.kind],
  );
}

/** The narrowphase's buffers, with STORAGE usage; FrameInputs2D has them too. */
export interface NarrowphaseInputs2D {
  /** array<Shape2D> (shaders/layout2d.wgsl). */
  shapes: GPUBuffer;
  /** array<Body2D>: may be the engine's own buffer in this layout. */
  bodies: GPUBuffer;
}

export const NARROWPHASE_DIMENSION_2D: NarrowphaseDimension<PairClass2D, NarrowphaseInputs2D> = {
  label: 'narrowphase2d',
  classes: PAIR_CLASSES_2D,
  classLabel: PAIR_CLASS_LABEL_2D,
  kernelWgsl: narrowphaseWgsl2D,
  classifierWgsl: classifierWgsl2D,
  generalEntry: 'narrowphase2D',
  classEntry: 'narrowphaseClass2D',
  classBindings: BINDINGS_NARROWPHASE_CLASS_2D,
  classifierBindings: ENTRIES_PAIR_CLASSIFIER_2D,
  workgroupSize: WORKGROUP_SIZE_2D,
  manifoldBytes: LAYOUT_2D.manifold.words * 4,
  params: LAYOUT_2D.params,
  bindings: (inputs, pairs, manifolds, params) => [
    { binding: 0, resource: { buffer: inputs.shapes } },
    { binding: 1, resource: { buffer: inputs.bodies } },
    { binding: 2, resource: pairs },
    { binding: 3, resource: manifolds },
    { binding: 4, resource: { buffer: params } },
  ],
  classifierInputs: (inputs) => ({ shapes: inputs.shapes, bodies: inputs.bodies }),
};
