/**
 * The command's contact with the outside world, injectable so tests can run commands in-process.
 */

import { readFile } from 'node:fs/promises';

/** Where a command reads and writes. */
export interface Io {
  /** `write` takes bytes too, for output that must not be decoded (`format`). */
  readonly stdout: { write(chunk: string | Uint8Array): unknown; readonly isTTY?: boolean };
  /** `columns`: the terminal's width, when it is one. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean; readonly columns?: number };
  /** Reads all of standard input. */
  readStdin(): Promise<Uint8Array>;
  /** Standard input as a stream, for commands that read it piece by piece (`batch`); else `readStdin` is used. */
  readonly stdinStream?: () => AsyncIterable<Uint8Array> & { readonly isTTY?: boolean };
  /** Standard input's file descriptor, for commands that read much of it (`logs`: cheaper than its stream). */
  readonly stdinFd?: number;
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
  stdinFd: 0,
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

/**
 * Reads a file, or standard input for `-`, as bytes. A URL given where a file is expected (and no file has that name)
 * is said to be one, with the command that takes URLs (`urlHint`, e.g. "use robotskit check <url>").
 */
export async function readInput(io: Io, path: string, what: string, urlHint?: string): Promise<Uint8Array> {
  if (path === '-') return io.readStdin();
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'ENOENT' && /^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
      const hint = urlHint ?? 'download it first, or lint it with robotskit lint <url>';
      throw new CliError(`'${path}' is a URL, not a ${what}: ${hint}`, 2, { cause: error });
    }
    throw new CliError(`cannot read ${what} '${path}': ${describeFsError(error)}`, 2, { cause: error });
  }
}

/** What `test` and `explain` say when given a URL for the robots.txt file. */
export const URL_FOR_FILE_HINT =
  'to decide URLs by a site\u2019s live robots.txt use robotskit check <url>; to lint that file, robotskit lint <url>';
