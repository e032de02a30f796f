// splitNearTies2D (src/validity2d.ts), which the CLI's `validate` uses to count 2D near-ties apart:
// a mismatch is a near-tie only when both manifolds pass the independent validity check.

import { describe, expect, it } from 'vitest';
import { collidePacked2D, prepareCpu2D } from '../src/cpu/narrowphase2d.ts';
import { packScene2D, unpackManifolds2D, type ManifoldJson } from '../src/pack2d.ts';
import { parseScene, type SceneJson2D } from '../src/scene.ts';
import { splitNearTies2D } from '../src/validity2d.ts';

// Two unit boxes, B 0.9 above A: a face contact, normal +y, depth 0.1, two points.
// Two boxes apart by 1 (B at y = 2): no contact.
const scene: SceneJson2D = {
  dim: 2,
  margin: 0.02,
  shapes: [{ type: 'box', halfExtents: [0.5, 0.5] }],
  bodies: [
    { shape: 0, position: [0, 0], angle: 0 },
    { shape: 0, position: [0.2, 0.9], angle: 0 },
    { shape: 0, position: [0, 2], angle: 0 },
  ],
  pairs: [
    [0, 1],
    [0, 2],
  ],
};

function reference(): ManifoldJson[] {
  const parsed = parseScene(scene);
  const packed = packScene2D(parsed, parsed.pairs!);
  return unpackManifolds2D(
    collidePacked2D(prepareCpu2D(packed, parsed.shapes.length), packed),
    parsed.pairs!,
    false,
  );
}

describe('splitNearTies2D', () => {
  it('counts a mismatch as a near-tie only when both manifolds are valid', () => {
    const a = reference();
    expect(a[0]!.points.length).toBe(2);
    expect(a[1]!.points.length).toBe(0);
    // Same contact with its two points listed in the other order: valid, differs from a.
    const swapped: ManifoldJson = { ...a[0]!, points: [a[0]!.points[1]!, a[0]!.points[0]!] };
    // A normal along x for a contact along y: invalid.
    const wrongNormal: ManifoldJson = { ...a[0]!, normal: [1, 0] };
    // A point claimed where the boxes are 1 apart: invalid.
    const phantom: ManifoldJson = {
      pair: [0, 2],
      normal: [0, 1],
      points: [{ position: [0, 1], depth: 0.1, id: 0 }],
    };
    const mismatches = [{ index: 0, reason: 'order' }];
    expect(splitNearTies2D(scene, a, [swapped, a[1]!], mismatches)).toEqual({
      nearTies: mismatches,
      unexplained: [],
    });
    expect(splitNearTies2D(scene, a, [wrongNormal, a[1]!], mismatches)).toEqual({
      nearTies: [],
      unexplained: mismatches,
    });
    const second = [{ index: 1, reason: 'count' }];
    expect(splitNearTies2D(scene, a, [a[0]!, phantom], second)).toEqual({
      nearTies: [],
      unexplained: second,
    });
    // A mismatch naming no pair is never explained away.
    expect(splitNearTies2D(scene, a, a, [{ index: -1, reason: 'length' }]).unexplained.length).toBe(
      1,
    );
  });
});
