/**
 * The catalogue name a typed name was probably meant to be (`Googelbot` → `Googlebot`), so a surface can ask "did you
 * mean …?" instead of silently matching a misspelt token that no group names. Closeness is the edit distance with
 * adjacent transpositions (one typo: a letter missed, added, changed or two swapped), ASCII case-insensitively, over
 * every catalogue name and alias; short names need a closer match than long ones, and names under four characters get
 * no suggestion (too many real tokens are that close to something).
 */

import { CRAWLERS } from './catalogue.js';
import type { CrawlerProfile } from './profile.js';

/** Edits allowed for a name of `length` characters. */
function allowedEdits(length: number): number {
  if (length < 4) return 0;
  return length < 8 ? 1 : 2;
}

/** Three rows of the distance table, reused (grown as needed): a call allocates nothing. */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/** Optimal-string-alignment distance of `a` and `b`, giving up (returning `limit + 1`) once it exceeds `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  if (rows[0]!.length <= b.length) rows = rows.map(() => new Int32Array(b.length + 1));
  let [before, previous, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj)
        d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    [before, previous, row] = [previous, row, before];
  }
  return previous[b.length]!;
}

type KnownName = { readonly lower: string; readonly crawler: CrawlerProfile };

/** Each catalogue's names and aliases, lowercased once. */
const known = new WeakMap<readonly CrawlerProfile[], readonly KnownName[]>();

/** Every name and alias of a catalogue, lowercased once. */
function knownNames(crawlers: readonly CrawlerProfile[]): readonly KnownName[] {
  let names = known.get(crawlers);
  if (names === undefined) {
    names = crawlers.flatMap((crawler) =>
      [crawler.name, ...crawler.aliases].map((n) => ({ lower: n.toLowerCase(), crawler })),
    );
    known.set(crawlers, names);
  }
  return names;
}

/**
 * The catalogue crawler whose name (or alias) is within one typo or two of `name`, the closest first (the catalogue's
 * order breaks ties); null when `name` is in the catalogue itself or nothing is that close. `crawlers` is the catalogue
 * (default `CRAWLERS`).
 * @example closestCrawler('Googelbot')?.name // 'Googlebot'
 */
export function closestCrawler(name: string, crawlers: readonly CrawlerProfile[] = CRAWLERS): CrawlerProfile | null {
  const typed = name.trim().toLowerCase();
  const limit = allowedEdits(typed.length);
  if (limit === 0) return null;
  let best: CrawlerProfile | null = null;
  let bestDistance = limit + 1;
  for (const { lower, crawler } of knownNames(crawlers)) {
    if (lower === typed) return null;
    // Lengths further apart than the edits left cannot be close enough: most names end here.
    if (Math.abs(lower.length - typed.length) >= bestDistance) continue;
    const d = distance(typed, lower, bestDistance - 1);
    if (d < bestDistance) {
      best = crawler;
      bestDistance = d;
    }
  }
  return best;
}
