// Loaded with --import into the command line's processes by test/cli.test.ts. In the worker
// process it makes Dawn print a validation message, which Dawn writes to fd 1 from native code,
// as a real one would: the CLI must keep it off its stdout.
if (process.env.WEBGPU_NARROWPHASE_CLI_WORKER === '1') {
  const { create, globals } = await import('webgpu');
  Object.assign(globalThis, globals);
  const adapter = await create([]).requestAdapter();
  const device = await adapter.requestDevice();
  device.createBuffer({ label: 'dawn-noise', size: 16, usage: 0 });
  await new Promise((resolve) => setTimeout(resolve, 200));
  device.destroy();
}
