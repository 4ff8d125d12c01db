/**
 * Fetching one page for `audit`: its status, `Location`, `Content-Type`, every `X-Robots-Tag` header line as sent
 * (Node's `http` keeps repeated headers apart; `fetch`'s `Headers` joins them with commas, which changes what a
 * crawler name in one line applies to), and the start of an HTML body, where robots meta tags are. Redirects are
 * reported, not followed: the URL audited is the one asked about.
 */

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isHtmlContentType } from 'robotskit';
import { describeFetchOutcome } from 'robotskit/fetch';

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

function decoded(res: IncomingMessage): Readable {
  switch ((res.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return res.pipe(createGunzip());
    case 'deflate':
      return res.pipe(createInflate());
    case 'br':
      return res.pipe(createBrotliDecompress());
    default:
      return res;
  }
}

/** GETs a page once (no redirects followed), within `timeoutMs` for the whole exchange. */
export function fetchPage(
  url: URL,
  options: {
    timeoutMs: number;
    userAgent: string;
    /** Called with the size of each decoded body chunk (a work counter, for tests). */
    onInflated?: (bytes: number) => void;
  },
): Promise<FetchedPage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<FetchedPage>((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new PageFetchError(message));
    };
    const timer = setTimeout(
      () => fail(`no complete response within ${options.timeoutMs / 1000} s`),
      // Beyond 2^31 - 1 ms a timer fires at once; that is over 24 days, so wait that long instead.
      Math.min(options.timeoutMs, 2_147_483_647),
    );
    const req = request(
      url,
      {
        method: 'GET',
        headers: { 'user-agent': options.userAgent, accept: 'text/html,*/*;q=0.8', 'accept-encoding': 'gzip, br' },
      },
      (res) => {
        const xRobotsTag: string[] = [];
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() === 'x-robots-tag') xRobotsTag.push(res.rawHeaders[i + 1]!);
        }
        const status = res.statusCode ?? 0;
        const contentType = res.headers['content-type'] ?? null;
        let location: string | null = null;
        if (status >= 300 && status < 400 && res.headers.location !== undefined) {
          try {
            location = new URL(res.headers.location, url).href;
          } catch {
            location = res.headers.location;
          }
        }
        const done = (html: string | null) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          req.destroy();
          resolve({ status, contentType, location, xRobotsTag, html });
        };
        if (status < 200 || status >= 300 || !isHtmlContentType(contentType)) {
          res.resume();
          return done(null);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const body = decoded(res);
        // Past the cap nothing more is read: the decompressor is destroyed with the socket, so a gzip bomb costs
        // the cap, not its inflated size.
        const stop = () => {
          body.removeAllListeners('data');
          body.on('error', () => {});
          body.destroy();
          res.destroy();
        };
        body.on('data', (chunk: Buffer) => {
          if (settled) return stop();
          options.onInflated?.(chunk.length);
          const room = MAX_PAGE_BYTES - size;
          chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
          size += Math.min(chunk.length, room);
          if (size >= MAX_PAGE_BYTES) {
            stop();
            done(Buffer.concat(chunks).toString('utf8'));
          }
        });
        body.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        body.on('error', (error: NodeJS.ErrnoException) => fail(`broken body: ${error.message}`));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The engine's words for a runtime code (host not found, connection refused…), else the runtime's message.
      const words =
        error.code === undefined
          ? null
          : describeFetchOutcome({ status: null, error: { kind: 'unknown', code: error.code } });
      fail(words === null || words.summary === 'fetch failed' ? error.message : words.summary);
    });
    req.end();
  });
}
