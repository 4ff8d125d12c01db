/**
 * The page's side of the engine worker. Every request is posted at once (the page already waits for a pause in
 * typing); the worker keeps only the newest waiting one. Answers arrive through one callback, tagged with the id of
 * the request they answer, so the page can drop stale ones.
 */

import type { AnalysisRequest, WorkerAnswer } from './protocol.js';

/** A request as the page writes it; the client numbers it. */
export type RequestInput = Omit<AnalysisRequest, 'id'>;

/** One engine worker for one page, with its answers delivered to one callback. */
export class EngineClient {
  private readonly worker: Worker;
  private nextId = 1;

  constructor(onAnswer: (answer: WorkerAnswer) => void) {
    this.worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
      type: 'module',
      name: 'robotskit-engine',
    });
    this.worker.onmessage = (event: MessageEvent<WorkerAnswer>) => onAnswer(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      onAnswer({ type: 'failure', id: this.nextId - 1, message: event.message || 'the engine worker failed to start' });
    };
  }

  /** Sends a request and returns its id. */
  request(input: RequestInput): number {
    const id = this.nextId++;
    this.worker.postMessage({ ...input, id } satisfies AnalysisRequest);
    return id;
  }

  dispose(): void {
    this.worker.terminate();
  }
}
