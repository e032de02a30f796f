// Packs a validated 2D scene into the buffer layouts of shaders/layout2d.wgsl (through LAYOUT_2D,
// reflected from the WGSL) and reads manifold slots back. The CPU reference consumes the very same
// packed, f32-rounded data as the GPU, so the two backends see identical input.

import { checkShape2D } from './checkshapes.ts';
import { LAYOUT_2D } from './layout2d.ts';
import { emptyShape2D, type Shape2D } from './shapes2d.ts';
import { checkPairs, type Scene2D } from './scene.ts';

export interface Packed2D {
  /** Shape2D array. */
  shapes: ArrayBuffer;
  /** Body2D array. */
  bodies: ArrayBuffer;
  /** array<vec2u>: body indices of each pair. */
  pairs: Uint32Array;
  pairCount: number;
  margin: number;
}

const L = LAYOUT_2D;

/** Packs the shapes, each checked first (src/checkshapes.ts: a shape built by hand must be sound). */
export function packShapes2D(shapes: readonly Shape2D[]): ArrayBuffer {
  shapes.forEach(checkShape2D);
  const buf = new ArrayBuffer(Math.max(1, shapes.length) * L.shape.words * 4);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  shapes.forEach((s, i) => {
    const o = i * L.shape.words;
    u[o + L.shape.count] = s.count;
    f[o + L.shape.radius] = s.radius;
    f[o + L.shape.extent] = s.extent;
    u[o + L.shape.kind] = s.kind;
    u[o + L.shape.categoryBits] = s.categoryBits;
    u[o + L.shape.maskBits] = s.maskBits;
    for (let v = 0; v < s.count; v++) {
      f[o + L.shape.vertices + v * L.shape.vertexStride] = s.vertices[2 * v];
      f[o + L.shape.vertices + v * L.shape.vertexStride + 1] = s.vertices[2 * v + 1];
      f[o + L.shape.normals + v * L.shape.vertexStride] = s.normals[2 * v];
      f[o + L.shape.normals + v * L.shape.vertexStride + 1] = s.normals[2 * v + 1];
    }
  });
  return buf;
}

/** The shapes as the kernel sees them: read back from the packed f32 buffer. */
export function unpackShapes2D(buf: ArrayBuffer, count: number): Shape2D[] {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const out: Shape2D[] = [];
  for (let i = 0; i < count; i++) {
    const o = i * L.shape.words;
    const s = emptyShape2D();
    s.count = u[o + L.shape.count];
    s.radius = f[o + L.shape.radius];
    s.extent = f[o + L.shape.extent];
    s.kind = u[o + L.shape.kind];
    s.categoryBits = u[o + L.shape.categoryBits];
    s.maskBits = u[o + L.shape.maskBits];
    for (let v = 0; v < s.count; v++) {
      s.vertices[2 * v] = f[o + L.shape.vertices + v * L.shape.vertexStride];
      s.vertices[2 * v + 1] = f[o + L.shape.vertices + v * L.shape.vertexStride + 1];
      s.normals[2 * v] = f[o + L.shape.normals + v * L.shape.vertexStride];
      s.normals[2 * v + 1] = f[o + L.shape.normals + v * L.shape.vertexStride + 1];
    }
    out.push(s);
  }
  return out;
}

export function packBodies2D(
  scene: Pick<Scene2D, 'bodyShape' | 'bodyPosition' | 'bodyAngle'>,
): ArrayBuffer {
  const n = scene.bodyShape.length;
  const buf = new ArrayBuffer(Math.max(1, n) * L.body.words * 4);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  for (let i = 0; i < n; i++) {
    const o = i * L.body.words;
    const angle = scene.bodyAngle[i];
    f[o + L.body.position] = scene.bodyPosition[2 * i];
    f[o + L.body.position + 1] = scene.bodyPosition[2 * i + 1];
    f[o + L.body.rotation] = Math.cos(angle);
    f[o + L.body.rotation + 1] = Math.sin(angle);
    u[o + L.body.shape] = scene.bodyShape[i];
    u[o + L.body.flags] = 0;
  }
  return buf;
}

/** The scene and its pairs (a0, b0, a1, b1, ...; checked as parseScene checks JSON pairs) for either backend. */
export function packScene2D(scene: Scene2D, pairs: Uint32Array): Packed2D {
  checkPairs(pairs, scene.bodyShape.length);
  return {
    shapes: packShapes2D(scene.shapes),
    bodies: packBodies2D(scene),
    pairs,
    pairCount: pairs.length / 2,
    margin: scene.margin,
  };
}

/** Bytes of manifold storage for `pairCount` pairs (one fixed slot each). */
export function manifoldBytes2D(pairCount: number): number {
  return Math.max(1, pairCount) * L.manifold.words * 4;
}

export interface ContactPointJson {
  position: number[];
  depth: number;
  id: number;
}

export interface ManifoldJson {
  pair: [number, number];
  normal: number[];
  points: ContactPointJson[];
}

/** Word offsets of a manifold slot, as LAYOUT_2D.manifold and LAYOUT_3D.manifold both give them. */
export interface ManifoldWords {
  words: number;
  normal: number;
  count: number;
  points: number;
  pointStride: number;
  pointPosition: number;
  pointDepth: number;
  ids: number;
  idStride: number;
}

/**
 * Manifold slots (`dim`-vectors, layout `M`) to JSON, one at a time as iterated (a run of millions
 * of pairs need not hold them all as objects). With `touchingOnly` (broadphase scenes) slots
 * without points are left out; otherwise there is exactly one manifold per pair, in pair order.
 * `origins` (`dim` numbers per pair, src/precision.ts) are added to the points' positions in f64.
 */
export function* eachManifold(
  buf: ArrayBuffer,
  pairs: Uint32Array,
  touchingOnly: boolean,
  M: ManifoldWords,
  dim: 2 | 3,
  origins: Float64Array | null = null,
): Generator<ManifoldJson, void, undefined> {
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  const vec = (o: number): number[] => Array.from(f.subarray(o, o + dim));
  for (let k = 0; k < pairs.length / 2; k++) {
    const o = k * M.words;
    const count = u[o + M.count];
    if (touchingOnly && count === 0) continue;
    const points: ContactPointJson[] = [];
    for (let i = 0; i < count; i++) {
      const p = o + M.points + i * M.pointStride;
      const position = vec(p + M.pointPosition);
      if (origins) for (let c = 0; c < dim; c++) position[c] = position[c] + origins[dim * k + c];
      points.push({ position, depth: f[p + M.pointDepth], id: u[o + M.ids + i * M.idStride] });
    }
    yield {
      pair: [pairs[2 * k], pairs[2 * k + 1]],
      normal: count > 0 ? vec(o + M.normal) : new Array<number>(dim).fill(0),
      points,
    };
  }
}

/** How many manifolds eachManifold gives for these slots: every pair's, or the touching ones'. */
export function countManifolds(
  buf: ArrayBuffer,
  pairCount: number,
  touchingOnly: boolean,
  M: ManifoldWords,
): number {
  if (!touchingOnly) return pairCount;
  const u = new Uint32Array(buf);
  let n = 0;
  for (let k = 0; k < pairCount; k++) if (u[k * M.words + M.count] !== 0) n++;
  return n;
}

/** Manifold slots to JSON, all at once (see eachManifold). */
export function unpackManifolds(
  buf: ArrayBuffer,
  pairs: Uint32Array,
  touchingOnly: boolean,
  M: ManifoldWords,
  dim: 2 | 3,
  origins: Float64Array | null = null,
): ManifoldJson[] {
  return Array.from(eachManifold(buf, pairs, touchingOnly, M, dim, origins));
}

/** 2D manifold slots to JSON (see unpackManifolds). */
export function unpackManifolds2D(
  buf: ArrayBuffer,
  pairs: Uint32Array,
  touchingOnly: boolean,
  origins: Float64Array | null = null,
): ManifoldJson[] {
  return unpackManifolds(buf, pairs, touchingOnly, L.manifold, 2, origins);
}
