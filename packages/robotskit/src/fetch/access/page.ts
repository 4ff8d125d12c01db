/**
 * The page GET of the access check: what the page answers one `User-Agent` (status, `Content-Type`, a
 * `cf-mitigated: challenge` header) and, for a 2xx HTML answer, the start of its body, where a challenge page says
 * what it is. The check takes the GET as a function ({@link PageGet}), so each caller fetches through its own
 * transport and guard; {@link pageGetOver} is one over any `fetch` (the report service's SSRF-guarded one), on the
 * engine's transport: no redirect followed (the URL checked is the one asked about), its timeouts, and a body read only
 * as far as the challenge test looks.
 */

import { isHtmlContentType } from '../../parse/html.js';
import { describeFetchOutcome } from '../retrieval/outcome-words.js';
import type { AnyFetchLike, RetrievalError } from '../shared/types.js';
import { concat } from '../transport/body.js';
import { type HttpGetTimeouts, httpGet } from '../transport/http-get.js';
import { CHALLENGE_CHARS, mitigatedChallenge } from './edge.js';

/** What a page answered: its status, type, whether the edge says it is a challenge, and a 2xx HTML body's start. */
export interface PageAnswer {
  readonly status: number;
  readonly contentType: string | null;
  /** Whether the edge says the answer is a challenge (`cf-mitigated: challenge`), whatever its status. */
  readonly challenge: boolean;
  /** The HTML (at least its first {@link CHALLENGE_CHARS} characters) of a 2xx HTML answer; null otherwise. */
  readonly html: string | null;
}

/** A page GET that got no answer, in one line for people. */
export interface PageFailure {
  readonly error: string;
}

/** GETs `url` once with `userAgent` (no redirect followed); never rejects for what the network or server does. */
export type PageGet = (url: URL, userAgent: string) => Promise<PageAnswer | PageFailure>;

/** Bytes read of a page body: enough UTF-8 for {@link CHALLENGE_CHARS} UTF-16 code units, whatever the characters. */
const PAGE_HEAD_BYTES = CHALLENGE_CHARS * 4;

/** Options of {@link pageGetOver}. */
export interface PageGetOptions {
  /** The `fetch` (every request one call). @default globalThis.fetch */
  readonly fetch?: AnyFetchLike;
  readonly timeouts?: HttpGetTimeouts;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Ends every GET made after it is aborted, and the one under way (its words: the request was aborted). */
  readonly signal?: AbortSignal;
}

/** A {@link PageGet} over a `fetch`, on the engine's transport. */
export function pageGetOver(options: PageGetOptions = {}): PageGet {
  const timeoutMs = options.timeouts?.total;
  const words = (error: RetrievalError) =>
    describeFetchOutcome({ status: null, error }, timeoutMs === undefined ? {} : { timeoutMs }).summary;
  return async (url, userAgent) => {
    const got = await httpGet(url.href, {
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      ...(options.timeouts === undefined ? {} : { timeouts: options.timeouts }),
      headers: { ...options.headers, 'user-agent': userAgent, accept: 'text/html,*/*;q=0.8' },
      maxRedirects: 0,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!got.ok && (got.status === null || got.headers === null)) return { error: words(got.error) };
    const headers = got.headers!;
    const contentType = headers.get('content-type');
    const answer = { status: got.status!, contentType, challenge: mitigatedChallenge(headers.get('cf-mitigated')) };
    if (!got.ok || !isHtmlContentType(contentType)) {
      got.close();
      return { ...answer, html: null };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of got.chunks) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= PAGE_HEAD_BYTES) break;
      }
    } finally {
      got.close();
    }
    const broken = got.bodyError();
    if (broken !== null) return { error: `broken body: ${words(broken)}` };
    const body = concat(chunks, size);
    return { ...answer, html: new TextDecoder('utf-8').decode(body.subarray(0, PAGE_HEAD_BYTES)) };
  };
}
