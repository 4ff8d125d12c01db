/**
 * Which crawler made a request, from the User-Agent header a server logged: the catalogue's profile when the string
 * names one of its crawlers, else the product token of an unknown bot, else nothing (a browser, a library, no header).
 * Access-log readers group requests by what this returns and judge them by the profile or the token.
 */

import { isBrowserWord, isTokenByte, isValidProductToken, namedCrawler } from '../url/user-agent.js';
import { CRAWLERS, crawlerByName } from './catalogue.js';
import type { CrawlerProfile } from './profile.js';

/** A crawler named by a User-Agent header. */
export interface IdentifiedCrawler {
  /** What to group requests by: the catalogue name, or the unknown bot's product token. */
  readonly name: string;
  /** The catalogue's profile, or null for a bot the catalogue does not know. */
  readonly profile: CrawlerProfile | null;
  /** The product token the string names (`GPTBot` for `Mozilla/5.0 (…; compatible; GPTBot/1.1; …)`). */
  readonly token: string;
}

// Words that mark an automated client in a product token the catalogue does not know.
const BOT_WORD = /bot|crawl|spider|slurp|fetch|scrap|archiv|index|scan|preview|agent/i;

/**
 * Catalogue names that are not product tokens (`AI2Bot`, `Brightbot 1.0`, `quillbot.com`), longest first: the token a
 * User-Agent string names can never be one of them, so they are looked for in the string itself.
 */
let namesLongestFirst: readonly (readonly [string, CrawlerProfile])[] | null = null;

function catalogueNames(): readonly (readonly [string, CrawlerProfile])[] {
  if (namesLongestFirst === null) {
    const names: [string, CrawlerProfile][] = [];
    for (const crawler of CRAWLERS) {
      for (const n of [crawler.name, ...crawler.aliases]) {
        if (n.length >= 4 && !isValidProductToken(n)) names.push([n.toLowerCase(), crawler]);
      }
    }
    namesLongestFirst = names.sort((a, b) => b[0].length - a[0].length);
  }
  return namesLongestFirst;
}

/** Whether `name` occurs in `lower` as a whole name: not inside a longer product token. */
function occursAsName(lower: string, name: string): boolean {
  let at = lower.indexOf(name);
  while (at >= 0) {
    const before = at === 0 ? 0x20 : lower.charCodeAt(at - 1);
    const after = at + name.length >= lower.length ? 0x20 : lower.charCodeAt(at + name.length);
    if (!isTokenByte(before) && !isTokenByte(after)) return true;
    at = lower.indexOf(name, at + 1);
  }
  return false;
}

/**
 * The crawler a User-Agent header names, or null when it names none (empty, a browser, or a client whose token has
 * no mark of a bot: `curl`, `python-requests`).
 * 1. the token the string names ({@link productToken}'s steps) when it is a catalogue name or alias;
 * 2. else the longest catalogue name that is not a product token (4 characters or more) occurring in the string as a
 *    whole name (`AI2Bot/1.0`, `Brightbot 1.0`);
 * 3. else that token, when it looks like a bot's (`bot`, `crawl`, `spider`, `fetch`… in it): an unknown bot.
 * @example identifyCrawler('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')?.name // 'Googlebot'
 */
export function identifyCrawler(userAgent: string): IdentifiedCrawler | null {
  if (typeof userAgent !== 'string') throw new TypeError('the User-Agent must be a string');
  const ua = userAgent.trim();
  if (ua === '' || ua === '-') return null;
  const token = namedCrawler(ua);
  const named = token === '' ? undefined : crawlerByName(token);
  if (named !== undefined) return { name: named.name, profile: named, token };
  const lower = ua.toLowerCase();
  for (const [name, profile] of catalogueNames()) {
    if (occursAsName(lower, name)) return { name: profile.name, profile, token: profile.name };
  }
  if (token === '' || isBrowserWord(token) || !BOT_WORD.test(token)) return null;
  return { name: token, profile: null, token };
}
