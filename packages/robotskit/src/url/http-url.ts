/**
 * Absolute http(s) URLs as the WHATWG URL parser serialises them, without `new URL` when a string is in that form
 * already: `new URL` is costly (about a fifth of parsing the corpus went into `sitemap:` values; most of a crawl
 * client's cached answer went into the URL asked about), and most URLs met in files and crawls are canonical. One
 * conservative shape decides which strings are taken as they are (`sitemap:` values here, and the crawl client's
 * questions); every other string goes through `new URL`. The tests hold the shape to the parser over generated URLs.
 */

import { pathIn } from './path.js';

/** A decimal IPv4 part as the parser writes it: 0 to 255, no leading zero. */
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';

/** The characters of a path segment or query the parser leaves as they are, but for `/`, `?` and `#`. */
const PCHAR = '!$%&(-.0-;=@-\\[\\]_a-z~';

/** What follows the origin in {@link SHAPE}: path segments, maybe a query and a fragment. */
const TAIL_SHAPE = `(?:/(?!\\.|%2[eE])[${PCHAR}]*)*(?:\\?[${PCHAR}/?]*)?(?:#[${PCHAR}/?#]*)?`;

/**
 * The shape: a lower-case `http`/`https` scheme; a host of lower-case ASCII letters, digits and hyphens in
 * dot-separated labels, none punycode (`xn--`, which the parser validates), the last starting with a letter (no IPv4
 * address to rewrite), or an IPv4 address in canonical dotted decimal; maybe a port of 1 to 5 digits without a
 * leading zero; path segments none of which starts with `.` or `%2e` (perhaps a dot segment, which the parser
 * resolves); maybe a query (a lone `?` too: the serialisation keeps it) and a fragment. Every character
 * after the host is printable ASCII that the parser neither percent-encodes (in a path, a special-scheme query or a
 * fragment) nor rewrites (`\`). One regular expression: V8 runs it faster than a loop over `charCodeAt`.
 */
const SHAPE = new RegExp(
  `^https?://(?:(?:(?!xn--)[a-z0-9-]+\\.)*(?!xn--)[a-z][a-z0-9-]*|${OCTET}(?:\\.${OCTET}){3})(?::[1-9]\\d{0,4})?` +
    `${TAIL_SHAPE}$`,
);

/**
 * The length of the origin (`scheme://host[:port]`) at the start of `url` when the whole URL is in the WHATWG
 * parser's serialised form already (but for a missing `/` before the query or fragment, or at the end); else -1.
 */
export function simpleOriginEnd(url: string): number {
  if (!SHAPE.test(url)) return -1;
  const hostStart = url.charCodeAt(4) === 0x73 ? 8 : 7;
  let end = url.length;
  for (let i = hostStart; i < end; i++) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) {
      end = i;
      break;
    }
  }
  const colon = url.lastIndexOf(':', end);
  if (colon > hostStart) {
    // A port the scheme implies is dropped by the parser, and one beyond 65535 is an error.
    const port = Number(url.slice(colon + 1, end));
    if (port > 65535 || port === (hostStart === 7 ? 80 : 443)) return -1;
  }
  return end;
}

/** The WHATWG serialisation of an absolute http(s) URL, or null when `value` is not one. Always through `new URL`. */
export function parseHttpUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

/**
 * The serialisation of `url`, a string whose origin ends at `originEnd` as {@link simpleOriginEnd} found: the string
 * itself, but for the `/` the parser writes for an empty path.
 */
export function canonicalHref(url: string, originEnd: number): string {
  return originEnd < url.length && url.charCodeAt(originEnd) === 0x2f
    ? url
    : `${url.slice(0, originEnd)}/${url.slice(originEnd)}`;
}

/**
 * The path to match (`pathToMatch`: path and query without the fragment, `/` when empty) of a URL whose origin ends at
 * `originEnd` and whose rest is in the shape {@link canonicalRestStart} accepts: the authority is not read again.
 */
export function canonicalPath(url: string, originEnd: number): string {
  const hash = url.indexOf('#', originEnd);
  const end = hash < 0 ? url.length : hash;
  return end === originEnd ? '/' : pathIn(url, originEnd, end);
}

/** The same answer as {@link parseHttpUrl}, without `new URL` for values already in canonical form. */
export function normalizeHttpUrl(value: string): string | null {
  const end = simpleOriginEnd(value);
  return end < 0 ? parseHttpUrl(value) : canonicalHref(value, end);
}

/** {@link TAIL_SHAPE} from `lastIndex` to the end of the string (sticky: anchored where `lastIndex` says). */
const TAIL_FROM = /* @__PURE__ */ new RegExp(`${TAIL_SHAPE}$`, 'y');

/**
 * Where the origin of `url` ends if the string starts with one the parser wrote: its first `/` from index 8 on (after
 * `http://` and a host's first char, or after `https://`), or its length. Nothing is checked: the crawl client looks
 * the start up among the origins it keeps, all written by the parser, and takes it as the URL's origin only when it
 * is one of them. Such an origin holds no `/`, `?`, `#`, backslash, userinfo, default port or upper-case letter, so
 * when the string's start spells one, the parser's authority ends there too. One native search, no regular expression.
 */
export function originEndIfKnown(url: string): number {
  const end = url.indexOf('/', 8);
  return end < 0 ? url.length : end;
}

/**
 * Whether `url`, whose first `end` chars are an origin the parser wrote (`${u.protocol}//${u.host}`, any host: IPv6
 * and punycode too), is in the parser's form: an http or https origin, then nothing or a path, query and fragment as
 * {@link simpleOriginEnd} takes them after the origin. Then the parser gives the same origin, path and query, and the
 * same serialisation but for the `/` of an empty path (the tests hold this to the parser over generated origins and
 * tails), without reading the host again.
 */
export function canonicalAfter(url: string, end: number): boolean {
  // `h`: http or https (the client keeps ftp origins too, which are left to the parser).
  if (url.charCodeAt(0) !== 0x68) return false;
  TAIL_FROM.lastIndex = end;
  return TAIL_FROM.test(url);
}
