// Reading a scene file for the command line: each way a file can fail to be a scene (missing, a
// directory, unreadable, not JSON) is an InputError naming the file and the reason.

import { readFileSync } from 'node:fs';
import { InputError } from '../errors.ts';

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory, not a scene file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
  ERR_STRING_TOO_LONG: 'is too large to read as one JSON text here',
};

/** The JSON of `file` ("-": standard input); a UTF-8 byte-order mark is skipped. */
export function readSceneJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    throw new InputError(
      file === '-' ? 'stdin' : file,
      FILE_PROBLEMS[code] ?? `cannot be read: ${(e as Error).message}`,
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(
      file === '-' ? 'stdin' : file,
      `is not valid JSON: ${(e as Error).message}`,
    );
  }
}
