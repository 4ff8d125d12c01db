/**
 * Loading a site's live robots.txt through the service: `GET /api/fetch?url=<site or robots.txt URL>`, which answers
 * JSON with the body's bytes (`contentBase64`), its text and the fetch outcome (`{ robotsUrl, finalUrl, outcome, status,
 * error, content, truncated, html, … }`). The bytes are what the engine decides on; the text is only shown. The browser never fetches other sites itself (no CORS, and the service applies its address guard).
 */

import { DEFAULT_MAX_BYTES, pathOfUrl } from 'robotskit';
import type { RetrievalErrorKind, RetrievalOutcome } from 'robotskit/fetch';
import { ApiError, apiGet } from '../../api.js';
import { sourceOf } from './source-bytes.js';

/** What the tester shows about a load. */
interface LiveFile {
  /** The robots.txt URL that was fetched (after redirects when the service says). */
  readonly url: string;
  /** The origin the file governs (`https://example.com`): the one asked for, also after redirects elsewhere. */
  readonly origin: string;
  /** The body as text for the editor, or null when there was none (404, network error…). */
  readonly text: string | null;
  /** The body's exact bytes, what the engine decides on, when the service sent them. */
  readonly bytes: Uint8Array | null;
  /** How a crawler must read the fetch (`rules`, `allow-all`, `disallow-all`), when the service says. */
  readonly outcome: RetrievalOutcome | null;
  readonly status: number | null;
  /** Why there is no usable body, in words, when there is none. */
  readonly problem: string | null;
  /** What else to know about a body that was loaded (cut at 500 KiB, an HTML page, how crawlers must read it). */
  readonly notes: readonly string[];
}

function decodeBase64(text: string): Uint8Array {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads the service's answer; tolerant of the field names the contract allows (`body` text or `bodyBase64`). */
export function liveFileFrom(data: unknown, requested: string): LiveFile {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const base64 = str(d.contentBase64) ?? str(d.bodyBase64);
  let bytes: Uint8Array | null = null;
  try {
    bytes = base64 === null ? null : decodeBase64(base64);
  } catch {
    bytes = null;
  }
  const text = bytes !== null ? sourceOf(bytes).text : (str(d.content) ?? str(d.body) ?? str(d.text));
  const status = typeof d.httpStatus === 'number' ? d.httpStatus : typeof d.status === 'number' ? d.status : null;
  const error = d.error as { message?: unknown; kind?: RetrievalErrorKind } | null | undefined;
  // The service answers in the engine's words for the outcome and the error kind.
  const outcome = str(d.outcome) as RetrievalOutcome | null;
  let problem: string | null = null;
  if (text === null) {
    // The engine's words for the outcome (host not found, server error (HTTP 503)…), never a runtime's raw text.
    const summary = str(d.summary);
    if (summary !== null) {
      problem = `${summary[0]!.toUpperCase()}${summary.slice(1)}`;
      if (error?.kind === 'blocked') {
        problem += '. To test a local site, start the service with --allow-private-addresses';
      }
    } else if (error && typeof error.message === 'string') problem = error.message;
    else if (status !== null) problem = `The server answered HTTP ${status} with no robots.txt.`;
    else problem = 'The service returned no robots.txt body.';
    if (!/[.!?]$/.test(problem)) problem += '.';
    if (outcome === 'allow-all') problem += ' Crawlers may fetch everything on this site.';
    if (outcome === 'disallow-all') problem += ' Crawlers must treat the whole site as disallowed for now.';
  }
  const notes: string[] = [];
  if (text !== null) {
    if (d.truncated === true) {
      const limit = `${DEFAULT_MAX_BYTES / 1024} KiB`;
      notes.push(`It is longer than ${limit}: Google reads only the first ${limit}, shown here.`);
    }
    if (d.html === true) notes.push('The server sent an HTML page, not a robots.txt.');
    if (outcome === 'allow-all') notes.push('Crawlers must treat this answer as allowing everything.');
    if (outcome === 'disallow-all') notes.push('Crawlers must treat this answer as disallowing everything for now.');
  }
  const url = str(d.finalUrl) ?? str(d.robotsUrl) ?? str(d.url) ?? requested;
  return {
    url,
    origin: originOf(str(d.robotsUrl) ?? url),
    text,
    bytes,
    outcome,
    status,
    problem,
    notes,
  };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * What to ask the service for: the site as typed, with `http://` added for a loopback or IP address with no scheme
 * (`127.0.0.1:8080`: a local test server speaks plain http; the service would otherwise try https).
 */
export function liveTarget(typed: string): string {
  const target = typed.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  if (/^(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])(:\d+)?([/?#]|$)/i.test(target)) return `http://${target}`;
  return target;
}

/** Fetches through the service; rejects with a message fit to show. */
export async function loadLiveRobotsTxt(site: string, signal?: AbortSignal): Promise<LiveFile> {
  const target = site.trim();
  if (target === '') throw new Error('Type a site (example.com) or a robots.txt URL first.');
  try {
    const asked = liveTarget(target);
    return liveFileFrom(await apiGet<unknown>(`/api/fetch?url=${encodeURIComponent(asked)}`, signal), asked);
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status === 404 &&
      error.code === 'not-found' &&
      /no route/.test(error.message)
    ) {
      throw new Error('This service cannot fetch live files (it has no /api/fetch). Paste the robots.txt instead.');
    }
    throw error;
  }
}

/** The host of the example URLs, which a loaded live file replaces. */
const EXAMPLE_HOSTS = new Set(['example.com', 'www.example.com']);

/** `urls` with every example.com URL moved to `origin` (same path); the same string when none is. */
export function retargetUrls(urls: string, origin: string): string {
  let changed = false;
  const lines = urls.split('\n').map((line) => {
    const trimmed = line.trim();
    if (!/^https?:\/\//i.test(trimmed)) return line;
    try {
      const url = new URL(trimmed);
      if (!EXAMPLE_HOSTS.has(url.hostname)) return line;
      changed = true;
      // The path and query the engine matches (a lone `?` kept), fragment dropped.
      return `${origin}${pathOfUrl(url.href)}`;
    } catch {
      return line;
    }
  });
  return changed ? lines.join('\n') : urls;
}
