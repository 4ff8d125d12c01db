/**
 * A fetch worker: claims due files with a lease, runs the engine's retrieval for each (over the SSRF-guarded fetch),
 * lints each new body with the engine, records the result (fetch, version, the next due time by the engine's refresh
 * schedule) and goes round again. Any number of workers, in one process or many, can share one
 * database: leases keep them off each other's files.
 */

import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { parseRobotsTxt, type RobotsTxt } from 'robotskit';
import type { AvailabilityOptions } from 'robotskit/fetch';
import type { PreparedVersion } from '../alerts/store.js';
import { AnalysisThreadsClosedError } from '../analysis/threads.js';
import { type ClaimedFile, claimDueFiles, releaseClaim } from '../storage/claim.js';
import type { DialectName } from '../storage/config.js';
import { acquireJobLease } from '../storage/job-lease.js';
import { DEFAULT_RETENTION_MS, pruneHistory } from '../storage/prune.js';
import { bodyIsAnalysed, type NewVersionHook, type RecordResult, recordFetch } from '../storage/record-fetch.js';
import {
  type BodyAnalysis,
  type FetchRecord,
  failedRetrievalRecord,
  fetchRecordOf,
  nextFetchAt,
} from '../storage/rows.js';
import type { Schema } from '../storage/schema.js';
import { analyzeFetchedBody, LintThread, LintThreadClosedError } from './lint-thread.js';
import type { RobotsRetrieval } from './retrieval.js';

/** Options of {@link Worker}. */
export interface WorkerOptions {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** Fetches one file (the engine's retrieval over the guarded fetch, wired by the service). */
  readonly retrieve: RobotsRetrieval;
  /**
   * This worker's name in leases and fetch rows.
   * @default `<hostname>:<pid>:<random>`
   */
  readonly name?: string;
  /**
   * The clock, epoch ms.
   * @default Date.now
   */
  readonly now?: () => number;
  /**
   * Lease length; longer than any fetch can take.
   * @default 5 minutes
   */
  readonly leaseMs?: number;
  /**
   * Files claimed per round.
   * @default 16
   */
  readonly batchSize?: number;
  /**
   * Files fetched at the same time.
   * @default 8
   */
  readonly concurrency?: number;
  /**
   * Longest sleep when nothing is due.
   * @default 5 seconds
   */
  readonly idleMs?: number;
  /** Options of the engine's refresh schedule (cache lifetime bounds, retry backoff). */
  readonly schedule?: AvailabilityOptions;
  /** Runs in the recording transaction when a fetch makes a new version (alerts). */
  readonly onNewVersion?: NewVersionHook<PreparedVersion>;
  /** Runs once per round (work started beside the rounds, such as host discovery); failures go to `onError`. */
  readonly eachRound?: () => Promise<void>;
  /** Called by {@link Worker.stop}, before it waits for the current round: to stop work started beside the rounds. */
  readonly onStop?: () => Promise<void>;
  /**
   * History kept; older fetches and unneeded versions are pruned about once an hour by one worker.
   * @default 30 days
   */
  readonly retentionMs?: number;
  /** Told about each recorded (or lost) fetch; for logs and tests. */
  readonly onRecorded?: (file: ClaimedFile, result: FetchRecord, record: RecordResult) => void;
  /** Told about failures of the worker itself (database unreachable…); the worker keeps going. */
  readonly onError?: (error: unknown) => void;
  /**
   * The thread large bodies are linted in, shared by the workers of a process; its owner closes it. Without one the
   * worker starts its own and closes it in {@link Worker.stop}.
   */
  readonly lintThread?: LintThread;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Runs a bounded number of async tasks at a time over `items`. */
async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  });
  await Promise.all(lanes);
}

/** Waits `ms`, or less when any of `signals` aborts. */
function sleep(ms: number, ...signals: AbortSignal[]): Promise<void> {
  return new Promise((resolve) => {
    if (signals.some((s) => s.aborted)) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    }
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });
}

/** A fetch worker. `runOnce` is one claim-and-fetch round; `start` loops until stopped. */
export class Worker {
  readonly name: string;
  readonly #options: WorkerOptions;
  readonly #now: () => number;
  #stop = new AbortController();
  /** Ends the current idle sleep early; replaced for each sleep. */
  #nap = new AbortController();
  /** A wake-up arrived since the last claim: skip the next sleep. */
  #woken = false;
  #loop: Promise<void> | undefined;
  #lastPrune = Number.NEGATIVE_INFINITY;
  readonly #lint: LintThread;
  /** The worker started {@link #lint} and closes it when it stops. */
  readonly #ownsLint: boolean;

  constructor(options: WorkerOptions) {
    this.#options = options;
    this.#ownsLint = options.lintThread === undefined;
    this.#lint = options.lintThread ?? new LintThread();
    this.#now = options.now ?? Date.now;
    this.name = options.name ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  }

  /** Claims one batch of due files and fetches them; returns how many were claimed (0: nothing was due). */
  async runOnce(): Promise<number> {
    const o = this.#options;
    const claims = await claimDueFiles(o.db, o.dialect, {
      owner: this.name,
      limit: o.batchSize ?? 16,
      leaseMs: o.leaseMs ?? 5 * 60_000,
      now: this.#now(),
    });
    await eachLimited(claims, o.concurrency ?? 8, (file) => this.#process(file));
    return claims.length;
  }

  /** Runs rounds until nothing is due now; returns the number of files processed. */
  async runUntilIdle(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.runOnce();
      if (n === 0) return total;
      total += n;
    }
  }

  /** Starts the loop in the background. */
  start(): void {
    if (this.#loop) return;
    this.#stop = new AbortController();
    const signal = this.#stop.signal;
    this.#loop = (async () => {
      while (!signal.aborted) {
        let claimed = 0;
        this.#woken = false;
        try {
          await this.#maybePrune();
          claimed = await this.runOnce();
          await this.#options.eachRound?.();
        } catch (error) {
          this.#options.onError?.(error);
        }
        if (claimed === 0 && !this.#woken) {
          this.#nap = new AbortController();
          await sleep(this.#options.idleMs ?? 5000, signal, this.#nap.signal);
        }
      }
    })();
  }

  /**
   * Ends an idle sleep now, so files that just became due (a recrawl request, a new property) are claimed at once
   * rather than after up to `idleMs`. Harmless while the worker is busy: it claims again right after its round.
   */
  wake(): void {
    this.#woken = true;
    this.#nap.abort();
  }

  /** Stops the loop after the files in hand are recorded (a lint in progress in its own thread is cut short). */
  async stop(): Promise<void> {
    this.#stop.abort();
    if (this.#ownsLint) await this.#lint.close();
    await this.#options.onStop?.();
    await this.#loop;
    this.#loop = undefined;
  }

  async #maybePrune(): Promise<void> {
    const o = this.#options;
    const now = this.#now();
    if (now - this.#lastPrune < PRUNE_EVERY_MS) return;
    this.#lastPrune = now;
    if (!(await acquireJobLease(o.db, o.dialect, { name: 'prune', owner: this.name, now, ttlMs: PRUNE_EVERY_MS }))) {
      return;
    }
    await pruneHistory(o.db, o.dialect, { now, retentionMs: o.retentionMs ?? DEFAULT_RETENTION_MS });
  }

  async #process(file: ClaimedFile): Promise<void> {
    const o = this.#options;
    try {
      const result = await this.#retrieve(file);
      if (result.error?.kind === 'aborted' && this.#stop.signal.aborted) {
        // Stopped mid-fetch: that says nothing about the site. Give the file back, still due.
        await releaseClaim(o.db, file);
        return;
      }
      // The body is parsed at most once, and only when lint or the alerts need it.
      const body = result.body;
      let robots: RobotsTxt | undefined;
      const parsed = body === null ? undefined : () => (robots ??= parseRobotsTxt(body));
      let analysis: BodyAnalysis | undefined;
      if (body !== null && parsed && result.bodyHash !== null && !(await bodyIsAnalysed(o.db, result.bodyHash))) {
        analysis = await this.#lintOrNone(body, parsed);
      }
      // Work the alerts need from the network (the sitemap URLs an edit changes) runs now, outside the transaction;
      // it is bounded, and a failure only leaves the alert without it.
      let prepared: PreparedVersion | null = null;
      const prepare = o.onNewVersion?.prepare;
      if (prepare && result.outcome !== 'disallow-all') {
        try {
          // The body as parsed for lint, if it was; an unchanged body (most fetches) is not parsed for this.
          prepared = await prepare(o.db, file, result, robots, this.#stop.signal);
        } catch (error) {
          // A diff cut short by the service stopping is no failure: the alerts count lines without it.
          if (!(error instanceof AnalysisThreadsClosedError)) o.onError?.(error);
        }
      }
      const record = await recordFetch(o.db, o.dialect, file, result, {
        nextFetchAt: nextFetchAt(result, file.failingSince, o.schedule),
        worker: this.name,
        ...(analysis === undefined ? {} : { analysis }),
        ...(o.onNewVersion ? { onNewVersion: o.onNewVersion } : {}),
        ...(parsed ? { parsed } : {}),
        ...(prepared === null ? {} : { prepared }),
      });
      o.onRecorded?.(file, result, record);
    } catch (error) {
      // A lint cut short by the service stopping is no failure: the file goes back, still due.
      if (!(error instanceof LintThreadClosedError)) o.onError?.(error);
      // The database failed us; let another round (or worker) take the file rather than waiting for the lease.
      await releaseClaim(o.db, file).catch(() => {});
    }
  }

  /**
   * The body's lint; none when the lint fails (past the thread's memory bound, or the thread died): the fetch is
   * recorded all the same, its version unlinted ("not linted" in the API), and the body is linted again when a later
   * fetch brings it. Before, the failure gave the file back still due, so the same lint ran out of memory every round
   * and the site's new rules were never recorded. A lint cut short by the service stopping still gives the file back.
   */
  async #lintOrNone(body: Uint8Array, parsed: () => RobotsTxt): Promise<BodyAnalysis | undefined> {
    try {
      return await analyzeFetchedBody(body, this.#lint, parsed);
    } catch (error) {
      if (error instanceof LintThreadClosedError) throw error;
      this.#options.onError?.(error);
      return undefined;
    }
  }

  /** Runs the retrieval; a throw is a bug in it, recorded as a failed fetch so the file is retried with backoff. */
  async #retrieve(file: ClaimedFile): Promise<FetchRecord> {
    const startedAt = this.#now();
    try {
      return fetchRecordOf(await this.#options.retrieve(file, { signal: this.#stop.signal }));
    } catch (error) {
      return failedRetrievalRecord(startedAt, this.#now(), error);
    }
  }
}
