// Vitest global setup: acquires the WebGPU adapter once, before any test file runs, prints
// `WebGPU adapter: <name>`, and fails the whole run where there is none (GPU tests fail, they
// never skip). Tests read the name with `inject('webgpuAdapter')`.
//
// The adapter is acquired through src/gpu/device.ts's acquireDevice(), in a child process: Dawn
// keeps a process alive while its GPU object lives (and device.ts caches it), which would hold
// vitest's main process open after the run. Dawn's warnings on stderr are shown only on failure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Name of the WebGPU adapter the tests run on, as acquireDevice() describes it. */
    webgpuAdapter: string;
    /** Whether that adapter is a software rasteriser (lavapipe, SwiftShader). */
    webgpuSoftware: boolean;
  }
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const PROBE = `
const { acquireDevice } = await import(${JSON.stringify(join(root, 'src/gpu/device.ts'))});
try {
  const { device, adapter, timestamps } = await acquireDevice();
  device.destroy();
  process.stdout.write(JSON.stringify({ adapter, timestamps }) + '\\n');
  process.exit(0);
} catch (err) {
  process.stdout.write(JSON.stringify({ error: String(err && err.message || err) }) + '\\n');
  process.exit(2);
}
`;

export default function setup(project: TestProject): void {
  // `npm test` embeds shaders/*.wgsl first; a direct `npx vitest` would otherwise test the kernels
  // of the last embedding (src/gpu/shaders.generated.ts), not the .wgsl files as they are.
  const embed = spawnSync(process.execPath, [join(root, 'scripts/embed-shaders.mjs')], {
    encoding: 'utf8',
  });
  if (embed.status !== 0) throw new Error(`scripts/embed-shaders.mjs failed: ${embed.stderr}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let msg: {
    adapter?: { name: string; software: boolean };
    timestamps?: boolean;
    error?: string;
  } | null = null;
  try {
    msg = JSON.parse((r.stdout ?? '').trim().split('\n').pop() ?? 'null');
  } catch {
    msg = null;
  }
  if (r.status !== 0 || !msg?.adapter) {
    const why =
      msg?.error ??
      r.error?.message ??
      (r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`);
    const stderr = (r.stderr ?? '').trim();
    throw new Error(
      `WebGPU adapter check failed: ${why}` +
        (stderr ? `\n${stderr}` : '') +
        '\nRun `node scripts/ensure-webgpu.mjs` (as root on Debian 12 it installs Mesa lavapipe) or see docs/testing.md.',
    );
  }
  const { adapter, timestamps } = msg;
  console.log(
    `WebGPU adapter: ${adapter.name}` +
      (adapter.software ? ' (software)' : '') +
      (timestamps ? '' : ' (no timestamp-query)'),
  );
  project.provide('webgpuAdapter', adapter.name);
  project.provide('webgpuSoftware', adapter.software);
}
