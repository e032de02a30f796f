// The project's test config plus ./setup.ts, which hashes every collide3D and buildHull3D result
// of the test files run (scripts/hash3d/hashes.ts --tests).
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

export default mergeConfig(
  base,
  defineConfig({ test: { setupFiles: ['scripts/hash3d/setup.ts'] } }),
);
