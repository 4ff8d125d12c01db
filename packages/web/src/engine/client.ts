/**
 * The page's side of the engine, in two Web Workers: one answers the verdicts (parse + explain: fast), the other lints
 * and finds the dialect differences (seconds on a hostile 500 KiB file). Every request goes to the verdicts worker at
 * once, and to the lint worker once requests pause for {@link LINT_PAUSE_MS} (typing in a large file posts its text
 * once per pause, not per key); the lint worker, when a request with other text arrives while it is still linting,
 * is terminated and started again, so a lint in progress never holds up the verdicts or the next lint (a lint cannot
 * be interrupted any other way). Answers arrive
 * through one callback, tagged with the id of the request they answer and the number of its text, so the page can
 * drop stale ones.
 */

import type { AnalysisRequest, WorkerAnswer } from './protocol.js';

/** Pause in requests before the newest goes to the lint worker, in milliseconds (the page waits 60 ms already). */
const LINT_PAUSE_MS = 250;

/** A request as the page writes it; the client numbers it and its text. */
export type RequestInput = Omit<AnalysisRequest, 'id' | 'textId'>;

/** What each of the two workers does (the worker reads it from its name). */
export type EngineRole = 'verdicts' | 'lint';

function startWorker(role: EngineRole): Worker {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: `robotskit-${role}` });
}

/** The engine's two workers for one page, with their answers delivered to one callback. */
export class EngineClient {
  private readonly verdicts: Worker;
  private lint: Worker;
  private nextId = 1;
  private textId = 0;
  private lastText: string | null = null;
  private lastBytes: Uint8Array | null = null;
  /** The id of the newest request the lint worker has not answered yet, or 0 when it is idle. */
  private linting = 0;
  /** The text number the lint worker was last sent. */
  private lintTextId = 0;
  private lintTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly onAnswer: (answer: WorkerAnswer) => void) {
    this.verdicts = this.wire(startWorker('verdicts'));
    this.lint = this.startLint();
  }

  private wire(worker: Worker): Worker {
    worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      const answer = event.data;
      if (worker === this.lint && answer.type !== 'catalogue' && answer.id === this.linting) this.linting = 0;
      this.onAnswer(answer);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      this.onAnswer({
        type: 'failure',
        id: this.nextId - 1,
        message: event.message || 'the engine worker failed to start',
      });
    };
    return worker;
  }

  private startLint(): Worker {
    return this.wire(startWorker('lint'));
  }

  /** Sends a request to the verdicts worker now and to the lint worker after a pause; returns its id. */
  request(input: RequestInput): number {
    const id = this.nextId++;
    const bytes = input.bytes ?? null;
    if (input.text !== this.lastText || bytes !== this.lastBytes) {
      this.textId++;
      this.lastText = input.text;
      this.lastBytes = bytes;
      // A lint of an older text is still running: it is of no use any more, and would delay the next one.
      if (this.linting !== 0) this.restartLint();
    }
    const request = { ...input, id, textId: this.textId } satisfies AnalysisRequest;
    this.verdicts.postMessage(request);
    clearTimeout(this.lintTimer);
    this.lintTimer = setTimeout(() => {
      if (this.linting !== 0 && this.lintTextId !== request.textId) this.restartLint();
      this.lint.postMessage(request);
      this.linting = id;
      this.lintTextId = request.textId;
    }, LINT_PAUSE_MS);
    return id;
  }

  private restartLint(): void {
    this.lint.terminate();
    this.lint = this.startLint();
    this.linting = 0;
    this.lintTextId = 0;
  }

  dispose(): void {
    clearTimeout(this.lintTimer);
    this.verdicts.terminate();
    this.lint.terminate();
  }
}
