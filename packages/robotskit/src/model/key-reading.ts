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

/** A field Google ignores that others define: who reads it and what the linter says about it. */
export interface ExtensionField {
  /** The field's spelling as its owners document it (`Crawl-delay`). */
  readonly spelling: string;
  /** Who defines and reads it. */
  readonly readers: string;
  /**
   * Why a line of it in a group Google reads deserves a warning (authors expect Google to obey it); null for fields
   * that speak to other readers by design (usage preferences, licences), which get an info-level note instead.
   */
  readonly googleWarning: string | null;
}

/**
 * The registry of fields Google ignores that other crawlers or conventions define. A new one is a row here. Without a
 * prototype, so that a file's `constructor:` or `toString:` line is no known field.
 */
export const EXTENSION_FIELDS: Readonly<Record<string, ExtensionField>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, ExtensionField>, {
    'crawl-delay': {
      spelling: 'Crawl-delay',
      readers: 'Bing, Yandex and many smaller crawlers',
      googleWarning: 'Googlebot sets its own crawl rate (Bing and Yandex honour crawl-delay)',
    },
    host: {
      spelling: 'Host',
      readers: 'Yandex (retired in 2018)',
      googleWarning: 'Host was a Yandex directive for the main mirror, retired in 2018 in favour of redirects',
    },
    'clean-param': { spelling: 'Clean-param', readers: 'Yandex', googleWarning: 'Clean-param is read by Yandex only' },
    'request-rate': {
      spelling: 'Request-rate',
      readers: 'a few crawlers (Python\u2019s urllib.robotparser reads it)',
      googleWarning: 'Request-rate is a non-standard extension that few crawlers read',
    },
    'visit-time': {
      spelling: 'Visit-time',
      readers: 'a few crawlers',
      googleWarning: 'Visit-time is a non-standard extension that few crawlers read',
    },
    'content-signal': {
      spelling: 'Content-Signal',
      readers:
        'crawlers that honour Cloudflare\u2019s Content Signals Policy (use after access: search, ai-input, ai-train)',
      googleWarning: null,
    },
    'content-usage': {
      spelling: 'Content-Usage',
      readers:
        'crawlers implementing the IETF AI Preferences drafts (draft-ietf-aipref-attach, which updates RFC 9309)',
      googleWarning: null,
    },
    license: {
      spelling: 'License',
      readers: 'RSL 1.0 (Really Simple Licensing) readers, which fetch the licence document it points to',
      googleWarning: null,
    },
    'llm-policy': {
      spelling: 'LLM-Policy',
      readers: 'proposed to point language-model crawlers to a usage policy; no major crawler is known to read it',
      googleWarning: null,
    },
  } satisfies Record<string, ExtensionField>),
);
for (const field of Object.values(EXTENSION_FIELDS)) Object.freeze(field);

/**
 * Fields other crawlers use and Google ignores, spelled as their owners document them (the names of
 * {@link EXTENSION_FIELDS}). Without a prototype, so that a file's `constructor:` or `toString:` line is no known
 * field.
 */
export const OTHER_FIELDS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(
    Object.create(null) as Record<string, string>,
    Object.fromEntries(Object.entries(EXTENSION_FIELDS).map(([name, field]) => [name, field.spelling])),
  ),
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
