/**
 * `robotskit batch [file|-] [--ua …] [--concurrency N] [--order input|completion] [--from-line N] [--timeout s]`: URLs
 * in, one per line (any mix of origins); NDJSON out, one record per non-blank line, in input order or as completed
 * (see `../batch/run.ts` for why and for the bounds). A progress line on standard error when it is a terminal, naming
 * the robots.txt the output waits for; a one-line summary at the end, terminal or not (`--quiet`: neither). Exit 0
 * when every URL was checked (whatever the verdicts), 2 on usage or I/O errors; lines that are not URLs are error records, not failures. Ctrl-C (SIGINT) or
 * SIGTERM writes the records complete by then, says on standard error which `--from-line` resumes the run, and exits
 * 130 (143 for SIGTERM); a second Ctrl-C ends it at once.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { lineBatchesOf } from '../batch/input.js';
import { ProgressDisplay, summaryLine } from '../batch/progress.js';
import { runBatch } from '../batch/run.js';
import type { BatchOrder, BatchSummary } from '../batch/types.js';
import { openSharedCache, type SharedCache } from '../cache/shared-cache.js';
import { CliError, type Io } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { parsePositive, parseTimeout } from '../options/numbers.js';
import { crawlerOfUa, sayRewrites } from '../options/ua.js';

/** Options of `batch`, as commander parsed them. */
export interface BatchCommandOptions {
  readonly ua?: string;
  readonly concurrency: string;
  readonly window: string;
  readonly perOrigin: string;
  readonly fromLine: string;
  readonly order: BatchOrder;
  readonly timeout: string;
  readonly cache?: string;
  /** No progress line and no summary on standard error. */
  readonly quiet?: boolean;
}

type Writable = Io['stdout'] & {
  once?: (event: 'drain', listener: () => void) => unknown;
  on?: (event: 'error', listener: (error: NodeJS.ErrnoException) => void) => unknown;
};

class OutputClosed extends Error {}

/** The URLs to read: a file (its size known, for the progress bar) or standard input, as chunks of bytes. */
async function openInput(
  io: Io,
  file: string | undefined,
): Promise<{ chunks: AsyncIterable<Uint8Array>; total: number | null }> {
  if (file === undefined || file === '-') {
    const stream = io.stdinStream?.();
    if (stream?.isTTY === true) {
      throw new CliError('batch reads URLs, one per line, from a file or standard input: give a file or pipe them in');
    }
    const chunks =
      stream ??
      (async function* () {
        yield await io.readStdin();
      })();
    return { chunks, total: null };
  }
  let total: number;
  try {
    const info = await stat(file);
    if (info.isDirectory()) throw new CliError(`cannot read URL file '${file}': it is a directory`);
    total = info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new CliError(`cannot read URL file '${file}': ${why}`);
  }
  return { chunks: createReadStream(file, { highWaterMark: 256 * 1024 }), total };
}

/**
 * Standard output for the run: a write returns a promise while the pipe is full (backpressure), and throws
 * {@link OutputClosed} once the reader has gone (`| head`: not an error of ours) or writing failed (`failure`).
 */
function stdoutWriter(io: Io): { write: (chunk: string) => Promise<void> | undefined; failure: () => Error | null } {
  const stdout = io.stdout as Writable;
  let closed = false;
  let failure: Error | null = null;
  let waiting: ((error?: Error) => void) | null = null;
  stdout.on?.('error', (error) => {
    closed = true;
    if (error.code !== 'EPIPE') failure = error;
    waiting?.(new OutputClosed());
  });
  const write = (chunk: string): Promise<void> | undefined => {
    if (closed) throw new OutputClosed();
    const ok = stdout.write(chunk);
    if (ok !== false || stdout.once === undefined) return undefined;
    return new Promise<void>((resolve, reject) => {
      waiting = (error) => {
        waiting = null;
        if (error === undefined) resolve();
        else reject(error);
      };
      stdout.once!('drain', () => waiting?.());
    });
  };
  return { write, failure: () => failure };
}

/** What an interrupted run says on standard error: what was written, and how to resume. */
function interruptedLine(summary: BatchSummary, order: BatchOrder): string {
  return order === 'completion'
    ? `robotskit: interrupted: ${summary.written} records written, every line before ${summary.resumeFrom} is done; resume with --from-line ${summary.resumeFrom} --order completion (records of later lines written already come again: keep one per index)\n`
    : `robotskit: interrupted: ${summary.written} records written${summary.lastIndex === 0 ? '' : `, the last for input line ${summary.lastIndex}`}; resume with --from-line ${summary.resumeFrom}\n`;
}

/** Runs `batch`; returns the exit code. */
export async function runBatchCommand(
  io: Io,
  file: string | undefined,
  options: BatchCommandOptions,
  version: string,
): Promise<number> {
  const crawler = crawlerOfUa(options.ua, (await userCatalogue(io)).crawlers);
  const timeoutMs = parseTimeout(options.timeout);
  const concurrency = parsePositive(options.concurrency, '--concurrency');
  const window = parsePositive(options.window, '--window');
  const perOrigin = parsePositive(options.perOrigin, '--per-origin');
  const fromLine = parsePositive(options.fromLine, '--from-line');
  sayRewrites(io, crawler);
  const { chunks, total } = await openInput(io, file);

  // Ctrl-C: stop reading, write what is complete, say where to resume. The listener goes after the first signal, so
  // a second Ctrl-C ends the process the usual way.
  const interrupt = new AbortController();
  let signalName: 'SIGINT' | 'SIGTERM' | null = null;
  const unsubscribe =
    io.onInterrupt?.((name) => {
      signalName = name;
      interrupt.abort();
      // A read from a pipe or terminal may never end by itself.
      (chunks as { destroy?: () => void }).destroy?.();
    }) ?? (() => {});
  const output = stdoutWriter(io);
  const display =
    io.stderr.isTTY === true && options.quiet !== true
      ? new ProgressDisplay(
          (s) => io.stderr.write(s),
          total,
          () => io.stderr.columns,
        )
      : null;
  let cache: SharedCache | null = null;
  try {
    if (options.cache !== undefined) cache = await openSharedCache(options.cache, io);
    const summary = await runBatch({
      lines: lineBatchesOf(chunks, (n) => {
        if (display !== null) display.read += n;
      }),
      write: output.write,
      crawler,
      version,
      timeoutMs,
      concurrency,
      window,
      perOrigin,
      fromLine,
      order: options.order,
      signal: interrupt.signal,
      ...(cache === null ? {} : { store: cache.store, onStoreError: cache.onStoreError }),
      // Also now and then while nothing gets written (the first URLs waiting on a slow robots.txt).
      ...(display === null ? {} : { onProgress: (p) => display.update(p), progressEveryMs: 250 }),
    });
    display?.clear();
    if (summary.interrupted) {
      io.stderr.write(interruptedLine(summary, options.order));
      return signalName === 'SIGTERM' ? 143 : 130;
    }
    // The summary also when standard error is not a terminal (a log file, CI): how the run went, in one line.
    if (options.quiet !== true) io.stderr.write(summaryLine(summary));
    return 0;
  } catch (error) {
    display?.clear();
    if (error instanceof OutputClosed) {
      const failure = output.failure();
      if (failure === null) return 0;
      throw new CliError(`cannot write the output: ${failure.message}`, 2, { cause: failure });
    }
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (typeof code === 'string' && code.startsWith('E')) {
      throw new CliError(`cannot read URL file '${file ?? '-'}': ${(error as Error).message}`, 2, { cause: error });
    }
    throw error;
  } finally {
    unsubscribe();
    await cache?.close().catch(() => {});
  }
}
