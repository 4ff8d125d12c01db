/**
 * The heavy analyses off the event loop: a few worker threads (one fewer than the machine's cores, at least one, at
 * most four) run the library's bounded Myers diff, the engine's exact comparison (`compareRobots`, bounded by its
 * states and time), what a body leaves each crawler (the engine's `crawlerAccess`, for headlines) and the engine's
 * verdicts over many sitemap URLs (the share of them a version blocks) and a version's AI use (`aiUse`), so neither the API nor the fetch workers of
 * `serve` wait for one. Jobs past the threads queue.
 * Small texts are diffed in place (a thread round trip costs more). Threads run the same engine build the service
 * imports, start on first use, keep no process alive, are started again if one dies, end after 2 s without work (an
 * idle thread never collects its garbage: after a flapping 400 KB file one kept 200 MB), and are terminated by
 * {@link AnalysisThreads.close} (a waiting caller gets a {@link AnalysisThreadsClosedError}). Each thread's heap is
 * bounded ({@link ANALYSIS_THREAD_LIMITS}); a job past the bound fails alone ({@link AnalysisMemoryError}).
 */

import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AiUse, CompareOptions, CrawlerAccess, RobotsComparison } from 'robotskit/semantics';
import {
  type DiffBounds,
  diffOfHunks,
  type LineDiff,
  lineDiff,
  type PatchHunk,
  patchArguments,
  SUMMARY_DIFF_SOURCE,
} from './diff.js';

/** Texts up to this many characters together are diffed on the calling thread (their cost is a few milliseconds). */
const INLINE_DIFF_CHARS = 16 * 1024;

/**
 * The thread, answering each job by id: `patch`, `structuredPatch(...args)`'s hunks, or past the bounds the summary
 * of the two texts (its third and fourth arguments); `compare`, the engine's `compareRobots` of the two bodies (bytes
 * or text, parsed there); `access`, a body's {@link BodyAccess} by the engine (parsed, HTML detection,
 * `crawlerAccess` of the crawlers named); `blocked`, per crawler name (read by the engine's `resolveCrawler`), how
 * many of the URLs the body's rules disallow (the engine's `isAllowed`), as `blockedCounts` in `sitemap-share.ts`
 * counts them in place; `ai-use`, the engine's `aiUse` of a body (parsed there).
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${SUMMARY_DIFF_SOURCE}
Promise.all([import(workerData.diff), import(workerData.semantics), import(workerData.engine)]).then(
  ([{ structuredPatch }, { aiUse, compareRobots, crawlerAccess }, engine]) => {
    parentPort.on('message', ({ id, kind, args }) => {
      try {
        let value;
        if (kind === 'patch') {
          const patch = structuredPatch(...args);
          value = patch === undefined ? { summary: summaryDiff(args[2], args[3]) } : { hunks: patch.hunks };
        } else if (kind === 'access') {
          const [bytes, contentType, names, options] = args;
          const robots = engine.parseRobotsTxt(bytes);
          const crawlers = names.map((name) => engine.resolveCrawler(name).input);
          value = {
            html: engine.isHtmlContentType(contentType) || engine.looksLikeHtml(bytes),
            noRules: robots.groups.every((g) => g.rules.length === 0),
            access: crawlerAccess(robots, crawlers, options).map((a) => ({ crawler: a.crawler, access: a.access })),
          };
        } else if (kind === 'ai-use') {
          const [bytes, options] = args;
          value = aiUse(engine.parseRobotsTxt(bytes), options);
        } else if (kind === 'blocked') {
          const [body, urls, names] = args;
          const robots = engine.parseRobotsTxt(body);
          value = names.map((name) => {
            const input = engine.resolveCrawler(name).input;
            let blocked = 0;
            for (const url of urls) if (!robots.isAllowed(url, input)) blocked++;
            return blocked;
          });
        } else {
          const [before, after, options] = args;
          value = compareRobots(before, after, options);
        }
        parentPort.postMessage({ id, value });
      } catch (error) {
        parentPort.postMessage({ id, error: String((error && error.message) || error) });
      }
    });
  },
);
`;

/** An analysis a caller waited for was cut short because the threads were closed (the service is stopping). */
export class AnalysisThreadsClosedError extends Error {
  constructor() {
    super('the analysis threads were closed');
    this.name = 'AnalysisThreadsClosedError';
  }
}

/**
 * An analysis needed more memory than its thread's bound ({@link ANALYSIS_THREAD_LIMITS}): the thread was ended and
 * that job alone failed (the API answers it with a 413 saying so); the next job starts a new thread.
 */
export class AnalysisMemoryError extends Error {
  constructor(what: string, limits: ThreadLimits) {
    super(
      `${what} needed more than the ${limits.maxOldGenerationSizeMb} MB of memory its thread may use and was stopped; give a smaller input`,
    );
    this.name = 'AnalysisMemoryError';
  }
}

/** A worker thread's V8 heap bounds, in MB. */
export interface ThreadLimits {
  readonly maxYoungGenerationSizeMb: number;
  readonly maxOldGenerationSizeMb: number;
}

/** `error` as the failure of `what` in a thread bounded by `limits`: a {@link AnalysisMemoryError} if it ran out. */
export function threadFailure(error: Error, what: string, limits: ThreadLimits): Error {
  return (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? new AnalysisMemoryError(what, limits)
    : error;
}

/** What a body's rules leave each crawler asked about, as headlines read it. */
export interface BodyAccess {
  /** The body is an HTML page (by its Content-Type or its bytes). */
  readonly html: boolean;
  /** No group has a rule. */
  readonly noRules: boolean;
  readonly access: readonly { readonly crawler: string; readonly access: CrawlerAccess['access'] }[];
}

interface Job {
  readonly kind: 'patch' | 'compare' | 'access' | 'blocked' | 'ai-use';
  readonly args: readonly unknown[];
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  /** The job it runs, by id. */
  running: { readonly id: number; readonly job: Job } | null;
  /** Ends the thread when it stays idle. */
  idle: NodeJS.Timeout | null;
}

/**
 * Each thread's V8 heap bounds (MB): a small young generation (the default, 3 × 16 MB semi-spaces per thread, held
 * most of the RSS the threads added under load) and an old generation cap, so one job cannot grow the process past
 * issue 37's 512 MB. A job past the cap ends its thread: that job alone fails ({@link AnalysisOutOfMemoryError}),
 * the next starts a new thread.
 */
export const ANALYSIS_THREAD_LIMITS: ThreadLimits = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 };

/** A thread without work for this long ends (a new one starts for the next job). */
const IDLE_THREAD_MS = 2_000;

/** Where a job joins the queue: at the back, or (the fetch workers') at the front. */
type Place = 'back' | 'front';

/** What the fetch workers ask of the threads ({@link AnalysisThreads.forFetching}). */
export type FetchingAnalyses = Pick<AnalysisThreads, 'diff' | 'compare' | 'blocked'>;

/** The default number of threads: the machine's cores but one, from one to four. */
function defaultAnalysisThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** A small pool of analysis threads shared by a process's API and workers. */
export class AnalysisThreads {
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #next = 1;

  constructor(
    readonly size = defaultAnalysisThreads(),
    readonly limits: ThreadLimits = ANALYSIS_THREAD_LIMITS,
  ) {}

  /** The line diff from `oldText` to `newText` (see `lineDiff`), computed in a thread unless the texts are small. */
  async diff(oldText: string, newText: string, context = 3, bounds: DiffBounds = {}): Promise<LineDiff> {
    return this.#diff(oldText, newText, context, bounds, 'back');
  }

  /** The engine's `compareRobots` of two bodies (each parsed by the engine in the thread), with `options`. */
  async compare(
    before: Uint8Array | string,
    after: Uint8Array | string,
    options: CompareOptions,
  ): Promise<RobotsComparison> {
    return (await this.#run('compare', [before, after, options], 'back')) as RobotsComparison;
  }

  /**
   * These threads as the fetch workers use them: their jobs go ahead of the jobs waiting (API requests' diffs and
   * comparisons), so a fetch, and the new property's first fetch behind it, never waits behind what clients asked.
   */
  forFetching(): FetchingAnalyses {
    return {
      diff: (oldText, newText, context = 3, bounds = {}) => this.#diff(oldText, newText, context, bounds, 'front'),
      compare: async (before, after, options) =>
        (await this.#run('compare', [before, after, options], 'front')) as RobotsComparison,
      blocked: async (body, urls, names) => (await this.#run('blocked', [body, urls, names], 'front')) as number[],
    };
  }

  async #diff(oldText: string, newText: string, context: number, bounds: DiffBounds, place: Place): Promise<LineDiff> {
    if (oldText.length + newText.length <= INLINE_DIFF_CHARS) return lineDiff(oldText, newText, context, bounds);
    const answer = (await this.#run('patch', patchArguments(oldText, newText, context, bounds), place)) as
      | { hunks: PatchHunk[] }
      | { summary: LineDiff };
    return 'summary' in answer ? answer.summary : diffOfHunks(answer.hunks);
  }

  /**
   * What `bytes` (a robots.txt body with its Content-Type) leaves each crawler named (names as `resolveCrawler` reads
   * them), by the engine's `crawlerAccess` bounded by `options`.
   */
  async access(
    bytes: Uint8Array,
    contentType: string | null,
    crawlers: readonly string[],
    options: Pick<CompareOptions, 'maxStates' | 'timeoutMs'>,
  ): Promise<BodyAccess> {
    return (await this.#run('access', [bytes, contentType, crawlers, options], 'back')) as BodyAccess;
  }

  /** The engine's `aiUse` of `bytes` (a robots.txt body, parsed in the thread), bounded by `options`. */
  async aiUse(bytes: Uint8Array, options: Pick<CompareOptions, 'maxStates' | 'timeoutMs'>): Promise<AiUse> {
    return (await this.#run('ai-use', [bytes, options], 'back')) as AiUse;
  }

  /**
   * Per crawler name (each read by the engine's `resolveCrawler`), how many of `urls` the rules of `body` disallow:
   * the engine's `isAllowed`, in a thread.
   */
  async blocked(body: Uint8Array, urls: readonly string[], names: readonly string[]): Promise<number[]> {
    return (await this.#run('blocked', [body, urls, names], 'back')) as number[];
  }

  #run(kind: Job['kind'], args: readonly unknown[], place: Place): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const job = { kind, args, resolve, reject };
      if (place === 'front') this.#queue.unshift(job);
      else this.#queue.push(job);
      this.#pump();
    });
  }

  /** Jobs waiting for a thread (for tests and logs). */
  get queued(): number {
    return this.#queue.length;
  }

  #pump(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => s.running === null);
      if (!slot && this.#slots.length < this.size) slot = this.#start();
      if (!slot) return;
      const job = this.#queue.shift() as Job;
      const id = this.#next++;
      if (slot.idle !== null) clearTimeout(slot.idle);
      slot.idle = null;
      slot.running = { id, job };
      slot.worker.postMessage({ id, kind: job.kind, args: job.args });
    }
  }

  #start(): Slot {
    const require = createRequire(import.meta.url);
    const [diff, semantics, engine] = ['diff', 'robotskit/semantics', 'robotskit'].map(
      (name) => pathToFileURL(require.resolve(name)).href,
    );
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { diff, semantics, engine },
      resourceLimits: this.limits,
    });
    const slot: Slot = { worker, running: null, idle: null };
    worker.on('message', (message: { id: number; value?: unknown; error?: string }) => {
      const running = slot.running;
      if (running === null || running.id !== message.id) return;
      slot.running = null;
      if (message.error !== undefined) running.job.reject(new Error(`${running.job.kind} failed: ${message.error}`));
      else running.job.resolve(message.value ?? null);
      this.#pump();
      if (slot.running === null) this.#endWhenIdle(slot);
    });
    const fail = (error: Error) => {
      if (slot.idle !== null) clearTimeout(slot.idle);
      const index = this.#slots.indexOf(slot);
      if (index >= 0) this.#slots.splice(index, 1);
      const running = slot.running;
      slot.running = null;
      running?.job.reject(threadFailure(error, `the ${running.job.kind} job`, this.limits));
      this.#pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`an analysis thread exited (code ${code})`)));
    // Last: a 'message' listener refs the thread again, and a referenced thread keeps the process alive.
    worker.unref();
    this.#slots.push(slot);
    return slot;
  }

  #endWhenIdle(slot: Slot): void {
    slot.idle = setTimeout(() => {
      slot.idle = null;
      if (slot.running === null) this.#end(slot);
    }, IDLE_THREAD_MS);
    slot.idle.unref();
  }

  /** Ends an idle thread (the next job starts another). */
  #end(slot: Slot): void {
    const index = this.#slots.indexOf(slot);
    if (index < 0) return;
    this.#slots.splice(index, 1);
    if (slot.idle !== null) clearTimeout(slot.idle);
    slot.idle = null;
    void slot.worker.terminate();
  }

  /** Stops the threads, ending diffs in progress and queued (their callers get a {@link AnalysisThreadsClosedError}). */
  async close(): Promise<void> {
    const slots = this.#slots.splice(0);
    for (const job of this.#queue.splice(0)) job.reject(new AnalysisThreadsClosedError());
    for (const slot of slots) {
      if (slot.idle !== null) clearTimeout(slot.idle);
      slot.running?.job.reject(new AnalysisThreadsClosedError());
      slot.running = null;
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
