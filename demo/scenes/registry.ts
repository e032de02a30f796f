// The demo's scenes by name, with their default sizes (the issue's: 2D at least 20k bodies, 3D at
// least 10k, particles 100k+) and the margins they start with. The page and the URL
// (?scene=2d&bodies=2000&margin=0.02&seed=7) pick one.

import type { SceneName } from '../state.ts';
import { createPourScene2D, PARTICLES_2D, POUR_2D } from './pour2d.ts';
import type { DemoScene, SceneOptions } from './scene.ts';
import { createFall3D, createPyramid3D } from './scenes3d.ts';

export interface SceneEntry {
  title: string;
  /** Moving bodies by default (static container bodies come on top). */
  defaultBodies: number;
  defaultMargin: number;
  create(device: GPUDevice, format: GPUTextureFormat, options: SceneOptions): Promise<DemoScene>;
}

export const SCENES: Record<SceneName, SceneEntry> = {
  '2d': {
    title: '2D: mixed shapes in a container',
    defaultBodies: 20_000,
    defaultMargin: 0.02,
    create: (device, format, options) => createPourScene2D(device, format, POUR_2D, options),
  },
  '3d': {
    title: '3D: boxes and hulls onto a floor',
    defaultBodies: 10_000,
    defaultMargin: 0.02,
    create: createFall3D,
  },
  pyramid: {
    title: '3D: box pyramid',
    defaultBodies: 210,
    defaultMargin: 0.02,
    create: createPyramid3D,
  },
  particles: {
    title: '2D: 100k particles',
    defaultBodies: 100_000,
    defaultMargin: 0.005,
    create: (device, format, options) => createPourScene2D(device, format, PARTICLES_2D, options),
  },
};

export function isSceneName(name: string): name is SceneName {
  return Object.hasOwn(SCENES, name);
}
