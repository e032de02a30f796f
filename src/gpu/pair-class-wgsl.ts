// The WGSL modules of the pair classes, as their pipelines compile them: each class kernel is its
// dimension's narrowphase module with a block of CLASS_* constants prepended (conditions on them
// fold at compile time, so a class keeps only its paths and private arrays), and the classifier is
// pair-classes.wgsl with its constants and the dimension's pcPairClass. Nothing here imports a
// reflected layout, so the build-time reflection (src/reflection-sources.ts) reads these modules.

import {
  BOX_CLIP_FALLBACK_POINTS_3D,
  BOX_CLIP_POINTS_3D,
  MAX_CLIP_POINTS_3D,
  MAX_HULL_EDGES,
} from '../constants3d.ts';
import { WGSL_pair_classes } from './shaders.generated.ts';
import {
  classifierFiles2D,
  classifierFiles3D,
  narrowphaseFiles2D,
  narrowphaseFiles3D,
} from './shaders.ts';

export const PAIR_CLASSES_2D = ['polygons', 'circles'] as const;
export type PairClass2D = (typeof PAIR_CLASSES_2D)[number];
export const PAIR_CLASSES_3D = ['boxBox', 'hullHull', 'roundHull', 'roundRound'] as const;
export type PairClass3D = (typeof PAIR_CLASSES_3D)[number];

/**
 * Items per classifier block, one block per invocation, walked in order: short enough for one
 * invocation, long enough that the block counts (× classes + 1) stay a small scan.
 */
export const PAIR_CLASS_BLOCK = 32;
/** Invocations per classifier workgroup. */
export const PC_WORKGROUP_SIZE = 64;

/** The classifier's constants as WGSL (prepended; defined once, here). */
function classifierConstantsWgsl(): string {
  return [
    `const PC_WORKGROUP_SIZE: u32 = ${PC_WORKGROUP_SIZE}u;`,
    `const PC_ITEMS: u32 = ${PAIR_CLASS_BLOCK}u;`,
    '',
  ].join('\n');
}

/** The classifier's structs, whose layout does not depend on the dimension (a stand-in class count). */
export function pairClassStructsWgsl(): string {
  return `${classifierConstantsWgsl()}const PC_CLASS_COUNT: u32 = 1u;\n${WGSL_pair_classes}`;
}

/** The CLASS_*_2D constants of one kernel (prepended to the narrowphase module). */
export function classConstantsWgsl2D(kernel: PairClass2D | 'general'): string {
  const b = (name: string, v: boolean): string => `const ${name}: bool = ${v};`;
  return [
    `// Pair class '${kernel}' (src/gpu/pair-classes2d.ts).`,
    b('CLASS_GENERAL_2D', kernel === 'general'),
    b('CLASS_POLYGONS_2D', kernel !== 'circles'),
    b('CLASS_CIRCLES_2D', kernel !== 'polygons'),
    '',
  ].join('\n');
}

/** The 2D narrowphase module of one kernel. */
export function narrowphaseWgsl2D(kernel: PairClass2D | 'general'): string {
  return narrowphaseFiles2D(classConstantsWgsl2D(kernel));
}

/** The classifier's module: its constants, the class ids and pcPairClass, then the shared kernels. */
export function classifierWgsl2D(): string {
  const ids = PAIR_CLASSES_2D.map((c, i) => `const PAIR_CLASS_${c.toUpperCase()}_2D: u32 = ${i}u;`);
  return (
    classifierConstantsWgsl() +
    classifierFiles2D(
      [...ids, `const PC_CLASS_COUNT: u32 = ${PAIR_CLASSES_2D.length}u;`, ''].join('\n'),
    )
  );
}

/** What a 3D kernel compiles: the paths it reaches and the sizes of its private arrays. */
interface KernelSpec3D {
  /** Pairs of several classes: the kinds pick the path at run time. */
  general: boolean;
  /** collideHulls3D is reached. */
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
  /**
   * Hulls apart whose closest points the SAT's features need not hold are settled by a pass of
   * their own (narrowphaseClosest3D) rather than in the class kernel: GJK is a rare path that
   * would otherwise size the kernel's registers and compile, and collide() compiles the pass only
   * once a pair asks for it (docs/frame.md has the compile times).
   */
  closestPass: boolean;
  /**
   * The class kernel runs the SAT alone and leaves its result in the pair's slot; a pass of its
   * own (narrowphaseContact3D) clips and reduces: two kernels, each with its own arrays and a
   * part of the compile (docs/frame.md).
   */
  contactPass: boolean;
  /**
   * Where its passes are compiled on demand (PairClassOptions.closestOnDemand: collide()), the
   * class kernel makes the common contacts alone (the register-held clip, the edge contact) and
   * leaves a pair that needs more (the general clip where rounding overflowed the register-held
   * one, the retry at the deepest vertex, the vertex contact, the closest points) to the closest
   * pass, which makes its contact from the SAT's result in its slot with every step: that kernel
   * holds BOX_CLIP_POINTS_3D clip points and candidates. A frame dispatches its passes every frame
   * over the class's entries, where a pass that large costs lavapipe more per workgroup than the
   * steps save, so a frame's kernel keeps every step (docs/frame.md).
   */
  redoRare: boolean;
}

const SPECS_3D: Record<PairClass3D | 'general', KernelSpec3D> = {
  general: {
    general: true,
    hullPairs: true,
    boxPairs: true,
    boxesOnly: false,
    boxFeatures: true,
    roundHull: true,
    rounds: true,
    edgeCandidates: MAX_HULL_EDGES,
    clipPoints: MAX_CLIP_POINTS_3D,
    closestPass: false,
    contactPass: false,
    redoRare: false,
  },
  boxBox: {
    general: false,
    hullPairs: true,
    boxPairs: true,
    boxesOnly: true,
    boxFeatures: true,
    roundHull: false,
    rounds: false,
    edgeCandidates: 1,
    clipPoints: BOX_CLIP_FALLBACK_POINTS_3D,
    closestPass: true,
    contactPass: false,
    redoRare: true,
  },
  hullHull: {
    general: false,
    hullPairs: true,
    boxPairs: false,
    boxesOnly: false,
    boxFeatures: false,
    roundHull: false,
    rounds: false,
    edgeCandidates: MAX_HULL_EDGES,
    clipPoints: MAX_CLIP_POINTS_3D,
    closestPass: true,
    contactPass: true,
    redoRare: false,
  },
  roundHull: {
    general: false,
    hullPairs: false,
    boxPairs: false,
    boxesOnly: false,
    boxFeatures: false,
    roundHull: true,
    rounds: false,
    edgeCandidates: 1,
    clipPoints: 1,
    closestPass: false,
    contactPass: false,
    redoRare: false,
  },
  roundRound: {
    general: false,
    hullPairs: false,
    boxPairs: false,
    boxesOnly: false,
    boxFeatures: false,
    roundHull: false,
    rounds: true,
    edgeCandidates: 1,
    clipPoints: 1,
    closestPass: false,
    contactPass: false,
    redoRare: false,
  },
};

/** The entry point that settles a class's closest points and rare steps. */
export const CLOSEST_ENTRY_3D = 'narrowphaseClosest3D';

/**
 * The CLASS_*_3D constants of one kernel (prepended to the narrowphase module); `entry`: the entry
 * point compiled; `lean`: the class's passes are compiled on demand and its kernel leaves the rare
 * steps to its closest pass (redoRare), which then keeps them.
 */
export function classConstantsWgsl3D(
  kernel: PairClass3D | 'general',
  entry?: string,
  lean = false,
): string {
  const s = SPECS_3D[kernel];
  const redo = s.redoRare && lean;
  const rareSteps = !redo || entry === CLOSEST_ENTRY_3D;
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
    u('CLASS_CLIP_POINTS_3D', rareSteps ? s.clipPoints : BOX_CLIP_POINTS_3D),
    b('CLASS_CLOSEST_PASS_3D', s.closestPass),
    b('CLASS_CONTACT_PASS_3D', s.contactPass),
    b('CLASS_REDO_RARE_3D', redo),
    b('CLASS_RARE_STEPS_3D', rareSteps),
    // Which word of the list's asked vector the class raises (pair-classes.ts, armAsked).
    u('CLASS_ASKED_WORD_3D', kernel === 'general' ? 0 : PAIR_CLASSES_3D.indexOf(kernel)),
    '',
  ].join('\n');
}

// A class's asked word is a component of one vec4u.
if (PAIR_CLASSES_3D.length > 4)
  throw new Error('pair classes: more than 4 3D classes need more asked words');

/** The 3D classes whose kernel leaves the contact (clip and reduction) to a pass of its own. */
export const CONTACT_PASS_CLASSES_3D: readonly PairClass3D[] = PAIR_CLASSES_3D.filter(
  (c) => SPECS_3D[c].contactPass,
);

/** The 3D classes whose kernel leaves the closest points of hulls apart to a pass of its own. */
export const CLOSEST_PASS_CLASSES_3D: readonly PairClass3D[] = PAIR_CLASSES_3D.filter(
  (c) => SPECS_3D[c].closestPass,
);

/** The 3D narrowphase module of one kernel, as `entry` compiles it (classConstantsWgsl3D). */
export function narrowphaseWgsl3D(
  kernel: PairClass3D | 'general',
  entry?: string,
  lean = false,
): string {
  return narrowphaseFiles3D(classConstantsWgsl3D(kernel, entry, lean));
}

/** Whether a kernel compiles leaner when its passes are compiled on demand (redoRare). */
export function leanOnDemand3D(kernel: PairClass3D | 'general'): boolean {
  return SPECS_3D[kernel].redoRare;
}

/** The classifier's module: its constants, the class ids, the 3D layout and pcPairClass, then the shared kernels. */
export function classifierWgsl3D(): string {
  const ids = PAIR_CLASSES_3D.map(
    (c, i) =>
      `const PAIR_CLASS_${c.replace(/[A-Z]/g, (x) => `_${x}`).toUpperCase()}_3D: u32 = ${i}u;`,
  );
  return (
    classifierConstantsWgsl() +
    classifierFiles3D(
      [...ids, `const PC_CLASS_COUNT: u32 = ${PAIR_CLASSES_3D.length}u;`, ''].join('\n'),
    )
  );
}
