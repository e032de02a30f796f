// The adapter line the pages show (demo, bench, validation, three.js): what the adapter exposes
// of GPUAdapterInfo (vendor, architecture, description), or that the browser hides it. Firefox
// returns empty strings for all of them (its fingerprinting protection), Chromium fills them in.

import type { AdapterDescription } from '../src/gpu/device.ts';

export function adapterLine(a: AdapterDescription): string {
  const parts = [a.vendor && `vendor ${a.vendor}`, a.architecture && `architecture ${a.architecture}`].filter(Boolean);
  const described = a.name !== 'unknown adapter';
  if (!described && parts.length === 0) return 'adapter hidden by the browser (vendor, architecture and description are empty)';
  return `${described ? a.name : 'adapter'}${parts.length ? ` (${parts.join(', ')})` : ''}${a.software ? ' (software)' : ''}`;
}
