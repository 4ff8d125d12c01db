import { type ChildProcess, execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from '../src/io.js';
import { main } from '../src/main.js';
import { tracked } from './cleanup.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The installed command, as `npx robotskit` runs it. */
export const BIN = join(here, '../bin/robotskit.js');

/** The outcome of one command run. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the command in-process with captured output. */
export async function run(
  argv: string[],
  options: {
    stdin?: string | Uint8Array;
    tty?: boolean;
    /** The terminal's width, for a TTY. */
    columns?: number;
    env?: Record<string, string | undefined>;
  } = {},
): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    // Bytes (`format`'s output) are shown as UTF-8; tests of exact bytes collect them with an Io of their own.
    stdout: {
      write: (s: string | Uint8Array) => (stdout += typeof s === 'string' ? s : new TextDecoder().decode(s)),
      isTTY: options.tty ?? false,
    },
    stderr: {
      write: (s: string) => (stderr += s),
      isTTY: options.tty ?? false,
      ...(options.columns === undefined ? {} : { columns: options.columns }),
    },
    readStdin: async () =>
      typeof options.stdin === 'string' ? new TextEncoder().encode(options.stdin) : (options.stdin ?? new Uint8Array()),
    env: { NO_COLOR: '1', ...options.env },
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/**
 * The environment for a child `robotskit`: this process's, without colour (as `run` has it), whatever FORCE_COLOR or
 * NO_COLOR the test runner was started with.
 */
export function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.FORCE_COLOR;
  return env;
}

/** Runs the real `robotskit` executable in a child process (its environment `plainEnv(env)`). */
export function spawn(argv: string[], input?: string, env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const options = { encoding: 'utf8' as const, env: plainEnv(env) };
    const child = tracked(
      execFile(process.execPath, [BIN, ...argv], options, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 2) : 0;
        resolve({ code, stdout, stderr });
      }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/**
 * Stops a child with SIGTERM and waits for it to exit (so that a service's database files are closed before its folder
 * is removed); nothing when it never started or has exited already.
 */
export async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The URL a `robotskit serve` child prints once it listens ("service on http://… "); rejects if it exits first. */
export function serviceUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /service on (http:\/\/\S+) /.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk) => {
      err += chunk;
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}
