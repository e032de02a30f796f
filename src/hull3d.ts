// Convex hull building for 3D shapes: a point cloud in, a polyhedron with polygonal faces out.
//
// quickhull3d triangulates the hull; triangles that lie in one plane (within COPLANAR_RELATIVE_3D
// of the hull's extent) are merged into one convex polygonal face, vertices that end up in the
// middle of a straight edge are dropped, and the unique edges are paired from the faces'
// half-edges. Every face passes src/checkshapes.ts, the check packShapes3D applies. The
// result is centred on the mean of its vertices (so f32 keeps its digits near the shape) and
// checked against the limits of src/constants3d.ts. Every failure is an InputError naming the
// shape and the reason; nothing degenerate reaches either backend. The steps, each a pure
// function: src/hull3d-cloud.ts (centre, weld, volume), src/hull3d-regions.ts (planar regions of
// triangles, their loops, convex regrowth), src/hull3d-faces.ts (collinear points, numbering,
// planes, edges).
//
// Conventions: face vertices counter-clockwise seen from outside (around the outward normal);
// face plane (n, d) with n · x = d on the face and n · x <= d inside; edge e joins vertices
// v0 -> v1, the half-edge v0 -> v1 belongs to face f0 and v1 -> v0 to face f1.

// quickhull3d's ESM build imports its own files without extensions, which Node cannot load; its
// single-file bundle works everywhere but ships no .d.ts, so it takes the package root's types.
import type quickhullTyped from 'quickhull3d';
// @ts-ignore -- untyped bundle of the same package (types asserted below)
import quickhullBundle from 'quickhull3d/dist/quickhull3d.js';
const quickhull = quickhullBundle as typeof quickhullTyped;
import { COPLANAR_RELATIVE_3D, MIN_EDGE_RELATIVE_3D } from './constants3d.ts';
import { InputError } from './errors.ts';
import { centreCloud, checkPointCount, checkVolume, weldPoints, type P3 } from './hull3d-cloud.ts';
import type { HullData3D } from './hull-data3d.ts';
import {
  centredVertices,
  checkHullSize,
  dropCollinear,
  facePlanes,
  pairEdges,
  renumberFaces,
  usedVertices,
} from './hull3d-faces.ts';
import {
  mergeRegions,
  regionLoops,
  regionOrder,
  regrowNonConvex,
  triangleMesh,
} from './hull3d-regions.ts';

export type { HullData3D };

/**
 * Builds the convex hull of `points` (already validated as finite [x, y, z] triples). `path`
 * names the shape in errors, e.g. "shapes[3] (hull)".
 */
export function buildHull3D(path: string, points: readonly P3[]): HullData3D {
  checkPointCount(path, points.length);
  const { mean, reach, local } = centreCloud(path, points);
  // Weld points closer than the minimum edge length (keep the first of each cluster), relative to
  // the hull's extent: its vertices lie within `reach` of the cloud's mean, and so within 2 reach
  // of their own mean, the shape's centre. Every edge then passes the limit (welding by `reach`
  // alone refused a box with jittered twin corners, its edges 1.9e-4 long and its extent 1.96).
  const weld = MIN_EDGE_RELATIVE_3D * 2 * reach;
  const tol = COPLANAR_RELATIVE_3D * reach;
  const kept = weldPoints(local, weld);
  checkVolume(path, local, kept, weld, tol);
  const cloud = kept.map((k) => local[k]);
  const mesh = triangleMesh(cloud, quickhull(cloud) as number[][]);
  const order = regionOrder(mesh);
  const regions = mergeRegions(mesh, order, tol);
  const loops = regrowNonConvex(mesh, regions, order, regionLoops(mesh, regions, tol), tol).map(
    (l) => {
      if (l === null)
        throw new InputError(
          path,
          'hull building failed: a merged face is not a convex simple polygon (nearly coplanar points); perturb or remove them',
        );
      return l;
    },
  );
  const corners = dropCollinear(cloud, loops, tol);
  const used = usedVertices(corners);
  checkHullSize(path, used.length, corners.length);
  const { vertices, mean: shift, extent } = centredVertices(cloud, used);
  const faces = renumberFaces(corners, used);
  const { planes, faceFirst, faceSize } = facePlanes(path, faces, vertices, regions.normal);
  const edges = pairEdges(path, faces, faceFirst, used.length);
  return {
    center: [mean[0] + shift[0], mean[1] + shift[1], mean[2] + shift[2]],
    extent,
    vertexCount: used.length,
    faceCount: faces.length,
    edgeCount: edges.edgeV0.length,
    vertices,
    planes,
    faceFirst,
    faceSize,
    ...edges,
  };
}
