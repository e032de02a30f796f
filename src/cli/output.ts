// Writing the command line's output as it is made: a run of millions of manifolds is never one
// string (JSON.stringify of 3M manifolds ran out of string length), and writes wait for the
// stream to drain, so memory stays flat however slow the reader.

import type { Writable } from 'node:stream';
import type { ManifoldJson } from '../pack2d.ts';

/** Manifolds per write. */
const CHUNK = 2000;

/** Writes `text` and waits while the stream's buffer is full. */
export function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    out.once('error', onError);
    const flushed = out.write(text, (e) => {
      out.off('error', onError);
      if (e) reject(e);
      else if (flushed) resolve();
    });
    if (!flushed) out.once('drain', () => resolve());
  });
}

/** `{"manifolds":[...]}` and a newline, the bytes JSON.stringify({ manifolds }) gives, in chunks. */
export async function writeManifolds(
  out: Writable,
  manifolds: Iterable<ManifoldJson>,
): Promise<void> {
  let chunk: string[] = [];
  let first = true;
  await write(out, '{"manifolds":[');
  for (const m of manifolds) {
    chunk.push(JSON.stringify(m));
    if (chunk.length === CHUNK) {
      await write(out, (first ? '' : ',') + chunk.join(','));
      first = false;
      chunk = [];
    }
  }
  await write(out, (first || chunk.length === 0 ? '' : ',') + chunk.join(',') + ']}\n');
}
