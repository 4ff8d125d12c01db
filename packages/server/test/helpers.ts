import type { RetrievalOutcome } from 'robotskit/fetch';
import { contentHash, type FetchRecord } from '../src/storage/rows.js';

const encoder = new TextEncoder();

/** A fetch row for tests: `rules` with `body` (HTTP 200), or another outcome (404, 503 by default). */
export function resultOf(
  outcome: RetrievalOutcome,
  options: { body?: string | Uint8Array; at?: number; status?: number; headers?: Record<string, string> } = {},
): FetchRecord {
  const at = options.at ?? 1_000;
  const body =
    outcome === 'rules'
      ? typeof options.body === 'string'
        ? encoder.encode(options.body)
        : (options.body ?? new Uint8Array())
      : null;
  return {
    outcome,
    startedAt: at,
    finishedAt: at + 5,
    httpStatus: options.status ?? (outcome === 'rules' ? 200 : outcome === 'allow-all' ? 404 : 503),
    body,
    bodyHash: body === null ? null : contentHash(body),
    headers: options.headers ?? { 'content-type': 'text/plain' },
    redirects: [],
    finalUrl: outcome === 'rules' ? 'https://example.com/robots.txt' : null,
    // An HTTP status is no error in the engine's words: a 503 is `disallow-all` with its status.
    error: null,
    timings: { total: 5 },
  };
}

/** A clock tests move by hand. */
export class ManualClock {
  constructor(public time = 1_000_000) {}
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}
