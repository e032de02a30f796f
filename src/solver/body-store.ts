// A world's bodies on the GPU: the Body2D/Body3D buffer (moved in place by the solver, read by the
// frame and renderers), the solver's per-body states, the dynamic flags, and the backups step()
// restores from. Bodies can be appended and removed between steps; removal keeps the others in
// order, so their contacts persist through the remap the next frame gets.

export const BODY_NONE = 0xffffffff;

const STORAGE = (): number =>
  GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** Buffers grow to this many times the bodies they must hold, so appends rarely replace them. */
const GROWTH = 1.5;

export class BodyStore {
  bodies!: GPUBuffer;
  states!: GPUBuffer;
  dynamicBodies!: GPUBuffer;
  bodiesBackup!: GPUBuffer;
  statesBackup!: GPUBuffer;
  /** Per body: 1 dynamic, 0 static (host copy). */
  dynamic: Uint32Array;
  count: number;
  private capacity = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly label: string,
    readonly bodyBytes: number,
    readonly stateBytes: number,
    bodies: ArrayBuffer,
    states: ArrayBuffer,
    dynamic: Uint32Array,
  ) {
    this.count = dynamic.length;
    this.dynamic = dynamic.slice();
    this.allocate(this.count);
    this.write(0, bodies, states, dynamic);
  }

  /** New buffers for `capacity` bodies (the old ones' contents copied, then destroyed). */
  private allocate(capacity: number): void {
    const make = (name: string, bytes: number, usage: number): GPUBuffer =>
      this.device.createBuffer({
        label: `${this.label}-${name}`,
        size: Math.max(16, Math.ceil(bytes / 16) * 16),
        usage,
      });
    const old =
      this.capacity > 0
        ? [this.bodies, this.states, this.dynamicBodies, this.bodiesBackup, this.statesBackup]
        : null;
    const bodies = make('bodies', capacity * this.bodyBytes, STORAGE() | GPUBufferUsage.VERTEX);
    const states = make('states', capacity * this.stateBytes, STORAGE());
    const dynamicBodies = make('dynamic', 4 * capacity, STORAGE());
    if (old) {
      const encoder = this.device.createCommandEncoder({ label: `${this.label}.grow` });
      encoder.copyBufferToBuffer(old[0], 0, bodies, 0, this.count * this.bodyBytes);
      encoder.copyBufferToBuffer(old[1], 0, states, 0, this.count * this.stateBytes);
      encoder.copyBufferToBuffer(old[2], 0, dynamicBodies, 0, 4 * this.count);
      this.device.queue.submit([encoder.finish()]);
      for (const b of old) b.destroy();
    }
    this.bodies = bodies;
    this.states = states;
    this.dynamicBodies = dynamicBodies;
    this.bodiesBackup = make(
      'bodies-backup',
      bodies.size,
      GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    );
    this.statesBackup = make(
      'states-backup',
      states.size,
      GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    );
    this.capacity = capacity;
  }

  private write(
    first: number,
    bodies: ArrayBuffer,
    states: ArrayBuffer,
    dynamic: Uint32Array,
  ): void {
    const q = this.device.queue;
    if (dynamic.length === 0) return;
    q.writeBuffer(this.bodies, first * this.bodyBytes, bodies, 0, dynamic.length * this.bodyBytes);
    q.writeBuffer(
      this.states,
      first * this.stateBytes,
      states,
      0,
      dynamic.length * this.stateBytes,
    );
    q.writeBuffer(
      this.dynamicBodies,
      4 * first,
      dynamic.buffer,
      dynamic.byteOffset,
      dynamic.byteLength,
    );
  }

  /**
   * Appends bodies (packed as the world packs them); returns the remap of this change: per body
   * after it, its index before, or BODY_NONE for the new ones. May replace the buffers.
   */
  append(bodies: ArrayBuffer, states: ArrayBuffer, dynamic: Uint32Array): Uint32Array {
    const before = this.count;
    const after = before + dynamic.length;
    if (after > this.capacity) this.allocate(Math.ceil(after * GROWTH));
    this.write(before, bodies, states, dynamic);
    const grown = new Uint32Array(after);
    grown.set(this.dynamic);
    grown.set(dynamic, before);
    this.dynamic = grown;
    this.count = after;
    return Uint32Array.from({ length: after }, (_, i) => (i < before ? i : BODY_NONE));
  }

  /**
   * Removes the bodies at `indices` (distinct, in range: the caller checks), keeping the others in
   * order; returns the remap (per body after, its index before). The buffers stay the same.
   */
  remove(indices: readonly number[]): Uint32Array {
    const gone = new Set(indices);
    const kept: number[] = [];
    for (let i = 0; i < this.count; i++) if (!gone.has(i)) kept.push(i);
    // Runs of kept bodies, copied through the backups (a buffer cannot be copied onto itself).
    const encoder = this.device.createCommandEncoder({ label: `${this.label}.remove` });
    const pairs: [GPUBuffer, GPUBuffer, number][] = [
      [this.bodies, this.bodiesBackup, this.bodyBytes],
      [this.states, this.statesBackup, this.stateBytes],
    ];
    for (const [live, backup, bytes] of pairs) {
      for (let j = 0; j < kept.length;) {
        let end = j + 1;
        while (end < kept.length && kept[end] === kept[end - 1] + 1) end++;
        encoder.copyBufferToBuffer(live, kept[j] * bytes, backup, j * bytes, (end - j) * bytes);
        j = end;
      }
      if (kept.length > 0) encoder.copyBufferToBuffer(backup, 0, live, 0, kept.length * bytes);
    }
    this.device.queue.submit([encoder.finish()]);
    this.dynamic = Uint32Array.from(kept, (i) => this.dynamic[i]);
    if (this.dynamic.length > 0) this.device.queue.writeBuffer(this.dynamicBodies, 0, this.dynamic);
    this.count = kept.length;
    return Uint32Array.from(kept);
  }

  destroy(): void {
    for (const b of [
      this.bodies,
      this.states,
      this.dynamicBodies,
      this.bodiesBackup,
      this.statesBackup,
    ])
      b.destroy();
  }
}

/** The remap from the bodies of two changes ago: `later` after `earlier` (either may be null: none). */
export function composeRemaps(earlier: Uint32Array | null, later: Uint32Array): Uint32Array {
  if (!earlier) return later;
  return later.map((i) => (i === BODY_NONE ? BODY_NONE : earlier[i]));
}
