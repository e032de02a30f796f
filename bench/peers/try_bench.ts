import { createPlanckPeer, type PeerShape2D } from './planck2d.ts';
import { createBox2dWasmPeer } from './box2dwasm2d.ts';

let seed = 12345;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
function ngon(n: number): PeerShape2D {
  const angs = Array.from({ length: n }, (_, i) => (2 * Math.PI * (i + 0.2 + 0.6 * rnd())) / n);
  return { type: 'polygon', vertices: angs.map((a) => [Math.cos(a) * 0.5, Math.sin(a) * 0.5] as [number, number]) };
}
function scene(kind: 'box' | 'ngon', nPairs: number) {
  const shapes: PeerShape2D[] = kind === 'box' ? [{ type: 'box', halfExtents: [0.5, 0.5] }] : Array.from({ length: 64 }, () => ngon(8));
  const bodies = new Float64Array(8 * nPairs);
  const pairs = new Uint32Array(2 * nPairs);
  for (let i = 0; i < nPairs; i++) {
    const x = rnd() * 1000, y = rnd() * 1000;
    const d = 0.6 + 0.35 * rnd(), t = rnd() * 2 * Math.PI;
    bodies.set([x, y, rnd() * 6.28, Math.floor(rnd() * shapes.length), x + d * Math.cos(t), y + d * Math.sin(t), rnd() * 6.28, Math.floor(rnd() * shapes.length)], 8 * i);
    pairs[2 * i] = 2 * i; pairs[2 * i + 1] = 2 * i + 1;
  }
  return { shapes, bodies, pairs };
}
for (const kind of ['box', 'ngon'] as const) {
  const s = scene(kind, 200000);
  for (const mk of [() => createPlanckPeer(s.shapes), () => createBox2dWasmPeer(s.shapes)]) {
    const peer = await mk();
    let best = 0, touching = 0;
    for (let r = 0; r < 8; r++) {
      const t0 = performance.now();
      touching = peer.collideBatch(s.bodies, s.pairs);
      const dt = (performance.now() - t0) / 1000;
      best = Math.max(best, 200000 / dt);
    }
    console.log(`${peer.name} ${kind}: ${(best / 1e6).toFixed(2)} M pairs/s (touching ${touching}/200000)`);
  }
}
