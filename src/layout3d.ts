// The 3D buffer layouts (shaders/layout3d.wgsl) as word offsets for the host's packers: shapes and
// the flat hull buffers, bodies, pairs in; one manifold slot per pair out. Reflected from the
// WGSL with wgsl_reflect at build time; nothing is copied by hand.

import { member, structTable, word } from './layout.ts';
import { STRUCTS_LAYOUT_3D } from './reflection.generated.ts';

// Reflected at build time (scripts/reflect-layouts.ts), with the constants of src/constants3d.ts.
const { struct } = structTable(STRUCTS_LAYOUT_3D, 'shaders/layout3d.wgsl');

const shape = struct('Shape3D');
const body = struct('Body3D');
const point = struct('ManifoldPoint3D');
const manifold = struct('Manifold3D');
const params = struct('Params3D');
const anchor = struct('Anchor3D');
const anchorPoint = struct('AnchorPoint3D');

/** Word (4-byte) offsets and strides of every field the host touches. */
export const LAYOUT_3D = {
  shape: {
    words: shape.size / 4,
    center: word(shape, 'center'),
    kind: word(shape, 'kind'),
    radius: word(shape, 'radius'),
    extent: word(shape, 'extent'),
    vertexCount: word(shape, 'vertexCount'),
    faceCount: word(shape, 'faceCount'),
    edgeCount: word(shape, 'edgeCount'),
    vertexOffset: word(shape, 'vertexOffset'),
    faceOffset: word(shape, 'faceOffset'),
    indexOffset: word(shape, 'indexOffset'),
    edgeOffset: word(shape, 'edgeOffset'),
    inradius: word(shape, 'inradius'),
    categoryBits: word(shape, 'categoryBits'),
    maskBits: word(shape, 'maskBits'),
  },
  body: {
    words: body.size / 4,
    position: word(body, 'position'),
    shape: word(body, 'shape'),
    rotation: word(body, 'rotation'),
  },
  manifold: {
    words: manifold.size / 4,
    normal: word(manifold, 'normal'),
    count: word(manifold, 'count'),
    kind: word(manifold, 'kind'),
    points: word(manifold, 'points'),
    pointStride: member(manifold, 'points').stride / 4,
    pointCapacity: member(manifold, 'points').count,
    pointPosition: word(point, 'position'),
    pointDepth: word(point, 'depth'),
    /** Point i's feature id at ids + i × idStride (the ids follow the points). */
    ids: word(manifold, 'ids'),
    idStride: member(manifold, 'ids').stride / 4,
  },
  /** Anchor3D: a manifold's anchor for reuse in later frames (src/cpu/reuse3d.ts). */
  anchor: {
    words: anchor.size / 4,
    rotation: word(anchor, 'rotation'),
    translation: word(anchor, 'translation'),
    bound: word(anchor, 'bound'),
    normal: word(anchor, 'normal'),
    countKind: word(anchor, 'countKind'),
    points: word(anchor, 'points'),
    pointStride: member(anchor, 'points').stride / 4,
    pointLocal: word(anchorPoint, 'local'),
    pointDepth: word(anchorPoint, 'depth'),
    ids: word(anchor, 'ids'),
    shapeA: word(anchor, 'shapeA'),
    shapeB: word(anchor, 'shapeB'),
    scale: word(anchor, 'scale'),
    reach: word(anchor, 'reach'),
  },
  params: {
    bytes: params.size,
    pairCount: word(params, 'pairCount'),
    margin: word(params, 'margin'),
    rowPitch: word(params, 'rowPitch'),
    first: word(params, 'first'),
  },
  /** Words per element of the flat hull buffers (vec4f vertices and planes; u32 faces and indices). */
  hullVertexWords: 4,
  hullPlaneWords: 4,
} as const;
