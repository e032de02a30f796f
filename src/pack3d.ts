// Packs a validated 3D scene into the buffer layouts of shaders/layout3d.wgsl (through LAYOUT_3D,
// reflected from the WGSL) and reads manifold slots back. The CPU reference consumes the very same
// packed, f32-rounded data as the GPU (unpackShapes3D), so the two backends see identical input.
//
// Hull data of all shapes lives in four flat buffers (see the header of layout3d.wgsl):
//   hullVertices  vec4f per vertex (xyz relative to the shape's centre)
//   hullPlanes    vec4f per face (outward unit normal, offset)
//   hullFaces     u32 per face: first face-vertex entry | size << 16
//   hullIndices   u32 per face-vertex entry: vertex | edge << 8; then u32 per unique edge:
//                 v0 | v1 << 8 | f0 << 16 | f1 << 24
// Each Shape3D holds its offsets into them; indices inside a hull are local to it.

import { checkShape3D } from './checkshapes.ts';
import { LAYOUT_3D } from './layout3d.ts';
import { unpackManifolds, type ManifoldJson } from './pack2d.ts';
import { checkPairs, type Scene3D } from './scene.ts';
import type { Shape3D } from './shapes3d.ts';
import { SHAPE_KIND_3D } from './constants3d.ts';

export interface PackedShapes3D {
  /** Shape3D array. */
  shapes: ArrayBuffer;
  shapeCount: number;
  hullVertices: Float32Array;
  hullPlanes: Float32Array;
  hullFaces: Uint32Array;
  hullIndices: Uint32Array;
}

export interface Packed3D extends PackedShapes3D {
  /** Body3D array. */
  bodies: ArrayBuffer;
  /** array<vec2u>: body indices of each pair. */
  pairs: Uint32Array;
  pairCount: number;
  margin: number;
}

const L = LAYOUT_3D;
const VW = L.hullVertexWords;
const PW = L.hullPlaneWords;

/** Packs the shapes, each checked first (src/checkshapes.ts: a shape built by hand must be sound). */
export function packShapes3D(shapes: readonly Shape3D[]): PackedShapes3D {
  shapes.forEach(checkShape3D);
  let vertices = 0;
  let faces = 0;
  let indices = 0;
  for (const s of shapes) {
    vertices += s.vertexCount;
    faces += s.faceCount;
    indices += s.faceVertices.length + s.edgeCount;
  }
  const buf = new ArrayBuffer(Math.max(1, shapes.length) * L.shape.words * 4);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  // At least one element each: WebGPU binds no empty buffers.
  const hullVertices = new Float32Array(Math.max(1, vertices) * VW);
  const hullPlanes = new Float32Array(Math.max(1, faces) * PW);
  const hullFaces = new Uint32Array(Math.max(1, faces));
  const hullIndices = new Uint32Array(Math.max(1, indices));
  let vo = 0;
  let fo = 0;
  let io = 0;
  shapes.forEach((s, i) => {
    const o = i * L.shape.words;
    f[o + L.shape.center] = s.center[0];
    f[o + L.shape.center + 1] = s.center[1];
    f[o + L.shape.center + 2] = s.center[2];
    u[o + L.shape.kind] = s.kind;
    f[o + L.shape.radius] = s.radius;
    f[o + L.shape.extent] = s.extent;
    f[o + L.shape.inradius] = s.inradius;
    u[o + L.shape.categoryBits] = s.categoryBits;
    u[o + L.shape.maskBits] = s.maskBits;
    u[o + L.shape.vertexCount] = s.vertexCount;
    u[o + L.shape.faceCount] = s.faceCount;
    u[o + L.shape.edgeCount] = s.edgeCount;
    u[o + L.shape.vertexOffset] = vo;
    u[o + L.shape.faceOffset] = fo;
    u[o + L.shape.indexOffset] = io;
    u[o + L.shape.edgeOffset] = io + s.faceVertices.length;
    for (let v = 0; v < s.vertexCount; v++) {
      for (let k = 0; k < 3; k++) hullVertices[(vo + v) * VW + k] = s.vertices[3 * v + k];
    }
    for (let fc = 0; fc < s.faceCount; fc++) {
      for (let k = 0; k < 4; k++) hullPlanes[(fo + fc) * PW + k] = s.planes[4 * fc + k];
      hullFaces[fo + fc] = (s.faceFirst[fc] | (s.faceSize[fc] << 16)) >>> 0;
    }
    for (let k = 0; k < s.faceVertices.length; k++)
      hullIndices[io + k] = s.faceVertices[k] | (s.faceEdges[k] << 8);
    const eo = io + s.faceVertices.length;
    for (let e = 0; e < s.edgeCount; e++) {
      hullIndices[eo + e] =
        (s.edgeV0[e] | (s.edgeV1[e] << 8) | (s.edgeF0[e] << 16) | (s.edgeF1[e] << 24)) >>> 0;
    }
    vo += s.vertexCount;
    fo += s.faceCount;
    io += s.faceVertices.length + s.edgeCount;
  });
  return {
    shapes: buf,
    shapeCount: shapes.length,
    hullVertices,
    hullPlanes,
    hullFaces,
    hullIndices,
  };
}

/** The shapes as the kernel sees them: read back from the packed f32 buffers. */
export function unpackShapes3D(p: PackedShapes3D): Shape3D[] {
  const f = new Float32Array(p.shapes);
  const u = new Uint32Array(p.shapes);
  const out: Shape3D[] = [];
  for (let i = 0; i < p.shapeCount; i++) {
    const o = i * L.shape.words;
    const V = u[o + L.shape.vertexCount];
    const F = u[o + L.shape.faceCount];
    const E = u[o + L.shape.edgeCount];
    const vo = u[o + L.shape.vertexOffset];
    const fo = u[o + L.shape.faceOffset];
    const io = u[o + L.shape.indexOffset];
    const eo = u[o + L.shape.edgeOffset];
    const vertices = new Float64Array(3 * V);
    for (let v = 0; v < V; v++)
      for (let k = 0; k < 3; k++) vertices[3 * v + k] = p.hullVertices[(vo + v) * VW + k];
    const planes = new Float64Array(4 * F);
    const faceFirst = new Uint16Array(F);
    const faceSize = new Uint8Array(F);
    let entries = 0;
    for (let fc = 0; fc < F; fc++) {
      for (let k = 0; k < 4; k++) planes[4 * fc + k] = p.hullPlanes[(fo + fc) * PW + k];
      const w = p.hullFaces[fo + fc];
      faceFirst[fc] = w & 0xffff;
      faceSize[fc] = w >>> 16;
      entries = Math.max(entries, faceFirst[fc] + faceSize[fc]);
    }
    const faceVertices = new Uint8Array(entries);
    const faceEdges = new Uint8Array(entries);
    for (let k = 0; k < entries; k++) {
      const w = p.hullIndices[io + k];
      faceVertices[k] = w & 0xff;
      faceEdges[k] = (w >>> 8) & 0xff;
    }
    const edgeV0 = new Uint8Array(E);
    const edgeV1 = new Uint8Array(E);
    const edgeF0 = new Uint8Array(E);
    const edgeF1 = new Uint8Array(E);
    for (let e = 0; e < E; e++) {
      const w = p.hullIndices[eo + e];
      edgeV0[e] = w & 0xff;
      edgeV1[e] = (w >>> 8) & 0xff;
      edgeF0[e] = (w >>> 16) & 0xff;
      edgeF1[e] = w >>> 24;
    }
    out.push({
      kind: u[o + L.shape.kind],
      radius: f[o + L.shape.radius],
      inradius: f[o + L.shape.inradius],
      categoryBits: u[o + L.shape.categoryBits],
      maskBits: u[o + L.shape.maskBits],
      center: [f[o + L.shape.center], f[o + L.shape.center + 1], f[o + L.shape.center + 2]],
      extent: f[o + L.shape.extent],
      vertexCount: V,
      faceCount: F,
      edgeCount: E,
      vertices,
      planes,
      faceFirst,
      faceSize,
      faceVertices,
      faceEdges,
      edgeV0,
      edgeV1,
      edgeF0,
      edgeF1,
    });
  }
  return out;
}

/** Whether every packed shape is a box (the narrowphase then runs its box-only kernel). */
export function boxesOnly3D(p: PackedShapes3D): boolean {
  const u = new Uint32Array(p.shapes);
  for (let i = 0; i < p.shapeCount; i++)
    if (u[i * L.shape.words + L.shape.kind] !== SHAPE_KIND_3D.box) return false;
  return true;
}

export function packBodies3D(
  scene: Pick<Scene3D, 'bodyShape' | 'bodyPosition' | 'bodyRotation'>,
): ArrayBuffer {
  const n = scene.bodyShape.length;
  const buf = new ArrayBuffer(Math.max(1, n) * L.body.words * 4);
  const f = new Float32Array(buf);
  const u = new Uint32Array(buf);
  for (let i = 0; i < n; i++) {
    const o = i * L.body.words;
    for (let k = 0; k < 3; k++) f[o + L.body.position + k] = scene.bodyPosition[3 * i + k];
    for (let k = 0; k < 4; k++) f[o + L.body.rotation + k] = scene.bodyRotation[4 * i + k];
    u[o + L.body.shape] = scene.bodyShape[i];
  }
  return buf;
}

/** The scene and its pairs (a0, b0, a1, b1, ...; checked as parseScene checks JSON pairs) for either backend. */
export function packScene3D(
  scene: Scene3D,
  pairs: Uint32Array,
  shapes: PackedShapes3D = packShapes3D(scene.shapes),
): Packed3D {
  checkPairs(pairs, scene.bodyShape.length);
  return {
    ...shapes,
    bodies: packBodies3D(scene),
    pairs,
    pairCount: pairs.length / 2,
    margin: scene.margin,
  };
}

/** Bytes of manifold storage for `pairCount` pairs (one fixed slot each). */
export function manifoldBytes3D(pairCount: number): number {
  return Math.max(1, pairCount) * L.manifold.words * 4;
}

/** 3D manifold slots to JSON (see unpackManifolds in src/pack2d.ts). */
export function unpackManifolds3D(
  buf: ArrayBuffer,
  pairs: Uint32Array,
  touchingOnly: boolean,
  origins: Float64Array | null = null,
): ManifoldJson[] {
  return unpackManifolds(buf, pairs, touchingOnly, L.manifold, 3, origins);
}
