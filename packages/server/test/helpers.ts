import { contentHash, type FetchRow } from '../src/storage/rows.js';
import type { FetchOutcome } from '../src/storage/schema.js';

const encoder = new TextEncoder();

/** A fetch row for tests: `fetched` with `body`, or another outcome. */
export function resultOf(
  outcome: FetchOutcome,
  options: { body?: string | Uint8Array; at?: number; status?: number; headers?: Record<string, string> } = {},
): FetchRow {
  const at = options.at ?? 1_000;
  const body =
    outcome === 'fetched'
      ? typeof options.body === 'string'
        ? encoder.encode(options.body)
        : (options.body ?? new Uint8Array())
      : null;
  return {
    outcome,
    startedAt: at,
    finishedAt: at + 5,
    httpStatus: options.status ?? (outcome === 'fetched' ? 200 : outcome === 'not-found' ? 404 : 503),
    body,
    bodyHash: body === null ? null : contentHash(body),
    headers: options.headers ?? { 'content-type': 'text/plain' },
    redirects: [],
    finalUrl: outcome === 'fetched' ? 'https://example.com/robots.txt' : null,
    error: outcome === 'error' ? { kind: 'http-status', message: 'HTTP 503' } : null,
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
