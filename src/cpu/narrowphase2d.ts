// The CPU reference batch: one manifold slot per pair, the loop the WGSL kernel
// (shaders/narrowphase2d.wgsl) runs one invocation per pair. It reads the same packed buffers the
// GPU reads and writes the same Manifold2D layout.

import { LAYOUT_2D } from '../layout2d.ts';
import { manifoldBytes2D, unpackShapes2D, type Packed2D } from '../pack2d.ts';
import type { Shape2D } from '../shapes2d.ts';
import { collideShapes2D } from './collide2d.ts';
import { emptyManifold2D, type Transform2D } from './manifold2d.ts';

const L = LAYOUT_2D;
const m = emptyManifold2D();
const xfA: Transform2D = { px: 0, py: 0, c: 1, s: 0 };
const xfB: Transform2D = { px: 0, py: 0, c: 1, s: 0 };

function loadTransform(bodies: Float32Array, index: number, xf: Transform2D): void {
  const o = index * L.body.words;
  xf.px = bodies[o + L.body.position];
  xf.py = bodies[o + L.body.position + 1];
  xf.c = bodies[o + L.body.rotation];
  xf.s = bodies[o + L.body.rotation + 1];
}

/** Mirrors the kernel's `storeManifold`: writes the local manifold into slot k. */
function storeManifold(out: Float32Array, outU: Uint32Array, k: number): void {
  const M = L.manifold;
  const o = k * M.words;
  outU[o + M.count] = m.count;
  outU[o + M.flags] = 0;
  out[o + M.normal] = m.count > 0 ? m.normalX : 0;
  out[o + M.normal + 1] = m.count > 0 ? m.normalY : 0;
  for (let i = 0; i < 2; i++) {
    const p = o + M.points + i * M.pointStride;
    const used = i < m.count;
    out[p + M.pointPosition] = used ? m.pointX[i] : 0;
    out[p + M.pointPosition + 1] = used ? m.pointY[i] : 0;
    out[p + M.pointDepth] = used ? m.depth[i] : 0;
    outU[p + M.pointId] = used ? m.id[i] : 0;
  }
}

export interface CpuNarrowphase2D {
  shapes: Shape2D[];
  bodies: Float32Array;
  bodyShape: Uint32Array;
}

/** Prepares a packed scene for repeated CPU runs (unpacks the f32 shapes once). */
export function prepareCpu2D(packed: Packed2D, shapeCount: number): CpuNarrowphase2D {
  const bodies = new Float32Array(packed.bodies);
  const u = new Uint32Array(packed.bodies);
  const n = bodies.length / L.body.words;
  const bodyShape = new Uint32Array(n);
  for (let i = 0; i < n; i++) bodyShape[i] = u[i * L.body.words + L.body.shape];
  return { shapes: unpackShapes2D(packed.shapes, shapeCount), bodies, bodyShape };
}

/** Collides every pair of `packed` into `out` (Manifold2D slots); returns `out`. */
export function collidePacked2D(
  prepared: CpuNarrowphase2D,
  packed: Packed2D,
  out: ArrayBuffer = new ArrayBuffer(manifoldBytes2D(packed.pairCount)),
): ArrayBuffer {
  const f = new Float32Array(out);
  const u = new Uint32Array(out);
  const pairs = packed.pairs;
  const { shapes, bodies, bodyShape } = prepared;
  for (let k = 0; k < packed.pairCount; k++) {
    const a = pairs[2 * k];
    const b = pairs[2 * k + 1];
    loadTransform(bodies, a, xfA);
    loadTransform(bodies, b, xfB);
    collideShapes2D(shapes[bodyShape[a]], xfA, shapes[bodyShape[b]], xfB, packed.margin, m);
    storeManifold(f, u, k);
  }
  return out;
}
