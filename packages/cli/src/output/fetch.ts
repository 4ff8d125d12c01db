/**
 * A robots.txt retrieval as the network commands show it: why it found no usable file, in the engine's words
 * (`describeFetchOutcome`, as the report service and its web UI word it), whether it was a network failure, and the
 * retrieval and its policy as JSON.
 */

import { describeFetchOutcome, type EffectivePolicy, type RetrievalResult } from 'robotskit/fetch';

/**
 * True when the robots.txt could not be fetched: no HTTP answer at all (DNS, connection, TLS, timeout), or an answer
 * that broke off in its body (a reset, a stall, broken chunking). Not an HTTP status such as 503: that is an answer.
 */
export function isNetworkFailure(result: RetrievalResult): boolean {
  return result.outcome === 'disallow-all' && result.error !== null && result.error.kind !== 'aborted';
}

/**
 * Why a retrieval found no usable file, in one line; null for a 2xx with a body. The words are the engine's catalogue
 * ({@link describeFetchOutcome}).
 */
export function describeFetch(result: RetrievalResult, timeoutMs?: number): string | null {
  if (result.error === null && result.outcome === 'rules') return null;
  // The fetch standard's blocked ports (X11's 6000, SMTP's 25…): the fetch refuses them before connecting.
  if (result.error !== null && /\bbad port$/.test(result.error.message)) {
    const port = new URL(result.finalUrl).port;
    return `port ${port} is one the fetch standard blocks, so robotskit's fetch refuses it`;
  }
  const words = describeFetchOutcome(result, timeoutMs === undefined ? {} : { timeoutMs });
  // Callers say what a network failure means themselves ("until it can be, … disallowed").
  return isNetworkFailure(result) ? words.summary : `${words.summary} (${words.effect})`;
}

/** A retrieval as JSON: what was fetched, what came back, what it means. */
export interface FetchJson {
  readonly url: string;
  readonly finalUrl: string;
  readonly status: number | null;
  /** `rules`, `allow-all` or `disallow-all`. */
  readonly outcome: RetrievalResult['outcome'];
  readonly error: { readonly kind: string; readonly message: string } | null;
  readonly redirects: number;
  readonly bytes: number;
  readonly truncated: boolean;
  readonly html: boolean;
  readonly ms: number;
}

/**
 * Why a fetch failed, as JSON: its kind (`network`, `timeout`, `tls`…) and the engine's words for it (`connection
 * refused`, `no response within 10 s`), never the runtime's raw text (`fetch failed: connect ECONNREFUSED …`).
 */
export function fetchErrorJson(
  result: RetrievalResult,
  timeoutMs?: number,
): { readonly kind: string; readonly message: string } | null {
  if (result.error === null) return null;
  const words = describeFetchOutcome(result, timeoutMs === undefined ? {} : { timeoutMs }).summary;
  return { kind: result.error.kind, message: words };
}

/** A retrieval as {@link FetchJson}. */
export function fetchJson(result: RetrievalResult, timeoutMs?: number): FetchJson {
  return {
    url: result.robotsUrl,
    finalUrl: result.finalUrl,
    status: result.status,
    outcome: result.outcome,
    error: fetchErrorJson(result, timeoutMs),
    redirects: result.redirects.length,
    bytes: result.size,
    truncated: result.truncated,
    html: result.html,
    ms: result.timings.totalMs,
  };
}

/** The effective policy as JSON. */
export function policyJson(policy: EffectivePolicy<RetrievalResult>): {
  mode: string;
  reason: string;
  message: string;
} {
  return { mode: policy.mode, reason: policy.reason, message: policy.message };
}
