// Manifold reuse between frames on the GPU, one implementation for 2D and 3D (shaders/reuse.wgsl
// after the per-dimension reuse2d.wgsl or reuse3d.wgsl; the method is told in src/cpu/reuse2d.ts,
// which with src/cpu/reuse3d.ts is the same stage on the host, loop for loop).
//
// A frame, per window of its pair slots (one window unless the slots do not fit one binding):
//   encodeReuse    per slot k, last frame's anchor of the slot's pair (prevSlot[k], or with no
//                  prevSlot the same slot) reused at the current poses. flags[k] =
//                    REUSE_STATUS.kept    (0) manifold slot k written, anchor carried into anchorsCur[k];
//                    REUSE_STATUS.collide (1) needs the full collide (manifold and anchor slot untouched);
//                    REUSE_STATUS.apart   (2) no contact, provably: the empty manifold written, anchor carried;
//                  with `counts`, (u32 kept, collide, apart, 0) += the window's slots per status;
//                  with `workList`, each slot flagged 1 appended to the list (an atomic add);
//   (the narrowphase: the full collide of the listed slots, into their manifold slots;)
//   encodeAnchors  per slot flagged 1, its anchor from its new manifold and the current poses,
//                  over the work list of those slots (a warp's lanes then all build anchors).
// (A frame counts its collided slots, and those of them that touch, in the contact list's
// compaction, which reads the flags anyway: ContactsBatch.statusCounts.)
// Buffers per pair slot: manifold (Manifold2D 48 bytes, Manifold3D 160), anchor (Anchor2D 80
// bytes, Anchor3D 144, in two lists: last frame's and this frame's, swapped each frame), flag
// (4 bytes), prevSlot (4 bytes, optional). Pairs are (bodyA, bodyB), 8 bytes.
//
// Deterministic: no atomics except the counts (sums) and the work list's appends, whose order
// changes no output (what is made from an entry lands in its slot); reruns are byte-identical in
// every output. Both calls record one compute pass into an encoder, or their dispatches into the
// caller's pass; they write their parameters with queue.writeBuffer into the uniform slot of their
// `window` (each window of one frame its own; submit each frame before encoding the next on the
// same instance).

import { REUSE_STATUS, REUSE_WORKGROUP_SIZE } from '../constants.ts';
import { structTable, word, type BufferBindingLayout } from '../layout.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { bindingBytes, createUniformSlots, dispatchGrid, UNIFORM_SLOT_BYTES } from './buffers.ts';
import {
  ENTRIES_REUSE_2D,
  ENTRIES_REUSE_3D,
  STRUCTS_REUSE_LAYOUT,
} from '../reflection.generated.ts';
import { REUSE_PREV_MODE as PREV_MODE, reuseWgsl2D, reuseWgsl3D } from './frame-wgsl.ts';
import { compileKernels, type Kernel, cachedBindGroup } from './pipelines.ts';
import { defaultStoreMode, type StoreMode } from './device.ts';
import type { GpuCount, WorkList } from './pair-classes.ts';

export { REUSE_STATUS };

/** What differs between the dimensions: the module and the per-slot sizes. */
export interface ReuseDimension {
  label: 'reuse2d' | 'reuse3d';
  /** The module, with the narrowphase's functions as `kernel` compiles them (kernelFor's names). */
  wgsl: (kernel: ReuseKernel) => string;
  /**
   * The kernel a frame that collides `classes` alone compiles its reuse module as: a pair class
   * whose module was measured smaller than the general one (docs/frame.md, *Cold start*), else
   * 'general' (every path).
   */
  kernelFor(classes: readonly string[]): ReuseKernel;
  /** The kernels its module compiles as. */
  kernels: readonly ReuseKernel[];
  /** The buffers each of its entry points binds (reflected at build time). */
  entries: Readonly<Record<string, readonly BufferBindingLayout[]>>;
  anchorBytes: number;
  manifoldBytes: number;
}

/** The narrowphase specialisations a reuse module is compiled as. */
export type ReuseKernel = 'general' | 'boxBox';

export const REUSE_DIMENSION_2D: ReuseDimension = {
  label: 'reuse2d',
  // The polygons class's module compiled as long as the general one (lavapipe, cache off).
  wgsl: () => reuseWgsl2D('general'),
  kernelFor: () => 'general',
  kernels: ['general'],
  entries: ENTRIES_REUSE_2D,
  anchorBytes: 4 * LAYOUT_2D.anchor.words,
  manifoldBytes: 4 * LAYOUT_2D.manifold.words,
};

export const REUSE_DIMENSION_3D: ReuseDimension = {
  label: 'reuse3d',
  wgsl: reuseWgsl3D,
  kernelFor: (classes) => (classes.length === 1 && classes[0] === 'boxBox' ? 'boxBox' : 'general'),
  kernels: ['general', 'boxBox'],
  entries: ENTRIES_REUSE_3D,
  anchorBytes: 4 * LAYOUT_3D.anchor.words,
  manifoldBytes: 4 * LAYOUT_3D.manifold.words,
};

/** ReuseParams (shaders/reuse-layout.wgsl), reflected. */
const PARAMS = (() => {
  const p = structTable(STRUCTS_REUSE_LAYOUT, 'shaders/reuse-layout.wgsl').struct('ReuseParams');
  return {
    bytes: p.size,
    pairCount: word(p, 'pairCount'),
    margin: word(p, 'margin'),
    firstSlot: word(p, 'firstSlot'),
    prevMode: word(p, 'prevMode'),
    slots: word(p, 'slots'),
    workCount: word(p, 'workCount'),
    twins: word(p, 'twins'),
    held: word(p, 'held'),
    prevFirst: word(p, 'prevFirst'),
  };
})();

/** Bytes of the counts a reuse pass adds to: u32 kept, collide, apart (REUSE_STATUS order), and one spare. */
export const REUSE_COUNTS_BYTES = 16;

/** Bytes of a work list's buffer before its slots (ReuseInputs.workList): a binding offset. */
export const REUSE_LIST_HEADER_BYTES = 256;
/** Where the work list's length lies (a u32), in bytes from the start of its buffer. */
const REUSE_LIST_LENGTH_BYTE = 12;

/** Bytes of a work list's buffer for a window of `slots` slots (every one may be listed). */
export function reuseListBytes(slots: number): number {
  return REUSE_LIST_HEADER_BYTES + 4 * Math.max(1, slots);
}

/** The slots encodeReuse listed (ReuseInputs.workList), as encodeAnchors and the pair classes read them. */
export interface ReuseWorkList {
  list: WorkList;
  count: GpuCount;
}

/** The work list encodeReuse writes into `buffer` from `offset` (a multiple of 256), for `slots` slots. */
export function reuseWorkList(buffer: GPUBuffer, offset: number, slots: number): ReuseWorkList {
  return {
    list: { buffer, offset: offset + REUSE_LIST_HEADER_BYTES, capacity: Math.max(1, slots) },
    count: { buffer, offset: offset + REUSE_LIST_LENGTH_BYTE },
  };
}

/** The pair count: a number from the host, or a u32 at `offset` (a multiple of 4) of a GPU buffer with COPY_SRC usage. */
export type PairCount = number | { buffer: GPUBuffer; offset: number };

/**
 * Workgroups of REUSE_WORKGROUP_SIZE over the window's pairs, as dispatchWorkgroupsIndirect reads
 * them (x, y, z at `offset` of a buffer with INDIRECT usage; the GPU broadphase writes them per
 * batch). Without it, the kernels are dispatched over every slot of the window.
 */
export type PairGrid = { buffer: GPUBuffer; offset: number };

export interface ReuseInputs {
  /** Body2D / Body3D array (the frame's poses and shapes). */
  bodies: GPUBufferBinding;
  /** array<vec2u>: the window's pairs (bodyA, bodyB); element k is slot k of the window. */
  pairs: GPUBufferBinding;
  /**
   * The window's pairs this frame. A GPU count larger than the window's slots (the smallest of
   * the window bindings) is clamped to them; a host count must fit.
   */
  pairCount: PairCount;
  /**
   * u32 per slot of the window: the pair's slot in last frame's list, or REUSE_NO_SLOT (0xffffffff)
   * for a new pair. null: the identity (slot k was last frame's slot firstSlot + k; the pair list
   * must be last frame's, slot for slot).
   */
  prevSlot: GPUBufferBinding | null;
  /** The window's first slot in the frame (the identity's offset); default 0. */
  firstSlot?: number;
  /**
   * The anchor buffers alternate frame by frame and anchorsCur is the one anchorsPrev was two
   * frames ago (neither reallocated; anchorsCur bound from firstSlot, anchorsPrev from its offset):
   * a pair at last frame's slot leaves its anchor where this buffer already holds it, marked
   * ANCHOR_TWIN (a first carry in place marks anchorsPrev's copy too). Default false (every
   * reused anchor stored, anchorsPrev only read). GpuFrame2D/3D set it.
   */
  twins?: boolean;
  /**
   * The window's manifold slots hold last frame's, slot for slot (one window this frame and last,
   * the same buffer, nothing else writing it): a pair proven apart at last frame's slot leaves its
   * empty manifold where it already is (it was apart there, or the narrowphase found it so).
   * Default false (every reused slot written). GpuFrame2D/3D set it.
   */
  manifoldsHeld?: boolean;
  /**
   * Last frame's anchors, or the part of them one binding holds: prevSlot indexes the whole list
   * and the binding's offset (a whole number of anchors) says which slot it starts at; a pair
   * whose last slot lies outside it collides. null: no last frame (every slot collides).
   */
  anchorsPrev: GPUBufferBinding | null;
  /** This frame's anchors of the window's slots (reused slots get theirs carried; encodeAnchors writes the rest). */
  anchorsCur: GPUBufferBinding;
  /** The window's manifold slots (reused slots written). */
  manifolds: GPUBufferBinding;
  /** u32 per slot of the window: the REUSE_STATUS. */
  flags: GPUBufferBinding;
  /**
   * REUSE_COUNTS_BYTES: the pass adds its slots per status. Optional, for a stage created with
   * `counts: true`: counting is per-slot atomics (their cost: docs/manifold-reuse.md); the frames
   * count in the contact list's compaction instead.
   */
  counts?: GPUBufferBinding;
  /** Zero the counts first (an encoder only; the buffer needs COPY_DST). Default true. */
  clearCounts?: boolean;
  /**
   * For a stage created with `list: true`: the buffer the pass appends each slot it flags collide
   * to, at least reuseListBytes(slots) bytes from an offset that is a multiple of 256, with
   * COPY_DST usage (the list's length is zeroed first: an encoder only). reuseWorkList() says
   * where the slots and their count lie. In the order of the appends (atomics): what is made from
   * the list lands in each slot's own words.
   */
  workList?: GPUBufferBinding;
  margin: number;
  /** Uniform slot: each window of one frame its own (default 0; below the instance's `windows`). */
  window?: number;
  grid?: PairGrid;
}

export interface AnchorInputs {
  /** Shape2D / Shape3D array. */
  shapes: GPUBufferBinding;
  /** 3D: the flat hull vertex and plane buffers (hullVertices, hullPlanes of pack3d). */
  hullVertices?: GPUBufferBinding;
  hullPlanes?: GPUBufferBinding;
  bodies: GPUBufferBinding;
  pairs: GPUBufferBinding;
  pairCount: PairCount;
  /** The window's manifold slots, after the narrowphase filled the slots flagged collide. */
  manifolds: GPUBufferBinding;
  /** The slots encodeReuse flagged collide and their count on the GPU (reuseWorkList). */
  workList: ReuseWorkList;
  anchorsCur: GPUBufferBinding;
  margin: number;
  window?: number;
  /** Workgroups covering the work list's entries (at least); without it, every slot of the window. */
  grid?: PairGrid;
}

export interface GpuReuseOptions {
  /** Windows per frame (uniform slots); default 1. */
  windows?: number;
  /** How the kernels store manifolds and anchors (default: defaultStoreMode(device)). */
  stores?: StoreMode;
  /**
   * The narrowphase's functions as this kernel compiles them (default 'general'): 'boxBox' holds
   * the box paths alone, for pairs of boxes only (other pairs get wrong anchors).
   */
  kernel?: ReuseKernel;
  /**
   * Compile reuseSlots to count its slots per status (ReuseInputs.counts). Default false: the
   * counting's workgroup barrier costs a SIMD adapter even where it is never reached (docs/frame.md).
   */
  counts?: boolean;
  /**
   * Compile reuseSlots to append the slots it flags collide to a work list (ReuseInputs.workList),
   * as the frames do. Not with `counts` (both take the same binding). Default false.
   */
  list?: boolean;
}

const KERNELS = ['reuseSlots', 'anchorSlots'] as const;
type KernelName = (typeof KERNELS)[number];

export class GpuReuse {
  private readonly params: GPUBuffer;
  private readonly noSlots: GPUBuffer;
  private readonly noAnchors: GPUBuffer;
  private readonly noCounts: GPUBuffer;
  readonly windows: number;
  readonly kernel: ReuseKernel;
  readonly stores: StoreMode;
  /** Whether reuseSlots counts its slots per status (GpuReuseOptions.counts). */
  readonly counts: boolean;
  /** Whether reuseSlots lists the slots it flags collide (GpuReuseOptions.list). */
  readonly list: boolean;

  private constructor(
    readonly device: GPUDevice,
    readonly dimension: ReuseDimension,
    private readonly kernels: Record<KernelName, Kernel>,
    private readonly bindings: Record<KernelName, number[]>,
    options: GpuReuseOptions,
  ) {
    this.windows = options.windows ?? 1;
    this.kernel = options.kernel ?? 'general';
    this.stores = options.stores ?? defaultStoreMode(device);
    this.counts = options.counts ?? false;
    this.list = options.list ?? false;
    if (!Number.isInteger(this.windows) || this.windows < 1)
      throw new RangeError(`windows must be an integer >= 1, got ${this.windows}`);
    this.params = createUniformSlots(device, `${dimension.label}-params`, 2 * this.windows);
    const S = GPUBufferUsage.STORAGE;
    this.noSlots = device.createBuffer({
      label: `${dimension.label}-no-prev-slots`,
      size: 16,
      usage: S,
    });
    this.noAnchors = device.createBuffer({
      label: `${dimension.label}-no-prev-anchors`,
      size: dimension.anchorBytes,
      usage: S,
    });
    this.noCounts = device.createBuffer({
      label: `${dimension.label}-no-counts`,
      size: REUSE_COUNTS_BYTES,
      usage: S,
    });
  }

  /** Compiles the kernels of `dimension` (REUSE_DIMENSION_2D or _3D) for `device`. */
  static async create(
    device: GPUDevice,
    dimension: ReuseDimension,
    options: GpuReuseOptions = {},
  ): Promise<GpuReuse> {
    const stores = options.stores ?? defaultStoreMode(device);
    const kernel = options.kernel ?? 'general';
    const counts = options.counts ?? false;
    const list = options.list ?? false;
    if (counts && list)
      throw new RangeError(
        `${dimension.label}: counts and list take the same binding: ask for one`,
      );
    if (!dimension.kernels.includes(kernel))
      throw new RangeError(
        `${dimension.label}: no kernel '${kernel}' (one of ${dimension.kernels.join(', ')})`,
      );
    // A class's module may leave out bindings the general one's reflection lists: explicit layouts.
    const { kernels, bindings } = await compileKernels(
      device,
      `${dimension.label}-${stores}${kernel === 'general' ? '' : `-${kernel}`}${counts ? '-counted' : ''}${list ? '-listed' : ''}`,
      KERNELS,
      dimension.entries,
      () =>
        `const RU_STAGED_STORES: bool = ${stores === 'staged'};\nconst RU_STAGE_SLOTS: u32 = ${stores === 'staged' ? 'REUSE_WORKGROUP_SIZE' : '1u'};\nconst RU_COUNTS: bool = ${counts};\nconst RU_LIST: bool = ${list};\nconst RU_LIST_LENGTH: u32 = ${REUSE_LIST_LENGTH_BYTE / 4}u;\nconst RU_LIST_FIRST: u32 = ${REUSE_LIST_HEADER_BYTES / 4}u;\n${dimension.wgsl(kernel)}`,
      'reflected',
    );
    return new GpuReuse(device, dimension, kernels, bindings, options);
  }

  /** Slots of a window: the smallest of its per-slot bindings. */
  private windowSlots(perSlot: [GPUBufferBinding | null, number, string][]): number {
    let slots = Infinity;
    for (const [b, bytes, name] of perSlot) {
      if (!b) continue;
      const size = bindingBytes(b);
      if (size % bytes !== 0)
        throw new RangeError(
          `${this.dimension.label}: ${name} is ${size} bytes, not a whole number of ${bytes}-byte slots`,
        );
      slots = Math.min(slots, size / bytes);
    }
    return slots;
  }

  /** Writes the window's parameters; a GPU pair count is copied over them (an encoder only). */
  private writeParams(
    target: GPUCommandEncoder | GPUComputePassEncoder,
    slot: number,
    pairCount: PairCount,
    margin: number,
    slots: number,
    prevMode: number,
    firstSlot: number,
    twins = false,
    held = false,
    prevFirst = 0,
  ): number {
    if (!(Number.isInteger(slot) && slot >= 0 && slot < 2 * this.windows))
      throw new RangeError(
        `${this.dimension.label}: window must be an integer in 0..${this.windows - 1}`,
      );
    if (!(Number.isFinite(margin) && margin >= 0))
      throw new RangeError(
        `${this.dimension.label}: margin must be a finite number >= 0, got ${margin}`,
      );
    if (typeof pairCount === 'number') {
      if (!Number.isInteger(pairCount) || pairCount < 0 || pairCount > slots) {
        throw new RangeError(
          `${this.dimension.label}: pairCount must be an integer in 0..${slots} (the window's slots), got ${pairCount}`,
        );
      }
    } else if (pairCount.offset % 4 !== 0) {
      throw new RangeError(
        `${this.dimension.label}: pairCount.offset must be a multiple of 4, got ${pairCount.offset}`,
      );
    } else if (!('copyBufferToBuffer' in target)) {
      throw new Error(
        `${this.dimension.label}: a pair count on the GPU is copied before the pass: give an encoder, not a pass`,
      );
    }
    const words = new ArrayBuffer(PARAMS.bytes);
    const u = new Uint32Array(words);
    u[PARAMS.pairCount] = typeof pairCount === 'number' ? pairCount : 0;
    new Float32Array(words)[PARAMS.margin] = margin;
    u[PARAMS.firstSlot] = firstSlot;
    u[PARAMS.prevMode] = prevMode;
    u[PARAMS.slots] = slots;
    u[PARAMS.twins] = twins ? 1 : 0;
    u[PARAMS.held] = held ? 1 : 0;
    u[PARAMS.prevFirst] = prevFirst;
    this.device.queue.writeBuffer(this.params, slot * UNIFORM_SLOT_BYTES, words);
    if (typeof pairCount !== 'number') {
      (target as GPUCommandEncoder).copyBufferToBuffer(
        pairCount.buffer,
        pairCount.offset,
        this.params,
        slot * UNIFORM_SLOT_BYTES + 4 * PARAMS.pairCount,
        4,
      );
    }
    return slots;
  }

  private dispatch(
    target: GPUCommandEncoder | GPUComputePassEncoder,
    name: KernelName,
    slot: number,
    slots: number,
    buffers: Record<number, GPUBufferBinding>,
    indirect: PairGrid | undefined,
  ): void {
    if (slots <= 0) return;
    const ownPass = 'beginComputePass' in target;
    const pass = ownPass
      ? target.beginComputePass({ label: `${this.dimension.label}.${name}` })
      : target;
    buffers[0] = { buffer: this.params, offset: slot * UNIFORM_SLOT_BYTES, size: PARAMS.bytes };
    pass.setPipeline(this.kernels[name].pipeline);
    pass.setBindGroup(
      0,
      cachedBindGroup(this.device, {
        label: `${this.dimension.label}.${name}`,
        layout: this.kernels[name].layout,
        entries: this.bindings[name].map((b) => ({ binding: b, resource: buffers[b] })),
      }),
    );
    if (indirect) {
      pass.dispatchWorkgroupsIndirect(indirect.buffer, indirect.offset);
    } else {
      const grid = dispatchGrid(slots, REUSE_WORKGROUP_SIZE);
      pass.dispatchWorkgroups(grid.x, grid.y);
    }
    if (ownPass) pass.end();
  }

  /**
   * Records the reuse pass of one window: reused manifolds into their slots, anchors carried,
   * flags and counts (see the header). With a pass, the counts are not cleared and the pair count
   * must come from the host.
   */
  encodeReuse(target: GPUCommandEncoder | GPUComputePassEncoder, inputs: ReuseInputs): void {
    const d = this.dimension;
    const slots = this.windowSlots([
      [inputs.pairs, 8, 'pairs'],
      [inputs.prevSlot, 4, 'prevSlot'],
      [inputs.anchorsCur, d.anchorBytes, 'anchorsCur'],
      [inputs.manifolds, d.manifoldBytes, 'manifolds'],
      [inputs.flags, 4, 'flags'],
    ]);
    if (inputs.counts && !this.counts)
      throw new Error(
        `${d.label}: counts given to a stage compiled without them: GpuReuse.create(..., { counts: true })`,
      );
    if (!inputs.workList !== !this.list)
      throw new Error(
        this.list
          ? `${d.label}: a stage created with list: true appends to a work list: give workList`
          : `${d.label}: workList given to a stage compiled without it: GpuReuse.create(..., { list: true })`,
      );
    const tally = inputs.workList
      ? this.listBinding(inputs.workList, slots)
      : this.countsBinding(inputs.counts);
    const clearsCounts = inputs.counts !== undefined && (inputs.clearCounts ?? true);
    if ((clearsCounts || inputs.workList) && !('clearBuffer' in target))
      throw new Error(
        inputs.workList
          ? `${d.label}: the work list's length is zeroed before the pass: give an encoder`
          : `${d.label}: counts are cleared before the pass: give an encoder, or clearCounts: false`,
      );
    const prevOffset = inputs.anchorsPrev?.offset ?? 0;
    if (inputs.anchorsPrev && bindingBytes(inputs.anchorsPrev) % d.anchorBytes !== 0) {
      throw new RangeError(
        `${d.label}: anchorsPrev is not a whole number of ${d.anchorBytes}-byte anchors`,
      );
    }
    if (prevOffset % d.anchorBytes !== 0)
      throw new RangeError(
        `${d.label}: anchorsPrev.offset must be a whole number of ${d.anchorBytes}-byte anchors, got ${prevOffset}`,
      );
    const firstSlot = inputs.firstSlot ?? 0;
    if (!Number.isInteger(firstSlot) || firstSlot < 0)
      throw new RangeError(`${d.label}: firstSlot must be an integer >= 0, got ${firstSlot}`);
    const mode = !inputs.anchorsPrev
      ? PREV_MODE.none
      : inputs.prevSlot
        ? PREV_MODE.slots
        : PREV_MODE.identity;
    const slot = 2 * (inputs.window ?? 0);
    this.writeParams(
      target,
      slot,
      inputs.pairCount,
      inputs.margin,
      slots,
      mode,
      firstSlot,
      inputs.twins === true,
      inputs.manifoldsHeld === true,
      prevOffset / d.anchorBytes,
    );
    // Where a buffer is cleared, the target was checked above to be an encoder.
    const encoder = target as GPUCommandEncoder;
    if (clearsCounts) encoder.clearBuffer(tally.buffer, tally.offset ?? 0, REUSE_COUNTS_BYTES);
    if (inputs.workList)
      encoder.clearBuffer(tally.buffer, (tally.offset ?? 0) + REUSE_LIST_LENGTH_BYTE, 4);
    this.dispatch(
      target,
      'reuseSlots',
      slot,
      slots,
      {
        1: inputs.bodies,
        2: inputs.pairs,
        3: inputs.prevSlot ?? { buffer: this.noSlots },
        4: inputs.anchorsPrev ?? { buffer: this.noAnchors },
        5: inputs.anchorsCur,
        6: inputs.manifolds,
        7: inputs.flags,
        8: tally,
      },
      inputs.grid,
    );
  }

  /**
   * Records the anchor pass of one window: the anchors of the work list's slots (those flagged
   * collide), from their new manifolds. Its count is copied on the GPU: give an encoder.
   */
  encodeAnchors(encoder: GPUCommandEncoder, inputs: AnchorInputs): void {
    const d = this.dimension;
    if (d.label === 'reuse3d' && !(inputs.hullVertices && inputs.hullPlanes))
      throw new Error('reuse3d: encodeAnchors needs hullVertices and hullPlanes');
    const slots = this.windowSlots([
      [inputs.pairs, 8, 'pairs'],
      [inputs.anchorsCur, d.anchorBytes, 'anchorsCur'],
      [inputs.manifolds, d.manifoldBytes, 'manifolds'],
    ]);
    const { list, count } = inputs.workList;
    const slot = 2 * (inputs.window ?? 0) + 1;
    this.writeParams(encoder, slot, inputs.pairCount, inputs.margin, slots, PREV_MODE.none, 0);
    encoder.copyBufferToBuffer(
      count.buffer,
      count.offset,
      this.params,
      slot * UNIFORM_SLOT_BYTES + 4 * PARAMS.workCount,
      4,
    );
    const buffers: Record<number, GPUBufferBinding> = {
      1: inputs.bodies,
      2: inputs.pairs,
      5: inputs.anchorsCur,
      6: inputs.manifolds,
      9: inputs.shapes,
      14: { buffer: list.buffer, offset: list.offset, size: 4 * list.capacity },
    };
    if (inputs.hullVertices) buffers[10] = inputs.hullVertices;
    if (inputs.hullPlanes) buffers[11] = inputs.hullPlanes;
    const pass = encoder.beginComputePass({ label: `${d.label}.anchorSlots` });
    this.dispatch(pass, 'anchorSlots', slot, slots, buffers, inputs.grid);
    pass.end();
  }

  /** The work list's binding, checked (encodeReuse zeroes its length). */
  private listBinding(workList: GPUBufferBinding, slots: number): GPUBufferBinding {
    const label = this.dimension.label;
    const offset = workList.offset ?? 0;
    if (offset % REUSE_LIST_HEADER_BYTES !== 0)
      throw new RangeError(`${label}: workList.offset must be a multiple of 256, got ${offset}`);
    const bytes = reuseListBytes(slots);
    if (bindingBytes(workList) < bytes)
      throw new RangeError(`${label}: workList must hold ${bytes} bytes for ${slots} slots`);
    return { buffer: workList.buffer, offset, size: bytes };
  }

  /** The counts' binding (checked), or a spare one when the caller counts nothing. */
  private countsBinding(counts: GPUBufferBinding | undefined): GPUBufferBinding {
    if (!counts) return { buffer: this.noCounts };
    if (bindingBytes(counts) < REUSE_COUNTS_BYTES)
      throw new RangeError(`${this.dimension.label}: counts must hold ${REUSE_COUNTS_BYTES} bytes`);
    return { buffer: counts.buffer, offset: counts.offset ?? 0, size: REUSE_COUNTS_BYTES };
  }

  destroy(): void {
    this.params.destroy();
    this.noSlots.destroy();
    this.noAnchors.destroy();
    this.noCounts.destroy();
  }
}
