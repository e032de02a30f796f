// Byte-identity hashes of the 3D hull builder and the 3D CPU reference, for refactors that must not
// change behaviour: run it before and after, and the hashes must match.
//
//   npx tsx scripts/hash3d/hashes.ts [--quick] [--tests] [--out FILE] [--check FILE]
//
// Sets (sha256 each, no GPU needed):
//   hulls:*   the packed hull buffers (f32, what both backends read) and the f64 shapes the builder
//             made, of the bench's shape pools and of every GPU-vs-CPU set;
//   packed:*  the CPU manifold buffer (collidePacked3D, f32 slots) of every GPU-vs-CPU set
//             (test/gpu-vs-cpu3d.test.ts, same generators and seeds) and of every bench scene;
//   f64:*     the same pairs through collide3D, every f64 word of the manifold (finer than the
//             f32 slots).
// --tests also runs the CPU-only 3D test files (sweep3d, coherence3d, agreement3d, collide3d,
// shapes3d, checkshapes) under ./vitest.config.ts, whose setup file hashes every collide3D and
// buildHull3D result the tests produce (test:<file>). --quick: smaller sets. --check FILE: exit 1
// when a hash differs from FILE's (a JSON object written by --out).

import { spawnSync } from 'node:child_process';
import { createHash, type Hash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIOS_3D, makeScene3D } from '../../bench/scenes3d.ts';
import { collide3D } from '../../src/cpu/collide3d.ts';
import { emptyManifold3D, type Transform3D } from '../../src/cpu/manifold3d.ts';
import { collidePacked3D, prepareCpu3D } from '../../src/cpu/narrowphase3d.ts';
import { LAYOUT_3D } from '../../src/layout3d.ts';
import { packScene3D, type Packed3D } from '../../src/pack3d.ts';
import { parseScene3D, type SceneJson3D } from '../../src/scene.ts';
import type { Shape3D } from '../../src/shapes3d.ts';
import {
  SWEEP_TYPES_3D,
  apartAtVerticesScene3D,
  coplanarTouchingScene3D,
  deepPenetrationScene3D,
  edgeOnFaceScene3D,
  featureOnFeatureScene3D,
  mixedSweepScene3D,
  nearRightAnglesScene3D,
  noisyAndThinScene3D,
  parallelFacesScene3D,
  roundOnRoundScene3D,
  scaledScene3D,
  sweepScene3D,
  type SweepType3D,
} from '../../test/helpers/random3d.ts';
import { hashManifold3D, hashShape3D } from './hash.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const option = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const hashes: Record<string, string> = {};
const digest = (h: Hash): string => h.digest('hex').slice(0, 32);
function record(name: string, value: string): void {
  hashes[name] = value;
  console.log(`${name.padEnd(44)} ${value}`);
}

function hullHash(packed: Packed3D, shapes: readonly Shape3D[]): string {
  const h = createHash('sha256');
  for (const b of [
    packed.shapes,
    packed.hullVertices,
    packed.hullPlanes,
    packed.hullFaces,
    packed.hullIndices,
  ]) {
    h.update(
      b instanceof ArrayBuffer
        ? new Uint8Array(b)
        : new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
    );
  }
  for (const s of shapes) hashShape3D(h, s);
  return digest(h);
}

/** collide3D over every pair of `packed`, as collidePacked3D runs it, hashing the f64 manifolds. */
function f64Hash(packed: Packed3D): string {
  const prepared = prepareCpu3D(packed);
  const B = LAYOUT_3D.body;
  const xf = (body: number): Transform3D => {
    const o = body * B.words;
    return {
      position: Float64Array.from(prepared.bodies.subarray(o + B.position, o + B.position + 3)),
      rotation: Float64Array.from(prepared.bodies.subarray(o + B.rotation, o + B.rotation + 4)),
    };
  };
  const m = emptyManifold3D();
  const h = createHash('sha256');
  const margin = Math.fround(packed.margin);
  for (let k = 0; k < packed.pairCount; k++) {
    const a = packed.pairs[2 * k]!;
    const b = packed.pairs[2 * k + 1]!;
    collide3D(
      prepared.shapes[prepared.bodyShape[a]!]!,
      xf(a),
      prepared.shapes[prepared.bodyShape[b]!]!,
      xf(b),
      margin,
      m,
    );
    hashManifold3D(h, m);
  }
  return digest(h);
}

function packedHash(packed: Packed3D): string {
  return digest(
    createHash('sha256').update(new Uint8Array(collidePacked3D(prepareCpu3D(packed), packed))),
  );
}

function scenePacked(scene: SceneJson3D): { packed: Packed3D; shapes: Shape3D[] } {
  const parsed = parseScene3D(scene);
  return { packed: packScene3D(parsed, parsed.pairs!), shapes: parsed.shapes };
}

function hashSet(name: string, scene: SceneJson3D): void {
  const { packed, shapes } = scenePacked(scene);
  record(`hulls:${name}`, hullHash(packed, shapes));
  record(`packed:${name}`, packedHash(packed));
  record(`f64:${name}`, f64Hash(packed));
}

// The GPU-vs-CPU sets, with the test's seeds and sizes.
const sweep = quick ? 5_000 : 50_000;
const adversarial = quick ? 1_000 : 4_000;
(Object.keys(SWEEP_TYPES_3D) as SweepType3D[]).forEach((type, t) => {
  hashSet(
    `sweep ${type}`,
    sweepScene3D(type, 0x3d5eed00 + t, { geometries: sweep, margin: 0.05 }).scene(),
  );
});
hashSet('parallel-faces', parallelFacesScene3D(0xa11e13, adversarial, 0.05).scene());
hashSet('feature-on-feature', featureOnFeatureScene3D(0xfea7, adversarial, 0.05).scene());
hashSet('round-on-feature', featureOnFeatureScene3D(0xfea8, adversarial, 0.05, true).scene());
hashSet('round-on-round', roundOnRoundScene3D(0x4d4d, adversarial, 0.05).scene());
hashSet('coplanar-touching', coplanarTouchingScene3D(0xc0f1a7, adversarial).scene());
hashSet('edge-on-face', edgeOnFaceScene3D(0xed9e, adversarial, 0.05).scene());
hashSet('apart-at-vertices', apartAtVerticesScene3D(0xc0a7e5, adversarial, 0.05).scene());
hashSet('deep-penetration', deepPenetrationScene3D(0xdee9, adversarial, 0.05).scene());
for (const scale of [1e-3, 1e3])
  hashSet(
    `scale ${scale}`,
    scaledScene3D(0x5ca1e + Math.round(Math.log10(scale)), adversarial, scale).scene(),
  );
hashSet('noisy-and-thin', noisyAndThinScene3D(0x7e1a, adversarial, 0.05).scene());
hashSet('near-right-angles', nearRightAnglesScene3D(0x90de9, adversarial, 0.05).scene());
hashSet('determinism', mixedSweepScene3D(0xd37e3, quick ? 1_000 : 5_000));

// The bench scenes (bench/scenes3d.ts): their shape pools and manifolds.
for (const scenario of SCENARIOS_3D) {
  const s = makeScene3D(scenario, quick ? 10_000 : 100_000);
  record(`hulls:bench ${scenario}`, hullHash(s.packed, s.scene.shapes));
  record(`packed:bench ${scenario}`, packedHash(s.packed));
  record(`f64:bench ${scenario}`, f64Hash(s.packed));
}

if (args.includes('--tests')) {
  const dir = mkdtempSync(join(tmpdir(), 'hash3d-'));
  const files = [
    'sweep3d',
    'coherence3d',
    'agreement3d',
    'collide3d',
    'shapes3d',
    'checkshapes',
  ].map((f) => `test/${f}.test.ts`);
  const r = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      'scripts/hash3d/vitest.config.ts',
      ...files,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, HASH3D_OUT: dir },
    },
  );
  if (r.status !== 0)
    console.log(`vitest exited with ${r.status} (the hashes below are of what ran)`);
  for (const f of readdirSync(dir).sort()) {
    for (const [k, v] of Object.entries(
      JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>,
    ))
      record(k, v);
  }
  rmSync(dir, { recursive: true, force: true });
}

const out = option('--out');
if (out) writeFileSync(out, `${JSON.stringify(hashes, null, 2)}\n`);
const check = option('--check');
if (check) {
  const want = JSON.parse(readFileSync(check, 'utf8')) as Record<string, string>;
  const differ = Object.keys({ ...want, ...hashes }).filter((k) => want[k] !== hashes[k]);
  console.log(
    differ.length === 0
      ? `all ${Object.keys(want).length} hashes match ${check}`
      : `DIFFER from ${check}: ${differ.join(', ')}`,
  );
  if (differ.length > 0) process.exit(1);
}
