/**
 * The command's contact with the outside world, injectable so tests can run commands in-process.
 */

import { readFile } from 'node:fs/promises';

/** Where a command reads and writes. */
export interface Io {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  /** `columns`: the terminal's width, when it is one. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
  /** Reads all of standard input. */
  readStdin(): Promise<Uint8Array>;
  /** Standard input as a stream, for commands that read it piece by piece (`batch`); else `readStdin` is used. */
  readonly stdinStream?: () => AsyncIterable<Uint8Array> & { readonly isTTY?: boolean };
  /** Environment variables (NO_COLOR, CI…). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Calls `listener` on the first Ctrl-C (SIGINT) or SIGTERM, instead of the process ending there; returns the
   * function that removes it. Only commands that have something to finish (`batch`) ask.
   */
  readonly onInterrupt?: (listener: (signal: 'SIGINT' | 'SIGTERM') => void) => () => void;
}

/** The real process. */
export const processIo: Io = {
  stdout: process.stdout,
  stderr: process.stderr,
  async readStdin() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  },
  stdinStream: () => process.stdin,
  env: process.env,
  onInterrupt(listener) {
    const onSigint = () => {
      remove();
      listener('SIGINT');
    };
    const onSigterm = () => {
      remove();
      listener('SIGTERM');
    };
    const remove = () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigterm);
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigterm);
    return remove;
  },
};

/** A failure the user caused or can fix: printed as one line, never as a stack trace. */
export class CliError extends Error {
  /** The exit code: 2 for usage and I/O errors. */
  readonly exitCode: number;

  constructor(message: string, exitCode = 2, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** Reads a file, or standard input for `-`, as bytes. */
export async function readInput(io: Io, path: string, what: string): Promise<Uint8Array> {
  if (path === '-') return io.readStdin();
  try {
    return await readFile(path);
  } catch (error) {
    throw new CliError(`cannot read ${what} '${path}': ${describeFsError(error)}`, 2, { cause: error });
  }
}
