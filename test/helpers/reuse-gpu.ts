// The reuse stage on the GPU, frame by frame on a ReuseWorld (test/helpers/reuse-frames.ts), and
// the stage-level comparison with the CPU loops: each GPU frame's reuse pass is rerun on the CPU
// from the very same inputs (bodies, last frame's GPU anchors, the GPU narrowphase's manifolds),
// so a difference never carries over into later frames.
//
// A frame on the GPU: the bodies uploaded; GpuNarrowphase2D/3D collides every pair (the fresh
// manifolds, F); F is copied into the manifold slots; encodeReuse overwrites the reused slots and
// flags the rest; encodeAnchors builds the flagged slots' anchors over the work list. A runner
// `listing` runs the frames' stage (reuseSlots lists the slots it flags; the counts are taken from
// the flags on the host); else the stage counts its slots per status and the work list is made on
// the host from the flags read back (a stage does not both count and list). Slot k is slot k
// every frame (prevSlot null: the identity).

import {
  CORE_SEPARATION,
  REUSE_ROTATION,
  REUSE_SLIDE,
  REUSE_TRANSLATION,
} from '../../src/constants.ts';
import {
  CORE_DISTANCE_3D,
  REUSE_ROTATION_3D,
  REUSE_SLIDE_3D,
  REUSE_TRANSLATION_3D,
} from '../../src/constants3d.ts';
import { relativeTransform } from '../../src/cpu/manifold2d.ts';
import { REUSE_STATUS, type ReuseCounts } from '../../src/cpu/reuse.ts';
import { emptyAnchor2D, loadAnchor2D, type Anchor2D } from '../../src/cpu/reuse2d.ts';
import {
  bodyPose3D,
  emptyAnchor3D,
  loadAnchor3D,
  quatMul3D,
  type Anchor3D,
} from '../../src/cpu/reuse3d.ts';
import { readBuffer } from '../../src/gpu/buffers.ts';
import type { StoreMode } from '../../src/gpu/device.ts';
import { GpuNarrowphase2D } from '../../src/gpu/narrowphase2d.ts';
import { GpuNarrowphase3D } from '../../src/gpu/narrowphase3d.ts';
import {
  GpuReuse,
  REUSE_COUNTS_BYTES,
  REUSE_DIMENSION_2D,
  REUSE_DIMENSION_3D,
  REUSE_LIST_HEADER_BYTES,
  reuseListBytes,
  reuseWorkList,
  type PairCount,
  type ReuseKernel,
} from '../../src/gpu/reuse.ts';
import { LAYOUT_2D } from '../../src/layout2d.ts';
import { LAYOUT_3D } from '../../src/layout3d.ts';
import type { Packed2D } from '../../src/pack2d.ts';
import type { Packed3D } from '../../src/pack3d.ts';
import type { ReuseFrame, ReuseWorld } from './reuse-frames.ts';

const STORAGE = (): number =>
  GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

/** The GPU stages of one world: its buffers, the narrowphase and the reuse stage. */
export class GpuReuseRunner {
  private readonly buffers: GPUBuffer[] = [];
  private readonly shapes: GPUBuffer;
  private readonly hullVertices: GPUBuffer | null = null;
  private readonly hullPlanes: GPUBuffer | null = null;
  private readonly bodies: GPUBuffer;
  private readonly pairs: GPUBuffer;
  private readonly anchors: [GPUBuffer, GPUBuffer];
  private readonly manifolds: GPUBuffer;
  private readonly flags: GPUBuffer;
  private readonly counts: GPUBuffer;
  /** The work list of the slots flagged collide, written from the flags read back. */
  private readonly workList: GPUBuffer;
  /** A GPU pair count (frame() with `gpuCount`). */
  private readonly pairCountBuffer: GPUBuffer;
  private cur = 0;
  private frameIndex = 0;

  private constructor(
    readonly device: GPUDevice,
    readonly world: ReuseWorld,
    readonly stage: GpuReuse,
    private readonly narrowphase: GpuNarrowphase2D | GpuNarrowphase3D,
  ) {
    const make = (bytes: number, label: string, usage = STORAGE()): GPUBuffer => {
      const b = device.createBuffer({
        label,
        size: Math.max(16, Math.ceil(bytes / 16) * 16),
        usage,
      });
      this.buffers.push(b);
      return b;
    };
    const upload = (data: ArrayBuffer | ArrayBufferView, label: string): GPUBuffer => {
      const b = make(data.byteLength, label);
      device.queue.writeBuffer(
        b,
        0,
        ArrayBuffer.isView(data)
          ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
          : data,
      );
      return b;
    };
    const p = world.packed;
    this.shapes = upload(p.shapes, 'shapes');
    if (world.dim === 3) {
      this.hullVertices = upload((p as Packed3D).hullVertices, 'hull-vertices');
      this.hullPlanes = upload((p as Packed3D).hullPlanes, 'hull-planes');
    }
    this.bodies = make(p.bodies.byteLength, 'bodies');
    this.pairs = upload(world.pairs, 'pairs');
    this.anchors = [make(world.anchorBytes, 'anchors-0'), make(world.anchorBytes, 'anchors-1')];
    this.manifolds = make(world.manifoldBytes, 'manifolds');
    this.flags = make(4 * Math.max(1, world.pairCount), 'flags');
    this.counts = make(REUSE_COUNTS_BYTES, 'counts');
    this.workList = make(reuseListBytes(world.pairCount), 'work-list');
    this.pairCountBuffer = upload(Uint32Array.of(0, 0, 0, world.pairCount), 'pair-count');
  }

  /**
   * `stores`, `kernel`: GpuReuseOptions (by default the device's stores, the general kernel);
   * `listing`: the stage lists (GpuReuseOptions.list) rather than counts.
   */
  static async create(
    device: GPUDevice,
    world: ReuseWorld,
    stores?: StoreMode,
    kernel?: ReuseKernel,
    listing = false,
  ): Promise<GpuReuseRunner> {
    const stage = await GpuReuse.create(
      device,
      world.dim === 2 ? REUSE_DIMENSION_2D : REUSE_DIMENSION_3D,
      {
        ...(stores ? { stores } : {}),
        ...(kernel ? { kernel } : {}),
        ...(listing ? { list: true } : { counts: true }),
      },
    );
    const narrowphase =
      world.dim === 2
        ? await GpuNarrowphase2D.create(device, false)
        : await GpuNarrowphase3D.create(device, false);
    return new GpuReuseRunner(device, world, stage, narrowphase);
  }

  /**
   * The next frame on the GPU (frame 0 has no anchors yet). `gpuCount`: the pair count read from a
   * GPU buffer (word 3 of a 16-byte buffer) rather than given by the host.
   */
  async frame(
    margin = this.world.margin,
    gpuCount = false,
  ): Promise<ReuseFrame & { anchorsPrev: ArrayBuffer | null; listed: number[] }> {
    const w = this.world;
    const frame = this.frameIndex++;
    const bodies = w.bodiesAt(frame);
    this.device.queue.writeBuffer(this.bodies, 0, bodies);
    const packed = { ...w.packed, bodies, margin };
    const fresh = (
      await (w.dim === 2
        ? (this.narrowphase as GpuNarrowphase2D).run(packed as Packed2D)
        : (this.narrowphase as GpuNarrowphase3D).run(packed as Packed3D))
    ).manifolds;
    this.device.queue.writeBuffer(this.manifolds, 0, fresh);
    const prev = this.anchors[this.cur ^ 1]!;
    const cur = this.anchors[this.cur]!;
    const anchorsPrev = frame > 0 ? await readBuffer(this.device, prev, w.anchorBytes) : null;
    const pairCount: PairCount = gpuCount
      ? { buffer: this.pairCountBuffer, offset: 12 }
      : w.pairCount;
    const window = {
      pairs: { buffer: this.pairs, size: 8 * w.pairCount },
      manifolds: { buffer: this.manifolds, size: w.manifoldBytes },
      flags: { buffer: this.flags, size: 4 * w.pairCount },
    };
    const encoder = this.device.createCommandEncoder();
    this.stage.encodeReuse(encoder, {
      bodies: { buffer: this.bodies },
      ...window,
      pairCount,
      prevSlot: null,
      anchorsPrev: frame > 0 ? { buffer: prev, size: w.anchorBytes } : null,
      anchorsCur: { buffer: cur, size: w.anchorBytes },
      ...(this.stage.list
        ? { workList: { buffer: this.workList } }
        : { counts: { buffer: this.counts } }),
      margin,
    });
    const listed = reuseWorkList(this.workList, 0, w.pairCount);
    let anchorEncoder = encoder;
    if (!this.stage.list) {
      this.device.queue.submit([encoder.finish()]);
      // The slots flagged collide, in slot order, with their count where the stage puts it.
      const flagged = slotsFlagged(await readBuffer(this.device, this.flags, 4 * w.pairCount));
      this.device.queue.writeBuffer(
        this.workList,
        listed.count.offset,
        Uint32Array.of(flagged.length),
      );
      if (flagged.length > 0)
        this.device.queue.writeBuffer(
          this.workList,
          REUSE_LIST_HEADER_BYTES,
          Uint32Array.from(flagged),
        );
      anchorEncoder = this.device.createCommandEncoder();
    }
    this.stage.encodeAnchors(anchorEncoder, {
      shapes: { buffer: this.shapes },
      bodies: { buffer: this.bodies },
      pairs: window.pairs,
      manifolds: window.manifolds,
      workList: listed,
      pairCount,
      anchorsCur: { buffer: cur, size: w.anchorBytes },
      margin,
      ...(this.hullVertices && this.hullPlanes
        ? { hullVertices: { buffer: this.hullVertices }, hullPlanes: { buffer: this.hullPlanes } }
        : {}),
    });
    this.device.queue.submit([anchorEncoder.finish()]);
    const [manifolds, flags, countWords, anchors, list] = await Promise.all([
      readBuffer(this.device, this.manifolds, w.manifoldBytes),
      readBuffer(this.device, this.flags, 4 * w.pairCount),
      readBuffer(this.device, this.counts, REUSE_COUNTS_BYTES),
      readBuffer(this.device, cur, w.anchorBytes),
      readBuffer(this.device, this.workList, reuseListBytes(w.pairCount)),
    ]);
    this.cur ^= 1;
    const c = new Uint32Array(countWords);
    const f = new Uint32Array(flags);
    const counts: ReuseCounts = this.stage.list
      ? {
          kept: f.filter((s) => s === REUSE_STATUS.kept).length,
          collide: f.filter((s) => s === REUSE_STATUS.collide).length,
          apart: f.filter((s) => s === REUSE_STATUS.apart).length,
        }
      : {
          kept: c[REUSE_STATUS.kept]!,
          collide: c[REUSE_STATUS.collide]!,
          apart: c[REUSE_STATUS.apart]!,
        };
    const length = new Uint32Array(list)[listed.count.offset / 4]!;
    return {
      bodies,
      fresh,
      manifolds,
      flags: f,
      counts,
      anchors,
      anchorsPrev,
      listed: [...new Uint32Array(list, REUSE_LIST_HEADER_BYTES, length)],
    };
  }

  destroy(): void {
    for (const b of this.buffers) b.destroy();
    this.stage.destroy();
    this.narrowphase.destroy();
  }
}

/** The slots whose flag (u32 each) is REUSE_STATUS.collide, in slot order. */
export function slotsFlagged(flags: ArrayBuffer | Uint32Array): number[] {
  const f = flags instanceof Uint32Array ? flags : new Uint32Array(flags);
  return [...f.keys()].filter((k) => f[k] === REUSE_STATUS.collide);
}

// ---- the GPU frame against the CPU loops --------------------------------------------------------

/** How near a pair's reuse decision sits to a threshold: the smallest gap, relative (lengths / scale, angles in radians). */
export function decisionGap(
  world: ReuseWorld,
  bodies: ArrayBuffer,
  anchors: ArrayBuffer,
  k: number,
  margin: number,
): number {
  return world.dim === 2
    ? gap2D(world, bodies, anchors, k, margin)
    : gap3D(world, bodies, anchors, k, margin);
}

const a2 = emptyAnchor2D();
const a3 = emptyAnchor3D();

function gap2D(
  world: ReuseWorld,
  bodies: ArrayBuffer,
  anchors: ArrayBuffer,
  k: number,
  margin: number,
): number {
  loadAnchor2D(anchors, k, a2);
  const a: Anchor2D = a2;
  const f = new Float32Array(bodies);
  const B = LAYOUT_2D.body;
  const xf = (i: number) => ({
    px: f[i * B.words + B.position]!,
    py: f[i * B.words + B.position + 1]!,
    c: f[i * B.words + B.rotation]!,
    s: f[i * B.words + B.rotation + 1]!,
  });
  const pose = { px: 0, py: 0, c: 1, s: 0 };
  relativeTransform(xf(world.pairs[2 * k]!), 0, 0, xf(world.pairs[2 * k + 1]!), pose);
  const m = Math.fround(margin);
  const moved = Math.hypot(pose.px - a.tx, pose.py - a.ty);
  const dqc = pose.c - a.c;
  const dqs = pose.s - a.s;
  const turned = Math.hypot(dqc, dqs);
  const gaps: number[] = [];
  if (a.count === 0) return Math.abs(a.bound - moved - turned * a.reach - m) / a.scale;
  gaps.push(
    Math.abs(moved - REUSE_TRANSLATION * a.scale) / a.scale,
    Math.abs(turned - REUSE_ROTATION),
  );
  if (a.join) {
    const dx = pose.c * a.localX[0]! - pose.s * a.localY[0]! + pose.px - a.localX[1]!;
    const dy = pose.s * a.localX[0]! + pose.c * a.localY[0]! + pose.py - a.localY[1]!;
    const dist = Math.hypot(dx, dy);
    gaps.push(
      Math.abs(dist - CORE_SEPARATION * a.scale) / a.scale,
      Math.abs(Math.hypot(dx / dist - a.nx, dy / dist - a.ny) - REUSE_ROTATION),
    );
    gaps.push(Math.abs(a.depth[0]! + a.depth[1]! - dist + m) / a.scale);
  } else {
    for (let i = 0; i < a.count; i++) {
      const dx = dqc * a.localX[i]! - dqs * a.localY[i]! + pose.px - a.tx;
      const dy = dqs * a.localX[i]! + dqc * a.localY[i]! + pose.py - a.ty;
      gaps.push(
        Math.abs(a.depth[i]! - (dx * a.nx + dy * a.ny) + m) / a.scale,
        Math.abs(Math.abs(a.nx * dy - a.ny * dx) - REUSE_SLIDE * a.scale) / a.scale,
      );
    }
  }
  return Math.min(...gaps);
}

function gap3D(
  world: ReuseWorld,
  bodies: ArrayBuffer,
  anchors: ArrayBuffer,
  k: number,
  margin: number,
): number {
  loadAnchor3D(anchors, k, a3);
  const a: Anchor3D = a3;
  const f = new Float32Array(bodies);
  const B = LAYOUT_3D.body;
  const xf = (i: number) => ({
    position: f.subarray(i * B.words + B.position, i * B.words + B.position + 3),
    rotation: f.subarray(i * B.words + B.rotation, i * B.words + B.rotation + 4),
  });
  const q = new Float64Array(4);
  const t = new Float64Array(3);
  bodyPose3D(xf(world.pairs[2 * k]!), xf(world.pairs[2 * k + 1]!), q, t);
  const m = Math.fround(margin);
  const dt = [
    t[0]! - a.translation[0]!,
    t[1]! - a.translation[1]!,
    t[2]! - a.translation[2]!,
  ] as const;
  const moved = Math.hypot(...dt);
  const dq = new Float64Array(4);
  quatMul3D(q, [-a.rotation[0]!, -a.rotation[1]!, -a.rotation[2]!, a.rotation[3]!], dq);
  const turned = 2 * Math.hypot(dq[0]!, dq[1]!, dq[2]!);
  if (a.count === 0) return Math.abs(a.bound - moved - turned * a.reach - m) / a.scale;
  const gaps = [
    Math.abs(moved - REUSE_TRANSLATION_3D * a.scale) / a.scale,
    Math.abs(turned - REUSE_ROTATION_3D),
  ];
  const rot = (quat: ArrayLike<number>, v: readonly number[]): number[] => {
    const [x, y, z, w] = [quat[0]!, quat[1]!, quat[2]!, quat[3]!];
    const c = [
      2 * (y * v[2]! - z * v[1]!),
      2 * (z * v[0]! - x * v[2]!),
      2 * (x * v[1]! - y * v[0]!),
    ];
    return [
      v[0]! + w * c[0]! + y * c[2]! - z * c[1]!,
      v[1]! + w * c[1]! + z * c[0]! - x * c[2]!,
      v[2]! + w * c[2]! + x * c[1]! - y * c[0]!,
    ];
  };
  const n = Array.from(a.normal);
  const pt = (i: number): number[] => Array.from(a.local.subarray(3 * i, 3 * i + 3));
  if (a.kind === 4) {
    const b = rot(q, pt(0));
    const d = [
      b[0]! + t[0]! - a.local[3]!,
      b[1]! + t[1]! - a.local[4]!,
      b[2]! + t[2]! - a.local[5]!,
    ];
    const dist = Math.hypot(d[0]!, d[1]!, d[2]!);
    gaps.push(
      Math.abs(dist - CORE_DISTANCE_3D * a.scale) / a.scale,
      Math.abs(
        Math.hypot(d[0]! / dist - n[0]!, d[1]! / dist - n[1]!, d[2]! / dist - n[2]!) -
          REUSE_ROTATION_3D,
      ),
    );
    gaps.push(Math.abs(a.depth[0]! + a.depth[1]! - dist + m) / a.scale);
  } else {
    for (let i = 0; i < a.count; i++) {
      const p1 = rot(q, pt(i));
      const p0 = rot(a.rotation, pt(i));
      const d = [p1[0]! - p0[0]! + dt[0], p1[1]! - p0[1]! + dt[1], p1[2]! - p0[2]! + dt[2]];
      const dn = d[0]! * n[0]! + d[1]! * n[1]! + d[2]! * n[2]!;
      const slide = Math.hypot(d[0]! - dn * n[0]!, d[1]! - dn * n[1]!, d[2]! - dn * n[2]!);
      gaps.push(
        Math.abs(a.depth[i]! - dn + m) / a.scale,
        Math.abs(slide - REUSE_SLIDE_3D * a.scale) / a.scale,
      );
    }
  }
  return Math.min(...gaps);
}

/** f32 steps of a world coordinate that the kernels' arithmetic may lose on the way. */
const WORLD_ULPS = 8;

/** A decision this near a threshold (relative) may go either way between f32 and f64. */
export const NEAR_TIE_GAP = 2e-5;

export interface FrameComparison {
  slots: number;
  /** Flags equal; flags differing at a near-tie; differing elsewhere (unexplained). */
  sameFlags: number;
  nearTies: number;
  unexplained: string[];
  /**
   * Largest differences of reused manifolds (both kept): normal, depth / scale, position / scale
   * beyond WORLD_ULPS f32 steps of its world coordinate (f32 world positions resolve no finer).
   */
  normal: number;
  depth: number;
  position: number;
  /** Anchors built from the same manifolds: largest relative difference, and join or axis near-ties. */
  anchor: number;
  anchorNearTies: number;
}

export function emptyComparison(): FrameComparison {
  return {
    slots: 0,
    sameFlags: 0,
    nearTies: 0,
    unexplained: [],
    normal: 0,
    depth: 0,
    position: 0,
    anchor: 0,
    anchorNearTies: 0,
  };
}

/**
 * Compares one GPU frame with the CPU loops run on its inputs: flags, the reused manifolds, the
 * carried anchors (bytes) and the new anchors (f32 against f64).
 */
export function compareFrame(
  world: ReuseWorld,
  g: ReuseFrame & { anchorsPrev: ArrayBuffer | null },
  margin: number,
  out: FrameComparison,
): void {
  const cpuManifolds = g.fresh.slice(0);
  const cpuFlags = new Uint32Array(world.pairCount);
  const cpuAnchors = new ArrayBuffer(world.anchorBytes);
  const counts = world.reuse(g.bodies, g.anchorsPrev, cpuAnchors, cpuManifolds, cpuFlags, margin);
  const gpuCounts = { kept: 0, collide: 0, apart: 0 };
  for (let k = 0; k < world.pairCount; k++) {
    const s = g.flags[k]!;
    if (s === REUSE_STATUS.kept) gpuCounts.kept++;
    else if (s === REUSE_STATUS.apart) gpuCounts.apart++;
    else gpuCounts.collide++;
  }
  if (
    gpuCounts.kept !== g.counts.kept ||
    gpuCounts.apart !== g.counts.apart ||
    gpuCounts.collide !== g.counts.collide
  ) {
    out.unexplained.push(
      `${world.name}: GPU counts ${JSON.stringify(g.counts)} are not its flags' ${JSON.stringify(gpuCounts)}`,
    );
  }
  const words = world.anchorBytes / world.pairCount / 4;
  const gpuAnchorWords = new Uint32Array(g.anchors);
  const prevWords = g.anchorsPrev ? new Uint32Array(g.anchorsPrev) : null;
  for (let k = 0; k < world.pairCount; k++) {
    out.slots++;
    const gs = g.flags[k]!;
    const cs = cpuFlags[k]!;
    if (gs !== cs) {
      const gap = g.anchorsPrev ? decisionGap(world, g.bodies, g.anchorsPrev, k, margin) : Infinity;
      if (gap < NEAR_TIE_GAP) out.nearTies++;
      else
        out.unexplained.push(
          `${world.name}: slot ${k} (${world.kinds[k]}) GPU status ${gs}, CPU ${cs}, ${gap.toExponential(2)} from a threshold`,
        );
      continue;
    }
    out.sameFlags++;
    if (gs !== REUSE_STATUS.collide && prevWords) {
      // The carried anchor: last frame's, byte for byte.
      for (let i = 0; i < words; i++) {
        if (gpuAnchorWords[k * words + i] !== prevWords[k * words + i]) {
          out.unexplained.push(`${world.name}: slot ${k} carried anchor word ${i} changed`);
          break;
        }
      }
    }
    if (gs === REUSE_STATUS.kept)
      compareSlots(
        world,
        k,
        world.slot(g.manifolds, k),
        world.slot(cpuManifolds, k),
        g.manifolds,
        cpuManifolds,
        out,
      );
    if (
      gs === REUSE_STATUS.apart &&
      !equalWords(g.manifolds, cpuManifolds, k, world.manifoldBytes / world.pairCount / 4)
    ) {
      out.unexplained.push(`${world.name}: slot ${k} apart manifolds differ`);
    }
  }
  void counts;
  // Anchors from the GPU's own manifolds and flags.
  const cpuNew = g.anchors.slice(0);
  world.anchors(g.bodies, g.manifolds, g.flags, cpuNew, margin);
  for (let k = 0; k < world.pairCount; k++) {
    if (g.flags[k] !== REUSE_STATUS.collide) continue;
    compareAnchors(world, k, g.anchors, cpuNew, out);
  }
}

function equalWords(a: ArrayBuffer, b: ArrayBuffer, k: number, words: number): boolean {
  const ua = new Uint32Array(a, 4 * k * words, words);
  const ub = new Uint32Array(b, 4 * k * words, words);
  return ua.every((x, i) => x === ub[i]);
}

function compareSlots(
  world: ReuseWorld,
  k: number,
  G: ReturnType<ReuseWorld['slot']>,
  C: ReturnType<ReuseWorld['slot']>,
  gb: ArrayBuffer,
  cb: ArrayBuffer,
  out: FrameComparison,
): void {
  const scale = world.scale[k]!;
  if (G.count !== C.count || G.ids.some((id, i) => id !== C.ids[i])) {
    out.unexplained.push(
      `${world.name}: slot ${k} reused manifolds differ: GPU ids ${G.ids.map((x) => x.toString(16))}, CPU ${C.ids.map((x) => x.toString(16))}`,
    );
    return;
  }
  out.normal = Math.max(out.normal, Math.hypot(...G.normal.map((x, i) => x - C.normal[i]!)));
  for (let i = 0; i < G.count; i++)
    out.depth = Math.max(out.depth, Math.abs(G.depths[i]! - C.depths[i]!) / scale);
  const M = world.dim === 2 ? LAYOUT_2D.manifold : LAYOUT_3D.manifold;
  const fg = new Float32Array(gb);
  const fc = new Float32Array(cb);
  for (let i = 0; i < G.count; i++) {
    for (let c = 0; c < world.dim; c++) {
      const o = k * M.words + M.points + i * M.pointStride + M.pointPosition + c;
      out.position = Math.max(
        out.position,
        Math.max(0, Math.abs(fg[o]! - fc[o]!) - WORLD_ULPS * 2 ** -23 * Math.abs(fc[o]!)) / scale,
      );
    }
  }
}

/** Anchors of one slot, GPU (f32) against CPU (f64 rounded on store): relative to the scale and the poses' magnitude. */
function compareAnchors(
  world: ReuseWorld,
  k: number,
  gb: ArrayBuffer,
  cb: ArrayBuffer,
  out: FrameComparison,
): void {
  const fg = new Float32Array(gb);
  const fc = new Float32Array(cb);
  const ug = new Uint32Array(gb);
  const uc = new Uint32Array(cb);
  const A = world.dim === 2 ? LAYOUT_2D.anchor : LAYOUT_3D.anchor;
  const o = k * A.words;
  const info = world.dim === 2 ? LAYOUT_2D.anchor.countJoin : LAYOUT_3D.anchor.countKind;
  const scale = fc[o + A.scale]!;
  const exact = [info, A.shapeA, A.shapeB];
  if (world.dim === 3) exact.push(...[0, 1, 2, 3].map((i) => LAYOUT_3D.anchor.ids + i));
  else
    exact.push(
      ...[0, 1].map(
        (i) =>
          LAYOUT_2D.anchor.points + i * LAYOUT_2D.anchor.pointStride + LAYOUT_2D.anchor.pointId,
      ),
    );
  for (const w of exact) {
    if (ug[o + w] !== uc[o + w]) {
      // A join recognised on one side only: its core point sat at the tolerance from a vertex.
      if (w === info && (ug[o + w]! & 0xff) === (uc[o + w]! & 0xff)) out.anchorNearTies++;
      else
        out.unexplained.push(
          `${world.name}: slot ${k} anchor word ${w}: GPU ${ug[o + w]}, CPU ${uc[o + w]}`,
        );
      return;
    }
  }
  const count = uc[o + info]! & 0xff;
  // Separation bounds of pairs without contact: the best of three axes, which may tie.
  const magnitude =
    1 + Math.hypot(...Array.from(fc.subarray(o + A.translation, o + A.translation + world.dim)));
  for (let w = 0; w < A.words; w++) {
    if (exact.includes(w)) continue;
    const d = Math.abs(fg[o + w]! - fc[o + w]!) / (scale * magnitude);
    if (count === 0 && w >= A.normal && w < A.normal + world.dim && d > 1e-4) {
      if (Math.abs(fg[o + A.bound]! - fc[o + A.bound]!) <= 1e-5 * scale * magnitude) {
        out.anchorNearTies++;
        return;
      }
    }
    out.anchor = Math.max(out.anchor, d);
  }
}
