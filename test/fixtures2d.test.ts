// Analytic 2D fixtures (in the manner of Box3D's test_manifold.c): each scene's geometry is given
// in a comment with the answer worked out by hand, and every fixture runs on both backends.
//
// Conventions checked throughout: the normal is a unit vector from body A (pair[0]) to body B;
// depth > 0 is penetration and depth < 0 a speculative contact within `margin`; a point's position
// is midway between the two surfaces (on A: position + depth/2·normal, on B: position − depth/2·
// normal); id = (feature of A) << 8 | (feature of B), distinct within a manifold.
//
// Most fixtures stand on the same ground, G = box with half extents (4, 0.5) at the origin, whose
// top face is y = 0.5 (box vertices are 0:(−,−) 1:(+,−) 2:(+,+) 3:(−,+), so its top face is edge 2).
import { describe, expect, it } from 'vitest';
import type { ManifoldJson } from '../src/pack2d.ts';
import {
  BACKENDS,
  GROUND,
  dist,
  swappedId,
  useNarrowphases,
  type Json,
  type V,
} from './helpers/collide2d.ts';

/** Absolute tolerance for unit-sized fixtures: f32 keeps ~7 digits. */
const TOL = 1e-5;

const { collide } = useNarrowphases();

// ---- scene building and checking ----

interface BodyJson {
  shape: number;
  position: V;
  angle?: number;
}

const box = (hx: number, hy: number, radius?: number): Json =>
  radius === undefined
    ? { type: 'box', halfExtents: [hx, hy] }
    : { type: 'box', halfExtents: [hx, hy], radius };
const circle = (radius: number): Json => ({ type: 'circle', radius });
const capsule = (a: V, b: V, radius: number): Json => ({ type: 'capsule', a, b, radius });
const polygon = (vertices: V[]): Json => ({ type: 'polygon', vertices });

/** A two-body scene: body 0 is A, body 1 is B; pairs [0,1] and the swapped [1,0]. */
function pairScene(
  a: Json,
  bodyA: Omit<BodyJson, 'shape'>,
  b: Json,
  bodyB: Omit<BodyJson, 'shape'>,
  margin = 0,
) {
  return {
    dim: 2,
    margin,
    shapes: [a, b],
    bodies: [
      { shape: 0, ...bodyA },
      { shape: 1, ...bodyB },
    ],
    pairs: [
      [0, 1],
      [1, 0],
    ],
  };
}

interface ExpectedPoint {
  position: V;
  depth: number;
  /** Feature of A (the id's high byte), where the fixture pins it down. */
  featureA?: number;
}

interface Expected {
  normal: V;
  points: ExpectedPoint[];
}

/** Matches every expected point to a distinct actual one (nearest position) and compares. */
function expectManifold(m: ManifoldJson, e: Expected, tol = TOL): void {
  const got = JSON.stringify(m);
  expect(m.points.length, `point count of ${got}`).toBe(e.points.length);
  if (e.points.length === 0) return;
  expect(dist(m.normal, e.normal), `normal of ${got}, expected [${e.normal}]`).toBeLessThanOrEqual(
    tol,
  );
  expect(Math.hypot(m.normal[0]!, m.normal[1]!)).toBeCloseTo(1, 6);
  expect(new Set(m.points.map((p) => p.id)).size, `distinct ids in ${got}`).toBe(m.points.length);
  const used = new Set<number>();
  for (const ep of e.points) {
    let best = -1;
    for (let i = 0; i < m.points.length; i++) {
      if (used.has(i)) continue;
      if (
        best < 0 ||
        dist(m.points[i]!.position, ep.position) < dist(m.points[best]!.position, ep.position)
      )
        best = i;
    }
    used.add(best);
    const p = m.points[best]!;
    expect(
      dist(p.position, ep.position),
      `position of a point of ${got}, expected [${ep.position}]`,
    ).toBeLessThanOrEqual(tol);
    expect(
      Math.abs(p.depth - ep.depth),
      `depth of a point of ${got}, expected ${ep.depth}`,
    ).toBeLessThanOrEqual(tol);
    if (ep.featureA !== undefined) expect(p.id >> 8, `feature of A in ${got}`).toBe(ep.featureA);
  }
}

/** Pair [B, A] against pair [A, B]: negated normal, the same points and depths, id halves exchanged. */
function expectSwapped(ab: ManifoldJson, ba: ManifoldJson, tol = TOL): void {
  const got = `${JSON.stringify(ab)} vs swapped ${JSON.stringify(ba)}`;
  expect(ba.points.length, got).toBe(ab.points.length);
  if (ab.points.length === 0) return;
  expect(dist(ba.normal, [-ab.normal[0]!, -ab.normal[1]!]), got).toBeLessThanOrEqual(tol);
  for (const p of ab.points) {
    const swapped = swappedId(p.id);
    const q = ba.points.find((x) => x.id === swapped);
    expect(q, `a point with id 0x${swapped.toString(16)} in ${got}`).toBeDefined();
    expect(dist(q!.position, p.position), got).toBeLessThanOrEqual(tol);
    expect(Math.abs(q!.depth - p.depth), got).toBeLessThanOrEqual(tol);
  }
}

/** Point midway between a point on A and a point on B. */
const mid = (a: V, b: V): V => [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
const rotate = (angle: number, v: V): V => [
  Math.cos(angle) * v[0] - Math.sin(angle) * v[1],
  Math.sin(angle) * v[0] + Math.cos(angle) * v[1],
];
const add = (a: V, b: V): V => [a[0] + b[0], a[1] + b[1]];

// ---- the fixtures ----

interface Fixture {
  name: string;
  scene: ReturnType<typeof pairScene>;
  expected: Expected;
  /**
   * The swapped pair [B, A] where it is not the mirror image of [A, B]: only for concentric
   * circles, whose normal is by definition the local +y of whichever body is A.
   */
  swappedExpected?: Expected;
}

const S2 = Math.SQRT1_2;

function fixtures(): Fixture[] {
  const out: Fixture[] = [];

  // Box resting on box: B = box (1, 0.5) at (0.3, 0.99), its bottom face y = 0.49 sunk 0.01 into
  // G's top. G's face is the reference (a tie with B's face; A keeps it), B's bottom edge lies
  // inside it, so the two points are B's bottom vertices x = −0.7 and 1.3, both 0.01 deep, midway
  // at y = 0.495.
  out.push({
    name: 'box resting on box: 2 points at the ends of the overlap, equal depth',
    scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5), { position: [0.3, 0.99] }),
    expected: {
      normal: [0, 1],
      points: [
        { position: [-0.7, 0.495], depth: 0.01 },
        { position: [1.3, 0.495], depth: 0.01 },
      ],
    },
  });
  // The same box hanging over G's right end: B spans x ∈ [2.5, 4.5], G's top x ∈ [−4, 4]; the
  // overlap interval is [2.5, 4]: B's vertex at 2.5 and B's bottom edge clipped by G's side plane x = 4.
  out.push({
    name: 'box overhanging the end of a box: points at the overlap interval ends',
    scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5), { position: [3.5, 0.99] }),
    expected: {
      normal: [0, 1],
      points: [
        { position: [2.5, 0.495], depth: 0.01 },
        { position: [4, 0.495], depth: 0.01 },
      ],
    },
  });
  // A unit box rotated 45°, standing on its corner: B = box (0.5, 0.5), angle π/4, at
  // (0.2, 0.5 + √2/2 − 0.01); its lowest vertex is (0.2, 0.49). One point (the vertex), depth 0.01;
  // B's two lower edges are equally good incident edges and each one's other end is far above.
  out.push({
    name: 'box rotated 45° on a box: 1 point at the vertex',
    scene: pairScene(GROUND, { position: [0, 0] }, box(0.5, 0.5), {
      position: [0.2, 0.5 + S2 - 0.01],
      angle: Math.PI / 4,
    }),
    expected: { normal: [0, 1], points: [{ position: [0.2, 0.495], depth: 0.01 }] },
  });
  // A box tilted a little: B = box (1, 0.5), angle θ = 0.005, placed so its lower-left vertex
  // (local (−1, −0.5)) is at y = 0.48. Its lower-right vertex is 2·sin θ ≈ 0.01 higher. G's face
  // stays the reference (B's tilted face separates by about −0.035), so the points are B's two
  // bottom vertices with depths 0.02 and 0.02 − 2 sin θ, each midway to y = 0.5.
  {
    const theta = 0.005;
    const p: V = [0.2, 0.48 + Math.sin(theta) + 0.5 * Math.cos(theta)];
    const v0 = add(p, rotate(theta, [-1, -0.5]));
    const v1 = add(p, rotate(theta, [1, -0.5]));
    out.push({
      name: 'box tilted a little on a box: 2 points, different depths',
      scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5), { position: p, angle: theta }),
      expected: {
        normal: [0, 1],
        points: [
          { position: mid(v0, [v0[0], 0.5]), depth: 0.5 - v0[1] },
          { position: mid(v1, [v1[0], 0.5]), depth: 0.5 - v1[1] },
        ],
      },
    });
  }
  // Circle on a box face: circle r = 0.5 at (0.7, 0.99), bottom at 0.49: one point below the
  // center, depth 0.01; feature of A is G's top face, edge 2.
  out.push({
    name: 'circle on a box face',
    scene: pairScene(GROUND, { position: [0, 0] }, circle(0.5), { position: [0.7, 0.99] }),
    expected: { normal: [0, 1], points: [{ position: [0.7, 0.495], depth: 0.01, featureA: 2 }] },
  });
  // Circle near a box corner (vertex region): A = box (1, 1) at the origin, circle r = 0.5 at
  // (1.3, 1.3), diagonally off the corner (1, 1). Normal along corner → center, (1, 1)/√2; depth
  // 0.5 − 0.3√2 = 0.0757; on A the corner, on B the center − 0.5·normal. Feature of A: vertex 2,
  // marked as a vertex (0x80).
  {
    const n: V = [S2, S2];
    const depth = 0.5 - 0.3 * Math.SQRT2;
    const onB: V = [1.3 - 0.5 * n[0], 1.3 - 0.5 * n[1]];
    out.push({
      name: 'circle near a box corner: vertex region, normal along corner → center',
      scene: pairScene(box(1, 1), { position: [0, 0] }, circle(0.5), { position: [1.3, 1.3] }),
      expected: { normal: n, points: [{ position: mid([1, 1], onB), depth, featureA: 0x80 | 2 }] },
    });
  }
  // Circle–circle, a 3-4-5 triangle: A r = 1 at (2, −1), B r = 0.5 at (2, −1) + (0.84, 1.12),
  // 1.4 apart: normal (0.6, 0.8), depth 1.5 − 1.4 = 0.1; on A (2, −1) + (0.6, 0.8), on B
  // (2.84, 0.12) − 0.5·(0.6, 0.8).
  out.push({
    name: 'circle–circle',
    scene: pairScene(circle(1), { position: [2, -1] }, circle(0.5), { position: [2.84, 0.12] }),
    expected: {
      normal: [0.6, 0.8],
      points: [{ position: mid([2.6, -0.2], [2.54, -0.28]), depth: 0.1 }],
    },
  });
  // Concentric circles: A r = 1, B r = 0.5, both at (2, 3). Every direction separates equally well;
  // the answer is A's local +y, (0, 1), depth 1 + 0.5, between A's top (2, 4) and B's bottom (2, 2.5).
  // The one case where the swapped pair is not the mirror image: there the r = 0.5 circle is A, the
  // normal is its local +y, and the point lies between its top (2, 3.5) and the other's bottom (2, 2).
  const concentricSwapped: Expected = {
    normal: [0, 1],
    points: [{ position: [2, 2.75], depth: 1.5 }],
  };
  out.push({
    name: 'concentric circles: A’s local +y',
    scene: pairScene(circle(1), { position: [2, 3] }, circle(0.5), { position: [2, 3] }),
    expected: { normal: [0, 1], points: [{ position: [2, 3.25], depth: 1.5 }] },
    swappedExpected: concentricSwapped,
  });
  // ... and with A turned by π/2, A's local +y is world (−1, 0) (B, unturned, keeps (0, 1) when swapped).
  out.push({
    name: 'concentric circles, A turned by π/2: A’s local +y = (−1, 0)',
    scene: pairScene(circle(1), { position: [2, 3], angle: Math.PI / 2 }, circle(0.5), {
      position: [2, 3],
    }),
    expected: { normal: [-1, 0], points: [{ position: [1.75, 3], depth: 1.5 }] },
    swappedExpected: concentricSwapped,
  });
  // Capsule lying on a box: capsule (−1, 0)–(1, 0), r = 0.25, at (0.2, 0.74); its underside y = 0.49.
  // The cores are 0.24 apart along y but the segment is parallel to G's face, so the edges are
  // clipped: 2 points below the segment's ends, x = −0.8 and 1.2, depth 0.01.
  out.push({
    name: 'capsule lying on a box: 2 points',
    scene: pairScene(GROUND, { position: [0, 0] }, capsule([-1, 0], [1, 0], 0.25), {
      position: [0.2, 0.74],
    }),
    expected: {
      normal: [0, 1],
      points: [
        { position: [-0.8, 0.495], depth: 0.01 },
        { position: [1.2, 0.495], depth: 0.01 },
      ],
    },
  });
  // Capsule standing on its end: (0, −0.5)–(0, 0.5), r = 0.25, at (0.3, 1.24); its lower cap
  // reaches y = 0.49. One point under the lower end; the upper end is 0.49 above the face (dropped).
  out.push({
    name: 'capsule standing on its end on a box: 1 point',
    scene: pairScene(GROUND, { position: [0, 0] }, capsule([0, -0.5], [0, 0.5], 0.25), {
      position: [0.3, 1.24],
    }),
    expected: { normal: [0, 1], points: [{ position: [0.3, 0.495], depth: 0.01 }] },
  });
  // Capsule–capsule crossing (X): A = (−1, 0)–(1, 0), r = 0.2, at the origin; B = the same capsule
  // turned by 0.5 rad about (0.3, 0.1), its segment crossing A's. The least translation is along
  // A's face normal (0, 1): B's lower end L = (0.3 − cos 0.5, 0.1 − sin 0.5) must rise to A's top
  // plus both radii, depth 0.4 − L.y = 0.7794 (B's own faces need 0.82 and more). One point: B's
  // other end lies above A's face (the clipped end has depth −0.08, dropped).
  {
    const L: V = [0.3 - Math.cos(0.5), 0.1 - Math.sin(0.5)];
    out.push({
      name: 'capsule–capsule crossing (X): 1 point at the deeper end',
      scene: pairScene(
        capsule([-1, 0], [1, 0], 0.2),
        { position: [0, 0] },
        capsule([-1, 0], [1, 0], 0.2),
        { position: [0.3, 0.1], angle: 0.5 },
      ),
      expected: {
        normal: [0, 1],
        points: [{ position: mid([L[0], 0.2], [L[0], L[1] - 0.2]), depth: 0.4 - L[1] }],
      },
    });
  }
  // Capsule–capsule crossing at right angles (a plus sign): B = (0, −1)–(0, 1), r = 0.2, at (0.3, 0.1)
  // across A = (−1, 0)–(1, 0), r = 0.2. The least translation pushes B along +x: A's right cap
  // reaches x = 1.2, B's left side is at 0.1, depth 1.1 (up 1.3, down 1.5, left 1.7). One point,
  // on A's end vertex 1: on A (1.2, 0), on B (0.1, 0).
  out.push({
    name: 'capsule–capsule crossing at right angles: the least translation (+x, 1.1)',
    scene: pairScene(
      capsule([-1, 0], [1, 0], 0.2),
      { position: [0, 0] },
      capsule([0, -1], [0, 1], 0.2),
      { position: [0.3, 0.1] },
    ),
    expected: { normal: [1, 0], points: [{ position: [0.65, 0], depth: 1.1, featureA: 1 }] },
  });
  // A capsule standing on a capsule (a T): B = (0, −1)–(0, 1), r = 0.2, at (0.3, 1.39); its lower end
  // (0.3, 0.39) is 0.39 from A's segment, 0.01 less than the radii: one point, (0.3, 0.195).
  out.push({
    name: 'capsule standing on a capsule (T): 1 point',
    scene: pairScene(
      capsule([-1, 0], [1, 0], 0.2),
      { position: [0, 0] },
      capsule([0, -1], [0, 1], 0.2),
      { position: [0.3, 1.39] },
    ),
    expected: { normal: [0, 1], points: [{ position: [0.3, 0.195], depth: 0.01 }] },
  });
  // Capsule–capsule parallel: both (−1, 0)–(1, 0), r = 0.2; B at (0.5, 0.39). The segments overlap
  // on x ∈ [−0.5, 1]: 2 points there, 0.39 apart against radii 0.4, depth 0.01, y = 0.195.
  out.push({
    name: 'capsule–capsule parallel: 2 points',
    scene: pairScene(
      capsule([-1, 0], [1, 0], 0.2),
      { position: [0, 0] },
      capsule([-1, 0], [1, 0], 0.2),
      { position: [0.5, 0.39] },
    ),
    expected: {
      normal: [0, 1],
      points: [
        { position: [-0.5, 0.195], depth: 0.01 },
        { position: [1, 0.195], depth: 0.01 },
      ],
    },
  });
  // Capsule–circle over the segment: capsule (−1, 0)–(1, 0), r = 0.2; circle r = 0.3 at (0.4, 0.49):
  // one point below the center, depth 0.01, between y = 0.2 and 0.19.
  out.push({
    name: 'capsule–circle, over the segment',
    scene: pairScene(capsule([-1, 0], [1, 0], 0.2), { position: [0, 0] }, circle(0.3), {
      position: [0.4, 0.49],
    }),
    expected: { normal: [0, 1], points: [{ position: [0.4, 0.195], depth: 0.01 }] },
  });
  // Capsule–circle beyond the end: circle r = 0.3 at (1.3, 0.3), diagonal off the end (1, 0):
  // normal (1, 1)/√2, depth 0.5 − 0.3√2; feature of A: vertex 1, marked as a vertex.
  {
    const n: V = [S2, S2];
    out.push({
      name: 'capsule–circle, beyond the end cap',
      scene: pairScene(capsule([-1, 0], [1, 0], 0.2), { position: [0, 0] }, circle(0.3), {
        position: [1.3, 0.3],
      }),
      expected: {
        normal: n,
        points: [
          {
            position: mid([1 + 0.2 * n[0], 0.2 * n[1]], [1.3 - 0.3 * n[0], 0.3 - 0.3 * n[1]]),
            depth: 0.5 - 0.3 * Math.SQRT2,
            featureA: 0x80 | 1,
          },
        ],
      },
    });
  }
  // Rounded box on a box: B = box (1, 0.5) with radius 0.1 at (0, 1.09); its rounded bottom is at
  // 1.09 − 0.5 − 0.1 = 0.49, so the depth 0.01 includes the radius (the cores are 0.09 apart).
  // 2 points under the core's bottom vertices x = ±1.
  out.push({
    name: 'rounded box (radius 0.1) on a box: depth includes the radius',
    scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5, 0.1), { position: [0, 1.09] }),
    expected: {
      normal: [0, 1],
      points: [
        { position: [-1, 0.495], depth: 0.01 },
        { position: [1, 0.495], depth: 0.01 },
      ],
    },
  });
  // Speculative contacts: B = box (1, 0.5) at (0.3, 1.05), 0.05 above G. With margin 0.1 both bottom
  // vertices are contacts of depth −0.05, midway at y = 0.525; with margin 0.01 there are none.
  out.push({
    name: 'boxes 0.05 apart, margin 0.1: 2 speculative points, depth −0.05',
    scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5), { position: [0.3, 1.05] }, 0.1),
    expected: {
      normal: [0, 1],
      points: [
        { position: [-0.7, 0.525], depth: -0.05 },
        { position: [1.3, 0.525], depth: -0.05 },
      ],
    },
  });
  out.push({
    name: 'boxes 0.05 apart, margin 0.01: no points',
    scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5), { position: [0.3, 1.05] }, 0.01),
    expected: { normal: [0, 0], points: [] },
  });
  // Exact touching with margin 0: B's bottom at exactly y = 0.5 (all values exact in f32): contacts
  // of depth 0 are kept.
  out.push({
    name: 'boxes exactly touching, margin 0: points of depth 0',
    scene: pairScene(GROUND, { position: [0, 0] }, box(1, 0.5), { position: [0.25, 1] }),
    expected: {
      normal: [0, 1],
      points: [
        { position: [-0.75, 0.5], depth: 0 },
        { position: [1.25, 0.5], depth: 0 },
      ],
    },
  });
  out.push({
    name: 'circles exactly touching, margin 0: a point of depth 0',
    scene: pairScene(circle(1), { position: [0, 0] }, circle(0.5), { position: [1.5, 0] }),
    expected: { normal: [1, 0], points: [{ position: [1, 0], depth: 0 }] },
  });
  // A regular 8-gon (circumradius 1, vertices at 22.5° + k·45°, so a flat bottom face at
  // y = −cos 22.5° between x = ±sin 22.5°) on a triangle (0, −2) (3, 1) (−3, 1) whose top face is
  // y = 1: the octagon at (0.5, 1 + cos 22.5° − 0.01) gives 2 points at x = 0.5 ± sin 22.5°.
  {
    const c = Math.cos(Math.PI / 8);
    const s = Math.sin(Math.PI / 8);
    out.push({
      name: 'an 8-gon resting on a triangle’s face: 2 points',
      scene: pairScene(
        polygon([
          [0, -2],
          [3, 1],
          [-3, 1],
        ]),
        { position: [0, 0] },
        polygon(octagon()),
        { position: [0.5, 1 + c - 0.01] },
      ),
      expected: {
        normal: [0, 1],
        points: [
          { position: [0.5 - s, 0.995], depth: 0.01 },
          { position: [0.5 + s, 0.995], depth: 0.01 },
        ],
      },
    });
    // The 8-gon on the apex (0, 1.5) of the triangle (−1, 0) (1, 0) (0, 1.5): the octagon's bottom
    // face is the reference (the triangle's faces separate by −0.24 at best); one point, the
    // apex, 0.01 deep; feature of A: the apex, vertex 2.
    out.push({
      name: 'an 8-gon on a triangle’s apex: 1 point',
      scene: pairScene(
        polygon([
          [-1, 0],
          [1, 0],
          [0, 1.5],
        ]),
        { position: [0, 0] },
        polygon(octagon()),
        { position: [0.1, 1.5 + c - 0.01] },
      ),
      expected: { normal: [0, 1], points: [{ position: [0, 1.495], depth: 0.01, featureA: 2 }] },
    });
  }
  return out;
}

function octagon(): V[] {
  return Array.from({ length: 8 }, (_, k) => {
    const a = Math.PI / 8 + (k * Math.PI) / 4;
    return [Math.cos(a), Math.sin(a)] as V;
  });
}

const FIXTURES = fixtures();

describe.each(BACKENDS)('2D fixtures (%s backend)', (backend) => {
  it.each(FIXTURES.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    const [ab, ba] = await collide(backend, f.scene);
    expect(ab!.pair).toEqual([0, 1]);
    expectManifold(ab!, f.expected);
    // Swapped pair order: negated normal, the same positions and depths, id halves exchanged.
    expect(ba!.pair).toEqual([1, 0]);
    if (f.swappedExpected) expectManifold(ba!, f.swappedExpected);
    else expectSwapped(ab!, ba!);
    if (f.expected.points.length === 0) expect(ab!.normal).toEqual([0, 0]);
  });

  it('concentric circles are deterministic: repeated runs give identical bits', async () => {
    const f = FIXTURES.find((x) => x.name.startsWith('concentric circles:'))!;
    const first = await collide(backend, f.scene);
    for (let i = 0; i < 3; i++) expect(await collide(backend, f.scene)).toEqual(first);
  });

  it('every fixture in one batch gives the same manifolds as one at a time', async () => {
    // One scene holding every fixture's bodies (shapes and bodies renumbered, margins equal).
    const group = FIXTURES.filter((f) => f.scene.margin === 0);
    const scene = {
      dim: 2,
      margin: 0,
      shapes: [] as Json[],
      bodies: [] as BodyJson[],
      pairs: [] as [number, number][],
    };
    for (const f of group) {
      const s0 = scene.shapes.length;
      const b0 = scene.bodies.length;
      scene.shapes.push(...f.scene.shapes);
      for (const b of f.scene.bodies) scene.bodies.push({ ...b, shape: b.shape + s0 });
      scene.pairs.push([b0, b0 + 1], [b0 + 1, b0]);
    }
    const all = await collide(backend, scene);
    for (const [k, f] of group.entries()) {
      const one = await collide(backend, f.scene);
      expect(all[2 * k]!.points, f.name).toEqual(one[0]!.points);
      expect(all[2 * k + 1]!.points, f.name).toEqual(one[1]!.points);
    }
  });

  describe('scale invariance of the resting-box case', () => {
    // The resting box and its overhanging variant scaled by s: positions and depths scale by s,
    // normals and ids do not change (tolerances are relative to the pair's size).
    for (const s of [1e-3, 1e3]) {
      for (const f of FIXTURES.filter(
        (x) => x.name.startsWith('box resting') || x.name.startsWith('box overhanging'),
      )) {
        it(`${f.name}, scaled by ${s}`, async () => {
          const sc = (v: V): V => [v[0] * s, v[1] * s];
          const scene = {
            ...f.scene,
            shapes: [
              { type: 'box', halfExtents: sc([4, 0.5]) },
              { type: 'box', halfExtents: sc([1, 0.5]) },
            ],
            bodies: f.scene.bodies.map((b) => ({ ...b, position: sc(b.position as V) })),
          };
          const [ab, ba] = await collide(backend, scene);
          expectManifold(
            ab!,
            {
              normal: f.expected.normal,
              points: f.expected.points.map((p) => ({
                position: sc(p.position),
                depth: p.depth * s,
              })),
            },
            TOL * s,
          );
          expectSwapped(ab!, ba!, TOL * s);
          const [unit] = await collide(backend, f.scene);
          expect(ab!.points.map((p) => p.id).sort()).toEqual(unit!.points.map((p) => p.id).sort());
        });
      }
    }
  });
});

describe('2D fixtures: both backends agree', () => {
  // The same packed f32 input on both backends; the CPU computes in f64, the GPU in f32, so values
  // agree to f32 rounding and every discrete choice (reference face, incident edge, ids) is the same.
  it.each(FIXTURES.map((f) => [f.name, f] as const))(
    '%s: same ids, values within f32 rounding',
    async (_name, f) => {
      const c = await collide('cpu', f.scene);
      const g = await collide('gpu', f.scene);
      for (let k = 0; k < 2; k++) {
        const what = `${JSON.stringify(c[k])} (cpu) vs ${JSON.stringify(g[k])} (gpu)`;
        expect(
          g[k]!.points.map((p) => p.id),
          what,
        ).toEqual(c[k]!.points.map((p) => p.id));
        expect(dist(g[k]!.normal, c[k]!.normal), what).toBeLessThanOrEqual(1e-6);
        for (let i = 0; i < c[k]!.points.length; i++) {
          expect(
            dist(g[k]!.points[i]!.position, c[k]!.points[i]!.position),
            what,
          ).toBeLessThanOrEqual(1e-5);
          expect(
            Math.abs(g[k]!.points[i]!.depth - c[k]!.points[i]!.depth),
            what,
          ).toBeLessThanOrEqual(1e-5);
        }
      }
    },
  );
});
