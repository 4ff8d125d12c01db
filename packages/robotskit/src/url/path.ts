/**
 * The part of a URL that robots.txt rules match: path, params and query, without scheme, authority or fragment.
 */

/** Position of the first `/`, `?` or `;` at or after `from`, or -1. */
function firstPathChar(url: string, from: number): number {
  for (let i = from; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x3b) return i;
  }
  return -1;
}

/**
 * Extracts path, params and query from a URL string exactly as Google's reference does (`GetPathParamsQuery`): the
 * result always starts with `/`, the fragment is dropped, and nothing is decoded or re-encoded. Works on absolute URLs,
 * scheme-relative ones (`//host/p`) and bare paths; a first segment without a scheme is taken as the host (`a/b` →
 * `/b`). Never throws.
 *
 * URLs are expected percent-encoded already (as `new URL(u).href` gives them): a raw `ツ` in the URL does not match a
 * rule written `ツ`, which the parser stores as `%E3%83%84`.
 * @example pathOfUrl('https://example.com/a/b?c=d#frag') === '/a/b?c=d'
 */
export function pathOfUrl(url: string): string {
  const hostStart = httpHostStart(url);
  return hostStart > 0 ? pathAfterHost(url, hostStart) : pathOfAnyUrl(url);
}

/** 7 or 8 when `url` starts with `http://` or `https://` (lower case), else 0. */
function httpHostStart(url: string): number {
  // Char by char: a call to `startsWith` costs more than these few reads.
  if (url.charCodeAt(0) !== 0x68 || url.charCodeAt(1) !== 0x74 || url.charCodeAt(2) !== 0x74) return 0;
  if (url.charCodeAt(3) !== 0x70) return 0;
  const colon = url.charCodeAt(4) === 0x73 ? 5 : 4;
  return url.charCodeAt(colon) === 0x3a && url.charCodeAt(colon + 1) === 0x2f && url.charCodeAt(colon + 2) === 0x2f
    ? colon + 3
    : 0;
}

/**
 * {@link pathOfAnyUrl} for the common case, a URL starting with `http://` or `https://`: the host starts at
 * `hostStart`, and the first `/`, `?` or `;` after it starts the path unless a `#` comes first. Found with native
 * `indexOf`, which is much faster than reading the chars one by one (URLs are often slices of a larger text).
 */
function pathAfterHost(url: string, hostStart: number): string {
  let pathStart = url.indexOf('/', hostStart);
  const query = url.indexOf('?', hostStart);
  if (query >= 0 && (pathStart < 0 || query < pathStart)) pathStart = query;
  const semicolon = url.indexOf(';', hostStart);
  if (semicolon >= 0 && (pathStart < 0 || semicolon < pathStart)) pathStart = semicolon;
  if (pathStart < 0) return '/';
  const hash = url.indexOf('#', hostStart);
  if (hash < 0) return pathIn(url, pathStart, url.length);
  return hash < pathStart ? '/' : pathIn(url, pathStart, hash);
}

/**
 * `url` from `start` (its `/`, `?` or `;`) to `end` (its fragment or its end) as a path to match: a `/` is put before
 * params or a query that start it, as the reference does.
 */
export function pathIn(url: string, start: number, end: number): string {
  const path = url.slice(start, end);
  return url.charCodeAt(start) === 0x2f ? path : `/${path}`;
}

/** {@link pathOfUrl} for any string: the reference's algorithm step by step. */
export function pathOfAnyUrl(url: string): string {
  // Initial two slashes are ignored.
  const searchStart = url.length >= 2 && url.charCodeAt(0) === 0x2f && url.charCodeAt(1) === 0x2f ? 2 : 0;
  const earlyPath = firstPathChar(url, searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  // A path, params or query that starts before "://" means the "://" is not a scheme separator.
  if (earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd < 0 ? searchStart : protocolEnd + 3;
  const pathStart = firstPathChar(url, protocolEnd);
  if (pathStart < 0) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash >= 0 && hash < pathStart) return '/';
  return pathIn(url, pathStart, hash < 0 ? url.length : hash);
}

/**
 * The path to match for a URL given as a string or a `URL` object: the reference's extraction ({@link pathOfUrl}) of
 * the string, or of the object's serialisation (`href`, already normalised and percent-encoded by the WHATWG parser).
 * Not `pathname + search`: `search` is empty for a lone `?`, which `href` keeps and the reference matches (`/search?`
 * is matched by `/*?`), so the path asked about is the one the URL requests.
 * @throws TypeError when `url` is neither a string nor a URL (a programmer error).
 */
export function pathToMatch(url: string | URL): string {
  if (typeof url === 'string') return pathOfUrl(url);
  if (url instanceof URL) return pathOfUrl(url.href);
  throw new TypeError('url must be a string or a URL');
}
