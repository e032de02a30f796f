// A compact 2D rigid-body world on the GPU, for the demos: the collision frame (src/gpu/frame2d.ts:
// broadphase → narrowphase → dense contacts with persistent user values) followed by Box2D v3's
// soft step (shaders/solver2d.wgsl) over graph-coloured contacts (shaders/coloring.wgsl), all
// recorded into one encoder with no readback. It is a driver kept apart from the narrowphase API.
//
// Each step: frame on the current Body2D buffer → prepare constraints (warm started from the
// impulses the frame carried by pair and feature id) → colour → substeps (gravity, warm start,
// solve with bias, move, relax) → store impulses into this frame's user values, which the next
// frame carries. Body2D is moved in place, so renderers and the frame read one buffer.
//
// Units: scene units and seconds; gravity default [0, -10]; density 0 makes a body static (never
// moves). Tunables: src/solver/constants.ts.

import { WgslReflect } from 'wgsl_reflect/wgsl_reflect.module.js';
import { CapacityError, InputError } from '../errors.ts';
import { createUniformSlots, dispatchRows, GrowingBuffer, readBuffer, UNIFORM_SLOT_BYTES } from '../gpu/buffers.ts';
import { CONTACTS_GROWTH, CONTACTS_LAYOUT_2D } from '../gpu/contacts2d.ts';
import { GpuFrame2D, type FrameCounts2D, type FrameOutputs2D } from '../gpu/frame2d.ts';
import { cachedKernel, type Kernel } from '../gpu/pipelines.ts';
import { assembleWgsl } from '../gpu/shaders.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { packBodies2D, packShapes2D } from '../pack2d.ts';
import { makeShape2D, readVec2, type Shape2D, type Shape2DInput, type Vec2 } from '../shapes2d.ts';
import { GpuColoring } from './coloring.ts';
import {
  COLOR_ROUNDS,
  CONTACT_DAMPING_RATIO,
  CONTACT_HERTZ,
  DEFAULT_DENSITY,
  DEFAULT_FRICTION,
  DEFAULT_MARGIN,
  makeSoftness,
  SOLVER_WORKGROUP_SIZE,
  solverConstantsWgsl,
  STATIC_HERTZ_SCALE,
  SUBSTEPS,
} from './constants.ts';
import { SOLVER_LAYOUT_2D } from './layout2d.ts';
import { shapeMass2D } from './mass2d.ts';

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

export interface WorldOptions2D {
  /** Default [0, -10]. */
  gravity?: Vec2;
  /** Speculative margin of the collision frame (scene units); default DEFAULT_MARGIN. */
  margin?: number;
  /** Default SUBSTEPS. */
  substeps?: number;
}

const solverWgsl = (): string => solverConstantsWgsl() + assembleWgsl(['layout2d', 'contacts2d-layout', 'solver2d-layout', 'solver2d']);

const KERNELS = [
  'solverPrepare2D',
  'solverBegin2D',
  'solverIntegrateVelocities2D',
  'solverWarmStart2D',
  'solverSolve2D',
  'solverIntegratePositions2D',
  'solverRelax2D',
  'solverStore2D',
] as const;
type KernelName = (typeof KERNELS)[number];

let bindingsCache: Record<string, number[]> | null = null;
/** The bindings each kernel uses (its auto layout's), read from the WGSL. */
function kernelBindings(name: KernelName): number[] {
  bindingsCache ??= Object.fromEntries(
    new WgslReflect(solverWgsl()).entry.compute.map((e) => [e.name, e.resources.map((r) => r.binding).sort((a, b) => a - b)]),
  );
  const b = bindingsCache[name];
  if (!b) throw new Error(`shaders/solver2d.wgsl has no entry point ${name}`);
  return b;
}

const S = SOLVER_LAYOUT_2D;

function checkNumber(path: string, what: string, x: unknown, min: number): number {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < min) throw new InputError(path, `${what} must be a finite number >= ${min}, got ${String(x)}`);
  return x;
}

export class GpuWorld2D {
  readonly bodyCount: number;
  /** array<Body2D>: STORAGE | VERTEX | COPY_SRC | COPY_DST. */
  readonly bodies: GPUBuffer;
  /** array<Shape2D>. */
  readonly shapes: GPUBuffer;
  /** array<BodyState2D> (shaders/solver2d-layout.wgsl): velocities, inverse masses. */
  readonly states: GPUBuffer;
  readonly gravity: Vec2;
  readonly margin: number;
  readonly substeps: number;
  private readonly dynamicBodies: GPUBuffer;
  private readonly constraints: GrowingBuffer;
  private readonly params: GPUBuffer;
  private readonly passes: GPUBuffer;
  private readonly bodiesBackup: GPUBuffer;
  private readonly statesBackup: GPUBuffer;
  private last: FrameOutputs2D | null = null;

  private constructor(
    readonly device: GPUDevice,
    readonly frame: GpuFrame2D,
    private readonly coloring: GpuColoring,
    private readonly kernels: Record<KernelName, Kernel>,
    shapes: ArrayBuffer,
    bodies: ArrayBuffer,
    states: ArrayBuffer,
    dynamic: Uint32Array,
    options: Required<WorldOptions2D>,
  ) {
    this.bodyCount = dynamic.length;
    this.gravity = options.gravity;
    this.margin = options.margin;
    this.substeps = options.substeps;
    const make = (label: string, data: ArrayBuffer | Uint32Array, usage: number): GPUBuffer => {
      const b = device.createBuffer({ label, size: Math.max(16, Math.ceil(data.byteLength / 16) * 16), usage: usage | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(b, 0, data);
      return b;
    };
    const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC;
    this.shapes = make('world2d-shapes', shapes, STORAGE);
    this.bodies = make('world2d-bodies', bodies, STORAGE | GPUBufferUsage.VERTEX);
    this.states = make('world2d-states', states, STORAGE);
    this.dynamicBodies = make('world2d-dynamic', dynamic, STORAGE);
    this.bodiesBackup = device.createBuffer({ label: 'world2d-bodies-backup', size: this.bodies.size, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    this.statesBackup = device.createBuffer({ label: 'world2d-states-backup', size: this.states.size, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    this.constraints = new GrowingBuffer(device, STORAGE | GPUBufferUsage.COPY_DST, 'world2d-constraints');
    this.params = createUniformSlots(device, 'world2d-params', 1);
    this.passes = createUniformSlots(device, 'world2d-passes', COLOR_ROUNDS + 1);
    const words = new Uint32Array(((COLOR_ROUNDS + 1) * UNIFORM_SLOT_BYTES) / 4);
    for (let k = 0; k <= COLOR_ROUNDS; k++) words[(k * UNIFORM_SLOT_BYTES) / 4 + S.pass.color] = k;
    device.queue.writeBuffer(this.passes, 0, words);
  }

  static async create(device: GPUDevice, shapes: Shape2DInput[], bodies: WorldBody2D[], options: WorldOptions2D = {}): Promise<GpuWorld2D> {
    if (!Array.isArray(shapes) || shapes.length === 0) throw new InputError('shapes', 'must be a non-empty array');
    if (!Array.isArray(bodies) || bodies.length === 0) throw new InputError('bodies', 'must be a non-empty array');
    const gravity = options.gravity === undefined ? ([0, -10] as Vec2) : readVec2('options', 'gravity', options.gravity);
    const margin = options.margin === undefined ? DEFAULT_MARGIN : checkNumber('options', 'margin', options.margin, 0);
    const substeps = options.substeps ?? SUBSTEPS;
    if (!Number.isInteger(substeps) || substeps < 1) throw new InputError('options', `substeps must be an integer >= 1, got ${substeps}`);
    const internal: Shape2D[] = shapes.map((s, i) => makeShape2D(s, i));
    const mass = internal.map(shapeMass2D);
    const n = bodies.length;
    const bodyShape = new Uint32Array(n);
    const bodyPosition = new Float64Array(2 * n);
    const bodyAngle = new Float64Array(n);
    const states = new ArrayBuffer(n * S.state.bytes);
    const f = new Float32Array(states);
    const dynamic = new Uint32Array(n);
    bodies.forEach((b, i) => {
      const path = `bodies[${i}]`;
      if (!Number.isInteger(b.shape) || b.shape < 0 || b.shape >= shapes.length) throw new InputError(path, `shape must be an index into the ${shapes.length} shapes, got ${b.shape}`);
      const p = readVec2(path, 'position', b.position);
      const angle = checkNumber(path, 'angle', b.angle, -Infinity);
      const v = b.velocity === undefined ? ([0, 0] as Vec2) : readVec2(path, 'velocity', b.velocity);
      const w = b.angularVelocity === undefined ? 0 : checkNumber(path, 'angularVelocity', b.angularVelocity, -Infinity);
      const density = b.density === undefined ? DEFAULT_DENSITY : checkNumber(path, 'density', b.density, 0);
      const friction = b.friction === undefined ? DEFAULT_FRICTION : checkNumber(path, 'friction', b.friction, 0);
      const m = mass[b.shape]!;
      bodyShape[i] = b.shape;
      bodyPosition[2 * i] = p[0];
      bodyPosition[2 * i + 1] = p[1];
      bodyAngle[i] = angle;
      const o = i * S.state.words;
      const isDynamic = density > 0;
      dynamic[i] = isDynamic ? 1 : 0;
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
    const [frame, coloring, kernels] = await Promise.all([
      GpuFrame2D.create(device),
      GpuColoring.create(device),
      Promise.all(KERNELS.map((k) => cachedKernel(device, 'solver2d', k, solverWgsl))),
    ]);
    const k = Object.fromEntries(KERNELS.map((name, i) => [name, kernels[i]!])) as Record<KernelName, Kernel>;
    const packedBodies = packBodies2D({ bodyShape, bodyPosition, bodyAngle });
    return new GpuWorld2D(device, frame, coloring, k, packShapes2D(internal), packedBodies, states, dynamic, { gravity, margin, substeps });
  }

  /**
   * Records one step of `dt` seconds into `encoder`, with no readback. Submit it before the next
   * encodeStep(). When the frame's buffers overflowed, this step solved the contacts that fit; read
   * the counts a frame late (readCounts()) and call grow(counts).
   */
  encodeStep(encoder: GPUCommandEncoder, dt: number, retry = false): FrameOutputs2D {
    if (!(dt > 0) || !Number.isFinite(dt)) throw new RangeError(`dt must be a finite number > 0, got ${dt}`);
    const device = this.device;
    const out = this.frame.encode(encoder, { shapes: this.shapes, bodies: this.bodies, bodyCount: this.bodyCount, margin: this.margin }, retry);
    this.last = out;
    const capacity = out.contacts.capacity;
    const constraints = this.constraints.ensure(capacity * S.constraint.bytes);
    const h = dt / this.substeps;
    const hertz = Math.min(CONTACT_HERTZ, 0.25 / h);
    const soft = makeSoftness(hertz, CONTACT_DAMPING_RATIO, h);
    const hard = makeSoftness(STATIC_HERTZ_SCALE * hertz, CONTACT_DAMPING_RATIO, h);
    const buf = new ArrayBuffer(S.params.bytes);
    const f = new Float32Array(buf);
    const u = new Uint32Array(buf);
    f[S.params.gravity] = this.gravity[0];
    f[S.params.gravity + 1] = this.gravity[1];
    f[S.params.h] = h;
    f[S.params.invH] = 1 / h;
    u[S.params.bodyCount] = this.bodyCount;
    u[S.params.countWord] = CONTACTS_LAYOUT_2D.counts.written;
    f[S.params.contactBiasRate] = soft.biasRate;
    f[S.params.contactMassScale] = soft.massScale;
    f[S.params.contactImpulseScale] = soft.impulseScale;
    f[S.params.staticBiasRate] = hard.biasRate;
    f[S.params.staticMassScale] = hard.massScale;
    f[S.params.staticImpulseScale] = hard.impulseScale;
    device.queue.writeBuffer(this.params, 0, buf);

    const colors = this.coloring.encode(encoder, {
      pairs: out.contacts.keys,
      counts: out.contacts.counts,
      countWord: CONTACTS_LAYOUT_2D.counts.written,
      capacity,
      dynamicBodies: this.dynamicBodies,
      bodyCount: this.bodyCount,
    });
    const resources: Record<number, GPUBufferBinding> = {
      0: { buffer: this.params, offset: 0, size: S.params.bytes },
      2: { buffer: this.bodies },
      3: { buffer: this.states },
      4: { buffer: out.contacts.contacts },
      5: { buffer: out.contacts.userValues },
      6: { buffer: constraints },
      7: { buffer: out.contacts.counts },
      8: { buffer: colors },
    };
    const bindGroup = (name: KernelName, color = 0): GPUBindGroup =>
      device.createBindGroup({
        label: `world2d.${name}`,
        layout: this.kernels[name].layout,
        entries: kernelBindings(name).map((b) => ({
          binding: b,
          resource: b === 1 ? { buffer: this.passes, offset: color * UNIFORM_SLOT_BYTES, size: S.pass.bytes } : resources[b]!,
        })),
      });
    const contactGroups = Math.ceil(capacity / SOLVER_WORKGROUP_SIZE);
    const bodyGroups = Math.ceil(this.bodyCount / SOLVER_WORKGROUP_SIZE);
    const pass = encoder.beginComputePass({ label: 'world2d.solver' });
    const run = (name: KernelName, groups: number, group: GPUBindGroup): void => {
      pass.setPipeline(this.kernels[name].pipeline);
      pass.setBindGroup(0, group);
      dispatchRows(pass, groups);
    };
    run('solverPrepare2D', contactGroups, bindGroup('solverPrepare2D'));
    run('solverBegin2D', bodyGroups, bindGroup('solverBegin2D'));
    const perColor = (name: KernelName): GPUBindGroup[] => Array.from({ length: COLOR_ROUNDS + 1 }, (_, c) => bindGroup(name, c));
    const colorStages = (['solverWarmStart2D', 'solverSolve2D', 'solverRelax2D'] as const).map((name) => ({ name, groups: perColor(name) }));
    const [warm, solve, relax] = colorStages as [(typeof colorStages)[0], (typeof colorStages)[0], (typeof colorStages)[0]];
    const integrateV = bindGroup('solverIntegrateVelocities2D');
    const integrateP = bindGroup('solverIntegratePositions2D');
    const colored = (stage: typeof warm): void => {
      for (let c = 0; c < COLOR_ROUNDS; c++) run(stage.name, contactGroups, stage.groups[c]!);
      run(stage.name, 1, stage.groups[COLOR_ROUNDS]!); // the leftovers, serially
    };
    for (let s = 0; s < this.substeps; s++) {
      run('solverIntegrateVelocities2D', bodyGroups, integrateV);
      colored(warm);
      colored(solve);
      run('solverIntegratePositions2D', bodyGroups, integrateP);
      colored(relax);
    }
    run('solverStore2D', contactGroups, bindGroup('solverStore2D'));
    pass.end();
    return out;
  }

  /** The counts of the last submitted step's frame (a readback). */
  readCounts(): Promise<FrameCounts2D> {
    return this.frame.readCounts();
  }

  /** Grows the frame's buffers after a step whose counts overflowed (from readCounts()). */
  grow(counts: FrameCounts2D): void {
    if (counts.pairsOverflow) this.frame.broadphase.setCapacity(Math.ceil(counts.pairs * CONTACTS_GROWTH));
    if (counts.contactsOverflow) this.frame.contacts.setCapacity(Math.ceil(counts.contacts * CONTACTS_GROWTH));
  }

  /**
   * One step with readback: when the frame overflowed, the bodies are restored, the buffers grow
   * and the step runs again, so no contact is ever dropped.
   */
  async step(dt: number): Promise<FrameCounts2D> {
    for (let runs = 0; ; runs++) {
      const encoder = this.device.createCommandEncoder({ label: 'world2d.step' });
      if (runs === 0) {
        encoder.copyBufferToBuffer(this.bodies, 0, this.bodiesBackup, 0, this.bodies.size);
        encoder.copyBufferToBuffer(this.states, 0, this.statesBackup, 0, this.states.size);
      } else {
        encoder.copyBufferToBuffer(this.bodiesBackup, 0, this.bodies, 0, this.bodies.size);
        encoder.copyBufferToBuffer(this.statesBackup, 0, this.states, 0, this.states.size);
      }
      this.encodeStep(encoder, dt, runs > 0);
      this.device.queue.submit([encoder.finish()]);
      const counts = await this.readCounts();
      if (!counts.pairsOverflow && !counts.contactsOverflow) return counts;
      if (runs > 4) throw new CapacityError(`world2d: the frame still overflowed after ${runs + 1} runs (${JSON.stringify(counts)})`);
      this.grow(counts);
    }
  }

  /** The last step's frame outputs (dense contacts, user values, counts on the GPU), or null. */
  lastOutputs(): FrameOutputs2D | null {
    return this.last;
  }

  async readBodies(): Promise<{ position: Vec2; angle: number }[]> {
    const L = LAYOUT_2D.body;
    const f = new Float32Array(await readBuffer(this.device, this.bodies, this.bodyCount * L.words * 4));
    return Array.from({ length: this.bodyCount }, (_, i) => {
      const o = i * L.words;
      return { position: [f[o + L.position]!, f[o + L.position + 1]!] as Vec2, angle: Math.atan2(f[o + L.rotation + 1]!, f[o + L.rotation]!) };
    });
  }

  /** The raw Body2D bytes (for determinism checks). */
  async readBodyBytes(): Promise<ArrayBuffer> {
    return readBuffer(this.device, this.bodies, this.bodyCount * LAYOUT_2D.body.words * 4);
  }

  /** The raw BodyState2D bytes. */
  async readStateBytes(): Promise<ArrayBuffer> {
    return readBuffer(this.device, this.states, this.bodyCount * S.state.bytes);
  }

  destroy(): void {
    for (const b of [this.bodies, this.shapes, this.states, this.dynamicBodies, this.bodiesBackup, this.statesBackup, this.params, this.passes]) b.destroy();
    this.constraints.destroy();
    this.coloring.destroy();
    this.frame.destroy();
  }
}
