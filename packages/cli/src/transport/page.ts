/**
 * Fetching one page for `audit`, over the CLI's one HTTP client and content decoder: its status, `Location`,
 * `Content-Type`, every `X-Robots-Tag` header line as sent (Node keeps repeated headers apart; `fetch`'s `Headers`
 * joins them with commas, which changes what a crawler name in one line applies to), and the start of an HTML body,
 * where robots meta tags are. Redirects are reported, not followed: the URL audited is the one asked about.
 */

import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { isHtmlContentType } from 'robotskit';
import { describeFetchOutcome } from 'robotskit/fetch';
import { acceptEncoding, decodedBody } from './decode.js';
import { headerLines, openGet } from './http.js';

/** At most this much HTML is read: robots meta tags belong in the head. */
export const MAX_PAGE_BYTES = 2 * 1024 * 1024;

/** What the page answered. */
export interface FetchedPage {
  readonly status: number;
  readonly contentType: string | null;
  /** The `Location` of a redirect, absolute; null otherwise. */
  readonly location: string | null;
  /** Every `X-Robots-Tag` header line, in order. */
  readonly xRobotsTag: readonly string[];
  /** The HTML (at most {@link MAX_PAGE_BYTES}), for 2xx HTML responses; null otherwise. */
  readonly html: string | null;
}

/** A failed page fetch: one line for people. */
export class PageFetchError extends Error {}

/** Options of {@link fetchPage}. */
interface PageOptions {
  readonly timeoutMs: number;
  readonly userAgent: string;
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
      answer = (await openGet(url, headers, deadline.signal)).answer;
    } catch (error) {
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
