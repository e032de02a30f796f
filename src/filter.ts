// Collision filtering, Box2D's category and mask bits: a shape is in the categories set in its
// `categoryBits` and meets the categories set in its `maskBits`; the broadphases (host sweep and
// prune, GPU) report a pair of bodies only when each one's shape is in a category the other's
// meets: (A.categoryBits & B.maskBits) != 0 and (B.categoryBits & A.maskBits) != 0. 32 bits each.
// A filter belongs to a shape, so every body using the shape has it: give bodies that must filter
// differently shapes of their own (shape entries are small). Pairs the caller lists itself are
// not filtered. The WGSL twin is bpShouldCollide in shaders/broadphase.wgsl.

import { InputError, shown } from './errors.ts';
import { checkKeys } from './keys.ts';

/** A shape's filter, as given in a scene's JSON (both fields optional). */
export interface ShapeFilterInput {
  /** Categories the shape is in; default DEFAULT_CATEGORY_BITS. */
  categoryBits?: number;
  /** Categories the shape collides with; default DEFAULT_MASK_BITS. */
  maskBits?: number;
}

/** Box2D's defaults: in category 1, colliding with every category, so by default every pair is kept. */
export const DEFAULT_CATEGORY_BITS = 0x1;
export const DEFAULT_MASK_BITS = 0xffffffff;

function bits(where: string, what: string, x: unknown, fallback: number): number {
  if (x === undefined) return fallback;
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 0xffffffff) {
    throw new InputError(
      where,
      `filter.${what} must be an integer from 0 to 0xffffffff (32 bits), got ${shown(x)}`,
    );
  }
  return x;
}

/** The category and mask bits of a shape input's optional `filter`, checked, with the defaults. */
export function readFilter(
  where: string,
  filter: unknown,
): { categoryBits: number; maskBits: number } {
  if (filter === undefined)
    return { categoryBits: DEFAULT_CATEGORY_BITS, maskBits: DEFAULT_MASK_BITS };
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new InputError(
      where,
      `filter must be an object { categoryBits?, maskBits? }, got ${JSON.stringify(filter)}`,
    );
  }
  checkKeys(where, filter, { what: 'a filter', keys: ['categoryBits', 'maskBits'] }, 'filter.');
  const f = filter as ShapeFilterInput;
  return {
    categoryBits: bits(where, 'categoryBits', f.categoryBits, DEFAULT_CATEGORY_BITS),
    maskBits: bits(where, 'maskBits', f.maskBits, DEFAULT_MASK_BITS),
  };
}

/** Whether shapes with these filters may collide (the test both broadphases apply). */
export function shouldCollide(
  categoryA: number,
  maskA: number,
  categoryB: number,
  maskB: number,
): boolean {
  return (categoryA & maskB) !== 0 && (categoryB & maskA) !== 0;
}
