// An independent validity check of a 2D contact manifold, in f64, from the scene JSON.
//
// It shares no code with src/cpu (nor src/shapes2d): the shapes are rebuilt from their JSON
// description (the core vertices as `localCore` reads them), moved to world space with the body's angle and position, and every test is plain
// geometry on rounded convex polygons (a core polygon with 1..8 vertices inflated by a radius).
// The only things taken from src are the manifold's buffer layout (LAYOUT_2D) and the documented
// design tolerances of src/constants.ts (axis hysteresis, core-separation threshold), which bound
// how far from the optimum a correct manifold may legitimately be.
//
// Conventions checked (README / src/cpu/manifold2d.ts): the normal is unit and points from A to
// B; depth > 0 is penetration, depth in [-margin, 0) a speculative contact; a point's position is
// midway between the surfaces: the point on A is position + depth/2·n, on B position − depth/2·n.
//
// What "valid" means, for a manifold m of shapes A and B (tolerance tol = 1e-4 × pair scale, the
// pair scale being the larger extent, plus the f32 resolution of the stored world coordinates,
// see WORLD_ULPS):
//   - count is 0..2; count > 0 when the shapes overlap by more than tol, and also when they are
//     apart by less than the margin (less a slack, see below: the speculative contact); count = 0
//     when they are apart by more than margin + tol;
//   - the normal is unit (|1 − |n|| ≤ 1e-5);
//   - per point: the core point of A, cA = (point on A) − rA·n, lies on A's core boundary, and
//     cB = (point on B) + rB·n on B's core boundary (within tol). For an unrounded shape this is
//     exactly "the point lies on the surface". For a rounded shape the point on the surface side
//     that supplies the normal (the reference face, or both vertices of a vertex–vertex contact)
//     must lie on the rounded surface; the other side's point is cX ∓ rX·n, on the rim of the
//     disk around its core point, i.e. inside or on X (on the surface exactly when n is in X's
//     normal cone there). So: at least one side has its normal direction in the normal cone of
//     its core point, and that side's point is on its rounded surface within tol;
//   - per point: the id's two feature bytes name, for A and for B, a vertex (or the edge starting
//     there) that the core point lies on: at that vertex, or on one of its two edges (VERTEX_FEATURE
//     0x80: at the vertex itself);
//   - per point: depth ≥ −margin − tol and depth ≤ the overlap of the shapes along n + tol; when A
//     (or B) supplies the normal, depth equals the separation of the other core point from A's
//     (B's) supporting line along n, within tol (the core face-contact depth);
//   - the separation of the shapes along n is within slack of the best separation over all
//     candidate axes (face normals of both, and every vertex-to-vertex direction, which covers
//     rounded shapes, circles and capsules): that is, the depth along the chosen normal is (near)
//     the true minimum penetration depth. slack = tol + AXIS_HYSTERESIS × smaller extent (the
//     documented preference for A's face), plus, only where the cores are apart along n by at most
//     CORE_SEPARATION × smaller extent (the documented range where a face normal is kept instead
//     of a vertex-to-vertex one), the difference between the core distance and that separation.

import { AXIS_HYSTERESIS, CORE_SEPARATION } from './constants.ts';
import { LAYOUT_2D } from './layout2d.ts';
import type { ManifoldJson } from './pack2d.ts';
import type { Body2DInput, SceneJson2D } from './scene.ts';
import type { Shape2DInput, Vec2 } from './shapes2d.ts';

/** The core vertices of a shape, local frame, straight from its JSON (no validation, no hull). */
export function localCore(shape: Shape2DInput): Vec2[] {
  switch (shape.type) {
    case 'polygon':
      return shape.vertices.map((v) => [v[0], v[1]] as Vec2);
    case 'box': {
      const [hx, hy] = shape.halfExtents;
      return [
        [-hx, -hy],
        [hx, -hy],
        [hx, hy],
        [-hx, hy],
      ];
    }
    case 'circle':
      return [shape.center ? [shape.center[0], shape.center[1]] : [0, 0]];
    case 'capsule':
      return [
        [shape.a[0], shape.a[1]],
        [shape.b[0], shape.b[1]],
      ];
  }
}

/** A shape in world space, f64. */
export interface WorldShape {
  n: number;
  x: Float64Array;
  y: Float64Array;
  /** Outward unit normal of edge i (vertex i to i+1); n >= 2 only. */
  nx: Float64Array;
  ny: Float64Array;
  r: number;
  /** max |vertex − vertex average| + r: the size relative tolerances scale with. */
  extent: number;
  /** |body position|, for the f32 resolution of world coordinates. */
  worldMagnitude: number;
}

export function worldShape(shape: Shape2DInput, body: Body2DInput): WorldShape {
  const core = localCore(shape);
  const n = core.length;
  const angle = body.angle ?? 0;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const [px, py] = body.position;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  let ax = 0;
  let ay = 0;
  for (let i = 0; i < n; i++) {
    const [lx, ly] = core[i];
    x[i] = px + c * lx - s * ly;
    y[i] = py + s * lx + c * ly;
    ax += lx / n;
    ay += ly / n;
  }
  let reach = 0;
  for (const [lx, ly] of core) reach = Math.max(reach, Math.hypot(lx - ax, ly - ay));
  const nx = new Float64Array(n);
  const ny = new Float64Array(n);
  if (n >= 2) {
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const dx = x[j] - x[i];
      const dy = y[j] - y[i];
      const len = Math.hypot(dx, dy);
      nx[i] = dy / len;
      ny[i] = -dx / len;
    }
  }
  const r = shape.type === 'polygon' || shape.type === 'box' ? (shape.radius ?? 0) : shape.radius;
  return { n, x, y, nx, ny, r, extent: reach + r, worldMagnitude: Math.hypot(px, py) };
}

/** World shapes of pair k of a scene. */
export function pairShapes(scene: SceneJson2D, k: number): [WorldShape, WorldShape] {
  const [a, b] = scene.pairs![k];
  const ba = scene.bodies[a];
  const bb = scene.bodies[b];
  return [worldShape(scene.shapes[ba.shape], ba), worldShape(scene.shapes[bb.shape], bb)];
}

// ---------------------------------------------------------------------------------------------
// Manifold slots.

export interface Manifold {
  count: number;
  nx: number;
  ny: number;
  x: number[];
  y: number[];
  depth: number[];
  id: number[];
}

const M = LAYOUT_2D.manifold;

/** Slot k of a Manifold2D buffer (views over it). */
export function readManifold(f: Float32Array, u: Uint32Array, k: number): Manifold {
  const o = k * M.words;
  const count = u[o + M.count];
  const m: Manifold = {
    count,
    nx: f[o + M.normal],
    ny: f[o + M.normal + 1],
    x: [],
    y: [],
    depth: [],
    id: [],
  };
  for (let i = 0; i < Math.min(count, 2); i++) {
    const p = o + M.points + i * M.pointStride;
    m.x.push(f[p + M.pointPosition]);
    m.y.push(f[p + M.pointPosition + 1]);
    m.depth.push(f[p + M.pointDepth]);
    m.id.push(u[p + M.pointId]);
  }
  return m;
}

export function manifoldJson(m: Manifold): object {
  return {
    count: m.count,
    normal: [m.nx, m.ny],
    points: m.x.map((x, i) => ({
      position: [x, m.y[i]],
      depth: m.depth[i],
      id: `0x${m.id[i].toString(16).padStart(4, '0')}`,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Geometry.

function segmentDistance(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Signed distance from p to the core (negative inside a polygon core; >= 0 for points/segments). */
export function coreSignedDistance(s: WorldShape, px: number, py: number): number {
  if (s.n === 1) return Math.hypot(px - s.x[0], py - s.y[0]);
  if (s.n === 2) return segmentDistance(px, py, s.x[0], s.y[0], s.x[1], s.y[1]);
  let maxSep = -Infinity;
  for (let i = 0; i < s.n; i++)
    maxSep = Math.max(maxSep, s.nx[i] * (px - s.x[i]) + s.ny[i] * (py - s.y[i]));
  if (maxSep <= 0) return maxSep; // inside: minus the distance to the nearest edge line = to the boundary
  let d = Infinity;
  for (let i = 0; i < s.n; i++) {
    const j = (i + 1) % s.n;
    d = Math.min(d, segmentDistance(px, py, s.x[i], s.y[i], s.x[j], s.y[j]));
  }
  return d;
}

/** Signed distance from p to the rounded shape's surface (negative inside). */
export function surfaceSignedDistance(s: WorldShape, px: number, py: number): number {
  return coreSignedDistance(s, px, py) - s.r;
}

/** Max over the shape's core of u·v (support function of the core). */
function support(s: WorldShape, ux: number, uy: number): number {
  let h = -Infinity;
  for (let i = 0; i < s.n; i++) h = Math.max(h, ux * s.x[i] + uy * s.y[i]);
  return h;
}

/** Separation of the rounded shapes along unit u (from A to B): min over B − max over A. */
export function separationAlong(a: WorldShape, b: WorldShape, ux: number, uy: number): number {
  return -support(b, -ux, -uy) - support(a, ux, uy) - a.r - b.r;
}

/**
 * The true separation of the rounded shapes (> 0: apart by that distance; < 0: minus the minimum
 * penetration depth): the best separation over all candidate axes. The Minkowski difference of
 * the cores is a convex polygon whose edge normals are the face normals of A and (negated) of B
 * and whose vertices are the differences b_j − a_i; the origin's signed distance to it (minus
 * the radii) is attained along one of those normals or toward one of those vertices.
 */
export function trueSeparation(
  a: WorldShape,
  b: WorldShape,
): { separation: number; axis: [number, number] } {
  let best = -Infinity;
  let axis: [number, number] = [0, 1];
  const tryAxis = (ux: number, uy: number): void => {
    const s = separationAlong(a, b, ux, uy);
    if (s > best) {
      best = s;
      axis = [ux, uy];
    }
  };
  if (a.n >= 2) for (let i = 0; i < a.n; i++) tryAxis(a.nx[i], a.ny[i]);
  if (b.n >= 2) for (let j = 0; j < b.n; j++) tryAxis(-b.nx[j], -b.ny[j]);
  for (let i = 0; i < a.n; i++) {
    for (let j = 0; j < b.n; j++) {
      const dx = b.x[j] - a.x[i];
      const dy = b.y[j] - a.y[i];
      const len = Math.hypot(dx, dy);
      if (len > 0) tryAxis(dx / len, dy / len);
    }
  }
  if (best === -Infinity) tryAxis(0, 1); // two coincident points: every direction is as good
  return { separation: best, axis };
}

/** Angle of v measured counter-clockwise from u, in [0, 2π). */
function ccwAngle(ux: number, uy: number, vx: number, vy: number): number {
  const a = Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  return a < 0 ? a + 2 * Math.PI : a;
}

/**
 * Whether direction d is an outward normal of the core at core point (cx, cy), within angle
 * `angTol`, considering every feature within `tol` of the point: an edge (its normal), a vertex
 * (the cone between its two edge normals), a lone point (every direction).
 */
export function inNormalCone(
  s: WorldShape,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
  tol: number,
  angTol: number,
): boolean {
  if (s.n === 1) return true;
  const len = Math.hypot(dx, dy);
  const ux = dx / len;
  const uy = dy / len;
  for (let i = 0; i < s.n; i++) {
    if (Math.hypot(cx - s.x[i], cy - s.y[i]) <= tol) {
      const p = (i + s.n - 1) % s.n;
      const span = ccwAngle(s.nx[p], s.ny[p], s.nx[i], s.ny[i]);
      const at = ccwAngle(s.nx[p], s.ny[p], ux, uy);
      if (at <= span + angTol || at >= 2 * Math.PI - angTol) return true;
    }
    const j = (i + 1) % s.n;
    if (segmentDistance(cx, cy, s.x[i], s.y[i], s.x[j], s.y[j]) <= tol) {
      if (ux * s.nx[i] + uy * s.ny[i] >= Math.cos(angTol)) return true;
    }
  }
  return false;
}

/** Whether unit direction (dx, dy) is one of the shape's face normals (n >= 2), within angTol. */
export function isFaceNormal(s: WorldShape, dx: number, dy: number, angTol = 1e-3): boolean {
  if (s.n < 2) return false;
  const c = Math.cos(angTol);
  for (let i = 0; i < s.n; i++) if (dx * s.nx[i] + dy * s.ny[i] >= c) return true;
  return false;
}

/** Which side supplies the normal: A's face, B's face, or neither (vertex/circle contacts). */
export function normalSource(
  a: WorldShape,
  b: WorldShape,
  m: Manifold,
): 'A-face' | 'B-face' | 'other' {
  const len = Math.hypot(m.nx, m.ny);
  if (isFaceNormal(a, m.nx / len, m.ny / len)) return 'A-face';
  if (isFaceNormal(b, -m.nx / len, -m.ny / len)) return 'B-face';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// The check.

/** Relative length tolerance (× pair scale). */
export const TOL_RELATIVE = 1e-4;
/** Tolerance on |n| − 1. */
export const UNIT_TOL = 1e-5;
/** Angular tolerance for "the normal is in the normal cone" (f32 normals of close vertices). */
export const CONE_ANGLE_TOL = 1e-3;
/**
 * A contact point is stored as f32 world coordinates: at a distance W from the origin each
 * component is rounded by up to 2^-24·W (half an ulp), whatever the arithmetic before it, so two
 * correct backends may store points 2^-23·W apart. Tolerances on positions (and on what is
 * derived from them) add WORLD_ULPS × 2^-23 × W. Depths and normals are relative quantities and
 * get no such allowance: a pair of unit shapes at 1e3 must have its depth to 1e-4 like one at 0
 * (the collide functions work in a frame at the pair, "so f32 keeps its digits where the
 * contact is", src/cpu/collide2d.ts).
 */
export const WORLD_ULPS = 1;

/** Length scale of a pair: the larger extent. */
export function pairScale(a: WorldShape, b: WorldShape): number {
  return Math.max(a.extent, b.extent);
}

/** Tolerance on relative lengths (depths): 1e-4 × pair scale. */
export function depthTolerance(a: WorldShape, b: WorldShape): number {
  return TOL_RELATIVE * pairScale(a, b);
}

/** Tolerance on positions: 1e-4 × pair scale + the f32 resolution of the world coordinates. */
export function pairTolerance(a: WorldShape, b: WorldShape): number {
  return (
    depthTolerance(a, b) + WORLD_ULPS * 2 ** -23 * Math.max(a.worldMagnitude, b.worldMagnitude)
  );
}

export interface Validity {
  ok: boolean;
  problems: string[];
  /** True separation of the shapes (f64; < 0: minus the minimum penetration depth). */
  trueSeparation: number;
  /** Separation along the manifold's normal (NaN without points). */
  normalSeparation: number;
  /** The slack allowed between the two. */
  slack: number;
  tol: number;
}

export function checkManifold(a: WorldShape, b: WorldShape, m: Manifold, margin: number): Validity {
  const problems: string[] = [];
  const tol = pairTolerance(a, b);
  const truth = trueSeparation(a, b);
  const trueSep = truth.separation;
  const out: Validity = {
    ok: true,
    problems,
    trueSeparation: trueSep,
    normalSeparation: NaN,
    slack: 0,
    tol,
  };
  countProblems(a, b, m, margin, trueSep, tol, problems);
  if (m.count === 0 || m.count > 2) {
    out.ok = problems.length === 0;
    return out;
  }

  const nlen = Math.hypot(m.nx, m.ny);
  if (!(Math.abs(nlen - 1) <= UNIT_TOL)) problems.push(`normal not unit: |n| = ${nlen}`);
  const nx = m.nx / nlen;
  const ny = m.ny / nlen;
  const { sepN, slack } = normalOptimality(a, b, nx, ny, truth, tol, problems);
  out.normalSeparation = sepN;
  out.slack = slack;

  const pair: PairNormal = {
    a,
    b,
    nx,
    ny,
    sepN,
    margin,
    tol,
    hA: support(a, nx, ny), // A's supporting line along n
    hB: -support(b, -nx, -ny), // B's supporting line along n (min over B's core of n·v)
  };
  for (let i = 0; i < m.count; i++) pointProblems(pair, m, i, problems);
  // Persistent contacts match points by pair and id: two points of one manifold may not share one.
  if (m.count === 2 && m.id[0] === m.id[1])
    problems.push(`points 0 and 1 share id 0x${m.id[0].toString(16)}`);
  out.ok = problems.length === 0;
  return out;
}

const fmt = (x: number): string => x.toPrecision(6);

/** The point count against the true separation: too many, missing, or points too far apart. */
function countProblems(
  a: WorldShape,
  b: WorldShape,
  m: Manifold,
  margin: number,
  trueSep: number,
  tol: number,
  problems: string[],
): void {
  if (m.count > 2) problems.push(`count ${m.count} > 2`);
  if (trueSep < -tol && m.count === 0)
    problems.push(`no points, but the shapes overlap by ${fmt(-trueSep)} (tol ${fmt(tol)})`);
  // Speculative contacts: shapes apart by less than the margin (less the slack of a face normal
  // chosen over a slightly better axis) must have their points too.
  const specSlack = tol + (AXIS_HYSTERESIS + 2 * CORE_SEPARATION) * Math.min(a.extent, b.extent);
  if (trueSep > tol && trueSep < margin - specSlack && m.count === 0) {
    problems.push(
      `no points, but the shapes are apart by only ${fmt(trueSep)} < margin ${margin} (speculative contact missing)`,
    );
  }
  if (trueSep > margin + tol && m.count > 0)
    problems.push(
      `${m.count} points, but the shapes are apart by ${fmt(trueSep)} > margin ${margin} + tol`,
    );
}

/** Optimality of the normal (the SAT depth along it against the true minimum penetration). */
function normalOptimality(
  a: WorldShape,
  b: WorldShape,
  nx: number,
  ny: number,
  truth: ReturnType<typeof trueSeparation>,
  tol: number,
  problems: string[],
): { sepN: number; slack: number } {
  const minExtent = Math.min(a.extent, b.extent);
  const R = a.r + b.r;
  const trueSep = truth.separation;
  const sepN = separationAlong(a, b, nx, ny);
  const coreSepN = sepN + R;
  const coreDist = trueSep + R;
  let slack = tol + AXIS_HYSTERESIS * minExtent;
  if (coreSepN > 0 && coreSepN <= CORE_SEPARATION * minExtent + tol)
    slack += Math.max(0, coreDist - coreSepN);
  if (sepN < trueSep - slack) {
    problems.push(
      `normal is not the axis of least penetration: separation along n ${fmt(sepN)}, best ${fmt(trueSep)} along ` +
        `[${fmt(truth.axis[0])}, ${fmt(truth.axis[1])}] (slack ${fmt(slack)})`,
    );
  }
  return { sepN, slack };
}

/** A pair and its manifold's unit normal: what each point is checked against. */
interface PairNormal {
  a: WorldShape;
  b: WorldShape;
  nx: number;
  ny: number;
  /** Separation along n. */
  sepN: number;
  margin: number;
  tol: number;
  /** The supporting lines of A's and B's cores along n. */
  hA: number;
  hB: number;
}

/** Point i: its depth, its two ends on the shapes, the normal cone, its feature id, face depths. */
function pointProblems(p: PairNormal, m: Manifold, i: number, problems: string[]): void {
  const { a, b, nx, ny, tol } = p;
  const d = m.depth[i];
  const px = m.x[i];
  const py = m.y[i];
  const what = `point ${i}`;
  if (!Number.isFinite(d) || !Number.isFinite(px) || !Number.isFinite(py)) {
    problems.push(`${what}: not finite`);
    return;
  }
  if (d < -p.margin - tol) problems.push(`${what}: depth ${fmt(d)} < -margin ${-p.margin}`);
  if (d > -p.sepN + tol)
    problems.push(`${what}: depth ${fmt(d)} exceeds the overlap along n ${fmt(-p.sepN)}`);
  const ax = px + 0.5 * d * nx;
  const ay = py + 0.5 * d * ny;
  const bx = px - 0.5 * d * nx;
  const by = py - 0.5 * d * ny;
  const cax = ax - a.r * nx;
  const cay = ay - a.r * ny;
  const cbx = bx + b.r * nx;
  const cby = by + b.r * ny;
  const distA = coreSignedDistance(a, cax, cay);
  const distB = coreSignedDistance(b, cbx, cby);
  if (Math.abs(distA) > tol)
    problems.push(
      `${what}: point on A is ${fmt(distA)} from A's ${a.r > 0 ? 'core ' : ''}boundary`,
    );
  if (Math.abs(distB) > tol)
    problems.push(
      `${what}: point on B is ${fmt(distB)} from B's ${b.r > 0 ? 'core ' : ''}boundary`,
    );
  const sdA = surfaceSignedDistance(a, ax, ay);
  const sdB = surfaceSignedDistance(b, bx, by);
  if (sdA > tol) problems.push(`${what}: point on A is outside A by ${fmt(sdA)}`);
  if (sdB > tol) problems.push(`${what}: point on B is outside B by ${fmt(sdB)}`);
  const coneA = inNormalCone(a, cax, cay, nx, ny, tol, CONE_ANGLE_TOL);
  const coneB = inNormalCone(b, cbx, cby, -nx, -ny, tol, CONE_ANGLE_TOL);
  if (!coneA && !coneB) {
    problems.push(
      `${what}: the normal is an outward normal of neither A at its point nor (negated) of B at its point`,
    );
  }
  if (coneA && Math.abs(sdA) > tol)
    problems.push(`${what}: point on A (normal side) is ${fmt(sdA)} from A's surface`);
  if (coneB && Math.abs(sdB) > tol)
    problems.push(`${what}: point on B (normal side) is ${fmt(sdB)} from B's surface`);
  featureIdProblems(p, m.id[i], what, [cax, cay, cbx, cby], problems);
  faceDepthProblems(p, d, what, [cax, cay, cbx, cby], problems);
}

/**
 * Feature ids: (feature of A) << 8 | (feature of B); a feature is a vertex index, or an edge
 * index (edge i runs from vertex i), with VERTEX_FEATURE (0x80) marking a vertex where both
 * could be meant. Either way the core point must lie at that vertex or on an edge touching it.
 */
function featureIdProblems(
  p: PairNormal,
  id: number,
  what: string,
  [cax, cay, cbx, cby]: readonly [number, number, number, number],
  problems: string[],
): void {
  if (id > 0xffff)
    problems.push(`${what}: id 0x${id.toString(16)} has bits above the two feature bytes`);
  for (const [side, s, f, x, y] of [
    ['A', p.a, (id >> 8) & 0xff, cax, cay],
    ['B', p.b, id & 0xff, cbx, cby],
  ] as const) {
    const problem = featureProblem(s, f, x, y, p.tol);
    if (problem)
      problems.push(
        `${what}: id 0x${id.toString(16).padStart(4, '0')}: ${side}'s feature ${problem}`,
      );
  }
}

/**
 * Core face contact: n is the normal of the face of A holding A's core point (f32 accuracy), and
 * the depth is how far B's core point is past A's supporting line along n (+ radii); and the
 * same with A and B swapped.
 */
function faceDepthProblems(
  p: PairNormal,
  d: number,
  what: string,
  [cax, cay, cbx, cby]: readonly [number, number, number, number],
  problems: string[],
): void {
  const { a, b, nx, ny, tol } = p;
  const R = a.r + b.r;
  if (onFace(a, cax, cay, nx, ny, tol)) {
    const faceDepth = R - (nDot(nx, ny, cbx, cby) - p.hA);
    if (Math.abs(d - faceDepth) > tol)
      problems.push(
        `${what}: depth ${fmt(d)} but B's point is ${fmt(faceDepth)} deep past A's face`,
      );
  }
  if (onFace(b, cbx, cby, -nx, -ny, tol)) {
    const faceDepth = R - (p.hB - nDot(nx, ny, cax, cay));
    if (Math.abs(d - faceDepth) > tol)
      problems.push(
        `${what}: depth ${fmt(d)} but A's point is ${fmt(faceDepth)} deep past B's face`,
      );
  }
}

function nDot(nx: number, ny: number, x: number, y: number): number {
  return nx * x + ny * y;
}

/** Why feature byte f of shape s does not describe core point (x, y), or null when it does. */
function featureProblem(
  s: WorldShape,
  f: number,
  x: number,
  y: number,
  tol: number,
): string | null {
  const vertexOnly = (f & 0x80) !== 0;
  const v = f & 0x7f;
  if (v >= s.n) return `${f} is not a vertex or edge of a ${s.n}-vertex core`;
  const atVertex = Math.hypot(x - s.x[v], y - s.y[v]) <= tol;
  if (vertexOnly || s.n === 1)
    return atVertex
      ? null
      : `${f} (vertex ${v}) is ${Math.hypot(x - s.x[v], y - s.y[v]).toPrecision(4)} from the point`;
  const p = (v + s.n - 1) % s.n;
  const n = (v + 1) % s.n;
  const dPrev = segmentDistance(x, y, s.x[p], s.y[p], s.x[v], s.y[v]);
  const dNext = segmentDistance(x, y, s.x[v], s.y[v], s.x[n], s.y[n]);
  return Math.min(dPrev, dNext) <= tol
    ? null
    : `${f}: the point is on no edge at vertex ${v} (${Math.min(dPrev, dNext).toPrecision(4)} away)`;
}

/** Angle within which a contact normal "is" a face normal: f32 rounding of a rotated normal. */
export const FACE_ANGLE_TOL = 1e-5;

/** Whether core point c lies on a face of s (within tol) whose outward normal is u (within FACE_ANGLE_TOL). */
function onFace(
  s: WorldShape,
  cx: number,
  cy: number,
  ux: number,
  uy: number,
  tol: number,
): boolean {
  if (s.n < 2) return false;
  const cos = Math.cos(FACE_ANGLE_TOL);
  for (let i = 0; i < s.n; i++) {
    const j = (i + 1) % s.n;
    if (
      ux * s.nx[i] + uy * s.ny[i] >= cos &&
      segmentDistance(cx, cy, s.x[i], s.y[i], s.x[j], s.y[j]) <= tol
    )
      return true;
  }
  return false;
}

/** A manifold of the JSON output (unpackManifolds2D) as the checks read it. */
export function manifoldFromJson(m: ManifoldJson): Manifold {
  return {
    count: m.points.length,
    nx: m.normal[0],
    ny: m.normal[1],
    x: m.points.map((p) => p.position[0]),
    y: m.points.map((p) => p.position[1]),
    depth: m.points.map((p) => p.depth),
    id: m.points.map((p) => p.id),
  };
}

/**
 * Splits the mismatches of two runs of one 2D scene (with `pairs`) into near-ties (both manifolds
 * valid: f32 and f64 broke a tie differently) and unexplained ones, as splitNearTies3D does in 3D.
 */
export function splitNearTies2D<T extends { index: number }>(
  scene: SceneJson2D,
  a: readonly ManifoldJson[],
  b: readonly ManifoldJson[],
  mismatches: readonly T[],
): { nearTies: T[]; unexplained: T[] } {
  const nearTies: T[] = [];
  const unexplained: T[] = [];
  const margin = Math.fround(scene.margin ?? 0);
  for (const mm of mismatches) {
    const k = mm.index;
    if (!scene.pairs || k < 0 || !a[k] || !b[k] || !scene.pairs[k]) {
      unexplained.push(mm);
      continue;
    }
    const [sa, sb] = pairShapes(scene, k);
    const ok =
      checkManifold(sa, sb, manifoldFromJson(a[k]), margin).ok &&
      checkManifold(sa, sb, manifoldFromJson(b[k]), margin).ok;
    (ok ? nearTies : unexplained).push(mm);
  }
  return { nearTies, unexplained };
}
