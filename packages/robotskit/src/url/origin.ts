/**
 * Which robots.txt governs a URL: its origin (scheme, host, non-default port) and `/robots.txt` there.
 *
 * The WHATWG URL parser does the normalisation the protocol asks for: scheme and host lower-cased, IDNs converted to
 * punycode (`www.exämple.com` → `www.xn--exmple-cua.com`), default ports (80, 443, 21) dropped, IPv4 hosts written in
 * dotted decimal, user info, path, query and fragment ignored. It exists in every runtime the engine targets.
 */

import { simpleOriginEnd } from './http-url.js';

/** Why a URL has no robots.txt. */
export type RobotsUrlErrorCode =
  /** Not an absolute URL the WHATWG parser accepts (no scheme, bad host, bad port…). */
  | 'invalid-url'
  /** A scheme other than http, https and ftp: robots.txt does not exist there. */
  | 'unsupported-scheme';

/**
 * Thrown when a URL has no robots.txt: it is not an absolute URL, or its scheme is not http, https or ftp. The message
 * is written for the person who typed the URL.
 */
export class RobotsUrlError extends TypeError {
  /** Stable code for programs. */
  readonly code: RobotsUrlErrorCode;
  /** The input, as a string. */
  readonly url: string;

  constructor(code: RobotsUrlErrorCode, url: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RobotsUrlError';
    this.code = code;
    this.url = url;
  }
}

/** Schemes that have a robots.txt: http and https, and ftp as Google reads it. */
const ROBOTS_SCHEMES = new Set(['http:', 'https:', 'ftp:']);

function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}

/**
 * Parses a page URL and checks that it can have a robots.txt.
 * @throws RobotsUrlError when it is not an absolute http, https or ftp URL.
 * @throws TypeError when `url` is neither a string nor a URL (a programmer error).
 */
export function parseRobotsScopedUrl(url: string | URL): URL {
  let parsed: URL;
  if (url instanceof URL) parsed = url;
  else if (typeof url === 'string') {
    try {
      parsed = new URL(url);
    } catch (cause) {
      const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim())
        ? ''
        : ` (it has no scheme; did you mean ${quote(`https://${url.trim()}`)}?)`;
      throw new RobotsUrlError('invalid-url', url, `not an absolute URL: ${quote(url)}${hint}`, { cause });
    }
  } else throw new TypeError('url must be a string or a URL');
  if (!ROBOTS_SCHEMES.has(parsed.protocol)) {
    throw new RobotsUrlError(
      'unsupported-scheme',
      String(url),
      `unsupported scheme ${quote(parsed.protocol)} in ${quote(String(url))}: robots.txt exists only for http, https and ftp`,
    );
  }
  if (parsed.host === '') {
    throw new RobotsUrlError('invalid-url', String(url), `URL without a host: ${quote(String(url))}`);
  }
  return parsed;
}

/**
 * The origin a robots.txt applies to: `scheme://host[:port]`, lower-case, punycode host, port only when it is not the
 * scheme's default. Unlike `URL.origin`, it is defined for ftp URLs too (`ftp://example.com`).
 * @throws RobotsUrlError when the URL is not an absolute http, https or ftp URL.
 * @example originOf('https://WWW.Exämple.com:443/a?b') === 'https://www.xn--exmple-cua.com'
 */
export function originOf(url: string | URL): string {
  // A string in the parser's form already has its origin at its start (see simpleOriginEnd).
  if (typeof url === 'string') {
    const end = simpleOriginEnd(url);
    if (end > 0) return url.slice(0, end);
  }
  const parsed = parseRobotsScopedUrl(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/**
 * The robots.txt URL that governs a page: `scheme://host[:non-default-port]/robots.txt`, with the query and
 * fragment dropped. `https://example.com/folder/robots.txt` is not a robots.txt: its governing file is
 * `https://example.com/robots.txt`.
 * @throws RobotsUrlError when the URL is not an absolute http, https or ftp URL.
 * @example robotsTxtUrl('http://example.com:80/shop?id=1#top') === 'http://example.com/robots.txt'
 */
export function robotsTxtUrl(url: string | URL): string {
  return `${originOf(url)}/robots.txt`;
}
