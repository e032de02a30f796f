// The 2D solver's buffer layouts (shaders/solver2d-layout.wgsl) as word offsets for the host,
// reflected with wgsl_reflect: never copied by hand.

import { constantsWgsl } from '../constants.ts';
import { structLookup, word } from '../layout.ts';
import { WGSL_SOURCES } from '../gpu/shaders.generated.ts';
import { solverConstantsWgsl } from './constants.ts';
import { commandLayout } from './commands.ts';
import { solverParamsWords } from './layout.ts';

const { struct } = structLookup(
  constantsWgsl() +
    solverConstantsWgsl() +
    (WGSL_SOURCES['layout2d'] ?? '') +
    (WGSL_SOURCES['solver2d-layout'] ?? ''),
  'shaders/solver2d-layout.wgsl',
);
const state = struct('BodyState2D');
const constraint = struct('ContactConstraint2D');
const params = struct('SolverParams2D');
const pass = struct('SolverPass2D');
const command = commandLayout(
  constantsWgsl() +
    solverConstantsWgsl() +
    (WGSL_SOURCES['layout2d'] ?? '') +
    (WGSL_SOURCES['solver2d-layout'] ?? '') +
    (WGSL_SOURCES['commands2d'] ?? ''),
  'shaders/commands2d.wgsl',
  'BodyCommand2D',
);

export const SOLVER_LAYOUT_2D = {
  state: {
    bytes: state.size,
    words: state.size / 4,
    linearVelocity: word(state, 'linearVelocity'),
    angularVelocity: word(state, 'angularVelocity'),
    invMass: word(state, 'invMass'),
    localCenter: word(state, 'localCenter'),
    invInertia: word(state, 'invInertia'),
    friction: word(state, 'friction'),
    deltaPosition: word(state, 'deltaPosition'),
    deltaRotation: word(state, 'deltaRotation'),
  },
  constraint: { bytes: constraint.size },
  params: solverParamsWords(params),
  pass: { bytes: pass.size, color: word(pass, 'color'), mode: word(pass, 'mode') },
  /** BodyCommand2D (shaders/commands2d.wgsl): a body's impulses since the last step. */
  command,
} as const;
