/**
 * Linting large fetched bodies off the event loop. The engine's lint is linear, but a hostile 500 KiB file still
 * costs it a second or more (tens of thousands of findings), and the workers of `serve` share the API's event loop:
 * bodies above {@link INLINE_LINT_BYTES} are linted in a worker thread, so the API keeps answering meanwhile.
 * Smaller bodies are linted in place (a thread round trip would cost more than the lint). The thread runs the same
 * engine build the service imports, is started on first use, does not keep the process alive, and is started
 * again if it dies.
 */

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RobotsTxt } from 'robotskit';
import type { Diagnostic } from 'robotskit/lint';
import { analyzeBody, type BodyAnalysis, storedAnalysis } from '../storage/rows.js';

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

interface Pending {
  resolve(value: Analysis): void;
  reject(error: Error): void;
}

/** A lint thread shared by the workers of a process. */
export class LintThread {
  #worker: Worker | null = null;
  #next = 1;
  readonly #pending = new Map<number, Pending>();

  #start(): Worker {
    const engine = pathToFileURL(createRequire(import.meta.url).resolve('robotskit/lint')).href;
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { engine } });
    worker.unref();
    worker.on('message', (message: { id: number; diagnostics?: Diagnostic[]; error?: string }) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.error !== undefined) pending.reject(new Error(`lint failed: ${message.error}`));
      else pending.resolve(storedAnalysis(message.diagnostics ?? []));
    });
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        pending.reject(error);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the lint thread exited (code ${code})`)));
    return worker;
  }

  /** Lints `body` in the thread. */
  analyze(body: Uint8Array): Promise<Analysis> {
    this.#worker ??= this.#start();
    const worker = this.#worker;
    const id = this.#next++;
    return new Promise<Analysis>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.postMessage({ id, body });
    });
  }

  /** Stops the thread (a later call starts a new one). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }
}

let shared: LintThread | null = null;

/**
 * Lints a fetched body as the worker stores it: large bodies in the process's lint thread, small ones in place (from
 * the file the worker parsed anyway, so it is parsed once).
 */
export function analyzeFetchedBody(body: Uint8Array, parsed?: () => RobotsTxt): BodyAnalysis | Promise<BodyAnalysis> {
  if (body.length <= INLINE_LINT_BYTES) return analyzeBody(parsed ? parsed() : body);
  shared ??= new LintThread();
  return shared.analyze(body);
}
