// The arrays of a built hull (src/hull3d.ts builds them; src/box3d.ts writes a box's): types only,
// so that the box topology and the constants that use it need not import the hull builder.

/** A hull's face planes and the layout of its face loops (part of HullData3D). */
export interface FacePlanes {
  /** nx,ny,nz,d per face (outward unit normal; plane offset relative to the hull's centre). */
  planes: Float64Array;
  /** First entry of face f in faceVertices/faceEdges. */
  faceFirst: Uint16Array;
  /** Vertex count of face f. */
  faceSize: Uint8Array;
}

/** A hull's face loops and unique edges (part of HullData3D; conventions in src/hull3d.ts). */
export interface HullEdges {
  /** Vertex indices of all faces, counter-clockwise around the outward normal. */
  faceVertices: Uint8Array;
  /** faceEdges[faceFirst[f] + i] = unique edge joining face vertex i and i + 1. */
  faceEdges: Uint8Array;
  /** Unique edges: endpoints v0 -> v1 and the two adjacent faces f0 (holding v0 -> v1) and f1. */
  edgeV0: Uint8Array;
  edgeV1: Uint8Array;
  edgeF0: Uint8Array;
  edgeF1: Uint8Array;
}

/**
 * A built hull, in the arrays the collide functions read (field for field the packed GPU data):
 * these, its face planes and loops (FacePlanes) and its edges (HullEdges).
 */
export interface HullData3D extends FacePlanes, HullEdges {
  /** Offset of the hull's local origin from the shape's frame: vertices are stored relative to it. */
  center: [number, number, number];
  /** Largest |vertex| (relative to `center`): the length scale of relative tolerances. */
  extent: number;
  vertexCount: number;
  faceCount: number;
  edgeCount: number;
  /** x,y,z per vertex, relative to `center`. */
  vertices: Float64Array;
}
