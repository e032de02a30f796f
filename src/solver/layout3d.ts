// The 3D solver's buffer layouts (shaders/solver3d-layout.wgsl) as word offsets for the host,
// reflected with wgsl_reflect: never copied by hand.

import { constants3dWgsl } from '../constants3d.ts';
import { member, structLookup, word } from '../layout.ts';
import { WGSL_SOURCES } from '../gpu/shaders.generated.ts';
import { solverConstantsWgsl } from './constants.ts';
import { commandLayout } from './commands.ts';
import { solverParamsWords } from './layout.ts';

const { struct } = structLookup(
  constants3dWgsl() +
    solverConstantsWgsl() +
    (WGSL_SOURCES['layout3d'] ?? '') +
    (WGSL_SOURCES['solver3d-layout'] ?? ''),
  'shaders/solver3d-layout.wgsl',
);
const state = struct('BodyState3D');
const constraint = struct('ContactConstraint3D');
const params = struct('SolverParams3D');
const pass = struct('SolverPass3D');
const command = commandLayout(
  constants3dWgsl() +
    solverConstantsWgsl() +
    (WGSL_SOURCES['layout3d'] ?? '') +
    (WGSL_SOURCES['solver3d-layout'] ?? '') +
    (WGSL_SOURCES['commands3d'] ?? ''),
  'shaders/commands3d.wgsl',
  'BodyCommand3D',
);
/** A mat3x3f's column stride in words (vec3f columns are padded to 16 bytes). */
const COLUMN = member(state, 'invInertiaLocal').size / 12;

export const SOLVER_LAYOUT_3D = {
  state: {
    bytes: state.size,
    words: state.size / 4,
    linearVelocity: word(state, 'linearVelocity'),
    invMass: word(state, 'invMass'),
    angularVelocity: word(state, 'angularVelocity'),
    friction: word(state, 'friction'),
    localCenter: word(state, 'localCenter'),
    invInertiaLocal: word(state, 'invInertiaLocal'),
    /** Words from one matrix column to the next. */
    matrixColumn: COLUMN,
    deltaRotation: word(state, 'deltaRotation'),
  },
  constraint: { bytes: constraint.size },
  params: solverParamsWords(params),
  pass: { bytes: pass.size, color: word(pass, 'color'), mode: word(pass, 'mode') },
  /** BodyCommand3D (shaders/commands3d.wgsl): a body's impulses since the last step. */
  command,
} as const;
