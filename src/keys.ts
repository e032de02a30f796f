// Strict scene JSON: an object's keys must be ones the format knows. A key it does not know is an
// error naming the object and the key, never ignored, because an ignored key falls back to a
// default without a word: a typo ("halfExtent"), a 3D body's "rotation" on a 2D body (which then
// lies at angle 0) or a "radius" on a 3D box (3D hulls are not rounded) would all collide
// silently as something other than what was written.

import { InputError } from './errors.ts';

/** Keys one kind of object takes, and what to say of keys it is commonly given by mistake. */
export interface KeySet {
  /** The object as an error names it after the path, e.g. "a 2D body". */
  what: string;
  keys: readonly string[];
  /** Per known-wrong key, the sentence that says what to write instead. */
  hints?: Readonly<Record<string, string>>;
}

/**
 * Throws an InputError at `where` for the first own key of `obj` that `set` does not list;
 * `field` names a nested object in the message (e.g. "filter." for a shape's filter).
 */
export function checkKeys(where: string, obj: object, set: KeySet, field = ''): void {
  for (const key in obj) {
    if (!Object.hasOwn(obj, key) || set.keys.includes(key)) continue;
    const hint = set.hints?.[key];
    throw new InputError(
      where,
      `unknown key ${JSON.stringify(field + key)}${hint ? ` (${hint})` : ''}; ${set.what} takes ${set.keys.join(', ')}`,
    );
  }
}
