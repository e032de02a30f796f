// The 3D narrowphase on the GPU: uploads packed shapes (with the four flat hull buffers), bodies
// and pairs, dispatches one invocation per pair, and reads back one Manifold3D slot per pair.
// Buffers are pooled and grow. A Manifold3D slot is 160 bytes, so a million pairs need more than
// the 128 MiB a device may bind at once (lavapipe's limit): the pairs are dispatched in chunks,
// each binding its range of the pair and manifold buffers, in one compute pass. A run that does not
// fit the device's buffer limits at all is refused before any GPU work, naming the count. The pairs
// run as pair classes (src/gpu/pair-classes.ts): split on the GPU by shape kinds, each class by its
// own pipeline, compiled on first use for the classes the scene's shapes can form.

import { WORKGROUP_SIZE_3D } from '../constants3d.ts';
import { CapacityError } from '../errors.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { manifoldBytes3D, type Packed3D } from '../pack3d.ts';
import { dispatchGrid, GrowingBuffer, PassTimer, submitAndReadManifolds, upload } from './buffers.ts';
import type { GpuRunResult } from './buffers.ts';
import { guardDeviceLoss } from './device.ts';
import { classKernel, GpuPairClasses } from './pair-classes.ts';
import { classesOfKinds3D, classesOfPairs3D, NARROWPHASE_DIMENSION_3D, type NarrowphaseInputs3D, type PairClass3D, type ShapeKindName3D } from './pair-classes3d.ts';

/** Workgroup grid for `pairCount` invocations of the 3D kernel. */
export function dispatchGrid3D(pairCount: number): { x: number; y: number; rowPitch: number } {
  return dispatchGrid(pairCount, WORKGROUP_SIZE_3D);
}

export interface GpuNarrowphase3DOptions {
  /** Most pairs per dispatch (rounded down to a multiple of 256); default: what the binding limit allows. */
  maxPairsPerDispatch?: number;
  /** Shape kinds whose pair classes to compile now (run() compiles what a scene needs on first use). */
  kinds?: readonly ShapeKindName3D[];
  /**
   * 'general': every pair through the one kernel holding every path, as before pair classes (the
   * tests' and the bench's reference). Default 'classes'.
   */
  kernel?: 'classes' | 'general';
}

const MANIFOLD_BYTES = LAYOUT_3D.manifold.words * 4;
const PAIR_BYTES = 8;
/** Chunks start at multiples of this many pairs, so both buffer offsets meet any offset alignment (<= 256 bytes). */
const CHUNK_ALIGN_PAIRS = 256;

export class GpuNarrowphase3D {
  private readonly shapes: GrowingBuffer;
  private readonly hullVertices: GrowingBuffer;
  private readonly hullPlanes: GrowingBuffer;
  private readonly hullFaces: GrowingBuffer;
  private readonly hullIndices: GrowingBuffer;
  private readonly bodies: GrowingBuffer;
  private readonly pairs: GrowingBuffer;
  private readonly manifolds: GrowingBuffer;
  private readonly readback: GrowingBuffer;
  /** One params uniform per chunk (the general kernel). */
  private readonly params: GPUBuffer[] = [];
  /** Per chunk: its pair count, the classifier's count source. */
  private readonly counts: GrowingBuffer;
  private readonly timer: PassTimer;
  /** Most pairs per dispatch. */
  readonly maxPairsPerDispatch: number;

  private constructor(readonly device: GPUDevice, readonly classes: GpuPairClasses<PairClass3D, NarrowphaseInputs3D>, timestamps: boolean, private readonly options: GpuNarrowphase3DOptions) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST;
    this.shapes = new GrowingBuffer(device, S, 'shapes3d');
    this.hullVertices = new GrowingBuffer(device, S, 'hull-vertices3d');
    this.hullPlanes = new GrowingBuffer(device, S, 'hull-planes3d');
    this.hullFaces = new GrowingBuffer(device, S, 'hull-faces3d');
    this.hullIndices = new GrowingBuffer(device, S, 'hull-indices3d');
    this.bodies = new GrowingBuffer(device, S, 'bodies3d');
    this.pairs = new GrowingBuffer(device, S, 'pairs3d');
    this.manifolds = new GrowingBuffer(device, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'manifolds3d');
    this.readback = new GrowingBuffer(device, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST, 'manifolds3d-readback');
    this.counts = new GrowingBuffer(device, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST, 'pair-counts3d');
    this.timer = new PassTimer(device, ['kernel'], timestamps);
    const limit = device.limits.maxStorageBufferBindingSize;
    const byLimit = Math.floor(Math.min(limit / MANIFOLD_BYTES, limit / PAIR_BYTES) / CHUNK_ALIGN_PAIRS) * CHUNK_ALIGN_PAIRS;
    const wanted = options.maxPairsPerDispatch ?? byLimit;
    this.maxPairsPerDispatch = Math.max(CHUNK_ALIGN_PAIRS, Math.floor(Math.min(wanted, byLimit) / CHUNK_ALIGN_PAIRS) * CHUNK_ALIGN_PAIRS);
  }

  /**
   * The classifier and the pipelines of the classes `options.kinds` can form (none by default: run()
   * compiles what each scene needs); `timestamps` needs a device created with 'timestamp-query'.
   */
  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query'), options: GpuNarrowphase3DOptions = {}): Promise<GpuNarrowphase3D> {
    const classes = await GpuPairClasses.create(device, NARROWPHASE_DIMENSION_3D, classesOfKinds3D(options.kinds ?? []));
    return new GpuNarrowphase3D(device, classes, timestamps, options);
  }

  /** Milliseconds each class's pipeline took to compile (classes compiled so far). */
  get compileMs(): Partial<Record<PairClass3D, number>> {
    return this.classes.compileMs;
  }

  /** The classes the pairs of `packed` fall in (run() compiles and runs those). */
  classesFor(packed: Packed3D): PairClass3D[] {
    return classesOfPairs3D(packed);
  }

  /** Refuses a run the device cannot hold, before anything is uploaded. */
  checkCapacity(packed: Packed3D): void {
    const binding = this.device.limits.maxStorageBufferBindingSize;
    const buffer = this.device.limits.maxBufferSize;
    const need = manifoldBytes3D(packed.pairCount);
    const inputs = [packed.bodies.byteLength, packed.shapes.byteLength, packed.hullVertices.byteLength, packed.hullPlanes.byteLength, packed.hullFaces.byteLength, packed.hullIndices.byteLength];
    if (need > buffer || packed.pairs.byteLength > buffer || inputs.some((b) => b > binding)) {
      throw new CapacityError(
        `pairs: ${packed.pairCount} pairs need ${need} bytes of manifold storage (bodies ${packed.bodies.byteLength}, hull vertices ${packed.hullVertices.byteLength}); ` +
          `this device holds at most ${buffer} bytes per buffer and binds ${binding}. Split the pairs or the scene into batches.`,
      );
    }
  }

  /** Runs every pair of `packed` and reads the manifold slots back. */
  async run(packed: Packed3D): Promise<GpuRunResult> {
    this.checkCapacity(packed);
    const general = this.options.kernel === 'general' ? await classKernel(this.device, NARROWPHASE_DIMENSION_3D, 'general') : null;
    if (!general) await this.classes.prepare(this.classesFor(packed));
    const start = performance.now();
    const device = this.device;
    const manifoldBytes = manifoldBytes3D(packed.pairCount);
    const shapes = this.shapes.ensure(packed.shapes.byteLength);
    const hullVertices = this.hullVertices.ensure(packed.hullVertices.byteLength);
    const hullPlanes = this.hullPlanes.ensure(packed.hullPlanes.byteLength);
    const hullFaces = this.hullFaces.ensure(packed.hullFaces.byteLength);
    const hullIndices = this.hullIndices.ensure(packed.hullIndices.byteLength);
    const bodies = this.bodies.ensure(packed.bodies.byteLength);
    const pairs = this.pairs.ensure(Math.max(PAIR_BYTES, packed.pairs.byteLength));
    const manifolds = this.manifolds.ensure(manifoldBytes);
    const readback = this.readback.ensure(manifoldBytes);
    upload(device, shapes, packed.shapes);
    upload(device, hullVertices, packed.hullVertices);
    upload(device, hullPlanes, packed.hullPlanes);
    upload(device, hullFaces, packed.hullFaces);
    upload(device, hullIndices, packed.hullIndices);
    upload(device, bodies, packed.bodies);
    upload(device, pairs, packed.pairs);

    // Chunks of at most maxPairsPerDispatch pairs, each with its buffer ranges.
    const chunk = this.maxPairsPerDispatch;
    const chunks = Math.max(1, Math.ceil(packed.pairCount / chunk));
    const inputs: NarrowphaseInputs3D = { shapes, hullVertices, hullPlanes, hullFaces, hullIndices, bodies };
    const encoder = device.createCommandEncoder({ label: 'narrowphase3d' });
    const ranges = Array.from({ length: chunks }, (_, c) => {
      const first = c * chunk;
      const count = Math.min(chunk, packed.pairCount - first);
      return {
        count,
        pairs: { buffer: pairs, offset: first * PAIR_BYTES, size: Math.max(1, count) * PAIR_BYTES },
        manifolds: { buffer: manifolds, offset: first * MANIFOLD_BYTES, size: Math.max(1, count) * MANIFOLD_BYTES },
      };
    });
    if (general) {
      const pass = encoder.beginComputePass(this.timer.passDescriptor('kernel', 'narrowphase3d'));
      pass.setPipeline(general.pipeline);
      ranges.forEach((r, c) => {
        while (this.params.length <= c) {
          this.params.push(device.createBuffer({ label: `params3d-${this.params.length}`, size: LAYOUT_3D.params.bytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST }));
        }
        const grid = dispatchGrid3D(r.count);
        const params = new ArrayBuffer(LAYOUT_3D.params.bytes);
        new Uint32Array(params)[LAYOUT_3D.params.pairCount] = r.count;
        new Float32Array(params)[LAYOUT_3D.params.margin] = packed.margin;
        new Uint32Array(params)[LAYOUT_3D.params.rowPitch] = grid.rowPitch;
        device.queue.writeBuffer(this.params[c]!, 0, params);
        pass.setBindGroup(0, device.createBindGroup({ layout: general.layout, entries: NARROWPHASE_DIMENSION_3D.bindings(inputs, r.pairs, r.manifolds, this.params[c]!) }));
        if (r.count > 0) pass.dispatchWorkgroups(grid.x, grid.y);
      });
      pass.end();
    } else {
      // The pair count of each chunk on the GPU, where the classifier reads it.
      const counts = this.counts.ensure(4 * chunks);
      device.queue.writeBuffer(counts, 0, new Uint32Array(ranges.map((r) => r.count)));
      ranges.forEach((r, c) => {
        const passes = {
          classify: this.timer.passDescriptor('kernel', 'narrowphase3d.classify', c === 0 ? 'begin' : 'none'),
          collide: this.timer.passDescriptor('kernel', 'narrowphase3d.classes', c === chunks - 1 ? 'end' : 'none'),
        };
        this.classes.encode(encoder, { inputs, pairs: r.pairs, manifolds: r.manifolds, slots: Math.max(1, r.count), count: { buffer: counts, offset: 4 * c }, margin: packed.margin }, c, passes);
      });
    }
    return guardDeviceLoss(device, () => submitAndReadManifolds(device, encoder, this.timer, manifolds, readback, manifoldBytes, start));
  }

  destroy(): void {
    for (const b of [this.shapes, this.hullVertices, this.hullPlanes, this.hullFaces, this.hullIndices, this.bodies, this.pairs, this.manifolds, this.readback, this.counts]) b.destroy();
    this.classes.destroy();
    for (const p of this.params) p.destroy();
    this.params.length = 0;
    this.timer.destroy();
  }
}
