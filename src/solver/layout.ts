// What the 2D and 3D solver layouts share: SolverParams and SolverPass (one definition over the
// dimension's SolverVector: shaders/solver-layout.wgsl), the constraint's size and the body
// command's words, reflected from the dimension's WGSL with wgsl_reflect (layout2d.ts, layout3d.ts).

import { WGSL_SOURCES } from '../gpu/shaders.generated.ts';
import { structLookup, word, type StructLayout } from '../layout.ts';
import { commandLayout, type CommandLayout } from './commands.ts';
import { solverConstantsWgsl } from './constants.ts';

/** Word offsets of SolverParams. */
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

/** The word offsets of a reflected SolverParams. */
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

/** What the worlds read of SOLVER_LAYOUT_2D and SOLVER_LAYOUT_3D the same way. */
export interface SolverLayout {
  state: { bytes: number };
  constraint: { bytes: number };
  params: SolverParamsWords;
  pass: { bytes: number; color: number; mode: number };
  /** A body's impulses since the last step (BodyCommand2D / BodyCommand3D). */
  command: CommandLayout;
}

/**
 * A dimension's solver structs, reflected from `constants` and its files (its solver layout before
 * solver-layout.wgsl, which needs its SolverVector), and the layouts both dimensions read the same
 * way (all of SolverLayout but the state, whose fields differ).
 */
export function solverLayout(
  constants: string,
  files: readonly [layout: string, solverLayout: string, commands: string],
  names: { constraint: string; command: string },
): { struct: (name: string) => StructLayout; shared: Omit<SolverLayout, 'state'> } {
  const [layout, dimLayout, commands] = files;
  const all = [layout, dimLayout, 'solver-layout', commands];
  const { struct } = structLookup(
    constants + solverConstantsWgsl() + all.map((f) => WGSL_SOURCES[f] ?? '').join(''),
    all.map((f) => `shaders/${f}.wgsl`).join(', '),
  );
  const pass = struct('SolverPass');
  return {
    struct,
    shared: {
      constraint: { bytes: struct(names.constraint).size },
      params: solverParamsWords(struct('SolverParams')),
      pass: { bytes: pass.size, color: word(pass, 'color'), mode: word(pass, 'mode') },
      command: commandLayout(struct(names.command)),
    },
  };
}
