/// <reference lib="webworker" />
/**
 * The tester's engine in a Web Worker, so parsing and linting a large file never blocks typing. It answers each
 * request in order; the page drops answers older than its newest request.
 */

import { analyze } from './analyze.js';
import type { AnalysisRequest, WorkerAnswer } from './protocol.js';

const scope = self as unknown as DedicatedWorkerGlobalScope;

scope.onmessage = (event: MessageEvent<AnalysisRequest>) => {
  const request = event.data;
  let answer: WorkerAnswer;
  try {
    answer = { type: 'result', result: analyze(request) };
  } catch (error) {
    answer = { type: 'failure', id: request.id, message: error instanceof Error ? error.message : String(error) };
  }
  scope.postMessage(answer);
};
