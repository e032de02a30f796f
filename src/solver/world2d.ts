// A compact 2D rigid-body world on the GPU, for the demos: the collision frame (src/gpu/frame2d.ts:
// broadphase → narrowphase → dense contacts with persistent user values) followed by Box2D v3's
// soft step (shaders/solver.wgsl over solver2d.wgsl) on graph-coloured contacts
// (shaders/coloring.wgsl), all recorded into one encoder with no readback (src/solver/world.ts).
// A driver kept apart from the narrowphase API.
//
// Each step: frame on the current Body2D buffer → prepare constraints (warm started from the
// impulses the frame carried by pair and feature id) → colour → substeps (gravity, warm start,
// solve with bias, move, relax) → store impulses into this frame's user values, which the next
// frame carries. Body2D is moved in place, so renderers and the frame read one buffer.
//
// Units: scene units and seconds; gravity default [0, -10]; density 0 makes a body static (never
// moves). Tunables: src/solver/constants.ts.

import { contactsConstantsWgsl } from '../gpu/contact-list.ts';
import { CONTACTS_LAYOUT_2D } from '../gpu/contact-list2d.ts';
import {
  GpuFrame2D,
  type FrameCounts2D,
  type FrameInputs2D,
  type FrameOutputs2D,
} from '../gpu/frame2d.ts';
import { assembleWgsl } from '../gpu/shaders.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { shapeKindNames2D, type ShapeKindName2D } from '../shape-kinds2d.ts';
import { packBodies2D, packShapes2D } from '../pack2d.ts';
import { makeShape2D, readVec2, type Shape2D, type Shape2DInput, type Vec2 } from '../shapes2d.ts';
import { GpuColoring } from './coloring.ts';
import { OVERFLOW_WORDS_2D, solverConstantsWgsl } from './constants.ts';
import { SOLVER_LAYOUT_2D } from './layout2d.ts';
import { shapeMass2D, type MassProperties2D } from './mass2d.ts';
import {
  checkBodyShape,
  checkNumber,
  checkWorldArrays,
  checkWorldBody,
  readBodyMaterial,
  readWorldOptions,
  SolverWorld,
  solverKernels,
  solverLabel,
  WORLD_BODY_KEYS_2D,
  type PackedWorldBodies,
  type WorldOptions,
} from './world.ts';

export interface WorldBody2D {
  shape: number;
  position: Vec2;
  angle: number;
  velocity?: Vec2;
  angularVelocity?: number;
  /** Mass per unit area; 0 = static (never moves). Default 1. */
  density?: number;
  /** Default DEFAULT_FRICTION; a pair uses sqrt(fA × fB). */
  friction?: number;
}

export interface WorldOptions2D extends WorldOptions {
  /** Default [0, -10]. */
  gravity?: Vec2;
}

const solverWgsl = (maxRotation: number) => (): string =>
  solverConstantsWgsl(maxRotation) +
  contactsConstantsWgsl() +
  assembleWgsl([
    'layout2d',
    'contact-list-layout',
    'contact-list2d-layout',
    'solver2d-layout',
    'solver-layout',
    'overflow',
    'solver2d',
    'solver',
    'solver-passes',
    'commands2d',
  ]);

const S = SOLVER_LAYOUT_2D;

/** World bodies packed for the GPU: Body2D, BodyState2D and dynamic flags; InputErrors name `path[i]`. */
function packWorldBodies2D(
  bodies: WorldBody2D[],
  mass: MassProperties2D[],
  path: string,
): PackedWorldBodies {
  const n = bodies.length;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(2 * n);
  const bodyAngle = new Float64Array(n);
  const states = new ArrayBuffer(n * S.state.bytes);
  const f = new Float32Array(states);
  const dynamic = new Uint32Array(n);
  bodies.forEach((b, i) => {
    const where = `${path}[${i}]`;
    checkWorldBody(where, b, WORLD_BODY_KEYS_2D);
    checkBodyShape(where, b.shape, mass.length);
    const p = readVec2(where, 'position', b.position);
    const angle = checkNumber(where, 'angle', b.angle);
    const v = b.velocity === undefined ? ([0, 0] as Vec2) : readVec2(where, 'velocity', b.velocity);
    const w =
      b.angularVelocity === undefined
        ? 0
        : checkNumber(where, 'angularVelocity', b.angularVelocity);
    const { density, friction } = readBodyMaterial(where, b);
    const m = mass[b.shape];
    bodyShape[i] = b.shape;
    bodyPosition[2 * i] = p[0];
    bodyPosition[2 * i + 1] = p[1];
    bodyAngle[i] = angle;
    const o = i * S.state.words;
    const isDynamic = density > 0;
    dynamic[i] = isDynamic ? 1 : 0;
    // Static bodies keep zero velocity: they never move, whatever was given.
    f[o + S.state.linearVelocity] = isDynamic ? v[0] : 0;
    f[o + S.state.linearVelocity + 1] = isDynamic ? v[1] : 0;
    f[o + S.state.angularVelocity] = isDynamic ? w : 0;
    f[o + S.state.invMass] = isDynamic ? 1 / (density * m.area) : 0;
    f[o + S.state.invInertia] = isDynamic ? 1 / (density * m.inertia) : 0;
    f[o + S.state.localCenter] = m.center[0];
    f[o + S.state.localCenter + 1] = m.center[1];
    f[o + S.state.friction] = friction;
    f[o + S.state.deltaRotation] = 1;
  });
  return { bodies: packBodies2D({ bodyShape, bodyPosition, bodyAngle }), states, dynamic };
}

export class GpuWorld2D extends SolverWorld<
  FrameInputs2D,
  FrameOutputs2D,
  FrameCounts2D,
  WorldBody2D
> {
  /** array<Shape2D>. */
  readonly shapes: GPUBuffer;
  readonly gravity: Vec2;
  /** The collision frame, compiled for the world's shape kinds (`compileMs` per pair class). */
  declare readonly frame: GpuFrame2D;

  private constructor(
    device: GPUDevice,
    frame: GpuFrame2D,
    coloring: GpuColoring,
    kernels: Awaited<ReturnType<typeof solverKernels>>,
    shapes: ArrayBuffer,
    private readonly mass: MassProperties2D[],
    bodies: PackedWorldBodies,
    private readonly kinds: readonly ShapeKindName2D[],
    options: Required<WorldOptions2D>,
  ) {
    super(
      device,
      frame,
      coloring,
      kernels,
      options,
      {
        ...S,
        overflowWords: OVERFLOW_WORDS_2D,
        countWord: CONTACTS_LAYOUT_2D.counts.written,
        label: 'world2d',
        bodyBytes: LAYOUT_2D.body.words * 4,
        dim: 2,
      },
      bodies,
    );
    this.shapes = this.upload('shapes', shapes, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC);
    this.gravity = options.gravity;
  }

  static async create(
    device: GPUDevice,
    shapes: Shape2DInput[],
    bodies: WorldBody2D[],
    options: WorldOptions2D = {},
  ): Promise<GpuWorld2D> {
    checkWorldArrays(shapes, bodies);
    const gravity =
      options.gravity === undefined
        ? ([0, -10] as Vec2)
        : readVec2('options', 'gravity', options.gravity);
    const { margin, substeps, maxRotation, timestamps } = readWorldOptions(device, options);
    const internal: Shape2D[] = shapes.map((s, i) => makeShape2D(s, i));
    const mass = internal.map(shapeMass2D);
    const packed = packWorldBodies2D(bodies, mass, 'bodies');
    // The world's shapes are fixed: its frame compiles the pair classes they form, no others.
    const kinds = shapeKindNames2D(internal);
    const [frame, coloring, kernels] = await Promise.all([
      GpuFrame2D.create(device, timestamps, { kinds }),
      GpuColoring.create(device),
      solverKernels(device, solverLabel('solver2d', maxRotation), solverWgsl(maxRotation)),
    ]);
    return new GpuWorld2D(
      device,
      frame,
      coloring,
      kernels,
      packShapes2D(internal),
      mass,
      packed,
      kinds,
      {
        gravity,
        margin,
        substeps,
        maxRotation,
        timestamps,
      },
    );
  }

  protected packBodies(bodies: WorldBody2D[], path: string): PackedWorldBodies {
    return packWorldBodies2D(bodies, this.mass, path);
  }

  /** Sets a dynamic body's velocity (scene units / s) and angular velocity (rad / s), dropping impulses given to it since the last step. */
  setVelocity(index: number, velocity: Vec2, angularVelocity: number): void {
    this.checkBody('setVelocity', index, true);
    const v = this.checkVector('setVelocity: velocity', velocity);
    const w = checkNumber('setVelocity', 'angularVelocity', angularVelocity);
    this.commands.clear(index);
    const words = new Float32Array([v[0], v[1], w]);
    // linearVelocity and angularVelocity are the state's first three words.
    if (S.state.angularVelocity !== S.state.linearVelocity + 2)
      throw new Error('BodyState2D: velocities must be adjacent');
    this.device.queue.writeBuffer(
      this.states,
      index * S.state.bytes + 4 * S.state.linearVelocity,
      words,
    );
  }

  /** Every body's velocity and angular velocity (a readback, after the impulses given since the last step). */
  async readVelocities(): Promise<{ velocity: Vec2; angularVelocity: number }[]> {
    const f = new Float32Array(await this.readStateBytes());
    return Array.from({ length: this.bodyCount }, (_, i) => {
      const o = i * S.state.words;
      return {
        velocity: [f[o + S.state.linearVelocity], f[o + S.state.linearVelocity + 1]] as Vec2,
        angularVelocity: f[o + S.state.angularVelocity],
      };
    });
  }

  frameInputs(): FrameInputs2D {
    return {
      shapes: this.shapes,
      bodies: this.bodies,
      bodyCount: this.bodyCount,
      margin: this.margin,
      kinds: this.kinds,
    };
  }

  async readBodies(): Promise<{ position: Vec2; angle: number }[]> {
    const L = LAYOUT_2D.body;
    const f = new Float32Array(await this.readBodyBytes());
    return Array.from({ length: this.bodyCount }, (_, i) => {
      const o = i * L.words;
      return {
        position: [f[o + L.position], f[o + L.position + 1]] as Vec2,
        angle: Math.atan2(f[o + L.rotation + 1], f[o + L.rotation]),
      };
    });
  }

  override destroy(): void {
    this.shapes.destroy();
    super.destroy();
  }
}
