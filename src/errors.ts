// Errors for bad input. Every message names the offending item (its JSON path, such as
// `shapes[3]`) and the reason, and is raised on the host before any GPU work is issued.

/**
 * A value as an error message shows it: strings quoted, so that "2" (a string where a number
 * belongs) does not read as 2; numbers as JavaScript prints them (NaN, Infinity); the rest as JSON.
 */
export function shown(x: unknown): string {
  if (
    typeof x === 'number' ||
    x === undefined ||
    typeof x === 'function' ||
    typeof x === 'symbol' ||
    typeof x === 'bigint'
  )
    return String(x);
  return JSON.stringify(x);
}

/**
 * x as a finite number of magnitude at most `limit` (f32 keeps ~7 digits, so above that it
 * resolves nothing), else an InputError at `path` naming `what`.
 */
export function finiteNumber(path: string, what: string, x: unknown, limit: number): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) {
    throw new InputError(path, `${what} must be a finite number, got ${shown(x)}`);
  }
  if (Math.abs(x) > limit) {
    throw new InputError(
      path,
      `${what} is ${x}; magnitudes above ${limit} lose all precision in f32`,
    );
  }
  return x;
}

/**
 * An on/off option that is on unless given as false (left out: true). Anything but a boolean is
 * refused: the string 'false' or 0 would otherwise read as on.
 */
export function onUnlessFalse(path: string, x: unknown): boolean {
  if (x === undefined) return true;
  if (typeof x !== 'boolean') throw new InputError(path, `must be true or false, got ${shown(x)}`);
  return x;
}

/**
 * How many entries of `entryBytes` a buffer of `bytes` holds, refusing a buffer that is not a
 * whole number of them (read back short, or padded): its tail would read as a phantom entry.
 */
export function wholeEntries(
  path: string,
  bytes: number,
  entryBytes: number,
  entry: string,
): number {
  if (bytes % entryBytes !== 0) {
    throw new InputError(
      path,
      `holds ${bytes} bytes, not a whole number of ${entryBytes}-byte ${entry} entries (read back exactly count × ${entryBytes} bytes)`,
    );
  }
  return bytes / entryBytes;
}

export class InputError extends Error {
  override name = 'InputError';
  /** JSON path of the offending item, e.g. "shapes[3]" or "pairs[12]". */
  readonly path: string;
  /** The reason without the path, e.g. "vertices are clockwise". */
  readonly reason: string;

  constructor(path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }
}

/** A result buffer was too small for what the run produced; nothing was written past its end. */
export class CapacityError extends Error {
  override name = 'CapacityError';
}

/**
 * The GPUDevice was lost (destroyed, driver reset, GPU removed, tab backgrounded on some
 * platforms). Nothing more can run on it: rebuild on a new device (Narrowphase.rebuild(), or for
 * GpuFrame2D and the other GPU stages, create them again on the engine's new device).
 */
export class DeviceLostError extends Error {
  override name = 'DeviceLostError';
  /** GPUDeviceLostInfo.reason: "destroyed" (device.destroy() was called) or "unknown". */
  readonly reason: string;
  /** GPUDeviceLostInfo.message, the implementation's explanation. */
  readonly lostMessage: string;

  constructor(reason: string, lostMessage: string, options?: { cause?: unknown }) {
    super(
      `the GPU device was lost (reason: ${reason}${lostMessage ? `: ${lostMessage}` : ''}); rebuild on a new device`,
      options,
    );
    this.reason = reason;
    this.lostMessage = lostMessage;
  }
}
