// The kind tables (src/shape-kinds2d.ts, shape-kinds3d.ts): ids dense and in the order the names
// list them, each row building a shape of its own id, and the pair classes the tables give equal
// to the rule written out (a kind's class by its name, numbers outside the table as before).
import { describe, expect, it } from 'vitest';
import { SHAPE_KIND_3D } from '../src/constants3d.ts';
import { pairClass2D } from '../src/gpu/pair-classes2d.ts';
import { pairClass3D } from '../src/gpu/pair-classes3d.ts';
import { SHAPE_KIND_2D, SHAPE_KIND_LIST_2D, SHAPE_TYPE_NAMES_2D } from '../src/shape-kinds2d.ts';
import { SHAPE_KIND_LIST_3D, SHAPE_TYPE_NAMES_3D } from '../src/shape-kinds3d.ts';
import { makeShape2D, type Shape2DInput } from '../src/shapes2d.ts';
import { makeShape3D, type Shape3DInput } from '../src/shapes3d.ts';

const ONE_2D: Record<Shape2DInput['type'], Shape2DInput> = {
  polygon: {
    type: 'polygon',
    vertices: [
      [0, 0],
      [1, 0],
      [0, 1],
    ],
  },
  box: { type: 'box', halfExtents: [1, 2] },
  circle: { type: 'circle', radius: 1 },
  capsule: { type: 'capsule', a: [0, 0], b: [1, 0], radius: 0.5 },
};
const ONE_3D: Record<Shape3DInput['type'], Shape3DInput> = {
  hull: {
    type: 'hull',
    vertices: [
      [0, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
  },
  box: { type: 'box', halfExtents: [1, 2, 3] },
  sphere: { type: 'sphere', radius: 1 },
  capsule: { type: 'capsule', a: [0, 0, 0], b: [1, 0, 0], radius: 0.5 },
};

describe('shape kind tables', () => {
  it('2D: ids 0..n-1 in name order; each row builds its own kind', () => {
    expect(SHAPE_TYPE_NAMES_2D).toEqual(Object.keys(SHAPE_KIND_2D));
    SHAPE_TYPE_NAMES_2D.forEach((name, id) => {
      expect(SHAPE_KIND_2D[name]).toBe(id);
      expect(SHAPE_KIND_LIST_2D[id]!.id).toBe(id);
      expect(makeShape2D(ONE_2D[name], 0).kind).toBe(id);
    });
  });

  it('3D: ids 0..n-1 in name order; each row builds its own kind', () => {
    expect(SHAPE_TYPE_NAMES_3D).toEqual(Object.keys(SHAPE_KIND_3D));
    SHAPE_TYPE_NAMES_3D.forEach((name, id) => {
      expect(SHAPE_KIND_3D[name]).toBe(id);
      expect(SHAPE_KIND_LIST_3D[id]!.id).toBe(id);
      expect(makeShape3D(ONE_3D[name], 0).kind).toBe(id);
    });
  });

  it('pair classes: the rule by kind, numbers outside the table included', () => {
    const kinds = [0, 1, 2, 3, 7];
    const circle = (k: number): boolean => k === SHAPE_KIND_2D.circle;
    const hull = (k: number): boolean => k === SHAPE_KIND_3D.hull || k === SHAPE_KIND_3D.box;
    const box = (k: number): boolean => k === SHAPE_KIND_3D.box;
    for (const a of kinds) {
      for (const b of kinds) {
        expect(pairClass2D(a, b)).toBe(circle(a) || circle(b) ? 'circles' : 'polygons');
        const c3 =
          box(a) && box(b)
            ? 'boxBox'
            : hull(a) && hull(b)
              ? 'hullHull'
              : hull(a) || hull(b)
                ? 'roundHull'
                : 'roundRound';
        expect(pairClass3D(a, b)).toBe(c3);
      }
    }
  });
});
