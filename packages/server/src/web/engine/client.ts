/**
 * The page's side of the engine worker: at most one request in flight and one waiting (the newest), so typing fast
 * never queues stale work; answers arrive through one callback.
 */

import type { AnalysisRequest, WorkerAnswer } from './protocol.js';

export type RequestInput = Omit<AnalysisRequest, 'id'>;

export class EngineClient {
  private readonly worker: Worker;
  private nextId = 1;
  private busy = false;
  private waiting: AnalysisRequest | null = null;

  constructor(private readonly onAnswer: (answer: WorkerAnswer) => void) {
    this.worker = new Worker(new URL('./engine.worker.ts', import.meta.url), {
      type: 'module',
      name: 'robotskit-engine',
    });
    this.worker.onmessage = (event: MessageEvent<WorkerAnswer>) => {
      this.busy = false;
      this.onAnswer(event.data);
      this.pump();
    };
    this.worker.onerror = (event) => {
      this.busy = false;
      event.preventDefault();
      this.onAnswer({ type: 'failure', id: this.nextId - 1, message: event.message || 'the engine worker failed' });
      this.pump();
    };
  }

  /** Queues a request (replacing any still waiting) and returns its id. */
  request(input: RequestInput): number {
    const id = this.nextId++;
    this.waiting = { ...input, id };
    this.pump();
    return id;
  }

  private pump(): void {
    if (this.busy || this.waiting === null) return;
    this.busy = true;
    this.worker.postMessage(this.waiting);
    this.waiting = null;
  }

  dispose(): void {
    this.worker.terminate();
  }
}
