// Every tunable of the GPU rigid-body solver (src/solver/, shaders/solver*.wgsl, coloring.wgsl),
// defined once. The shaders get the ones they need as WGSL `const`s from solverConstantsWgsl();
// the per-step numbers derived from them (softness coefficients) travel in the step's uniform.
//
// Units: lengths in scene units (metres by convention, boxes of about 1), time in seconds, mass
// from density × area (2D) or volume (3D). The solver is Box2D v3's "soft step": soft contact
// constraints (a spring-damper whose stiffness follows the substep), sub-stepping, warm starting
// from last frame's impulses, and a relax iteration without position bias.

/** Contact stiffness (Hz). Capped at a quarter of the substep rate, which stays stable. */
export const CONTACT_HERTZ = 30;

/**
 * Contact damping ratio (dimensionless): over-damped, so pushing out never bounces. Box2D uses 10;
 * 3 lets stacks settle with less sway (docs/tuning.md).
 */
export const CONTACT_DAMPING_RATIO = 3;

/** Contacts with a static body are stiffer by this factor (nothing on the other side yields). */
export const STATIC_HERTZ_SCALE = 2;

/** Substeps per step (default; WorldOptions2D.substeps overrides). */
export const SUBSTEPS = 4;

/**
 * Penetration allowed at rest (scene units): the position bias pushes out only what lies deeper.
 * 0: the soft contacts need none, and a slop lets towers sink and sway more (docs/tuning.md).
 */
export const LINEAR_SLOP = 0;

/** Largest push-out velocity (scene units / s): deep overlaps separate gently instead of exploding. */
export const MAX_PUSH_VELOCITY = 3;

/**
 * Largest rotation of a body in one substep (radians; Box2D's 0.25π), the default of a world's
 * `maxRotation`: the solver clamps every body's angular speed to maxRotation × substeps / dt,
 * 188.5 rad/s at 60 Hz and 4 substeps, so that the first-order rotation update stays close to a
 * rotation (it turns by atan(ω h), not ω h: 15% short at 0.25π).
 */
export const MAX_ROTATION = 0.25 * Math.PI;

/** The largest `maxRotation` a world takes (radians per substep): at a quarter turn the update falls 36% short. */
export const MAX_ROTATION_LIMIT = 0.5 * Math.PI;

/**
 * Largest time step (s) a world steps by. Collision is found once per step and the contact
 * stiffness is capped at a quarter of the substep rate, so long steps soften every contact: with
 * the default 4 substeps a 10-box 2D tower stands (drifts under 1 cm in 10 s) at 20 Hz and
 * collapses at 15 Hz (docs/solver-limits.md).
 */
export const MAX_TIME_STEP = 1 / 20;

/** Scale of last frame's impulses when warm starting (1: all of them). */
export const WARM_START_SCALE = 1;

/**
 * Warm-start fallback, scene units: a point whose feature id matched none of last frame's
 * points of the same pair takes the impulse of last frame's nearest point of that pair that no
 * current point matched by id, when that point was at most this far away. Coincident faces (a
 * tower of equal cubes) make a clipped corner's id flip between vertex, face and edge-crossing
 * features from frame to frame although the point stays put; without this the stack loses those
 * impulses and wobbles. While a stack settles the features in contact really change (two equal
 * squares turned by a tiny yaw meet in an octagon reduced to 4 points), so no clip id can hold
 * and the impulses lost would leave it leaning (docs/tuning.md). 0 turns it off (ids only, as
 * Box2D).
 */
export const WARM_START_MATCH_DISTANCE = 0.01;

/** Friction of a body when none is given; a pair mixes its bodies' frictions as sqrt(fA × fB). */
export const DEFAULT_FRICTION = 0.6;

/** Density of a body when none is given (0 makes a body static). */
export const DEFAULT_DENSITY = 1;

/**
 * Speculative margin of the collision frame (scene units) when none is given: contacts within it
 * are found before the shapes touch, and the solver lets them close no faster than the gap allows.
 * About what a body at 6 m/s travels in one 60 Hz frame.
 */
export const DEFAULT_MARGIN = 0.1;

/**
 * Graph-colouring rounds per step (shaders/coloring.wgsl). Each round, the uncoloured constraints
 * try a random colour of their palette and keep it where no neighbour tried the same (or they
 * hold the highest priority at their bodies); what is uncoloured after the last round joins the
 * overflow (see COLOR_COUNT). A round is four dispatches, once per step (not per substep), sized on
 * the GPU: once a round leaves nothing uncoloured the later ones dispatch no workgroup, yet each
 * still costs its dispatch overhead, so the count is a little above what piles need
 * (docs/tuning.md).
 */
export const COLOR_ROUNDS = 16;

/**
 * Colours (bits of a body's colour mask). Each colour is one indirect dispatch per solver pass
 * (warm start, solve, relax) per substep, sized on the GPU (empty colours dispatch nothing). A
 * constraint whose bodies hold all COLOR_COUNT colours already (a body with more contacts than
 * that) goes to the overflow, solved in parallel by mass splitting (overflow.wgsl), as are the few
 * left uncoloured after COLOR_ROUNDS rounds.
 */
export const COLOR_COUNT = 32;

/**
 * Colours the solver dispatches one by one beyond the most a recent step used (read back a step
 * late): a pile that grows a colour or two costs nothing, and a small scene skips most of
 * COLOR_COUNT empty indirect dispatches. The colours above are solved by one workgroup, colour
 * after colour (the same result, in parallel within each colour).
 */
export const COLOR_PASS_SLACK = 2;

/** Steps whose colour counts colorPasses follows (their maximum). */
export const COLOR_PASS_HISTORY = 8;

/**
 * Bits of the colouring priority that hold the constraint's hashed index (a grounded flag takes
 * the bit above and the round number + 1 the bits above that, so priorities only grow and the
 * per-body slots need clearing once per step: COLOR_ROUNDS < 2^(31 - COLOR_INDEX_BITS)). Caps the
 * constraints per step at 2^COLOR_INDEX_BITS.
 */
export const COLOR_INDEX_BITS = 25;

/** A constraint's colour before it has one (and after COLOR_ROUNDS rounds without: overflow). */
export const COLOR_NONE = 0xffffffff;

/** A constraint that won a round but found no free colour (overflow). */
export const COLOR_FULL = 0xfffffffe;

/**
 * Words before the constraints in the colouring's order list: the COLOR_COUNT + 1 bucket offsets
 * (the colours, then the overflow) and the constraint count.
 */
export const COLOR_ORDER_HEADER = COLOR_COUNT + 2;

/**
 * Entries of the colouring's indirect dispatch arguments (3 words each): one per colour, the
 * overflow's constraints, and the bodies that take the overflow's impulses.
 */
export const COLOR_DISPATCHES = COLOR_COUNT + 2;

/**
 * Words per body of the overflow's velocity sums (shaders/overflow.wgsl): a (low, high) pair per
 * velocity component, 2 linear + 1 angular in 2D, 3 + 3 in 3D.
 */
export const OVERFLOW_WORDS_2D = 2 * 3;
export const OVERFLOW_WORDS_3D = 2 * 6;

/** Invocations per workgroup of the solver and colouring kernels. */
export const SOLVER_WORKGROUP_SIZE = 64;

/** The solver's constants as WGSL `const` declarations; `maxRotation` is the world's (radians per substep). */
export function solverConstantsWgsl(maxRotation = MAX_ROTATION): string {
  const f = (x: number): string => (Number.isInteger(x) ? `${x}.0` : `${x}`);
  return [
    '// Generated from src/solver/constants.ts by solverConstantsWgsl(); see there for units and reasons.',
    `const LINEAR_SLOP: f32 = ${f(LINEAR_SLOP)};`,
    `const MAX_PUSH_VELOCITY: f32 = ${f(MAX_PUSH_VELOCITY)};`,
    `const MAX_ROTATION: f32 = ${f(maxRotation)};`,
    `const WARM_START_SCALE: f32 = ${f(WARM_START_SCALE)};`,
    `const WARM_START_MATCH_DISTANCE: f32 = ${f(WARM_START_MATCH_DISTANCE)};`,
    `const COLOR_ROUNDS: u32 = ${COLOR_ROUNDS}u;`,
    `const COLOR_INDEX_BITS: u32 = ${COLOR_INDEX_BITS}u;`,
    `const COLOR_NONE: u32 = ${COLOR_NONE}u;`,
    `const COLOR_FULL: u32 = ${COLOR_FULL}u;`,
    `const COLOR_COUNT: u32 = ${COLOR_COUNT}u;`,
    `const COLOR_ORDER_HEADER: u32 = ${COLOR_ORDER_HEADER}u;`,
    `const COLOR_DISPATCHES: u32 = ${COLOR_DISPATCHES}u;`,
    `const OVERFLOW_WORDS_2D: u32 = ${OVERFLOW_WORDS_2D}u;`,
    `const OVERFLOW_WORDS_3D: u32 = ${OVERFLOW_WORDS_3D}u;`,
    `const SOLVER_WORKGROUP_SIZE: u32 = ${SOLVER_WORKGROUP_SIZE}u;`,
    '',
  ].join('\n');
}

/** Box2D's soft constraint coefficients for a spring of `hertz` and `zeta` over a substep `h`. */
export interface Softness {
  biasRate: number;
  massScale: number;
  impulseScale: number;
}

export function makeSoftness(hertz: number, zeta: number, h: number): Softness {
  if (hertz === 0) return { biasRate: 0, massScale: 1, impulseScale: 0 };
  const omega = 2 * Math.PI * hertz;
  const a1 = 2 * zeta + h * omega;
  const a2 = h * omega * a1;
  const a3 = 1 / (1 + a2);
  return { biasRate: omega / a1, massScale: a2 * a3, impulseScale: a3 };
}
