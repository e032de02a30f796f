// Lines the GPU's dense contact list (touching manifolds by body pair) up with the broadphase's
// pairs, so it compares slot by slot with the CPU reference's one manifold per pair: a pair
// missing from the list has no points; list entries for pairs not among them are counted apart.

import type { ManifoldJson } from '../src/pack2d.ts';

export interface ListEntry {
  bodyA: number;
  bodyB: number;
  normal: number[];
  points: { position: number[]; depth: number; id: number }[];
}

export function alignListWithPairs(
  pairs: Uint32Array,
  entries: readonly ListEntry[],
  dim: 2 | 3,
): { manifolds: ManifoldJson[]; stray: number } {
  const byPair = new Map<string, ListEntry>();
  for (const e of entries) byPair.set(`${e.bodyA},${e.bodyB}`, e);
  let listed = 0;
  const manifolds: ManifoldJson[] = [];
  for (let k = 0; k < pairs.length / 2; k++) {
    const pair: [number, number] = [pairs[2 * k]!, pairs[2 * k + 1]!];
    const e = byPair.get(`${pair[0]},${pair[1]}`);
    if (e) listed++;
    manifolds.push(
      e
        ? {
            pair,
            normal: e.normal,
            points: e.points.map((p) => ({ position: p.position, depth: p.depth, id: p.id })),
          }
        : { pair, normal: new Array<number>(dim).fill(0), points: [] },
    );
  }
  return { manifolds, stray: byPair.size - listed };
}

/** A few mismatches in words, the stray entries first. */
export function describeMismatches(
  pairs: Uint32Array,
  mismatches: readonly { index: number; reason: string }[],
  stray: number,
): string[] {
  const out = mismatches
    .slice(0, 8)
    .map((m) =>
      m.index >= 0 ? `pair ${pairs[2 * m.index]},${pairs[2 * m.index + 1]}: ${m.reason}` : m.reason,
    );
  if (stray > 0)
    out.unshift(`${stray} contact-list entries for pairs the broadphase did not report`);
  return out;
}
