/** Fetch results made by hand for the crawl client's parts, and the parts a test needs around the one it tests. */

import type { RetrievalOutcome, RetrievalResult } from '../../../src/fetch/index.js';
import { NO_HEADERS } from '../../../src/fetch/shared/types.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const T0 = Date.UTC(2026, 0, 1);

/** A fetch of `origin`'s robots.txt at `at`: `rules` with `body`, or the outcome given (`disallow-all` is a 503). */
export function fetched(
  origin: string,
  at: number,
  body: string | null,
  outcome: RetrievalOutcome = body === null ? 'allow-all' : 'rules',
): RetrievalResult {
  const bytes = body === null ? null : new TextEncoder().encode(body);
  const status = outcome === 'rules' ? 200 : outcome === 'allow-all' ? 404 : 503;
  return {
    origin,
    robotsUrl: `${origin}/robots.txt`,
    finalUrl: `${origin}/robots.txt`,
    outcome,
    status,
    redirects: [],
    headers: NO_HEADERS,
    body: bytes,
    size: bytes?.length ?? 0,
    truncated: false,
    html: false,
    error: null,
    fetchedAt: at,
    timings: { headersMs: 1, totalMs: 1 },
  };
}

/** A clock the test sets. */
export function clockAt(start = T0) {
  const clock = {
    at: start,
    now: () => clock.at,
  };
  return clock;
}

/** A promise and its resolvers, for loads and fetches the test ends when it wants. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
