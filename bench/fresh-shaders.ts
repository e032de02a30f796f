// `npm run bench` embeds shaders/*.wgsl into src/gpu/shaders.generated.ts first (prebench); a
// direct `npx tsx bench/...` run does not, and a stale file would time old kernels without a word
// (a reverted experiment once printed "touch 0"). The bench entry points refuse to run then.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { WGSL_SOURCES } from '../src/gpu/shaders.generated.ts';
import { shippedWgsl } from '../scripts/wgsl-shipped.mjs';

/** Throws, naming the files, when shaders.generated.ts differs from shaders/*.wgsl (where they are). */
export function assertShadersEmbedded(): void {
  const dir = new URL('../shaders/', import.meta.url);
  if (!existsSync(dir)) return; // a bundle (npm run bench:bundle) carried without the sources
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.wgsl'))
    .map((f) => f.slice(0, -'.wgsl'.length));
  const changed = names.filter(
    (n) => WGSL_SOURCES[n] !== shippedWgsl(readFileSync(new URL(`${n}.wgsl`, dir), 'utf8')),
  );
  const removed = Object.keys(WGSL_SOURCES).filter((n) => !names.includes(n));
  const stale = [...changed, ...removed];
  if (stale.length > 0) {
    throw new Error(
      `src/gpu/shaders.generated.ts is older than ${stale.map((n) => `shaders/${n}.wgsl`).join(', ')}: ` +
        'run `node scripts/embed-shaders.mjs` (npm run bench does it first)',
    );
  }
}
