/**
 * Linting large fetched bodies off the event loop. The engine's lint is linear, but a hostile 500 KiB file still
 * costs it a second or more (tens of thousands of findings), and the workers of `serve` share the API's event loop:
 * bodies above {@link INLINE_LINT_BYTES} are linted in a worker thread, so the API keeps answering meanwhile.
 * Smaller bodies are linted in place (a thread round trip would cost more than the lint). The thread runs the same
 * engine build the service imports, is started on first use, does not keep the process alive, and is started
 * again if it dies or after 2 s without work (an idle thread never collects its garbage). Each service (and `worker` process) owns one and closes it when it stops: closing terminates a
 * lint in progress at once (its caller gets a {@link LintThreadClosedError}), so a SIGTERM never waits for a lint.
 */

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RobotsTxt } from 'robotskit';
import type { Diagnostic } from 'robotskit/lint';
import { ANALYSIS_THREAD_LIMITS, type ThreadLimits, threadFailure } from '../analysis/threads.js';
import { analyzeBody, type BodyAnalysis, storedAnalysis } from '../storage/rows.js';

/** The thread ends after this long without work (a new one starts for the next body). */
const IDLE_THREAD_MS = 2_000;

/** Bodies up to this size are linted on the calling thread. */
export const INLINE_LINT_BYTES = 64 * 1024;

/** The thread: lints each body it is sent with the engine at `workerData.engine`, answering by id. */
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.engine).then(({ lint }) => {
  parentPort.on('message', ({ id, body }) => {
    try {
      const diagnostics = lint(body).map((d) => ({ ...d, fix: d.fix ? { description: d.fix.description } : undefined }));
      parentPort.postMessage({ id, diagnostics });
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.message) || error) });
    }
  });
});
`;

type Analysis = BodyAnalysis;

/** The lint a caller waited for was cut short because its thread was closed (the service is stopping). */
export class LintThreadClosedError extends Error {
  constructor() {
    super('the lint thread was closed');
    this.name = 'LintThreadClosedError';
  }
}

interface Pending {
  resolve(value: Analysis): void;
  reject(error: Error): void;
}

/** A lint thread shared by the workers of a process. */
export class LintThread {
  #worker: Worker | null = null;
  #next = 1;
  /** Ends the thread when it stays idle (an idle thread never collects its garbage). */
  #idle: NodeJS.Timeout | null = null;
  readonly #pending = new Map<number, Pending>();

  /**
   * `limits`: the thread's V8 heap bounds (the analysis threads' by default: the lint of the largest body a fetch
   * keeps, 500 KiB with 50,000 findings, uses ~56 MB of heap); a lint past them fails alone ({@link AnalysisMemoryError}).
   */
  constructor(readonly limits: ThreadLimits = ANALYSIS_THREAD_LIMITS) {}

  #start(): Worker {
    const engine = pathToFileURL(createRequire(import.meta.url).resolve('robotskit/lint')).href;
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { engine }, resourceLimits: this.limits });
    worker.on('message', (message: { id: number; diagnostics?: Diagnostic[]; error?: string }) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(`lint failed: ${message.error}`));
      else pending.resolve(storedAnalysis(message.diagnostics ?? []));
      if (this.#pending.size === 0) this.#endWhenIdle(worker);
    });
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        pending.reject(threadFailure(error, 'the lint', this.limits));
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the lint thread exited (code ${code})`)));
    // Last: adding a 'message' listener refs the thread again, and a referenced thread keeps the process alive
    // after SIGTERM (the process waited for it forever once a body over 64 KiB had been linted).
    worker.unref();
    return worker;
  }

  #endWhenIdle(worker: Worker): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      this.#idle = null;
      if (this.#worker !== worker || this.#pending.size > 0) return;
      this.#worker = null;
      void worker.terminate();
    }, IDLE_THREAD_MS);
    this.#idle.unref();
  }

  /** Lints `body` in the thread. */
  analyze(body: Uint8Array): Promise<Analysis> {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    this.#worker ??= this.#start();
    const worker = this.#worker;
    const id = this.#next++;
    return new Promise<Analysis>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, body });
    });
  }

  /** Stops the thread, ending a lint in progress (its caller gets a {@link LintThreadClosedError}); a later call starts a new one. */
  async close(): Promise<void> {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
    const worker = this.#worker;
    this.#worker = null;
    for (const [id, pending] of this.#pending) {
      this.#pending.delete(id);
      pending.reject(new LintThreadClosedError());
    }
    await worker?.terminate();
  }
}

/**
 * Lints a fetched body as the worker stores it: large bodies in `thread`, small ones in place (from the file the
 * worker parsed anyway, so it is parsed once).
 */
export function analyzeFetchedBody(
  body: Uint8Array,
  thread: LintThread,
  parsed?: () => RobotsTxt,
): BodyAnalysis | Promise<BodyAnalysis> {
  if (body.length <= INLINE_LINT_BYTES) return analyzeBody(parsed ? parsed() : body);
  return thread.analyze(body);
}
