// The one topology of every box: a box is a hull (src/hull3d.ts conventions) with fixed vertex,
// face and edge numbering, so the GPU computes a box's vertices, planes, face loops and edges
// from its half extents instead of reading them from the hull buffers (shaders/manifold3d.wgsl),
// and both backends see bit-identical data either way.
//
//   vertex i:  (±hx, ±hy, ±hz) with + where bit 0 / 1 / 2 of i is set;
//   face f:    normal −x, +x, −y, +y, −z, +z for f = 0..5, offset h[f >> 1];
//   face loops (counter-clockwise around the outward normal) below; edges numbered as the hull
//   builder numbers them: in face order, a new edge at the first half-edge of each pair (v0 -> v1
//   belongs to face f0), f1 the face of the twin half-edge.

import type { HullData3D } from './hull-data3d.ts';

/** Face loops of the box, four vertices each. */
export const BOX_FACE_LOOPS: readonly (readonly [number, number, number, number])[] = [
  [0, 4, 6, 2],
  [1, 3, 7, 5],
  [0, 1, 5, 4],
  [2, 6, 7, 3],
  [0, 2, 3, 1],
  [4, 5, 7, 6],
];

export interface BoxTopology3D {
  /** 24 entries: face f's loop at 4 f. */
  faceVertices: Uint8Array;
  /** 24 entries: the edge joining face vertex k and k + 1. */
  faceEdges: Uint8Array;
  edgeV0: Uint8Array;
  edgeV1: Uint8Array;
  edgeF0: Uint8Array;
  edgeF1: Uint8Array;
}

function buildTopology(): BoxTopology3D {
  const faceVertices = new Uint8Array(24);
  const faceEdges = new Uint8Array(24);
  const v0: number[] = [];
  const v1: number[] = [];
  const f0: number[] = [];
  const f1: number[] = [];
  const edgeOf = new Map<number, number>();
  BOX_FACE_LOOPS.forEach((loop, f) => {
    for (let k = 0; k < 4; k++) {
      const a = loop[k];
      const b = loop[(k + 1) % 4];
      faceVertices[4 * f + k] = a;
      const twin = edgeOf.get(b * 8 + a);
      if (twin !== undefined) {
        f1[twin] = f;
        faceEdges[4 * f + k] = twin;
      } else {
        edgeOf.set(a * 8 + b, v0.length);
        faceEdges[4 * f + k] = v0.length;
        v0.push(a);
        v1.push(b);
        f0.push(f);
        f1.push(-1);
      }
    }
  });
  return {
    faceVertices,
    faceEdges,
    edgeV0: Uint8Array.from(v0),
    edgeV1: Uint8Array.from(v1),
    edgeF0: Uint8Array.from(f0),
    edgeF1: Uint8Array.from(f1),
  };
}

export const BOX_TOPOLOGY_3D: BoxTopology3D = buildTopology();

/**
 * The edge along axis a (0..2) whose other two coordinates have the signs of vertex mask m (bit k
 * set: +h_k; bit a clear): BOX_EDGE_BY_AXIS[8 a + m]; 255 where no edge.
 */
export const BOX_EDGE_BY_AXIS: Uint8Array = (() => {
  const t = BOX_TOPOLOGY_3D;
  const out = new Uint8Array(24).fill(255);
  for (let e = 0; e < 12; e++) {
    const a = Math.log2(t.edgeV0[e] ^ t.edgeV1[e]);
    out[8 * a + (t.edgeV0[e] & ~(1 << a))] = e;
  }
  return out;
})();

/**
 * The box topology packed for WGSL constants: six words of face entries (entry k in byte k % 4 of
 * word k / 4: vertex | edge << 4) and six words of edges (edge e in half-word e % 2 of word e / 2:
 * v0 | v1 << 4 | f0 << 8 | f1 << 12).
 */
export function boxTopologyWords3D(): {
  faceEntries: number[];
  edges: number[];
  edgeByAxis: number[];
} {
  const t = BOX_TOPOLOGY_3D;
  const faceEntries = [0, 0, 0, 0, 0, 0];
  for (let k = 0; k < 24; k++)
    faceEntries[k >> 2] += (t.faceVertices[k] | (t.faceEdges[k] << 4)) * 2 ** (8 * (k & 3));
  const edges = [0, 0, 0, 0, 0, 0];
  for (let e = 0; e < 12; e++)
    edges[e >> 1] +=
      (t.edgeV0[e] | (t.edgeV1[e] << 4) | (t.edgeF0[e] << 8) | (t.edgeF1[e] << 12)) *
      2 ** (16 * (e & 1));
  // Edge by axis: nibble 8 a + m of three words (eight nibbles per word, one word per axis).
  const edgeByAxis = [0, 1, 2].map((a) => {
    let w = 0;
    for (let m = 0; m < 8; m++) w += (BOX_EDGE_BY_AXIS[8 * a + m] & 0xf) * 2 ** (4 * m);
    return w;
  });
  return { faceEntries, edges, edgeByAxis };
}

/** The hull data of a box with half extents hx, hy, hz, centred on its shape frame's origin. */
export function boxHull3D(hx: number, hy: number, hz: number): HullData3D {
  const t = BOX_TOPOLOGY_3D;
  const h = [hx, hy, hz];
  const vertices = new Float64Array(24);
  for (let i = 0; i < 8; i++) {
    vertices[3 * i] = i & 1 ? hx : -hx;
    vertices[3 * i + 1] = i & 2 ? hy : -hy;
    vertices[3 * i + 2] = i & 4 ? hz : -hz;
  }
  const planes = new Float64Array(24);
  for (let f = 0; f < 6; f++) {
    planes[4 * f + (f >> 1)] = f & 1 ? 1 : -1;
    planes[4 * f + 3] = h[f >> 1];
  }
  return {
    center: [0, 0, 0],
    extent: Math.hypot(hx, hy, hz),
    vertexCount: 8,
    faceCount: 6,
    edgeCount: 12,
    vertices,
    planes,
    faceFirst: Uint16Array.from([0, 4, 8, 12, 16, 20]),
    faceSize: Uint8Array.from([4, 4, 4, 4, 4, 4]),
    faceVertices: t.faceVertices.slice(),
    faceEdges: t.faceEdges.slice(),
    edgeV0: t.edgeV0.slice(),
    edgeV1: t.edgeV1.slice(),
    edgeF0: t.edgeF0.slice(),
    edgeF1: t.edgeF1.slice(),
  };
}
