// Convex hull building for 3D shapes: a point cloud in, a polyhedron with polygonal faces out.
//
// quickhull3d triangulates the hull; triangles that lie in one plane (within COPLANAR_RELATIVE_3D
// of the hull's extent) are merged into one convex polygonal face, vertices that end up in the
// middle of a straight edge are dropped, and the unique edges are paired from the faces'
// half-edges. Every face passes src/checkshapes.ts, the check packShapes3D applies. The
// result is centred on the mean of its vertices (so f32 keeps its digits near the shape) and
// checked against the limits of src/constants3d.ts. Every failure is an InputError naming the
// shape and the reason; nothing degenerate reaches either backend.
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
import {
  COPLANAR_RELATIVE_3D,
  MAX_FACE_VERTICES,
  MAX_HULL_EDGES,
  MAX_HULL_FACES,
  MAX_HULL_INPUT_POINTS,
  MAX_HULL_VERTICES,
  MIN_EDGE_RELATIVE_3D,
  MIN_EXTENT_3D,
} from './constants3d.ts';
import { InputError } from './errors.ts';

/** A built hull, in the arrays the collide functions read (field for field the packed GPU data). */
export interface HullData3D {
  /** Offset of the hull's local origin from the shape's frame: vertices are stored relative to it. */
  center: [number, number, number];
  /** Largest |vertex| (relative to `center`): the length scale of relative tolerances. */
  extent: number;
  vertexCount: number;
  faceCount: number;
  edgeCount: number;
  /** x,y,z per vertex, relative to `center`. */
  vertices: Float64Array;
  /** nx,ny,nz,d per face (outward unit normal; plane offset relative to `center`). */
  planes: Float64Array;
  /** First entry of face f in faceVertices/faceEdges. */
  faceFirst: Uint16Array;
  /** Vertex count of face f. */
  faceSize: Uint8Array;
  /** Vertex indices of all faces, counter-clockwise around the outward normal. */
  faceVertices: Uint8Array;
  /** faceEdges[faceFirst[f] + i] = unique edge joining face vertex i and i + 1. */
  faceEdges: Uint8Array;
  /** Unique edges: endpoints and the two adjacent faces (see the header). */
  edgeV0: Uint8Array;
  edgeV1: Uint8Array;
  edgeF0: Uint8Array;
  edgeF1: Uint8Array;
}

type P3 = [number, number, number];

function sub(a: P3, b: P3): P3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function cross(a: P3, b: P3): P3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: P3, b: P3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
function len(a: P3): number {
  return Math.hypot(a[0], a[1], a[2]);
}

/**
 * Builds the convex hull of `points` (already validated as finite [x, y, z] triples). `path`
 * names the shape in errors, e.g. "shapes[3] (hull)".
 */
export function buildHull3D(path: string, points: readonly P3[]): HullData3D {
  const n = points.length;
  if (n < 4) throw new InputError(path, `has ${n} points; a hull needs at least 4 points that are not coplanar`);
  if (n > MAX_HULL_INPUT_POINTS) {
    throw new InputError(path, `has ${n} points; at most ${MAX_HULL_INPUT_POINTS} are accepted`);
  }
  // Mean and size of the cloud.
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (const p of points) {
    cx += p[0];
    cy += p[1];
    cz += p[2];
  }
  cx /= n;
  cy /= n;
  cz /= n;
  let reach = 0;
  for (const p of points) reach = Math.max(reach, Math.hypot(p[0] - cx, p[1] - cy, p[2] - cz));
  if (!(reach >= MIN_EXTENT_3D)) {
    throw new InputError(path, `all points coincide (size ${reach}); a hull needs volume`);
  }
  const local: P3[] = points.map((p) => [p[0] - cx, p[1] - cy, p[2] - cz]);

  // Weld points closer than the minimum edge length (keep the first of each cluster), relative to
  // the hull's extent: its vertices lie within `reach` of the cloud's mean, and so within 2 reach
  // of their own mean, the shape's centre. Every edge then passes the limit (welding by `reach`
  // alone refused a box with jittered twin corners, its edges 1.9e-4 long and its extent 1.96).
  const weld = MIN_EDGE_RELATIVE_3D * 2 * reach;
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = local[i]!;
    let dup = false;
    for (const k of kept) {
      const q = local[k]!;
      if (Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) <= weld) {
        dup = true;
        break;
      }
    }
    if (!dup) kept.push(i);
  }

  // Degeneracy: a line or a plane has no volume (quickhull would return garbage).
  const tol = COPLANAR_RELATIVE_3D * reach;
  const p0 = local[kept[0]!]!;
  let i1 = -1;
  let best = 0;
  for (const k of kept) {
    const d = len(sub(local[k]!, p0));
    if (d > best) {
      best = d;
      i1 = k;
    }
  }
  if (i1 < 0 || best <= weld) throw new InputError(path, 'all points coincide (duplicates only); a hull needs volume');
  const axis = sub(local[i1]!, p0);
  let i2 = -1;
  best = 0;
  for (const k of kept) {
    const d = len(cross(axis, sub(local[k]!, p0))) / len(axis);
    if (d > best) {
      best = d;
      i2 = k;
    }
  }
  if (i2 < 0 || best <= tol) throw new InputError(path, 'points are collinear; a hull needs volume');
  const pn = cross(axis, sub(local[i2]!, p0));
  const pl = len(pn);
  best = 0;
  for (const k of kept) best = Math.max(best, Math.abs(dot(pn, sub(local[k]!, p0))) / pl);
  if (best <= tol) throw new InputError(path, 'points are coplanar; a hull needs volume');

  const cloud = kept.map((k) => local[k]!);
  const tris = quickhull(cloud) as number[][];

  // Triangle planes, oriented outward (away from the cloud mean, which is inside).
  const T = tris.length;
  const tn: P3[] = [];
  const td: number[] = [];
  const area: number[] = [];
  for (let t = 0; t < T; t++) {
    const f = tris[t]!;
    const a = cloud[f[0]!]!;
    const b = cloud[f[1]!]!;
    const c = cloud[f[2]!]!;
    let nn = cross(sub(b, a), sub(c, a));
    const l = len(nn);
    area.push(l);
    nn = l > 0 ? [nn[0] / l, nn[1] / l, nn[2] / l] : [0, 0, 0];
    let d = dot(nn, a);
    if (d < 0) {
      // quickhull3d winds outward already; keep the guard so a reversed triangle cannot slip in.
      f.reverse();
      nn = [-nn[0], -nn[1], -nn[2]];
      d = -d;
    }
    tn.push(nn);
    td.push(d);
  }
  // Half-edge a -> b to its triangle.
  const halfEdge = new Map<number, number>();
  const N = cloud.length;
  for (let t = 0; t < T; t++) {
    const f = tris[t]!;
    for (let i = 0; i < 3; i++) halfEdge.set(f[i]! * N + f[(i + 1) % 3]!, t);
  }
  // Faces: regions of triangles grown from the largest. A neighbour joins when all its vertices
  // lie within `tol` of the seed's plane and each of its edges lies in that plane as a direction
  // (within COPLANAR_RELATIVE_3D, as a sine). The edge rule keeps the Gauss map the SAT's edge
  // query reads (an edge between the normals of its two faces) true: a sliver merged by distance
  // alone, its 1e-3-long edge 1e-4 off the plane, put that edge 0.09 rad out of its face's plane,
  // and an edge pair claimed a separation of 0.058 where the hulls were 0.036 apart (found by the
  // speculative-contact tests). It leaves out short edges only: a long sliver of noisy coplanar
  // points joins, whose normal (the noise over its tiny height) is anything.
  const region = new Int32Array(T).fill(-1);
  const order = Array.from({ length: T }, (_, t) => t).sort((a, b) => area[b]! - area[a]! || a - b);
  const regionNormal: P3[] = [];
  let regions = 0;
  const joins = (u: number, sn: P3, sd: number): boolean => {
    if (dot(tn[u]!, sn) <= 0) return false;
    const g = tris[u]!;
    for (let k = 0; k < 3; k++) {
      const p = cloud[g[k]!]!;
      const e = sub(cloud[g[(k + 1) % 3]!]!, p);
      if (Math.abs(dot(sn, p) - sd) > tol || Math.abs(dot(sn, e)) > COPLANAR_RELATIVE_3D * len(e)) return false;
    }
    return true;
  };
  for (const seed of order) {
    if (region[seed] !== -1) continue;
    const r = regions++;
    const sn = tn[seed]!;
    const sd = td[seed]!;
    region[seed] = r;
    const stack = [seed];
    while (stack.length > 0) {
      const f = tris[stack.pop()!]!;
      for (let i = 0; i < 3; i++) {
        const u = halfEdge.get(f[(i + 1) % 3]! * N + f[i]!);
        if (u === undefined || region[u] !== -1 || !joins(u, sn, sd)) continue;
        region[u] = r;
        stack.push(u);
      }
    }
    regionNormal.push(sn);
  }
  // Whether corner v between p and q (counter-clockwise around n) lies outside the chord p -> q,
  // or within `tol` of it.
  const convexAt = (p: number, v: number, q: number, n: P3): boolean => {
    const pq = sub(cloud[q]!, cloud[p]!);
    return dot(cross(pq, sub(cloud[v]!, cloud[p]!)), n) <= tol * len(pq);
  };
  // Boundary loop of each region (half-edges whose twin lies in another region), or null where it
  // is not one convex simple polygon.
  const regionLoops = (): (number[] | null)[] => {
    const loops: (number[] | null)[] = [];
    const next = new Map<number, number>();
    for (let r = 0; r < regions; r++) {
      next.clear();
      let start = -1;
      let simple = true;
      for (let t = 0; t < T; t++) {
        if (region[t] !== r) continue;
        const f = tris[t]!;
        for (let i = 0; i < 3; i++) {
          const a = f[i]!;
          const b = f[(i + 1) % 3]!;
          const twin = halfEdge.get(b * N + a);
          if (twin !== undefined && region[twin] === r) continue;
          if (next.has(a)) simple = false;
          next.set(a, b);
          if (start < 0 || a < start) start = a;
        }
      }
      const loop: number[] = [];
      for (let v = start; simple; ) {
        loop.push(v);
        const w = next.get(v);
        if (w === undefined || loop.length > next.size) simple = false;
        else if ((v = w) === start) break;
      }
      const n = loop.length;
      const convex = simple && n === next.size && loop.every((v, i) => convexAt(loop[(i + n - 1) % n]!, v, loop[(i + 1) % n]!, regionNormal[r]!));
      loops.push(convex ? loop : null);
    }
    return loops;
  };
  // Grows a region from `seed` (as above) one triangle at a time, tracking its boundary loop so
  // that every corner stays convex, and retrying the refused triangles after each pass (a later
  // one can fill the notch an earlier one would have made).
  function growConvex(seed: number): void {
    const r = regions++;
    const sn = tn[seed]!;
    const sd = td[seed]!;
    region[seed] = r;
    regionNormal.push(sn);
    const nextB = new Map<number, number>();
    const prevB = new Map<number, number>();
    const f0 = tris[seed]!;
    for (let i = 0; i < 3; i++) {
      nextB.set(f0[i]!, f0[(i + 1) % 3]!);
      prevB.set(f0[(i + 1) % 3]!, f0[i]!);
    }
    const link = (a: number, b: number): void => {
      nextB.set(a, b);
      prevB.set(b, a);
    };
    for (let grown = true; grown; ) {
      grown = false;
      for (const [a, b] of [...nextB]) {
        if (nextB.get(a) !== b) continue; // no longer a boundary edge after this pass's merges
        const u = halfEdge.get(b * N + a);
        if (u === undefined || region[u] !== -1 || !joins(u, sn, sd)) continue;
        // u = (b, a, x): the loop's a -> b becomes a -> x -> b, or loses b (u also holds b -> x)
        // or a (u also holds x -> a).
        const g = tris[u]!;
        const x = g[0]! + g[1]! + g[2]! - a - b;
        const pa = prevB.get(a)!;
        const nb = nextB.get(b)!;
        if (nb === x && pa === x) continue;
        if (nb === x) {
          if (!convexAt(pa, a, x, sn) || !convexAt(a, x, nextB.get(x)!, sn)) continue;
          nextB.delete(b);
          prevB.delete(b);
          link(a, x);
        } else if (pa === x) {
          if (!convexAt(prevB.get(x)!, x, b, sn) || !convexAt(x, b, nb, sn)) continue;
          nextB.delete(a);
          prevB.delete(a);
          link(x, b);
        } else {
          // x elsewhere on the loop would pinch the region into a non-simple polygon.
          if (nextB.has(x) || !convexAt(pa, a, x, sn) || !convexAt(a, x, b, sn) || !convexAt(x, b, nb, sn)) continue;
          link(a, x);
          link(x, b);
        }
        region[u] = r;
        grown = true;
      }
    }
  }

  // A region that grew around triangles it could not take (a bump of points off the plane by more
  // than `tol`) is not convex: a reflex corner's side plane would cut the face in clipping (old
  // builds had notches up to 0.48 of the size deep on such clouds). Its triangles grow again,
  // each step keeping the region's loop convex; they make more, smaller faces.
  let faceLoops = regionLoops();
  const redo = new Set(faceLoops.flatMap((l, r) => (l === null ? [r] : [])));
  if (redo.size > 0) {
    for (let t = 0; t < T; t++) if (redo.has(region[t]!)) region[t] = -1;
    for (const seed of order) if (region[seed] === -1) growConvex(seed);
    // Renumber the regions without the emptied ones.
    const id = new Int32Array(regions).fill(-1);
    for (let t = 0; t < T; t++) id[region[t]!] = 0;
    let kept = 0;
    for (let r = 0; r < regions; r++) {
      if (id[r] === -1) continue;
      regionNormal[kept] = regionNormal[r]!;
      id[r] = kept++;
    }
    for (let t = 0; t < T; t++) region[t] = id[region[t]!]!;
    regions = kept;
    regionNormal.length = kept;
    faceLoops = regionLoops();
  }
  const loops = faceLoops.map((l) => {
    if (l === null) throw new InputError(path, 'hull building failed: a merged face is not a convex simple polygon (nearly coplanar points); perturb or remove them');
    return l;
  });

  // Drop vertices that lie on a straight edge in every face that holds them (a point in the middle
  // of an edge); a vertex that is a corner in any face stays, which keeps the half-edges paired.
  const isCorner = new Map<number, boolean>();
  const collinearAt = (loop: number[], i: number): boolean => {
    const a = cloud[loop[(i + loop.length - 1) % loop.length]!]!;
    const b = cloud[loop[i]!]!;
    const c = cloud[loop[(i + 1) % loop.length]!]!;
    const ab = sub(b, a);
    const bc = sub(c, b);
    // Distance of b from the line a-c.
    const ac = sub(c, a);
    return len(cross(ab, ac)) / len(ac) <= tol && dot(ab, bc) > 0;
  };
  for (const loop of loops) {
    for (let i = 0; i < loop.length; i++) {
      const v = loop[i]!;
      if (!collinearAt(loop, i)) isCorner.set(v, true);
      else if (!isCorner.has(v)) isCorner.set(v, false);
    }
  }
  const faces = loops.map((loop) => loop.filter((v) => isCorner.get(v) === true));

  // Vertex numbering: used vertices in input order.
  const used = Array.from(new Set(faces.flat())).sort((a, b) => a - b);
  const V = used.length;
  const F = faces.length;
  if (V > MAX_HULL_VERTICES) {
    throw new InputError(path, `hull has ${V} vertices; at most ${MAX_HULL_VERTICES} are supported (simplify the point cloud)`);
  }
  if (F > MAX_HULL_FACES) {
    throw new InputError(path, `hull has ${F} faces; at most ${MAX_HULL_FACES} are supported (simplify the point cloud)`);
  }
  const remap = new Map<number, number>();
  used.forEach((v, i) => remap.set(v, i));
  let mx = 0;
  let my = 0;
  let mz = 0;
  for (const v of used) {
    mx += cloud[v]![0] / V;
    my += cloud[v]![1] / V;
    mz += cloud[v]![2] / V;
  }
  const vertices = new Float64Array(3 * V);
  let extent = 0;
  used.forEach((v, i) => {
    const p = cloud[v]!;
    vertices[3 * i] = p[0] - mx;
    vertices[3 * i + 1] = p[1] - my;
    vertices[3 * i + 2] = p[2] - mz;
    extent = Math.max(extent, Math.hypot(p[0] - mx, p[1] - my, p[2] - mz));
  });
  const vert = (i: number): P3 => [vertices[3 * i]!, vertices[3 * i + 1]!, vertices[3 * i + 2]!];

  const planes = new Float64Array(4 * F);
  const faceFirst = new Uint16Array(F);
  const faceSize = new Uint8Array(F);
  let total = 0;
  for (let f = 0; f < F; f++) {
    const loop = faces[f]!.map((v) => remap.get(v)!);
    faces[f] = loop;
    if (loop.length > MAX_FACE_VERTICES) {
      throw new InputError(path, `hull face ${f} has ${loop.length} vertices; at most ${MAX_FACE_VERTICES} are supported`);
    }
    if (loop.length < 3) throw new InputError(path, `hull face ${f} degenerated to ${loop.length} vertices (nearly coplanar points)`);
    // Newell normal of the loop; offset = the largest n · v over the face, so the plane supports it.
    let nx = 0;
    let ny = 0;
    let nz = 0;
    for (let i = 0; i < loop.length; i++) {
      const a = vert(loop[i]!);
      const b = vert(loop[(i + 1) % loop.length]!);
      nx += (a[1] - b[1]) * (a[2] + b[2]);
      ny += (a[2] - b[2]) * (a[0] + b[0]);
      nz += (a[0] - b[0]) * (a[1] + b[1]);
    }
    const l = Math.hypot(nx, ny, nz);
    nx /= l;
    ny /= l;
    nz /= l;
    if (nx * regionNormal[f]![0] + ny * regionNormal[f]![1] + nz * regionNormal[f]![2] <= 0) {
      throw new InputError(path, `hull face ${f} is wound inward (nearly coplanar points)`);
    }
    // Where an edge of the loop leaves that plane by more than twice the merge angle (points off a
    // plane by nearly `tol`), the seed triangle's normal instead: the merge rule holds every edge
    // of the region within COPLANAR_RELATIVE_3D of it, and the Gauss map needs the edges in the plane.
    const tilted = loop.some((v, i) => {
      const e = sub(vert(loop[(i + 1) % loop.length]!), vert(v));
      return Math.abs(nx * e[0] + ny * e[1] + nz * e[2]) > 2 * COPLANAR_RELATIVE_3D * len(e);
    });
    if (tilted) [nx, ny, nz] = regionNormal[f]!;
    let d = -Infinity;
    for (let i = 0; i < V; i++) d = Math.max(d, nx * vertices[3 * i]! + ny * vertices[3 * i + 1]! + nz * vertices[3 * i + 2]!);
    planes[4 * f] = nx;
    planes[4 * f + 1] = ny;
    planes[4 * f + 2] = nz;
    planes[4 * f + 3] = d;
    faceFirst[f] = total;
    faceSize[f] = loop.length;
    total += loop.length;
  }

  // Unique edges from paired half-edges.
  const faceVertices = new Uint8Array(total);
  const faceEdges = new Uint8Array(total);
  const edgeOf = new Map<number, number>();
  const e0: number[] = [];
  const e1: number[] = [];
  const ef0: number[] = [];
  const ef1: number[] = [];
  for (let f = 0; f < F; f++) {
    const loop = faces[f]!;
    for (let i = 0; i < loop.length; i++) {
      const a = loop[i]!;
      const b = loop[(i + 1) % loop.length]!;
      faceVertices[faceFirst[f]! + i] = a;
      const twin = edgeOf.get(b * 256 + a);
      if (twin !== undefined) {
        if (ef1[twin] !== -1) throw new InputError(path, 'hull building failed: an edge is shared by more than two faces');
        ef1[twin] = f;
        faceEdges[faceFirst[f]! + i] = twin;
      } else {
        if (edgeOf.has(a * 256 + b)) throw new InputError(path, 'hull building failed: a half-edge appears twice');
        const e = e0.length;
        edgeOf.set(a * 256 + b, e);
        e0.push(a);
        e1.push(b);
        ef0.push(f);
        ef1.push(-1);
        faceEdges[faceFirst[f]! + i] = e;
      }
    }
  }
  const E = e0.length;
  if (ef1.some((f) => f < 0)) throw new InputError(path, 'hull building failed: the faces do not close (nearly coplanar points)');
  if (E > MAX_HULL_EDGES || V - E + F !== 2) {
    throw new InputError(path, `hull building failed: ${V} vertices, ${E} edges, ${F} faces is not a closed polyhedron`);
  }
  return {
    center: [cx + mx, cy + my, cz + mz],
    extent,
    vertexCount: V,
    faceCount: F,
    edgeCount: E,
    vertices,
    planes,
    faceFirst,
    faceSize,
    faceVertices,
    faceEdges,
    edgeV0: Uint8Array.from(e0),
    edgeV1: Uint8Array.from(e1),
    edgeF0: Uint8Array.from(ef0),
    edgeF1: Uint8Array.from(ef1),
  };
}
