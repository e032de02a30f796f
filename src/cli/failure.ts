// What the command line says when something fails: one line on stderr, "error: <what>: <why>",
// never a stack trace; the exit status is 2 for every failure.

import { CapacityError, DeviceLostError, InputError } from '../errors.ts';
import { NoAdapterError } from '../gpu/device.ts';

/** Exit status of every failure (bad input, no adapter, a device lost, a limit, a bug). */
export const FAILURE_EXIT = 2;

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** The one line to print for `e`. */
export function failureLine(e: unknown): string {
  const known =
    e instanceof InputError ||
    e instanceof CapacityError ||
    e instanceof DeviceLostError ||
    e instanceof NoAdapterError;
  if (known || (e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string'))
    return `error: ${oneLine(e.message)}`;
  if (e instanceof Error) return `error: internal error (${e.name}): ${oneLine(e.message)}`;
  return `error: internal error: ${oneLine(String(e))}`;
}
