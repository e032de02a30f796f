// box2d-wasm (Box2D v2.4.1 compiled to WebAssembly, float32) as an independent peer for 2D
// contact manifolds; the same interface as ./planck2d.ts, and the same skeleton (./peer2d.ts). See
// ./planck2d.ts for the manifold convention and how it maps onto ours: normal A → B,
// depth = −separation, point midway between the surfaces.
//
// Single-pair API. box2d-wasm binds Box2D's narrowphase functions directly —
// `b2CollidePolygons`, `b2CollidePolygonAndCircle`, `b2CollideCircles`, `b2CollideEdgeAndPolygon`,
// `b2CollideEdgeAndCircle` — and `b2WorldManifold::Initialize`, so no world is needed. The JS glue
// around each bound function unwraps wrapper objects and allocates nothing, but it is still a JS
// frame per call; the hot path here calls the raw WASM exports with plain pointers, writes
// transforms straight into the WASM heap (Float32Array view) and reads the world manifold back
// from it. Per pair that is two JS→WASM calls: collide, then Initialize (skipped when the manifold
// is empty).
//
// Shapes are built with their own rounding radius as m_radius (Box2D's default b2_polygonRadius
// skin of 0.01 is replaced unless `{ skin }` adds it back) and with vertices/normals written as
// given (b2PolygonShape::Set would weld, hull and re-order them). Capsules are two-sided
// b2EdgeShapes with m_radius = capsule radius (capsule–polygon and capsule–circle work; Box2D
// v2.4 has no edge–edge manifold, so capsule–capsule is unsupported: count = -1).
//
// Loading in Node: the emscripten glue of box2d-wasm 7 tries `fetch()` on a file path under Node
// ≥ 18 and fails, so the .wasm bytes are read from disk and passed as `wasmBinary`.

import Box2DFactory from 'box2d-wasm';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Shape2DInput } from '../../src/shapes2d.ts';
import {
  collideByKinds,
  peerSkeleton,
  polygonFrame,
  prebuildShapes,
  type KindFunctions,
  type Peer2D,
  type PeerManifold2D,
  type PeerOptions2D,
} from './peer2d.ts';

export interface Box2dWasmPeer2D extends Peer2D {
  readonly name: 'box2d-wasm';
  /** Frees the WASM memory this peer allocated. */
  dispose(): void;
}

// Byte offsets inside Box2D v2.4 structs (wasm32, float32), checked against the bindings' getters
// in loadBox2D().
const MANIFOLD_BYTES = 64; // b2ManifoldPoint points[2] (20 B each), localNormal @40, localPoint @48, type @56
const MANIFOLD_POINT_COUNT = 60;
const WM_BYTES = 32; // normal @0, points[2] @8, separations[2] @24
const XF_BYTES = 16; // p @0, q.s @8, q.c @12

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Box2DModule = any;

let modulePromise: Promise<Box2DModule> | null = null;

/** The box2d-wasm module (SIMD build where the runtime supports it), loaded once per process. */
export function loadBox2D(): Promise<Box2DModule> {
  if (!modulePromise) {
    modulePromise = (async () => {
      const dir = dirname(createRequire(import.meta.url).resolve('box2d-wasm'));
      const simd = WebAssembly.validate(
        new Uint8Array([
          0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0,
          253, 15, 253, 98, 11,
        ]),
      );
      const wasmBinary = readFileSync(join(dir, simd ? 'Box2D.simd.wasm' : 'Box2D.wasm'));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const B: Box2DModule = await (Box2DFactory as any)({ wasmBinary });
      // Check the struct layout assumed above.
      const m = new B.b2Manifold();
      const wm = new B.b2WorldManifold();
      const xf = new B.b2Transform();
      const p = B.getPointer;
      const ok =
        p(m.get_points(1)) - p(m) === 20 &&
        p(m.get_localNormal()) - p(m) === 40 &&
        p(wm.get_points(0)) - p(wm) === 8 &&
        p(wm.get_points(1)) - p(wm) === 16 &&
        p(xf.get_q()) - p(xf) === 8;
      m.set_pointCount(2);
      const ok2 = B.HEAP32[(p(m) + MANIFOLD_POINT_COUNT) >> 2] === 2;
      B.destroy(m);
      B.destroy(wm);
      B.destroy(xf);
      if (!ok || !ok2)
        throw new Error('box2d-wasm: unexpected b2Manifold/b2WorldManifold/b2Transform layout');
      return B;
    })();
  }
  return modulePromise;
}

export async function createBox2dWasmPeer(
  shapes: readonly Shape2DInput[],
  options: PeerOptions2D = {},
): Promise<Box2dWasmPeer2D> {
  const B = await loadBox2D();
  const owned: { __destroy__(): void }[] = [];

  const vec = new B.b2Vec2(0, 0);
  owned.push(vec);
  const { built: shapePtrs, kinds } = prebuildShapes<number>(shapes, options.skin ?? 0, 'Box2D', {
    polygon(pts, radius) {
      const poly = new B.b2PolygonShape();
      owned.push(poly);
      const { normals, centroid } = polygonFrame(pts);
      for (let i = 0; i < pts.length; i++) {
        vec.Set(pts[i]![0], pts[i]![1]);
        poly.set_m_vertices(i, vec);
        vec.Set(normals[i]![0], normals[i]![1]);
        poly.set_m_normals(i, vec);
      }
      vec.Set(centroid[0], centroid[1]);
      poly.set_m_centroid(vec);
      poly.set_m_count(pts.length);
      poly.set_m_radius(radius);
      return B.getPointer(poly);
    },
    circle(center, radius) {
      const c = new B.b2CircleShape();
      owned.push(c);
      vec.Set(center[0], center[1]);
      c.set_m_p(vec);
      c.set_m_radius(radius);
      return B.getPointer(c);
    },
    capsule(a, b, radius) {
      const e = new B.b2EdgeShape();
      owned.push(e);
      const v1 = new B.b2Vec2(a[0], a[1]);
      const v2 = new B.b2Vec2(b[0], b[1]);
      e.SetTwoSided(v1, v2);
      B.destroy(v1);
      B.destroy(v2);
      e.set_m_radius(radius);
      return B.getPointer(e);
    },
  });
  const radii = Float64Array.from(shapePtrs, (ptr) => B.wrapPointer(ptr, B.b2Shape).get_m_radius());

  // Scratch: a manifold, a world manifold and two transforms for collide(); a transform array for batches.
  const scratch: number = B._malloc(MANIFOLD_BYTES + WM_BYTES + 2 * XF_BYTES);
  const mPtr = scratch;
  const wmPtr = scratch + MANIFOLD_BYTES;
  const xfAPtr = wmPtr + WM_BYTES;
  const xfBPtr = xfAPtr + XF_BYTES;
  let xfsPtr = 0;
  let xfsCapacity = 0;
  /** Pointers to the body transforms: xfsPtr + i × XF_BYTES. */
  let xfs = new Int32Array(0);
  let F32: Float32Array = B.HEAPF32;
  let I32: Int32Array = B.HEAP32;
  // Views of the module's memory; all peers share one module, and when any of them (or anything
  // else) grows the memory, the old views detach (byteLength 0) and are fetched again.
  const refreshViews = (): void => {
    F32 = B.HEAPF32;
    I32 = B.HEAP32;
  };

  // Each bound function starts as a trampoline that replaces itself with the raw WASM export on
  // its first call: call them all once on dummy shapes, then keep the raw exports.
  {
    const poly = new B.b2PolygonShape();
    poly.SetAsBox(1, 1);
    const circle = new B.b2CircleShape();
    circle.set_m_radius(1);
    const edge = new B.b2EdgeShape();
    const v1 = new B.b2Vec2(-1, 0);
    const v2 = new B.b2Vec2(1, 0);
    edge.SetTwoSided(v1, v2);
    writeTransform(B.HEAPF32, xfAPtr, 0, 0, 1, 0);
    writeTransform(B.HEAPF32, xfBPtr, 0.5, 0, 1, 0);
    B._emscripten_bind_b2CollidePolygons_5(
      mPtr,
      B.getPointer(poly),
      xfAPtr,
      B.getPointer(poly),
      xfBPtr,
    );
    B._emscripten_bind_b2WorldManifold_Initialize_5(wmPtr, mPtr, xfAPtr, 0, xfBPtr, 0);
    B._emscripten_bind_b2CollidePolygonAndCircle_5(
      mPtr,
      B.getPointer(poly),
      xfAPtr,
      B.getPointer(circle),
      xfBPtr,
    );
    B._emscripten_bind_b2CollideCircles_5(
      mPtr,
      B.getPointer(circle),
      xfAPtr,
      B.getPointer(circle),
      xfBPtr,
    );
    B._emscripten_bind_b2CollideEdgeAndPolygon_5(
      mPtr,
      B.getPointer(edge),
      xfAPtr,
      B.getPointer(poly),
      xfBPtr,
    );
    B._emscripten_bind_b2CollideEdgeAndCircle_5(
      mPtr,
      B.getPointer(edge),
      xfAPtr,
      B.getPointer(circle),
      xfBPtr,
    );
    for (const o of [poly, circle, edge, v1, v2]) B.destroy(o);
  }
  const collidePolygons: (m: number, a: number, xa: number, b: number, xb: number) => void =
    resolveExport(B, 'b2CollidePolygons');
  const collidePolygonCircle: typeof collidePolygons = resolveExport(
    B,
    'b2CollidePolygonAndCircle',
  );
  const collideCircles: typeof collidePolygons = resolveExport(B, 'b2CollideCircles');
  const collideEdgePolygon: typeof collidePolygons = resolveExport(B, 'b2CollideEdgeAndPolygon');
  const collideEdgeCircle: typeof collidePolygons = resolveExport(B, 'b2CollideEdgeAndCircle');
  const initWorldManifold: (
    wm: number,
    m: number,
    xa: number,
    ra: number,
    xb: number,
    rb: number,
  ) => void = resolveExport(B, 'b2WorldManifold_Initialize');

  const functions: KindFunctions<number, number, number> = {
    polygons: collidePolygons,
    polygonCircle: collidePolygonCircle,
    circles: collideCircles,
    edgePolygon: collideEdgePolygon,
    edgeCircle: collideEdgeCircle,
  };

  function run(a: number, xa: number, b: number, xb: number, out: PeerManifold2D): number {
    const flip = collideByKinds(
      functions,
      mPtr,
      kinds[a]!,
      shapePtrs[a]!,
      xa,
      kinds[b]!,
      shapePtrs[b]!,
      xb,
    );
    if (flip === null) {
      out.count = -1;
      return -1;
    }
    const n = I32[(mPtr + MANIFOLD_POINT_COUNT) >> 2]!;
    out.count = n;
    if (n === 0) return 0;
    if (flip) initWorldManifold(wmPtr, mPtr, xb, radii[b]!, xa, radii[a]!);
    else initWorldManifold(wmPtr, mPtr, xa, radii[a]!, xb, radii[b]!);
    const w = wmPtr >> 2;
    const s = flip ? -1 : 1;
    out.normalX = s * F32[w]!;
    out.normalY = s * F32[w + 1]!;
    for (let i = 0; i < n; i++) {
      out.px[i] = F32[w + 2 + 2 * i]!;
      out.py[i] = F32[w + 3 + 2 * i]!;
      out.separation[i] = F32[w + 6 + i]!;
    }
    return n;
  }

  function setTransform(ptr: number, x: number, y: number, c: number, s: number): void {
    if (F32.byteLength === 0) refreshViews();
    writeTransform(F32, ptr, x, y, c, s);
  }

  const skeleton = peerSkeleton<number>({
    kinds,
    xfA: xfAPtr,
    xfB: xfBPtr,
    setTransform,
    setBodyTransforms(pose, count) {
      if (count > xfsCapacity) {
        if (xfsPtr) B._free(xfsPtr);
        xfsCapacity = Math.max(count, 2 * xfsCapacity);
        xfsPtr = B._malloc(xfsCapacity * XF_BYTES);
        refreshViews();
        xfs = Int32Array.from({ length: xfsCapacity }, (_, i) => xfsPtr + i * XF_BYTES);
      }
      for (let i = 0; i < count; i++)
        setTransform(xfs[i]!, pose[4 * i]!, pose[4 * i + 1]!, pose[4 * i + 2]!, pose[4 * i + 3]!);
      return xfs;
    },
    beginPairs() {
      if (F32.byteLength === 0) refreshViews();
    },
    run,
  });

  function dispose(): void {
    if (xfsPtr) B._free(xfsPtr);
    xfsPtr = 0;
    xfsCapacity = 0;
    skeleton.forgetBodies();
    B._free(scratch);
    for (const o of owned) B.destroy(o);
    owned.length = 0;
  }

  return { name: 'box2d-wasm', ...skeleton.calls, dispose };
}

/** A b2Transform at `ptr`: p (x, y), then q (sin, cos). */
function writeTransform(
  F32: Float32Array,
  ptr: number,
  x: number,
  y: number,
  c: number,
  s: number,
): void {
  const k = ptr >> 2;
  F32[k] = x;
  F32[k + 1] = y;
  F32[k + 2] = s;
  F32[k + 3] = c;
}

// The raw WASM export behind a bound free function or method (`_emscripten_bind_<name>_<arity>`),
// available once the glue has been called (it replaces itself with the export on first call).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function resolveExport(B: Box2DModule, name: string): any {
  const key = Object.keys(B).find((k) => k.startsWith(`_emscripten_bind_${name}_`));
  if (!key) throw new Error(`box2d-wasm: no binding for ${name}`);
  return B[key];
}
