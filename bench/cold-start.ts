// How long a fresh process waits for its first result, with the driver's shader cache off
// (MESA_SHADER_CACHE_DISABLE=true: every pipeline compiled from nothing, as on a first visit):
//
//   npx tsx bench/cold-start.ts                 # every scene, each in a fresh child process
//   npx tsx bench/cold-start.ts --classes       # also each pair class's compile alone
//   npx tsx bench/cold-start.ts --classes --ir  # and the LLVM IR lavapipe compiled, in lines
//
// Scenes, through the public API (createNarrowphase().collide(scene), then GpuFrame3D for the
// boxes): a box-only 3D scene; a 3D scene with a hull, a box and a capsule; a 2D scene of
// polygons and circles. Per scene: the wall time from the start of the process's work (device
// acquisition included) to the first manifolds, and the compile time of each pair class the
// narrowphase reported. Lavapipe compiles a pipeline's machine code at its first dispatch; the
// narrowphase dispatches each new pipeline once on an empty batch as it compiles it, so the
// times per class include that. With --ir, lavapipe prints each compute pipeline's LLVM IR as it
// compiles it (GALLIVM_DEBUG=ir) and the rows add its lines per pipeline, in compile order: a
// measure of what the driver compiles that the machine's load does not move (its compile time
// grows faster than the lines; docs/frame.md, *Cold start*).

import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg, tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createNarrowphase } from '../src/narrowphase.ts';
import { acquireDevice } from '../src/gpu/device.ts';
import { GpuFrame3D } from '../src/gpu/frame3d.ts';
import { classKernel, classKernels } from '../src/gpu/pair-classes.ts';
import { warmUpKernel } from '../src/gpu/pipelines.ts';
import { NARROWPHASE_DIMENSION_3D, PAIR_CLASSES_3D } from '../src/gpu/pair-classes3d.ts';
import { NARROWPHASE_DIMENSION_2D, PAIR_CLASSES_2D } from '../src/gpu/pair-classes2d.ts';
import { packShapes3D, packBodies3D } from '../src/pack3d.ts';
import { parseScene, type Scene3D } from '../src/scene.ts';
import { assertShadersEmbedded } from './fresh-shaders.ts';

const BOXES = {
  dim: 3,
  margin: 0.02,
  shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5] }],
  bodies: [
    { shape: 0, position: [0, 0, 0] },
    { shape: 0, position: [0, 0.98, 0], rotation: [0, 0.2, 0, 0.98] },
    { shape: 0, position: [0.9, 0.3, 0.1] },
  ],
};
const HULL_BOX_CAPSULE = {
  dim: 3,
  margin: 0.02,
  shapes: [
    {
      type: 'hull',
      vertices: [
        [0, 0, 0.6],
        [0.5, 0, -0.3],
        [-0.5, 0.2, -0.3],
        [0, -0.6, -0.2],
        [0.1, 0.5, 0.2],
        [-0.3, -0.3, 0.4],
      ],
    },
    { type: 'box', halfExtents: [0.4, 0.3, 0.5] },
    { type: 'capsule', a: [-0.4, 0, 0], b: [0.4, 0, 0], radius: 0.2 },
  ],
  bodies: [
    { shape: 0, position: [0, 0, 0] },
    { shape: 1, position: [0.8, 0.1, 0] },
    { shape: 2, position: [0.1, 0.7, 0.1] },
  ],
};
const POLYGONS_AND_CIRCLES = {
  dim: 2,
  margin: 0.02,
  shapes: [
    { type: 'box', halfExtents: [0.5, 0.5] },
    { type: 'circle', center: [0, 0], radius: 0.4 },
    {
      type: 'polygon',
      vertices: [
        [0, 0],
        [1, 0],
        [0.5, 0.8],
      ],
    },
  ],
  bodies: [
    { shape: 0, position: [0, 0] },
    { shape: 1, position: [0.8, 0.1] },
    { shape: 2, position: [0.2, 0.8] },
  ],
};
const SCENES = {
  'boxes (3D)': BOXES,
  'hull + box + capsule (3D)': HULL_BOX_CAPSULE,
  'polygons + circles (2D)': POLYGONS_AND_CIRCLES,
} as const;
type SceneName = keyof typeof SCENES;

interface Measured {
  what: string;
  ms: number;
  compileMs: Record<string, number>;
  detail: string;
  /** --ir: lines of LLVM IR of each compute pipeline lavapipe compiled, in order. */
  irLines?: number[];
}

/** Lines of each compute shader's coroutine body in lavapipe's IR dump (GALLIVM_DEBUG=ir). */
function irLines(dump: string): number[] {
  const counts: number[] = [];
  let n = -1;
  for (const line of dump.split('\n')) {
    if (line.startsWith('define i8* @cs_co_variant')) n = 0;
    if (n < 0) continue;
    n++;
    if (line === '}') {
      counts.push(n);
      n = -1;
    }
  }
  return counts;
}

/** In this process: the first result of `name` through collide(), or through the 3D frame. */
async function measure(what: string): Promise<Measured> {
  const start = performance.now();
  if (what.startsWith('frame:')) {
    const scene = parseScene(BOXES) as Scene3D;
    const { device } = await acquireDevice();
    const frame = await GpuFrame3D.create(device, false, { kinds: ['box'] });
    const packed = packShapes3D(scene.shapes);
    const make = (data: ArrayBuffer | ArrayBufferView): GPUBuffer => {
      const b = device.createBuffer({
        size: Math.max(16, Math.ceil(data.byteLength / 16) * 16),
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
      });
      if (ArrayBuffer.isView(data))
        device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
      else device.queue.writeBuffer(b, 0, data);
      return b;
    };
    const r = await frame.step({
      shapes: make(packed.shapes),
      hullVertices: make(packed.hullVertices),
      hullPlanes: make(packed.hullPlanes),
      hullFaces: make(packed.hullFaces),
      hullIndices: make(packed.hullIndices),
      bodies: make(packBodies3D(scene)),
      bodyCount: scene.bodyShape.length,
      margin: scene.margin,
      kinds: ['box'],
    });
    return {
      what,
      ms: performance.now() - start,
      compileMs: frame.compileMs as Record<string, number>,
      detail: `${r.counts.contacts} touching pairs`,
    };
  }
  if (what.startsWith('class:')) {
    const [, dim, kernel] = what.split(':') as [string, string, string];
    const { device } = await acquireDevice();
    const t = performance.now();
    const d = dim === '3d' ? NARROWPHASE_DIMENSION_3D : NARROWPHASE_DIMENSION_2D;
    // The class's pipelines (the 3D hull–hull class: its kernel and its closest pass), or the
    // general kernel.
    const ks = await Promise.all(
      kernel === 'general'
        ? [classKernel(device, d as never, 'general')]
        : classKernels(device, d as never, kernel as never),
    );
    const compiled = performance.now() - t;
    // Their first dispatches (empty batches): lavapipe's machine code.
    for (const k of ks) await warmUpKernel(device, k, d.classBindings, `class:${dim}:${kernel}`);
    return {
      what,
      ms: performance.now() - t,
      compileMs: {},
      detail: `${ks.length > 1 ? `${ks.length} pipelines` : 'pipeline'} ${compiled.toFixed(0)} ms, then ${ks.length > 1 ? 'their first dispatches' : 'its first dispatch'}`,
    };
  }
  const np = await createNarrowphase({ backend: 'gpu' });
  const r = await np.collide(SCENES[what as SceneName]);
  const ms = performance.now() - start;
  np.destroy();
  return {
    what,
    ms,
    compileMs: r.stats.compileMs ?? {},
    detail: `${r.manifolds.length} manifolds on ${r.stats.adapter}`,
  };
}

/** Runs `what` in a fresh child process with the shader cache off; returns its measurement. */
function child(what: string, ir: boolean): Measured {
  // The IR dump goes to a file: the child's own stderr pipe is non-blocking, and Mesa's writes to
  // a full pipe would be lost.
  const dumpPath = join(tmpdir(), `cold-start-ir-${process.pid}.txt`);
  const dump = ir ? openSync(dumpPath, 'w') : undefined;
  const out = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--child', what],
    {
      // Mesa's and NVIDIA's on-disk shader caches, both off.
      env: {
        ...process.env,
        MESA_SHADER_CACHE_DISABLE: 'true',
        __GL_SHADER_DISK_CACHE: '0',
        ...(ir ? { GALLIVM_DEBUG: 'ir' } : {}),
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', dump ?? 'pipe'],
    },
  );
  if (dump !== undefined) closeSync(dump);
  const stderr = ir ? readFileSync(dumpPath, 'utf8') : out.stderr;
  if (ir) rmSync(dumpPath);
  const line = out.stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line)
    throw new Error(
      `${what}: the child process gave no result (exit ${out.status}):\n${stderr.slice(-2000)}`,
    );
  const m = JSON.parse(line) as Measured;
  if (ir) m.irLines = irLines(stderr);
  return m;
}

const i = process.argv.indexOf('--child');
if (i >= 0) {
  const m = await measure(process.argv[i + 1]!);
  process.stdout.write(`${JSON.stringify(m)}\n`);
  process.exit(0);
} else {
  assertShadersEmbedded();
  const whats: string[] = [
    ...Object.keys(SCENES),
    'frame: boxes (3D), GpuFrame3D.create({ kinds: [box] }) + step',
  ];
  if (process.argv.includes('--classes')) {
    whats.push(
      ...PAIR_CLASSES_3D.map((c) => `class:3d:${c}`),
      'class:3d:general',
      ...PAIR_CLASSES_2D.map((c) => `class:2d:${c}`),
      'class:2d:general',
    );
  }
  console.log(
    `cold start, shader cache off, one fresh process each (load average ${loadavg()[0]!.toFixed(1)})`,
  );
  const ir = process.argv.includes('--ir');
  for (const what of whats) {
    const m = child(what, ir);
    const classes = Object.entries(m.compileMs)
      .map(([c, ms]) => `${c} ${ms.toFixed(0)}`)
      .join(', ');
    // GALLIVM_DEBUG is llvmpipe's: other adapters print no IR.
    const lines = !m.irLines
      ? ''
      : m.irLines.length === 0
        ? '; no LLVM IR printed (not lavapipe)'
        : `; LLVM IR lines ${m.irLines.reduce((a, b) => a + b, 0)} (${m.irLines.join(' + ')})`;
    console.log(
      `${what.padEnd(44)} ${(m.ms / 1000).toFixed(2).padStart(7)} s   ${m.detail}${classes ? `; compiled (ms): ${classes}` : ''}${lines}`,
    );
  }
  console.log(`load average after: ${loadavg()[0]!.toFixed(1)}`);
}
