// Allocation-free 3-vectors, 3×3 matrices and quaternions for the 3D CPU reference, in
// wgpu-matrix's style: op(a, b, dst) writes dst and returns it, so the reference reads like its
// WGSL mirror (vec3f, mat3x3f, dot, cross, transpose(m) * v) while every vector lives in scratch
// the caller owns. Each op evaluates its components in the order written out in its body (sums
// left to right): the reference's f64 results depend on it, so an op is never rearranged.
//
// A vector is x, y, z at indices 0..2 (a Float64Array in the reference's scratch; callers may pass
// any array of numbers); a matrix is row-major, m[3 r + c]; a quaternion is [x, y, z, w]. dst may
// be an argument: every op reads all of its inputs before it writes.
//
// The reference's hot loops (over every face, vertex, edge pair or clip point of a pair) keep
// their vectors in locals instead: V8 holds those in registers, where an op stores and reloads
// each vector through its scratch.

/** A 3-vector the reference writes (scratch). */
export type Vec3 = Float64Array;
/** A 3-vector it only reads. */
export type Vec3Like = ArrayLike<number>;
/** A row-major 3×3 matrix. */
export type Mat3 = Float64Array;

function create(x = 0, y = 0, z = 0): Vec3 {
  return Float64Array.of(x, y, z);
}

function set(x: number, y: number, z: number, dst: Vec3): Vec3 {
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

function copy(a: Vec3Like, dst: Vec3): Vec3 {
  dst[0] = a[0];
  dst[1] = a[1];
  dst[2] = a[2];
  return dst;
}

/** a[o..o + 2] as a vector (a vertex or normal of a flat buffer). */
function load(a: ArrayLike<number>, o: number, dst: Vec3): Vec3 {
  dst[0] = a[o];
  dst[1] = a[o + 1];
  dst[2] = a[o + 2];
  return dst;
}

/** Writes v into a[o..o + 2]. */
function store(v: Vec3Like, a: { [i: number]: number }, o: number): void {
  a[o] = v[0];
  a[o + 1] = v[1];
  a[o + 2] = v[2];
}

function add(a: Vec3Like, b: Vec3Like, dst: Vec3): Vec3 {
  const x = a[0] + b[0];
  const y = a[1] + b[1];
  const z = a[2] + b[2];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

function sub(a: Vec3Like, b: Vec3Like, dst: Vec3): Vec3 {
  const x = a[0] - b[0];
  const y = a[1] - b[1];
  const z = a[2] - b[2];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

function scale(a: Vec3Like, s: number, dst: Vec3): Vec3 {
  const x = a[0] * s;
  const y = a[1] * s;
  const z = a[2] * s;
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

function divScalar(a: Vec3Like, s: number, dst: Vec3): Vec3 {
  const x = a[0] / s;
  const y = a[1] / s;
  const z = a[2] / s;
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

function negate(a: Vec3Like, dst: Vec3): Vec3 {
  const x = -a[0];
  const y = -a[1];
  const z = -a[2];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

/** a + s b. */
function addScaled(a: Vec3Like, b: Vec3Like, s: number, dst: Vec3): Vec3 {
  const x = a[0] + s * b[0];
  const y = a[1] + s * b[1];
  const z = a[2] + s * b[2];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

/** a + t (b − a). */
function lerp(a: Vec3Like, b: Vec3Like, t: number, dst: Vec3): Vec3 {
  const x = a[0] + t * (b[0] - a[0]);
  const y = a[1] + t * (b[1] - a[1]);
  const z = a[2] + t * (b[2] - a[2]);
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

/** 0.5 (a + b). */
function midpoint(a: Vec3Like, b: Vec3Like, dst: Vec3): Vec3 {
  const x = 0.5 * (a[0] + b[0]);
  const y = 0.5 * (a[1] + b[1]);
  const z = 0.5 * (a[2] + b[2]);
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

function dot(a: Vec3Like, b: Vec3Like): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function cross(a: Vec3Like, b: Vec3Like, dst: Vec3): Vec3 {
  const x = a[1] * b[2] - a[2] * b[1];
  const y = a[2] * b[0] - a[0] * b[2];
  const z = a[0] * b[1] - a[1] * b[0];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

/** √(a · a), WGSL's length. */
function length(a: Vec3Like): number {
  return Math.sqrt(dot(a, a));
}

/** Math.hypot of a's components: the same length, rounded otherwise (no overflow). */
function hypot(a: Vec3Like): number {
  return Math.hypot(a[0], a[1], a[2]);
}

export const vec3 = {
  create,
  set,
  copy,
  load,
  store,
  add,
  sub,
  scale,
  divScalar,
  negate,
  addScaled,
  lerp,
  midpoint,
  dot,
  cross,
  length,
  hypot,
};

function createMat3(): Mat3 {
  return Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
}

/** m v. */
function mulVec(m: Mat3, v: Vec3Like, dst: Vec3): Vec3 {
  const x = m[0] * v[0] + m[1] * v[1] + m[2] * v[2];
  const y = m[3] * v[0] + m[4] * v[1] + m[5] * v[2];
  const z = m[6] * v[0] + m[7] * v[1] + m[8] * v[2];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

/** mᵀ v. */
function transposeMulVec(m: Mat3, v: Vec3Like, dst: Vec3): Vec3 {
  const x = m[0] * v[0] + m[3] * v[1] + m[6] * v[2];
  const y = m[1] * v[0] + m[4] * v[1] + m[7] * v[2];
  const z = m[2] * v[0] + m[5] * v[1] + m[8] * v[2];
  dst[0] = x;
  dst[1] = y;
  dst[2] = z;
  return dst;
}

/** The rotation matrix of unit quaternion q = [x, y, z, w]. */
function fromQuat(q: ArrayLike<number>, dst: Mat3): Mat3 {
  const x = q[0];
  const y = q[1];
  const z = q[2];
  const w = q[3];
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  const xy = x * y;
  const xz = x * z;
  const yz = y * z;
  const wx = w * x;
  const wy = w * y;
  const wz = w * z;
  dst[0] = 1 - 2 * (yy + zz);
  dst[1] = 2 * (xy - wz);
  dst[2] = 2 * (xz + wy);
  dst[3] = 2 * (xy + wz);
  dst[4] = 1 - 2 * (xx + zz);
  dst[5] = 2 * (yz - wx);
  dst[6] = 2 * (xz - wy);
  dst[7] = 2 * (yz + wx);
  dst[8] = 1 - 2 * (xx + yy);
  return dst;
}

export const mat3 = { create: createMat3, mulVec, transposeMulVec, fromQuat };

const qt = vec3.create();
const qu = vec3.create();

/**
 * v turned by the inverse of unit quaternion q: with a = −q.xyz, t = 2 a × v and
 * v + w t + a × t.
 */
function rotateInverse(q: ArrayLike<number>, v: Vec3Like, dst: Vec3): Vec3 {
  const a = vec3.set(-q[0], -q[1], -q[2], qu);
  const t = vec3.scale(vec3.cross(a, v, qt), 2, qt);
  const w = q[3];
  const x = v[0] + w * t[0];
  const y = v[1] + w * t[1];
  const z = v[2] + w * t[2];
  dst[0] = x + (a[1] * t[2] - a[2] * t[1]);
  dst[1] = y + (a[2] * t[0] - a[0] * t[2]);
  dst[2] = z + (a[0] * t[1] - a[1] * t[0]);
  return dst;
}

export const quat = { rotateInverse };
