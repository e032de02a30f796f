// The 3D pair classes (src/gpu/pair-classes.ts runs them): which pairs of shape kinds go to which
// narrowphase pipeline, and what each pipeline compiles. Every class kernel is the one
// narrowphase3d.wgsl module with a block of CLASS_*_3D constants prepended: conditions on them
// fold at compile time, so a class keeps only its own paths and private arrays, sized by its
// shapes' real maxima.
//
//   boxBox      two boxes: box support, the 15 box axes, the register-held quad clip
//   hullHull    two hulls, or a box and a hull: the general SAT, clip and reduction
//   roundHull   a sphere or capsule with a hull or box (round3d.wgsl)
//   roundRound  spheres and capsules with each other (round3d.wgsl)
//
// The general kernel ('general': every path, the kinds decide at run time) stays for the tests,
// which check that each class writes the very bytes it writes.

import {
  BOX_CLIP_FALLBACK_POINTS_3D, MAX_CLIP_POINTS_3D, MAX_HULL_EDGES, SHAPE_KIND_3D, WORKGROUP_SIZE_3D,
} from '../constants3d.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import type { Packed3D } from '../pack3d.ts';
import { classesOfKinds, classesOfPairs, type ClassRule, type NarrowphaseDimension } from './pair-classes.ts';
import { classifier3DWgsl, narrowphase3DWgsl } from './shaders.ts';

export const PAIR_CLASSES_3D = ['boxBox', 'hullHull', 'roundHull', 'roundRound'] as const;
export type PairClass3D = (typeof PAIR_CLASSES_3D)[number];
export type ShapeKindName3D = keyof typeof SHAPE_KIND_3D;

/** Names for messages and reports. */
export const PAIR_CLASS_LABEL_3D: Record<PairClass3D, string> = {
  boxBox: 'box–box',
  hullHull: 'hull–hull (hulls, or a hull and a box)',
  roundHull: 'round–hull (a sphere or capsule with a hull or box)',
  roundRound: 'round–round (spheres and capsules)',
};

function isHullKind(kind: number): boolean {
  return kind === SHAPE_KIND_3D.hull || kind === SHAPE_KIND_3D.box;
}

/** The class of a pair of shape kinds (SHAPE_KIND_3D values); pcPairClass in pair-classes3d.wgsl. */
export function pairClass3D(kindA: number, kindB: number): PairClass3D {
  if (kindA === SHAPE_KIND_3D.box && kindB === SHAPE_KIND_3D.box) return 'boxBox';
  if (isHullKind(kindA) && isHullKind(kindB)) return 'hullHull';
  if (isHullKind(kindA) || isHullKind(kindB)) return 'roundHull';
  return 'roundRound';
}

const RULE_3D: ClassRule<PairClass3D> = { dim: '3D', classes: PAIR_CLASSES_3D, pairClass: pairClass3D, kinds: SHAPE_KIND_3D };

/** The classes shapes of these kinds can form (two bodies may share a shape, so a kind pairs with itself). */
export function classesOfKinds3D(kinds: Iterable<ShapeKindName3D | number>): PairClass3D[] {
  return classesOfKinds(RULE_3D, kinds);
}

/** The classes the pairs of a packed scene fall in (collide() compiles those alone). */
export function classesOfPairs3D(p: Packed3D): PairClass3D[] {
  const shapes = new Uint32Array(p.shapes);
  const bodies = new Uint32Array(p.bodies);
  const S = LAYOUT_3D.shape;
  const B = LAYOUT_3D.body;
  return classesOfPairs(RULE_3D, p.pairs, p.pairCount, (body) => shapes[bodies[body * B.words + B.shape]! * S.words + S.kind]!);
}

/** What a 3D kernel compiles: the paths it reaches and the sizes of its private arrays. */
interface KernelSpec3D {
  /** Pairs of several classes: the kinds pick the path at run time. */
  general: boolean;
  /** collideHulls3d is reached. */
  hullPairs: boolean;
  /** Pairs of two boxes occur (box edge axes, the register-held clip). */
  boxPairs: boolean;
  /** Every hull is a box. */
  boxesOnly: boolean;
  /** Hull access computes a box's features from its half extents (else reads them, the same bits, as a hull's). */
  boxFeatures: boolean;
  roundHull: boolean;
  rounds: boolean;
  /** sat3d.wgsl's lists of B's edges (1 where the class never reaches them: WGSL has no empty arrays). */
  edgeCandidates: number;
  /** clip3d.wgsl's buffers and reduce3d.wgsl's candidates (1 where never reached). */
  clipPoints: number;
}

const SPECS_3D: Record<PairClass3D | 'general', KernelSpec3D> = {
  general: { general: true, hullPairs: true, boxPairs: true, boxesOnly: false, boxFeatures: true, roundHull: true, rounds: true, edgeCandidates: MAX_HULL_EDGES, clipPoints: MAX_CLIP_POINTS_3D },
  boxBox: { general: false, hullPairs: true, boxPairs: true, boxesOnly: true, boxFeatures: true, roundHull: false, rounds: false, edgeCandidates: 1, clipPoints: BOX_CLIP_FALLBACK_POINTS_3D },
  hullHull: { general: false, hullPairs: true, boxPairs: false, boxesOnly: false, boxFeatures: false, roundHull: false, rounds: false, edgeCandidates: MAX_HULL_EDGES, clipPoints: MAX_CLIP_POINTS_3D },
  roundHull: { general: false, hullPairs: false, boxPairs: false, boxesOnly: false, boxFeatures: false, roundHull: true, rounds: false, edgeCandidates: 1, clipPoints: 1 },
  roundRound: { general: false, hullPairs: false, boxPairs: false, boxesOnly: false, boxFeatures: false, roundHull: false, rounds: true, edgeCandidates: 1, clipPoints: 1 },
};

/** The CLASS_*_3D constants of one kernel (prepended to the narrowphase module). */
export function classConstantsWgsl3D(kernel: PairClass3D | 'general'): string {
  const s = SPECS_3D[kernel];
  const b = (name: string, v: boolean): string => `const ${name}: bool = ${v};`;
  const u = (name: string, v: number): string => `const ${name}: u32 = ${v}u;`;
  return [
    `// Pair class '${kernel}' (src/gpu/pair-classes3d.ts).`,
    b('CLASS_GENERAL_3D', s.general),
    b('CLASS_HULL_PAIRS_3D', s.hullPairs),
    b('CLASS_BOX_PAIRS_3D', s.boxPairs),
    b('CLASS_BOXES_ONLY_3D', s.boxesOnly),
    b('CLASS_BOX_FEATURES_3D', s.boxFeatures),
    b('CLASS_ROUND_HULL_3D', s.roundHull),
    b('CLASS_ROUNDS_3D', s.rounds),
    u('CLASS_EDGE_CANDIDATES_3D', s.edgeCandidates),
    u('CLASS_CLIP_POINTS_3D', s.clipPoints),
    '',
  ].join('\n');
}

/** The 3D narrowphase module of one kernel. */
export function narrowphaseWgsl3D(kernel: PairClass3D | 'general'): string {
  return narrowphase3DWgsl(classConstantsWgsl3D(kernel));
}

/** The classifier's module: class ids, the 3D layout and pcPairClass, then the shared kernels. */
export function classifierWgsl3D(): string {
  const ids = PAIR_CLASSES_3D.map((c, i) => `const PAIR_CLASS_${c.replace(/[A-Z]/g, (x) => `_${x}`).toUpperCase()}_3D: u32 = ${i}u;`);
  return classifier3DWgsl([...ids, `const PC_CLASS_COUNT: u32 = ${PAIR_CLASSES_3D.length}u;`, ''].join('\n'));
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
  classifierWgsl: classifierWgsl3D,
  generalEntry: 'narrowphase3d',
  classEntry: 'narrowphaseClass3d',
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
