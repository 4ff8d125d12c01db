/// <reference lib="webworker" />
/**
 * The tester's engine in a Web Worker, so parsing and linting a large file never blocks typing. For each request it
 * answers the verdicts first (parse + explain: fast), then yields to read newer requests, then lints and finds the
 * dialect differences unless a request with other text is already waiting. The last text's analysis is kept, so
 * changing the URLs, crawlers or reading of a 500 KiB file does not parse or lint it again.
 */

import { CRAWLERS } from 'robotskit';
import { FileAnalysis, sameBytes, verdictsOf } from './analyze.js';
import type { AnalysisRequest, WorkerAnswer } from './protocol.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

let pending: AnalysisRequest | null = null;
let running = false;
let file: FileAnalysis | null = null;

function post(answer: WorkerAnswer): void {
  scope.postMessage(answer);
}

/** Lets queued messages in before the slow half. */
function yieldToMessages(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function run(): Promise<void> {
  running = true;
  while (pending !== null) {
    const request = pending;
    pending = null;
    try {
      const bytes = request.bytes ?? null;
      if (file?.text !== request.text || !sameBytes(file.bytes, bytes)) file = new FileAnalysis(request.text, bytes);
      const current = file;
      const started = performance.now();
      const verdicts = verdictsOf(current, request);
      post({
        type: 'verdicts',
        id: request.id,
        textSerial: current.serial,
        ...verdicts,
        bytes: current.google.size,
        groups: current.google.groups.length,
        parseMs: current.parseMs,
        ms: performance.now() - started,
      });
      if (!current.complete) {
        await yieldToMessages();
        const next = pending as AnalysisRequest | null;
        if (next !== null && (next.text !== request.text || !sameBytes(next.bytes ?? null, bytes))) continue;
      }
      const diagnostics = current.diagnostics;
      const differences = current.differences;
      post({ type: 'file', id: request.id, textSerial: current.serial, diagnostics, differences, ms: current.lintMs });
    } catch (error) {
      post({ type: 'failure', id: request.id, message: error instanceof Error ? error.message : String(error) });
    }
  }
  running = false;
}

post({ type: 'catalogue', names: CRAWLERS.map((crawler) => crawler.name) });

scope.onmessage = (event: MessageEvent<AnalysisRequest>) => {
  pending = event.data;
  if (!running) void run();
};
