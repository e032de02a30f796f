// The vector ops of the 3D CPU reference (src/cpu/vec3.ts) on worked numbers: each writes dst and
// returns it, may write over its own input, and evaluates its components in the order its body
// writes them (the reference's bytes depend on it).

import { describe, expect, it } from 'vitest';
import { mat3, quat, vec3 } from '../src/cpu/vec3.ts';

describe('vec3', () => {
  it('adds, subtracts, scales, crosses and measures on worked numbers', () => {
    const a = vec3.create(1, 2, 3);
    const b = vec3.create(4, -5, 6);
    const d = vec3.create();
    expect(Array.from(vec3.add(a, b, d))).toEqual([5, -3, 9]);
    expect(Array.from(vec3.sub(a, b, d))).toEqual([-3, 7, -3]);
    expect(Array.from(vec3.scale(a, 2, d))).toEqual([2, 4, 6]);
    expect(Array.from(vec3.divScalar(b, 2, d))).toEqual([2, -2.5, 3]);
    expect(Array.from(vec3.addScaled(a, b, 0.5, d))).toEqual([3, -0.5, 6]);
    expect(Array.from(vec3.lerp(a, b, 0.5, d))).toEqual([2.5, -1.5, 4.5]);
    expect(Array.from(vec3.midpoint(a, b, d))).toEqual([2.5, -1.5, 4.5]);
    expect(vec3.dot(a, b)).toBe(12);
    // x × y = z, and (1, 2, 3) × (4, -5, 6) = (2·6 − 3·(−5), 3·4 − 1·6, 1·(−5) − 2·4).
    expect(Array.from(vec3.cross(vec3.create(1, 0, 0), vec3.create(0, 1, 0), d))).toEqual([
      0, 0, 1,
    ]);
    expect(Array.from(vec3.cross(a, b, d))).toEqual([27, 6, -13]);
    expect(vec3.length(vec3.create(2, 3, 6))).toBe(7);
    expect(vec3.hypot(vec3.create(2, 3, 6))).toBe(7);
  });

  it('writes over its own input: every op reads all of it first', () => {
    const a = vec3.create(1, 2, 3);
    vec3.cross(a, vec3.create(4, -5, 6), a);
    expect(Array.from(a)).toEqual([27, 6, -13]);
    const m = Float64Array.of(0, -1, 0, 1, 0, 0, 0, 0, 1);
    const v = vec3.create(1, 2, 3);
    expect(Array.from(mat3.mulVec(m, v, v))).toEqual([-2, 1, 3]);
    expect(Array.from(mat3.transposeMulVec(m, v, v))).toEqual([1, 2, 3]);
  });

  it('loads and stores vectors of flat buffers', () => {
    const buf = Float64Array.of(9, 9, 1, 2, 3, 9);
    const v = vec3.load(buf, 2, vec3.create());
    expect(Array.from(v)).toEqual([1, 2, 3]);
    vec3.store(vec3.negate(v, v), buf, 0);
    expect(Array.from(buf)).toEqual([-1, -2, -3, 2, 3, 9]);
  });

  it('sums in the order the body writes: (a0 b0 + a1 b1) + a2 b2, not a0 b0 + (a1 b1 + a2 b2)', () => {
    // 1 + 1e16 rounds back to 1e16 before −1e16 is added; the other order gives 1.
    expect(vec3.dot(vec3.create(1, 1e16, -1e16), vec3.create(1, 1, 1))).toBe(0);
  });
});

describe('mat3 and quat', () => {
  it('a quarter turn about z: its matrix (row-major), and the inverse turn of a vector', () => {
    const s = Math.SQRT1_2;
    const q = [0, 0, s, s];
    const m = mat3.fromQuat(q, mat3.create());
    // Rows (0, -1, 0), (1, 0, 0), (0, 0, 1), to within the rounding of √½².
    const expected = [0, -1, 0, 1, 0, 0, 0, 0, 1];
    m.forEach((x, i) => expect(x).toBeCloseTo(expected[i]!, 15));
    const x = mat3.mulVec(m, vec3.create(1, 0, 0), vec3.create());
    expect(x[1]).toBeCloseTo(1, 15);
    // The inverse turn takes (0, 1, 0) back to (1, 0, 0).
    const back = quat.rotateInverse(q, vec3.create(0, 1, 0), vec3.create());
    [1, 0, 0].forEach((c, i) => expect(back[i]).toBeCloseTo(c, 15));
  });
});
