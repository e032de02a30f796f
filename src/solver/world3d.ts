// A compact 3D rigid-body world on the GPU, for the demos: src/solver/world2d.ts in three
// dimensions. The collision frame (src/gpu/frame3d.ts: broadphase → hull/sphere/capsule
// narrowphase → dense ContactManifold3D list with persistent ContactUserValues3D) followed by the
// soft step of shaders/solver.wgsl (over solver3d.wgsl) on the shared GPU colouring
// (shaders/coloring.wgsl), all recorded into one encoder with no readback. Body3D is moved in
// place.
//
// Units: scene units and seconds; gravity default [0, -10, 0]; quaternions [x, y, z, w]; density 0
// makes a body static. Mass and inertia come from the shapes on the host (src/solver/mass3d.ts).

import { contactsConstantsWgsl } from '../gpu/contact-list.ts';
import { CONTACTS_LAYOUT_3D } from '../gpu/contact-list3d.ts';
import {
  GpuFrame3D,
  type FrameCounts3D,
  type FrameInputs3D,
  type FrameOutputs3D,
} from '../gpu/frame3d.ts';
import { assembleWgsl3D } from '../gpu/shaders.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { shapeKindNames3D, type ShapeKindName3D } from '../shape-kinds3d.ts';
import { packBodies3D, packShapes3D, type PackedShapes3D } from '../pack3d.ts';
import {
  makeShape3D,
  readQuat,
  readVec3,
  type Quat,
  type Shape3D,
  type Shape3DInput,
  type Vec3,
} from '../shapes3d.ts';
import { GpuColoring } from './coloring.ts';
import { OVERFLOW_WORDS_3D, solverConstantsWgsl } from './constants.ts';
import { SOLVER_LAYOUT_3D } from './layout3d.ts';
import { invertMat3, shapeMass3D, type MassProperties3D } from './mass3d.ts';
import {
  checkBodyShape,
  checkWorldArrays,
  checkWorldBody,
  readBodyMaterial,
  readWorldOptions,
  SolverWorld,
  solverKernels,
  solverLabel,
  WORLD_BODY_KEYS_3D,
  type PackedWorldBodies,
  type WorldOptions,
} from './world.ts';

export interface WorldBody3D {
  shape: number;
  position: Vec3;
  /** Unit quaternion [x, y, z, w]; default identity. */
  rotation?: Quat;
  velocity?: Vec3;
  /** rad / s about world axes. */
  angularVelocity?: Vec3;
  /** Mass per unit volume; 0 = static (never moves). Default 1. */
  density?: number;
  /** Default DEFAULT_FRICTION; a pair uses sqrt(fA × fB). */
  friction?: number;
}

export interface WorldOptions3D extends WorldOptions {
  /** Default [0, -10, 0]. */
  gravity?: Vec3;
}

const solverWgsl = (maxRotation: number) => (): string =>
  solverConstantsWgsl(maxRotation) +
  contactsConstantsWgsl() +
  assembleWgsl3D([
    'layout3d',
    'contact-list-layout',
    'contact-list3d-layout',
    'solver3d-layout',
    'solver-layout',
    'overflow',
    'solver3d',
    'solver',
    'solver-passes',
    'commands3d',
  ]);

const S = SOLVER_LAYOUT_3D;

/** World bodies packed for the GPU: Body3D, BodyState3D and dynamic flags; InputErrors name `path[i]`. */
function packWorldBodies3D(
  bodies: WorldBody3D[],
  mass: MassProperties3D[],
  path: string,
): PackedWorldBodies {
  const n = bodies.length;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(3 * n);
  const bodyRotation = new Float64Array(4 * n);
  const states = new ArrayBuffer(n * S.state.bytes);
  const f = new Float32Array(states);
  const dynamic = new Uint32Array(n);
  bodies.forEach((b, i) => {
    const where = `${path}[${i}]`;
    checkWorldBody(where, b, WORLD_BODY_KEYS_3D);
    checkBodyShape(where, b.shape, mass.length);
    const p = readVec3(where, 'position', b.position);
    const q =
      b.rotation === undefined ? ([0, 0, 0, 1] as Quat) : readQuat(where, 'rotation', b.rotation);
    const v =
      b.velocity === undefined ? ([0, 0, 0] as Vec3) : readVec3(where, 'velocity', b.velocity);
    const w =
      b.angularVelocity === undefined
        ? ([0, 0, 0] as Vec3)
        : readVec3(where, 'angularVelocity', b.angularVelocity);
    const { density, friction } = readBodyMaterial(where, b);
    const m = mass[b.shape];
    bodyShape[i] = b.shape;
    bodyPosition.set(p, 3 * i);
    bodyRotation.set(q, 4 * i);
    const o = i * S.state.words;
    const isDynamic = density > 0;
    dynamic[i] = isDynamic ? 1 : 0;
    if (isDynamic) {
      f.set(v, o + S.state.linearVelocity);
      f.set(w, o + S.state.angularVelocity);
      f[o + S.state.invMass] = 1 / (density * m.volume);
      const inv = invertMat3(m.inertia.map((x) => density * x) as typeof m.inertia);
      // Column c of the mat3x3f (symmetric, so rows and columns agree).
      for (let c = 0; c < 3; c++)
        f.set(
          [inv[3 * c], inv[3 * c + 1], inv[3 * c + 2]],
          o + S.state.invInertiaLocal + c * S.state.matrixColumn,
        );
    }
    f.set(m.center, o + S.state.localCenter);
    f[o + S.state.friction] = friction;
    f[o + S.state.deltaRotation + 3] = 1;
  });
  return { bodies: packBodies3D({ bodyShape, bodyPosition, bodyRotation }), states, dynamic };
}

export class GpuWorld3D extends SolverWorld<
  FrameInputs3D,
  FrameOutputs3D,
  FrameCounts3D,
  WorldBody3D
> {
  /** array<Shape3D>. */
  readonly shapes: GPUBuffer;
  /** The flat hull buffers the shapes index (shaders/layout3d.wgsl). */
  readonly hullVertices: GPUBuffer;
  readonly hullPlanes: GPUBuffer;
  readonly hullFaces: GPUBuffer;
  readonly hullIndices: GPUBuffer;
  readonly gravity: Vec3;
  /** The collision frame, compiled for the world's shape kinds (`compileMs` per pair class). */
  declare readonly frame: GpuFrame3D;

  private constructor(
    device: GPUDevice,
    frame: GpuFrame3D,
    coloring: GpuColoring,
    kernels: Awaited<ReturnType<typeof solverKernels>>,
    shapes: PackedShapes3D,
    private readonly mass: MassProperties3D[],
    bodies: PackedWorldBodies,
    private readonly kinds: readonly ShapeKindName3D[],
    options: Required<WorldOptions3D>,
  ) {
    super(
      device,
      frame,
      coloring,
      kernels,
      options,
      {
        ...S,
        overflowWords: OVERFLOW_WORDS_3D,
        countWord: CONTACTS_LAYOUT_3D.counts.written,
        label: 'world3d',
        bodyBytes: LAYOUT_3D.body.words * 4,
        dim: 3,
      },
      bodies,
    );
    const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    this.shapes = this.upload('shapes', shapes.shapes, STORAGE);
    this.hullVertices = this.upload('hull-vertices', shapes.hullVertices, STORAGE);
    this.hullPlanes = this.upload('hull-planes', shapes.hullPlanes, STORAGE);
    this.hullFaces = this.upload('hull-faces', shapes.hullFaces, STORAGE);
    this.hullIndices = this.upload('hull-indices', shapes.hullIndices, STORAGE);
    this.gravity = options.gravity;
  }

  static async create(
    device: GPUDevice,
    shapes: Shape3DInput[],
    bodies: WorldBody3D[],
    options: WorldOptions3D = {},
  ): Promise<GpuWorld3D> {
    checkWorldArrays(shapes, bodies);
    const gravity =
      options.gravity === undefined
        ? ([0, -10, 0] as Vec3)
        : readVec3('options', 'gravity', options.gravity);
    const { margin, substeps, maxRotation, timestamps } = readWorldOptions(device, options);
    const internal: Shape3D[] = shapes.map((s, i) => makeShape3D(s, i));
    const mass = internal.map(shapeMass3D);
    const packed = packWorldBodies3D(bodies, mass, 'bodies');
    // The world's shapes are fixed: its frame compiles the pair classes they form, no others.
    const kinds = shapeKindNames3D(internal);
    const [frame, coloring, kernels] = await Promise.all([
      GpuFrame3D.create(device, timestamps, { kinds }),
      GpuColoring.create(device),
      solverKernels(device, solverLabel('solver3d', maxRotation), solverWgsl(maxRotation)),
    ]);
    return new GpuWorld3D(
      device,
      frame,
      coloring,
      kernels,
      packShapes3D(internal),
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

  protected packBodies(bodies: WorldBody3D[], path: string): PackedWorldBodies {
    return packWorldBodies3D(bodies, this.mass, path);
  }

  /** Sets a dynamic body's velocity (scene units / s) and angular velocity (rad / s, world axes), dropping impulses given to it since the last step. */
  setVelocity(index: number, velocity: Vec3, angularVelocity: Vec3): void {
    this.checkBody('setVelocity', index, true);
    const v = this.checkVector('setVelocity: velocity', velocity);
    const w = this.checkVector('setVelocity: angularVelocity', angularVelocity);
    this.commands.clear(index);
    const at = index * S.state.bytes;
    this.device.queue.writeBuffer(
      this.states,
      at + 4 * S.state.linearVelocity,
      new Float32Array(v),
    );
    this.device.queue.writeBuffer(
      this.states,
      at + 4 * S.state.angularVelocity,
      new Float32Array(w),
    );
  }

  /** Every body's velocity and angular velocity (a readback, after the impulses given since the last step). */
  async readVelocities(): Promise<{ velocity: Vec3; angularVelocity: Vec3 }[]> {
    const f = new Float32Array(await this.readStateBytes());
    const vec = (o: number): Vec3 => [f[o], f[o + 1], f[o + 2]];
    return Array.from({ length: this.bodyCount }, (_, i) => {
      const o = i * S.state.words;
      return {
        velocity: vec(o + S.state.linearVelocity),
        angularVelocity: vec(o + S.state.angularVelocity),
      };
    });
  }

  frameInputs(): FrameInputs3D {
    return {
      shapes: this.shapes,
      hullVertices: this.hullVertices,
      hullPlanes: this.hullPlanes,
      hullFaces: this.hullFaces,
      hullIndices: this.hullIndices,
      bodies: this.bodies,
      bodyCount: this.bodyCount,
      margin: this.margin,
      kinds: this.kinds,
    };
  }

  async readBodies(): Promise<{ position: Vec3; rotation: Quat }[]> {
    const L = LAYOUT_3D.body;
    const f = new Float32Array(await this.readBodyBytes());
    return Array.from({ length: this.bodyCount }, (_, i) => {
      const o = i * L.words;
      return {
        position: [f[o + L.position], f[o + L.position + 1], f[o + L.position + 2]] as Vec3,
        rotation: [
          f[o + L.rotation],
          f[o + L.rotation + 1],
          f[o + L.rotation + 2],
          f[o + L.rotation + 3],
        ] as Quat,
      };
    });
  }

  override destroy(): void {
    for (const b of [
      this.shapes,
      this.hullVertices,
      this.hullPlanes,
      this.hullFaces,
      this.hullIndices,
    ])
      b.destroy();
    super.destroy();
  }
}
