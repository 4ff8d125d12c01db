/**
 * Robots `meta` tag contents and `X-Robots-Tag` header values → directives per audience, with diagnostics as data.
 * Rules follow Google's "Robots meta tag, data-nosnippet, and X-Robots-Tag specifications"
 * (https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag): rules are comma-separated and
 * case-insensitive, `none` is `noindex, nofollow`, `all` changes nothing, conflicting rules resolve to the more
 * restrictive one, an invalid `unavailable_after` date is ignored, and an `X-Robots-Tag` rule may name the crawler it
 * is for (`googlebot: noindex`), which then applies to that crawler only.
 */

import type { CrawlerProfile } from '../crawlers/profile.js';
import type { Range } from '../model/types.js';
import { isWeekday, parseUnavailableAfter } from './date.js';
import { type ImagePreview, mergeDirectives, NO_DIRECTIVES, type PageDirectives } from './directives.js';

/** Codes of page-level diagnostics. */
export type MetaDiagnosticCode =
  /** A rule no crawler documents (`noindx`). The rule is ignored. */
  | 'unknown-directive'
  /** A rule some crawlers knew but Google ignores (`noodp`, `noydir`, `nocache`, `nositelinkssearchbox`, `index`…). */
  | 'unsupported-directive'
  /** Rules separated by spaces instead of commas (`noindex nofollow`). They are ignored. */
  | 'missing-separator'
  /** A rule that needs a value has none (`max-snippet`). It is ignored. */
  | 'missing-value'
  /** A rule that takes no value has one (`noindex: true`). The rule applies; the value is ignored. */
  | 'unexpected-value'
  /** A value the rule does not accept (`max-snippet: -5`, `max-image-preview: huge`). The rule is ignored. */
  | 'invalid-value'
  /** An `unavailable_after` date in no accepted format. The rule is ignored, as Google ignores it. */
  | 'invalid-date'
  /** Rules that contradict each other (`index` and `noindex`): the more restrictive one applies. */
  | 'conflicting-directives'
  /** `indexifembedded` without `noindex`: it has no effect. */
  | 'indexifembedded-without-noindex'
  /** An empty item between commas. */
  | 'empty-directive'
  /** A crawler name with no rule after it (`X-Robots-Tag: googlebot:`). */
  | 'empty-crawler-rules';

/** Something worth knowing about a robots meta tag or `X-Robots-Tag` value. Never an exception. */
export interface MetaDiagnostic {
  readonly code: MetaDiagnosticCode;
  /** `warning`: probably not what was meant; `info`: harmless but worth knowing. */
  readonly severity: 'warning' | 'info';
  readonly message: string;
  /** Where: offsets into the parsed string (the `content` value, or the header value named by `header`). */
  readonly range: Range;
  /** For `X-Robots-Tag`: the index of the header value in the list passed in. */
  readonly header?: number;
}

/** The directives of a page, per audience. */
export interface RobotsDirectives {
  /** Addressed to every crawler: `<meta name="robots">`, and `X-Robots-Tag` rules without a crawler name. */
  readonly all: PageDirectives;
  /**
   * Addressed to one crawler, by its lower-cased name (`googlebot`, `googlebot-news`, `bingbot`…): only what was
   * addressed to it by name (a crawler named only with rules that were ignored has an entry with nothing set). Use
   * {@link directivesFor} for what applies to a crawler in total.
   */
  readonly crawlers: Readonly<Record<string, PageDirectives>>;
  readonly diagnostics: readonly MetaDiagnostic[];
}

type Flag = 'noindex' | 'nofollow' | 'noarchive' | 'nosnippet' | 'notranslate' | 'noimageindex' | 'indexifembedded';
const FLAGS = new Set<string>([
  'noindex',
  'nofollow',
  'noarchive',
  'nosnippet',
  'notranslate',
  'noimageindex',
  'indexifembedded',
]);
const VALUED = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);
/** Rules of other crawlers or of the past, which Google ignores. */
const UNSUPPORTED = new Set([
  'noodp',
  'noydir',
  'noimageclick',
  'nocache',
  'nositelinkssearchbox',
  'nopagereadaloud',
  'archive',
  'snippet',
  'imageindex',
  'translate',
  'odp',
  'cache',
  'noai',
  'noimageai',
]);
/** Rules that say "allowed", which is the default; they only conflict with their restrictive counterparts. */
const PERMISSIVE: Record<string, readonly string[]> = {
  all: ['noindex', 'nofollow', 'none'],
  index: ['noindex', 'none'],
  follow: ['nofollow', 'none'],
};
const KNOWN_WORDS = new Set([...FLAGS, ...VALUED, ...UNSUPPORTED, 'none', 'all', 'index', 'follow']);

/** One comma-separated item: its text (trimmed) and where it starts in the parsed string. */
interface Item {
  readonly text: string;
  readonly start: number;
}

/**
 * Splits a value at commas, keeping each item's offset. An `unavailable_after` date in RFC 822/850 form has a comma
 * after its weekday (`unavailable_after: Friday, 25-Jun-10 …`): such an item is joined with the next.
 */
function items(value: string): Item[] {
  const raw: Item[] = [];
  let start = 0;
  for (;;) {
    const comma = value.indexOf(',', start);
    const end = comma < 0 ? value.length : comma;
    const piece = value.slice(start, end);
    const lead = piece.length - piece.trimStart().length;
    raw.push({ text: piece.trim(), start: start + lead });
    if (comma < 0) break;
    start = comma + 1;
  }
  const joined: Item[] = [];
  for (let i = 0; i < raw.length; i++) {
    const item = raw[i]!;
    const m = /unavailable_after\s*:\s*([a-z]+)$/i.exec(item.text);
    const next = raw[i + 1];
    if (m !== null && next !== undefined && isWeekday(m[1]!) && next.text !== '') {
      joined.push({ text: value.slice(item.start, next.start + next.text.length), start: item.start });
      i++;
    } else joined.push(item);
  }
  return joined;
}

/** Where a rule was seen: offsets, and the header value for `X-Robots-Tag`. */
interface Seen {
  readonly range: Range;
  readonly header: number | undefined;
}

/** Mutable directives of one audience while parsing. */
interface Draft {
  d: PageDirectives;
  /** Permissive words seen, with where, for conflict diagnostics. */
  permissive: (Seen & { readonly word: string })[];
  restrictive: Set<string>;
  /** Where `indexifembedded` was first seen. */
  embedded: Seen | null;
}

function newDraft(): Draft {
  return { d: NO_DIRECTIVES, permissive: [], restrictive: new Set(), embedded: null };
}

class Parser {
  readonly all = newDraft();
  readonly crawlers = new Map<string, Draft>();
  readonly diagnostics: MetaDiagnostic[] = [];
  private header: number | undefined;

  report(
    code: MetaDiagnosticCode,
    severity: 'warning' | 'info',
    message: string,
    start: number,
    end: number,
    header = this.header,
  ): void {
    const d = { code, severity, message, range: { start, end } };
    this.diagnostics.push(header === undefined ? d : { ...d, header });
  }

  draft(crawler: string | null): Draft {
    if (crawler === null) return this.all;
    let draft = this.crawlers.get(crawler);
    if (draft === undefined) {
      draft = newDraft();
      this.crawlers.set(crawler, draft);
    }
    return draft;
  }

  /** Parses one value (a `content` attribute, or one header value) for `audience` (null: every crawler). */
  value(value: string, audience: string | null, crawlerNames: boolean, header?: number): void {
    this.header = header;
    let target = audience;
    for (const item of items(value)) {
      let { text, start } = item;
      if (text === '') {
        if (value.trim() !== '') this.report('empty-directive', 'info', 'Empty rule between commas.', start, start);
        continue;
      }
      if (crawlerNames) {
        const named = /^([A-Za-z0-9_.-]+)\s*:\s*/.exec(text);
        if (named !== null && !KNOWN_WORDS.has(named[1]!.toLowerCase())) {
          // `googlebot: noindex`: this rule and the ones after it are for that crawler.
          target = named[1]!.toLowerCase();
          start += named[0].length;
          text = text.slice(named[0].length);
          if (text === '') {
            this.report(
              'empty-crawler-rules',
              'warning',
              `No rule follows the crawler name ${JSON.stringify(named[1])}.`,
              item.start,
              item.start + item.text.length,
            );
            continue;
          }
        }
      }
      this.rule(text, start, this.draft(target));
    }
  }

  /** One rule, `name` or `name: value`. */
  private rule(text: string, start: number, draft: Draft): void {
    const end = start + text.length;
    const colon = text.indexOf(':');
    const name = (colon < 0 ? text : text.slice(0, colon)).trim().toLowerCase();
    const value = colon < 0 ? null : text.slice(colon + 1).trim();
    if (VALUED.has(name)) {
      if (value === null || value === '') {
        this.report('missing-value', 'warning', `${name} needs a value; the rule is ignored.`, start, end);
        return;
      }
      this.valued(name, value, draft, start, end);
      return;
    }
    if (FLAGS.has(name) || name === 'none' || name in PERMISSIVE) {
      if (value !== null) {
        this.report(
          'unexpected-value',
          'warning',
          `${name} takes no value; ${JSON.stringify(value)} is ignored and the rule applies.`,
          start,
          end,
        );
      }
      if (name === 'none') {
        draft.d = { ...draft.d, noindex: true, nofollow: true };
        draft.restrictive.add('none');
      } else if (FLAGS.has(name)) {
        draft.d = { ...draft.d, [name as Flag]: true };
        draft.restrictive.add(name);
        if (name === 'indexifembedded') draft.embedded ??= { range: { start, end }, header: this.header };
      } else {
        draft.permissive.push({ word: name, range: { start, end }, header: this.header });
      }
      return;
    }
    if (UNSUPPORTED.has(name)) {
      this.report('unsupported-directive', 'info', `Google ignores ${name}.`, start, end);
      return;
    }
    const words = text.split(/\s+/);
    if (words.length > 1 && words.every((w) => KNOWN_WORDS.has(w.toLowerCase().replace(/:.*$/, '')))) {
      this.report(
        'missing-separator',
        'warning',
        `Rules must be separated by commas: ${JSON.stringify(text)} is not read as ${words.join(', ')}.`,
        start,
        end,
      );
      return;
    }
    this.report('unknown-directive', 'warning', `Unknown rule ${JSON.stringify(text)}; it is ignored.`, start, end);
  }

  private valued(name: string, value: string, draft: Draft, start: number, end: number): void {
    const invalid = (what: string) =>
      this.report('invalid-value', 'warning', `${name}: ${what}; the rule is ignored.`, start, end);
    switch (name) {
      case 'max-snippet':
      case 'max-video-preview': {
        if (!/^-?\d+$/.test(value) || Number(value) < -1 || !Number.isSafeInteger(Number(value))) {
          invalid(`${JSON.stringify(value)} is not a whole number of at least -1`);
          return;
        }
        const limit = Number(value);
        draft.d =
          name === 'max-snippet'
            ? mergeDirectives(draft.d, { ...NO_DIRECTIVES, maxSnippet: limit })
            : mergeDirectives(draft.d, { ...NO_DIRECTIVES, maxVideoPreview: limit });
        return;
      }
      case 'max-image-preview': {
        const setting = value.toLowerCase();
        if (setting !== 'none' && setting !== 'standard' && setting !== 'large') {
          invalid(`${JSON.stringify(value)} is not none, standard or large`);
          return;
        }
        draft.d = mergeDirectives(draft.d, { ...NO_DIRECTIVES, maxImagePreview: setting as ImagePreview });
        return;
      }
      default: {
        const time = parseUnavailableAfter(value);
        if (time === null) {
          this.report(
            'invalid-date',
            'warning',
            `unavailable_after: ${JSON.stringify(value)} is not a date in RFC 822, RFC 850 or ISO 8601 form; the rule is ignored.`,
            start,
            end,
          );
          return;
        }
        draft.d = mergeDirectives(draft.d, { ...NO_DIRECTIVES, unavailableAfter: time });
      }
    }
  }

  finish(): RobotsDirectives {
    const audiences: [string | null, Draft][] = [[null, this.all], ...this.crawlers];
    for (const [crawler, draft] of audiences) {
      for (const { word, range, header } of draft.permissive) {
        const against = PERMISSIVE[word]!.filter((r) => draft.restrictive.has(r) || this.all.restrictive.has(r));
        if (against.length > 0) {
          this.report(
            'conflicting-directives',
            'info',
            `${word} conflicts with ${against.join(', ')}${crawler === null ? '' : ` for ${crawler}`}: the more restrictive rule applies.`,
            range.start,
            range.end,
            header,
          );
        } else if (word !== 'all') {
          this.report(
            'unsupported-directive',
            'info',
            `${word} is the default and changes nothing.`,
            range.start,
            range.end,
            header,
          );
        }
      }
      const effective = crawler === null ? draft.d : mergeDirectives(this.all.d, draft.d);
      if (draft.embedded !== null && !effective.noindex) {
        this.report(
          'indexifembedded-without-noindex',
          'info',
          `indexifembedded has an effect only together with noindex${crawler === null ? '' : ` (for ${crawler})`}.`,
          draft.embedded.range.start,
          draft.embedded.range.end,
          draft.embedded.header,
        );
      }
    }
    return {
      all: this.all.d,
      crawlers: Object.fromEntries([...this.crawlers].map(([name, draft]) => [name, draft.d])),
      diagnostics: this.diagnostics,
    };
  }
}

/**
 * Parses the `content` of a robots `meta` tag. `name` is the tag's `name` attribute: `robots` (the default) addresses
 * every crawler, anything else (`googlebot`, `googlebot-news`, `bingbot`) that crawler only. Never throws on content:
 * unknown or malformed rules become diagnostics.
 * @example parseRobotsMeta('noindex, max-snippet:50').all.noindex // true
 * @throws TypeError when `content` or `name` is not a string (a programmer error).
 */
export function parseRobotsMeta(content: string, name = 'robots'): RobotsDirectives {
  if (typeof content !== 'string' || typeof name !== 'string') throw new TypeError('content and name must be strings');
  const audience = name.trim().toLowerCase();
  const parser = new Parser();
  parser.value(content, audience === 'robots' ? null : audience, false);
  return parser.finish();
}

/**
 * Parses `X-Robots-Tag` header values (one string per header line, or the comma-joined value `Headers.get` gives).
 * A rule may start with a crawler name (`googlebot: noindex, nofollow`): it and the rules after it in the same value
 * are for that crawler only. Never throws on content.
 * @example parseXRobotsTag(['googlebot: noindex', 'nosnippet']).crawlers.googlebot.noindex // true
 * @throws TypeError when `headerValues` is not an array of strings (a programmer error).
 */
export function parseXRobotsTag(headerValues: readonly string[]): RobotsDirectives {
  if (!Array.isArray(headerValues) || headerValues.some((v) => typeof v !== 'string')) {
    throw new TypeError('headerValues must be an array of strings');
  }
  const parser = new Parser();
  headerValues.forEach((value, i) => {
    parser.value(value, null, true, i);
  });
  return parser.finish();
}

/**
 * Combines the directives of several sources (meta tags and headers of one page) restrictively. Diagnostics are
 * concatenated as they are: each keeps the offsets of its own source.
 */
export function combineRobotsDirectives(...results: readonly RobotsDirectives[]): RobotsDirectives {
  const names = new Set(results.flatMap((r) => Object.keys(r.crawlers)));
  return {
    all: mergeDirectives(...results.map((r) => r.all)),
    crawlers: Object.fromEntries(
      [...names].map((name) => [
        name,
        mergeDirectives(...results.flatMap((r) => (Object.hasOwn(r.crawlers, name) ? [r.crawlers[name]!] : []))),
      ]),
    ),
    diagnostics: results.flatMap((r) => r.diagnostics),
  };
}

/**
 * What applies to a crawler: the rules for every crawler combined restrictively with those addressed to it by name.
 * A crawler profile is addressed by any of its tokens (`Googlebot-News` obeys rules for `googlebot-news` and
 * `googlebot`).
 * @example directivesFor(parseXRobotsTag(['googlebot: noindex']), 'Googlebot').noindex // true
 */
export function directivesFor(directives: RobotsDirectives, crawler: string | CrawlerProfile): PageDirectives {
  const names = typeof crawler === 'string' ? [crawler] : crawler.tokens;
  const own = names
    .map((n) => n.toLowerCase())
    .filter((n) => Object.hasOwn(directives.crawlers, n))
    .map((n) => directives.crawlers[n]!);
  return mergeDirectives(directives.all, ...own);
}
