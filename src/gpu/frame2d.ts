// A whole 2D collision frame on the GPU, for engines: broadphase (src/gpu/broadphase2d.ts) →
// narrowphase over the pairs it found, dispatched indirectly (no readback between stages) → dense,
// canonically ordered contact list with persistent user values (src/gpu/contacts2d.ts).
//
//   const frame = await GpuFrame2D.create(device);
//   const out = frame.encode(encoder, { shapes, bodies, bodyCount, margin }); // your buffers, your encoder
//   device.queue.submit([encoder.finish()]);
//   // out.contacts / out.userValues / out.counts stay on the GPU; frame.readCounts() when you want them.
//
// Every fixed-size buffer counts what did not fit (broadphase pairs, dense contacts); step() reads
// those counts, grows and reruns the frame, so nothing is dropped. An engine that never reads back
// can call readCounts() a frame late and grow then.

import { CapacityError } from '../errors.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { BROADPHASE_LAYOUT_2D, GpuBroadphase2D, type BroadphaseOutputs2D } from './broadphase2d.ts';
import { CONTACTS_GROWTH, CONTACTS_LAYOUT_2D, GpuContacts2D, type ContactsOutputs2D } from './contacts2d.ts';
import { GrowingBuffer, PassTimer, readBuffer } from './buffers.ts';
import { narrowphase2DPipeline, type KernelPipeline } from './pipelines.ts';

export interface FrameInputs2D {
  /** array<Shape2D> (shaders/layout2d.wgsl), STORAGE usage. */
  shapes: GPUBuffer;
  /** array<Body2D>, STORAGE usage: may be the engine's own buffer in this layout. */
  bodies: GPUBuffer;
  bodyCount: number;
  /** Speculative distance, scene units. */
  margin: number;
}

export interface FrameOutputs2D {
  broadphase: BroadphaseOutputs2D;
  /** Manifold2D slots, one per broadphase pair (broadphase.counts.written of them). */
  manifolds: GPUBuffer;
  contacts: ContactsOutputs2D;
}

export interface FrameCounts2D {
  pairs: number;
  pairsOverflow: boolean;
  contacts: number;
  contactsOverflow: boolean;
}

export interface FrameTimings2D {
  broadphase: number;
  narrowphase: number;
  compaction: number;
  persistence: number;
  total: number;
}

export interface FrameResult2D {
  counts: FrameCounts2D;
  /** ContactManifold2D entries (CONTACTS_LAYOUT_2D), counts.contacts of them, ordered by (bodyA, bodyB). */
  contacts: ArrayBuffer;
  /** ContactUserValues2D per entry, carried from last frame by pair and feature id. */
  userValues: ArrayBuffer;
  /** Times the frame was recorded (more than 1 after a buffer grew). */
  runs: number;
  timings: FrameTimings2D | null;
  wallMs: number;
}

export class GpuFrame2D {
  private readonly manifolds: GrowingBuffer;
  private readonly params: GPUBuffer;
  private readonly timer: PassTimer;
  private last: FrameOutputs2D | null = null;

  private constructor(
    readonly device: GPUDevice,
    readonly broadphase: GpuBroadphase2D,
    readonly contacts: GpuContacts2D,
    private readonly kernel: KernelPipeline,
    timestamps: boolean,
  ) {
    this.manifolds = new GrowingBuffer(device, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, 'frame2d-manifolds');
    this.params = device.createBuffer({ label: 'frame2d-params', size: LAYOUT_2D.params.bytes, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    this.timer = new PassTimer(device, ['kernel'], timestamps);
  }

  static async create(device: GPUDevice, timestamps = device.features.has('timestamp-query')): Promise<GpuFrame2D> {
    const [broadphase, contacts, kernel] = await Promise.all([
      GpuBroadphase2D.create(device, timestamps),
      GpuContacts2D.create(device),
      narrowphase2DPipeline(device),
    ]);
    return new GpuFrame2D(device, broadphase, contacts, kernel, timestamps);
  }

  /**
   * Records the frame into `encoder`. Submit it before the next encode() on this instance.
   * `retry` re-records the same frame after an overflow (persistence then still reads last frame).
   */
  encode(encoder: GPUCommandEncoder, inputs: FrameInputs2D, retry = false): FrameOutputs2D {
    const bp = this.broadphase.encode(encoder, inputs);
    const manifoldBytes = bp.capacity * LAYOUT_2D.manifold.words * 4;
    const limit = this.device.limits.maxStorageBufferBindingSize;
    if (manifoldBytes > limit) {
      // Refused before any narrowphase work is recorded; batching a frame is not built yet.
      throw new CapacityError(
        `frame2d: ${bp.capacity} pair slots need ${manifoldBytes} bytes of manifolds; this device binds at most ${limit} bytes per buffer. Collide fewer bodies per frame.`,
      );
    }
    const manifolds = this.manifolds.ensure(manifoldBytes);
    // The broadphase wrote the narrowphase's Params2D (pair count, margin, row pitch) and the
    // dispatch size on the GPU: copy the one, dispatch by the other.
    encoder.copyBufferToBuffer(bp.counts, 4 * BROADPHASE_LAYOUT_2D.counts.narrowphase, this.params, 0, LAYOUT_2D.params.bytes);
    const bindGroup = this.device.createBindGroup({
      layout: this.kernel.layout,
      entries: [
        { binding: 0, resource: { buffer: inputs.shapes } },
        { binding: 1, resource: { buffer: inputs.bodies } },
        { binding: 2, resource: { buffer: bp.pairs } },
        { binding: 3, resource: { buffer: manifolds } },
        { binding: 4, resource: { buffer: this.params } },
      ],
    });
    const pass = encoder.beginComputePass(this.timer.passDescriptor());
    pass.setPipeline(this.kernel.pipeline);
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroupsIndirect(bp.indirect, 0);
    pass.end();
    this.timer.resolve(encoder);
    const contacts = this.contacts.encode(encoder, {
      manifolds,
      pairs: bp.pairs,
      pairCountSource: { buffer: bp.counts, offset: 4 * BROADPHASE_LAYOUT_2D.counts.written },
      pairSlots: bp.capacity,
      bodyCount: inputs.bodyCount,
      retry,
    });
    this.last = { broadphase: bp, manifolds, contacts };
    return this.last;
  }

  /** The counts of the last submitted frame (a readback). */
  async readCounts(): Promise<FrameCounts2D> {
    if (!this.last) throw new Error('readCounts() before any encode()');
    const bp = new Uint32Array(await readBuffer(this.device, this.last.broadphase.counts, BROADPHASE_LAYOUT_2D.counts.bytes));
    const ct = new Uint32Array(await readBuffer(this.device, this.last.contacts.counts, CONTACTS_LAYOUT_2D.counts.bytes));
    return {
      pairs: bp[BROADPHASE_LAYOUT_2D.counts.total]!,
      pairsOverflow: bp[BROADPHASE_LAYOUT_2D.counts.overflow]! !== 0,
      contacts: ct[CONTACTS_LAYOUT_2D.counts.total]!,
      contactsOverflow: ct[CONTACTS_LAYOUT_2D.counts.overflow]! !== 0,
    };
  }

  /**
   * One frame with readback: encodes, submits, and when a buffer overflowed grows it and runs the
   * frame again (the result then equals an unconstrained run); reads the dense contacts back.
   */
  async step(inputs: FrameInputs2D): Promise<FrameResult2D> {
    const start = performance.now();
    let runs = 0;
    let counts: FrameCounts2D;
    for (;;) {
      const encoder = this.device.createCommandEncoder({ label: 'frame2d' });
      this.encode(encoder, inputs, runs > 0);
      this.device.queue.submit([encoder.finish()]);
      runs++;
      counts = await this.readCounts();
      if (!counts.pairsOverflow && !counts.contactsOverflow) break;
      if (counts.pairsOverflow) this.broadphase.setCapacity(Math.ceil(counts.pairs * CONTACTS_GROWTH));
      if (counts.contactsOverflow) this.contacts.setCapacity(Math.ceil(counts.contacts * CONTACTS_GROWTH));
    }
    const out = this.last!;
    const entries = counts.contacts;
    const contacts = await readBuffer(this.device, out.contacts.contacts, Math.max(4, entries * CONTACTS_LAYOUT_2D.contact.bytes));
    const userValues = await readBuffer(this.device, out.contacts.userValues, Math.max(4, entries * CONTACTS_LAYOUT_2D.userValues.bytes));
    let timings: FrameTimings2D | null = null;
    const narrow = await this.timer.readMs();
    const bt = await this.broadphase.readTimings();
    const ctt = await this.contacts.readTimings();
    if (narrow !== null && bt && ctt) {
      const broadphase = bt.total;
      const compaction = ctt.compact + ctt.order;
      timings = { broadphase, narrowphase: narrow, compaction, persistence: ctt.persist, total: broadphase + narrow + compaction + ctt.persist };
    }
    return { counts, contacts, userValues, runs, timings, wallMs: performance.now() - start };
  }

  destroy(): void {
    this.manifolds.destroy();
    this.params.destroy();
    this.timer.destroy();
    this.broadphase.destroy();
    this.contacts.destroy();
  }
}
