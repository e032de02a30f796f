// The README's buffer-layout tables are generated from shaders/*.wgsl (scripts/readme-layouts.ts):
// this fails when they are out of date, and checks the offsets they show against the host's own
// reflected layouts (LAYOUT_2D, LAYOUT_3D, CONTACTS_LAYOUT_2D/3D), which the packers and kernels use.

import { describe, expect, it } from 'vitest';
import { CONTACTS_LAYOUT_2D } from '../src/cpu/contact-list2d.ts';
import { CONTACTS_LAYOUT_3D } from '../src/cpu/contact-list3d.ts';
import { LAYOUT_2D } from '../src/layout2d.ts';
import { LAYOUT_3D } from '../src/layout3d.ts';
import { BEGIN, END, updateReadme } from '../scripts/readme-layouts.ts';
import { readme } from './helpers/readme.ts';

/** struct → field → byte offset, and struct → size, as the README's generated tables show them. */
function readmeTables(text: string): {
  offsets: Map<string, Map<string, number>>;
  sizes: Map<string, number>;
} {
  const section = text.slice(text.indexOf(BEGIN), text.indexOf(END));
  const offsets = new Map<string, Map<string, number>>();
  const sizes = new Map<string, number>();
  let current: Map<string, number> | null = null;
  for (const line of section.split('\n')) {
    const head = /^`(\w+)`: (\d+) bytes/.exec(line);
    if (head) {
      offsets.set(head[1]!, (current = new Map()));
      sizes.set(head[1]!, Number(head[2]));
      continue;
    }
    const row = /^\| (\d+) \| \d+ \| `(\w+)` \|/.exec(line);
    if (row && current) current.set(row[2]!, Number(row[1]));
  }
  return { offsets, sizes };
}

describe('README buffer layouts', () => {
  it('are what scripts/readme-layouts.ts generates from the WGSL (run it after editing a layout)', () => {
    const text = readme();
    expect(text).toContain(BEGIN);
    expect(
      updateReadme(text) === text,
      'README.md layout tables are out of date: node --import tsx scripts/readme-layouts.ts',
    ).toBe(true);
  });

  it('show the offsets the host packs and unpacks with', () => {
    const { offsets, sizes } = readmeTables(readme());
    const bytes = (struct: string, field: string): number | undefined =>
      offsets.get(struct)?.get(field);
    const expectFields = (struct: string, words: Record<string, number>, size: number): void => {
      expect(sizes.get(struct), struct).toBe(size);
      for (const [field, word] of Object.entries(words))
        expect(bytes(struct, field), `${struct}.${field}`).toBe(4 * word);
    };
    const L = LAYOUT_2D;
    const { words: shape2Words, vertexStride: _stride, ...shape2Fields } = L.shape;
    expectFields('Shape2D', shape2Fields, 4 * shape2Words);
    expectFields(
      'Body2D',
      {
        position: L.body.position,
        rotation: L.body.rotation,
        shape: L.body.shape,
        flags: L.body.flags,
      },
      4 * L.body.words,
    );
    expectFields(
      'Manifold2D',
      {
        normal: L.manifold.normal,
        count: L.manifold.count,
        flags: L.manifold.flags,
        points: L.manifold.points,
      },
      4 * L.manifold.words,
    );
    expectFields(
      'ManifoldPoint2D',
      { position: L.manifold.pointPosition, depth: L.manifold.pointDepth, id: L.manifold.pointId },
      4 * L.manifold.pointStride,
    );
    const M = LAYOUT_3D;
    const { words: shapeWords, ...shapeFields } = M.shape;
    expectFields('Shape3D', shapeFields, 4 * shapeWords);
    expectFields(
      'Body3D',
      { position: M.body.position, shape: M.body.shape, rotation: M.body.rotation },
      4 * M.body.words,
    );
    expectFields(
      'Manifold3D',
      {
        normal: M.manifold.normal,
        count: M.manifold.count,
        kind: M.manifold.kind,
        points: M.manifold.points,
        ids: M.manifold.ids,
      },
      4 * M.manifold.words,
    );
    expectFields(
      'ManifoldPoint3D',
      { position: M.manifold.pointPosition, depth: M.manifold.pointDepth },
      4 * M.manifold.pointStride,
    );
    const C = CONTACTS_LAYOUT_2D;
    expectFields(
      'ContactManifold2D',
      {
        bodyA: C.contact.bodyA,
        bodyB: C.contact.bodyB,
        previous: C.contact.previous,
        matched: C.contact.matched,
        manifold: C.contact.manifold,
      },
      C.contact.bytes,
    );
    expectFields('ContactUserValues2D', { points: C.userValues.points }, C.userValues.bytes);
    expectFields(
      'ContactCounts',
      { total: C.counts.total, written: C.counts.written, overflow: C.counts.overflow },
      C.counts.bytes,
    );
    const D = CONTACTS_LAYOUT_3D;
    expectFields(
      'ContactManifold3D',
      {
        bodyA: D.contact.bodyA,
        bodyB: D.contact.bodyB,
        previous: D.contact.previous,
        matched: D.contact.matched,
        manifold: D.contact.manifold,
      },
      D.contact.bytes,
    );
    expectFields('ContactUserValues3D', { points: D.userValues.points }, D.userValues.bytes);
  });
});
