/**
 * Absolute http(s) URLs as the WHATWG URL parser normalises them (`sitemap:` values). Most values in real files are
 * already in that form, and `new URL` is costly (about a fifth of parsing the corpus went into it), so values of a
 * conservative already-canonical shape are taken as they are, and only the others go through `new URL`.
 */

/**
 * The already-canonical shape: a lower-case `http`/`https` scheme; a host of lower-case ASCII letters, digits and
 * hyphens in dot-separated labels whose last label starts with a letter (so it is no IPv4 address), none starting
 * with `xn--` (punycode, which the parser validates); no port or user info; and a path, if any, of characters the
 * parser leaves as they are, with no segment starting with `.` or `%2e` (dot segments). No query, no fragment.
 */
const CANONICAL = /^https?:\/\/(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*(?:\/[A-Za-z0-9\-_~!$&'()*+,;=:@%./]*)?$/;
const RISKY = /\/(?:\.|%2e)|[/.]xn--/i;

/** The WHATWG serialisation of an absolute http(s) URL, or null when `value` is not one. Always through `new URL`. */
export function parseHttpUrl(value: string): string | null {
  if (!/^https?:\/\//i.test(value)) return null;
  try {
    return new URL(value).href;
  } catch {
    return null;
  }
}

/** The same answer as {@link parseHttpUrl}, without `new URL` for values already in canonical form. */
export function normalizeHttpUrl(value: string): string | null {
  if (CANONICAL.test(value) && !RISKY.test(value)) {
    // The host ends at the first `/` after the scheme; without a path, the serialisation adds `/`.
    return value.indexOf('/', value.indexOf('//') + 2) < 0 ? `${value}/` : value;
  }
  return parseHttpUrl(value);
}
