// The 3D solver's buffer layouts (shaders/solver3d-layout.wgsl, solver-layout.wgsl,
// commands3d.wgsl) as word offsets for the host, reflected with wgsl_reflect: never copied by hand.

import { constants3dWgsl } from '../constants3d.ts';
import { member, word } from '../layout.ts';
import { solverLayout } from './layout.ts';

const { struct, shared } = solverLayout(
  constants3dWgsl(),
  ['layout3d', 'solver3d-layout', 'commands3d'],
  { constraint: 'ContactConstraint3D', command: 'BodyCommand3D' },
);
const state = struct('BodyState3D');
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
  ...shared,
} as const;
