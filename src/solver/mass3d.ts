// Mass properties of the 3D shapes (src/shapes3d.ts's internal form) at unit density, on the host:
// volume, centre of mass in the body frame, and the inertia tensor about that centre (body axes).
//   hull / box  exact: a tetrahedron per fan triangle of each face, apex at the hull's centre
//   sphere      exact
//   capsule     exact: a cylinder and two hemispheres along the segment

import { SHAPE_TYPE_NAMES_3D, type ShapeKindName3D } from '../shape-kinds3d.ts';
import type { Shape3D, Vec3 } from '../shapes3d.ts';

/** Row-major symmetric 3 × 3 matrix. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

export interface MassProperties3D {
  volume: number;
  center: Vec3;
  /** Inertia tensor about the centre of mass at density 1, body axes. */
  inertia: Mat3;
}

/**
 * Each kind's mass: the solver's column of the kind table (src/shape-kinds3d.ts), kept here so
 * the narrowphase's bundle holds no mass code. A kind without one does not compile.
 */
export const SHAPE_MASS_3D: Readonly<Record<ShapeKindName3D, (s: Shape3D) => MassProperties3D>> = {
  hull: hullMass3D,
  box: hullMass3D,
  sphere: sphereMass3D,
  capsule: capsuleMass3D,
};

export function shapeMass3D(s: Shape3D): MassProperties3D {
  const kind = SHAPE_TYPE_NAMES_3D[s.kind];
  // A number outside the table (a hand-built shape) is summed as a hull.
  return (kind === undefined ? hullMass3D : SHAPE_MASS_3D[kind])(s);
}

function sphereMass3D(s: Shape3D): MassProperties3D {
  const v = s.vertices;
  const r = s.radius;
  const c0 = s.center;
  const volume = (4 / 3) * Math.PI * r ** 3;
  const i = 0.4 * volume * r * r;
  return {
    volume,
    center: [c0[0] + v[0], c0[1] + v[1], c0[2] + v[2]],
    inertia: [i, 0, 0, 0, i, 0, 0, 0, i],
  };
}

function capsuleMass3D(s: Shape3D): MassProperties3D {
  const v = s.vertices;
  const r = s.radius;
  const c0 = s.center;
  const a: Vec3 = [v[0], v[1], v[2]];
  const b: Vec3 = [v[3], v[4], v[5]];
  const axis: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const length = Math.hypot(...axis);
  const u = axis.map((x) => x / length) as Vec3;
  const cylinder = Math.PI * r * r * length;
  const spheres = (4 / 3) * Math.PI * r ** 3;
  const along = 0.5 * cylinder * r * r + 0.4 * spheres * r * r;
  // Each hemisphere's own inertia about its centroid, moved to the capsule's centre.
  const across =
    (cylinder * (3 * r * r + length * length)) / 12 +
    spheres * (0.4 * r * r + 0.25 * length * length + 0.375 * length * r);
  const inertia = [0, 1, 2].flatMap((i) =>
    [0, 1, 2].map((j) => (i === j ? across : 0) + (along - across) * u[i] * u[j]),
  ) as Mat3;
  return {
    volume: cylinder + spheres,
    center: [c0[0] + 0.5 * (a[0] + b[0]), c0[1] + 0.5 * (a[1] + b[1]), c0[2] + 0.5 * (a[2] + b[2])],
    inertia,
  };
}

/** Hulls and boxes. */
function hullMass3D(s: Shape3D): MassProperties3D {
  const v = s.vertices;
  const c0 = s.center;
  // Tetrahedra (0, p, q, w) with 0 the hull's centre (inside: the mean of its vertices).
  let volume = 0;
  const c: Vec3 = [0, 0, 0];
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0]; // ∫ x xᵀ dV about the centre
  const vert = (k: number): Vec3 => [v[3 * k], v[3 * k + 1], v[3 * k + 2]];
  for (let f = 0; f < s.faceCount; f++) {
    const first = s.faceFirst[f];
    const n = s.faceSize[f];
    const p = vert(s.faceVertices[first]);
    for (let k = 1; k + 1 < n; k++) {
      const q = vert(s.faceVertices[first + k]);
      const w = vert(s.faceVertices[first + k + 1]);
      const det =
        p[0] * (q[1] * w[2] - q[2] * w[1]) -
        p[1] * (q[0] * w[2] - q[2] * w[0]) +
        p[2] * (q[0] * w[1] - q[1] * w[0]);
      const vol = det / 6;
      volume += vol;
      const sum: Vec3 = [p[0] + q[0] + w[0], p[1] + q[1] + w[1], p[2] + q[2] + w[2]];
      for (let i = 0; i < 3; i++) c[i] += (vol * sum[i]) / 4;
      // A tetrahedron with a vertex at the origin: ∫ x xᵀ = det / 120 (p pᵀ + q qᵀ + w wᵀ + s sᵀ), s = p + q + w.
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++)
          m[3 * i + j] += (det / 120) * (p[i] * p[j] + q[i] * q[j] + w[i] * w[j] + sum[i] * sum[j]);
      }
    }
  }
  for (let i = 0; i < 3; i++) c[i] /= volume;
  // Second moment about the centre of mass, then inertia = trace × I - moment.
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[3 * i + j] -= volume * c[i] * c[j];
  const trace = m[0] + m[4] + m[8];
  const inertia = m.map((x, k) => (k % 4 === 0 ? trace : 0) - x) as Mat3;
  return { volume, center: [c0[0] + c[0], c0[1] + c[1], c0[2] + c[2]], inertia };
}

/** Inverse of a symmetric positive definite 3 × 3 matrix (row-major). */
export function invertMat3(a: Mat3): Mat3 {
  const [a00, a01, a02, a10, a11, a12, a20, a21, a22] = a;
  const c00 = a11 * a22 - a12 * a21;
  const c01 = a12 * a20 - a10 * a22;
  const c02 = a10 * a21 - a11 * a20;
  const det = a00 * c00 + a01 * c01 + a02 * c02;
  const k = 1 / det;
  return [
    c00 * k,
    (a02 * a21 - a01 * a22) * k,
    (a01 * a12 - a02 * a11) * k,
    c01 * k,
    (a00 * a22 - a02 * a20) * k,
    (a02 * a10 - a00 * a12) * k,
    c02 * k,
    (a01 * a20 - a00 * a21) * k,
    (a00 * a11 - a01 * a10) * k,
  ];
}
