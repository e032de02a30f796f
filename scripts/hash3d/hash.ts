// Hashing of 3D manifolds and shapes, every f64 word (scripts/hash3d/hashes.ts and its vitest setup).

import type { Hash } from 'node:crypto';
import type { Manifold3D } from '../../src/cpu/manifold3d.ts';
import type { HullData3D } from '../../src/hull3d.ts';
import type { Shape3D } from '../../src/shapes3d.ts';

const words = new Float64Array(5 + 3 * 4 + 4 + 4);

/** Adds a manifold's count, kind, normal and its points' positions, depths and ids to `h`. */
export function hashManifold3D(h: Hash, m: Manifold3D): void {
  const n = m.count;
  words[0] = n;
  words[1] = m.kind;
  words.set(m.normal, 2);
  let o = 5;
  for (let k = 0; k < 3 * n; k++) words[o++] = m.positions[k]!;
  for (let k = 0; k < n; k++) words[o++] = m.depths[k]!;
  for (let k = 0; k < n; k++) words[o++] = m.ids[k]!;
  h.update(new Uint8Array(words.buffer, 0, 8 * o));
}

/** Adds every field of a built hull (and a shape's kind, radius and inradius) to `h`. */
export function hashShape3D(h: Hash, s: HullData3D | Shape3D): void {
  const extra = 'kind' in s ? [s.kind, s.radius, s.inradius] : [];
  h.update(
    new Uint8Array(
      Float64Array.of(...s.center, s.extent, s.vertexCount, s.faceCount, s.edgeCount, ...extra)
        .buffer,
    ),
  );
  for (const a of [
    s.vertices,
    s.planes,
    s.faceFirst,
    s.faceSize,
    s.faceVertices,
    s.faceEdges,
    s.edgeV0,
    s.edgeV1,
    s.edgeF0,
    s.edgeF1,
  ]) {
    h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
}
