/// <reference lib="webworker" />
/**
 * The tester's engine in a Web Worker, so parsing and linting a large file never blocks typing. The page runs two
 * (`client.ts`), told apart by their name: `robotskit-verdicts` answers each request's verdicts (parse + explain:
 * fast); `robotskit-lint` lints and finds the dialect differences, and is terminated by the page when newer text
 * arrives while it works. Each keeps its last text's analysis, so changing the URLs, crawlers or reading of a
 * 500 KiB file does not parse or lint it again.
 */

import { CRAWLERS } from 'robotskit';
import { FileAnalysis, sameBytes, verdictsOf } from './analyze.js';
import type { AnalysisRequest, WorkerAnswer } from './protocol.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

const role = scope.name.endsWith('-lint') ? 'lint' : 'verdicts';
let pending: AnalysisRequest | null = null;
let running = false;
let file: FileAnalysis | null = null;

function post(answer: WorkerAnswer): void {
  scope.postMessage(answer);
}

function run(): void {
  running = true;
  while (pending !== null) {
    const request = pending;
    pending = null;
    try {
      const bytes = request.bytes ?? null;
      if (file?.text !== request.text || !sameBytes(file.bytes, bytes)) file = new FileAnalysis(request.text, bytes);
      const current = file;
      if (role === 'verdicts') {
        const started = performance.now();
        const verdicts = verdictsOf(current, request);
        post({
          type: 'verdicts',
          id: request.id,
          textSerial: request.textId,
          ...verdicts,
          bytes: current.google.size,
          groups: current.google.groups.length,
          parseMs: current.parseMs,
          ms: performance.now() - started,
        });
      } else {
        const diagnostics = current.diagnostics;
        const differences = current.differences;
        post({
          type: 'file',
          id: request.id,
          textSerial: request.textId,
          diagnostics,
          differences,
          ms: current.lintMs,
        });
      }
    } catch (error) {
      post({ type: 'failure', id: request.id, message: error instanceof Error ? error.message : String(error) });
    }
  }
  running = false;
}

if (role === 'verdicts') post({ type: 'catalogue', names: CRAWLERS.map((crawler) => crawler.name) });

scope.onmessage = (event: MessageEvent<AnalysisRequest>) => {
  pending = event.data;
  if (!running) run();
};
