/**
 * A fetch worker: claims due files with a lease, runs the injected retrieval for each, records the result (fetch,
 * version, next due time) and goes round again. Any number of workers, in one process or many, can share one
 * database: leases keep them off each other's files.
 */

import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/config.js';
import type { Schema } from '../db/schema.js';
import { claimDueFiles, releaseClaim } from './claim.js';
import { acquireJobLease } from './job-lease.js';
import { DEFAULT_RETENTION_MS, pruneHistory } from './prune.js';
import { bodyIsAnalysed, contentHash, type NewVersionHook, type RecordResult, recordFetch } from './record-fetch.js';
import type { BodyAnalyzer, ClaimedFile, RetrievalResult, RobotsRetrieval } from './retrieval.js';
import { DEFAULT_SCHEDULE, nextFetchTime, type SchedulePolicy } from './schedule.js';

/** Options of {@link Worker}. */
export interface WorkerOptions {
  readonly db: Kysely<Schema>;
  readonly dialect: DialectName;
  /** Fetches one file (the engine's retrieval, wired by the service). */
  readonly retrieve: RobotsRetrieval;
  /** Lints new bodies; without it lint columns stay null (unknown, not zero). */
  readonly analyze?: BodyAnalyzer;
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
  readonly schedule?: SchedulePolicy;
  /**
   * Decides the next fetch time after a result (the engine's `refreshSchedule`, wired by the service).
   * @default `nextFetchTime` with `schedule`
   */
  readonly scheduleNext?: (file: ClaimedFile, result: RetrievalResult) => number;
  /** Runs in the recording transaction when a fetch makes a new version (alerts). */
  readonly onNewVersion?: NewVersionHook;
  /** Runs once per round (webhook deliveries); failures go to `onError`. */
  readonly eachRound?: () => Promise<void>;
  /** Called by {@link Worker.stop}, before it waits for the current round: to stop work started beside the rounds. */
  readonly onStop?: () => Promise<void>;
  /**
   * History kept; older fetches and unneeded versions are pruned about once an hour by one worker.
   * @default 30 days
   */
  readonly retentionMs?: number;
  /** Told about each recorded (or lost) fetch; for logs and tests. */
  readonly onRecorded?: (file: ClaimedFile, result: RetrievalResult, record: RecordResult) => void;
  /** Told about failures of the worker itself (database unreachable…); the worker keeps going. */
  readonly onError?: (error: unknown) => void;
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

  constructor(options: WorkerOptions) {
    this.#options = options;
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

  /** Stops the loop after the files in hand are recorded. */
  async stop(): Promise<void> {
    this.#stop.abort();
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
      let analysis: Awaited<ReturnType<BodyAnalyzer>> | undefined;
      if (o.analyze && result.outcome === 'fetched' && result.body) {
        if (!(await bodyIsAnalysed(o.db, contentHash(result.body)))) analysis = await o.analyze(result.body);
      }
      const record = await recordFetch(o.db, o.dialect, file, result, {
        nextFetchAt: o.scheduleNext
          ? o.scheduleNext(file, result)
          : nextFetchTime(result, file.consecutiveFailures, o.schedule ?? DEFAULT_SCHEDULE),
        worker: this.name,
        ...(analysis === undefined ? {} : { analysis }),
        ...(o.onNewVersion ? { onNewVersion: o.onNewVersion } : {}),
      });
      o.onRecorded?.(file, result, record);
    } catch (error) {
      o.onError?.(error);
      // The database failed us; let another round (or worker) take the file rather than waiting for the lease.
      await releaseClaim(o.db, file).catch(() => {});
    }
  }

  /** Runs the retrieval; a throw is a bug in it, recorded as a failed fetch so the file is retried with backoff. */
  async #retrieve(file: ClaimedFile): Promise<RetrievalResult> {
    const startedAt = this.#now();
    try {
      return await this.#options.retrieve(file, { signal: this.#stop.signal });
    } catch (error) {
      return {
        outcome: 'error',
        startedAt,
        finishedAt: this.#now(),
        httpStatus: null,
        body: null,
        headers: {},
        redirects: [],
        finalUrl: null,
        error: { kind: 'retrieval-failed', message: error instanceof Error ? error.message : String(error) },
      };
    }
  }
}
