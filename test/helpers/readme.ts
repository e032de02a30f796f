// The README's examples as code: a block is the fenced code after `<!-- example:NAME -->`, its
// expected output the fenced block after `<!-- output:NAME -->`.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function readme(): string {
  return readFileSync(join(ROOT, 'README.md'), 'utf8');
}

/** The fenced block following `<!-- kind:name -->` (an error naming the marker when there is none). */
export function fencedBlock(text: string, marker: string): string {
  const tag = `<!-- ${marker} -->`;
  const at = text.indexOf(tag);
  if (at < 0) throw new Error(`README.md has no ${tag}`);
  const m = /^\s*```[a-z]*\n([\s\S]*?)\n```/.exec(text.slice(at + tag.length));
  if (!m) throw new Error(`README.md: no fenced block after ${tag}`);
  return m[1]!;
}
