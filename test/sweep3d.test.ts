// Seeded random sweeps of the 3D CPU reference over every pair type, mixing random and nearly
// aligned poses. Every manifold must be valid (unit normal, <= 4 points, each point's implied
// points on A and B on the two surfaces), swapping A and B must mirror it, and coverage guards
// assert that each contact type (face A, face B, edge–edge, vertex, closest points, parallel
// capsules) was produced many times, so the sweep cannot pass by exercising one path only.

import { describe, expect, it } from 'vitest';
import { collide3D } from '../src/cpu/collide3d.ts';
import { CONTACT_KIND_3D, emptyManifold3D } from '../src/cpu/manifold3d.ts';
import { checkManifold3D } from '../src/validity3d.ts';
import { COPLANAR_RELATIVE_3D } from '../src/constants3d.ts';
import { SWEEP_KINDS_3D as TYPES, sweepPairs3D } from './helpers/sweep3d.ts';

describe('random sweeps', () => {
  it('every pair type: valid manifolds, A/B symmetry, and every contact type many times', () => {
    const m = emptyManifold3D();
    const w = emptyManifold3D();
    const kinds = new Map<string, number>();
    const bump = (k: string): void => void kinds.set(k, (kinds.get(k) ?? 0) + 1);
    const failures: string[] = [];
    // Off-surface points: the vertex fallback of a face contact whose incident face clips to nothing
    // projects the deepest vertex on the reference plane, which can lie just beside the face.
    const offSurface: string[] = [];
    let contacts = 0;
    let i = -1;
    for (const { ta, tb, a, b, xa, xb, margin } of sweepPairs3D(2024, 12000)) {
      i++;
      collide3D(a, xa, b, xb, margin, m);
      if (m.count === 0) continue;
      contacts++;
      const scale = Math.min(a.extent, b.extent);
      // Merged hull faces are flat within COPLANAR_RELATIVE_3D. A capsule clipped against a face
      // gets its points at (clip point on the core) - r n: for a tilted capsule that point lies
      // between the core and the surface (up to r inside), the usual clipped-capsule
      // approximation (Box2D's too), so capsule pairs are held to "within the radius".
      const capR = Math.max(ta === 'capsule' ? a.radius : 0, tb === 'capsule' ? b.radius : 0);
      const tol = COPLANAR_RELATIVE_3D * 4 * scale + capR;
      const problem = checkManifold3D(m, a, xa, b, xb, tol);
      if (problem) offSurface.push(`${ta}-${tb} #${i}: ${problem}`);
      for (let k = 0; k < m.count; k++)
        if (!(m.depths[k]! >= -margin - 1e-9 * scale))
          failures.push(`${ta}-${tb} #${i}: depth ${m.depths[k]} beyond margin`);
      // Swapping A and B mirrors the manifold (same point set, negated normal, swapped id halves)
      // unless the pair is a near-tie where the hysteresis favours whichever is A.
      collide3D(b, xb, a, xa, margin, w);
      const same =
        w.count === m.count &&
        Math.abs(w.normal[0]! + m.normal[0]!) +
          Math.abs(w.normal[1]! + m.normal[1]!) +
          Math.abs(w.normal[2]! + m.normal[2]!) <
          1e-9;
      if (same) {
        const ids = new Set(Array.from(m.ids.subarray(0, m.count)));
        for (let k = 0; k < w.count; k++) {
          const id = w.ids[k]!;
          if (!ids.has(((id & 0xff) << 8) | (id >> 8)))
            failures.push(`${ta}-${tb} #${i}: swapped ids differ`);
        }
      } else bump('asymmetric (near-tie)');
      const kind = m.kind;
      bump(`${ta}-${tb}`);
      if (kind === CONTACT_KIND_3D.faceA || kind === CONTACT_KIND_3D.faceB) {
        if (ta !== 'sphere' && tb !== 'sphere' && ta !== 'capsule' && tb !== 'capsule')
          bump(m.count === 1 ? 'vertex' : kind === CONTACT_KIND_3D.faceA ? 'faceA' : 'faceB');
        else bump('round on face');
      } else if (kind === CONTACT_KIND_3D.edge) bump('edge');
      else if (kind === CONTACT_KIND_3D.closest) bump('closest');
      else if (kind === CONTACT_KIND_3D.parallel) bump('parallel');
    }
    console.log(
      `3D sweep: ${contacts} contacts; ${JSON.stringify(Object.fromEntries(kinds))}; off-surface: ${offSurface.length} ${offSurface.slice(0, 3).join(' | ')}`,
    );
    expect(offSurface.length).toBeLessThanOrEqual(0.001 * contacts);
    expect(failures.slice(0, 5)).toEqual([]);
    for (const k of ['faceA', 'faceB', 'edge', 'closest', 'round on face'])
      expect(kinds.get(k) ?? 0).toBeGreaterThan(100);
    expect(kinds.get('vertex') ?? 0).toBeGreaterThan(40);
    expect(kinds.get('parallel') ?? 0).toBeGreaterThan(10);
    for (const ta of TYPES)
      for (const tb of TYPES) expect(kinds.get(`${ta}-${tb}`) ?? 0).toBeGreaterThan(100);
    // Near-ties are rare.
    expect((kinds.get('asymmetric (near-tie)') ?? 0) / contacts).toBeLessThan(0.05);
  });
});
