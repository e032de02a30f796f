// Private memory per invocation of each narrowphase pipeline, computed from its WGSL
// (scripts/private-bytes.ts: module-scope var<private> the entry point reaches, plus the deepest
// chain of function-scope arrays and structs; branches the class constants rule out do not
// count). On a real GPU an array indexed at run time lives in local memory, spilled through L1,
// and caps occupancy: each class must stay within its budget, and the README's table must be the
// computed one.
import { describe, expect, it } from 'vitest';
import { narrowphasePipelines, privateBytes, updateReadme } from '../scripts/private-bytes.ts';
import { readme } from './helpers/readme.ts';

/** Bytes per invocation each pipeline may hold, and why that much. */
const PRIVATE_BYTES_BUDGET: Record<string, number> = {
  // Every path, the tests' reference: the hull–hull class's arrays.
  '3D general': 9216,
  // Boxes: the register clip, the fallback clip's 2 × 19 points and 19 candidates, the local manifold.
  '3D boxBox': 2048,
  // GJK's simplex and the local manifold: the closest points of boxes apart, a pass of its own.
  '3D boxBox closest pass': 768,
  // collide()'s: the register clip's 2 × 8 points and 8 candidates, the local manifold.
  '3D boxBox (on demand)': 1280,
  // GJK's simplex, and the contacts that kernel leaves to it: the fallback clip's 2 × 19 points
  // and 19 candidates.
  '3D boxBox closest pass (on demand)': 2048,
  // The SAT of hulls of up to 126 edges: 3 lists of B's edges (4.5 KiB).
  '3D hullHull': 6144,
  // 32-gon faces clipped by 32 planes (2 × 64 points) and their candidates.
  '3D hullHull contact pass': 4608,
  // GJK's simplex and the local manifold: the closest points of hulls apart, a pass of its own.
  '3D hullHull closest pass': 768,
  // No arrays but the local manifold and a few structs.
  '3D roundHull': 768,
  '3D roundRound': 768,
  // Two Shape2D copies (8 vertices and normals each) and the manifold.
  '2D general': 512,
  '2D polygons': 512,
  '2D circles': 512,
};

describe('private bytes per invocation', () => {
  const pipelines = narrowphasePipelines();

  it('every pipeline has a budget', () => {
    expect(pipelines.map((p) => `${p.dim} ${p.kernel}`).sort()).toEqual(
      Object.keys(PRIVATE_BYTES_BUDGET).sort(),
    );
  });

  for (const p of pipelines) {
    const name = `${p.dim} ${p.kernel}`;
    it(`${name}: within ${PRIVATE_BYTES_BUDGET[name]} bytes`, () => {
      const r = privateBytes(p.code, p.entry);
      console.log(
        `${name}: ${r.total} bytes; module ${JSON.stringify(r.module)}; chain ${JSON.stringify(r.chain)}`,
      );
      expect(r.total).toBeLessThanOrEqual(PRIVATE_BYTES_BUDGET[name]!);
      expect(r.total).toBeGreaterThan(0);
    });
  }

  it('the classes hold only the arrays their shapes reach', () => {
    const bytes = Object.fromEntries(
      pipelines.map((p) => [`${p.dim} ${p.kernel}`, privateBytes(p.code, p.entry)]),
    );
    // Box pairs never reach the hull edge lists; round pairs neither those nor the clip buffers.
    expect(Object.keys(bytes['3D boxBox']!.module)).not.toContain('candEdgeB');
    for (const k of ['3D roundHull', '3D roundRound']) {
      expect(Object.keys(bytes[k]!.module).sort()).toEqual(['lm', 'workingFrame']);
    }
    expect(bytes['3D boxBox']!.module['clipBuffer']).toBe(2 * 19 * 16);
    // collide()'s box kernel clips in registers alone; its closest pass holds the fallback clip.
    expect(bytes['3D boxBox (on demand)']!.module['clipBuffer']).toBe(2 * 8 * 16);
    expect(bytes['3D boxBox closest pass (on demand)']!.module['clipBuffer']).toBe(2 * 19 * 16);
    expect(Object.keys(bytes['3D boxBox closest pass']!.module)).not.toContain('clipBuffer');
    // Hull pairs: the SAT's edge lists in the class kernel, the clip buffers in its contact pass.
    expect(Object.keys(bytes['3D hullHull']!.module)).not.toContain('clipBuffer');
    expect(bytes['3D hullHull contact pass']!.module['clipBuffer']).toBe(2 * 64 * 16);
    expect(Object.keys(bytes['3D hullHull contact pass']!.module)).not.toContain('candEdgeB');
    // The analysis sees the constants: with every branch taken the box class would hold the lists.
    expect(bytes['3D general']!.module['candNormal0B']).toBe(126 * 16);
  });

  it('README.md shows the computed table', () => {
    const text = readme();
    expect(
      updateReadme(text) === text,
      'README.md private-bytes table is out of date: node --import tsx scripts/private-bytes.ts',
    ).toBe(true);
  });
});
