// What the 2D and 3D solver layouts share (shaders/solver2d-layout.wgsl, solver3d-layout.wgsl):
// SolverParams2D and SolverParams3D have the same fields (gravity has 2 or 3 components), so
// one reader gives their word offsets.

import { word, type StructLayout } from '../layout.ts';

/** Word offsets of SolverParams2D / SolverParams3D. */
export interface SolverParamsWords {
  bytes: number;
  gravity: number;
  h: number;
  invH: number;
  bodyCount: number;
  countWord: number;
  contactBiasRate: number;
  contactMassScale: number;
  contactImpulseScale: number;
  staticBiasRate: number;
  staticMassScale: number;
  staticImpulseScale: number;
}

/** The word offsets of a reflected SolverParams2D / SolverParams3D. */
export function solverParamsWords(params: StructLayout): SolverParamsWords {
  return {
    bytes: params.size,
    gravity: word(params, 'gravity'),
    h: word(params, 'h'),
    invH: word(params, 'invH'),
    bodyCount: word(params, 'bodyCount'),
    countWord: word(params, 'countWord'),
    contactBiasRate: word(params, 'contactBiasRate'),
    contactMassScale: word(params, 'contactMassScale'),
    contactImpulseScale: word(params, 'contactImpulseScale'),
    staticBiasRate: word(params, 'staticBiasRate'),
    staticMassScale: word(params, 'staticMassScale'),
    staticImpulseScale: word(params, 'staticImpulseScale'),
  };
}
