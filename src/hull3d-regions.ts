// Faces of hull building (src/hull3d.ts): quickhull's triangles merged into regions that lie in
// one plane, each region's boundary loop, and regions that are not one convex polygon grown again
// in convex pieces. Internal: the steps are exported for buildHull3D and their tests only.
//
// Faces: regions of triangles grown from the largest. A neighbour joins when all its vertices lie
// within `tol` of the seed's plane and each of its edges lies in that plane as a direction (within
// COPLANAR_RELATIVE_3D, as a sine). The edge rule keeps the Gauss map the SAT's edge query reads
// (an edge between the normals of its two faces) true: a sliver merged by distance alone, its
// 1e-3-long edge 1e-4 off the plane, put that edge 0.09 rad out of its face's plane, and an edge
// pair claimed a separation of 0.058 where the hulls were 0.036 apart (found by the
// speculative-contact tests). It leaves out short edges only: a long sliver of noisy coplanar
// points joins, whose normal (the noise over its tiny height) is anything.

import { COPLANAR_RELATIVE_3D } from './constants3d.ts';
import { cross, dot, len, sub, type P3 } from './hull3d-cloud.ts';

/** quickhull's triangles with their outward planes, twice their areas and their half-edges. */
export interface TriangleMesh {
  cloud: P3[];
  /** Vertex triples, counter-clockwise seen from outside. */
  tris: number[][];
  normal: P3[];
  offset: number[];
  area: number[];
  /** Half-edge a -> b (key a × cloud.length + b) to the triangle holding it. */
  halfEdge: Map<number, number>;
}

/** Regions of triangles: each triangle's region (-1: none) and each region's seed normal. */
export interface Regions {
  region: Int32Array;
  normal: P3[];
}

/**
 * The triangles' planes, oriented outward (away from the cloud's mean at the origin, which is
 * inside; a reversed triangle is turned round), and their half-edges.
 */
export function triangleMesh(cloud: P3[], tris: number[][]): TriangleMesh {
  const normal: P3[] = [];
  const offset: number[] = [];
  const area: number[] = [];
  for (const f of tris) {
    const a = cloud[f[0]];
    let nn = cross(sub(cloud[f[1]], a), sub(cloud[f[2]], a));
    const l = len(nn);
    area.push(l);
    nn = l > 0 ? [nn[0] / l, nn[1] / l, nn[2] / l] : [0, 0, 0];
    let d = dot(nn, a);
    if (d < 0) {
      f.reverse();
      nn = [-nn[0], -nn[1], -nn[2]];
      d = -d;
    }
    normal.push(nn);
    offset.push(d);
  }
  const halfEdge = new Map<number, number>();
  const N = cloud.length;
  tris.forEach((f, t) => {
    for (let i = 0; i < 3; i++) halfEdge.set(f[i] * N + f[(i + 1) % 3], t);
  });
  return { cloud, tris, normal, offset, area, halfEdge };
}

/** The triangle holding half-edge a -> b (undefined: none). */
export function holding(mesh: TriangleMesh, a: number, b: number): number | undefined {
  return mesh.halfEdge.get(a * mesh.cloud.length + b);
}

/** Triangle indices, largest first (ties in index order): the order regions are seeded in. */
export function regionOrder(mesh: TriangleMesh): number[] {
  return Array.from({ length: mesh.tris.length }, (_, t) => t).sort(
    (a, b) => mesh.area[b] - mesh.area[a] || a - b,
  );
}

/** Whether triangle u joins the region of seed plane (sn, sd): see the header. */
export function joinsRegion(
  mesh: TriangleMesh,
  u: number,
  sn: P3,
  sd: number,
  tol: number,
): boolean {
  if (dot(mesh.normal[u], sn) <= 0) return false;
  const g = mesh.tris[u];
  for (let k = 0; k < 3; k++) {
    const p = mesh.cloud[g[k]];
    const e = sub(mesh.cloud[g[(k + 1) % 3]], p);
    if (Math.abs(dot(sn, p) - sd) > tol || Math.abs(dot(sn, e)) > COPLANAR_RELATIVE_3D * len(e))
      return false;
  }
  return true;
}

/** Every triangle in a region: each seed (in `order`) floods the neighbours that join it. */
export function mergeRegions(mesh: TriangleMesh, order: readonly number[], tol: number): Regions {
  const region = new Int32Array(mesh.tris.length).fill(-1);
  const normal: P3[] = [];
  for (const seed of order) {
    if (region[seed] !== -1) continue;
    const r = normal.length;
    const sn = mesh.normal[seed];
    const sd = mesh.offset[seed];
    region[seed] = r;
    const stack = [seed];
    while (stack.length > 0) {
      const f = mesh.tris[stack.pop()!];
      for (let i = 0; i < 3; i++) {
        const u = holding(mesh, f[(i + 1) % 3], f[i]);
        if (u === undefined || region[u] !== -1 || !joinsRegion(mesh, u, sn, sd, tol)) continue;
        region[u] = r;
        stack.push(u);
      }
    }
    normal.push(sn);
  }
  return { region, normal };
}

/** Whether corner v between p and q (counter-clockwise around n) lies outside the chord p -> q, or within `tol` of it. */
export function convexAt(
  cloud: readonly P3[],
  p: number,
  v: number,
  q: number,
  n: P3,
  tol: number,
): boolean {
  const pq = sub(cloud[q], cloud[p]);
  return dot(cross(pq, sub(cloud[v], cloud[p])), n) <= tol * len(pq);
}

/**
 * The boundary of region r (its triangles' half-edges whose twin lies in another region) as a
 * loop from its lowest vertex; null where it is not one simple loop.
 */
export function boundaryLoop(mesh: TriangleMesh, region: Int32Array, r: number): number[] | null {
  const next = new Map<number, number>();
  let start = -1;
  for (let t = 0; t < mesh.tris.length; t++) {
    if (region[t] !== r) continue;
    const f = mesh.tris[t];
    for (let i = 0; i < 3; i++) {
      const a = f[i];
      const b = f[(i + 1) % 3];
      const twin = holding(mesh, b, a);
      if (twin !== undefined && region[twin] === r) continue;
      if (next.has(a)) return null;
      next.set(a, b);
      if (start < 0 || a < start) start = a;
    }
  }
  const loop: number[] = [];
  for (let v = start; ;) {
    loop.push(v);
    const w = next.get(v);
    if (w === undefined || loop.length > next.size) return null;
    if ((v = w) === start) break;
  }
  return loop.length === next.size ? loop : null;
}

/** Whether every corner of `loop` is convex around n (convexAt). */
export function isConvexLoop(
  cloud: readonly P3[],
  loop: readonly number[],
  n: P3,
  tol: number,
): boolean {
  const k = loop.length;
  return loop.every((v, i) => convexAt(cloud, loop[(i + k - 1) % k], v, loop[(i + 1) % k], n, tol));
}

/** Each region's boundary loop, or null where it is not one convex simple polygon. */
export function regionLoops(
  mesh: TriangleMesh,
  regions: Regions,
  tol: number,
): (number[] | null)[] {
  return regions.normal.map((n, r) => {
    const loop = boundaryLoop(mesh, regions.region, r);
    return loop !== null && isConvexLoop(mesh.cloud, loop, n, tol) ? loop : null;
  });
}

/** A region's boundary while it grows: the vertex after and before each, counter-clockwise. */
export interface LinkedLoop {
  next: Map<number, number>;
  prev: Map<number, number>;
}

function link(loop: LinkedLoop, a: number, b: number): void {
  loop.next.set(a, b);
  loop.prev.set(b, a);
}

/**
 * Splices triangle (b, a, x) into the loop across its edge a -> b where every corner it makes
 * stays convex around n: a -> b becomes a -> x -> b, or loses b (the triangle also holds b -> x)
 * or a (it also holds x -> a). Returns whether it did.
 */
export function spliceTriangle(
  cloud: readonly P3[],
  loop: LinkedLoop,
  a: number,
  b: number,
  x: number,
  n: P3,
  tol: number,
): boolean {
  const convex = (p: number, v: number, q: number): boolean => convexAt(cloud, p, v, q, n, tol);
  const pa = loop.prev.get(a)!;
  const nb = loop.next.get(b)!;
  if (nb === x && pa === x) return false;
  if (nb === x) {
    if (!convex(pa, a, x) || !convex(a, x, loop.next.get(x)!)) return false;
    loop.next.delete(b);
    loop.prev.delete(b);
    link(loop, a, x);
  } else if (pa === x) {
    if (!convex(loop.prev.get(x)!, x, b) || !convex(x, b, nb)) return false;
    loop.next.delete(a);
    loop.prev.delete(a);
    link(loop, x, b);
  } else {
    // x elsewhere on the loop would pinch the region into a non-simple polygon.
    if (loop.next.has(x) || !convex(pa, a, x) || !convex(a, x, b) || !convex(x, b, nb))
      return false;
    link(loop, a, x);
    link(loop, x, b);
  }
  return true;
}

/**
 * Grows a new region from `seed` one triangle at a time (the triangles that join it, as in
 * mergeRegions), keeping its boundary loop convex, and retries the refused triangles after each
 * pass (a later one can fill the notch an earlier one would have made).
 */
export function growConvex(mesh: TriangleMesh, regions: Regions, seed: number, tol: number): void {
  const { region } = regions;
  const r = regions.normal.length;
  const sn = mesh.normal[seed];
  const sd = mesh.offset[seed];
  region[seed] = r;
  regions.normal.push(sn);
  const loop: LinkedLoop = { next: new Map(), prev: new Map() };
  const f0 = mesh.tris[seed];
  for (let i = 0; i < 3; i++) link(loop, f0[i], f0[(i + 1) % 3]);
  for (let grown = true; grown;) {
    grown = false;
    for (const [a, b] of [...loop.next]) {
      if (loop.next.get(a) !== b) continue; // no longer a boundary edge after this pass's merges
      const u = holding(mesh, b, a);
      if (u === undefined || region[u] !== -1 || !joinsRegion(mesh, u, sn, sd, tol)) continue;
      const g = mesh.tris[u];
      if (!spliceTriangle(mesh.cloud, loop, a, b, g[0] + g[1] + g[2] - a - b, sn, tol)) continue;
      region[u] = r;
      grown = true;
    }
  }
}

/** Renumbers the regions in order without the empty ones. */
export function renumberRegions(regions: Regions): void {
  const { region, normal } = regions;
  const id = new Int32Array(normal.length).fill(-1);
  for (let t = 0; t < region.length; t++) id[region[t]] = 0;
  let kept = 0;
  for (let r = 0; r < normal.length; r++) {
    if (id[r] === -1) continue;
    normal[kept] = normal[r];
    id[r] = kept++;
  }
  for (let t = 0; t < region.length; t++) region[t] = id[region[t]];
  normal.length = kept;
}

/**
 * A region that grew around triangles it could not take (a bump of points off the plane by more
 * than `tol`) is not convex: a reflex corner's side plane would cut the face in clipping (old
 * builds had notches up to 0.48 of the size deep on such clouds). The triangles of every such
 * region (null in `loops`) grow again with growConvex, each step keeping the region's loop
 * convex; they make more, smaller faces. Returns the loops of the regions then.
 */
export function regrowNonConvex(
  mesh: TriangleMesh,
  regions: Regions,
  order: readonly number[],
  loops: (number[] | null)[],
  tol: number,
): (number[] | null)[] {
  const redo = new Set(loops.flatMap((l, r) => (l === null ? [r] : [])));
  if (redo.size === 0) return loops;
  const { region } = regions;
  for (let t = 0; t < region.length; t++) if (redo.has(region[t])) region[t] = -1;
  for (const seed of order) if (region[seed] === -1) growConvex(mesh, regions, seed, tol);
  renumberRegions(regions);
  return regionLoops(mesh, regions, tol);
}
