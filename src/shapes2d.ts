// 2D shapes as a scene gives them (JSON-friendly) and makeShape2D, which builds the one internal
// form (src/polygon2d.ts) through the kind table (src/shape-kinds2d.ts). Validation happens here,
// on the host, and names the shape's index and the reason; nothing invalid reaches either backend.

import { InputError } from './errors.ts';
import { readFilter, type ShapeFilterInput } from './filter.ts';
import { checkKeys } from './keys.ts';
import { emptyShape2D, type Shape2D, type Vec2 } from './polygon2d.ts';
import { SHAPE_TYPE_NAMES_2D, shapeKindOfType2D } from './shape-kinds2d.ts';

export { emptyShape2D, readVec2, setPolygon, type Shape2D, type Vec2 } from './polygon2d.ts';
export { SHAPE_KIND_2D } from './shape-kinds2d.ts';

/** A 2D shape as a scene gives it; `filter`: its collision filter (src/filter.ts). */
export type Shape2DInput = (
  | { type: 'polygon'; vertices: Vec2[]; radius?: number }
  | { type: 'box'; halfExtents: Vec2; radius?: number }
  | { type: 'circle'; radius: number; center?: Vec2 }
  | { type: 'capsule'; a: Vec2; b: Vec2; radius: number }
) & { filter?: ShapeFilterInput };

/** Validates one user shape (index `index` in the scene) and builds its internal form. */
export function makeShape2D(
  input: Shape2DInput,
  index: number,
  out: Shape2D = emptyShape2D(),
): Shape2D {
  const path = `shapes[${index}]`;
  if (typeof input !== 'object' || input === null)
    throw new InputError(path, 'must be an object with a "type"');
  const kindName = (input as { type?: unknown }).type;
  const where = `${path} (${String(kindName)})`;
  const kind = shapeKindOfType2D(kindName);
  if (kind) checkKeys(where, input, kind.keys);
  const filter = readFilter(where, input.filter);
  out.categoryBits = filter.categoryBits;
  out.maskBits = filter.maskBits;
  if (!kind)
    throw new InputError(
      where,
      `unknown shape type; 2D types are ${SHAPE_TYPE_NAMES_2D.join(', ')}`,
    );
  kind.build(input, where, out);
  return out;
}
