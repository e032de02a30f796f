// The 3D collide functions (mirror of shaders/collide3d.wgsl, function for function, same names).
//
// Method (Gregorius's SAT for hulls; clipping as in "Contact manifold for 3D collisions", Bullet's
// btPolyhedralContactClipping and the Newcastle physics tutorial "Collision Manifolds"):
//   hull–hull (boxes are hulls): SAT over A's face normals, B's face normals and the cross
//     products of edge pairs whose Gauss-map arcs cross (src/cpu/sat3d.ts). A face axis wins over
//     an edge axis unless the edge is better by EDGE_HYSTERESIS_3D, A's face over B's unless B's
//     is better by FACE_HYSTERESIS_3D. Face contact (src/cpu/clip3d.ts): incident face = most
//     anti-parallel face of the other hull, Sutherland–Hodgman clip against the reference face's
//     side planes, keep points below the reference plane + margin, reduce to 4
//     (src/cpu/reduce3d.ts). Edge contact: one point from the closest points of the two edges.
//     Hulls apart: their closest points by GJK (src/cpu/gjk3d.ts), the contact when no SAT
//     feature pair holds them, and the fallback of a face or edge contact that finds nothing.
//   hull–sphere / hull–capsule and sphere/capsule pairs: src/cpu/round3d.ts.
//
// Frames: every pair is solved in the shape frame of its first (most complex) shape, whose origin
// is the shape's centre (src/cpu/manifold3d.ts), so the numbers stay small and f32 keeps its
// digits on the GPU. Nothing is allocated per pair: collide3D owns the local manifold, the
// working frame and the queries, and passes them down.

import {
  CONTACT_KIND_3D,
  CORE_DISTANCE_3D,
  EDGE_HYSTERESIS_3D,
  FACE_HYSTERESIS_3D,
  SHAPE_KIND_3D,
} from '../constants3d.ts';
import type { Shape3D } from '../shapes3d.ts';
import {
  clipFaceContact3D,
  deepestVertex3D,
  faceAroundVertex3D,
  incidentFace3D,
  planeW3D,
  vertexContact3D,
} from './clip3d.ts';
import { closestSegments3D, emptySegmentClosest3D } from './distance3d.ts';
import { closestContact3D, closestHulls3D, emptyHullClosest3D } from './gjk3d.ts';
import {
  edgeFeature3D,
  emptyHull3D,
  emptyHullEdge3D,
  emptyLocalManifold3D,
  emptyWorkingFrame3D,
  hullEdge,
  hullVertexW,
  makeId3D,
  manifoldToWorld3D,
  minSeparation3D,
  pushPoint3D,
  relativePose3D,
  resetLocalManifold3D,
  setJoinNormal3D,
  setNormal3D,
  type Hull3D,
  type LocalManifold3D,
  type Manifold3D,
  type Transform3D,
} from './manifold3d.ts';
import { collideHullRound3D, collideRounds3D } from './round3d.ts';
import {
  emptyEdgeQuery3D,
  emptyFaceQuery3D,
  queryBoxEdges3D,
  queryEdgeDirections3D,
  queryFaceDirections3D,
  type EdgeQuery3D,
  type FaceQuery3D,
} from './sat3d.ts';
import { vec3, type Vec3 } from './vec3.ts';

export { CONTACT_KIND_3D };
export {
  emptyManifold3D,
  manifoldToJson3D,
  type Manifold3D,
  type ManifoldJson3D,
  type Transform3D,
} from './manifold3d.ts';

/** What edgeContact3D did (WGSL: the same constants). */
export const EDGE_FAILED = 0;
export const EDGE_MADE = 1;
/** Hulls apart whose edges' closest points lie off the edges: the hulls' closest points make the contact. */
export const EDGE_NEEDS_CLOSEST = 2;

const seg = emptySegmentClosest3D();
const edgeA = emptyHullEdge3D();
const edgeB = emptyHullEdge3D();
const a0 = vec3.create();
const a1 = vec3.create();
const b0 = vec3.create();
const b1 = vec3.create();
const join = vec3.create();
const mid = vec3.create();

/**
 * Edge contact from the edge query's best pair: one point midway between the closest points of
 * the two edges, with the SAT separation (EDGE_MADE). When those closest points lie off either
 * edge: for hulls apart along the axis, EDGE_NEEDS_CLOSEST; for clamped points that touch, those
 * (see below); else EDGE_FAILED.
 */
export function edgeContact3D(
  A: Hull3D,
  B: Hull3D,
  query: EdgeQuery3D,
  scale: number,
  lm: LocalManifold3D,
): number {
  const ea = query.edgeA;
  const eb = query.edgeB;
  if (ea < 0) return EDGE_FAILED;
  hullEdge(A, ea, edgeA);
  hullEdge(B, eb, edgeB);
  const c = closestSegments3D(
    hullVertexW(A, edgeA.v0, a0),
    hullVertexW(A, edgeA.v1, a1),
    hullVertexW(B, edgeB.v0, b0),
    hullVertexW(B, edgeB.v1, b1),
    seg,
  );
  if (!(c.s > 0 && c.s < 1 && c.t > 0 && c.t < 1)) {
    // Clamped parameters: the lines' closest points lie off the edges. Hulls apart along the axis:
    // the SAT's edge pair need not hold the closest features (two corners), so the speculative
    // contact is the hulls' closest points. Overlapping hulls: no edge contact (a rounding at a
    // Gauss-map arc end), unless the clamped points touch (an end of each edge on the other,
    // e.g. vertex on vertex): then they are the contact, along the SAT axis, and a face axis would
    // be far worse.
    if (query.separation > 0) return EDGE_NEEDS_CLOSEST;
    const d = vec3.sub(c.c2, c.c1, join);
    const dist = vec3.length(d);
    if (!(dist <= CORE_DISTANCE_3D * scale)) return EDGE_FAILED;
    lm.kind = CONTACT_KIND_3D.closest;
    setJoinNormal3D(lm, d, dist, query.axis, scale);
  } else {
    lm.kind = CONTACT_KIND_3D.edge;
    setNormal3D(lm, query.axis);
  }
  // Within both edges the features are the edges themselves (one push for both contacts).
  pushPoint3D(
    lm,
    vec3.midpoint(c.c1, c.c2, mid),
    query.separation,
    makeId3D(edgeFeature3D(A.shape, ea, c.s), edgeFeature3D(B.shape, eb, c.t)),
  );
  return EDGE_MADE;
}

/** The SAT of two hulls (shaders/collide3d.wgsl's HullSat3D): its three queries. */
export interface HullSat3D {
  queryA: FaceQuery3D;
  queryB: FaceQuery3D;
  queryE: EdgeQuery3D;
}

const hullSat: HullSat3D = {
  queryA: emptyFaceQuery3D(),
  queryB: emptyFaceQuery3D(),
  queryE: emptyEdgeQuery3D(),
};
const refPlane = new Float64Array(4);

/**
 * The SAT of two hulls into `out`: the best face axis of A against B, of B against A, and the
 * best edge pair above the face axes less the hysteresis. Returns whether one of them parts the
 * hulls by more than the margin (the later queries are then not run).
 */
export function satHulls3D(
  A: Hull3D,
  B: Hull3D,
  margin: number,
  scale: number,
  out: HullSat3D,
): boolean {
  const sepA = queryFaceDirections3D(A, B, margin, scale, out.queryA).separation;
  if (sepA > margin) return true;
  const sepB = queryFaceDirections3D(B, A, margin, scale, out.queryB).separation;
  if (sepB > margin) return true;
  // Edge axes matter only above the best face axis less the hysteresis: the query skips the rest.
  if (A.shape.kind === SHAPE_KIND_3D.box && B.shape.kind === SHAPE_KIND_3D.box)
    queryBoxEdges3D(A, B, margin, out.queryE);
  else
    queryEdgeDirections3D(
      A,
      B,
      margin,
      Math.max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale,
      scale,
      out.queryE,
    );
  return out.queryE.separation > margin;
}

/** Hull–hull (boxes included), A the working frame's own hull: the SAT, then the contact. */
export function collideHulls3D(
  A: Hull3D,
  B: Hull3D,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): void {
  if (!satHulls3D(A, B, margin, scale, hullSat)) contactHulls3D(A, B, hullSat, margin, scale, lm);
}

/** The contact of two hulls the SAT found within the margin. Writes the local manifold. */
export function contactHulls3D(
  A: Hull3D,
  B: Hull3D,
  sat: HullSat3D,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): void {
  const { queryA, queryB, queryE } = sat;
  const sepA = queryA.separation;
  const sepB = queryB.separation;
  const sepE = queryE.separation;
  const sep = Math.max(sepA, sepB, sepE);
  const edgeFirst = sepE > Math.max(sepA, sepB) + EDGE_HYSTERESIS_3D * scale;
  let edge = edgeFirst ? edgeContact3D(A, B, queryE, scale, lm) : EDGE_FAILED;
  // Whether the hulls' closest points may make the contact instead (hulls apart only).
  let closest = edge === EDGE_NEEDS_CLOSEST;
  if (edge !== EDGE_MADE && !closest) {
    const flip = sepB > sepA + FACE_HYSTERESIS_3D * scale;
    // Reference hull R and incident hull I.
    const R = flip ? B : A;
    const I = flip ? A : B;
    const refFace = flip ? queryB.face : queryA.face;
    // The reference normal in the working frame.
    const n = planeW3D(R, refFace, refPlane);
    const inc = incidentFace3D(I, n);
    let count = clipFaceContact3D(R, refFace, I, inc, !flip, margin, scale, lm);
    // Nothing of that face lies over the reference face. An edge axis within the hysteresis of
    // the face axis is the contact then; else retry with a face at the deepest vertex, then take
    // that vertex alone (keeps the SAT normal and depth), or for hulls apart their closest points.
    if (count === 0 && !edgeFirst && sepE > Math.max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale) {
      edge = edgeContact3D(A, B, queryE, scale, lm);
      closest = edge === EDGE_NEEDS_CLOSEST;
    }
    if (count === 0 && edge !== EDGE_MADE && !closest) {
      const deepest = deepestVertex3D(I, n);
      const inc2 = faceAroundVertex3D(I, deepest, n);
      if (inc2 !== inc) count = clipFaceContact3D(R, refFace, I, inc2, !flip, margin, scale, lm);
      if (count === 0) closest = vertexContact3D(R, refFace, I, deepest, !flip, margin, lm);
    }
    // Hulls apart whose face contact lies farther than the SAT's separation (by more than the
    // hysteresis) everywhere: no incident point over the face is a closest point, so the closest
    // features may be others.
    if (count > 0 && sep > 0 && minSeparation3D(lm) > sep + EDGE_HYSTERESIS_3D * scale)
      closest = true;
  }
  if (closest)
    closestPointsContact3D(
      A,
      B,
      closestAxis3D(A, B, queryA, queryB, queryE),
      sep,
      margin,
      scale,
      lm,
    );
}

const closestPoints = emptyHullClosest3D();
const axis = vec3.create();
const axisPlane = new Float64Array(4);

/** The SAT's best axis (A to B), which names the features if the hulls' closest points touch. */
function closestAxis3D(
  A: Hull3D,
  B: Hull3D,
  qA: FaceQuery3D,
  qB: FaceQuery3D,
  qE: EdgeQuery3D,
): Vec3 {
  if (qE.separation >= Math.max(qA.separation, qB.separation)) return vec3.copy(qE.axis, axis);
  const alongA = qA.separation >= qB.separation;
  return vec3.scale(
    planeW3D(alongA ? A : B, alongA ? qA.face : qB.face, axisPlane),
    alongA ? 1 : -1,
    axis,
  );
}

/**
 * Hulls apart whose SAT features need not hold their closest points: those (GJK). Farther apart
 * than the margin, no contact. The contact is those points alone, replacing what the local
 * manifold holds, when no face or edge pair of the SAT holds them (the distance exceeds the SAT's
 * best separation `sep` by more than the edge hysteresis: two corners, a vertex beside an edge),
 * or when the face contact's nearest point lies farther than the distance by more than the
 * hysteresis (the closest points lie beyond the reference face's sides: a speculative contact
 * there would let the hulls close the gap unseen). Else the SAT's contact stays. The result does
 * not depend on which path asked: where the SAT's features hold the closest points, the distance
 * is the SAT's separation. Returns whether the local manifold changed (the GPU's closest pass
 * rewrites a slot only then).
 */
function closestPointsContact3D(
  A: Hull3D,
  B: Hull3D,
  axis: Vec3,
  sep: number,
  margin: number,
  scale: number,
  lm: LocalManifold3D,
): boolean {
  const c = closestHulls3D(A, B, axis, scale, closestPoints);
  if (c.distance > margin) {
    resetLocalManifold3D(lm);
    return true;
  }
  const hysteresis = EDGE_HYSTERESIS_3D * scale;
  if (
    lm.count === 0 ||
    c.distance > sep + hysteresis ||
    minSeparation3D(lm) > c.distance + hysteresis
  ) {
    resetLocalManifold3D(lm);
    closestContact3D(c, axis, scale, lm);
    return true;
  }
  return false;
}

export function isHull3D(s: Shape3D): boolean {
  return s.kind === SHAPE_KIND_3D.hull || s.kind === SHAPE_KIND_3D.box;
}

/**
 * The two shapes of a pair in the working frame: X, the more complex (solved first, in its frame,
 * at identity), and Y at its pose relative to X; whether that exchanged A and B; the pair's size
 * for tolerances. WGSL: `struct PlacedPair3D`.
 */
interface PlacedPair3D {
  X: Hull3D;
  Y: Hull3D;
  swap: boolean;
  scale: number;
}

const placed: PlacedPair3D = {
  X: emptyHull3D(null as unknown as Shape3D),
  Y: emptyHull3D(null as unknown as Shape3D),
  swap: false,
  scale: 0,
};
const frame = emptyWorkingFrame3D();
const local = emptyLocalManifold3D();

/** Places shape A at xfA and shape B at xfB in the working frame (`frame`): fills `placed`. */
function placePair3D(
  shapeA: Shape3D,
  xfA: Transform3D,
  shapeB: Shape3D,
  xfB: Transform3D,
): PlacedPair3D {
  // Hull–round is always hull first.
  const swap = !isHull3D(shapeA) && isHull3D(shapeB);
  const X = swap ? shapeB : shapeA;
  const Y = swap ? shapeA : shapeB;
  placed.X.shape = X;
  placed.Y.shape = Y;
  relativePose3D(X, swap ? xfB : xfA, Y, swap ? xfA : xfB, frame, placed.Y);
  placed.swap = swap;
  placed.scale = Math.min(X.extent, Y.extent);
  return placed;
}

/**
 * Contact manifold of shape A at xfA and shape B at xfB, within `margin` (speculative distance,
 * scene units). Writes `out` (world space; count 0 when farther apart than the margin) and
 * returns out.count. Allocation-free.
 */
export function collide3D(
  shapeA: Shape3D,
  xfA: Transform3D,
  shapeB: Shape3D,
  xfB: Transform3D,
  margin: number,
  out: Manifold3D,
): number {
  const p = placePair3D(shapeA, xfA, shapeB, xfB);
  resetLocalManifold3D(local);
  if (isHull3D(p.X.shape)) {
    if (isHull3D(p.Y.shape)) collideHulls3D(p.X, p.Y, margin, p.scale, local);
    else collideHullRound3D(p.X, p.Y, margin, p.scale, local);
  } else {
    collideRounds3D(p.X, p.Y, margin, p.scale, local);
  }
  return manifoldToWorld3D(local, frame, out, p.swap);
}
