// The 2D solver's buffer layouts (shaders/solver2d-layout.wgsl, solver-layout.wgsl,
// commands2d.wgsl) as word offsets for the host, reflected with wgsl_reflect: never copied by hand.

import { constantsWgsl } from '../constants.ts';
import { word } from '../layout.ts';
import { solverLayout } from './layout.ts';

const { struct, shared } = solverLayout(
  constantsWgsl(),
  ['layout2d', 'solver2d-layout', 'commands2d'],
  { constraint: 'ContactConstraint2D', command: 'BodyCommand2D' },
);
const state = struct('BodyState2D');

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
  ...shared,
} as const;
