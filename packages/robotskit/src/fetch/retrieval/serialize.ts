/**
 * Retrieval results as JSON and back, and their body parsed on demand. A result is plain data except its body, a
 * `Uint8Array`; JSON carries that as base64. Stores that keep bytes natively (SQLite BLOB, PostgreSQL bytea, IndexedDB)
 * can store `body` as it is and skip this.
 */

import { type ParseOptions, parseRobotsTxt, type RobotsTxt } from '../../robots-txt/robots-txt.js';
import {
  RETRIEVAL_ERROR_KINDS,
  type RedirectHop,
  type RetrievalError,
  type RetrievalHeaders,
  type RetrievalResult,
} from '../shared/types.js';

/** A {@link RetrievalResult} as JSON-safe data: the body as base64 in `bodyBase64`. */
export type RetrievalJson = Omit<RetrievalResult, 'body'> & { readonly bodyBase64: string | null };

const parsed = new WeakMap<RetrievalResult, RobotsTxt>();

/**
 * The robots.txt a retrieval found, parsed on first call and remembered for the result (when no options are given):
 * null unless the outcome is `rules`. All kept bytes are parsed (they are already cut at the retrieval's `maxBytes`).
 * @example robotsTxtOf(await fetchRobotsTxt(url))?.isAllowed(url, 'MyBot')
 */
export function robotsTxtOf(result: RetrievalResult, options?: ParseOptions): RobotsTxt | null {
  if (result.outcome !== 'rules' || result.body === null) return null;
  if (options !== undefined) return parseRobotsTxt(result.body, { maxBytes: result.body.length, ...options });
  let robots = parsed.get(result);
  if (robots === undefined) {
    robots = parseRobotsTxt(result.body, { maxBytes: result.body.length });
    parsed.set(result, robots);
  }
  return robots;
}

function toBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The result as JSON-safe data (`JSON.stringify` it as it is). */
export function retrievalToJson(result: RetrievalResult): RetrievalJson {
  const { body, ...rest } = result;
  return { ...rest, bodyBase64: body === null ? null : toBase64(body) };
}

type Check = (value: unknown, path: string) => void;

function fail(path: string, what: string): never {
  throw new TypeError(`not a robots.txt retrieval: ${path} must be ${what}`);
}

const str: Check = (v, p) => {
  if (typeof v !== 'string') fail(p, 'a string');
};
const strOrNull: Check = (v, p) => {
  if (v !== null && typeof v !== 'string') fail(p, 'a string or null');
};
const num: Check = (v, p) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(p, 'a finite number');
};
const numOrNull: Check = (v, p) => {
  if (v !== null) num(v, p);
};
const bool: Check = (v, p) => {
  if (typeof v !== 'boolean') fail(p, 'a boolean');
};
function obj(v: unknown, p: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(p, 'an object');
  return v as Record<string, unknown>;
}

const HEADER_KEYS: readonly (keyof RetrievalHeaders)[] = [
  'cacheControl',
  'contentType',
  'retryAfter',
  'lastModified',
  'etag',
  'contentLength',
  'date',
];

/**
 * Reads back what {@link retrievalToJson} wrote (or the same data from any store), checking every field.
 * @throws TypeError naming the first field that is missing or of the wrong type.
 */
export function retrievalFromJson(json: unknown): RetrievalResult {
  const o = obj(json, 'result');
  str(o.origin, 'origin');
  str(o.robotsUrl, 'robotsUrl');
  str(o.finalUrl, 'finalUrl');
  if (o.outcome !== 'rules' && o.outcome !== 'allow-all' && o.outcome !== 'disallow-all') {
    fail('outcome', "'rules', 'allow-all' or 'disallow-all'");
  }
  numOrNull(o.status, 'status');
  if (!Array.isArray(o.redirects)) fail('redirects', 'an array');
  const redirects: RedirectHop[] = o.redirects.map((hop: unknown, i: number) => {
    const h = obj(hop, `redirects[${i}]`);
    str(h.url, `redirects[${i}].url`);
    numOrNull(h.status, `redirects[${i}].status`);
    strOrNull(h.location, `redirects[${i}].location`);
    return { url: h.url as string, status: h.status as number | null, location: h.location as string | null };
  });
  const hs = obj(o.headers, 'headers');
  const headers = {} as Record<keyof RetrievalHeaders, string | null>;
  for (const key of HEADER_KEYS) {
    const value = hs[key] ?? null;
    strOrNull(value, `headers.${key}`);
    headers[key] = value as string | null;
  }
  strOrNull(o.bodyBase64, 'bodyBase64');
  num(o.size, 'size');
  bool(o.truncated, 'truncated');
  bool(o.html, 'html');
  let error: RetrievalError | null = null;
  if (o.error !== null) {
    const e = obj(o.error, 'error');
    if (typeof e.kind !== 'string' || !(RETRIEVAL_ERROR_KINDS as readonly string[]).includes(e.kind)) {
      fail('error.kind', `one of ${RETRIEVAL_ERROR_KINDS.join(', ')}`);
    }
    str(e.message, 'error.message');
    if (e.phase !== 'request' && e.phase !== 'body') fail('error.phase', "'request' or 'body'");
    strOrNull(e.code ?? null, 'error.code');
    error = {
      kind: e.kind as RetrievalError['kind'],
      message: e.message as string,
      phase: e.phase,
      code: (e.code ?? null) as string | null,
    };
  }
  num(o.fetchedAt, 'fetchedAt');
  const timings = obj(o.timings, 'timings');
  numOrNull(timings.headersMs, 'timings.headersMs');
  num(timings.totalMs, 'timings.totalMs');
  let body: Uint8Array | null = null;
  if (typeof o.bodyBase64 === 'string') {
    try {
      body = fromBase64(o.bodyBase64);
    } catch {
      fail('bodyBase64', 'base64');
    }
  }
  return {
    origin: o.origin as string,
    robotsUrl: o.robotsUrl as string,
    finalUrl: o.finalUrl as string,
    outcome: o.outcome,
    status: o.status as number | null,
    redirects,
    headers,
    body,
    size: o.size as number,
    truncated: o.truncated as boolean,
    html: o.html as boolean,
    error,
    fetchedAt: o.fetchedAt as number,
    timings: { headersMs: timings.headersMs as number | null, totalMs: timings.totalMs as number },
  };
}
