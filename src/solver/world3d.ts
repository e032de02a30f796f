// A compact 3D rigid-body world on the GPU, for the demos: src/solver/world2d.ts in three
// dimensions. The collision frame (src/gpu/frame3d.ts: broadphase → hull/sphere/capsule
// narrowphase → dense ContactManifold3D list with persistent ContactUserValues3D) followed by the
// soft step of shaders/solver3d.wgsl over the shared GPU colouring (shaders/coloring.wgsl), all
// recorded into one encoder with no readback. Body3D is moved in place.
//
// Units: scene units and seconds; gravity default [0, -10, 0]; quaternions [x, y, z, w]; density 0
// makes a body static. Mass and inertia come from the shapes on the host (src/solver/mass3d.ts).

import { contactsConstantsWgsl } from '../gpu/contacts.ts';
import { CONTACTS_LAYOUT_3D } from '../gpu/contacts3d.ts';
import { GpuFrame3D, type FrameCounts3D, type FrameInputs3D, type FrameOutputs3D } from '../gpu/frame3d.ts';
import { assembleWgsl3D } from '../gpu/shaders.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { packBodies3D, packShapes3D, type PackedShapes3D } from '../pack3d.ts';
import { makeShape3D, readQuat, readVec3, type Quat, type Shape3D, type Shape3DInput, type Vec3 } from '../shapes3d.ts';
import { GpuColoring } from './coloring.ts';
import { OVERFLOW_WORDS_3D, solverConstantsWgsl } from './constants.ts';
import { SOLVER_LAYOUT_3D } from './layout3d.ts';
import { invertMat3, shapeMass3D } from './mass3d.ts';
import { checkBodyShape, checkWorldArrays, checkWorldBody, readBodyMaterial, readWorldOptions, SolverWorld, solverKernels, stepParamsBytes, WORLD_BODY_KEYS_3D, type SolverStage } from './world.ts';

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

export interface WorldOptions3D {
  /** Default [0, -10, 0]. */
  gravity?: Vec3;
  /** Speculative margin of the collision frame (scene units); default DEFAULT_MARGIN. */
  margin?: number;
  /** Default SUBSTEPS. */
  substeps?: number;
}

const solverWgsl = (): string =>
  solverConstantsWgsl() + contactsConstantsWgsl() + assembleWgsl3D(['layout3d', 'contacts-layout', 'contacts3d-layout', 'solver3d-layout', 'overflow', 'solver-passes', 'solver3d']);

const ENTRY_POINTS: Record<SolverStage, string> = {
  prepare: 'solverPrepare3D',
  begin: 'solverBegin3D',
  integrateVelocities: 'solverIntegrateVelocities3D',
  warmStart: 'solverWarmStart',
  solve: 'solverSolve',
  integratePositions: 'solverIntegratePositions3D',
  relax: 'solverRelax',
  store: 'solverStore3D',
  tail: 'solverTail',
  overflow: 'solverOverflow',
  overflowApply: 'solverOverflowApply3D',
};

const S = SOLVER_LAYOUT_3D;

export class GpuWorld3D extends SolverWorld<FrameInputs3D, FrameOutputs3D, FrameCounts3D> {
  /** array<Shape3D>. */
  readonly shapes: GPUBuffer;
  /** The flat hull buffers the shapes index (shaders/layout3d.wgsl). */
  readonly hullVertices: GPUBuffer;
  readonly hullPlanes: GPUBuffer;
  readonly hullFaces: GPUBuffer;
  readonly hullIndices: GPUBuffer;
  readonly gravity: Vec3;
  readonly margin: number;

  private constructor(
    device: GPUDevice, frame: GpuFrame3D, coloring: GpuColoring, kernels: Awaited<ReturnType<typeof solverKernels>>,
    shapes: PackedShapes3D, bodies: ArrayBuffer, states: ArrayBuffer, dynamic: Uint32Array, options: Required<WorldOptions3D>,
  ) {
    super(device, frame, coloring, kernels, dynamic.length, options.substeps, {
      constraintBytes: S.constraint.bytes,
      paramsBytes: S.params.bytes,
      passBytes: S.pass.bytes,
      passColor: S.pass.color,
      passMode: S.pass.mode,
      overflowWords: OVERFLOW_WORDS_3D,
      countWord: CONTACTS_LAYOUT_3D.counts.written,
      label: 'world3d',
    }, bodies, states, dynamic);
    const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    this.shapes = this.upload('shapes', shapes.shapes, STORAGE);
    this.hullVertices = this.upload('hull-vertices', shapes.hullVertices, STORAGE);
    this.hullPlanes = this.upload('hull-planes', shapes.hullPlanes, STORAGE);
    this.hullFaces = this.upload('hull-faces', shapes.hullFaces, STORAGE);
    this.hullIndices = this.upload('hull-indices', shapes.hullIndices, STORAGE);
    this.gravity = options.gravity;
    this.margin = options.margin;
  }

  static async create(device: GPUDevice, shapes: Shape3DInput[], bodies: WorldBody3D[], options: WorldOptions3D = {}): Promise<GpuWorld3D> {
    checkWorldArrays(shapes, bodies);
    const gravity = options.gravity === undefined ? ([0, -10, 0] as Vec3) : readVec3('options', 'gravity', options.gravity);
    const { margin, substeps } = readWorldOptions(options);
    const internal: Shape3D[] = shapes.map((s, i) => makeShape3D(s, i));
    const mass = internal.map(shapeMass3D);
    const n = bodies.length;
    const bodyShape = new Uint32Array(n);
    const bodyPosition = new Float64Array(3 * n);
    const bodyRotation = new Float64Array(4 * n);
    const states = new ArrayBuffer(n * S.state.bytes);
    const f = new Float32Array(states);
    const dynamic = new Uint32Array(n);
    bodies.forEach((b, i) => {
      const path = `bodies[${i}]`;
      checkWorldBody(path, b, WORLD_BODY_KEYS_3D);
      checkBodyShape(path, b.shape, shapes.length);
      const p = readVec3(path, 'position', b.position);
      const q = b.rotation === undefined ? ([0, 0, 0, 1] as Quat) : readQuat(path, 'rotation', b.rotation);
      const v = b.velocity === undefined ? ([0, 0, 0] as Vec3) : readVec3(path, 'velocity', b.velocity);
      const w = b.angularVelocity === undefined ? ([0, 0, 0] as Vec3) : readVec3(path, 'angularVelocity', b.angularVelocity);
      const { density, friction } = readBodyMaterial(path, b);
      const m = mass[b.shape]!;
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
        for (let c = 0; c < 3; c++) f.set([inv[3 * c]!, inv[3 * c + 1]!, inv[3 * c + 2]!], o + S.state.invInertiaLocal + c * S.state.matrixColumn);
      }
      f.set(m.center, o + S.state.localCenter);
      f[o + S.state.friction] = friction;
      f[o + S.state.deltaRotation + 3] = 1;
    });
    const [frame, coloring, kernels] = await Promise.all([
      GpuFrame3D.create(device),
      GpuColoring.create(device),
      solverKernels(device, 'solver3d', ENTRY_POINTS, solverWgsl),
    ]);
    const packedBodies = packBodies3D({ bodyShape, bodyPosition, bodyRotation });
    return new GpuWorld3D(device, frame, coloring, kernels, packShapes3D(internal), packedBodies, states, dynamic, { gravity, margin, substeps });
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
    };
  }

  protected stepParams(dt: number): ArrayBuffer {
    return stepParamsBytes(S.params, dt, this.substeps, this.gravity, this.bodyCount, CONTACTS_LAYOUT_3D.counts.written);
  }

  async readBodies(): Promise<{ position: Vec3; rotation: Quat }[]> {
    const L = LAYOUT_3D.body;
    const f = new Float32Array(await this.readBodyBytes());
    return Array.from({ length: this.bodyCount }, (_, i) => {
      const o = i * L.words;
      return {
        position: [f[o + L.position]!, f[o + L.position + 1]!, f[o + L.position + 2]!] as Vec3,
        rotation: [f[o + L.rotation]!, f[o + L.rotation + 1]!, f[o + L.rotation + 2]!, f[o + L.rotation + 3]!] as Quat,
      };
    });
  }

  override destroy(): void {
    for (const b of [this.shapes, this.hullVertices, this.hullPlanes, this.hullFaces, this.hullIndices]) b.destroy();
    super.destroy();
  }
}
