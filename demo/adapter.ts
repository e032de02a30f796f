// The adapter line the pages show (demo, bench, validation, three.js): what the adapter exposes
// of GPUAdapterInfo (vendor, architecture, description), or that the browser hides it. Firefox
// returns empty strings for all of them, Chromium gives vendor and architecture (SwiftShader:
// "google", "swiftshader") and no description.

import type { AdapterDescription } from '../src/gpu/device.ts';

export function adapterLine(a: AdapterDescription): string {
  // describeAdapter names an adapter without a description by its other fields, joined.
  const description =
    a.name === 'unknown adapter' || a.name === [a.vendor, a.architecture].filter(Boolean).join(' ')
      ? ''
      : a.name;
  if (!a.vendor && !a.architecture && !description)
    return 'adapter hidden by the browser (vendor, architecture and description are empty)';
  const field = (name: string, value: string): string => `${name} ${value || '(empty)'}`;
  return [
    field('vendor', a.vendor),
    field('architecture', a.architecture),
    field('description', description),
    ...(a.software ? ['software'] : []),
  ].join(' · ');
}
