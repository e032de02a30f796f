// Impulses and forces the host gives a world's bodies between steps, summed per body and applied
// on the GPU at the start of the next step (shaders/commands2d.wgsl, commands3d.wgsl: one
// invocation per body). A force acts over the next step only: its impulse is force × dt.
// Per body the command holds the total impulse, the total of those given at a point, and the sum
// of point × impulse; the kernel takes the angular impulse about the centre of mass from them.

import { word, type StructLayout } from '../layout.ts';

interface Sums {
  linear: number[];
  pointImpulse: number[];
  /** One number in 2D (the z of a cross product), three in 3D. */
  moment: number[];
}

/** a × b: 2D the scalar, 3D the vector. */
function cross(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 2) return [a[0] * b[1] - a[1] * b[0]];
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/** BodyCommand2D / BodyCommand3D's words, reflected from the WGSL. */
export interface CommandLayout {
  bytes: number;
  linear: number;
  pointImpulse: number;
  moment: number;
  body: number;
}

export function commandLayout(s: StructLayout): CommandLayout {
  return {
    bytes: s.size,
    linear: word(s, 'linear'),
    pointImpulse: word(s, 'pointImpulse'),
    moment: word(s, 'moment'),
    body: word(s, 'body'),
  };
}

export class BodyCommands {
  private impulses = new Map<number, Sums>();
  private forces = new Map<number, Sums>();

  constructor(
    readonly dim: 2 | 3,
    private readonly layout: CommandLayout,
  ) {}

  private add(
    map: Map<number, Sums>,
    body: number,
    v: readonly number[],
    point: readonly number[] | undefined,
  ): void {
    const zero = (k: number): number[] => new Array<number>(k).fill(0);
    let s = map.get(body);
    if (!s)
      map.set(
        body,
        (s = {
          linear: zero(this.dim),
          pointImpulse: zero(this.dim),
          moment: zero(this.dim === 2 ? 1 : 3),
        }),
      );
    v.forEach((x, k) => (s.linear[k] += x));
    if (point) {
      v.forEach((x, k) => (s.pointImpulse[k] += x));
      cross(point, v).forEach((x, k) => (s.moment[k] += x));
    }
  }

  /** An impulse at `point` (world), or at the centre of mass. */
  impulse(body: number, impulse: readonly number[], point?: readonly number[]): void {
    this.add(this.impulses, body, impulse, point);
  }

  /** A force over the next step, at `point` (world), or at the centre of mass. */
  force(body: number, force: readonly number[], point?: readonly number[]): void {
    this.add(this.forces, body, force, point);
  }

  /** Drops what was given to `body` (its velocity was set since). */
  clear(body: number): void {
    this.impulses.delete(body);
    this.forces.delete(body);
  }

  /** Renumbers after bodies were removed or reordered: `remap` per body after, its index before. */
  renumber(remap: Uint32Array): void {
    const to = new Map<number, number>();
    remap.forEach((before, after) => to.set(before, after));
    for (const name of ['impulses', 'forces'] as const) {
      const next = new Map<number, Sums>();
      for (const [body, s] of this[name]) if (to.has(body)) next.set(to.get(body)!, s);
      this[name] = next;
    }
  }

  get pending(): boolean {
    return this.impulses.size + this.forces.size > 0;
  }

  /**
   * The commands of a step of `dt` seconds (forces as force × dt), in body order, as bytes; the
   * sums are then cleared. Null when there are none.
   */
  take(dt: number): ArrayBuffer | null {
    if (!this.pending) return null;
    for (const [body, s] of this.forces) {
      const scaled = (v: number[]): number[] => v.map((x) => x * dt);
      const total = this.impulses.get(body);
      if (!total)
        this.impulses.set(body, {
          linear: scaled(s.linear),
          pointImpulse: scaled(s.pointImpulse),
          moment: scaled(s.moment),
        });
      else {
        s.linear.forEach((x, k) => (total.linear[k] += x * dt));
        s.pointImpulse.forEach((x, k) => (total.pointImpulse[k] += x * dt));
        s.moment.forEach((x, k) => (total.moment[k] += x * dt));
      }
    }
    const L = this.layout;
    const bodies = [...this.impulses.keys()].sort((a, b) => a - b);
    const out = new ArrayBuffer(bodies.length * L.bytes);
    const f = new Float32Array(out);
    const u = new Uint32Array(out);
    bodies.forEach((body, i) => {
      const s = this.impulses.get(body)!;
      const o = (i * L.bytes) / 4;
      f.set(s.linear, o + L.linear);
      f.set(s.pointImpulse, o + L.pointImpulse);
      f.set(s.moment, o + L.moment);
      u[o + L.body] = body;
    });
    this.impulses.clear();
    this.forces.clear();
    return out;
  }
}
