// The number checks the shape checks share (src/checkshapes.ts): each throws an InputError naming
// the shape and the field, so a hand-built shape is refused as a bad JSON shape is.

import { SHAPE_CHECK_RELATIVE } from './constants.ts';
import { InputError, finiteNumber, shown } from './errors.ts';

export function fail(where: string, reason: string): never {
  throw new InputError(where, reason);
}

export function count(where: string, what: string, x: unknown, lo: number, hi: number): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < lo || x > hi)
    fail(where, `${what} must be an integer from ${lo} to ${hi}, got ${shown(x)}`);
  return x;
}

// Entry i of an array, checked as `finite` and `count` check (the name is only built on failure:
// these run once per number of every shape packed).
export function finiteAt(
  where: string,
  name: string,
  a: ArrayLike<number>,
  i: number,
  limit: number,
): number {
  const x = a[i];
  return typeof x === 'number' && Number.isFinite(x) && Math.abs(x) <= limit
    ? x
    : finiteNumber(where, `${name}[${i}]`, x, limit);
}

export function countAt(
  where: string,
  name: string,
  a: ArrayLike<number>,
  i: number,
  lo: number,
  hi: number,
): number {
  const x = a[i];
  return typeof x === 'number' && Number.isInteger(x) && x >= lo && x <= hi
    ? x
    : count(where, `${name}[${i}]`, x, lo, hi);
}

/** `a` has at least `n` entries (typed arrays and plain arrays alike). */
export function entries(where: string, what: string, a: unknown, n: number): ArrayLike<number> {
  const len = (a as { length?: unknown } | null | undefined)?.length;
  if (typeof len !== 'number' || len < n)
    fail(where, `${what} must hold at least ${n} numbers, got ${shown(len ?? a)}`);
  return a as ArrayLike<number>;
}

/** `x` equals `want` within SHAPE_CHECK_RELATIVE × scale. */
export function near(x: number, want: number, scale: number): boolean {
  return Math.abs(x - want) <= SHAPE_CHECK_RELATIVE * scale;
}
