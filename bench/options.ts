// Command-line values both bench CLIs take (bench/main.ts, bench/pile.ts).
import { InvalidArgumentError } from 'commander';

/** --gpu-warmup: whole milliseconds, 0 or more. */
export function parseWarmup(value: string): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0)
    throw new InvalidArgumentError(`"${value}" is not a whole number of milliseconds >= 0`);
  return ms;
}
