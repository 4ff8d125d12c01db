/**
 * What `runBatch` takes and gives: its options, the order of its records, its counters and its summary. Apart from
 * `run.ts` so the progress display and the command read them without the run.
 */

import type { AnyFetchLike, RobotsClientOptions } from 'robotskit/fetch';
import type { BATCH_ORDERS } from '../options/choices.js';
import type { UaCrawler } from '../options/ua.js';

/** The order of `batch`'s records: the input's, or the order in which they complete. */
export type BatchOrder = (typeof BATCH_ORDERS)[number];

/** Options of `runBatch`. */
export interface BatchOptions {
  /**
   * The input, one URL per line (line breaks removed): a line at a time, or several at once (as `lineBatchesOf` reads
   * them, every line of a chunk of input), which spares a promise per line.
   */
  readonly lines: AsyncIterable<string | readonly string[]>;
  /** Receives whole NDJSON lines, several at a time; a returned promise is awaited before more are produced. */
  readonly write: (chunk: string) => unknown;
  /** The crawler asked for: `--ua` as typed, or resolved. @default Googlebot, as without `--ua` */
  readonly crawler?: string | UaCrawler;
  /** The `fetch` for robots.txt requests. @default robotsRequest (Node's HTTP client, behaving as `fetch`) */
  readonly fetch?: AnyFetchLike;
  /** robotskit's version, for the User-Agent. */
  readonly version?: string;
  /** Timeout of one robots.txt retrieval, ms. @default 10000 */
  readonly timeoutMs?: number;
  /** robots.txt fetches in flight at once, over all origins. @default 32 */
  readonly concurrency?: number;
  /** URLs in flight or waiting to be written, at most. @default 4096 */
  readonly window?: number;
  /** URLs of one origin in flight, at most. @default 512 */
  readonly perOrigin?: number;
  /**
   * `input`: records in input order (an interrupted run leaves a prefix of the output); `completion`: each record as
   * soon as it is complete (a slow robots.txt holds back only its own site's URLs). @default 'input'
   */
  readonly order?: BatchOrder;
  /**
   * A store shared with other processes (`--cache`): each origin's robots.txt is fetched once between them all.
   * Its failures go to `onStoreError` and the run goes on from memory.
   */
  readonly store?: RobotsClientOptions['store'];
  readonly onStoreError?: RobotsClientOptions['onStoreError'];
  /** Origins kept in the client's cache. @default 100000 */
  readonly maxOrigins?: number;
  /** Input lines before this 1-based line number are skipped (to resume). @default 1 */
  readonly fromLine?: number;
  /** Called with the counters now and then (every 1,024 records, every `progressEveryMs`, and at the end). */
  readonly onProgress?: (progress: BatchProgress) => void;
  /**
   * Also call `onProgress` at this interval while the run lasts, so a display moves while nothing can be written
   * (URLs waiting behind a slow robots.txt). @default never
   */
  readonly progressEveryMs?: number;
  /**
   * Stops the run: no more input is read, robots.txt fetches in flight are aborted, the records complete by then are
   * written (in input order, up to the first one still waiting), and `runBatch` resolves with `interrupted: true`.
   */
  readonly signal?: AbortSignal;
}

/** Counters of a batch run. */
export interface BatchProgress {
  /** Input lines read. */
  readonly lines: number;
  /** Records written (URLs and errors). */
  readonly written: number;
  readonly allowed: number;
  readonly blocked: number;
  /** Lines that were not URLs with a robots.txt. */
  readonly invalid: number;
  /** URLs in flight or waiting to be written. */
  readonly pending: number;
  /** robots.txt fetches made, in flight, and waiting for a slot. */
  readonly fetches: number;
  readonly activeFetches: number;
  readonly queuedFetches: number;
  /** Origins whose robots.txt could not be fetched (network errors, timeouts, answers that broke off). */
  readonly unreachable: number;
  /**
   * What the output waits for, when it waits: the robots.txt of `origin`, which input line `line` needs, asked for
   * `ms` milliseconds ago (in input order it holds back every later record). Null when nothing waits.
   */
  readonly waitingFor: { readonly origin: string; readonly line: number; readonly ms: number } | null;
}

/** What `runBatch` resolves with: the final counters, and where to resume after an interruption. */
export interface BatchSummary extends BatchProgress {
  /** True when `signal` stopped the run before the end of the input. */
  readonly interrupted: boolean;
  /** The `index` of the last record written; 0 when none was. */
  readonly lastIndex: number;
  /**
   * The input line a later run resumes from (`--from-line`) to complete this run's output. In input order: the line
   * after the last record written, or this run's first line when none was written. In completion order: the first
   * line read without a record written (later lines may have theirs already), or the line after the last one read.
   */
  readonly resumeFrom: number;
}
