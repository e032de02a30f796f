// The 3D collide functions (mirror of shaders/collide3d.wgsl, function for function, same names).
//
// Method (issue #3, seeds 002–004):
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
// digits on the GPU. Nothing is allocated per pair.

import { CONTACT_KIND_3D, CORE_DISTANCE_3D, EDGE_HYSTERESIS_3D, FACE_HYSTERESIS_3D, FEATURE_EDGE_3D, SHAPE_KIND_3D } from '../constants3d.ts';
import type { Shape3D } from '../shapes3d.ts';
import { clipFaceContact3d, incidentFace3d, planeW, planeW3d, vertexContact3d } from './clip3d.ts';
import { closestSegments3d, cp } from './distance3d.ts';
import { closestContact3d, closestHulls3d, hc } from './gjk3d.ts';
import {
  emptyHull3D,
  lm,
  edgeFeature3d,
  makeId3d,
  manifoldToWorld3d,
  minSeparation3d,
  pushPoint3d,
  relativePose3d,
  resetLocalManifold3d,
  setJoinNormal3d,
  setNormal3d,
  type Hull3D,
  type Manifold3D,
  type Transform3D,
} from './manifold3d.ts';
import { qe, qf, queryBoxEdges3d, queryEdgeDirections3d, queryFaceDirections3d } from './sat3d.ts';
import { collideHullRound3d, collideRounds3d } from './round3d.ts';

export { CONTACT_KIND_3D };
export { emptyManifold3D, manifold3DToJson, type Manifold3D, type Manifold3DJson, type Transform3D } from './manifold3d.ts';

/** The pair's two shapes in the working frame: X (identity transform) and Y (relative pose). */
const hullX = emptyHull3D(null as unknown as Shape3D);
const hullY = emptyHull3D(null as unknown as Shape3D);

/** What edgeContact3d did (WGSL: the same constants). */
export const EDGE_FAILED = 0;
export const EDGE_MADE = 1;
/** Hulls apart whose edges' closest points lie off the edges: the hulls' closest points make the contact. */
export const EDGE_NEEDS_CLOSEST = 2;

/**
 * Edge contact from the edge query's best pair (qe): one point midway between the closest points
 * of the two edges, with the SAT separation (EDGE_MADE). When those closest points lie off either
 * edge: for hulls apart along the axis, EDGE_NEEDS_CLOSEST; for clamped points that touch, those
 * (see below); else EDGE_FAILED.
 */
export function edgeContact3d(A: Hull3D, B: Hull3D, scale: number): number {
  const ea = qe[1]!;
  const eb = qe[2]!;
  if (ea < 0) return EDGE_FAILED;
  const sa = A.shape;
  const sb = B.shape;
  const av = sa.vertices;
  const bv = sb.vertices;
  const ar = A.rot, at = A.pos, br = B.rot, bt = B.pos;
  const a0 = 3 * sa.edgeV0[ea]!, a1 = 3 * sa.edgeV1[ea]!;
  const b0 = 3 * sb.edgeV0[eb]!, b1 = 3 * sb.edgeV1[eb]!;
  closestSegments3d(
    ar[0]! * av[a0]! + ar[1]! * av[a0 + 1]! + ar[2]! * av[a0 + 2]! + at[0]!,
    ar[3]! * av[a0]! + ar[4]! * av[a0 + 1]! + ar[5]! * av[a0 + 2]! + at[1]!,
    ar[6]! * av[a0]! + ar[7]! * av[a0 + 1]! + ar[8]! * av[a0 + 2]! + at[2]!,
    ar[0]! * av[a1]! + ar[1]! * av[a1 + 1]! + ar[2]! * av[a1 + 2]! + at[0]!,
    ar[3]! * av[a1]! + ar[4]! * av[a1 + 1]! + ar[5]! * av[a1 + 2]! + at[1]!,
    ar[6]! * av[a1]! + ar[7]! * av[a1 + 1]! + ar[8]! * av[a1 + 2]! + at[2]!,
    br[0]! * bv[b0]! + br[1]! * bv[b0 + 1]! + br[2]! * bv[b0 + 2]! + bt[0]!,
    br[3]! * bv[b0]! + br[4]! * bv[b0 + 1]! + br[5]! * bv[b0 + 2]! + bt[1]!,
    br[6]! * bv[b0]! + br[7]! * bv[b0 + 1]! + br[8]! * bv[b0 + 2]! + bt[2]!,
    br[0]! * bv[b1]! + br[1]! * bv[b1 + 1]! + br[2]! * bv[b1 + 2]! + bt[0]!,
    br[3]! * bv[b1]! + br[4]! * bv[b1 + 1]! + br[5]! * bv[b1 + 2]! + bt[1]!,
    br[6]! * bv[b1]! + br[7]! * bv[b1 + 1]! + br[8]! * bv[b1 + 2]! + bt[2]!,
  );
  const s = cp[0]!;
  const t = cp[1]!;
  if (!(s > 0 && s < 1 && t > 0 && t < 1)) {
    // Clamped parameters: the lines' closest points lie off the edges. Hulls apart along the axis:
    // the SAT's edge pair need not hold the closest features (two corners), so the speculative
    // contact is the hulls' closest points. Overlapping hulls: no edge contact (a rounding at a
    // Gauss-map arc end), unless the clamped points touch (an end of each edge on the other,
    // e.g. vertex on vertex): then they are the contact, along the SAT axis, and a face axis would
    // be far worse.
    if (qe[0]! > 0) return EDGE_NEEDS_CLOSEST;
    const dx = cp[5]! - cp[2]!, dy = cp[6]! - cp[3]!, dz = cp[7]! - cp[4]!;
    const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (!(dist <= CORE_DISTANCE_3D * scale)) return EDGE_FAILED;
    lm.kind = CONTACT_KIND_3D.closest;
    setJoinNormal3d(dx, dy, dz, dist, qe[3]!, qe[4]!, qe[5]!, scale);
    pushPoint3d(0.5 * (cp[2]! + cp[5]!), 0.5 * (cp[3]! + cp[6]!), 0.5 * (cp[4]! + cp[7]!), qe[0]!, makeId3d(edgeFeature3d(sa, ea, s), edgeFeature3d(sb, eb, t)));
    return EDGE_MADE;
  }
  lm.kind = CONTACT_KIND_3D.edge;
  setNormal3d(qe[3]!, qe[4]!, qe[5]!);
  pushPoint3d(0.5 * (cp[2]! + cp[5]!), 0.5 * (cp[3]! + cp[6]!), 0.5 * (cp[4]! + cp[7]!), qe[0]!, makeId3d(FEATURE_EDGE_3D + ea, FEATURE_EDGE_3D + eb));
  return EDGE_MADE;
}

/** Hull–hull (boxes included), A the working frame's own hull. Writes the local manifold. */
export function collideHulls3d(A: Hull3D, B: Hull3D, margin: number, scale: number): void {
  queryFaceDirections3d(A, B, margin, scale);
  const sepA = qf[0]!;
  const faceA = qf[1]!;
  if (sepA > margin) return;
  queryFaceDirections3d(B, A, margin, scale);
  const sepB = qf[0]!;
  const faceB = qf[1]!;
  if (sepB > margin) return;
  // Edge axes matter only above the best face axis less the hysteresis: the query skips the rest.
  if (A.shape.kind === SHAPE_KIND_3D.box && B.shape.kind === SHAPE_KIND_3D.box) queryBoxEdges3d(A, B, margin);
  else queryEdgeDirections3d(A, B, margin, Math.max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale, scale);
  const sepE = qe[0]!;
  if (sepE > margin) return;
  const sep = Math.max(sepA, sepB, sepE);
  const edgeFirst = sepE > Math.max(sepA, sepB) + EDGE_HYSTERESIS_3D * scale;
  let edge = edgeFirst ? edgeContact3d(A, B, scale) : EDGE_FAILED;
  // Whether the hulls' closest points may make the contact instead (hulls apart only).
  let closest = edge === EDGE_NEEDS_CLOSEST;
  if (edge !== EDGE_MADE && !closest) {
    const flip = sepB > sepA + FACE_HYSTERESIS_3D * scale;
    // Reference hull R and incident hull I.
    const R = flip ? B : A;
    const I = flip ? A : B;
    const refFace = flip ? faceB : faceA;
    // The reference normal in the working frame.
    planeW3d(R, refFace);
    const nx = planeW[0]!, ny = planeW[1]!, nz = planeW[2]!;
    const inc = incidentFace3d(I, nx, ny, nz, false);
    let count = clipFaceContact3d(R, refFace, I, inc, !flip, margin, scale);
    // Nothing of that face lies over the reference face. An edge axis within the hysteresis of
    // the face axis is the contact then; else retry with a face at the deepest vertex, then take
    // that vertex alone (keeps the SAT normal and depth), or for hulls apart their closest points.
    if (count === 0 && !edgeFirst && sepE > Math.max(sepA, sepB) - EDGE_HYSTERESIS_3D * scale) {
      edge = edgeContact3d(A, B, scale);
      closest = edge === EDGE_NEEDS_CLOSEST;
    }
    if (count === 0 && edge !== EDGE_MADE && !closest) {
      const inc2 = incidentFace3d(I, nx, ny, nz, true);
      if (inc2 !== inc) count = clipFaceContact3d(R, refFace, I, inc2, !flip, margin, scale);
      if (count === 0) closest = vertexContact3d(R, refFace, I, !flip, margin);
    }
    // Hulls apart whose face contact lies farther than the SAT's separation (by more than the
    // hysteresis) everywhere: no incident point over the face is a closest point, so the closest
    // features may be others.
    if (count > 0 && sep > 0 && minSeparation3d() > sep + EDGE_HYSTERESIS_3D * scale) closest = true;
  }
  if (closest) closestPointsContact3d(A, B, sep, sepA, sepB, faceA, faceB, margin, scale);
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
 * is the SAT's separation.
 */
function closestPointsContact3d(A: Hull3D, B: Hull3D, sep: number, sepA: number, sepB: number, faceA: number, faceB: number, margin: number, scale: number): void {
  // The SAT's best axis (A to B), which names the features if the closest points touch.
  let ax = qe[3]!, ay = qe[4]!, az = qe[5]!;
  if (qe[0]! < Math.max(sepA, sepB)) {
    const alongA = sepA >= sepB;
    planeW3d(alongA ? A : B, alongA ? faceA : faceB);
    const sign = alongA ? 1 : -1;
    ax = sign * planeW[0]!;
    ay = sign * planeW[1]!;
    az = sign * planeW[2]!;
  }
  closestHulls3d(A, B, ax, ay, az, scale);
  if (hc.distance > margin) {
    resetLocalManifold3d();
    return;
  }
  const hysteresis = EDGE_HYSTERESIS_3D * scale;
  if (lm.count === 0 || hc.distance > sep + hysteresis || minSeparation3d() > hc.distance + hysteresis) {
    resetLocalManifold3d();
    closestContact3d(ax, ay, az, scale);
  }
}

export function isHull3d(s: Shape3D): boolean {
  return s.kind === SHAPE_KIND_3D.hull || s.kind === SHAPE_KIND_3D.box;
}

/**
 * Contact manifold of shape A at xfA and shape B at xfB, within `margin` (speculative distance,
 * scene units). Writes `out` (world space; count 0 when farther apart than the margin) and
 * returns out.count. Allocation-free.
 */
export function collide3D(
  shapeA: Shape3D, xfA: Transform3D, shapeB: Shape3D, xfB: Transform3D, margin: number, out: Manifold3D,
): number {
  // The more complex shape is solved first (in its frame); hull–round is always hull first.
  const swap = !isHull3d(shapeA) && isHull3d(shapeB);
  const X = swap ? shapeB : shapeA;
  const Y = swap ? shapeA : shapeB;
  hullX.shape = X;
  hullY.shape = Y;
  relativePose3d(X, swap ? xfB : xfA, Y, swap ? xfA : xfB, hullY);
  const scale = Math.min(X.extent, Y.extent);
  resetLocalManifold3d();
  if (isHull3d(X)) {
    if (isHull3d(Y)) collideHulls3d(hullX, hullY, margin, scale);
    else collideHullRound3d(hullX, hullY, margin, scale);
  } else {
    collideRounds3d(hullX, hullY, margin, scale);
  }
  return manifoldToWorld3d(out, swap);
}
