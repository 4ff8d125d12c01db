/**
 * Product tokens: the crawler names that robots.txt `user-agent` lines and callers use.
 */

/** Lower-cases ASCII letters only, the way the reference compares names (`EqualsIgnoreCase`). */
export function asciiLower(text: string): string {
  let lower = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) {
      lower = false;
      break;
    }
  }
  return lower ? text : text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** Whether a char code (or byte) may appear in a product token: `[a-zA-Z_-]`. */
export function isTokenByte(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x5f;
}

/** The longest prefix of `text` made of `[a-zA-Z_-]`, as Google reads a robots.txt user-agent value. */
export function tokenPrefix(text: string): string {
  let end = 0;
  while (end < text.length && isTokenByte(text.charCodeAt(end))) end++;
  return text.slice(0, end);
}

/**
 * Whether `name` is a valid product token to obey: non-empty and only `[a-zA-Z_-]` (Google's
 * `IsValidUserAgentToObey`). `Googlebot` and `Foo_Bar` are; `Googlebot/2.1`, `Foo Bar` and `ツ` are not.
 */
export function isValidProductToken(name: string): boolean {
  return name.length > 0 && tokenPrefix(name) === name;
}

// Words of browser User-Agent strings that never name a crawler.
const BROWSER_WORDS = new Set([
  'mozilla',
  'applewebkit',
  'chrome',
  'chromium',
  'safari',
  'version',
  'mobile',
  'gecko',
  'firefox',
  'khtml',
  'like',
  'compatible',
  'edg',
  'edge',
  'opr',
  'opera',
  'crios',
  'fxios',
  'headlesschrome',
  'trident',
  'msie',
  'linux',
  'android',
  'windows',
  'macintosh',
  'iphone',
  'ipad',
  'cpu',
  'intel',
  'x',
  'u',
  'wow',
  'build',
]);

/** Items inside `( … )` comments and products outside them, in order. */
function splitUserAgent(ua: string): { products: string[]; comments: string[] } {
  const products: string[] = [];
  const comments: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of ua) {
    if (ch === '(') {
      if (depth === 0) {
        products.push(...current.split(/\s+/).filter(Boolean));
        current = '';
      } else current += ch;
      depth++;
    } else if (ch === ')' && depth > 0) {
      depth--;
      if (depth === 0) {
        comments.push(current);
        current = '';
      } else current += ch;
    } else current += ch;
  }
  if (depth > 0) comments.push(current);
  else products.push(...current.split(/\s+/).filter(Boolean));
  return { products, comments };
}

/** Whether a product name is a word of browser User-Agent strings (`Mozilla`, `Chrome`, `Safari`…): it names no crawler. */
export function isBrowserWord(name: string): boolean {
  return BROWSER_WORDS.has(name.toLowerCase());
}

function crawlerName(item: string): string | null {
  const m = /^([A-Za-z_-]+)(?:\/\S*)?$/.exec(item.trim());
  if (!m || BROWSER_WORDS.has(m[1]!.toLowerCase())) return null;
  return m[1]!;
}

/**
 * The product token of a caller's user agent.
 *
 * A product token (`Googlebot`, `Googlebot-Image`) and anything else without a parenthesised comment is returned as it
 * is, whitespace included: like Google's reference, `isAllowed` compares the caller's name exactly, so `Foo Bar`,
 * ` FooBot ` or `FooBot/1.2` match no group. A full HTTP User-Agent string (one with a `( … )` comment) is reduced to
 * the crawler's token (see the engine README, "User agents"):
 * 1. the item after `compatible;` in a comment (`Mozilla/5.0 (compatible; Googlebot/2.1; +http://…)` → `Googlebot`);
 * 2. else the first `Name/version` item of a comment that is not a browser word (`… (Applebot/0.1; +http://…)`);
 * 3. else the first product outside comments that is not a browser word (`AdsBot-Google (+http://…)`);
 * 4. else the first product (`Mozilla`).
 * The result is cut to its `[a-zA-Z_-]` prefix; it is `''` when the string names no crawler (`(FooBot)`), and an
 * empty token matches no group.
 * @example productToken('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)') === 'bingbot'
 */
export function productToken(userAgent: string): string {
  if (!userAgent.includes('(')) return userAgent;
  return namedCrawler(userAgent);
}

/**
 * The crawler token a User-Agent string names (the steps of {@link productToken}, for any string): `''` when it names
 * none. `FooBot/1.2` → `FooBot`, `(FooBot)` → `''`.
 */
export function namedCrawler(userAgent: string): string {
  const ua = userAgent.trim();
  const { products, comments } = splitUserAgent(ua);
  for (const comment of comments) {
    const items = comment.split(';').map((s) => s.trim());
    const at = items.findIndex((s) => s.toLowerCase() === 'compatible');
    const next = at >= 0 ? items[at + 1] : undefined;
    if (next !== undefined) {
      const name = crawlerName(next);
      if (name) return name;
    }
  }
  for (const comment of comments) {
    for (const item of comment.split(';')) {
      if (!item.includes('/')) continue;
      const name = crawlerName(item);
      if (name) return name;
    }
  }
  for (const product of products) {
    const name = crawlerName(product);
    if (name) return name;
  }
  return tokenPrefix(products[0] ?? '');
}
