/**
 * What the network commands (`check`, `batch`, `audit`, `lint <url>`) share: the crawler named by `--ua`, the
 * retrieval options of `--timeout`, and robots.txt fetch outcomes in words and as JSON. Retrieval itself is the
 * engine's (`fetchRobotsTxt`, `createRobotsClient`); nothing here talks to the network.
 */

import {
  describeFetchOutcome,
  type EffectivePolicy,
  type FetchLike,
  type FetchResponseLike,
  type RetrievalOptions,
  type RetrievalResult,
  RobotsUrlError,
  robotsTxtUrl,
} from 'robotskit';
import { fetch as undiciFetch } from 'undici';
import { CLI_HOME } from './about.js';
import { nodeFtp } from './ftp.js';
import { CliError } from './io.js';

/** The `User-Agent` robotskit sends for its own requests (robots.txt and pages). */
export function cliUserAgent(version: string): string {
  return `robotskit/${version} (robots.txt checker; +${CLI_HOME})`;
}

/**
 * The `fetch` the network commands give the engine: undici's. Node 20's built-in `fetch` is an older undici whose
 * global dispatcher keeps a connection pool (about 20 KB) for every origin ever contacted, so a `batch` over many
 * sites would grow by that much per site for the whole run; undici 7 drops a pool once its connections are closed.
 */
export const robotsFetch: FetchLike = (url, init) => undiciFetch(url, init) as unknown as Promise<FetchResponseLike>;

export { type ResolvedCrawler, resolveCrawler, sayRewrites } from './crawler.js';

/** Reads `--timeout <seconds>` into milliseconds. */
export function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError(`--timeout must be a positive number of seconds, not '${text}'`);
  return Math.max(1, Math.round(seconds * 1000));
}

/** Reads a positive integer option. */
export function parsePositive(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} must be a positive integer, not '${text}'`);
  return n;
}

/**
 * Retrieval options for one `--timeout`: it bounds the whole exchange, and each wait within it. Each robots.txt is
 * fetched once per run, so its connection is closed rather than kept alive: over thousands of sites, idle kept-alive
 * sockets would pile up (one per site for seconds each) and run into the open-file limit.
 */
export function retrievalOptions(
  timeoutMs: number,
  version: string,
): Omit<RetrievalOptions, 'fetch' | 'clock' | 'signal'> {
  return {
    userAgent: cliUserAgent(version),
    headers: { connection: 'close' },
    timeouts: { headers: timeoutMs, idle: timeoutMs, total: timeoutMs },
    ftp: nodeFtp,
  };
}

/** Checks a URL argument before anything is fetched: absolute, with a robots.txt (http, https, ftp). */
export function checkUrlArgument(text: string): void {
  try {
    robotsTxtUrl(text);
  } catch (error) {
    if (!(error instanceof RobotsUrlError)) throw error;
    if (error.code === 'unsupported-scheme') throw new CliError(`invalid URL '${text}': ${error.message}`);
    // Suggest a scheme only for what could be a host name (`example.com/x`), not for any text (`not a url`).
    const bare = text.trim();
    const hint = /^[a-z][a-z0-9+.-]*:/i.test(bare)
      ? ''
      : /\s/.test(bare)
        ? ': not a URL (one starts with https:// or http://)'
        : `: it has no scheme (did you mean 'https://${bare}'?)`;
    throw new CliError(`invalid URL '${text}'${hint}`);
  }
}

/**
 * True when the robots.txt could not be fetched: no HTTP answer at all (DNS, connection, TLS, timeout), or an answer
 * that broke off in its body (a reset, a stall, broken chunking). Not an HTTP status such as 503: that is an answer.
 */
export function isNetworkFailure(result: RetrievalResult): boolean {
  return result.outcome === 'disallow-all' && result.error !== null && result.error.kind !== 'aborted';
}

/**
 * Why a retrieval found no usable file, in one line; null for a 2xx with a body. The words are the engine's catalogue
 * ({@link describeFetchOutcome}), as the report service and its web UI show them.
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

/** A retrieval as {@link FetchJson}. */
export function fetchJson(result: RetrievalResult): FetchJson {
  return {
    url: result.robotsUrl,
    finalUrl: result.finalUrl,
    status: result.status,
    outcome: result.outcome,
    error: result.error === null ? null : { kind: result.error.kind, message: result.error.message },
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
