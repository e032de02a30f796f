import { createPlanckPeer, emptyPeerManifold, type PeerShape2D } from './planck2d.ts';
import { createBox2dWasmPeer, loadBox2D } from './box2dwasm2d.ts';

const shapes: PeerShape2D[] = [
  { type: 'box', halfExtents: [1, 1] },
  { type: 'box', halfExtents: [1.5, 1] },
  { type: 'circle', radius: 0.5 },
  { type: 'capsule', a: [-1, 0], b: [1, 0], radius: 0.25 },
  { type: 'polygon', vertices: [[0, 0], [1, 0], [0, 1]], radius: 0.1 },
];
const out = emptyPeerManifold();
const show = (t: string) => console.log(t, JSON.stringify(out));
for (const skin of [0, 0.01]) {
  const p = createPlanckPeer(shapes, { skin });
  const b = await createBox2dWasmPeer(shapes, { skin });
  for (const peer of [p, b]) {
    console.log(`--- ${peer.name} skin ${skin}`);
    peer.collide(0, [0, 0], 0, 0, [0, 1.9], 0, out); show('box/box overlap .1');
    peer.collide(0, [0, 0], 0, 1, [0, 1.9], 0, out); show('box/widebox overlap .1');
    peer.collide(1, [0, 1.9], 0, 0, [0, 0], 0, out); show('widebox/box (B below)');
    peer.collide(0, [0, 0], 0, 2, [0, 1.4], 0, out); show('box/circle overlap .1');
    peer.collide(2, [0, 1.4], 0, 0, [0, 0], 0, out); show('circle/box');
    peer.collide(0, [0, 0], 0, 3, [0, 1.15], 0, out); show('box/capsule overlap .1');
    peer.collide(3, [0, 1.15], 0, 0, [0, 0], 0, out); show('capsule/box');
    peer.collide(3, [0, 1.15], 0, 3, [0, 0], 0, out); show('capsule/capsule');
    peer.collide(0, [0, 0], 0, 4, [-0.5, 0.95], 0, out); show('box/rounded tri (r .1, overlap .15)');
  }
}
const B = await loadBox2D();
console.log(String(B._emscripten_bind_b2CollidePolygons_5).slice(0, 60));
