/**
 * What a field name means, as one question: the field Google's parser reads it as (prefix matches and accepted typos
 * included, by the scanner's own {@link classifyKey}), and, for keys Google does not read, whether other crawlers or
 * page-level controls give them a meaning. For tools that show a file (an editor's colours, a formatter's spellings),
 * so that none of them keeps a list of its own.
 */

import { Field, LineFlag } from '../parse/fields.js';
import { classifyKey, KEY_FIELD_MASK } from '../parse/keys.js';
import { isAsciiSpace } from '../parse/lines.js';
import type { RecordField } from './types.js';

/** How each field Google reads is spelled. */
export const FIELD_SPELLING: Readonly<Record<Exclude<RecordField, 'unknown'>, string>> = Object.freeze({
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
});

/**
 * Fields other crawlers use and Google ignores, spelled as their owners document them. Without a prototype, so that a
 * file's `constructor:` or `toString:` line is no known field.
 */
export const OTHER_FIELDS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    'crawl-delay': 'Crawl-delay',
    host: 'Host',
    'clean-param': 'Clean-param',
    'request-rate': 'Request-rate',
    'visit-time': 'Visit-time',
    'content-signal': 'Content-Signal',
    'content-usage': 'Content-Usage',
  }),
);

/** Page-level directives that some files put in robots.txt; no crawler supports them there. */
export const PAGE_DIRECTIVES: ReadonlySet<string> = new Set([
  'noindex',
  'nofollow',
  'noarchive',
  'nosnippet',
  'noimageindex',
  'notranslate',
  'noodp',
  'noydir',
  'none',
  'unavailable_after',
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'indexifembedded',
]);

/** How Google's parser reads one field name. */
export interface KeyReading {
  /** The field Google reads the key as; `unknown` for a key it ignores. */
  readonly field: RecordField;
  /**
   * How the key spells `field`: `exact` (any case), `typo` (one of the reference's accepted typos: `useragent`,
   * `dissallow`, `site-map`…), `prefix` (a longer key that starts with the name: `disallowed`); null for `unknown`.
   */
  readonly spelling: 'exact' | 'typo' | 'prefix' | null;
  /**
   * For an `unknown` key: `extension` when other crawlers read it (`crawl-delay`, `host`, `clean-param`,
   * `content-signal`…, see {@link OTHER_FIELDS}), `page-directive` for a page-level control written in robots.txt
   * (`noindex`), null otherwise (a misspelling or an invention) and for the fields Google reads.
   */
  readonly ignored: 'extension' | 'page-directive' | null;
  /** The field's usual spelling (`User-agent`, `Crawl-delay`); null for a key nobody defines. */
  readonly canonical: string | null;
}

const FIELD_NAMES: Record<number, Exclude<RecordField, 'unknown'>> = {
  [Field.UserAgent]: 'user-agent',
  [Field.Allow]: 'allow',
  [Field.Disallow]: 'disallow',
  [Field.Sitemap]: 'sitemap',
};

/**
 * How Google's parser reads the field name `key` (surrounding ASCII whitespace ignored, as the parser trims it; a
 * no-break space or U+FEFF is part of the key).
 * @example readKey('Dissallow') // { field: 'disallow', spelling: 'typo', ignored: null, canonical: 'Disallow' }
 * @example readKey('Crawl-delay') // { field: 'unknown', spelling: null, ignored: 'extension', canonical: 'Crawl-delay' }
 */
export function readKey(key: string): KeyReading {
  if (typeof key !== 'string') throw new TypeError('readKey: the key must be a string');
  const trimmed = trimAscii(key);
  // Chars above 0xFF never match a field name's letters, so the UTF-16 string can stand for the parser's bytes.
  const code = trimmed === '' ? Field.Unknown : classifyKey(trimmed, 0, trimmed.length);
  const field = FIELD_NAMES[code & KEY_FIELD_MASK];
  if (field !== undefined) {
    const spelling = code & LineFlag.Typo ? 'typo' : code & LineFlag.PrefixKey ? 'prefix' : 'exact';
    return { field, spelling, ignored: null, canonical: FIELD_SPELLING[field] };
  }
  const lower = trimmed.toLowerCase();
  const other = OTHER_FIELDS[lower];
  if (other !== undefined) return { field: 'unknown', spelling: null, ignored: 'extension', canonical: other };
  if (PAGE_DIRECTIVES.has(lower))
    return { field: 'unknown', spelling: null, ignored: 'page-directive', canonical: null };
  return { field: 'unknown', spelling: null, ignored: null, canonical: null };
}

/** `text` without the ASCII whitespace around it (JavaScript's `trim` also drops U+00A0, U+FEFF…, which Google keeps). */
function trimAscii(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}
