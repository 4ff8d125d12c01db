/**
 * A walk's options, checked and completed with the protocol's limits and the walk's defaults, once, before anything
 * is read (bad options throw at `readSitemaps`, not at the first `next()`).
 */

import { type FetchLike, resolveFetch } from 'robotskit/fetch';
import type { SitemapOptions, SitemapScope } from './types.js';
import { httpOrigin } from './validate.js';

/** The User-Agent sent when the caller names none. */
export const DEFAULT_SITEMAP_USER_AGENT = 'robotskit-sitemaps/0.1 (sitemap reader)';

/** The protocol's limits and the walk's defaults. */
export const SITEMAP_LIMITS = {
  /** 50 MB (52,428,800 bytes) uncompressed per file. */
  maxBytesPerFile: 52_428_800,
  /** 50,000 URLs per file (and 50,000 sitemaps per index). */
  maxUrlsPerFile: 50_000,
  maxDepth: 3,
  maxSitemaps: 1000,
  maxRedirects: 5,
  maxDiagnosticsPerFile: 100,
  timeouts: { headers: 10_000, idle: 15_000, total: 120_000 },
} as const;

/** A walk's options, complete. */
export interface Config {
  readonly fetch: FetchLike;
  readonly headers: Record<string, string>;
  readonly headersMs: number;
  readonly idleMs: number;
  readonly totalMs: number;
  readonly maxRedirects: number;
  readonly maxBytesPerFile: number;
  readonly maxUrlsPerFile: number;
  readonly maxDepth: number;
  readonly maxSitemaps: number;
  readonly maxUrls: number;
  readonly scope: SitemapScope;
  readonly allowed: ReadonlySet<string>;
  readonly maxDiagnostics: number;
  readonly signal: AbortSignal | undefined;
}

function count(value: number | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value < min ||
    (!Number.isInteger(value) && value !== Infinity)
  ) {
    throw new RangeError(`${name} must be an integer of at least ${min}`);
  }
  return value;
}

function ms(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a positive number of milliseconds`);
  }
  return value;
}

/** The walk's configuration. @throws RangeError or TypeError for a bad option. */
export function configure(options: SitemapOptions): Config {
  const userAgent = options.userAgent ?? DEFAULT_SITEMAP_USER_AGENT;
  if (typeof userAgent !== 'string') throw new TypeError('userAgent must be a string');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.toLowerCase() !== 'user-agent') headers[name] = value;
  }
  headers['user-agent'] = userAgent;
  const scope = options.scope ?? 'protocol';
  if (scope !== 'protocol' && scope !== 'origin' && scope !== 'none') {
    throw new RangeError(`scope must be 'protocol', 'origin' or 'none', not ${JSON.stringify(scope)}`);
  }
  const allowed = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const o = httpOrigin(origin);
    if (o === null) throw new RangeError(`allowedOrigins: not an http(s) URL: ${JSON.stringify(origin)}`);
    allowed.add(o);
  }
  const t = options.timeouts ?? {};
  const L = SITEMAP_LIMITS;
  return {
    fetch: resolveFetch(options.fetch),
    headers,
    headersMs: ms(t.headers, L.timeouts.headers, 'timeouts.headers'),
    idleMs: ms(t.idle, L.timeouts.idle, 'timeouts.idle'),
    totalMs: ms(t.total, L.timeouts.total, 'timeouts.total'),
    maxRedirects: count(options.maxRedirects, L.maxRedirects, 'maxRedirects'),
    maxBytesPerFile: count(options.maxBytesPerFile, L.maxBytesPerFile, 'maxBytesPerFile', 1),
    maxUrlsPerFile: count(options.maxUrlsPerFile, L.maxUrlsPerFile, 'maxUrlsPerFile', 1),
    maxDepth: count(options.maxDepth, L.maxDepth, 'maxDepth'),
    maxSitemaps: count(options.maxSitemaps, L.maxSitemaps, 'maxSitemaps', 1),
    maxUrls: count(options.maxUrls, Infinity, 'maxUrls'),
    scope,
    allowed,
    maxDiagnostics: count(options.maxDiagnosticsPerFile, L.maxDiagnosticsPerFile, 'maxDiagnosticsPerFile'),
    signal: options.signal,
  };
}
