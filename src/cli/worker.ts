// Dawn writes its validation messages to the process's stdout from native code, where no
// JavaScript handler can hold them back, and stdout carries the command's JSON. So the command
// runs in a worker process: the same script and arguments, its stdout (fd 1) joined to this
// process's stderr, its output written to fd 3, a pipe that this process copies to its stdout.

import { spawn } from 'node:child_process';
import { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { FAILURE_EXIT } from './failure.ts';

const WORKER_ENV = 'WEBGPU_NARROWPHASE_CLI_WORKER';
const OUTPUT_FD = 3;

/** Whether this process is the worker (it then writes its output to outputStream()). */
export function isWorker(): boolean {
  return process.env[WORKER_ENV] === '1';
}

/** The worker's output: fd 3, which the parent copies to its stdout. */
export function outputStream(): Writable {
  return new Socket({ fd: OUTPUT_FD, readable: false, writable: true });
}

/** The worker's exit status once its output has reached stdout; a worker that died is a failure line. */
export function runWorker(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, process.argv[1], ...process.argv.slice(2)],
      {
        stdio: ['inherit', process.stderr, 'inherit', 'pipe'],
        env: { ...process.env, [WORKER_ENV]: '1' },
      },
    );
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let copied = false;
    const done = (): void => {
      if (!exit || !copied) return;
      if (exit.code !== null && exit.code <= FAILURE_EXIT) return resolve(exit.code);
      process.stderr.write(
        `error: the worker process ${exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`} (out of memory?)\n`,
      );
      resolve(FAILURE_EXIT);
    };
    const output = child.stdio[OUTPUT_FD] as NodeJS.ReadableStream;
    output.on('end', () => process.stdout.write('', () => ((copied = true), done())));
    output.pipe(process.stdout, { end: false });
    process.stdout.on('error', (e) => {
      process.stderr.write(`error: stdout: ${e.message}\n`);
      child.kill();
      resolve(FAILURE_EXIT);
    });
    child.on('error', (e) => {
      process.stderr.write(`error: cannot start the worker process: ${e.message}\n`);
      resolve(FAILURE_EXIT);
    });
    child.on('exit', (code, signal) => ((exit = { code, signal }), done()));
  });
}
