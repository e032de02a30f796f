// The output side of hull building (src/hull3d.ts): face loops without the points in the middle
// of an edge, the vertices numbered and centred, each face's plane, and the unique edges paired
// from the faces' half-edges. Every failure is an InputError naming the shape. Internal: the steps
// are exported for buildHull3D and their tests only.

import {
  COPLANAR_RELATIVE_3D,
  MAX_FACE_VERTICES,
  MAX_HULL_EDGES,
  MAX_HULL_FACES,
  MAX_HULL_VERTICES,
} from './constants3d.ts';
import { InputError } from './errors.ts';
import { cross, dot, len, sub, type P3 } from './hull3d-cloud.ts';
import type { FacePlanes, HullEdges } from './hull-data3d.ts';

export type { FacePlanes, HullEdges };

/** Whether loop vertex i lies within `tol` of the line through its neighbours, between them. */
export function collinearAt(
  cloud: readonly P3[],
  loop: readonly number[],
  i: number,
  tol: number,
): boolean {
  const a = cloud[loop[(i + loop.length - 1) % loop.length]];
  const b = cloud[loop[i]];
  const c = cloud[loop[(i + 1) % loop.length]];
  const ab = sub(b, a);
  const bc = sub(c, b);
  const ac = sub(c, a);
  return len(cross(ab, ac)) / len(ac) <= tol && dot(ab, bc) > 0;
}

/**
 * The loops without the vertices that lie on a straight edge in every face that holds them (a
 * point in the middle of an edge); a vertex that is a corner in any face stays, which keeps the
 * half-edges paired.
 */
export function dropCollinear(
  cloud: readonly P3[],
  loops: readonly number[][],
  tol: number,
): number[][] {
  const corners = new Set<number>();
  for (const loop of loops) {
    for (let i = 0; i < loop.length; i++)
      if (!collinearAt(cloud, loop, i, tol)) corners.add(loop[i]);
  }
  return loops.map((loop) => loop.filter((v) => corners.has(v)));
}

/** The vertices the faces use, in input order. */
export function usedVertices(faces: readonly number[][]): number[] {
  return Array.from(new Set(faces.flat())).sort((a, b) => a - b);
}

/** Refuses hulls beyond the narrowphase's limits (src/constants3d.ts). */
export function checkHullSize(path: string, vertexCount: number, faceCount: number): void {
  if (vertexCount > MAX_HULL_VERTICES) {
    throw new InputError(
      path,
      `hull has ${vertexCount} vertices; at most ${MAX_HULL_VERTICES} are supported (simplify the point cloud)`,
    );
  }
  if (faceCount > MAX_HULL_FACES) {
    throw new InputError(
      path,
      `hull has ${faceCount} faces; at most ${MAX_HULL_FACES} are supported (simplify the point cloud)`,
    );
  }
}

/** The used vertices relative to their mean (x, y, z each), the mean, and the largest distance from it. */
export function centredVertices(
  cloud: readonly P3[],
  used: readonly number[],
): { vertices: Float64Array; mean: P3; extent: number } {
  const V = used.length;
  let mx = 0;
  let my = 0;
  let mz = 0;
  for (const v of used) {
    mx += cloud[v][0] / V;
    my += cloud[v][1] / V;
    mz += cloud[v][2] / V;
  }
  const vertices = new Float64Array(3 * V);
  let extent = 0;
  used.forEach((v, i) => {
    const p = cloud[v];
    vertices[3 * i] = p[0] - mx;
    vertices[3 * i + 1] = p[1] - my;
    vertices[3 * i + 2] = p[2] - mz;
    extent = Math.max(extent, Math.hypot(p[0] - mx, p[1] - my, p[2] - mz));
  });
  return { vertices, mean: [mx, my, mz], extent };
}

/** The faces with their vertices numbered by their place in `used`. */
export function renumberFaces(faces: readonly number[][], used: readonly number[]): number[][] {
  const remap = new Map<number, number>();
  used.forEach((v, i) => remap.set(v, i));
  return faces.map((loop) => loop.map((v) => remap.get(v)!));
}

function vertexAt(vertices: Float64Array, i: number): P3 {
  return [vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]];
}

/** The unit Newell normal of a loop of `vertices`. */
export function newellNormal(vertices: Float64Array, loop: readonly number[]): P3 {
  let nx = 0;
  let ny = 0;
  let nz = 0;
  for (let i = 0; i < loop.length; i++) {
    const a = vertexAt(vertices, loop[i]);
    const b = vertexAt(vertices, loop[(i + 1) % loop.length]);
    nx += (a[1] - b[1]) * (a[2] + b[2]);
    ny += (a[2] - b[2]) * (a[0] + b[0]);
    nz += (a[0] - b[0]) * (a[1] + b[1]);
  }
  const l = Math.hypot(nx, ny, nz);
  return [nx / l, ny / l, nz / l];
}

/**
 * The normal of face f (loop of `vertices`, merged from triangles around `seedNormal`): its
 * Newell normal; where an edge of the loop leaves that plane by more than twice the merge angle
 * (points off a plane by nearly the merge tolerance), the seed triangle's normal instead: the
 * merge rule holds every edge of the region within COPLANAR_RELATIVE_3D of it, and the Gauss map
 * needs the edges in the plane.
 */
export function faceNormal(
  path: string,
  f: number,
  vertices: Float64Array,
  loop: readonly number[],
  seedNormal: P3,
): P3 {
  const n = newellNormal(vertices, loop);
  if (dot(n, seedNormal) <= 0)
    throw new InputError(path, `hull face ${f} is wound inward (nearly coplanar points)`);
  const tilted = loop.some((v, i) => {
    const e = sub(vertexAt(vertices, loop[(i + 1) % loop.length]), vertexAt(vertices, v));
    return Math.abs(dot(n, e)) > 2 * COPLANAR_RELATIVE_3D * len(e);
  });
  return tilted ? seedNormal : n;
}

/** Each face's plane: its normal (faceNormal) and the largest n · v over the hull, so the plane supports it. */
export function facePlanes(
  path: string,
  faces: readonly number[][],
  vertices: Float64Array,
  seedNormals: readonly P3[],
): FacePlanes {
  const F = faces.length;
  const planes = new Float64Array(4 * F);
  const faceFirst = new Uint16Array(F);
  const faceSize = new Uint8Array(F);
  let total = 0;
  faces.forEach((loop, f) => {
    if (loop.length > MAX_FACE_VERTICES) {
      throw new InputError(
        path,
        `hull face ${f} has ${loop.length} vertices; at most ${MAX_FACE_VERTICES} are supported`,
      );
    }
    if (loop.length < 3)
      throw new InputError(
        path,
        `hull face ${f} degenerated to ${loop.length} vertices (nearly coplanar points)`,
      );
    const [nx, ny, nz] = faceNormal(path, f, vertices, loop, seedNormals[f]);
    let d = -Infinity;
    for (let i = 0; i < vertices.length / 3; i++)
      d = Math.max(d, nx * vertices[3 * i] + ny * vertices[3 * i + 1] + nz * vertices[3 * i + 2]);
    planes.set([nx, ny, nz, d], 4 * f);
    faceFirst[f] = total;
    faceSize[f] = loop.length;
    total += loop.length;
  });
  return { planes, faceFirst, faceSize };
}

/**
 * The unique edges from the faces' half-edges: the first half-edge a -> b makes edge (a, b) of
 * its face f0, its twin b -> a names f1. Refuses a half-edge that appears twice, an edge of more
 * than two faces, an edge of one face (the faces do not close) and a surface that is not a closed
 * polyhedron (Euler: V − E + F = 2).
 */
export function pairEdges(
  path: string,
  faces: readonly number[][],
  faceFirst: Uint16Array,
  vertexCount: number,
): HullEdges {
  const total = faces.reduce((t, loop) => t + loop.length, 0);
  const faceVertices = new Uint8Array(total);
  const faceEdges = new Uint8Array(total);
  const edgeOf = new Map<number, number>();
  const e0: number[] = [];
  const e1: number[] = [];
  const ef0: number[] = [];
  const ef1: number[] = [];
  faces.forEach((loop, f) => {
    for (let i = 0; i < loop.length; i++) {
      const a = loop[i];
      const b = loop[(i + 1) % loop.length];
      faceVertices[faceFirst[f] + i] = a;
      const twin = edgeOf.get(b * 256 + a);
      if (twin !== undefined) {
        if (ef1[twin] !== -1)
          throw new InputError(
            path,
            'hull building failed: an edge is shared by more than two faces',
          );
        ef1[twin] = f;
        faceEdges[faceFirst[f] + i] = twin;
      } else {
        if (edgeOf.has(a * 256 + b))
          throw new InputError(path, 'hull building failed: a half-edge appears twice');
        edgeOf.set(a * 256 + b, e0.length);
        faceEdges[faceFirst[f] + i] = e0.length;
        e0.push(a);
        e1.push(b);
        ef0.push(f);
        ef1.push(-1);
      }
    }
  });
  const E = e0.length;
  const F = faces.length;
  if (ef1.some((f) => f < 0))
    throw new InputError(
      path,
      'hull building failed: the faces do not close (nearly coplanar points)',
    );
  if (E > MAX_HULL_EDGES || vertexCount - E + F !== 2) {
    throw new InputError(
      path,
      `hull building failed: ${vertexCount} vertices, ${E} edges, ${F} faces is not a closed polyhedron`,
    );
  }
  return {
    faceVertices,
    faceEdges,
    edgeV0: Uint8Array.from(e0),
    edgeV1: Uint8Array.from(e1),
    edgeF0: Uint8Array.from(ef0),
    edgeF1: Uint8Array.from(ef1),
  };
}
