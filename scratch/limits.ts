import { acquireDevice } from '../src/gpu/device.ts';
async function main(): Promise<void> {
  const a = await acquireDevice();
  const l = a.device.limits;
  console.log('binding', l.maxStorageBufferBindingSize, 'buffer', l.maxBufferSize, 'adapter', a.adapter.name);
  a.device.destroy();
}
void main();
