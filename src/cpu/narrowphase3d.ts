// The CPU reference batch of the 3D narrowphase: one manifold slot per pair, the loop the WGSL
// kernel (shaders/narrowphase3d.wgsl) runs one invocation per pair. It reads the same packed
// buffers the GPU reads (shapes through unpackShapes3D, bodies and pairs as packed f32/u32) and
// writes the same Manifold3D layout.

import { LAYOUT_3D } from '../layout3d.ts';
import { manifoldBytes3D, unpackShapes3D, type Packed3D, type PackedShapes3D } from '../pack3d.ts';
import type { Shape3D } from '../shapes3d.ts';
import { collide3D } from './collide3d.ts';
import { emptyManifold3D, type Transform3D } from './manifold3d.ts';

const L = LAYOUT_3D;
const m = emptyManifold3D();
const xfA: Transform3D = { position: new Float64Array(3), rotation: new Float64Array(4) };
const xfB: Transform3D = { position: new Float64Array(3), rotation: new Float64Array(4) };

function loadTransform(bodies: Float32Array, index: number, xf: Transform3D): void {
  const o = index * L.body.words;
  const p = xf.position as Float64Array;
  const q = xf.rotation as Float64Array;
  p[0] = bodies[o + L.body.position];
  p[1] = bodies[o + L.body.position + 1];
  p[2] = bodies[o + L.body.position + 2];
  q[0] = bodies[o + L.body.rotation];
  q[1] = bodies[o + L.body.rotation + 1];
  q[2] = bodies[o + L.body.rotation + 2];
  q[3] = bodies[o + L.body.rotation + 3];
}

/** Mirrors the kernel's store: writes the manifold into slot k (every word of the slot). */
function storeManifold(out: Float32Array, outU: Uint32Array, k: number): void {
  const M = L.manifold;
  const o = k * M.words;
  for (let w = 0; w < M.words; w++) outU[o + w] = 0;
  outU[o + M.count] = m.count;
  outU[o + M.kind] = m.kind;
  for (let i = 0; i < 3; i++) out[o + M.normal + i] = m.count > 0 ? m.normal[i] : 0;
  for (let i = 0; i < m.count; i++) {
    const p = o + M.points + i * M.pointStride;
    out[p + M.pointPosition] = m.positions[3 * i];
    out[p + M.pointPosition + 1] = m.positions[3 * i + 1];
    out[p + M.pointPosition + 2] = m.positions[3 * i + 2];
    out[p + M.pointDepth] = m.depths[i];
    outU[o + M.ids + i * M.idStride] = m.ids[i];
  }
}

export interface CpuNarrowphase3D {
  shapes: Shape3D[];
  bodies: Float32Array;
  bodyShape: Uint32Array;
}

/** Prepares packed data for repeated CPU runs (unpacks the f32 shapes once). */
export function prepareCpu3D(packed: PackedShapes3D & Pick<Packed3D, 'bodies'>): CpuNarrowphase3D {
  const bodies = new Float32Array(packed.bodies);
  const u = new Uint32Array(packed.bodies);
  const n = bodies.length / L.body.words;
  const bodyShape = new Uint32Array(n);
  for (let i = 0; i < n; i++) bodyShape[i] = u[i * L.body.words + L.body.shape];
  return { shapes: unpackShapes3D(packed), bodies, bodyShape };
}

/** Collides every pair of `packed` into `out` (Manifold3D slots); returns `out`. */
export function collidePacked3D(
  prepared: CpuNarrowphase3D,
  packed: Packed3D,
  out: ArrayBuffer = new ArrayBuffer(manifoldBytes3D(packed.pairCount)),
): ArrayBuffer {
  const f = new Float32Array(out);
  const u = new Uint32Array(out);
  const pairs = packed.pairs;
  const { shapes, bodies, bodyShape } = prepared;
  // The kernel reads the margin as f32.
  const margin = Math.fround(packed.margin);
  for (let k = 0; k < packed.pairCount; k++) {
    const a = pairs[2 * k];
    const b = pairs[2 * k + 1];
    loadTransform(bodies, a, xfA);
    loadTransform(bodies, b, xfB);
    collide3D(shapes[bodyShape[a]], xfA, shapes[bodyShape[b]], xfB, margin, m);
    storeManifold(f, u, k);
  }
  return out;
}
