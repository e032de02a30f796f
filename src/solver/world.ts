// What the 2D and 3D worlds share (src/solver/world2d.ts, world3d.ts): the body buffers the
// solver moves in place, the recording of the soft step's kernels after the collision frame and
// the colouring, and step() with its overflow handling (restore the bodies, grow, run again).

import { CapacityError, InputError, shown } from '../errors.ts';
import { checkKeys, type KeySet } from '../keys.ts';
import {
  createUniformSlots,
  dispatchRows,
  GrowingBuffer,
  PassTimer,
  readBuffer,
  UNIFORM_SLOT_BYTES,
} from '../gpu/buffers.ts';
import { CONTACTS_GROWTH } from '../constants.ts';
import { refusedCommands } from '../gpu/device.ts';
import { checkFrameTimestamps, type FrameTimestamps } from '../gpu/frame.ts';
import { compileEntryPoints, type Kernel } from '../gpu/pipelines.ts';
import { BodyStore, BODY_NONE, composeRemaps } from './body-store.ts';
import { BodyCommands } from './commands.ts';
import { GpuColoring } from './coloring.ts';
import type { SolverLayout, SolverParamsWords } from './layout.ts';
import {
  COLOR_COUNT,
  COLOR_PASS_HISTORY,
  COLOR_ROUNDS,
  COLOR_PASS_SLACK,
  CONTACT_DAMPING_RATIO,
  CONTACT_HERTZ,
  DEFAULT_DENSITY,
  DEFAULT_FRICTION,
  DEFAULT_MARGIN,
  makeSoftness,
  MAX_ROTATION,
  MAX_ROTATION_LIMIT,
  MAX_TIME_STEP,
  SOLVER_WORKGROUP_SIZE,
  STATIC_HERTZ_SCALE,
  SUBSTEPS,
} from './constants.ts';

/** A finite number >= min, or an InputError naming `path`. */
export function checkNumber(path: string, what: string, x: unknown, min = -Infinity): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < min)
    throw new InputError(
      path,
      `${what} must be a finite number${min > -Infinity ? ` >= ${min}` : ''}, got ${shown(x)}`,
    );
  return x;
}

/** Both worlds' create(): non-empty shape and body arrays, or an InputError naming which. */
export function checkWorldArrays(shapes: unknown, bodies: unknown): void {
  if (!Array.isArray(shapes) || shapes.length === 0)
    throw new InputError('shapes', 'must be a non-empty array');
  if (!Array.isArray(bodies) || bodies.length === 0)
    throw new InputError('bodies', 'must be a non-empty array');
}

const MASS_HINT = 'a body\'s mass comes from its shape and "density" (0: static)';

/** The keys a world body takes (src/keys.ts: any other is an error), per dimension. */
export const WORLD_BODY_KEYS_2D: KeySet = {
  what: 'a 2D world body',
  keys: ['shape', 'position', 'angle', 'velocity', 'angularVelocity', 'density', 'friction'],
  hints: {
    mass: MASS_HINT,
    rotation: 'a 2D body turns by "angle", in radians; "rotation", a quaternion, is for 3D',
  },
};
export const WORLD_BODY_KEYS_3D: KeySet = {
  what: 'a 3D world body',
  keys: ['shape', 'position', 'rotation', 'velocity', 'angularVelocity', 'density', 'friction'],
  hints: {
    mass: MASS_HINT,
    angle: 'a 3D body turns by "rotation", a unit quaternion [x, y, z, w]; "angle" is for 2D',
  },
};

/** A world body is an object of known keys, or an InputError naming it. */
export function checkWorldBody(path: string, b: unknown, keys: KeySet): void {
  if (typeof b !== 'object' || b === null)
    throw new InputError(path, `must be an object, got ${shown(b)}`);
  checkKeys(path, b, keys);
}

/** The options both worlds take besides gravity. */
export interface WorldOptions {
  /** Speculative margin of the collision frame (scene units); default DEFAULT_MARGIN. */
  margin?: number;
  /** Default SUBSTEPS. */
  substeps?: number;
  /**
   * Largest rotation of a body in one substep (radians, > 0 and at most MAX_ROTATION_LIMIT, π/2);
   * default MAX_ROTATION (π/4). Angular speeds are clamped to maxRotation × substeps / dt.
   */
  maxRotation?: number;
  /**
   * What the world's collision frame times (GpuFrame2D/3D.create's `timestamps`: true, 'span' or
   * false); default true where the device has the 'timestamp-query' feature.
   */
  timestamps?: FrameTimestamps;
}

/**
 * The margin, substep count, rotation clamp and frame timing of a world's options (whose keys are
 * checked), with their defaults; the timing is checked against `device`.
 */
export function readWorldOptions(device: GPUDevice, options: WorldOptions): Required<WorldOptions> {
  checkKeys('options', options, {
    what: "a world's options",
    keys: ['gravity', 'margin', 'substeps', 'maxRotation', 'timestamps'],
  });
  const margin =
    options.margin === undefined
      ? DEFAULT_MARGIN
      : checkNumber('options', 'margin', options.margin, 0);
  const substeps = options.substeps ?? SUBSTEPS;
  if (!Number.isInteger(substeps) || substeps < 1)
    throw new InputError('options', `substeps must be an integer >= 1, got ${substeps}`);
  const maxRotation = options.maxRotation ?? MAX_ROTATION;
  if (!(typeof maxRotation === 'number' && maxRotation > 0 && maxRotation <= MAX_ROTATION_LIMIT)) {
    throw new InputError(
      'options',
      `maxRotation must be a number of radians per substep > 0 and at most ${MAX_ROTATION_LIMIT} (π/2), got ${shown(maxRotation)}`,
    );
  }
  const timestamps = checkFrameTimestamps(device, options.timestamps, 'options.timestamps');
  return { margin, substeps, maxRotation, timestamps };
}

/** The label of a world's solver kernels: the WGSL differs with the rotation clamp, so the compiled kernels do too. */
export function solverLabel(base: string, maxRotation: number): string {
  return maxRotation === MAX_ROTATION ? base : `${base}.maxRotation=${maxRotation}`;
}

/** A time step a world takes, else a RangeError naming the bound (the limits: README, docs/solver-limits.md). */
export function checkTimeStep(dt: number): void {
  if (!(dt > 0) || !Number.isFinite(dt))
    throw new RangeError(`dt must be a finite number > 0, got ${dt}`);
  if (dt > MAX_TIME_STEP) {
    throw new RangeError(
      `dt is ${dt} s; a step is at most MAX_TIME_STEP = ${MAX_TIME_STEP} s (20 Hz): longer steps soften every contact until stacks collapse. Step several times instead.`,
    );
  }
}

/** A body's shape index (into `shapeCount` shapes), or an InputError naming the body. */
export function checkBodyShape(path: string, shape: number, shapeCount: number): void {
  if (!Number.isInteger(shape) || shape < 0 || shape >= shapeCount)
    throw new InputError(
      path,
      `shape must be an index into the ${shapeCount} shapes, got ${shape}`,
    );
}

/** A body's density and friction, checked, with their defaults. */
export function readBodyMaterial(
  path: string,
  b: { density?: number; friction?: number },
): { density: number; friction: number } {
  const density =
    b.density === undefined ? DEFAULT_DENSITY : checkNumber(path, 'density', b.density, 0);
  const friction =
    b.friction === undefined ? DEFAULT_FRICTION : checkNumber(path, 'friction', b.friction, 0);
  return { density, friction };
}

/** The step's substep, and the softness of dynamic and static contacts for it. */
export function stepSoftness(
  dt: number,
  substeps: number,
): {
  h: number;
  contact: ReturnType<typeof makeSoftness>;
  static: ReturnType<typeof makeSoftness>;
} {
  const h = dt / substeps;
  // Stiffer than a quarter of the substep rate is not stable.
  const hertz = Math.min(CONTACT_HERTZ, 0.25 / h);
  return {
    h,
    contact: makeSoftness(hertz, CONTACT_DAMPING_RATIO, h),
    static: makeSoftness(STATIC_HERTZ_SCALE * hertz, CONTACT_DAMPING_RATIO, h),
  };
}

/** A step's SolverParams as bytes: gravity (2 or 3 components), substep, contact softness. */
function stepParamsBytes(
  P: SolverParamsWords,
  dt: number,
  substeps: number,
  gravity: readonly number[],
  bodyCount: number,
  countWord: number,
): ArrayBuffer {
  const { h, contact, static: hard } = stepSoftness(dt, substeps);
  const buf = new ArrayBuffer(P.bytes);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  f.set(gravity, P.gravity);
  f[P.h] = h;
  f[P.invH] = 1 / h;
  u[P.bodyCount] = bodyCount;
  u[P.countWord] = countWord;
  f[P.contactBiasRate] = contact.biasRate;
  f[P.contactMassScale] = contact.massScale;
  f[P.contactImpulseScale] = contact.impulseScale;
  f[P.staticBiasRate] = hard.biasRate;
  f[P.staticMassScale] = hard.massScale;
  f[P.staticImpulseScale] = hard.impulseScale;
  return buf;
}

/**
 * The kernels of one dimension's soft step, in shaders/solver.wgsl's order (solve runs the relax's
 * colours too, the mode in its uniform slot); tail, overflow and overflowApply run after the
 * colours of each of warm start, solve and relax; commands (impulses and forces the host gave)
 * before the step.
 */
export const SOLVER_STAGES = [
  'begin',
  'prepare',
  'integrateVelocities',
  'warmStart',
  'solve',
  'integratePositions',
  'store',
  'tail',
  'overflow',
  'overflowApply',
  'commands',
] as const;
export type SolverStage = (typeof SOLVER_STAGES)[number];

export interface SolverKernels {
  kernels: Record<SolverStage, Kernel>;
  /** The bindings of each kernel's auto layout (reflected from the WGSL). */
  bindings: Record<SolverStage, number[]>;
}

/** What the worlds need of a collision frame (GpuFrame2D, GpuFrame3D). */
export interface FrameCountsLike {
  pairs: number;
  pairsOverflow: boolean;
  contacts: number;
  contactsOverflow: boolean;
}
export interface ContactsOutputsLike {
  contacts: GPUBuffer;
  /** Entries per binding of `contacts` (a longer list is paged; the solver refuses it). */
  pageEntries?: number;
  keys: GPUBuffer;
  userValues: GPUBuffer;
  counts: GPUBuffer;
  capacity: number;
}
export interface FrameLike<
  I,
  O extends { contacts: ContactsOutputsLike },
  C extends FrameCountsLike,
> {
  encode(encoder: GPUCommandEncoder, inputs: I, retry?: boolean): O;
  readCounts(): Promise<C>;
  /** Forgets the frames before: the next one carries nothing over. */
  reset(): void;
  readonly broadphase: { setCapacity(pairs: number): void };
  readonly contacts: {
    setCapacity(entries: number): void;
    lastOutputs(): { contacts: GPUBuffer; userValues: GPUBuffer } | null;
  };
  destroy(): void;
}

// Bindings of shaders/solver.wgsl (7, 11: overflow.wgsl; 12: commands2d/3d.wgsl).
const B = {
  params: 0,
  pass: 1,
  bodies: 2,
  states: 3,
  contacts: 4,
  userValues: 5,
  constraints: 6,
  splits: 7,
  order: 8,
  prevContacts: 9,
  prevUserValues: 10,
  overflowSums: 11,
  commands: 12,
} as const;

/** Modes of the kernels that serve the three colour passes (SolverPass.mode). */
const PASS_MODES = { warmStart: 0, solve: 1, relax: 2 } as const;

/** The kernel that runs a colour pass: the relax is the solve without bias (SolverPass.mode). */
const KERNEL_OF_PASS = { warmStart: 'warmStart', solve: 'solve', relax: 'solve' } as const;

/** The uniform slot of SolverPass { color, mode }: 2 × COLOR_COUNT colour values per mode. */
function passSlot(color: number, mode: number): number {
  return mode * 2 * COLOR_COUNT + color;
}

/** Bound as last frame's list before there is one (never read then: no entry has a previous). */
const PLACEHOLDER_BYTES = 4096;

/** World bodies packed for the GPU: Body2D / Body3D, their states and dynamic flags. */
export interface PackedWorldBodies {
  bodies: ArrayBuffer;
  states: ArrayBuffer;
  dynamic: Uint32Array;
}

export abstract class SolverWorld<
  I,
  O extends { contacts: ContactsOutputsLike },
  C extends FrameCountsLike,
  BodyInput,
> {
  readonly substeps: number;
  readonly margin: number;
  /** Largest rotation of a body in one substep (radians): angular speeds are clamped to maxRotation × substeps / dt. */
  readonly maxRotation: number;
  /** Gravity (2 or 3 components; the subclass's, typed). */
  abstract readonly gravity: readonly number[];
  protected readonly store: BodyStore;
  protected readonly commands: BodyCommands;
  protected readonly params: GPUBuffer;
  private readonly passes: GPUBuffer;
  private readonly constraints: GrowingBuffer;
  /** This step's body commands (impulses and forces), written with queue.writeBuffer. */
  private readonly commandList: GrowingBuffer;
  /** Bodies renumbered since the last step (added, removed): what the next frame's remap says. */
  private remap: Uint32Array | null = null;
  /** The overflow's per-body velocity sums (shaders/overflow.wgsl; zero between passes; grows with the bodies). */
  private readonly overflowSums: GrowingBuffer;
  private last: O | null = null;
  /** The last step's per-constraint colours (for readColorStats). */
  private lastColors: GPUBuffer | null = null;
  private lastColorSizes: GPUBuffer | null = null;
  /** Last frame's list and user values, as the frame's persistence read them (kept for reruns). */
  private previous: { contacts: GPUBuffer; userValues: GPUBuffer } | null = null;
  private readonly placeholder: GPUBuffer;
  /** GPU timestamps of the colouring and solver passes (benches), or null. */
  private timer: PassTimer | null = null;
  /**
   * Bind groups by stage and colour for the last few sets of buffers (the frame alternates its
   * lists, so consecutive steps differ in which is last frame's): recreating them every step costs
   * hundreds of createBindGroup calls.
   */
  private groupCaches: { key: GPUBuffer[]; groups: Map<string, GPUBindGroup> }[] = [];
  /**
   * Colours dispatched one by one per solver pass; the rest go to the tail, one workgroup colour
   * after colour, which gives the same result (a colour's constraints share no dynamic body), with
   * less parallelism. Starts at COLOR_COUNT; then the most colours of the last few steps read back
   * (a step late, from colorReadbacks) plus COLOR_PASS_SLACK, so a small scene does not pay
   * COLOR_COUNT empty indirect dispatches per pass and substep.
   */
  private colorPasses = COLOR_COUNT;
  /** colorPasses fixed by pinColorPasses (tests, benches), or null to follow the readbacks. */
  private pinnedColorPasses: number | null = null;
  private readonly colorReadbacks: { buffer: GPUBuffer; state: 'free' | 'encoded' | 'mapping' }[];
  private recentColors: number[] = [];
  /** collideAfreshNext() was called; the step being recorded (and its reruns) collides anew. */
  private afresh = false;
  private stepAfresh = false;

  protected constructor(
    readonly device: GPUDevice,
    readonly frame: FrameLike<I, O, C>,
    private readonly coloring: GpuColoring,
    private readonly solver: SolverKernels,
    options: Required<WorldOptions>,
    /** SOLVER_LAYOUT_2D / SOLVER_LAYOUT_3D, and the rest of what differs with the dimension. */
    private readonly layout: SolverLayout & {
      overflowWords: number;
      countWord: number;
      label: string;
      bodyBytes: number;
      dim: 2 | 3;
    },
    { bodies, states, dynamic }: PackedWorldBodies,
  ) {
    this.substeps = options.substeps;
    this.margin = options.margin;
    this.maxRotation = options.maxRotation;
    const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    this.store = new BodyStore(
      device,
      layout.label,
      layout.bodyBytes,
      layout.state.bytes,
      bodies,
      states,
      dynamic,
    );
    this.commands = new BodyCommands(layout.dim, layout.command);
    this.constraints = new GrowingBuffer(device, STORAGE, `${layout.label}-constraints`);
    this.commandList = new GrowingBuffer(
      device,
      GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      `${layout.label}-commands`,
    );
    this.overflowSums = new GrowingBuffer(device, STORAGE, `${layout.label}-overflow-sums`);
    this.colorReadbacks = Array.from({ length: 3 }, (_, i) => ({
      buffer: device.createBuffer({
        label: `${layout.label}-color-readback-${i}`,
        size: 4 * COLOR_COUNT,
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      }),
      state: 'free' as const,
    }));
    this.placeholder = device.createBuffer({
      label: `${layout.label}-placeholder`,
      size: PLACEHOLDER_BYTES,
      usage: GPUBufferUsage.STORAGE,
    });
    this.params = createUniformSlots(device, `${layout.label}-params`, 1);
    // Per mode, colour k < COLOR_COUNT: colour k; COLOR_COUNT + p: the tail from colour p on.
    const slots = passSlot(0, Object.keys(PASS_MODES).length);
    this.passes = createUniformSlots(device, `${layout.label}-passes`, slots);
    const words = new Uint32Array((slots * UNIFORM_SLOT_BYTES) / 4);
    for (const mode of Object.values(PASS_MODES)) {
      for (let k = 0; k < 2 * COLOR_COUNT; k++) {
        words[(passSlot(k, mode) * UNIFORM_SLOT_BYTES) / 4 + layout.pass.color] = k;
        words[(passSlot(k, mode) * UNIFORM_SLOT_BYTES) / 4 + layout.pass.mode] = mode;
      }
    }
    device.queue.writeBuffer(this.passes, 0, words);
  }

  /** array<Body2D> / array<Body3D>: the bodies the solver moves in place (replaced when addBodies() grows it). */
  get bodies(): GPUBuffer {
    return this.store.bodies;
  }

  /** The solver's per-body states (velocities, masses; replaced with the bodies). */
  get states(): GPUBuffer {
    return this.store.states;
  }

  get bodyCount(): number {
    return this.store.count;
  }

  /** A buffer holding `data` (at least 16 bytes). */
  protected upload(name: string, data: ArrayBuffer | ArrayBufferView, usage: number): GPUBuffer {
    const b = this.device.createBuffer({
      label: `${this.layout.label}-${name}`,
      size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
      usage: usage | GPUBufferUsage.COPY_DST,
    });
    if (ArrayBuffer.isView(data))
      this.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    else this.device.queue.writeBuffer(b, 0, data);
    return b;
  }

  /** The collision frame's inputs (the world's shapes and bodies; public for benches). */
  abstract frameInputs(): I;
  /** Bodies as create() takes them, packed; InputErrors name `path[i]`. */
  protected abstract packBodies(bodies: BodyInput[], path: string): PackedWorldBodies;

  /**
   * The next step's collision frame collides every pair anew, reusing no manifold from the frame
   * before (its reruns after an overflow too): what a check against the CPU reference compares.
   */
  collideAfreshNext(): void {
    this.afresh = true;
  }

  /**
   * Records one step of `dt` seconds into `encoder`, with no readback: the collision frame on the
   * current bodies, the colouring, and the soft step. Submit it before the next encodeStep(). When
   * the frame's buffers overflowed, this step solved the contacts that fit: read the counts a
   * frame late (readCounts()) and grow(counts).
   */
  encodeStep(encoder: GPUCommandEncoder, dt: number, retry = false): O {
    checkTimeStep(dt);
    // A rerun reads the same last frame as the first run did.
    if (!retry) {
      this.previous = this.frame.contacts.lastOutputs();
      this.stepAfresh = this.afresh;
      this.afresh = false;
    }
    this.encodeCommands(encoder, dt);
    const out = this.encodeFrame(encoder, retry);
    const capacity = out.contacts.capacity;
    this.checkSolverCapacity(out.contacts);
    const constraints = this.constraints.ensure(capacity * this.layout.constraint.bytes);
    this.device.queue.writeBuffer(
      this.params,
      0,
      stepParamsBytes(
        this.layout.params,
        dt,
        this.substeps,
        this.gravity,
        this.bodyCount,
        this.layout.countWord,
      ),
    );
    this.mapColorReadbacks();
    const coloring = this.encodeColoring(encoder, out.contacts);
    const resources = this.solverResources(out.contacts, constraints, coloring);
    const bindGroup = this.solverBindGroups(resources);
    this.recordSolverPass(encoder, bindGroup, coloring.dispatch, capacity);
    this.timer?.resolve(encoder);
    return out;
  }

  /** Records the collision frame on the current bodies (the pending remap, unless a rerun). */
  private encodeFrame(encoder: GPUCommandEncoder, retry: boolean): O {
    let inputs = this.frameInputs();
    if (this.remap && !retry) inputs = { ...inputs, remap: this.remap };
    if (this.stepAfresh) inputs = { ...inputs, reuse: false };
    const out = this.frame.encode(encoder, inputs, retry);
    if (!retry) this.remap = null;
    this.last = out;
    return out;
  }

  /** The solver binds the dense list and its constraints whole (the frame could page a longer list). */
  private checkSolverCapacity(contacts: ContactsOutputsLike): void {
    const capacity = contacts.capacity;
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (
      capacity > (contacts.pageEntries ?? capacity) ||
      capacity * this.layout.constraint.bytes > limit
    ) {
      throw new CapacityError(
        `${this.layout.label}: ${capacity} contacts need ${capacity * this.layout.constraint.bytes} bytes of constraints and one binding for the contact list; this device binds at most ${limit} bytes per buffer. Simulate fewer bodies per world.`,
      );
    }
  }

  /** Colours the frame's contacts and, where a readback is free, copies the colour sizes to it. */
  private encodeColoring(encoder: GPUCommandEncoder, contacts: ContactsOutputsLike) {
    const coloring = this.coloring.encode(
      encoder,
      {
        pairs: contacts.keys,
        counts: contacts.counts,
        countWord: this.layout.countWord,
        capacity: contacts.capacity,
        dynamicBodies: this.store.dynamicBodies,
        bodyCount: this.bodyCount,
      },
      this.timer?.passDescriptor('coloring', `${this.layout.label}.coloring`),
    );
    this.lastColors = coloring.colors;
    this.lastColorSizes = coloring.sizes;
    const readback = this.colorReadbacks.find((r) => r.state === 'free');
    if (readback) {
      encoder.copyBufferToBuffer(coloring.sizes, 0, readback.buffer, 0, 4 * COLOR_COUNT);
      readback.state = 'encoded';
    }
    return coloring;
  }

  /** The solver kernels' buffers by binding number. */
  private solverResources(
    contacts: ContactsOutputsLike,
    constraints: GPUBuffer,
    coloring: { splits: GPUBuffer; order: GPUBuffer },
  ): Record<number, GPUBufferBinding> {
    return {
      [B.params]: { buffer: this.params, offset: 0, size: this.layout.params.bytes },
      [B.bodies]: { buffer: this.bodies },
      [B.states]: { buffer: this.states },
      [B.contacts]: { buffer: contacts.contacts },
      [B.userValues]: { buffer: contacts.userValues },
      [B.constraints]: { buffer: constraints },
      [B.splits]: { buffer: coloring.splits },
      [B.order]: { buffer: coloring.order },
      [B.prevContacts]: { buffer: this.previous?.contacts ?? this.placeholder },
      [B.prevUserValues]: { buffer: this.previous?.userValues ?? this.placeholder },
      [B.overflowSums]: {
        buffer: this.overflowSums.ensure(4 * this.layout.overflowWords * this.bodyCount),
      },
    };
  }

  /**
   * A bind group per stage and uniform slot, cached per set of buffers (the last four sets) so a
   * step on unchanged buffers creates none.
   */
  private solverBindGroups(
    resources: Record<number, GPUBufferBinding>,
  ): (stage: SolverStage, slot?: number) => GPUBindGroup {
    const { kernels, bindings } = this.solver;
    const key = Object.values(resources).map((r) => r.buffer);
    let cache = this.groupCaches.find(
      (c) => c.key.length === key.length && c.key.every((k, i) => k === key[i]),
    );
    if (!cache) {
      cache = { key, groups: new Map() };
      this.groupCaches = [cache, ...this.groupCaches.slice(0, 3)];
    }
    const groupsOf = cache.groups;
    // `slot`: the SolverPass uniform slot (passSlot) the stage reads.
    return (stage: SolverStage, slot = 0): GPUBindGroup => {
      const id = `${stage}:${slot}`;
      let group = groupsOf.get(id);
      if (!group) {
        group = this.device.createBindGroup({
          label: `${this.layout.label}.${stage}`,
          layout: kernels[stage].layout,
          entries: bindings[stage].map((b) => ({
            binding: b,
            resource:
              b === B.pass
                ? {
                    buffer: this.passes,
                    offset: slot * UNIFORM_SLOT_BYTES,
                    size: this.layout.pass.bytes,
                  }
                : resources[b],
          })),
        });
        groupsOf.set(id, group);
      }
      return group;
    };
  }

  /** Records the solver pass: begin, prepare, then per substep integrate, warm start, solve, relax. */
  private recordSolverPass(
    encoder: GPUCommandEncoder,
    bindGroup: (stage: SolverStage, slot?: number) => GPUBindGroup,
    dispatch: GPUBuffer,
    capacity: number,
  ): void {
    const { kernels } = this.solver;
    const passes = this.pinnedColorPasses ?? this.colorPasses;
    const contactGroups = Math.ceil(capacity / SOLVER_WORKGROUP_SIZE);
    const bodyGroups = Math.ceil(this.bodyCount / SOLVER_WORKGROUP_SIZE);
    const pass = encoder.beginComputePass(
      this.timer?.passDescriptor('solver', `${this.layout.label}.solver`) ?? {
        label: `${this.layout.label}.solver`,
      },
    );
    const run = (stage: SolverStage, groups: number, group: GPUBindGroup): void => {
      pass.setPipeline(kernels[stage].pipeline);
      pass.setBindGroup(0, group);
      dispatchRows(pass, groups);
    };
    // One colour per dispatch, sized on the GPU to that colour's constraints (an empty colour
    // dispatches no workgroup); colours `passes` and up in one workgroup (the tail); then the
    // overflow and its bodies, sized on the GPU (nothing when there is no overflow).
    const indirect = (stage: SolverStage, group: GPUBindGroup, entry: number): void => {
      pass.setPipeline(kernels[stage].pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroupsIndirect(dispatch, 12 * entry);
    };
    const colored = (stage: keyof typeof PASS_MODES): (() => void) => {
      const mode = PASS_MODES[stage];
      const groups = Array.from({ length: passes }, (_, c) =>
        bindGroup(KERNEL_OF_PASS[stage], passSlot(c, mode)),
      );
      const tail =
        passes < COLOR_COUNT ? bindGroup('tail', passSlot(COLOR_COUNT + passes, mode)) : null;
      const overflow = bindGroup('overflow', passSlot(0, mode));
      const apply = bindGroup('overflowApply');
      return () => {
        pass.setPipeline(kernels[KERNEL_OF_PASS[stage]].pipeline);
        for (let c = 0; c < passes; c++) {
          pass.setBindGroup(0, groups[c]);
          pass.dispatchWorkgroupsIndirect(dispatch, 12 * c);
        }
        if (tail) run('tail', 1, tail);
        indirect('overflow', overflow, COLOR_COUNT);
        indirect('overflowApply', apply, COLOR_COUNT + 1);
      };
    };
    const [warmStart, solve, relax] = [colored('warmStart'), colored('solve'), colored('relax')];
    const integrateVelocities = bindGroup('integrateVelocities');
    const integratePositions = bindGroup('integratePositions');
    // Begin first: it sets the world inertia (3D) that prepare's effective masses use.
    run('begin', bodyGroups, bindGroup('begin'));
    run('prepare', contactGroups, bindGroup('prepare'));
    for (let s = 0; s < this.substeps; s++) {
      run('integrateVelocities', bodyGroups, integrateVelocities);
      warmStart();
      solve();
      run('integratePositions', bodyGroups, integratePositions);
      relax();
    }
    run('store', contactGroups, bindGroup('store'));
    pass.end();
  }

  /**
   * Maps the colour-size readbacks encoded by earlier steps (submitted by now: encodeStep's
   * contract) and, as they arrive, sets colorPasses from the most colours of the last few steps.
   */
  private mapColorReadbacks(): void {
    for (const r of this.colorReadbacks) {
      if (r.state !== 'encoded') continue;
      r.state = 'mapping';
      r.buffer.mapAsync(GPUMapMode.READ).then(
        () => {
          const sizes = new Uint32Array(r.buffer.getMappedRange(0, 4 * COLOR_COUNT));
          let used = 0;
          sizes.forEach((n, k) => {
            if (n > 0) used = k + 1;
          });
          r.buffer.unmap();
          r.state = 'free';
          this.recentColors = [used, ...this.recentColors.slice(0, COLOR_PASS_HISTORY - 1)];
          this.colorPasses = Math.min(
            COLOR_COUNT,
            Math.max(...this.recentColors) + COLOR_PASS_SLACK,
          );
        },
        () => {
          // Destroyed or device lost: keep dispatching every colour.
        },
      );
    }
  }

  /**
   * Fixes how many colours later steps dispatch one by one (0 to COLOR_COUNT; the tail solves the
   * rest), or null to follow the colours recent steps used. For tests and benches: the bodies do
   * not depend on it.
   */
  pinColorPasses(passes: number | null): void {
    if (passes !== null && !(Number.isInteger(passes) && passes >= 0 && passes <= COLOR_COUNT)) {
      throw new RangeError(
        `colour passes must be an integer in [0, ${COLOR_COUNT}] or null, got ${passes}`,
      );
    }
    this.pinnedColorPasses = passes;
  }

  /** The counts of the last submitted step's collision frame (a readback). */
  readCounts(): Promise<C> {
    return this.frame.readCounts();
  }

  /** The raw body bytes (array<Body2D> or array<Body3D>; for determinism checks). */
  readBodyBytes(): Promise<ArrayBuffer> {
    return readBuffer(this.device, this.bodies, this.bodyCount * this.layout.bodyBytes);
  }

  /** The raw body-state bytes (array<BodyState2D> or array<BodyState3D>); impulses given since the last step applied first. */
  readStateBytes(): Promise<ArrayBuffer> {
    if (this.commands.pending) {
      const encoder = this.device.createCommandEncoder({ label: `${this.layout.label}.commands` });
      this.encodeCommands(encoder, 0);
      this.device.queue.submit([encoder.finish()]);
    }
    return readBuffer(this.device, this.states, this.bodyCount * this.layout.state.bytes);
  }

  /** A body index of this world, or an InputError naming `what`. */
  protected checkBody(what: string, index: number, dynamicOnly = false): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.bodyCount)
      throw new InputError(
        what,
        `must be a body index in 0..${this.bodyCount - 1}, got ${shown(index)}`,
      );
    if (dynamicOnly && this.store.dynamic[index] === 0)
      throw new InputError(what, `body ${index} is static (density 0): it never moves`);
  }

  /** A vector of the world's dimension (finite numbers), or an InputError naming `what`. */
  protected checkVector(what: string, v: unknown): number[] {
    const d = this.layout.dim;
    if (
      !Array.isArray(v) ||
      v.length !== d ||
      !v.every((x) => typeof x === 'number' && Number.isFinite(x))
    ) {
      throw new InputError(what, `must be ${d} finite numbers, got ${shown(v)}`);
    }
    return v as number[];
  }

  /**
   * An impulse (mass × scene units / s) on a dynamic body at `point` (world; default its centre
   * of mass), applied at the start of the next step (and before readVelocities()).
   */
  applyImpulse(index: number, impulse: readonly number[], point?: readonly number[]): void {
    this.checkBody('applyImpulse', index, true);
    this.commands.impulse(
      index,
      this.checkVector('applyImpulse: impulse', impulse),
      point === undefined ? undefined : this.checkVector('applyImpulse: point', point),
    );
  }

  /** A force on a dynamic body at `point` (world; default its centre of mass), over the next step only. */
  applyForce(index: number, force: readonly number[], point?: readonly number[]): void {
    this.checkBody('applyForce', index, true);
    this.commands.force(
      index,
      this.checkVector('applyForce: force', force),
      point === undefined ? undefined : this.checkVector('applyForce: point', point),
    );
  }

  /** The impulses and forces given since the last step, applied (a step of `dt` for the forces). */
  private encodeCommands(encoder: GPUCommandEncoder, dt: number): void {
    const bytes = this.commands.take(dt);
    if (!bytes) return;
    const list = this.commandList.ensure(bytes.byteLength);
    this.device.queue.writeBuffer(list, 0, bytes);
    const { kernels, bindings } = this.solver;
    const resources: Record<number, GPUBufferBinding> = {
      [B.bodies]: { buffer: this.bodies },
      [B.states]: { buffer: this.states },
      [B.commands]: { buffer: list, size: bytes.byteLength },
    };
    const pass = encoder.beginComputePass({ label: `${this.layout.label}.commands` });
    pass.setPipeline(kernels.commands.pipeline);
    pass.setBindGroup(
      0,
      this.device.createBindGroup({
        layout: kernels.commands.layout,
        entries: bindings.commands.map((b) => ({ binding: b, resource: resources[b] })),
      }),
    );
    pass.dispatchWorkgroups(
      Math.ceil(bytes.byteLength / this.layout.command.bytes / SOLVER_WORKGROUP_SIZE),
    );
    pass.end();
  }

  /**
   * Removes bodies (distinct indices); the others keep their order and take indices 0, 1, …
   * Contacts between the bodies that stay persist (the next frame gets the renumbering). The
   * body and state buffers stay the same.
   */
  removeBodies(indices: readonly number[]): void {
    const seen = new Set<number>();
    indices.forEach((i, k) => {
      this.checkBody(`removeBodies[${k}]`, i);
      if (seen.has(i)) throw new InputError(`removeBodies[${k}]`, `body ${i} is listed twice`);
      seen.add(i);
    });
    if (seen.size === this.bodyCount)
      throw new InputError('removeBodies', 'would remove every body; a world keeps at least one');
    const remap = this.store.remove(indices);
    this.commands.renumber(remap);
    this.remap = composeRemaps(this.remap, remap);
  }

  /** Adds bodies (as create() takes them) after the others; returns their indices. */
  addBodies(added: BodyInput[]): number[] {
    if (!Array.isArray(added))
      throw new InputError('addBodies', `must be an array of bodies, got ${typeof added}`);
    const { bodies, states, dynamic } = this.packBodies(added, 'addBodies');
    const first = this.bodyCount;
    this.remap = composeRemaps(this.remap, this.store.append(bodies, states, dynamic));
    return Array.from({ length: dynamic.length }, (_, k) => first + k);
  }

  /** Whether a body index names a body that was there at the last step (not one added since). */
  protected existedAtLastStep(index: number): boolean {
    return !this.remap || this.remap[index] !== BODY_NONE;
  }

  /** Grows the frame's buffers after a step whose counts overflowed (from readCounts()). */
  grow(counts: FrameCountsLike): void {
    if (counts.pairsOverflow)
      this.frame.broadphase.setCapacity(Math.ceil(counts.pairs * CONTACTS_GROWTH));
    if (counts.contactsOverflow)
      this.frame.contacts.setCapacity(Math.ceil(counts.contacts * CONTACTS_GROWTH));
  }

  /**
   * One step with readback: when the frame overflowed, the bodies are restored, the buffers grow
   * and the step runs again, so no contact is dropped. Resolves to the frame's counts.
   */
  async step(dt: number): Promise<C> {
    for (let runs = 0; ; runs++) {
      // As the frame's step(): what the device refuses is reported, not read from stale counts.
      const label = this.layout.label;
      const refused = refusedCommands(this.device, label, "the step's commands", () => {
        const encoder = this.device.createCommandEncoder({ label: `${label}.step` });
        // Impulses before the backup, so that a rerun keeps them.
        if (runs === 0) this.encodeCommands(encoder, dt);
        // The first run keeps the bodies; a rerun starts from them again.
        const st = this.store;
        const copies: [GPUBuffer, GPUBuffer][] =
          runs === 0
            ? [
                [st.bodies, st.bodiesBackup],
                [st.states, st.statesBackup],
              ]
            : [
                [st.bodiesBackup, st.bodies],
                [st.statesBackup, st.states],
              ];
        for (const [src, dst] of copies) encoder.copyBufferToBuffer(src, 0, dst, 0, src.size);
        this.encodeStep(encoder, dt, runs > 0);
        this.device.queue.submit([encoder.finish()]);
      });
      const counts = await this.readCounts();
      const refusal = await refused;
      if (refusal) {
        // The refused commands did not run; the frame forgets the frames before (its state
        // moved on to a frame that never ran).
        this.frame.reset();
        throw refusal;
      }
      if (!counts.pairsOverflow && !counts.contactsOverflow) return counts;
      if (runs >= 4)
        throw new CapacityError(
          `${this.layout.label}: the collision frame still overflowed after ${runs + 1} runs (${JSON.stringify(counts)})`,
        );
      this.grow(counts);
    }
  }

  /**
   * Times the colouring and solver passes of later steps with GPU timestamps (the device needs
   * 'timestamp-query'); readPassTimes() after a step gives their milliseconds.
   */
  enablePassTimes(): void {
    this.timer ??= new PassTimer(this.device, ['coloring', 'solver']);
  }

  /** The last step's colouring and solver pass times (ms), or null when not enabled. */
  async readPassTimes(): Promise<{ coloring: number; solver: number } | null> {
    if (!this.timer) return null;
    const t = await this.timer.read();
    return { coloring: t.coloring!, solver: t.solver! };
  }

  /**
   * The last submitted step's colouring (a readback, for benches and tests): constraints, colours
   * used (and constraints per colour), how many were left uncoloured (the overflow, solved by mass
   * splitting), and the colouring rounds that had work.
   */
  async readColorStats(): Promise<{
    constraints: number;
    colors: number;
    overflow: number;
    sizes: number[];
    rounds: number;
  }> {
    const counts = await this.readCounts();
    const n = Math.min(counts.contacts, this.last?.contacts.capacity ?? 0);
    if (!this.lastColors || !this.lastColorSizes || n === 0)
      return { constraints: n, colors: 0, overflow: 0, sizes: [], rounds: 0 };
    const flags = new Uint32Array(
      await readBuffer(this.device, this.lastColorSizes, 4 * COLOR_ROUNDS, 4 * COLOR_COUNT),
    );
    const rounds = Math.min(COLOR_ROUNDS, 1 + flags.filter((f) => f !== 0).length);
    const colors = new Uint32Array(await readBuffer(this.device, this.lastColors, 4 * n));
    const sizes: number[] = [];
    let overflow = 0;
    for (const c of colors) {
      if (c >= COLOR_COUNT) overflow++;
      else sizes[c] = (sizes[c] ?? 0) + 1;
    }
    return {
      constraints: n,
      colors: sizes.length,
      overflow,
      sizes: Array.from(sizes, (x) => x ?? 0),
      rounds,
    };
  }

  /** The last step's frame outputs (dense contacts, user values, counts on the GPU), or null. */
  lastOutputs(): O | null {
    return this.last;
  }

  destroy(): void {
    this.store.destroy();
    this.overflowSums.destroy();
    for (const b of [this.params, this.passes, this.placeholder]) b.destroy();
    this.timer?.destroy();
    for (const r of this.colorReadbacks) r.buffer.destroy();
    this.constraints.destroy();
    this.commandList.destroy();
    this.coloring.destroy();
    this.frame.destroy();
  }
}

/** The entry point of each stage (shaders/solver.wgsl, solver-passes.wgsl, commands2d/3d.wgsl). */
const ENTRY_POINTS: Record<SolverStage, string> = {
  begin: 'solverBegin',
  prepare: 'solverPrepare',
  integrateVelocities: 'solverIntegrateVelocities',
  warmStart: 'solverWarmStart',
  solve: 'solverSolve',
  integratePositions: 'solverIntegratePositions',
  store: 'solverStore',
  tail: 'solverTail',
  overflow: 'solverOverflow',
  overflowApply: 'solverOverflowApply',
  commands: 'solverCommands',
};

/** Compiles a dimension's solver kernels (an entry point per stage) and reflects their bindings. */
export async function solverKernels(
  device: GPUDevice,
  label: string,
  wgsl: () => string,
): Promise<SolverKernels> {
  const compiled = await compileEntryPoints(
    device,
    label,
    SOLVER_STAGES.map((s) => ENTRY_POINTS[s]),
    wgsl,
  );
  const out = { kernels: {}, bindings: {} } as SolverKernels;
  for (const s of SOLVER_STAGES) {
    out.kernels[s] = compiled.kernels[ENTRY_POINTS[s]];
    out.bindings[s] = compiled.bindings[ENTRY_POINTS[s]];
  }
  return out;
}
