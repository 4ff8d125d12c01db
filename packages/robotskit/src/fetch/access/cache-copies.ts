/**
 * Whether the robots.txt a User-Agent was served is a cache's copy older than the origin's, for the access check
 * (`access.ts`: `robotskit audit --as`, the service's access route): HTTP caching evidence, not robots.txt semantics (what a file says stays the engine's).
 *
 * Each robots.txt is fetched twice with the same `User-Agent`: as a crawler asks for it, then with
 * `Cache-Control: no-cache` (and `Pragma: no-cache` for HTTP/1.0 caches), which asks every cache on the way to check
 * its copy with the origin before answering (RFC 9111 §5.2.1.4). The same URL, `/robots.txt`, on purpose: a
 * cache-busting query (`/robots.txt?v=…`) is another URL, which no crawler fetches (Google reads `/robots.txt` and
 * nothing else), which a CDN keys apart and an origin may answer otherwise (a 404, another rewrite), so it would
 * compare the crawler's file with a file nobody is served. A cache that ignores the request's `no-cache` answers it
 * from storage again; that is said (`cached-too`), never read as the origin's copy.
 *
 * What a response says about the cache that served it: `Age` (RFC 9111 §5.1: seconds since the origin produced or
 * confirmed it; only caches send it), `Cache-Status` (RFC 9211: a list of caches, a `hit` parameter on the one that
 * answered from storage), and the de facto `X-Cache`, `X-Cache-Status` (`HIT`, `TCP_HIT`, `Hit from cloudfront`,
 * `STALE`, `MISS, HIT` through two layers) and `CF-Cache-Status` (`HIT`, `STALE`, `UPDATING`); `Last-Modified`,
 * `ETag` and `Cache-Control` are kept as they came. The served copy is called stale only on evidence: its answer
 * (status or bytes) differs from the no-cache one, it is marked as a cache's copy (a hit, or `Age` above 0), and it
 * is older: a larger `Age` than the no-cache copy's (older by their difference: both were read within the same run),
 * else an earlier `Last-Modified` (older by the difference of the two dates). Anything less, or evidence pointing
 * the other way, is `unproven`: the copies differ and nothing says which is older.
 */

import type { AnyFetchLike, RetrievalResult } from '../shared/types.js';
import { parseHttpDate } from '../transport/http-headers.js';

/** Sent with the fetch that asks for the origin's copy of `/robots.txt` (the same URL). */
export const FRESH_REQUEST_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-cache',
  pragma: 'no-cache',
};

/** A response's headers, read by name (lower case). */
export interface HeaderSource {
  get(name: string): string | null;
}

/** What one response's headers say about the cache that served it. */
export interface CacheEvidence {
  /** `Age`, in seconds; null when absent or not a number. */
  readonly age: number | null;
  /** Whether a cache's status header says the answer came from its storage. */
  readonly hit: boolean;
  /** The headers that say it is a cache's copy, as sent (`Age: 3600`, `X-Cache: HIT`). */
  readonly marks: readonly string[];
  readonly lastModified: string | null;
  readonly etag: string | null;
  readonly cacheControl: string | null;
}

/** No response, so no evidence. */
const NO_CACHE_EVIDENCE: CacheEvidence = {
  age: null,
  hit: false,
  marks: [],
  lastModified: null,
  etag: null,
  cacheControl: null,
};

/** Cache status headers other than `Cache-Status`, with how they are spelled in a mark. */
const STATUS_HEADERS: readonly (readonly [string, string])[] = [
  ['x-cache', 'X-Cache'],
  ['x-cache-status', 'X-Cache-Status'],
  ['cf-cache-status', 'CF-Cache-Status'],
];

/** Longest header value quoted in a mark. */
const MARK_CHARS = 120;

/** `Age`: delta-seconds (digits only; the first of repeated values). */
function ageOf(value: string | null): number | null {
  const first = value?.split(',')[0]?.trim();
  if (first === undefined || !/^\d{1,15}$/.test(first)) return null;
  return Number(first);
}

/** Splits a header value at commas outside quoted strings. */
function members(value: string): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map((m) => m.trim()).filter((m) => m !== '');
}

/** RFC 9211 `Cache-Status`: whether one of the listed caches answered from storage (`hit`, or `hit=?1`). */
function cacheStatusHit(value: string): boolean {
  return members(value).some((member) =>
    member
      .split(';')
      .slice(1)
      .some((param) => /^hit(=\?1)?$/i.test(param.trim())),
  );
}

/** `X-Cache`-like values: a layer that says HIT, STALE or UPDATING as a word (not REFRESH_HIT, RefreshHit, MISS). */
function statusWordHit(value: string): boolean {
  return members(value).some(
    (layer) => !/refresh|miss/i.test(layer) && /(^|[^a-z])(hit|stale|updating)([^a-z]|$)/i.test(layer),
  );
}

const clip = (value: string) => (value.length > MARK_CHARS ? `${value.slice(0, MARK_CHARS)}…` : value);

/** What a response's headers say about caching; {@link NO_CACHE_EVIDENCE} without a response. */
export function cacheEvidence(headers: HeaderSource | null): CacheEvidence {
  if (headers === null) return NO_CACHE_EVIDENCE;
  const marks: string[] = [];
  const age = ageOf(headers.get('age'));
  if (age !== null && age > 0) marks.push(`Age: ${age}`);
  let hit = false;
  const cacheStatus = headers.get('cache-status');
  if (cacheStatus !== null && cacheStatusHit(cacheStatus)) {
    hit = true;
    marks.push(`Cache-Status: ${clip(cacheStatus)}`);
  }
  for (const [name, spelled] of STATUS_HEADERS) {
    const value = headers.get(name);
    if (value !== null && statusWordHit(value)) {
      hit = true;
      marks.push(`${spelled}: ${clip(value)}`);
    }
  }
  return {
    age,
    hit,
    marks,
    lastModified: headers.get('last-modified'),
    etag: headers.get('etag'),
    cacheControl: headers.get('cache-control'),
  };
}

/** One fetch of robots.txt with what its response said about caching. */
export interface RobotsCopy {
  readonly result: RetrievalResult;
  readonly cache: CacheEvidence;
}

/**
 * How the served copy compares with the no-cache one: `current` (the same answer, not from a cache), `stale` (an
 * older cache's copy, by the evidence above), `unproven` (another answer, and nothing says which is older),
 * `cached-too` (the same answer, but the no-cache request was answered from a cache as well: the origin's copy was
 * not seen), `unchecked` (the no-cache fetch got no answer).
 */
export type FreshnessState = 'current' | 'stale' | 'unproven' | 'cached-too' | 'unchecked';

/** The comparison, as the access report says it (`audit --as --json`, the service's access route). */
export interface Freshness {
  readonly state: FreshnessState;
  /** How much older the served copy is (whole seconds), when `stale`; else null. */
  readonly olderBySeconds: number | null;
  /** What `olderBySeconds` rests on: the two `Age`s, or the two `Last-Modified` dates. */
  readonly basis: 'age' | 'last-modified' | null;
}

/** Whether two fetches got the same answer: the same status and the same bytes. */
export function sameAnswer(a: RetrievalResult, b: RetrievalResult): boolean {
  if (a.status !== b.status) return false;
  const x = a.body;
  const y = b.body;
  if (x === null || y === null) return x === y;
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

const isCachedCopy = (cache: CacheEvidence) => cache.hit || (cache.age ?? 0) > 0;

/** Compares the copy a User-Agent was served with the one fetched for it with `Cache-Control: no-cache`. */
export function compareCopies(served: RobotsCopy, fresh: RobotsCopy): Freshness {
  const none = { olderBySeconds: null, basis: null } as const;
  if (fresh.result.status === null) return { state: 'unchecked', ...none };
  if (sameAnswer(served.result, fresh.result))
    return { state: isCachedCopy(fresh.cache) ? 'cached-too' : 'current', ...none };
  const servedMs = served.cache.lastModified === null ? null : parseHttpDate(served.cache.lastModified);
  const freshMs = fresh.cache.lastModified === null ? null : parseHttpDate(fresh.cache.lastModified);
  const modifiedLater = servedMs !== null && freshMs !== null && servedMs > freshMs;
  if (!isCachedCopy(served.cache) || modifiedLater) return { state: 'unproven', ...none };
  const servedAge = served.cache.age ?? 0;
  const freshAge = fresh.cache.age ?? 0;
  if (servedAge > freshAge) return { state: 'stale', olderBySeconds: servedAge - freshAge, basis: 'age' };
  if (servedMs !== null && freshMs !== null && servedMs < freshMs)
    return { state: 'stale', olderBySeconds: Math.round((freshMs - servedMs) / 1000), basis: 'last-modified' };
  return { state: 'unproven', ...none };
}

/** Records the headers of the last response an injected `fetch` got (the last redirect hop's, as the engine reads it). */
export function recordingHeaders(fetch: AnyFetchLike): {
  readonly fetch: AnyFetchLike;
  readonly last: () => HeaderSource | null;
} {
  let last: HeaderSource | null = null;
  const recording: AnyFetchLike = async (url, init) => {
    const response = await fetch(url, init);
    last = response.headers;
    return response;
  };
  return { fetch: recording, last: () => last };
}
