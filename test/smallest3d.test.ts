// Hulls at the smallest size the checks accept (MIN_EXTENT_3D), with edges at the shortest they
// accept (MIN_EDGE_RELATIVE_3D of it). The edge query's parallel test (edgeAxis3D, sat3d.wgsl)
// compares |d1|² |d2|² with |d1 × d2|², about 1e-38 for two such edges: below f32's normal range,
// where a GPU that flushes subnormals reads 0 (and lavapipe, which keeps them, loses digits). The
// WGSL edgeAxis3D must give the same bits for edges of 1e-10 as for the same edges at length 1,
// and a scene at the smallest size must give the manifolds of the same scene at size 1, scaled,
// on the GPU as on the CPU reference: two chisels crossing ridge to ridge (ridges 3.2e-10 long;
// the edge axes of the ridges are evaluated, though a face axis wins within the edge hysteresis).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBuffer } from '../src/gpu/buffers.ts';
import { acquireDevice, type AcquiredDevice } from '../src/gpu/device.ts';
import { GpuNarrowphase3D } from '../src/gpu/narrowphase3d.ts';
import { narrowphaseWgsl3D } from '../src/gpu/pair-class-wgsl.ts';
import { MIN_EDGE_RELATIVE_3D, MIN_EXTENT_3D, PARALLEL_EDGE_SINE_3D } from '../src/constants3d.ts';
import { edgeAxis3D } from '../src/cpu/sat3d.ts';
import type { Quat, Shape3DInput, Vec3 } from '../src/shapes3d.ts';
import { casesText3D, compareSet3D, readSlot3D } from './helpers/compare3d.ts';
import { mulberry32, SceneBuilder3D } from './helpers/random3d.ts';

let acquired: AcquiredDevice;
let gpu: GpuNarrowphase3D;
beforeAll(async () => {
  acquired = await acquireDevice();
  gpu = await GpuNarrowphase3D.create(acquired.device, acquired.timestamps);
});
afterAll(() => {
  gpu?.destroy();
  acquired?.device.destroy();
});

/**
 * A chisel of size s: a square base of half side s at y = -s/2, narrowing to a ridge along x at
 * y = s/2 whose half length is `ridge` × s.
 */
function chisel(s: number, ridge: number): Shape3DInput {
  const b = -s / 2;
  const vertices: Vec3[] = [
    [-s, b, -s],
    [s, b, -s],
    [s, b, s],
    [-s, b, s],
    [-ridge * s, s / 2, 0],
    [ridge * s, s / 2, 0],
  ];
  return { type: 'hull', vertices };
}

/** Turned upside down and a quarter turn about y: B's ridge runs along z, facing down. */
const FLIP: Quat = [Math.SQRT1_2, 0, Math.SQRT1_2, 0];
const I: Quat = [0, 0, 0, 1];

/** The WGSL edgeAxis3D of pairs of directions and a `toward` (9 floats each): (axis, w) per pair. */
async function edgeAxesGpu(device: GPUDevice, input: Float32Array): Promise<Float32Array> {
  const code = `${narrowphaseWgsl3D('general')}
@group(0) @binding(30) var<storage, read> edgeIn: array<f32>;
@group(0) @binding(31) var<storage, read_write> edgeOut: array<vec4f>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= arrayLength(&edgeOut)) { return; }
  let d1 = vec3f(edgeIn[9u * i], edgeIn[9u * i + 1u], edgeIn[9u * i + 2u]);
  let d2 = vec3f(edgeIn[9u * i + 3u], edgeIn[9u * i + 4u], edgeIn[9u * i + 5u]);
  let toward = vec3f(edgeIn[9u * i + 6u], edgeIn[9u * i + 7u], edgeIn[9u * i + 8u]);
  edgeOut[i] = edgeAxis3D(d1, d2, toward);
}`;
  const module = device.createShaderModule({ label: 'edge-axis-test', code });
  const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
  expect(errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`)).toEqual([]);
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main' },
  });
  const n = input.length / 9;
  const inBuf = device.createBuffer({
    size: input.byteLength,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(inBuf, 0, input);
  const outBuf = device.createBuffer({
    size: 16 * n,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
  });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [inBuf, outBuf].map((buffer, k) => ({ binding: 30 + k, resource: { buffer } })),
    }),
  );
  pass.dispatchWorkgroups(Math.ceil(n / 64));
  pass.end();
  device.queue.submit([encoder.finish()]);
  const out = new Float32Array(await readBuffer(device, outBuf, 16 * n));
  inBuf.destroy();
  outBuf.destroy();
  return out;
}

describe('3D narrowphase at the smallest accepted size', () => {
  const edgeAxis = new Float64Array(3);
  it("edgeAxis3D (WGSL) gives the same bits for edges of 1e-10 as at length 1, and the CPU mirror's axes", async () => {
    // Random unit directions, a third of the pairs turned to within a few times the parallel
    // sine of each other (either side of the test), with a random `toward`; then the same pairs
    // scaled to 2^-33 (1.2e-10, the shortest edge of the smallest hull) and to 2^10.
    const rng = mulberry32(0xed9e);
    const unit = (): number[] => {
      const v = [rng() - 0.5, rng() - 0.5, rng() - 0.5];
      const l = Math.hypot(v[0]!, v[1]!, v[2]!);
      return v.map((x) => x / l);
    };
    const PAIRS = 3000;
    const base = new Float32Array(9 * PAIRS);
    for (let i = 0; i < PAIRS; i++) {
      const a = unit();
      let b = unit();
      if (i % 3 === 0) {
        const t = rng() * 4 * PARALLEL_EDGE_SINE_3D;
        b = a.map((x, k) => x + t * b[k]!);
      }
      base.set([...a, ...b, ...unit()], 9 * i);
    }
    const scales = [1, 2 ** -33, 2 ** 10];
    const input = new Float32Array(9 * PAIRS * scales.length);
    scales.forEach((sc, j) =>
      input.set(
        base.map((x, k) => (k % 9 < 6 ? x * sc : x)),
        9 * PAIRS * j,
      ),
    );
    const out = await edgeAxesGpu(acquired.device, input);
    const bits = new Uint32Array(out.buffer);
    let parallel = 0;
    let differ = 0;
    for (let i = 0; i < PAIRS; i++) {
      for (let j = 1; j < scales.length; j++) {
        for (let k = 0; k < 4; k++) if (bits[4 * i + k] !== bits[4 * (PAIRS * j + i) + k]) differ++;
      }
      // The CPU mirror (f64) on the same f32 directions: the same verdict away from the threshold
      // and the same axis to f32 precision.
      const d = base.subarray(9 * i, 9 * i + 9);
      const ok = edgeAxis3D(d.subarray(0, 3), d.subarray(3, 6), d.subarray(6, 9), edgeAxis);
      if (!ok) parallel++;
      const c =
        Math.hypot(
          d[1]! * d[5]! - d[2]! * d[4]!,
          d[2]! * d[3]! - d[0]! * d[5]!,
          d[0]! * d[4]! - d[1]! * d[3]!,
        ) /
        (Math.hypot(d[0]!, d[1]!, d[2]!) * Math.hypot(d[3]!, d[4]!, d[5]!));
      if (Math.abs(c / PARALLEL_EDGE_SINE_3D - 1) > 1e-3)
        expect(out[4 * i + 3], `pair ${i}: parallel verdict`).toBe(ok ? 1 : 0);
      // Within the f32 rounding of the cross product, relative to its length (the sine); the sign
      // where the axis is not nearly perpendicular to `toward`.
      const tol = 1e-6 + 4e-7 / c;
      if (ok && out[4 * i + 3] === 1) {
        const dot = edgeAxis[0]! * d[6]! + edgeAxis[1]! * d[7]! + edgeAxis[2]! * d[8]!;
        const sign =
          Math.abs(dot) > 10 * tol
            ? 1
            : Math.sign(
                out[4 * i]! * edgeAxis[0]! +
                  out[4 * i + 1]! * edgeAxis[1]! +
                  out[4 * i + 2]! * edgeAxis[2]!,
              );
        for (let k = 0; k < 3; k++)
          expect(Math.abs(sign * out[4 * i + k]! - edgeAxis[k]!), `pair ${i} axis`).toBeLessThan(
            tol,
          );
      }
    }
    console.log(
      `edgeAxis3D: ${PAIRS} pairs × ${scales.length} scales, ${parallel} parallel (CPU), ${differ} words differ from scale 1`,
    );
    expect(parallel, 'pairs on the parallel side').toBeGreaterThan(PAIRS / 10);
    expect(parallel, 'pairs on the crossing side').toBeLessThan(PAIRS / 2);
    expect(differ).toBe(0);
  });

  it('chisels crossing ridge to ridge: at extent 1e-6 the manifolds of size 1, scaled, GPU as CPU', async () => {
    // The ridge (3.2e-4 s long) just above the weld distance, 2 MIN_EDGE_RELATIVE_3D of the
    // hull's reach (1.45 s from the points' mean): 3.2e-10 at the smallest size.
    const ridge = 1.6 * MIN_EDGE_RELATIVE_3D;
    const SIZES = [1, MIN_EXTENT_3D];
    const builder = new SceneBuilder3D(0); // margin 0: the same at both sizes
    for (const s of SIZES) {
      const a = chisel(s, ridge);
      // Ridges sunk into each other by a tenth of a ridge's length, B shifted along both ridges.
      const pb: Vec3 = [0.25 * ridge * s, s - 0.2 * ridge * s, 0.1 * ridge * s];
      builder.add(
        a,
        [0, 0, 0],
        I,
        chisel(s, ridge),
        pb,
        FLIP,
        { set: 'smallest', note: `chisels, size ${s}` },
        true,
      );
    }
    const r = await compareSet3D('smallest', builder, gpu, 'all');
    expect(r.unexplained.length, casesText3D('unexplained', r.unexplained, 4)).toBe(0);
    expect(r.cpuInvalid.length, casesText3D('invalid', r.cpuInvalid, 4)).toBe(0);
    expect(r.nearTies.total, casesText3D('near-ties', r.nearTieCases, 4)).toBe(0);
    // Slots: 2 per size (A, B and swapped). Each touches, and at the smallest size has the count,
    // kind and ids of size 1, its normal, and its points and depths scaled.
    const per = r.pairs / SIZES.length;
    for (const [out, label] of [
      [r.gpu, 'GPU'],
      [r.cpu, 'CPU'],
    ] as const) {
      for (let k = 0; k < per; k++) {
        const big = readSlot3D(out.f, out.u, k);
        const small = readSlot3D(out.f, out.u, per + k);
        const what = `${label} slot ${k}`;
        expect(big.count, what).toBeGreaterThan(0);
        expect({ count: small.count, kind: small.kind, ids: small.ids }, what).toEqual({
          count: big.count,
          kind: big.kind,
          ids: big.ids,
        });
        for (let i = 0; i < 3; i++)
          expect(Math.abs(small.normal[i]! - big.normal[i]!), `${what} normal`).toBeLessThan(1e-5);
        for (let i = 0; i < small.positions.length; i++)
          expect(
            Math.abs(small.positions[i]! / MIN_EXTENT_3D - big.positions[i]!),
            `${what} position`,
          ).toBeLessThan(1e-5);
        for (let i = 0; i < small.count; i++)
          expect(
            Math.abs(small.depths[i]! / MIN_EXTENT_3D - big.depths[i]!),
            `${what} depth`,
          ).toBeLessThan(1e-5);
      }
    }
    console.log(`smallest: kinds ${JSON.stringify(r.kinds)}, ${r.touching} of ${r.pairs} touching`);
  });
});
