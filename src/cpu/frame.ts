// The whole collision frame on the host: the CPU reference of src/gpu/frame.ts, stage for stage.
//   broadphase  fat boxes (src/broadphase-fat.ts, as bpAabb keeps them) and the pairs of the
//               overlapping ones, in (bodyA, bodyB) order; each pair's slot last frame (prevSlot);
//   reuse       per pair, last frame's manifold kept or proven apart (src/cpu/reuse.ts's loop), or
//               flagged for the full collide;
//   narrowphase the flagged pairs collided (collidePacked2D / 3D) into their slots; their anchors;
//   contacts    the dense list, persistence and events (CpuContacts).
// The GPU frame finds the same pairs by another road (kept lists, a sorted structure); the set is
// the same by construction. GPU and CPU agree but where f32 and f64 break a near-tie differently
// (a box at its fat box's edge, a pose at a reuse tolerance): tests count those.

import { FatBoxes, prevSlots } from '../broadphase-fat.ts';
import { bodyAabbs2D } from '../broadphase2d.ts';
import { bodyAabbs3D } from '../broadphase3d.ts';
import { FAT_AABB_MARGIN } from '../constants.ts';
import { checkContactOptions } from '../contact-list-layout.ts';
import { onUnlessFalse } from '../errors.ts';
import { LAYOUT_2D } from '../layout2d.ts';
import { LAYOUT_3D } from '../layout3d.ts';
import { packScene2D } from '../pack2d.ts';
import { packScene3D } from '../pack3d.ts';
import type { Scene2D, Scene3D } from '../scene.ts';
import { CpuContacts2D } from './contact-list2d.ts';
import { CpuContacts3D } from './contact-list3d.ts';
import type { ContactsResult, CpuContacts } from './contact-list.ts';
import { collidePacked2D, prepareCpu2D } from './narrowphase2d.ts';
import { collidePacked3D, prepareCpu3D } from './narrowphase3d.ts';
import {
  anchorSlots,
  REUSE_STATUS,
  reuseSlots,
  type ReuseCounts,
  type ReusePairs,
} from './reuse.ts';
import { reusePairs2D } from './reuse2d.ts';
import { reusePairs3D } from './reuse3d.ts';

/** What differs between the dimensions. */
interface CpuFrameDimension<S extends Scene2D | Scene3D> {
  dim: 2 | 3;
  manifoldWords: number;
  anchorWords: number;
  tightBoxes(scene: S): Float64Array;
  /** Packed bodies (Body2D / Body3D) and the per-pair calls of the reuse loops. */
  reuse(scene: S): ReusePairs;
  /** The manifold slots of `pairs` (the full collide). */
  collide(scene: S, pairs: Uint32Array): ArrayBuffer;
  contacts(): CpuContacts;
}

export interface CpuFrameOptions {
  /** As FrameInputsBase.fatMargin (default FAT_AABB_MARGIN). */
  fatMargin?: number;
  /** As FrameInputsBase.remap: per body its index last frame, or 0xffffffff. */
  remap?: Uint32Array;
  /** false: collide every pair anew this frame. */
  reuse?: boolean;
  /** As FrameInputsBase.events: false, no contact events this frame. */
  events?: boolean;
  /** As FrameInputsBase.userValues: false, no user values this frame (none carried to the next). */
  userValues?: boolean;
}

export interface CpuFrameResult {
  /** The frame's pairs (a < b) in (a, b) order, and each one's slot last frame. */
  pairs: Uint32Array;
  prevSlot: Uint32Array;
  /** Per pair: REUSE_STATUS. */
  flags: Uint32Array;
  reuse: ReuseCounts;
  /** Bodies that took a new fat box. */
  moved: number;
  contacts: ContactsResult;
}

export class CpuFrame<S extends Scene2D | Scene3D> {
  private readonly fat: FatBoxes;
  private lastPairs: Uint32Array | null = null;
  private anchors: ArrayBuffer | null = null;
  private lastMargin = Number.NaN;
  /** The contact stage, as GpuFrame's `contacts` (setUserValues() for the next frame). */
  readonly contacts: CpuContacts;

  protected constructor(private readonly dimension: CpuFrameDimension<S>) {
    this.fat = new FatBoxes(dimension.dim);
    this.contacts = dimension.contacts();
  }

  /** Forgets every frame before (as GpuFrame.reset()). */
  reset(): void {
    this.lastPairs = null;
    this.anchors = null;
    this.contacts.reset();
  }

  /** One frame of `scene` (its bodies' current poses; its `pairs` are ignored). */
  step(scene: S, options: CpuFrameOptions = {}): CpuFrameResult {
    const d = this.dimension;
    const reuseOn = onUnlessFalse('options.reuse', options.reuse);
    const { events, userValues } = checkContactOptions('options', options);
    const remap = options.remap;
    const refit =
      this.lastPairs === null || remap !== undefined || scene.margin !== this.lastMargin;
    const extents = scene.shapes.map((s) => s.extent);
    const moved = this.fat.update(
      d.tightBoxes(scene),
      scene.bodyShape,
      extents,
      options.fatMargin ?? FAT_AABB_MARGIN,
      refit,
    );
    const pairs = this.fat.pairs(scene.shapes, scene.bodyShape);
    const prevSlot = prevSlots(pairs, this.lastPairs, remap);
    const n = pairs.length / 2;

    // Reuse, then the full collide of the flagged pairs into their slots, then their anchors.
    const manifolds = new ArrayBuffer(4 * d.manifoldWords * n);
    const anchors = new ArrayBuffer(4 * d.anchorWords * n);
    const flags = new Uint32Array(n);
    const calls = d.reuse(scene);
    const prev = reuseOn ? this.anchors : null;
    const reuse = reuseSlots(
      calls,
      pairs,
      n,
      prevSlot,
      0,
      prev,
      anchors,
      manifolds,
      flags,
      scene.margin,
    );
    const todo: number[] = [];
    flags.forEach((f, k) => {
      if (f === REUSE_STATUS.collide) todo.push(k);
    });
    const sub = new Uint32Array(2 * todo.length);
    todo.forEach((k, i) => sub.set(pairs.subarray(2 * k, 2 * k + 2), 2 * i));
    const fresh = new Uint32Array(d.collide(scene, sub));
    const slots = new Uint32Array(manifolds);
    todo.forEach((k, i) =>
      slots.set(
        fresh.subarray(i * d.manifoldWords, (i + 1) * d.manifoldWords),
        k * d.manifoldWords,
      ),
    );
    anchorSlots(calls, pairs, n, manifolds, flags, anchors, scene.margin);

    const contacts = this.contacts.runFrame(manifolds, pairs, prevSlot, {
      events,
      userValues,
      status: flags,
    });
    this.lastPairs = pairs;
    this.anchors = anchors;
    this.lastMargin = scene.margin;
    return { pairs, prevSlot, flags, reuse, moved, contacts };
  }
}

const DIMENSION_2D: CpuFrameDimension<Scene2D> = {
  dim: 2,
  manifoldWords: LAYOUT_2D.manifold.words,
  anchorWords: LAYOUT_2D.anchor.words,
  tightBoxes: (scene) => bodyAabbs2D(scene, scene.margin),
  reuse: (scene) =>
    reusePairs2D({
      shapes: scene.shapes,
      bodies: new Float32Array(packScene2D(scene, new Uint32Array(0)).bodies),
    }),
  collide: (scene, pairs) => {
    const packed = packScene2D(scene, pairs);
    return collidePacked2D(prepareCpu2D(packed, scene.shapes.length), packed);
  },
  contacts: () => new CpuContacts2D(),
};

const DIMENSION_3D: CpuFrameDimension<Scene3D> = {
  dim: 3,
  manifoldWords: LAYOUT_3D.manifold.words,
  anchorWords: LAYOUT_3D.anchor.words,
  tightBoxes: (scene) => bodyAabbs3D(scene, scene.margin),
  reuse: (scene) =>
    reusePairs3D({
      shapes: scene.shapes,
      bodies: new Float32Array(packScene3D(scene, new Uint32Array(0)).bodies),
    }),
  collide: (scene, pairs) => {
    const packed = packScene3D(scene, pairs);
    return collidePacked3D(prepareCpu3D(packed), packed);
  },
  contacts: () => new CpuContacts3D(),
};

/** The 2D frame on the host (GpuFrame2D's reference). */
export class CpuFrame2D extends CpuFrame<Scene2D> {
  constructor() {
    super(DIMENSION_2D);
  }
}

/** The 3D frame on the host (GpuFrame3D's reference). */
export class CpuFrame3D extends CpuFrame<Scene3D> {
  constructor() {
    super(DIMENSION_3D);
  }
}
