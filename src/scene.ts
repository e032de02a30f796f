// The scene JSON (README, "Scene and manifold JSON"): parsing and validation. Every error names the
// offending item by its JSON path and says why, before anything reaches either backend.

import { MAX_COORDINATE } from './constants.ts';
import { finiteNumber, InputError, shown } from './errors.ts';
import { checkKeys, type KeySet } from './keys.ts';
import { makeShape2D, readVec2, type Shape2D, type Shape2DInput, type Vec2 } from './shapes2d.ts';
import {
  makeBody3D,
  makeShape3D,
  type Quat,
  type Shape3D,
  type Shape3DInput,
  type Vec3,
} from './shapes3d.ts';

export interface Body2DInput {
  shape: number;
  position: Vec2;
  /** Radians, counter-clockwise. */
  angle?: number;
}

export interface SceneJson2D {
  dim: 2;
  margin?: number;
  shapes: Shape2DInput[];
  bodies: Body2DInput[];
  pairs?: [number, number][];
}

/** A validated 2D scene. */
export interface Scene2D {
  dim: 2;
  margin: number;
  shapes: Shape2D[];
  /** Per body: shape index, x, y, angle. */
  bodyShape: Uint32Array;
  bodyPosition: Float64Array;
  bodyAngle: Float64Array;
  /** Pair list (a0, b0, a1, b1, ...), or null when the broadphase is to find the pairs. */
  pairs: Uint32Array | null;
}

/** The keys of a scene (either dimension) and of a 2D body (3D bodies: src/shapes3d.ts). */
const SCENE_KEYS: KeySet = {
  what: 'a scene',
  keys: ['dim', 'margin', 'shapes', 'bodies', 'pairs'],
};
const BODY_KEYS_2D: KeySet = {
  what: 'a 2D body',
  keys: ['shape', 'position', 'angle'],
  hints: {
    rotation: 'a 2D body turns by "angle", in radians; "rotation", a quaternion, is for dim 3',
  },
};

function isIndex(x: unknown, n: number): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < n;
}

export function parseMargin(margin: unknown): number {
  if (margin === undefined) return 0;
  if (typeof margin !== 'number' || !Number.isFinite(margin) || margin < 0) {
    throw new InputError('margin', `must be a finite number >= 0, got ${shown(margin)}`);
  }
  // A margin is a distance in the scene, so it has the coordinates' bound (1e39 is not even an f32).
  return finiteNumber('margin', 'the margin', margin, MAX_COORDINATE);
}

/** Validates bodies: shape index in range, finite position and angle. */
function parseBodies2D(
  bodies: unknown,
  shapeCount: number,
): Pick<Scene2D, 'bodyShape' | 'bodyPosition' | 'bodyAngle'> {
  if (!Array.isArray(bodies)) throw new InputError('bodies', 'must be an array');
  const n = bodies.length;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(2 * n);
  const bodyAngle = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const path = `bodies[${i}]`;
    const b = bodies[i] as Partial<Body2DInput> | null;
    if (typeof b !== 'object' || b === null)
      throw new InputError(path, 'must be an object {shape, position, angle}');
    checkKeys(path, b, BODY_KEYS_2D);
    if (!isIndex(b.shape, shapeCount)) {
      throw new InputError(
        path,
        `shape ${shown(b.shape)} is not a shape index (the scene has ${shapeCount} shapes)`,
      );
    }
    const p = readVec2(path, 'position', b.position);
    const angle = b.angle ?? 0;
    if (typeof angle !== 'number' || !Number.isFinite(angle))
      throw new InputError(path, `angle must be a finite number, got ${shown(angle)}`);
    bodyShape[i] = b.shape;
    bodyPosition[2 * i] = p[0];
    bodyPosition[2 * i + 1] = p[1];
    bodyAngle[i] = angle;
  }
  return { bodyShape, bodyPosition, bodyAngle };
}

/** Validates pairs: two distinct body indices each. */
export function parsePairs(pairs: unknown, bodyCount: number): Uint32Array | null {
  if (pairs === undefined) return null;
  if (!Array.isArray(pairs))
    throw new InputError('pairs', 'must be an array of [a, b] body index pairs');
  const out = new Uint32Array(2 * pairs.length);
  for (let k = 0; k < pairs.length; k++) {
    const p = pairs[k] as unknown;
    const path = `pairs[${k}]`;
    if (!Array.isArray(p) || p.length !== 2)
      throw new InputError(path, `must be [a, b], got ${JSON.stringify(p)}`);
    const problem = pairProblem(p[0], p[1], bodyCount);
    if (problem) throw new InputError(path, problem);
    out[2 * k] = p[0] as number;
    out[2 * k + 1] = p[1] as number;
  }
  return out;
}

/** Why [a, b] is not a pair of two bodies of a scene of `bodyCount`, or null when it is one. */
function pairProblem(a: unknown, b: unknown, bodyCount: number): string | null {
  if (![a, b].every((x) => typeof x === 'number' && Number.isInteger(x))) {
    return `${JSON.stringify([a, b])} must hold two body indices (integers)`;
  }
  if (!isIndex(a, bodyCount) || !isIndex(b, bodyCount)) {
    return `${JSON.stringify([a, b])} names a body that does not exist (the scene has ${bodyCount} bodies)`;
  }
  return a === b ? `pairs body ${a} with itself` : null;
}

/**
 * Checks a packed pair list (a0, b0, a1, b1, ...) as parsePairs checks the JSON's, with the same
 * errors: the packers (packScene2D, packScene3D) call it, so pairs a caller builds for the packed
 * API never reach a kernel naming a body that is not there.
 */
export function checkPairs(pairs: Uint32Array, bodyCount: number): void {
  if (pairs.length % 2 !== 0)
    throw new InputError('pairs', `holds ${pairs.length} body indices, not an even number`);
  for (let i = 0; i < pairs.length; i += 2) {
    const a = pairs[i];
    const b = pairs[i + 1];
    if (a < bodyCount && b < bodyCount && a !== b) continue;
    throw new InputError(`pairs[${i >> 1}]`, pairProblem(a, b, bodyCount)!);
  }
}

/** A scene is a JSON object (not an array, not null), of known keys. */
function checkSceneObject(json: unknown): asserts json is object {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new InputError(
      'scene',
      `must be a JSON object { dim, shapes, bodies, pairs? }, got ${Array.isArray(json) ? 'an array' : shown(json)}`,
    );
  }
  checkKeys('scene', json, SCENE_KEYS);
}

export function parseScene2D(json: unknown): Scene2D {
  checkSceneObject(json);
  const s = json as Partial<SceneJson2D>;
  if (!Array.isArray(s.shapes)) throw new InputError('shapes', 'must be an array');
  const shapes = s.shapes.map((shape, i) => makeShape2D(shape, i));
  const bodies = parseBodies2D(s.bodies, shapes.length);
  return {
    dim: 2,
    margin: parseMargin(s.margin),
    shapes,
    ...bodies,
    pairs: parsePairs(s.pairs, bodies.bodyShape.length),
  };
}

export interface Body3DInput {
  shape: number;
  position: Vec3;
  /** Unit quaternion [x, y, z, w]; default identity. */
  rotation?: Quat;
}

export interface SceneJson3D {
  dim: 3;
  margin?: number;
  shapes: Shape3DInput[];
  bodies: Body3DInput[];
  pairs?: [number, number][];
}

/** A validated 3D scene. */
export interface Scene3D {
  dim: 3;
  margin: number;
  shapes: Shape3D[];
  /** Per body: shape index, position (x, y, z), rotation quaternion (x, y, z, w, unit). */
  bodyShape: Uint32Array;
  bodyPosition: Float64Array;
  bodyRotation: Float64Array;
  /** Pair list (a0, b0, a1, b1, ...), or null when the broadphase is to find the pairs. */
  pairs: Uint32Array | null;
}

/** A validated scene of either dimension. */
export type Scene = Scene2D | Scene3D;

export function parseScene3D(json: unknown): Scene3D {
  checkSceneObject(json);
  const s = json as Partial<SceneJson3D>;
  if (!Array.isArray(s.shapes)) throw new InputError('shapes', 'must be an array');
  const shapes = s.shapes.map((shape, i) => makeShape3D(shape, i));
  if (!Array.isArray(s.bodies)) throw new InputError('bodies', 'must be an array');
  const n = s.bodies.length;
  const bodyShape = new Uint32Array(n);
  const bodyPosition = new Float64Array(3 * n);
  const bodyRotation = new Float64Array(4 * n);
  s.bodies.forEach((input, i) => {
    const b = makeBody3D(input, i, shapes.length);
    bodyShape[i] = b.shape;
    bodyPosition.set(b.position, 3 * i);
    bodyRotation.set(b.rotation, 4 * i);
  });
  return {
    dim: 3,
    margin: parseMargin(s.margin),
    shapes,
    bodyShape,
    bodyPosition,
    bodyRotation,
    pairs: parsePairs(s.pairs, n),
  };
}

/** Validates a scene of either dimension (`dim`: 2 or 3). */
export function parseScene(json: SceneJson2D): Scene2D;
export function parseScene(json: SceneJson3D): Scene3D;
export function parseScene(json: unknown): Scene;
export function parseScene(json: unknown): Scene {
  checkSceneObject(json);
  const dim = (json as { dim?: unknown }).dim;
  if (dim === 2) return parseScene2D(json);
  if (dim === 3) return parseScene3D(json);
  throw new InputError('dim', `must be 2 or 3, got ${shown(dim)}`);
}
