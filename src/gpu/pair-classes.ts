// Pair classes: the narrowphase of a batch of pairs as one pipeline per class of shape kinds
// (src/gpu/pair-classes2d.ts, pair-classes3d.ts name the classes), each holding only its class's
// paths and private arrays. Used by the GPU frame (src/gpu/frame.ts, per batch) and by collide()
// (src/gpu/narrowphase2d.ts, narrowphase3d.ts, per chunk).
//
// Interface
//
//   const pc = await GpuPairClasses.create(device, NARROWPHASE_DIMENSION_3D, classesOfKinds3D(['box', 'hull']),
//     { closestOnDemand: true });               // optional: closest passes compiled when first asked for
//   await pc.prepare(['roundHull']);            // more classes later (compiled in parallel)
//   pc.require(classes, 'frame3d');             // throws MissingPairClassError naming what is not compiled
//   pc.encode(encoder, {
//     inputs,                                   // the narrowphase's buffers (shapes, bodies, 3D: hull buffers)
//     pairs,                                    // binding of the batch's pairs: vec2u body indices, slot s at 8 s
//     manifolds,                                // binding of the batch's manifold slots, slot s at s × slot bytes
//     slots,                                    // slots both bindings hold
//     count: { buffer, offset },                // a u32 on the GPU (COPY_SRC; offset a multiple of 4): how many items
//     workList,                                 // optional: { buffer, offset, capacity } of u32 slot indices
//     margin,
//   }, index);
//   … submit, read the results …
//   if (await pc.armAsked(batches)) { … }      // closestOnDemand: a pass was armed; run the batches again
//
// Items: without a work list, slots 0..count-1 (count ≤ slots: every pair of the batch); with one,
// its first `count` entries (count ≤ capacity), each a slot of the batch: only those pairs are
// classified and collided, every other slot is left untouched (manifold reuse). Entries at or
// above `slots` are counted as rejected (readTable) and never collided. Each pair's manifold lands
// in its own slot, byte for byte what the general kernel writes there.
//
// On the GPU (shaders/pair-classes.wgsl), no barriers and no readback: count per block of 32
// items and class, scan (src/gpu/scan.ts), scatter into per-class lists in item order, one row per
// class of params and indirect dispatch arguments (classTable); then, per class, its params copied
// into its uniform and its pipeline dispatched indirectly, then its passes over the same list: for
// a class with a contact pass (3D hull–hull: its kernel runs the SAT alone), the clip and the
// reduction of the pairs the SAT left within the margin; for a class with a closest pass (3D
// box–box, hull–hull), GJK for the pairs its kernels marked.
// A caller that reads its results back may have the passes compiled on demand (closestOnDemand):
// a class's pass is then not dispatched until a pair of the class asked for it. The kernel raises
// its class's word of a vector at the list's end when a pair asks; after the submit, armAsked()
// reads those words, compiles the passes of the classes that asked, and the caller runs its
// batches again (the same bytes as with the passes from the start). Lavapipe compiles a pipeline
// at its first dispatch, even of zero workgroups, so a pass never dispatched costs a first result
// nothing.
// With one class compiled, no split: each item to its own entry of the list (pcList; a pair of
// another class or a rejected entry names no slot there and is counted), and that class's row after
// the buckets' (readTable sums the buckets' counts on the host). Batches recorded into one submit
// pass distinct `index` values (their classifier parameters are written ahead of the submit); the
// scratch buffers are shared, commands running in order.
//
// Pipelines: createComputePipelineAsync, in parallel, only for the classes asked for; each is
// then run once on an empty batch, because lavapipe compiles a pipeline's machine code at its
// first dispatch, and a compile time that leaves that out would mislead. compileMs has the time
// per class. The classifier's kernels that the compiled classes will run are dispatched once
// too, while the classes' pipelines are still being created, so that their machine code is not
// what the first real batch waits for. A class without a pipeline is never run: encode() callers
// check require() first, and the classifier counts such pairs on the GPU (readSkipped) for a
// check after the submit.

import { dispatchRows, readBuffer, type ReadRegion } from './buffers.ts';
import {
  bufferLayout,
  cachedKernel,
  compileKernels,
  type EntryPoints,
  type Kernel,
  cachedBindGroup,
  warmUpKernel,
} from './pipelines.ts';
import { GpuScan, type ScanPlan } from './scan.ts';
import { structTable, word, type BufferBindingLayout } from '../layout.ts';
import { STRUCTS_PAIR_CLASSES } from '../reflection.generated.ts';
import { PAIR_CLASS_BLOCK, PC_WORKGROUP_SIZE } from './pair-class-wgsl.ts';
import { paceDawnPollsFor } from './dawn-polls.ts';

/** What a dimension gives: its classes, kernels and bindings. */
export interface NarrowphaseDimension<C extends string, I> {
  label: string;
  /** Class names in id order (the WGSL's PAIR_CLASS_* ids). */
  classes: readonly C[];
  /** Names for messages. */
  classLabel: Record<C, string>;
  /**
   * The narrowphase module one entry point compiles for one class, or for every path ('general');
   * `lean`: the class's passes are compiled on demand and its kernel leaves them more
   * (leanOnDemand).
   */
  kernelWgsl(kernel: C | 'general', entry?: string, lean?: boolean): string;
  /** Whether a kernel's modules differ when its passes are compiled on demand. */
  leanOnDemand?(kernel: C | 'general'): boolean;
  /** The classifier's module (its constants, the dimension's pair-classesNd.wgsl, then pair-classes.wgsl). */
  classifierWgsl(): string;
  /** Entry points: the general kernel (pairs k into slots k) and the class kernel (a class list). */
  generalEntry: string;
  classEntry: string;
  /**
   * The classes whose kernel leaves a rare path to a second kernel (`closestEntry`), dispatched
   * over the same list after it: such a kernel writes what it asks into the list's second half, so
   * their list is twice as long (whether or not the second kernel runs).
   */
  closestClasses?: readonly C[];
  closestEntry?: string;
  /**
   * The classes whose kernel runs the SAT alone and leaves the contact to a second kernel
   * (`contactEntry`), dispatched over the same list after it (before a closest pass).
   */
  contactClasses?: readonly C[];
  contactEntry?: string;
  /** The buffers the class kernel binds, and each classifier entry point (reflected at build time). */
  classBindings: readonly BufferBindingLayout[];
  classifierBindings: Readonly<Record<string, readonly BufferBindingLayout[]>>;
  /** Invocations per workgroup of the narrowphase kernels. */
  workgroupSize: number;
  /** Bytes of one manifold slot. */
  manifoldBytes: number;
  /** Params2D / Params3D word offsets (must be PairClassKernelParams's layout). */
  params: { bytes: number; pairCount: number; margin: number; rowPitch: number; first: number };
  /** The narrowphase's bind group: the inputs', then the pairs (or class list), manifolds, params. */
  bindings(
    inputs: I,
    pairs: GPUBufferBinding,
    manifolds: GPUBufferBinding,
    params: GPUBuffer,
  ): GPUBindGroupEntry[];
  /** The classifier's view of the inputs. */
  classifierInputs(inputs: I): { shapes: GPUBuffer; bodies: GPUBuffer };
}

/** A dimension's rule: its classes in id order, the class of two shape kinds, the kinds by name. */
export interface ClassRule<C extends string> {
  dim: '2D' | '3D';
  classes: readonly C[];
  pairClass(kindA: number, kindB: number): C;
  kinds: Readonly<Record<string, number>>;
}

/** The classes shapes of these kinds can form (two bodies may share a shape, so a kind pairs with itself). */
export function classesOfKinds<C extends string>(
  rule: ClassRule<C>,
  kinds: Iterable<string | number>,
): C[] {
  const numbers = [
    ...new Set(
      [...kinds].map((k) => {
        if (typeof k === 'number') return k;
        const n = rule.kinds[k];
        if (n === undefined)
          throw new Error(
            `unknown ${rule.dim} shape kind '${k}' (one of ${Object.keys(rule.kinds).join(', ')})`,
          );
        return n;
      }),
    ),
  ];
  const found = new Set<C>();
  for (const a of numbers) for (const b of numbers) found.add(rule.pairClass(a, b));
  return rule.classes.filter((c) => found.has(c));
}

/**
 * The classes the pairs of a packed scene fall in (pairs a0, b0, a1, b1, … of body indices;
 * `kindOf` a body's shape kind): the host knows them, so collide() compiles those alone.
 */
export function classesOfPairs<C extends string>(
  rule: ClassRule<C>,
  pairs: Uint32Array,
  pairCount: number,
  kindOf: (body: number) => number,
): C[] {
  const found = new Set<C>();
  for (let k = 0; k < pairCount && found.size < rule.classes.length; k++)
    found.add(rule.pairClass(kindOf(pairs[2 * k]), kindOf(pairs[2 * k + 1])));
  return rule.classes.filter((c) => found.has(c));
}

/** A scene needs a pair class whose pipeline was not compiled: its pairs would not be collided. */
export class MissingPairClassError extends Error {
  override name = 'MissingPairClassError';
}

/** A u32 on the GPU. */
export interface GpuCount {
  /** With COPY_SRC usage (the classifier copies the count). */
  buffer: GPUBuffer;
  /** Bytes; a multiple of 4. */
  offset: number;
}

export interface WorkList {
  /** u32 slot indices. */
  buffer: GPUBuffer;
  /** Bytes; a multiple of the device's minStorageBufferOffsetAlignment (256). Default 0. */
  offset?: number;
  /** Most entries the list holds (sizes the class lists); the count on the GPU must not exceed it. */
  capacity: number;
}

export interface PairClassBatch<I> {
  inputs: I;
  pairs: GPUBufferBinding;
  manifolds: GPUBufferBinding;
  slots: number;
  count: GpuCount;
  workList?: WorkList;
  margin: number;
}

/** Optional pass descriptors (labels, timestamp writes): the classification pass, then the kernels'. */
export interface PairClassPasses {
  classify?: GPUComputePassDescriptor;
  collide?: GPUComputePassDescriptor;
}

/** One classTable row as read back (readTable). */
export interface PairClassRow {
  pairCount: number;
  first: number;
}

const { struct } = structTable(STRUCTS_PAIR_CLASSES, 'shaders/pair-classes.wgsl');
const dispatchStruct = struct('PairClassDispatch');
const kernelParams = struct('PairClassKernelParams');
const classifierParams = struct('PairClassParams');
const TABLE = {
  bytes: dispatchStruct.size,
  params: word(dispatchStruct, 'params'),
  x: word(dispatchStruct, 'x'),
  pairCount: word(kernelParams, 'pairCount'),
  first: word(kernelParams, 'first'),
};
const CP = {
  bytes: classifierParams.size,
  blocks: word(classifierParams, 'blocks'),
  slots: word(classifierParams, 'slots'),
  useWorkList: word(classifierParams, 'useWorkList'),
  margin: word(classifierParams, 'margin'),
  compiled: word(classifierParams, 'compiled'),
  single: word(classifierParams, 'single'),
};
/** Bytes of one classPairs entry (vec4u: slot, body A, body B, 0; the class kernel may set the last word). */
const ENTRY_BYTES = 16;

/** The class table's row over every item: after the buckets' (the classes', then 'rejected'). */
const itemsRow = (classes: readonly unknown[]): number => classes.length + 1;

export interface PairClassOptions {
  /**
   * Compile a class's closest pass only once a pair asks for it (armAsked(); the caller reads
   * its results back and runs again then). Default false: compiled with the class and always
   * dispatched, as a frame that does not read back needs.
   */
  closestOnDemand?: boolean;
}

const CLASSIFIER_ENTRIES = ['pcCount', 'pcScatter', 'pcFinish', 'pcList'] as const;
type ClassifierEntry = (typeof CLASSIFIER_ENTRIES)[number];

function checkParamsLayout(
  label: string,
  p: NarrowphaseDimension<string, unknown>['params'],
): void {
  for (const name of ['pairCount', 'margin', 'rowPitch', 'first'] as const) {
    if (p[name] !== word(kernelParams, name) || p.bytes !== kernelParams.size) {
      throw new Error(
        `${label}: the narrowphase's params must have PairClassKernelParams's layout (shaders/pair-classes.wgsl): ${name} differs`,
      );
    }
  }
}

export class GpuPairClasses<C extends string, I> {
  /** Per compiled class, its kernel, then its passes (a closest pass once armed). */
  private readonly kernels = new Map<C, Kernel[]>();
  private readonly pending = new Map<C, Promise<void>>();
  /** closestOnDemand: the closest passes created but not yet dispatched, per class. */
  private readonly unarmed = new Map<C, Promise<Kernel>>();
  /** Milliseconds from the start of the prepare() that compiled a class to its first dispatch done. */
  readonly compileMs: Partial<Record<C, number>> = {};
  /** closestOnDemand: milliseconds arming a class's closest pass took (armAsked()). */
  readonly closestCompileMs: Partial<Record<C, number>> = {};
  /** closestOnDemand: per batch of the last submit, the list's asked vector (a word per class, 0 or 1). */
  private asked: GPUBuffer | null = null;
  /** Scratch of the current size: block counts (scanned in place) and the class lists. */
  private blockCounts: GPUBuffer | null = null;
  private list: GPUBuffer | null = null;
  /** Buffers and scan plans replaced by larger ones during this submit's batches (destroyed at the next index 0). */
  private retired: { destroy(): void }[] = [];
  private readonly table: GPUBuffer;
  /** pcControl: the item count, then per bucket the pairs not collided since the last index-0 batch. */
  private readonly control: GPUBuffer;
  private readonly noWorkList: GPUBuffer;
  private readonly classParams: GPUBuffer[];
  /** The classifier's params of each batch index (written ahead of the submit, so one buffer each). */
  private readonly batchParams: GPUBuffer[] = [];
  private readonly plans = new Map<number, ScanPlan>();
  private plansFor: GPUBuffer | null = null;
  /** The last encoded batch's one compiled class (pcList: the buckets' rows unwritten) and item capacity. */
  private last: { single: number | undefined; capacity: number } | null = null;

  private constructor(
    readonly device: GPUDevice,
    readonly dimension: NarrowphaseDimension<C, I>,
    private readonly layout: GPUBindGroupLayout,
    private readonly classifier: EntryPoints<ClassifierEntry>,
    private readonly scan: GpuScan,
    private readonly options: PairClassOptions,
  ) {
    const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
    const label = dimension.label;
    this.table = device.createBuffer({
      label: `${label}-class-table`,
      // A row per bucket (the classes, then 'rejected'), then the one-class kernel's row.
      size: TABLE.bytes * (dimension.classes.length + 2),
      usage: S | GPUBufferUsage.INDIRECT,
    });
    this.control = device.createBuffer({
      label: `${label}-class-control`,
      size: 4 * (dimension.classes.length + 2),
      usage: S,
    });
    this.noWorkList = device.createBuffer({
      label: `${label}-no-work-list`,
      size: 16,
      usage: GPUBufferUsage.STORAGE,
    });
    this.classParams = dimension.classes.map((c) =>
      device.createBuffer({
        label: `${label}-${c}-params`,
        size: dimension.params.bytes,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      }),
    );
  }

  /** The classifier, and the pipelines of `classes` (compiled in parallel, see prepare()). */
  static async create<C extends string, I>(
    device: GPUDevice,
    dimension: NarrowphaseDimension<C, I>,
    classes: Iterable<C>,
    options: PairClassOptions = {},
  ): Promise<GpuPairClasses<C, I>> {
    checkParamsLayout(dimension.label, dimension.params);
    // Every frame and narrowphase starts here, before its first wait for the GPU.
    paceDawnPollsFor(device);
    const [layout, classifier, scan] = await Promise.all([
      narrowphaseLayout(device, dimension),
      compileKernels(
        device,
        `${dimension.label}-classify`,
        CLASSIFIER_ENTRIES,
        dimension.classifierBindings,
        () => dimension.classifierWgsl(),
      ),
      GpuScan.create(device),
    ]);
    const pc = new GpuPairClasses(device, dimension, layout, classifier, scan, options);
    await pc.prepare(classes);
    return pc;
  }

  /** Classes whose pipelines are ready. */
  get compiled(): C[] {
    return this.dimension.classes.filter((c) => this.kernels.has(c));
  }

  /** Compiles the pipelines of `classes` not compiled yet, in parallel; resolves when all are ready. */
  async prepare(classes: Iterable<C>): Promise<void> {
    const start = performance.now();
    const jobs: Promise<void>[] = [];
    for (const c of new Set(classes)) {
      if (!this.dimension.classes.includes(c))
        throw new Error(
          `${this.dimension.label}: no pair class '${c}' (one of ${this.dimension.classes.join(', ')})`,
        );
      if (this.kernels.has(c)) continue;
      let job = this.pending.get(c);
      if (!job) {
        const entries = classEntryPoints(this.dimension, c);
        const compile = (e: string): Promise<Kernel> =>
          classKernel(this.device, this.dimension, c, this.layout, e, this.options.closestOnDemand);
        const later = this.options.closestOnDemand ? this.dimension.closestEntry : undefined;
        const now = entries.filter((e) => e !== later).map(compile);
        if (later && entries.includes(later)) {
          // Created once the class's kernels are (beside them, it would slow the first result),
          // and dispatched when armed. A failed compile is reported then.
          const pass = Promise.all(now).then(() => compile(later));
          pass.catch(() => undefined);
          this.unarmed.set(c, pass);
        }
        job = Promise.all(now.map((k) => k.then((kernel) => this.warmUp(kernel))))
          .then((k) => {
            this.kernels.set(c, k);
            this.compileMs[c] = performance.now() - start;
          })
          .finally(() => this.pending.delete(c));
        this.pending.set(c, job);
      }
      jobs.push(job);
    }
    const ready = new Set([...this.kernels.keys(), ...this.pending.keys()]).size;
    if (ready > 0) jobs.push(this.warmUpClassifier(ready));
    await Promise.all(jobs);
  }

  /** Throws MissingPairClassError when a class of `classes` has no pipeline (`what` names the caller). */
  require(classes: Iterable<C>, what: string): void {
    const missing = [...new Set(classes)].filter((c) => !this.kernels.has(c));
    if (missing.length > 0) {
      const names = missing.map((c) => `${c}: ${this.dimension.classLabel[c]}`).join('; ');
      throw new MissingPairClassError(
        `${what}: the scene's shapes form pair class${missing.length > 1 ? 'es' : ''} with no compiled pipeline (${names}); ` +
          `compiled: ${this.compiled.join(', ') || 'none'}. Declare the shape kinds when creating it, or await prepare() with them.`,
      );
    }
  }

  /**
   * Records the classification and the class kernels of one batch into `encoder` (see the file's
   * header). `index` distinguishes the batches of one submit.
   */
  encode(
    encoder: GPUCommandEncoder,
    batch: PairClassBatch<I>,
    index = 0,
    passes: PairClassPasses = {},
  ): void {
    const device = this.device;
    const d = this.dimension;
    const label = d.label;
    const capacity = batch.workList ? batch.workList.capacity : batch.slots;
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(
        `${label}: the batch's item capacity must be an integer >= 1, got ${capacity}`,
      );
    if (
      (batch.count.buffer.usage & GPUBufferUsage.COPY_SRC) === 0 ||
      batch.count.offset % 4 !== 0
    ) {
      throw new Error(
        `${label}: the count buffer ${batch.count.buffer.label || '(unlabeled)'} needs COPY_SRC usage and an offset that is a multiple of 4 (got ${batch.count.offset}): the count is copied`,
      );
    }
    if (batch.workList && (batch.workList.buffer.usage & GPUBufferUsage.STORAGE) === 0) {
      throw new Error(
        `${label}: the work list ${batch.workList.buffer.label || '(unlabeled)'} needs STORAGE usage`,
      );
    }
    // With one class compiled, each item goes to its own entry of the list (pcList): no counts,
    // no scan.
    const compiled = d.classes.flatMap((c, i) => (this.kernels.has(c) ? [i] : []));
    const single = compiled.length === 1 ? compiled[0]! : undefined;
    const blocks = Math.ceil(capacity / PAIR_CLASS_BLOCK);
    const buckets = d.classes.length + 1;
    const countWords = single === undefined ? buckets * blocks + 1 : buckets;
    this.last = { single, capacity };
    if (index === 0) {
      for (const r of this.retired) r.destroy();
      this.retired = [];
    }
    const blockCounts = (this.blockCounts = this.grown(
      this.blockCounts,
      4 * countWords,
      'class-block-counts',
    ));
    // The class kernels bind the list's entries, then, where a compiled class asks a closest pass,
    // as many for what it asks, then the vector a class raises when a pair of it asks.
    const asks = compiled.some((i) => d.closestClasses?.includes(d.classes[i]!));
    const askedAt = ENTRY_BYTES * 2 * capacity;
    const listBytes = asks ? askedAt + ENTRY_BYTES : ENTRY_BYTES * capacity;
    const unarmed = compiled.some((i) => this.unarmed.has(d.classes[i]!));
    const list = (this.list = this.grown(this.list, listBytes, 'class-pairs'));
    while (this.batchParams.length <= index) {
      this.batchParams.push(
        device.createBuffer({
          label: `${label}-classifier-params-${this.batchParams.length}`,
          size: CP.bytes,
          usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
        }),
      );
    }
    const params = this.batchParams[index];
    const words = new ArrayBuffer(CP.bytes);
    const u = new Uint32Array(words);
    u[CP.blocks] = blocks;
    u[CP.slots] = batch.slots;
    u[CP.useWorkList] = batch.workList ? 1 : 0;
    u[CP.compiled] = compiled.reduce((m, i) => m | (1 << i), 0);
    u[CP.single] = single ?? 0;
    new Float32Array(words)[CP.margin] = batch.margin;
    device.queue.writeBuffer(params, 0, words);

    if (index === 0) encoder.clearBuffer(this.control);
    encoder.copyBufferToBuffer(batch.count.buffer, batch.count.offset, this.control, 0, 4);
    if (single !== undefined) encoder.clearBuffer(blockCounts, 0, 4 * countWords);
    const { shapes, bodies } = d.classifierInputs(batch.inputs);
    const resources: Record<number, GPUBindingResource> = {
      0: { buffer: shapes },
      1: { buffer: bodies },
      2: batch.pairs,
      3: batch.workList
        ? {
            buffer: batch.workList.buffer,
            offset: batch.workList.offset ?? 0,
            size: 4 * batch.workList.capacity,
          }
        : { buffer: this.noWorkList },
      4: { buffer: this.control },
      5: { buffer: blockCounts, size: 4 * countWords },
      6: { buffer: list, size: ENTRY_BYTES * capacity },
      7: { buffer: this.table },
      8: { buffer: params },
    };
    const groupFor = (e: ClassifierEntry): GPUBindGroup =>
      cachedBindGroup(device, {
        label: `${label}.${e}`,
        layout: this.classifier.kernels[e].layout,
        entries: this.classifier.bindings[e].map((binding) => ({
          binding,
          resource: resources[binding],
        })),
      });
    const classify = encoder.beginComputePass(passes.classify ?? { label: `${label}.classify` });
    const dispatch = (e: ClassifierEntry, groups: number): void => {
      classify.setPipeline(this.classifier.kernels[e].pipeline);
      classify.setBindGroup(0, groupFor(e));
      dispatchRows(classify, groups);
    };
    if (single === undefined) {
      dispatch('pcCount', Math.ceil(blocks / PC_WORKGROUP_SIZE));
      this.scan.encode(classify, this.scanPlan(blockCounts, countWords));
      dispatch('pcScatter', Math.ceil(blocks / PC_WORKGROUP_SIZE));
      dispatch('pcFinish', 1);
    } else {
      dispatch('pcList', Math.ceil(blocks / PC_WORKGROUP_SIZE));
    }
    classify.end();

    // Every class's params, then one pass of the class kernels (an empty class dispatches 0
    // groups); one class: the row after the buckets'.
    const live = compiled.map((i) => [this.kernels.get(d.classes[i]!)!, i] as const);
    if (unarmed) encoder.clearBuffer(list, askedAt, ENTRY_BYTES);
    const rowOf = (i: number): number => (single === undefined ? i : itemsRow(d.classes));
    for (const [, i] of live)
      encoder.copyBufferToBuffer(
        this.table,
        rowOf(i) * TABLE.bytes + 4 * TABLE.params,
        this.classParams[i],
        0,
        d.params.bytes,
      );
    const pass = encoder.beginComputePass(passes.collide ?? { label: `${label}.classes` });
    for (const [kernels, i] of live) {
      pass.setBindGroup(
        0,
        cachedBindGroup(device, {
          label: `${label}.${d.classes[i]}`,
          layout: this.layout,
          entries: d.bindings(
            batch.inputs,
            { buffer: list, size: listBytes },
            batch.manifolds,
            this.classParams[i],
          ),
        }),
      );
      // The class kernel, then its passes over the same list (the bind group serves them all).
      for (const k of kernels) {
        pass.setPipeline(k.pipeline);
        pass.dispatchWorkgroupsIndirect(this.table, rowOf(i) * TABLE.bytes + 4 * TABLE.x);
      }
    }
    pass.end();
    if (unarmed)
      encoder.copyBufferToBuffer(
        list,
        askedAt,
        this.askedWords(encoder, index),
        ENTRY_BYTES * index,
        ENTRY_BYTES,
      );
  }

  /**
   * The buffer of the batches' asked vectors, holding batch `index`'s; cleared at index 0. A
   * larger one takes over the earlier batches' (a copy recorded before their reads).
   */
  private askedWords(encoder: GPUCommandEncoder, index: number): GPUBuffer {
    const bytes = ENTRY_BYTES * (index + 1);
    let b = this.asked;
    if (!b || b.size < bytes) {
      b = this.device.createBuffer({
        label: `${this.dimension.label}-closest-asked`,
        size: Math.max(16, Math.ceil((2 * bytes) / 16) * 16),
        usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      if (this.asked && index > 0) encoder.copyBufferToBuffer(this.asked, 0, b, 0, this.asked.size);
      if (this.asked) this.retired.push(this.asked);
      this.asked = b;
    }
    if (index === 0) encoder.clearBuffer(b);
    return b;
  }

  /**
   * closestOnDemand, after the submit of `batches` batches: arms the closest pass of each class
   * whose pairs asked for it and whose pass was not armed (compiled, then dispatched once empty)
   * and returns true: the caller runs those batches again, now with the passes. False when no
   * such pair asked.
   */
  async armAsked(batches: number): Promise<boolean> {
    const d = this.dimension;
    const unarmed = [...this.unarmed.keys()].filter((c) => this.kernels.has(c));
    if (unarmed.length === 0 || !this.asked) return false;
    const words = new Uint32Array(await readBuffer(this.device, this.asked, ENTRY_BYTES * batches));
    const waiting = unarmed.filter((c) => {
      const w = d.classes.indexOf(c);
      return words.some((v, i) => i % 4 === w && v !== 0);
    });
    if (waiting.length === 0) return false;
    await Promise.all(
      waiting.map(async (c) => {
        const start = performance.now();
        const pass = await this.warmUp(await this.unarmed.get(c)!);
        this.kernels.get(c)!.push(pass);
        this.unarmed.delete(c);
        this.closestCompileMs[c] = performance.now() - start;
      }),
    );
    return true;
  }

  /**
   * Indirect dispatch arguments over every item of the batch last encoded, in workgroups of the
   * class kernels' size (the class table's row after the buckets'): for a pass over the same items
   * recorded after that batch and before the next encode(), as the frames' anchor pass is.
   */
  itemGrid(): { buffer: GPUBuffer; offset: number } {
    const row = itemsRow(this.dimension.classes);
    return { buffer: this.table, offset: row * TABLE.bytes + 4 * TABLE.x };
  }

  /** The classTable of the last submitted batch: per class (then 'rejected') its pair count and first entry. */
  async readTable(): Promise<Record<C | 'rejected', PairClassRow>> {
    const u = new Uint32Array(await readBuffer(this.device, this.table, this.table.size));
    let row = (i: number): PairClassRow => ({
      pairCount: u[(i * TABLE.bytes) / 4 + TABLE.params + TABLE.pairCount],
      first: u[(i * TABLE.bytes) / 4 + TABLE.params + TABLE.first],
    });
    const single = this.last?.single;
    if (single !== undefined && this.blockCounts) {
      // pcList's batch: the row over every item, and per bucket the items it left out; the one
      // class has the rest, every list from entry 0.
      const items = row(itemsRow(this.dimension.classes)).pairCount;
      const leftOut = new Uint32Array(
        await readBuffer(this.device, this.blockCounts, 4 * (this.dimension.classes.length + 1)),
      );
      const others = leftOut.reduce((sum, c, b) => (b === single ? sum : sum + c), 0);
      row = (i) => ({ pairCount: i === single ? items - others : leftOut[i]!, first: 0 });
    }
    const out = Object.fromEntries(this.dimension.classes.map((c, i) => [c, row(i)])) as Record<
      C | 'rejected',
      PairClassRow
    >;
    out.rejected = row(this.dimension.classes.length);
    return out;
  }

  /**
   * Pairs the last submit's batches left uncollided, per class without a pipeline (then
   * 'rejected': work-list entries past the slots); all 0 when every pair was collided.
   */
  async readSkipped(): Promise<Record<C | 'rejected', number>> {
    return this.skipped(await readBuffer(this.device, this.control, this.control.size));
  }

  /** Where readSkipped() reads, for a caller that reads it with other buffers in one round trip. */
  skippedRegion(): ReadRegion {
    return { buffer: this.control, bytes: this.control.size };
  }

  /** The skipped counts from the bytes of skippedRegion(). */
  skipped(bytes: ArrayBuffer): Record<C | 'rejected', number> {
    const u = new Uint32Array(bytes);
    const out = Object.fromEntries(this.dimension.classes.map((c, i) => [c, u[1 + i]])) as Record<
      C | 'rejected',
      number
    >;
    out.rejected = u[1 + this.dimension.classes.length];
    return out;
  }

  /**
   * `b`, or a larger buffer when `b` holds less than `bytes`; the old one stays alive until the next
   * submit's first batch (earlier batches of this one still bind it).
   */
  private grown(b: GPUBuffer | null, bytes: number, name: string): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    if (b && b.size >= size) return b;
    if (b) this.retired.push(b);
    return this.device.createBuffer({
      label: `${this.dimension.label}-${name}`,
      size,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
    });
  }

  private scanPlan(data: GPUBuffer, n: number): ScanPlan {
    if (this.plansFor !== data) {
      this.retired.push(...this.plans.values());
      this.plans.clear();
      this.plansFor = data;
    }
    let plan = this.plans.get(n);
    if (!plan) this.plans.set(n, (plan = this.scan.plan(data, n)));
    return plan;
  }

  /** Kept for callers that record several batches: every batch has its own parameters now. */
  reserve(_batches: number): void {}

  /** One dispatch of a new pipeline on an empty batch (its params say 0 pairs): lavapipe compiles it then. */
  private async warmUp(kernel: Kernel): Promise<Kernel> {
    const d = this.dimension;
    await warmUpKernel(this.device, kernel, d.classBindings, `${d.label}.class`);
    return kernel;
  }

  /**
   * The classifier's kernels that `classCount` compiled classes run, each dispatched once
   * (warmUpKernel); the first also compiles Dawn's own pipelines for the class kernels' indirect
   * dispatches and the run's timestamps, while the classes are being created.
   */
  private async warmUpClassifier(classCount: number): Promise<void> {
    const entries: readonly ClassifierEntry[] =
      classCount === 1 ? ['pcList'] : ['pcCount', 'pcScatter', 'pcFinish'];
    const d = this.dimension;
    await Promise.all(
      entries.map((e, i) =>
        warmUpKernel(
          this.device,
          this.classifier.kernels[e],
          d.classifierBindings[e]!,
          `${d.label}.${e}`,
          i === 0,
        ),
      ),
    );
  }

  destroy(): void {
    this.blockCounts?.destroy();
    this.list?.destroy();
    this.asked?.destroy();
    for (const r of this.retired) r.destroy();
    this.table.destroy();
    this.control.destroy();
    this.noWorkList.destroy();
    for (const b of this.classParams) b.destroy();
    for (const b of this.batchParams) b.destroy();
    for (const p of this.plans.values()) p.destroy();
    this.plans.clear();
  }
}

const layouts = new WeakMap<GPUDevice, Map<string, GPUBindGroupLayout>>();

/**
 * The one bind-group layout of a dimension's narrowphase kernels, general and per class,
 * reflected from the WGSL (an 'auto' layout belongs to one pipeline, and a class kernel's could
 * leave out buffers it no longer reads), so one bind group serves any of them.
 */
export async function narrowphaseLayout(
  device: GPUDevice,
  dimension: NarrowphaseDimension<string, unknown>,
): Promise<GPUBindGroupLayout> {
  let perDevice = layouts.get(device);
  if (!perDevice) layouts.set(device, (perDevice = new Map()));
  let l = perDevice.get(dimension.label);
  if (!l)
    perDevice.set(
      dimension.label,
      (l = bufferLayout(
        device,
        `${dimension.label}.${dimension.classEntry}`,
        dimension.classBindings,
      )),
    );
  return l;
}

/**
 * The entry points one class runs, in order: its kernel, then its contact pass and its closest
 * pass where it has them.
 */
export function classEntryPoints<C extends string>(
  dimension: NarrowphaseDimension<C, unknown>,
  kernel: C,
): string[] {
  const { classEntry, contactEntry, contactClasses, closestEntry, closestClasses } = dimension;
  return [
    classEntry,
    ...(contactEntry && contactClasses?.includes(kernel) ? [contactEntry] : []),
    ...(closestEntry && closestClasses?.includes(kernel) ? [closestEntry] : []),
  ];
}

/** The pipelines one class runs (classEntryPoints), compiled. */
export function classKernels<C extends string>(
  device: GPUDevice,
  dimension: NarrowphaseDimension<C, unknown>,
  kernel: C,
  layout?: GPUBindGroupLayout,
): Promise<Kernel>[] {
  return classEntryPoints(dimension, kernel).map((entry) =>
    classKernel(device, dimension, kernel, layout, entry),
  );
}

/**
 * The pipeline of one class (or of the general kernel), cached per device; `onDemand`: as a
 * caller whose passes are compiled on demand compiles it (NarrowphaseDimension.leanOnDemand).
 */
export async function classKernel<C extends string>(
  device: GPUDevice,
  dimension: NarrowphaseDimension<C, unknown>,
  kernel: C | 'general',
  layout?: GPUBindGroupLayout,
  entryPoint?: string,
  onDemand = false,
): Promise<Kernel> {
  const l = layout ?? (await narrowphaseLayout(device, dimension));
  const entry =
    entryPoint ?? (kernel === 'general' ? dimension.generalEntry : dimension.classEntry);
  const lean = onDemand && (dimension.leanOnDemand?.(kernel) ?? false);
  return cachedKernel(
    device,
    `${dimension.label}-${kernel}${lean ? '-lean' : ''}`,
    entry,
    () => dimension.kernelWgsl(kernel, entry, lean),
    undefined,
    async () => l,
  );
}
