// The solver's GpuWorld3D (src/solver/world3d.ts) without the solver, with the same surface
// (?motion=kinematic in the demo's URL): the same bodies and options, but the bodies move
// kinematically on the host: gravity, free flight, elastic bounces off the static bodies' faces,
// no contact response between bodies. Each step uploads the bodies (array<Body3D>) and records
// the library's whole GPU collision frame (GpuFrame3D) into the caller's encoder.

import { CONTACTS_GROWTH } from '../../src/constants.ts';
import { GpuFrame3D, type FrameCounts3D, type FrameOutputs3D } from '../../src/gpu/frame3d.ts';
import { LAYOUT_3D } from '../../src/layout3d.ts';
import { packShapes3D } from '../../src/pack3d.ts';
import { shapeKindNames3D, type ShapeKindName3D } from '../../src/shape-kinds3d.ts';
import { makeShape3D, type Shape3D, type Shape3DInput, type Vec3 } from '../../src/shapes3d.ts';
import type { WorldBody3D, WorldOptions3D } from '../../src/solver/world3d.ts';

const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;

export class KinematicWorld3D {
  readonly bodyCount: number;
  readonly bodies: GPUBuffer;
  readonly shapes: GPUBuffer;
  readonly hullVertices: GPUBuffer;
  readonly hullPlanes: GPUBuffer;
  readonly hullFaces: GPUBuffer;
  readonly hullIndices: GPUBuffer;
  private readonly position: Float64Array;
  private readonly rotation: Float64Array;
  private readonly velocity: Float64Array;
  private readonly spin: Float64Array;
  /** Per body: bounding radius about the body origin; 0 for static bodies. */
  private readonly reach: Float64Array;
  private readonly packed: ArrayBuffer;
  private readonly lo: Vec3 = [-Infinity, -Infinity, -Infinity];
  private readonly hi: Vec3 = [Infinity, Infinity, Infinity];

  private constructor(
    readonly device: GPUDevice,
    readonly frame: GpuFrame3D,
    shapes: Shape3D[],
    bodies: WorldBody3D[],
    private readonly gravity: Vec3,
    readonly margin: number,
    private readonly kinds: readonly ShapeKindName3D[],
  ) {
    const n = bodies.length;
    this.bodyCount = n;
    this.position = new Float64Array(3 * n);
    this.rotation = new Float64Array(4 * n);
    this.velocity = new Float64Array(3 * n);
    this.spin = new Float64Array(3 * n);
    this.reach = new Float64Array(n);
    this.packed = new ArrayBuffer(Math.max(1, n) * LAYOUT_3D.body.words * 4);
    const u32 = new Uint32Array(this.packed);
    const movingLo: Vec3 = [Infinity, Infinity, Infinity];
    const movingHi: Vec3 = [-Infinity, -Infinity, -Infinity];
    bodies.forEach((b, i) => {
      this.position.set(b.position, 3 * i);
      this.rotation.set(b.rotation ?? [0, 0, 0, 1], 4 * i);
      this.velocity.set(b.velocity ?? [0, 0, 0], 3 * i);
      this.spin.set(b.angularVelocity ?? [0, 0, 0], 3 * i);
      u32[i * LAYOUT_3D.body.words + LAYOUT_3D.body.shape] = b.shape;
      const s = shapes[b.shape]!;
      this.reach[i] = b.density === 0 ? 0 : Math.hypot(...s.center) + s.extent + s.radius;
      if (b.density === 0) return;
      for (let k = 0; k < 3; k++) {
        movingLo[k] = Math.min(movingLo[k]!, b.position[k]!);
        movingHi[k] = Math.max(movingHi[k]!, b.position[k]!);
      }
    });
    // Walls: a static body's face limits the moving bodies on the side they start (axis-aligned
    // static boxes; their rotation is ignored).
    bodies.forEach((b) => {
      if (b.density !== 0) return;
      const s = shapes[b.shape]!;
      for (let k = 0; k < 3; k++) {
        let half = 0;
        for (let v = 0; v < s.vertexCount; v++)
          half = Math.max(half, Math.abs(s.center[k]! + s.vertices[3 * v + k]!));
        if (b.position[k]! + half <= movingLo[k]!)
          this.lo[k] = Math.max(this.lo[k]!, b.position[k]! + half);
        if (b.position[k]! - half >= movingHi[k]!)
          this.hi[k] = Math.min(this.hi[k]!, b.position[k]! - half);
      }
    });
    const p = packShapes3D(shapes);
    const buffer = (label: string, data: ArrayBuffer | ArrayBufferView): GPUBuffer => {
      const b = device.createBuffer({
        label: `demo-${label}`,
        size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
        usage: STORAGE,
      });
      device.queue.writeBuffer(
        b,
        0,
        data instanceof ArrayBuffer ? data : data.buffer,
        data instanceof ArrayBuffer ? 0 : data.byteOffset,
        data.byteLength,
      );
      return b;
    };
    this.shapes = buffer('shapes3d', p.shapes);
    this.hullVertices = buffer('hull-vertices', p.hullVertices);
    this.hullPlanes = buffer('hull-planes', p.hullPlanes);
    this.hullFaces = buffer('hull-faces', p.hullFaces);
    this.hullIndices = buffer('hull-indices', p.hullIndices);
    this.bodies = device.createBuffer({
      label: 'demo-bodies3d',
      size: Math.max(16, this.packed.byteLength),
      usage: STORAGE | GPUBufferUsage.VERTEX,
    });
    this.pack();
  }

  static async create(
    device: GPUDevice,
    shapes: Shape3DInput[],
    bodies: WorldBody3D[],
    options: WorldOptions3D = {},
  ): Promise<KinematicWorld3D> {
    const built = shapes.map((s, i) => makeShape3D(s, i));
    bodies.forEach((b, i) => {
      if (!(b.shape >= 0 && b.shape < built.length))
        throw new RangeError(`bodies[${i}].shape ${b.shape} is not a shape index`);
    });
    const kinds = shapeKindNames3D(built);
    return new KinematicWorld3D(
      device,
      await GpuFrame3D.create(device, undefined, { kinds }),
      built,
      bodies,
      options.gravity ?? [0, -10, 0],
      options.margin ?? 0.01,
      kinds,
    );
  }

  private advance(dt: number): void {
    const p = this.position;
    const q = this.rotation;
    const v = this.velocity;
    const w = this.spin;
    for (let i = 0; i < this.bodyCount; i++) {
      const r = this.reach[i]!;
      if (r === 0) continue;
      for (let k = 0; k < 3; k++) {
        const j = 3 * i + k;
        v[j] += this.gravity[k]! * dt;
        p[j] += v[j]! * dt;
        if (p[j]! - r < this.lo[k]!) {
          p[j] = this.lo[k]! + r;
          v[j] = Math.abs(v[j]!);
        }
        if (p[j]! + r > this.hi[k]!) {
          p[j] = this.hi[k]! - r;
          v[j] = -Math.abs(v[j]!);
        }
      }
      // q += dt/2 (ω, 0) ⊗ q, renormalised.
      const [wx, wy, wz] = [w[3 * i]!, w[3 * i + 1]!, w[3 * i + 2]!];
      const [x, y, z, s] = [q[4 * i]!, q[4 * i + 1]!, q[4 * i + 2]!, q[4 * i + 3]!];
      const h = dt / 2;
      const nx = x + h * (wx * s + wy * z - wz * y);
      const ny = y + h * (wy * s + wz * x - wx * z);
      const nz = z + h * (wz * s + wx * y - wy * x);
      const ns = s - h * (wx * x + wy * y + wz * z);
      const l = Math.hypot(nx, ny, nz, ns);
      q[4 * i] = nx / l;
      q[4 * i + 1] = ny / l;
      q[4 * i + 2] = nz / l;
      q[4 * i + 3] = ns / l;
    }
  }

  private pack(): void {
    const f = new Float32Array(this.packed);
    const { words, position, rotation } = LAYOUT_3D.body;
    for (let i = 0; i < this.bodyCount; i++) {
      const o = i * words;
      for (let k = 0; k < 3; k++) f[o + position + k] = this.position[3 * i + k]!;
      for (let k = 0; k < 4; k++) f[o + rotation + k] = this.rotation[4 * i + k]!;
    }
    this.device.queue.writeBuffer(this.bodies, 0, this.packed);
  }

  private afresh = false;

  /** The next frame collides every pair anew (no manifold reuse), as GpuWorld's. */
  collideAfreshNext(): void {
    this.afresh = true;
  }

  /** Advances the bodies by dt and records the collision frame (no readback). */
  encodeStep(encoder: GPUCommandEncoder, dt: number): FrameOutputs3D {
    this.advance(dt);
    this.pack();
    const { shapes, hullVertices, hullPlanes, hullFaces, hullIndices, bodies, bodyCount, margin } =
      this;
    const reuse = !this.afresh;
    this.afresh = false;
    return this.frame.encode(encoder, {
      shapes,
      hullVertices,
      hullPlanes,
      hullFaces,
      hullIndices,
      bodies,
      bodyCount,
      margin,
      reuse,
      kinds: this.kinds,
    });
  }

  readCounts(): Promise<FrameCounts3D> {
    return this.frame.readCounts();
  }

  /** Grows the frame's buffers after a frame whose counts overflowed (as GpuWorld3D.grow). */
  grow(counts: FrameCounts3D): void {
    if (counts.pairsOverflow)
      this.frame.broadphase.setCapacity(Math.ceil(counts.pairs * CONTACTS_GROWTH));
    if (counts.contactsOverflow)
      this.frame.contacts.setCapacity(Math.ceil(counts.contacts * CONTACTS_GROWTH));
  }

  destroy(): void {
    this.frame.destroy();
    for (const b of [
      this.bodies,
      this.shapes,
      this.hullVertices,
      this.hullPlanes,
      this.hullFaces,
      this.hullIndices,
    ])
      b.destroy();
  }
}
