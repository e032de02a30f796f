// Far from the origin f32 positions lose what a contact needs (at 1e6 one f32 step is 0.0625), and
// both backends collide the same f32-packed data. So collide() gives every pair that lies beyond
// F32_WORLD_RANGE × its smaller shape's extent a frame of its own before packing: body A's position
// (f64) becomes the pair's origin, the pair's two bodies are packed as copies relative to it (A at
// zero, B at pB − pA rounded once), and unpacking adds the origin back to the points in f64. Pairs
// within the range are packed as they are, so scenes near the origin cost nothing more.

import { F32_WORLD_RANGE } from './constants.ts';
import { checkPairs, type Scene } from './scene.ts';

/** A scene's bodies and pairs as packed, with per-pair origins where a pair was moved. */
export interface Rebased<S> {
  /** The scene with a copy of both bodies appended per moved pair. */
  scene: S;
  /** The pairs to pack (a moved pair names its copies). */
  pairs: Uint32Array;
  /** Per pair, `dim` numbers: the origin its results are relative to (zero for pairs left as they were); null when none moved. */
  origins: Float64Array | null;
  /** How many pairs were moved. */
  moved: number;
}

/** Which pairs lie too far out for f32, by the max-norm of their bodies' positions against their shapes' extents. */
function farPairs(
  dim: number,
  bodyShape: Uint32Array,
  bodyPosition: Float64Array,
  extents: ArrayLike<number>,
  pairs: Uint32Array,
): number[] {
  const far: number[] = [];
  const reach = (body: number): number => {
    let r = 0;
    for (let k = 0; k < dim; k++) r = Math.max(r, Math.abs(bodyPosition[dim * body + k]));
    return r;
  };
  for (let k = 0; k < pairs.length / 2; k++) {
    const a = pairs[2 * k];
    const b = pairs[2 * k + 1];
    const size = Math.min(extents[bodyShape[a]], extents[bodyShape[b]]);
    if (Math.max(reach(a), reach(b)) > F32_WORLD_RANGE * size) far.push(k);
  }
  return far;
}

/**
 * The per-body arrays with two bodies appended per far pair (copies of A and B, positioned relative
 * to A), the pairs naming the copies, and the origins.
 */
function rebase(
  dim: number,
  bodyShape: Uint32Array,
  bodyPosition: Float64Array,
  turn: Float64Array,
  turnStride: number,
  pairs: Uint32Array,
  far: readonly number[],
): {
  bodyShape: Uint32Array;
  bodyPosition: Float64Array;
  turn: Float64Array;
  pairs: Uint32Array;
  origins: Float64Array;
} {
  const n = bodyShape.length;
  const m = n + 2 * far.length;
  const shape = new Uint32Array(m);
  const position = new Float64Array(dim * m);
  const rotation = new Float64Array(turnStride * m);
  shape.set(bodyShape);
  position.set(bodyPosition);
  rotation.set(turn);
  const moved = pairs.slice();
  const origins = new Float64Array((dim * pairs.length) / 2);
  far.forEach((k, j) => {
    const ends = [pairs[2 * k], pairs[2 * k + 1]];
    const a = ends[0];
    ends.forEach((body, e) => {
      const copy = n + 2 * j + e;
      shape[copy] = bodyShape[body];
      for (let c = 0; c < turnStride; c++)
        rotation[turnStride * copy + c] = turn[turnStride * body + c];
      for (let c = 0; c < dim; c++)
        position[dim * copy + c] = bodyPosition[dim * body + c] - bodyPosition[dim * a + c];
      moved[2 * k + e] = copy;
    });
    for (let c = 0; c < dim; c++) origins[dim * k + c] = bodyPosition[dim * a + c];
  });
  return { bodyShape: shape, bodyPosition: position, turn: rotation, pairs: moved, origins };
}

/** Rebases the far pairs of a scene of either dimension (see the header); `pairs` is checked first, as the packers check it. */
export function rebaseFarPairs<S extends Scene>(scene: S, pairs: Uint32Array): Rebased<S> {
  checkPairs(pairs, scene.bodyShape.length);
  const extents = (scene.shapes as readonly { extent: number }[]).map((s) => s.extent);
  const far = farPairs(scene.dim, scene.bodyShape, scene.bodyPosition, extents, pairs);
  if (far.length === 0) return { scene, pairs, origins: null, moved: 0 };
  // What turns a body: a 2D angle, or a 3D quaternion.
  const turn =
    scene.dim === 2
      ? { key: 'bodyAngle', values: scene.bodyAngle, stride: 1 }
      : { key: 'bodyRotation', values: scene.bodyRotation, stride: 4 };
  const r = rebase(
    scene.dim,
    scene.bodyShape,
    scene.bodyPosition,
    turn.values,
    turn.stride,
    pairs,
    far,
  );
  return {
    scene: { ...scene, bodyShape: r.bodyShape, bodyPosition: r.bodyPosition, [turn.key]: r.turn },
    pairs: r.pairs,
    origins: r.origins,
    moved: far.length,
  };
}
