// The solver's GpuWorld2D (src/solver/world2d.ts) without the solver, with the same surface
// (?motion=kinematic in the demo's URL): the same bodies and options, but the bodies move
// kinematically on the host: gravity, free flight and elastic bounces off the container's walls
// (static bodies' bounding boxes), with no contact response between bodies, so they pass through
// one another and the contacts change every frame. Each step uploads the bodies (array<Body2D>, through the library's packer) and
// records the library's whole GPU collision frame (GpuFrame2D) into the caller's encoder.

import { GpuFrame2D, type FrameCounts2D, type FrameOutputs2D } from '../../src/gpu/frame2d.ts';
import { CONTACTS_GROWTH } from '../../src/constants.ts';
import { LAYOUT_2D } from '../../src/layout2d.ts';
import { packShapes2D } from '../../src/pack2d.ts';
import { shapeKindNames2D, type ShapeKindName2D } from '../../src/shape-kinds2d.ts';
import { makeShape2D, type Shape2D, type Shape2DInput, type Vec2 } from '../../src/shapes2d.ts';
import type { WorldBody2D, WorldOptions2D } from '../../src/solver/world2d.ts';

const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC;

export class KinematicWorld2D {
  readonly bodies: GPUBuffer;
  readonly shapes: GPUBuffer;
  readonly bodyCount: number;
  readonly margin: number;
  private readonly packed: ArrayBuffer;
  private readonly f32: Float32Array;
  private readonly px: Float64Array;
  private readonly py: Float64Array;
  private readonly angle: Float64Array;
  private readonly vx: Float64Array;
  private readonly vy: Float64Array;
  private readonly spin: Float64Array;
  /** Per body: radius of the shape's bounding disc about the body origin; 0 for static bodies. */
  private readonly reach: Float64Array;
  /** The box the moving bodies bounce inside (the inner faces of the static bodies around them). */
  private readonly box: { minX: number; maxX: number; minY: number; maxY: number };

  private constructor(
    readonly device: GPUDevice,
    readonly frame: GpuFrame2D,
    shapes: Shape2D[],
    bodies: WorldBody2D[],
    private readonly gravity: Vec2,
    margin: number,
    private readonly kinds: readonly ShapeKindName2D[],
  ) {
    this.bodyCount = bodies.length;
    this.margin = margin;
    const n = bodies.length;
    this.px = new Float64Array(n);
    this.py = new Float64Array(n);
    this.angle = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    this.spin = new Float64Array(n);
    this.reach = new Float64Array(n);
    this.packed = new ArrayBuffer(Math.max(1, n) * LAYOUT_2D.body.words * 4);
    this.f32 = new Float32Array(this.packed);
    const u32 = new Uint32Array(this.packed);
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity;
    bodies.forEach((b, i) => {
      this.px[i] = b.position[0];
      this.py[i] = b.position[1];
      this.angle[i] = b.angle;
      this.vx[i] = b.velocity?.[0] ?? 0;
      this.vy[i] = b.velocity?.[1] ?? 0;
      this.spin[i] = b.angularVelocity ?? 0;
      const s = shapes[b.shape]!;
      let r = 0;
      for (let v = 0; v < s.count; v++)
        r = Math.max(r, Math.hypot(s.vertices[2 * v]!, s.vertices[2 * v + 1]!));
      this.reach[i] = b.density === 0 ? 0 : r + s.radius;
      u32[i * LAYOUT_2D.body.words + LAYOUT_2D.body.shape] = b.shape;
      if (b.density !== 0) {
        minX = Math.min(minX, b.position[0]);
        maxX = Math.max(maxX, b.position[0]);
        minY = Math.min(minY, b.position[1]);
        maxY = Math.max(maxY, b.position[1]);
      }
    });
    // Walls: a static body's box faces limit the moving bodies on the side they start.
    const box = { minX: -Infinity, maxX: Infinity, minY: -Infinity, maxY: Infinity };
    bodies.forEach((b, i) => {
      if (b.density !== 0) return;
      const s = shapes[b.shape]!;
      let hx = 0,
        hy = 0;
      for (let v = 0; v < s.count; v++) {
        hx = Math.max(hx, Math.abs(s.vertices[2 * v]!));
        hy = Math.max(hy, Math.abs(s.vertices[2 * v + 1]!));
      }
      const x = this.px[i]!,
        y = this.py[i]!;
      if (x + hx <= minX) box.minX = Math.max(box.minX, x + hx + s.radius);
      if (x - hx >= maxX) box.maxX = Math.min(box.maxX, x - hx - s.radius);
      if (y + hy <= minY) box.minY = Math.max(box.minY, y + hy + s.radius);
      if (y - hy >= maxY) box.maxY = Math.min(box.maxY, y - hy - s.radius);
    });
    this.box = box;
    this.shapes = device.createBuffer({
      label: 'demo-shapes2d',
      size: Math.max(16, shapes.length * LAYOUT_2D.shape.words * 4),
      usage: STORAGE,
    });
    device.queue.writeBuffer(this.shapes, 0, packShapes2D(shapes));
    this.bodies = device.createBuffer({
      label: 'demo-bodies2d',
      size: Math.max(16, this.packed.byteLength),
      usage: STORAGE | GPUBufferUsage.VERTEX,
    });
    this.pack();
  }

  static async create(
    device: GPUDevice,
    shapes: Shape2DInput[],
    bodies: WorldBody2D[],
    options: WorldOptions2D = {},
  ): Promise<KinematicWorld2D> {
    const built = shapes.map((s, i) => makeShape2D(s, i));
    bodies.forEach((b, i) => {
      if (!(b.shape >= 0 && b.shape < built.length))
        throw new RangeError(`bodies[${i}].shape ${b.shape} is not a shape index`);
    });
    const kinds = shapeKindNames2D(built);
    const frame = await GpuFrame2D.create(device, undefined, { kinds });
    return new KinematicWorld2D(
      device,
      frame,
      built,
      bodies,
      options.gravity ?? [0, -10],
      options.margin ?? 0.01,
      kinds,
    );
  }

  /** Host step: free flight under gravity, elastic bounces off the walls. */
  private advance(dt: number): void {
    const { px, py, vx, vy, angle, spin, reach, box } = this;
    const [gx, gy] = this.gravity;
    for (let i = 0; i < this.bodyCount; i++) {
      const r = reach[i]!;
      if (r === 0) continue;
      vx[i] += gx * dt;
      vy[i] += gy * dt;
      px[i] += vx[i]! * dt;
      py[i] += vy[i]! * dt;
      angle[i] += spin[i]! * dt;
      if (px[i]! - r < box.minX) {
        px[i] = box.minX + r;
        vx[i] = Math.abs(vx[i]!);
      }
      if (px[i]! + r > box.maxX) {
        px[i] = box.maxX - r;
        vx[i] = -Math.abs(vx[i]!);
      }
      if (py[i]! - r < box.minY) {
        py[i] = box.minY + r;
        vy[i] = Math.abs(vy[i]!);
      }
      if (py[i]! + r > box.maxY) {
        py[i] = box.maxY - r;
        vy[i] = -Math.abs(vy[i]!);
      }
    }
  }

  private pack(): void {
    const W = LAYOUT_2D.body.words,
      P = LAYOUT_2D.body.position,
      R = LAYOUT_2D.body.rotation;
    const f = this.f32;
    for (let i = 0; i < this.bodyCount; i++) {
      const o = i * W;
      f[o + P] = this.px[i]!;
      f[o + P + 1] = this.py[i]!;
      f[o + R] = Math.cos(this.angle[i]!);
      f[o + R + 1] = Math.sin(this.angle[i]!);
    }
    this.device.queue.writeBuffer(this.bodies, 0, this.packed);
  }

  private afresh = false;

  /** The next frame collides every pair anew (no manifold reuse), as GpuWorld's. */
  collideAfreshNext(): void {
    this.afresh = true;
  }

  /** Advances the bodies by dt and records the collision frame (no readback). */
  encodeStep(encoder: GPUCommandEncoder, dt: number): FrameOutputs2D {
    this.advance(dt);
    this.pack();
    const reuse = !this.afresh;
    this.afresh = false;
    return this.frame.encode(encoder, {
      shapes: this.shapes,
      bodies: this.bodies,
      bodyCount: this.bodyCount,
      margin: this.margin,
      reuse,
      kinds: this.kinds,
    });
  }

  /** The last submitted frame's counts (a readback). */
  readCounts(): Promise<FrameCounts2D> {
    return this.frame.readCounts();
  }

  /** Grows the frame's buffers after a frame whose counts overflowed (as GpuWorld2D.grow). */
  grow(counts: FrameCounts2D): void {
    if (counts.pairsOverflow)
      this.frame.broadphase.setCapacity(Math.ceil(counts.pairs * CONTACTS_GROWTH));
    if (counts.contactsOverflow)
      this.frame.contacts.setCapacity(Math.ceil(counts.contacts * CONTACTS_GROWTH));
  }

  destroy(): void {
    this.frame.destroy();
    this.bodies.destroy();
    this.shapes.destroy();
  }
}
