import { defineConfig } from 'vitest/config';

// Tests run real WGSL through Dawn (the `webgpu` package) on a real adapter; on a machine without
// a GPU that is Mesa lavapipe, slow with 100k+ pairs, hence the generous timeouts. One test file
// at a time, each in its own forked process: every file makes its own Dawn device, and CI has
// two cores that lavapipe's threads already use.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    isolate: true,
  },
});
