// A stand-in for the solver's GpuWorld3D (src/solver/world3d.ts) until it and the GPU 3D frame
// land: the bodies move kinematically on the host (gravity, free flight, elastic bounces off the
// static bodies' faces, no contact response between bodies), the broadphase is the library's host
// sweep-and-prune (src/broadphase3d.ts) and the narrowphase the library's GPU kernel
// (GpuNarrowphase3D), whose manifolds are read back each frame. So, unlike 2D, 3D still runs two
// stages on the host and its contacts are drawn from the read-back manifolds.

import { sweepAndPrune3D } from '../../src/broadphase3d.ts';
import { GpuNarrowphase3D } from '../../src/gpu/narrowphase3d.ts';
import { packScene3D, packShapes3D, unpackManifolds3D, type Packed3D, type PackedShapes3D } from '../../src/pack3d.ts';
import type { ManifoldJson } from '../../src/pack2d.ts';
import type { Scene3D } from '../../src/scene.ts';
import { makeShape3D, type Quat, type Shape3DInput, type Vec3 } from '../../src/shapes3d.ts';

/** As in src/solver/world3d.ts. */
export interface WorldBody3D {
  shape: number;
  position: Vec3;
  rotation: Quat;
  velocity?: Vec3;
  angularVelocity?: Vec3;
  /** 0 = static. */
  density?: number;
  friction?: number;
}

export interface WorldOptions3D {
  gravity?: Vec3;
  margin?: number;
}

/** One collided frame: what the GPU kernel got and gave. */
export interface Frame3D {
  packed: Packed3D;
  manifolds: ManifoldJson[];
  kernelMs: number | null;
  hostMs: { integrate: number; broadphase: number };
}

export class KinematicWorld3D {
  readonly bodyCount: number;
  /** The scene as the library validates it; positions and rotations change every step. */
  readonly scene: Scene3D;
  private readonly packedShapes: PackedShapes3D;
  private readonly velocity: Float64Array;
  private readonly spin: Float64Array;
  private readonly reach: Float64Array;
  private readonly lo: Vec3 = [-Infinity, -Infinity, -Infinity];
  private readonly hi: Vec3 = [Infinity, Infinity, Infinity];

  private constructor(readonly device: GPUDevice, private readonly narrowphase: GpuNarrowphase3D, scene: Scene3D, bodies: WorldBody3D[], private readonly gravity: Vec3) {
    this.scene = scene;
    this.bodyCount = bodies.length;
    this.packedShapes = packShapes3D(scene.shapes);
    const n = bodies.length;
    this.velocity = new Float64Array(3 * n);
    this.spin = new Float64Array(3 * n);
    this.reach = new Float64Array(n);
    const movingLo: Vec3 = [Infinity, Infinity, Infinity];
    const movingHi: Vec3 = [-Infinity, -Infinity, -Infinity];
    bodies.forEach((b, i) => {
      this.velocity.set(b.velocity ?? [0, 0, 0], 3 * i);
      this.spin.set(b.angularVelocity ?? [0, 0, 0], 3 * i);
      const s = scene.shapes[b.shape]!;
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
      const s = scene.shapes[b.shape]!;
      for (let k = 0; k < 3; k++) {
        let half = 0;
        for (let v = 0; v < s.vertexCount; v++) half = Math.max(half, Math.abs(s.center[k]! + s.vertices[3 * v + k]!));
        if (b.position[k]! + half <= movingLo[k]!) this.lo[k] = Math.max(this.lo[k]!, b.position[k]! + half);
        if (b.position[k]! - half >= movingHi[k]!) this.hi[k] = Math.min(this.hi[k]!, b.position[k]! - half);
      }
    });
  }

  static async create(device: GPUDevice, shapes: Shape3DInput[], bodies: WorldBody3D[], options: WorldOptions3D = {}): Promise<KinematicWorld3D> {
    const built = shapes.map((s, i) => makeShape3D(s, i));
    const n = bodies.length;
    const scene: Scene3D = {
      dim: 3,
      margin: options.margin ?? 0.01,
      shapes: built,
      bodyShape: Uint32Array.from(bodies, (b) => b.shape),
      bodyPosition: new Float64Array(3 * n),
      bodyRotation: new Float64Array(4 * n),
      pairs: null,
    };
    bodies.forEach((b, i) => {
      if (!(b.shape >= 0 && b.shape < built.length)) throw new RangeError(`bodies[${i}].shape ${b.shape} is not a shape index`);
      scene.bodyPosition.set(b.position, 3 * i);
      scene.bodyRotation.set(b.rotation, 4 * i);
    });
    const narrowphase = await GpuNarrowphase3D.create(device);
    return new KinematicWorld3D(device, narrowphase, scene, bodies, options.gravity ?? [0, -10, 0]);
  }

  /** Shapes only static bodies use (the floor and walls). */
  staticShapes(): Set<number> {
    const moving = new Set<number>();
    const all = new Set<number>();
    this.scene.bodyShape.forEach((s, i) => {
      all.add(s);
      if (this.reach[i] !== 0) moving.add(s);
    });
    return new Set([...all].filter((s) => !moving.has(s)));
  }

  private advance(dt: number): void {
    const p = this.scene.bodyPosition;
    const q = this.scene.bodyRotation;
    const v = this.velocity;
    const w = this.spin;
    for (let i = 0; i < this.bodyCount; i++) {
      const r = this.reach[i]!;
      if (r === 0) continue;
      for (let k = 0; k < 3; k++) {
        const j = 3 * i + k;
        v[j] += this.gravity[k]! * dt;
        p[j] += v[j]! * dt;
        if (p[j]! - r < this.lo[k]!) { p[j] = this.lo[k]! + r; v[j] = Math.abs(v[j]!); }
        if (p[j]! + r > this.hi[k]!) { p[j] = this.hi[k]! - r; v[j] = -Math.abs(v[j]!); }
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

  /** Advances by dt and collides: host broadphase, GPU narrowphase, manifolds read back. */
  async step(dt: number): Promise<Frame3D> {
    const t0 = performance.now();
    this.advance(dt);
    const t1 = performance.now();
    const pairs = sweepAndPrune3D(this.scene);
    const t2 = performance.now();
    const packed = packScene3D(this.scene, pairs, this.packedShapes);
    const run = await this.narrowphase.run(packed);
    return {
      packed,
      manifolds: unpackManifolds3D(run.manifolds, pairs, false),
      kernelMs: run.kernelMs,
      hostMs: { integrate: t1 - t0, broadphase: t2 - t1 },
    };
  }

  destroy(): void {
    this.narrowphase.destroy();
  }
}
