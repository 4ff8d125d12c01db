/**
 * `readSitemaps`: the walk. One file at a time, pre-order: a file's entries and diagnostics as they are read, then its
 * report, then (for an index) its children. Nothing is collected: a consumer iterating a million URLs holds only the
 * entries of the chunk being parsed (at most 64 KiB of text). What is held across files is bounded by `maxSitemaps`:
 * the URLs of the sitemaps already seen (for loop and duplicate detection) and those waiting to be read.
 */

import { type FetchLike, httpGet, resolveFetch } from 'robotskit/fetch';
import { type BodyState, uncompressed } from './body.js';
import { SITEMAP_DIAGNOSTIC_SEVERITY } from './diagnostics.js';

import type { ContentParser, RawItem } from './parse/items.js';
import { createTextParser } from './parse/text.js';
import { ATOM_NS, createXmlParser, SITEMAP_NS } from './parse/xml.js';
import type {
  SitemapDiagnostic,
  SitemapDiagnosticCode,
  SitemapEntry,
  SitemapEvent,
  SitemapFormat,
  SitemapOptions,
  SitemapReport,
  SitemapScope,
  WalkSummary,
} from './types.js';
import {
  checkLoc,
  childInScope,
  directoryOf,
  httpOrigin,
  inScope,
  isFeedDate,
  isW3cDatetime,
  MAX_URL_CHARS,
  parseChangefreq,
  parsePriority,
  type ScopeRule,
} from './validate.js';

/** The User-Agent sent when the caller names none. */
export const DEFAULT_SITEMAP_USER_AGENT = 'robotskit-sitemaps/0.1 (sitemap reader)';

/** The protocol's limits and the walk's defaults. */
export const SITEMAP_LIMITS = {
  /** 50 MB (52,428,800 bytes) uncompressed per file. */
  maxBytesPerFile: 52_428_800,
  /** 50,000 URLs per file (and 50,000 sitemaps per index). */
  maxUrlsPerFile: 50_000,
  maxDepth: 3,
  maxSitemaps: 1000,
  maxRedirects: 5,
  maxDiagnosticsPerFile: 100,
  timeouts: { headers: 10_000, idle: 15_000, total: 120_000 },
} as const;

interface Config {
  readonly fetch: FetchLike;
  readonly headers: Record<string, string>;
  readonly headersMs: number;
  readonly idleMs: number;
  readonly totalMs: number;
  readonly maxRedirects: number;
  readonly maxBytesPerFile: number;
  readonly maxUrlsPerFile: number;
  readonly maxDepth: number;
  readonly maxSitemaps: number;
  readonly maxUrls: number;
  readonly scope: SitemapScope;
  readonly allowed: ReadonlySet<string>;
  readonly maxDiagnostics: number;
  readonly signal: AbortSignal | undefined;
}

function count(value: number | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value < min ||
    (!Number.isInteger(value) && value !== Infinity)
  ) {
    throw new RangeError(`${name} must be an integer of at least ${min}`);
  }
  return value;
}

function ms(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a positive number of milliseconds`);
  }
  return value;
}

function configure(options: SitemapOptions): Config {
  const userAgent = options.userAgent ?? DEFAULT_SITEMAP_USER_AGENT;
  if (typeof userAgent !== 'string') throw new TypeError('userAgent must be a string');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (name.toLowerCase() !== 'user-agent') headers[name] = value;
  }
  headers['user-agent'] = userAgent;
  const scope = options.scope ?? 'protocol';
  if (scope !== 'protocol' && scope !== 'origin' && scope !== 'none') {
    throw new RangeError(`scope must be 'protocol', 'origin' or 'none', not ${JSON.stringify(scope)}`);
  }
  const allowed = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const o = httpOrigin(origin);
    if (o === null) throw new RangeError(`allowedOrigins: not an http(s) URL: ${JSON.stringify(origin)}`);
    allowed.add(o);
  }
  const t = options.timeouts ?? {};
  const L = SITEMAP_LIMITS;
  return {
    fetch: resolveFetch(options.fetch),
    headers,
    headersMs: ms(t.headers, L.timeouts.headers, 'timeouts.headers'),
    idleMs: ms(t.idle, L.timeouts.idle, 'timeouts.idle'),
    totalMs: ms(t.total, L.timeouts.total, 'timeouts.total'),
    maxRedirects: count(options.maxRedirects, L.maxRedirects, 'maxRedirects'),
    maxBytesPerFile: count(options.maxBytesPerFile, L.maxBytesPerFile, 'maxBytesPerFile', 1),
    maxUrlsPerFile: count(options.maxUrlsPerFile, L.maxUrlsPerFile, 'maxUrlsPerFile', 1),
    maxDepth: count(options.maxDepth, L.maxDepth, 'maxDepth'),
    maxSitemaps: count(options.maxSitemaps, L.maxSitemaps, 'maxSitemaps', 1),
    maxUrls: count(options.maxUrls, Infinity, 'maxUrls'),
    scope,
    allowed,
    maxDiagnostics: count(options.maxDiagnosticsPerFile, L.maxDiagnosticsPerFile, 'maxDiagnosticsPerFile'),
    signal: options.signal,
  };
}

/** A sitemap waiting to be read. */
interface Pending {
  readonly url: string;
  readonly parent: string | null;
  readonly depth: number;
  /** The indexes above it, for loop detection. */
  readonly ancestors: readonly string[];
}

/** The walk's running totals. */
interface Totals {
  sitemaps: number;
  urls: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Sitemaps waiting to be read (the stack and the children being collected). */
  queued: number;
  /** Set when an index listed more sitemaps than the walk's limit leaves room for. */
  sitemapsCut: boolean;
  /** Set when the walk must stop at once. */
  stoppedBy: WalkSummary['stoppedBy'];
}

/** The per-file bookkeeping of diagnostics. */
class FileLog {
  readonly kept: SitemapDiagnostic[] = [];
  readonly counts: Partial<Record<SitemapDiagnosticCode, number>> = {};

  constructor(
    private readonly sitemap: string,
    private readonly max: number,
    private readonly totals: Totals,
  ) {}

  add(code: SitemapDiagnosticCode, message: string, line: number | null): SitemapEvent {
    const severity = SITEMAP_DIAGNOSTIC_SEVERITY[code];
    const diagnostic: SitemapDiagnostic = { code, severity, message, sitemap: this.sitemap, line };
    this.counts[code] = (this.counts[code] ?? 0) + 1;
    if (this.kept.length < this.max) this.kept.push(diagnostic);
    if (severity === 'error') this.totals.errors++;
    else if (severity === 'warning') this.totals.warnings++;
    else this.totals.infos++;
    return { type: 'diagnostic', diagnostic };
  }
}

const EXPECTED_NS: Partial<Record<SitemapFormat, string | null>> = {
  urlset: SITEMAP_NS,
  sitemapindex: SITEMAP_NS,
  rss: null,
  atom: ATOM_NS,
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** Normalises a sitemap URL for loop and duplicate detection (WHATWG serialisation, no fragment). */
function keyOf(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/**
 * Walks sitemaps: the given files, and the files their indexes list (to `maxDepth`). Yields, in order, every page
 * URL and diagnostic as it is read, each file's report after its entries, and a summary at the end. Never throws for
 * anything a server or a file does: failures are diagnostics (`fetch-failed`, `http-error`, `xml-error`…). Throws
 * only for bad options.
 *
 * Breaking out of the loop early is fine: the open response is cancelled.
 *
 * @param start Sitemap URL(s), absolute http or https (e.g. `robots.sitemaps`).
 * @example
 * for await (const event of readSitemaps('https://example.com/sitemap.xml')) {
 *   if (event.type === 'url') console.log(event.entry.loc);
 *   else if (event.type === 'diagnostic') console.warn(event.diagnostic.message);
 * }
 */
export function readSitemaps(
  start: string | readonly string[],
  options: SitemapOptions = {},
): AsyncGenerator<SitemapEvent, void, undefined> {
  // Options are checked now, not at the first `next()`.
  const cfg = configure(options);
  // The same file listed twice (as written or as the URL parser writes it) is read once.
  const starts: string[] = [];
  const keys = new Set<string>();
  for (const url of typeof start === 'string' ? [start] : start) {
    let key = String(url);
    try {
      key = keyOf(new URL(key));
    } catch {
      // Not a URL: kept as written, and reported when its turn comes.
    }
    if (!keys.has(key)) starts.push(String(url));
    keys.add(key);
  }
  return walkAll(starts, cfg);
}

async function* walkAll(starts: readonly string[], cfg: Config): AsyncGenerator<SitemapEvent, void, undefined> {
  const totals: Totals = {
    sitemaps: 0,
    urls: 0,
    errors: 0,
    warnings: 0,
    infos: 0,
    queued: starts.length,
    sitemapsCut: false,
    stoppedBy: null,
  };
  const seen = new Set<string>();
  const stack: Pending[] = [];
  for (let i = starts.length - 1; i >= 0; i--) {
    stack.push({ url: String(starts[i]), parent: null, depth: 0, ancestors: [] });
  }
  while (stack.length > 0) {
    if (cfg.signal?.aborted) {
      totals.stoppedBy = 'aborted';
      break;
    }
    const pending = stack.pop()!;
    totals.queued--;
    if (totals.sitemaps >= cfg.maxSitemaps) {
      const log = new FileLog(pending.url, cfg.maxDiagnostics, totals);
      yield log.add(
        'too-many-sitemaps',
        `the walk reached its limit of ${plural(cfg.maxSitemaps, 'sitemap')}: ${plural(stack.length + 1, 'sitemap')} not read, starting with this one`,
        null,
      );
      totals.stoppedBy = 'max-sitemaps';
      break;
    }
    totals.sitemaps++;
    const children: Pending[] = [];
    yield* readOne(pending, cfg, totals, seen, children);
    if (totals.stoppedBy !== null) break;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  yield {
    type: 'end',
    summary: {
      sitemaps: totals.sitemaps,
      urls: totals.urls,
      errors: totals.errors,
      warnings: totals.warnings,
      infos: totals.infos,
      stoppedBy: totals.stoppedBy ?? (totals.sitemapsCut ? 'max-sitemaps' : null),
    },
  };
}

/** Reads one file; pushes the children of an index to `children`. */
async function* readOne(
  pending: Pending,
  cfg: Config,
  totals: Totals,
  seen: Set<string>,
  children: Pending[],
): AsyncGenerator<SitemapEvent, void, undefined> {
  const log = new FileLog(pending.url, cfg.maxDiagnostics, totals);
  let format: SitemapFormat = 'unknown';
  let finalUrl: string | null = null;
  let status: number | null = null;
  let urls = 0;
  let truncated = false;
  const body: BodyState = { gzip: false, bytes: 0, overCap: false, gzipError: null };
  const report = (): SitemapEvent => {
    const r: SitemapReport = {
      url: pending.url,
      finalUrl,
      parent: pending.parent,
      depth: pending.depth,
      format,
      status,
      gzip: body.gzip,
      bytes: body.bytes,
      urls,
      sitemaps: children.length,
      truncated,
      diagnostics: log.kept,
      counts: log.counts,
    };
    return { type: 'sitemap', report: r };
  };

  const self = (() => {
    try {
      const u = new URL(pending.url);
      return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
    } catch {
      return null;
    }
  })();
  if (self === null) {
    yield log.add('invalid-url', `not an absolute http or https URL: ${JSON.stringify(pending.url)}`, null);
    yield report();
    return;
  }
  const selfKey = keyOf(self);
  seen.add(selfKey);
  const rule: ScopeRule = { scope: cfg.scope, origin: self.origin, directory: directoryOf(self), allowed: cfg.allowed };

  let close: (() => void) | null = null;
  try {
    const opened = await httpGet(self.href, {
      fetch: cfg.fetch,
      headers: cfg.headers,
      maxRedirects: cfg.maxRedirects,
      timeouts: { headers: cfg.headersMs, idle: cfg.idleMs, total: cfg.totalMs },
      ...(cfg.signal ? { signal: cfg.signal } : {}),
    });
    finalUrl = opened.finalUrl;
    status = opened.status;
    if (!opened.ok) {
      if (opened.error.kind === 'aborted') totals.stoppedBy = 'aborted';
      else if (opened.status !== null && opened.error.kind === 'protocol') {
        yield log.add('http-error', `HTTP status ${opened.status} from ${opened.finalUrl}`, null);
      } else yield log.add('fetch-failed', `${opened.error.kind}: ${opened.error.message}`, null);
      yield report();
      return;
    }
    close = opened.close;

    const items: RawItem[] = [];
    const push = (item: RawItem) => items.push(item);
    let parser: ContentParser | null = null;
    const decoder = new TextDecoder('utf-8');
    let lead = '';
    /** Records (valid or not) seen in this file, against `maxUrlsPerFile`. */
    let records = 0;
    let stop = false;

    /** Turns the parser's items into events; sets `stop` when the file or the walk must end. */
    const drain = function* (): Generator<SitemapEvent> {
      for (let i = 0; i < items.length && !stop; i++) {
        const item = items[i]!;
        switch (item.kind) {
          case 'format': {
            format = item.format;
            const expected = EXPECTED_NS[item.format];
            if (expected !== undefined && item.namespace !== expected) {
              yield log.add(
                'wrong-namespace',
                item.namespace === null
                  ? `<${item.format}> without the namespace ${expected}`
                  : `namespace ${item.namespace} instead of ${expected ?? 'none'}`,
                item.line,
              );
            }
            if (item.format === 'sitemapindex' && pending.depth > 0) {
              yield log.add(
                'nested-index',
                'a sitemap index listed by another index (the protocol forbids nesting)',
                null,
              );
            }
            break;
          }
          case 'fatal':
            yield log.add(item.code, item.message, item.line);
            truncated = item.code === 'xml-error' || truncated;
            stop = true;
            break;
          case 'url':
          case 'sitemap': {
            if (records >= cfg.maxUrlsPerFile) {
              yield log.add(
                'too-many-urls',
                `more than ${plural(cfg.maxUrlsPerFile, 'entry', 'entries')}: read the first ${cfg.maxUrlsPerFile.toLocaleString('en-US')}, stopped reading at line ${item.line}; the rest of the file was not downloaded`,
                item.line,
              );
              truncated = true;
              stop = true;
              break;
            }
            records++;
            if (item.loc === null) {
              yield log.add(
                'missing-loc',
                item.kind === 'sitemap' ? '<sitemap> without <loc>' : 'entry without a location',
                item.line,
              );
              break;
            }
            const checked = checkLoc(item.loc, self.href);
            if (!('url' in checked)) {
              yield log.add(checked.code, checked.message, item.line);
              break;
            }
            const url = checked.url;
            if (item.kind === 'sitemap') {
              yield* acceptChild(url, item.line);
              break;
            }
            if (!inScope(url, rule)) {
              yield log.add(
                'out-of-scope-url',
                cfg.scope === 'origin'
                  ? `${url.href} is not on ${rule.origin}`
                  : `${url.href} is outside this sitemap's location ${rule.directory} (sitemaps.org location rules)`,
                item.line,
              );
              break;
            }
            if (url.href.length >= MAX_URL_CHARS) {
              yield log.add(
                'url-too-long',
                `URL of ${url.href.length} characters (the limit is under 2,048)`,
                item.line,
              );
            }
            let lastmod: string | null = null;
            if (item.lastmod !== null) {
              const feed = format === 'rss' || format === 'atom';
              if (feed ? isFeedDate(item.lastmod) : isW3cDatetime(item.lastmod)) lastmod = item.lastmod;
              else
                yield log.add(
                  'invalid-lastmod',
                  `lastmod ${JSON.stringify(item.lastmod.slice(0, 100))} is not a ${feed ? 'date' : 'W3C Datetime'}`,
                  item.line,
                );
            }
            const changefreq = item.changefreq === null ? null : parseChangefreq(item.changefreq);
            if (item.changefreq !== null && changefreq === null) {
              yield log.add(
                'invalid-changefreq',
                `changefreq ${JSON.stringify(item.changefreq.slice(0, 100))} is not always, hourly, daily, weekly, monthly, yearly or never`,
                item.line,
              );
            }
            const priority = item.priority === null ? null : parsePriority(item.priority);
            if (item.priority !== null && priority === null) {
              yield log.add(
                'invalid-priority',
                `priority ${JSON.stringify(item.priority.slice(0, 100))} is not a number from 0.0 to 1.0`,
                item.line,
              );
            }
            if (totals.urls >= cfg.maxUrls) {
              yield log.add(
                'url-limit-reached',
                `the walk reached its limit of ${plural(cfg.maxUrls, 'URL')}`,
                item.line,
              );
              totals.stoppedBy = 'max-urls';
              truncated = true;
              stop = true;
              break;
            }
            const entry: SitemapEntry = { loc: url.href, lastmod, changefreq, priority, sitemap: pending.url };
            urls++;
            totals.urls++;
            yield { type: 'url', entry };
            break;
          }
        }
      }
      items.length = 0;
    };

    /** Children of this index refused for the walk's limit on sitemaps. */
    let notQueued = 0;
    const acceptChild = function* (url: URL, line: number): Generator<SitemapEvent> {
      const key = keyOf(url);
      if (key === selfKey || pending.ancestors.includes(key)) {
        yield log.add('sitemap-loop', `${url.href} lists itself through this index: not read again`, line);
        return;
      }
      if (seen.has(key)) {
        yield log.add('duplicate-sitemap', `${url.href} was already read in this walk`, line);
        return;
      }
      if (!childInScope(url, rule)) {
        yield log.add(
          'cross-host-sitemap',
          `${url.href} is not on ${rule.origin}: an index may list only its own site's sitemaps`,
          line,
        );
        return;
      }
      if (pending.depth + 1 > cfg.maxDepth) {
        yield log.add('too-deep', `${url.href} is nested deeper than ${cfg.maxDepth} levels: not read`, line);
        return;
      }
      // What is held across files stays within maxSitemaps: read, queued, and this index's accepted children.
      if (totals.sitemaps + totals.queued >= cfg.maxSitemaps) {
        notQueued++;
        return;
      }
      seen.add(key);
      totals.queued++;
      children.push({
        url: url.href,
        parent: pending.url,
        depth: pending.depth + 1,
        ancestors: [...pending.ancestors, selfKey],
      });
    };

    for await (const chunk of uncompressed(opened.chunks, cfg.maxBytesPerFile, body)) {
      let text = decoder.decode(chunk, { stream: true });
      if (parser === null) {
        lead += text;
        const first = lead.search(/\S/);
        if (first < 0) continue;
        parser = lead[first] === '<' ? createXmlParser(push) : createTextParser(push);
        text = lead;
        lead = '';
      }
      parser.write(text);
      yield* drain();
      if (stop) break;
    }
    if (!stop) {
      const bodyError = opened.bodyError();
      if (bodyError?.kind === 'aborted') {
        totals.stoppedBy = 'aborted';
        truncated = true;
      } else if (bodyError !== null) {
        truncated = true;
        yield log.add(
          'fetch-failed',
          `${bodyError.kind} while reading the body: ${bodyError.message}`,
          parser?.line ?? null,
        );
      } else if (body.gzipError !== null) {
        truncated = true;
        yield log.add('gzip-error', `the gzip stream is corrupt: ${body.gzipError}`, parser?.line ?? null);
      } else if (body.overCap) {
        truncated = true;
        yield log.add(
          'too-large',
          `larger than ${plural(cfg.maxBytesPerFile, 'byte')} uncompressed: read the first ${plural(cfg.maxBytesPerFile, 'byte')} (${plural(records, 'entry', 'entries')}, to line ${parser?.line ?? 1}); the rest was not downloaded`,
          parser?.line ?? null,
        );
      } else {
        const tail = decoder.decode();
        if (parser === null) {
          lead += tail;
          if (lead.trim() === '') {
            yield log.add('not-a-sitemap', 'the file is empty', null);
          }
        } else {
          parser.write(tail);
          parser.end();
          yield* drain();
        }
      }
    }
    if (notQueued > 0) {
      totals.sitemapsCut = true;
      yield log.add(
        'too-many-sitemaps',
        `the walk's limit of ${plural(cfg.maxSitemaps, 'sitemap')} left no room for the rest of this index: ${plural(notQueued, 'sitemap')} not read`,
        null,
      );
    }
  } finally {
    close?.();
  }
  yield report();
}
