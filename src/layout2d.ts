// The 2D buffer layouts (shaders/layout2d.wgsl) as word offsets for the host's packers: shapes,
// bodies, pairs in; one manifold slot per pair out. Both backends read and write these layouts.

import { structTable, word, member } from './layout.ts';
import { STRUCTS_LAYOUT_2D } from './reflection.generated.ts';

// Reflected at build time (scripts/reflect-layouts.ts), with the constants of src/constants.ts.
const { structs, struct } = structTable(STRUCTS_LAYOUT_2D, 'shaders/layout2d.wgsl');

const shape = struct('Shape2D');
const body = struct('Body2D');
const point = struct('ManifoldPoint2D');
const manifold = struct('Manifold2D');
const params = struct('Params2D');
const anchor = struct('Anchor2D');
const anchorPoint = struct('AnchorPoint2D');

/** Word (4-byte) offsets and strides of every field the host touches. */
export const LAYOUT_2D = {
  shape: {
    words: shape.size / 4,
    count: word(shape, 'count'),
    radius: word(shape, 'radius'),
    extent: word(shape, 'extent'),
    kind: word(shape, 'kind'),
    vertices: word(shape, 'vertices'),
    normals: word(shape, 'normals'),
    categoryBits: word(shape, 'categoryBits'),
    maskBits: word(shape, 'maskBits'),
    vertexStride: member(shape, 'vertices').stride / 4,
  },
  body: {
    words: body.size / 4,
    position: word(body, 'position'),
    rotation: word(body, 'rotation'),
    shape: word(body, 'shape'),
    flags: word(body, 'flags'),
  },
  manifold: {
    words: manifold.size / 4,
    normal: word(manifold, 'normal'),
    count: word(manifold, 'count'),
    flags: word(manifold, 'flags'),
    points: word(manifold, 'points'),
    pointStride: member(manifold, 'points').stride / 4,
    pointPosition: word(point, 'position'),
    pointDepth: word(point, 'depth'),
    pointId: word(point, 'id'),
    /** Point i's feature id at ids + i × idStride (its point's id field; 3D keeps them together). */
    ids: word(manifold, 'points') + word(point, 'id'),
    idStride: member(manifold, 'points').stride / 4,
  },
  /** Anchor2D: a manifold's anchor for reuse in later frames (src/cpu/reuse2d.ts). */
  anchor: {
    words: anchor.size / 4,
    translation: word(anchor, 'translation'),
    rotation: word(anchor, 'rotation'),
    normal: word(anchor, 'normal'),
    bound: word(anchor, 'bound'),
    countJoin: word(anchor, 'countJoin'),
    points: word(anchor, 'points'),
    pointStride: member(anchor, 'points').stride / 4,
    pointLocal: word(anchorPoint, 'local'),
    pointDepth: word(anchorPoint, 'depth'),
    pointId: word(anchorPoint, 'id'),
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
} as const;

export const STRUCTS_2D = structs;
