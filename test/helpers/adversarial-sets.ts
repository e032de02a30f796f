// The GPU-vs-CPU adversarial sets, by name, each a builder with its seed and size: the Node suites
// (test/gpu-vs-cpu2d.test.ts, gpu-vs-cpu3d.test.ts, which add each set's own coverage checks) and
// the browsers' validation page (demo/validation.ts, ?sets=adversarial: naga in Firefox, Tint in
// Chromium) run the same pairs.

import {
  collinearCapsulesScene,
  deepPenetrationScene,
  exactTouchingScene,
  largeOffsetScene,
  nearRightAnglesScene,
  parallelEdgesScene,
  scaledScene,
  vertexOnEdgeScene,
  type SceneBuilder,
} from './random2d.ts';
import {
  apartAtVerticesScene3D,
  coplanarTouchingScene3D,
  deepPenetrationScene3D,
  edgeOnFaceScene3D,
  featureOnFeatureScene3D,
  nearRightAnglesScene3D,
  noisyAndThinScene3D,
  parallelFacesScene3D,
  roundOnRoundScene3D,
  scaledScene3D,
  type SceneBuilder3D,
} from './random3d.ts';

/** Geometries (each in both orders) of every 3D adversarial set. */
export const ADVERSARIAL_GEOMETRIES_3D = 4_000;
const G3 = ADVERSARIAL_GEOMETRIES_3D;
/** The speculative margin of the sets that have one. */
const MARGIN = 0.05;

export const ADVERSARIAL_SETS_2D: Readonly<Record<string, () => SceneBuilder>> = {
  'parallel-edges': () => parallelEdgesScene(0xa11e1, 15_000),
  'exact-touching': () => exactTouchingScene(0x70c4, 500),
  'collinear-capsules': () => collinearCapsulesScene(0xca95, 5_000),
  'vertex-on-edge, margin 0': () => vertexOnEdgeScene(0x0e06e, 15_000, 0),
  'vertex-on-edge, margin 0.05': () => vertexOnEdgeScene(0x0e06e + 5, 15_000, MARGIN),
  deep: () => deepPenetrationScene(0xdee9, 15_000),
  'near-right-angles': () => nearRightAnglesScene(0x90d, 15_000),
  ...Object.fromEntries(
    [-3, -2, -1, 0, 1, 2, 3].map((e) => [
      `scale 1e${e}`,
      () => scaledScene(0x5ca1e + e, 4_000, 10 ** e),
    ]),
  ),
  'large-offset': () => largeOffsetScene(0xb16, 15_000),
};

export const ADVERSARIAL_SETS_3D: Readonly<Record<string, () => SceneBuilder3D>> = {
  'parallel-faces': () => parallelFacesScene3D(0xa11e13, G3, MARGIN),
  'feature-on-feature': () => featureOnFeatureScene3D(0xfea7, G3, MARGIN),
  'round-on-feature': () => featureOnFeatureScene3D(0xfea8, G3, MARGIN, true),
  'round-on-round': () => roundOnRoundScene3D(0x4d4d, G3, MARGIN),
  'coplanar-touching': () => coplanarTouchingScene3D(0xc0f1a7, G3),
  'edge-on-face': () => edgeOnFaceScene3D(0xed9e, G3, MARGIN),
  'apart-at-vertices': () => apartAtVerticesScene3D(0xc0a7e5, G3, MARGIN),
  'deep-penetration': () => deepPenetrationScene3D(0xdee9, G3, MARGIN),
  'scale 0.001': () => scaledScene3D(0x5ca1e - 3, G3, 1e-3),
  'scale 1000': () => scaledScene3D(0x5ca1e + 3, G3, 1e3),
  'noisy-and-thin': () => noisyAndThinScene3D(0x7e1a, G3, MARGIN),
  'near-right-angles': () => nearRightAnglesScene3D(0x90de9, G3, MARGIN),
};
