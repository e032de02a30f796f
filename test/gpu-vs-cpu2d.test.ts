// The WGSL kernel against the CPU reference, slot by slot, on random and adversarial 2D scenes;
// the reference itself against an independent f64 validity check (test/helpers/validity2d.ts).
//
// Per set: one scene, one packed buffer, one CPU run (prepareCpu2D + collidePacked2D) and one GPU
// run (GpuNarrowphase2D.run) on the same packed data. Slots must agree: same count and ids,
// normals within 1e-4, depths within 1e-4 × pair scale (the larger extent), positions within
// that plus the f32 resolution of their world coordinates (validity2d.ts, WORLD_ULPS). A slot that
// differs in count, ids or normal is a near-tie that f32 broke differently from f64 only if BOTH
// manifolds pass the validity check; anything else is unexplained and fails the test, printing
// the pair as a self-contained scene JSON with both outputs.
//
// Pair classes (src/gpu/pair-classes.ts): every set runs through the class pipelines and, on the
// same packed data, through the general kernel that holds every path; the bytes must be equal.
// The comparison itself is test/helpers/compare2d.ts (the browsers' validation page runs it too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../src/gpu/narrowphase2d.ts';
import { rng } from '../src/random2d.ts';
import {
  casesText2D,
  compareSet2D,
  kindsText2D,
  SHOW_CASES_2D as SHOW_CASES,
  type SetResult2D,
} from './helpers/compare2d.ts';
import { ADVERSARIAL_SETS_2D } from './helpers/adversarial-sets.ts';
import { SWEEP_TYPES, pairScene, sweepScene, type SweepType } from './helpers/random2d.ts';
import { manifoldJson, readManifold } from './helpers/validity2d.ts';

/** Random geometric pairs per sweep type; each is listed in both orders, so 2× pairs. */
const SWEEP_GEOMETRIES = 100_000;
/** CPU manifolds per sweep checked against the validity check (spread over the scene). */
const VALIDITY_SAMPLE = 20_000;

let acquired: AcquiredDevice;
let gpu: GpuNarrowphase2D;
let general: GpuNarrowphase2D;

function report(r: SetResult2D): void {
  const pct = (x: number): string => `${((100 * x) / Math.max(1, r.pairs)).toFixed(1)}%`;
  console.log(
    `[${r.name}] pairs ${r.pairs}, touching ${r.touching} (${pct(r.touching)}; 1-point ${r.onePoint}, 2-point ${r.twoPoint}), ` +
      `points with depth < 0: ${r.negativeDepthPoints}, = 0: ${r.zeroDepthPoints}, vertex-feature ids ${r.vertexFeatureIds}; ` +
      `normal from A's face ${r.normalFrom['A-face']}, B's face ${r.normalFrom['B-face']}, other ${r.normalFrom.other}\n` +
      `    mismatches explained as near-ties ${r.nearTies.total} (count differs ${r.nearTies.count}, ids differ ${r.nearTies.ids}, same features but normal differs ${r.nearTies.normal}), ` +
      `unexplained ${r.unexplained.length}; CPU validity checked ${r.cpuChecked}, invalid ${r.cpuInvalid.length}; ` +
      `max diff on agreeing slots: normal ${r.maxNormalDiff.toExponential(2)}, position ${r.maxPositionDiffRel.toFixed(3)} × its tol, depth ${r.maxDepthDiffRel.toFixed(3)} × its tol; ` +
      `parse+pack ${r.packMs.toFixed(0)} ms, cpu ${r.cpuMs.toFixed(0)} ms, gpu ${r.gpuMs.toFixed(0)} ms, compare+validate ${r.checkMs.toFixed(0)} ms`,
  );
  const text = [
    r.unexplained.length ? `    unexplained by kind:${kindsText2D(r.unexplainedKinds)}` : '',
    r.cpuInvalid.length
      ? `    invalid CPU manifolds by kind:${kindsText2D(r.cpuInvalidKinds)}`
      : '',
    casesText2D('UNEXPLAINED mismatches', r.unexplained.length, r.unexplainedCases),
    casesText2D('INVALID CPU manifolds', r.cpuInvalid.length, r.cpuInvalidCases),
    process.env.SHOW_NEAR_TIES
      ? casesText2D('near-ties (both valid)', r.nearTies.total, r.nearTieCases)
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  if (text) console.log(text);
}

/** The checks every set must pass: no unexplained mismatch, a valid reference. */
function expectAgreement(r: SetResult2D): void {
  expect(
    r.sameAsGeneral,
    `${r.name}: the pair classes' manifolds equal the general kernel's, byte for byte`,
  ).toBe(true);
  expect(
    r.unexplained.length,
    casesText2D(
      `${r.name}: unexplained GPU/CPU mismatches`,
      r.unexplained.length,
      r.unexplainedCases,
    ),
  ).toBe(0);
  expect(
    r.cpuInvalid.length,
    casesText2D(`${r.name}: invalid CPU manifolds`, r.cpuInvalid.length, r.cpuInvalidCases),
  ).toBe(0);
}

beforeAll(async () => {
  acquired = await acquireDevice();
  gpu = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps);
  general = await GpuNarrowphase2D.create(acquired.device, acquired.timestamps, {
    kernel: 'general',
  });
});

afterAll(() => {
  gpu?.destroy();
  general?.destroy();
  acquired?.device.destroy();
});

describe('2D narrowphase: GPU (WGSL) vs CPU reference, random sweeps', () => {
  const types = Object.keys(SWEEP_TYPES) as SweepType[];
  types.forEach((type, t) => {
    it(`${type}: ${2 * SWEEP_GEOMETRIES} pairs (${SWEEP_GEOMETRIES} random pairs in both orders)`, async () => {
      const tGen = performance.now();
      const scene = sweepScene(type, 0x5eed0000 + t, {
        geometries: SWEEP_GEOMETRIES,
        margin: 0.05,
      });
      const genMs = performance.now() - tGen;
      const r = await compareSet2D(type, scene, gpu, VALIDITY_SAMPLE, general);
      report(r);
      console.log(`    generated in ${genMs.toFixed(0)} ms`);
      expectAgreement(r);
      // Coverage: the sweep produced what it was meant to test.
      expect(r.touching, 'most pairs touch or are within the margin').toBeGreaterThan(
        0.5 * r.pairs,
      );
      expect(r.touching, 'some pairs are separated').toBeLessThan(0.97 * r.pairs);
      expect(r.negativeDepthPoints, 'speculative points (margin > 0)').toBeGreaterThan(
        0.01 * r.pairs,
      );
      expect(r.nearTies.total, 'near-ties are rare in random sweeps').toBeLessThan(0.005 * r.pairs);
      const polygonal =
        type === 'box-box' ||
        type === 'polygon-polygon' ||
        type === 'rounded-polygon' ||
        type === 'polygon-capsule' ||
        type === 'capsule-capsule';
      if (polygonal) {
        expect(r.twoPoint, '2-point manifolds').toBeGreaterThan(0.02 * r.pairs);
        expect(r.onePoint, '1-point manifolds').toBeGreaterThan(0.02 * r.pairs);
        // Reference faces of either body: in (A, B) and (B, A) order alike.
        expect(r.normalFrom['A-face'], "normals from A's faces").toBeGreaterThan(0.05 * r.pairs);
        expect(
          r.normalFrom['B-face'],
          "normals from B's faces (flipped reference)",
        ).toBeGreaterThan(0.05 * r.pairs);
      }
      if (type === 'rounded-polygon' || type === 'polygon-capsule' || type === 'capsule-capsule') {
        expect(r.normalFrom.other, 'vertex–vertex contacts of rounded shapes').toBeGreaterThan(
          0.005 * r.pairs,
        );
      }
      if (type === 'polygon-circle' || type === 'capsule-circle') {
        expect(r.vertexFeatureIds, 'vertex-region contacts (VERTEX_FEATURE ids)').toBeGreaterThan(
          0.02 * r.pairs,
        );
        expect(
          r.normalFrom['A-face'] + r.normalFrom['B-face'],
          'face-region contacts',
        ).toBeGreaterThan(0.05 * r.pairs);
      }
    });
  });
});

describe('2D narrowphase: GPU vs CPU, adversarial sets', () => {
  it('parallel edges: faces exactly anti-parallel, gaps from -0.2 to the margin', async () => {
    const r = await compareSet2D(
      'parallel-edges',
      ADVERSARIAL_SETS_2D['parallel-edges']!(),
      gpu,
      'all',
      general,
    );
    report(r);
    expectAgreement(r);
    expect(r.twoPoint, '2-point manifolds from parallel faces').toBeGreaterThan(0.4 * r.pairs);
  });

  it('exact touching (margin 0): every pair has a contact of depth exactly 0', async () => {
    const b = ADVERSARIAL_SETS_2D['exact-touching']!();
    const r = await compareSet2D('exact-touching', b, gpu, 'all', general);
    report(r);
    expectAgreement(r);
    const bad: string[] = [];
    const byKind = new Map<string, number>();
    for (const [side, out] of [
      ['cpu', r.cpu],
      ['gpu', r.gpu],
    ] as const) {
      for (let k = 0; k < r.pairs; k++) {
        const m = readManifold(out.f, out.u, k);
        if (m.count === 0 || m.depth.some((d) => d !== 0)) {
          const kind = `${side}: ${b.tags[k]!.note}`;
          byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
          bad.push(
            `${side} pair ${k} (${b.tags[k]!.note}): ${JSON.stringify(manifoldJson(m))}\n    scene: ${JSON.stringify(pairScene(b.scene(), k))}`,
          );
        }
      }
    }
    const summary = [...byKind].map(([kind, n]) => `${kind}: ${n}`).join('; ');
    if (bad.length) console.log(`exact touching without a depth-0 contact: ${summary}`);
    expect(
      bad.length,
      `pairs touching exactly without a depth-0 contact: ${bad.length} (${summary}); first:\n${bad.slice(0, SHOW_CASES).join('\n')}`,
    ).toBe(0);
  });

  it('capsules on one line: end to end, circles on the axis', async () => {
    const r = await compareSet2D(
      'collinear-capsules',
      ADVERSARIAL_SETS_2D['collinear-capsules']!(),
      gpu,
      'all',
      general,
    );
    report(r);
    expectAgreement(r);
  });

  for (const margin of [0, 0.05]) {
    it(`a vertex exactly on an edge (margin ${margin})`, async () => {
      const r = await compareSet2D(
        `vertex-on-edge, margin ${margin}`,
        ADVERSARIAL_SETS_2D[`vertex-on-edge, margin ${margin}`]!(),
        gpu,
        'all',
        general,
      );
      report(r);
      expectAgreement(r);
      expect(
        r.touching,
        'vertex-on-edge pairs touch (with margin 0 about half: f32 rounding puts the vertex just inside or outside)',
      ).toBeGreaterThan(0.3 * r.pairs);
    });
  }

  it('deep penetration: centers coincident or nearly, identical shapes', async () => {
    const r = await compareSet2D('deep', ADVERSARIAL_SETS_2D['deep']!(), gpu, 'all', general);
    report(r);
    expectAgreement(r);
    expect(r.touching, 'every deep pair touches').toBe(r.pairs);
  });

  it('angles near multiples of 90° (k·π/2 ± 1e-7..1e-3)', async () => {
    const r = await compareSet2D(
      'near-right-angles',
      ADVERSARIAL_SETS_2D['near-right-angles']!(),
      gpu,
      'all',
      general,
    );
    report(r);
    expectAgreement(r);
    expect(r.twoPoint, '2-point manifolds of nearly aligned faces').toBeGreaterThan(0.1 * r.pairs);
  });

  it('scales 1e-3 .. 1e3 (whole pair and margin scaled)', async () => {
    const results: SetResult2D[] = [];
    for (let e = -3; e <= 3; e++) {
      const r = await compareSet2D(
        `scale 1e${e}`,
        ADVERSARIAL_SETS_2D[`scale 1e${e}`]!(),
        gpu,
        'all',
        general,
      );
      report(r);
      results.push(r);
    }
    for (const r of results) expectAgreement(r);
    // The same relative geometry at every scale: the touching fraction barely moves.
    const touching = results.map((r) => r.touching / r.pairs);
    expect(Math.max(...touching) - Math.min(...touching)).toBeLessThan(0.05);
  });

  it('large world offsets (positions ~1e3, shapes ~1)', async () => {
    const r = await compareSet2D(
      'large-offset',
      ADVERSARIAL_SETS_2D['large-offset']!(),
      gpu,
      'all',
      general,
    );
    report(r);
    expectAgreement(r);
  });
});

// Keep the generator honest: the same seed gives the same scene (the printed seeds reproduce).
describe('random2d generators', () => {
  it('are deterministic for a seed', () => {
    const a = JSON.stringify(sweepScene('rounded-polygon', 7, { geometries: 50 }).scene());
    const b = JSON.stringify(sweepScene('rounded-polygon', 7, { geometries: 50 }).scene());
    expect(a).toBe(b);
    const r1 = rng(1);
    const r2 = rng(1);
    const xs = Array.from({ length: 100 }, () => r1());
    expect(Array.from({ length: 100 }, () => r2())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBe(100);
  });
});
