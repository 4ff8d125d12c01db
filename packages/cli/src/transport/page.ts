/**
 * Fetching one page for `audit`, over the CLI's one HTTP client and content decoder: its status, `Location`,
 * `Content-Type`, every `X-Robots-Tag` header line as sent (Node keeps repeated headers apart; `fetch`'s `Headers`
 * joins them with commas, which changes what a crawler name in one line applies to), every `Content-Usage` header line
 * as its bytes (draft-ietf-aipref-attach: the page's AI usage preferences), and the start of an HTML body,
 * where robots meta tags are. Redirects are reported, not followed: the URL audited is the one asked about.
 */

import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { isHtmlContentType } from 'robotskit';
import { describeFetchOutcome } from 'robotskit/fetch';
import { acceptEncoding, decodedBody } from './decode.js';
import { headerLines, openGet } from './http.js';

/**
 * At most this much HTML is read: Google's own limit ("Googlebot crawls the first 15 MB of an HTML file"), so a
 * robots meta tag late in a long page counts as it counts for Google (past 2 MiB, the first cap, it was missed and the
 * page said "indexable"), and what Google leaves out is left out here too.
 */
export const MAX_PAGE_BYTES = 15 * 1024 * 1024;

/** What the page answered. */
export interface FetchedPage {
  readonly status: number;
  readonly contentType: string | null;
  /** The `Location` of a redirect, absolute; null otherwise. */
  readonly location: string | null;
  /** Every `X-Robots-Tag` header line, in order. */
  readonly xRobotsTag: readonly string[];
  /** Every `Content-Usage` header line, in order, as the bytes received (Node reads header values one char per byte). */
  readonly contentUsage: readonly Uint8Array[];
  /** The HTML (at most {@link MAX_PAGE_BYTES}), for 2xx HTML responses; null otherwise. */
  readonly html: string | null;
  /** Whether the edge says the answer is a challenge (`cf-mitigated: challenge`), whatever its status. */
  readonly challenge: boolean;
}

/** A failed page fetch: one line for people. */
export class PageFetchError extends Error {}

/**
 * An SSRF guard's checks for a page GET (the report service's, under `serve`): `refusalOf` before connecting (an IP
 * literal is never resolved, so never passes `lookup`), and `lookup`, which checks every address a name resolves to,
 * for the connection itself (so a name cannot change its answer between the check and the connect).
 */
export interface PageGuard {
  readonly lookup: LookupFunction;
  readonly refusalOf: (url: string) => Promise<Error | null>;
}

/** Options of {@link fetchPage}. */
interface PageOptions {
  readonly timeoutMs: number;
  readonly userAgent: string;
  /** The guard's checks; none on the command line. */
  readonly guard?: PageGuard | undefined;
  /** Called with the size of each decoded body chunk (a work counter, for tests). */
  readonly onInflated?: (bytes: number) => void;
}

/** Beyond 2^31 - 1 ms a timer fires at once; that is over 24 days, so wait that long instead. */
const MAX_TIMER_MS = 2_147_483_647;

/** GETs a page once (no redirects followed), within `timeoutMs` for the whole exchange. */
export async function fetchPage(url: URL, options: PageOptions): Promise<FetchedPage> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), Math.min(options.timeoutMs, MAX_TIMER_MS));
  const late = () => new PageFetchError(`no complete response within ${options.timeoutMs / 1000} s`);
  try {
    const headers = {
      'user-agent': options.userAgent,
      accept: 'text/html,*/*;q=0.8',
      'accept-encoding': acceptEncoding(url.protocol === 'https:'),
    };
    let answer: IncomingMessage;
    try {
      const refused = options.guard === undefined ? null : await options.guard.refusalOf(url.href);
      if (refused !== null) throw new PageFetchError(refused.message);
      answer = (await openGet(url, headers, deadline.signal, options.guard?.lookup)).answer;
    } catch (error) {
      if (error instanceof PageFetchError) throw error;
      if (deadline.signal.aborted) throw late();
      throw new PageFetchError(wordsOf(error as NodeJS.ErrnoException));
    }
    const status = answer.statusCode ?? 0;
    const contentType = answer.headers['content-type'] ?? null;
    const page = {
      status,
      contentType,
      location: locationOf(answer, url),
      xRobotsTag: headerLines(answer, 'x-robots-tag'),
      contentUsage: headerLines(answer, 'content-usage').map((v) => Buffer.from(v, 'latin1')),
      challenge: headerLines(answer, 'cf-mitigated').some((v) => v.trim().toLowerCase() === 'challenge'),
    };
    if (status < 200 || status >= 300 || !isHtmlContentType(contentType)) {
      answer.destroy();
      return { ...page, html: null };
    }
    let body: Readable;
    try {
      body = decodedBody(answer, answer.headers['content-encoding'] ?? null);
    } catch (error) {
      answer.destroy();
      throw new PageFetchError(`broken body: ${(error as Error).message}`);
    }
    const html = await readCapped(body, deadline.signal, options.onInflated).catch((error: Error) => {
      throw deadline.signal.aborted ? late() : new PageFetchError(`broken body: ${error.message}`);
    });
    return { ...page, html };
  } finally {
    clearTimeout(timer);
  }
}

/** The engine's words for a runtime code (host not found, connection refused…), else the runtime's message. */
function wordsOf(error: NodeJS.ErrnoException): string {
  const words =
    error.code === undefined
      ? null
      : describeFetchOutcome({ status: null, error: { kind: 'unknown', code: error.code } });
  return words === null || words.summary === 'fetch failed' ? error.message : words.summary;
}

/** The `Location` of a redirect, made absolute; null for any other answer. */
function locationOf(answer: IncomingMessage, url: URL): string | null {
  const status = answer.statusCode ?? 0;
  const location = answer.headers.location;
  if (status < 300 || status >= 400 || location === undefined) return null;
  try {
    return new URL(location, url).href;
  } catch {
    return location;
  }
}

/**
 * The body as UTF-8 text, at most {@link MAX_PAGE_BYTES} of it. Past the cap nothing more is read: the decoding
 * chain is destroyed with the connection, so a gzip bomb costs the cap, not its inflated size.
 */
function readCapped(body: Readable, signal: AbortSignal, onInflated?: (bytes: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    // Whatever the body does once the time is up (Node may end it quietly), the wait ends there.
    const stop = () => {
      fail(new Error('aborted'));
      body.destroy();
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    const done = () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      onInflated?.(chunk.length);
      const room = MAX_PAGE_BYTES - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= MAX_PAGE_BYTES) {
        body.removeAllListeners('data');
        body.on('error', () => {});
        body.destroy();
        done();
      }
    });
    body.on('end', done);
    body.on('error', fail);
  });
}
