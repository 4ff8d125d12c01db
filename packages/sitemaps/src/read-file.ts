/**
 * Reading one sitemap file of a walk: fetched with the engine's `httpGet` (redirects; timeouts whose total pauses
 * while the walk's consumer is busy; the body as chunks read at the consumer's pace), uncompressed (`body.ts`), its
 * text handed to the parser its first character calls for (XML or text), and each raw item checked into an entry, a
 * child sitemap or a diagnostic, then the file's report. Events are yielded as they are read: a consumer holds the
 * entries of one chunk at most.
 */

import { describeFetchOutcome, type HttpGetResult, httpGet, type RetrievalError } from 'robotskit/fetch';
import { type BodyState, uncompressed } from './body.js';
import type { Config } from './config.js';
import { FileLog, type Pending, plural, type Totals } from './file-log.js';
import type { ContentParser, RawItem } from './parse/items.js';
import { createTextParser } from './parse/text.js';
import { ATOM_NS, createXmlParser, SITEMAP_NS } from './parse/xml.js';
import type { SitemapDiagnosticCode, SitemapEntry, SitemapEvent, SitemapFormat, SitemapReport } from './types.js';
import {
  checkLoc,
  childInScope,
  directoryOf,
  inScope,
  isFeedDate,
  isW3cDatetime,
  MAX_URL_CHARS,
  parseChangefreq,
  parsePriority,
  type ScopeRule,
} from './validate.js';

const EXPECTED_NS: Partial<Record<SitemapFormat, string | null>> = {
  urlset: SITEMAP_NS,
  sitemapindex: SITEMAP_NS,
  rss: null,
  atom: ATOM_NS,
};

/** Normalises a sitemap URL for loop and duplicate detection (WHATWG serialisation, no fragment). */
export function keyOf(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/** An absolute http(s) URL, or null. */
function httpUrl(text: string): URL | null {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

/** A raw page or child record (`url` or `sitemap` item). */
type RecordItem = Extract<RawItem, { kind: 'url' | 'sitemap' }>;
type PageItem = Extract<RawItem, { kind: 'url' }>;

/** The file being read, where it is, and what it found so far. */
interface Place {
  readonly self: URL;
  readonly selfKey: string;
  readonly rule: ScopeRule;
}

/**
 * Reads one file: its entries and diagnostics as they are read, then its report. The children of an index go to
 * `children` (for the walk to read after this file), and their keys to `seen`.
 */
export async function* readFile(
  pending: Pending,
  cfg: Config,
  totals: Totals,
  seen: Set<string>,
  children: Pending[],
): AsyncGenerator<SitemapEvent, void, undefined> {
  yield* new SitemapFile(pending, cfg, totals, seen, children).read();
}

/** One file's reading. Checks push their events to a queue the reading yields from, item by item. */
class SitemapFile {
  private readonly log: FileLog;
  private format: SitemapFormat = 'unknown';
  private finalUrl: string | null = null;
  private status: number | null = null;
  private urls = 0;
  private truncated = false;
  private readonly body: BodyState = { gzip: false, bytes: 0, overCap: false, gzipError: null };
  /** Records (valid or not) seen in this file, against `maxUrlsPerFile`. */
  private records = 0;
  /** Set when the file or the walk must end. */
  private stop = false;
  /** Children of this index refused for the walk's limit on sitemaps. */
  private notQueued = 0;
  /** What the parser pushed and is not checked yet. */
  private readonly items: RawItem[] = [];
  /** Events of the item being checked, to yield. */
  private readonly queue: SitemapEvent[] = [];
  private parser: ContentParser | null = null;

  constructor(
    private readonly pending: Pending,
    private readonly cfg: Config,
    private readonly totals: Totals,
    private readonly seen: Set<string>,
    private readonly children: Pending[],
  ) {
    this.log = new FileLog(pending.url, cfg.maxDiagnostics, totals);
  }

  async *read(): AsyncGenerator<SitemapEvent, void, undefined> {
    const self = httpUrl(this.pending.url);
    if (self === null) {
      yield this.log.add('invalid-url', `not an absolute http or https URL: ${JSON.stringify(this.pending.url)}`, null);
      yield this.report();
      return;
    }
    const place: Place = {
      self,
      selfKey: keyOf(self),
      rule: { scope: this.cfg.scope, origin: self.origin, directory: directoryOf(self), allowed: this.cfg.allowed },
    };
    this.seen.add(place.selfKey);
    let close: (() => void) | null = null;
    try {
      const opened = await this.open(self);
      if (!opened.ok) {
        const failure = this.failure(opened);
        if (failure !== null) yield failure;
        yield this.report();
        return;
      }
      close = opened.close;
      yield* this.readBody(opened, place);
      if (this.notQueued > 0) {
        this.totals.sitemapsCut = true;
        yield this.log.add(
          'too-many-sitemaps',
          `the walk's limit of ${plural(this.cfg.maxSitemaps, 'sitemap')} left no room for the rest of this index: ${plural(this.notQueued, 'sitemap')} not read`,
          null,
        );
      }
    } finally {
      close?.();
    }
    yield this.report();
  }

  private async open(self: URL): Promise<HttpGetResult> {
    const cfg = this.cfg;
    const opened = await httpGet(self.href, {
      fetch: cfg.fetch,
      headers: cfg.headers,
      maxRedirects: cfg.maxRedirects,
      timeouts: { headers: cfg.headersMs, idle: cfg.idleMs, total: cfg.totalMs },
      ...(cfg.signal ? { signal: cfg.signal } : {}),
    });
    this.finalUrl = opened.finalUrl;
    this.status = opened.status;
    return opened;
  }

  /** Why a file could not be read, as a diagnostic; null when the walk was stopped (aborted). */
  private failure(opened: Extract<HttpGetResult, { ok: false }>): SitemapEvent | null {
    if (opened.error.kind === 'aborted') {
      this.totals.stoppedBy = 'aborted';
      return null;
    }
    if (opened.status !== null && opened.error.kind === 'protocol') {
      return this.log.add('http-error', `HTTP status ${opened.status} from ${opened.finalUrl}`, null);
    }
    return this.log.add('fetch-failed', this.failureWords(opened.status, opened.error, 'request'), null);
  }

  /**
   * A failed fetch in the engine's words (`connection refused`, `no response within 10 s`, `no complete response
   * within 120 s`), as the command and the report service word the same failure; a timeout says which of the file's
   * timeouts ran out and how long it was.
   */
  private failureWords(
    status: number | null,
    error: Pick<RetrievalError, 'kind' | 'code' | 'message'>,
    phase: 'request' | 'body',
  ): string {
    const cfg = this.cfg;
    let timeoutMs: number | undefined;
    if (error.kind === 'timeout') {
      // The transport's total timeout ends with its own message; any other in the request is the wait for headers.
      if (error.message === `not read within ${cfg.totalMs} ms`) timeoutMs = cfg.totalMs;
      else if (phase === 'request') timeoutMs = cfg.headersMs;
      else return `the response stalled: no data for ${seconds(cfg.idleMs)}`;
    }
    return describeFetchOutcome({ status, error: { ...error, phase } }, timeoutMs === undefined ? {} : { timeoutMs })
      .summary;
  }

  /** The body, chunk by chunk, through the parser its first character calls for; then how it ended. */
  private async *readBody(
    opened: Extract<HttpGetResult, { ok: true }>,
    place: Place,
  ): AsyncGenerator<SitemapEvent, void, undefined> {
    const decoder = new TextDecoder('utf-8');
    const push = (item: RawItem) => this.items.push(item);
    let lead = '';
    for await (const chunk of uncompressed(opened.chunks, this.cfg.maxBytesPerFile, this.body)) {
      let text = decoder.decode(chunk, { stream: true });
      if (this.parser === null) {
        lead += text;
        const first = lead.search(/\S/);
        if (first < 0) continue;
        this.parser = lead[first] === '<' ? createXmlParser(push) : createTextParser(push);
        text = lead;
        lead = '';
      }
      this.parser.write(text);
      yield* this.drain(place);
      if (this.stop) return;
    }
    const ending = this.ending(opened);
    if (ending !== undefined) {
      if (ending !== null) yield ending;
      return;
    }
    const tail = decoder.decode();
    if (this.parser === null) {
      if ((lead + tail).trim() === '') yield this.log.add('not-a-sitemap', 'the file is empty', null);
      return;
    }
    this.parser.write(tail);
    this.parser.end();
    yield* this.drain(place);
  }

  /**
   * How a body that did not end well ended: a diagnostic, or null when the walk was stopped; undefined when it ended
   * well (the rest of the text is then parsed).
   */
  private ending(opened: Extract<HttpGetResult, { ok: true }>): SitemapEvent | null | undefined {
    const line = this.parser?.line ?? null;
    const bodyError = opened.bodyError();
    if (bodyError === null && this.body.gzipError === null && !this.body.overCap) return undefined;
    this.truncated = true;
    if (bodyError?.kind === 'aborted') {
      this.totals.stoppedBy = 'aborted';
      return null;
    }
    if (bodyError !== null) {
      return this.log.add(
        'fetch-failed',
        `${this.failureWords(opened.status, bodyError, 'body')}: the rest of the file was not read`,
        line,
      );
    }
    if (this.body.gzipError !== null) {
      return this.log.add('gzip-error', `the gzip stream is corrupt: ${this.body.gzipError}`, line);
    }
    const max = this.cfg.maxBytesPerFile;
    return this.log.add(
      'too-large',
      `larger than ${plural(max, 'byte')} uncompressed: read the first ${plural(max, 'byte')} (${plural(this.records, 'entry', 'entries')}, to line ${this.parser?.line ?? 1}); the rest was not downloaded`,
      line,
    );
  }

  /** Turns the parser's items into events; sets `stop` when the file or the walk must end. */
  private *drain(place: Place): Generator<SitemapEvent> {
    const { items, queue } = this;
    for (let i = 0; i < items.length && !this.stop; i++) {
      this.check(items[i]!, place);
      for (let k = 0; k < queue.length; k++) yield queue[k]!;
      queue.length = 0;
    }
    items.length = 0;
  }

  private note(code: SitemapDiagnosticCode, message: string, line: number | null): void {
    this.queue.push(this.log.add(code, message, line));
  }

  /** Checks one raw item, queueing its events. */
  private check(item: RawItem, place: Place): void {
    switch (item.kind) {
      case 'format':
        this.format = item.format;
        this.checkFormat(item);
        return;
      case 'fatal':
        this.note(item.code, item.message, item.line);
        this.truncated = item.code === 'xml-error' || this.truncated;
        this.stop = true;
        return;
      default:
        this.checkRecord(item, place);
    }
  }

  private checkFormat(item: Extract<RawItem, { kind: 'format' }>): void {
    const expected = EXPECTED_NS[item.format];
    if (expected !== undefined && item.namespace !== expected) {
      this.note(
        'wrong-namespace',
        item.namespace === null
          ? `<${item.format}> without the namespace ${expected}`
          : `namespace ${item.namespace} instead of ${expected ?? 'none'}`,
        item.line,
      );
    }
    if (item.format === 'sitemapindex' && this.pending.depth > 0) {
      this.note('nested-index', 'a sitemap index listed by another index (the protocol forbids nesting)', null);
    }
  }

  /** A page or child record: counted against the file's limit, its location checked, then taken. */
  private checkRecord(item: RecordItem, place: Place): void {
    const max = this.cfg.maxUrlsPerFile;
    if (this.records >= max) {
      this.note(
        'too-many-urls',
        `more than ${plural(max, 'entry', 'entries')}: read the first ${max.toLocaleString('en-US')}, stopped reading at line ${item.line}; the rest of the file was not downloaded`,
        item.line,
      );
      this.truncated = true;
      this.stop = true;
      return;
    }
    this.records++;
    if (item.loc === null) {
      this.note(
        'missing-loc',
        item.kind === 'sitemap' ? '<sitemap> without <loc>' : 'entry without a location',
        item.line,
      );
      return;
    }
    const checked = checkLoc(item.loc, place.self.href);
    if (!('url' in checked)) {
      this.note(checked.code, checked.message, item.line);
      return;
    }
    if (item.kind === 'sitemap') this.acceptChild(checked.url, item.line, place);
    else this.takePage(checked.url, item, place);
  }

  /** A page URL: in scope, its fields checked, within the walk's limit: an entry. */
  private takePage(url: URL, item: PageItem, place: Place): void {
    const { cfg, totals } = this;
    if (!inScope(url, place.rule)) {
      this.note(
        'out-of-scope-url',
        cfg.scope === 'origin'
          ? `${url.href} is not on ${place.rule.origin}`
          : `${url.href} is outside this sitemap's location ${place.rule.directory} (sitemaps.org location rules)`,
        item.line,
      );
      return;
    }
    if (url.href.length >= MAX_URL_CHARS) {
      this.note('url-too-long', `URL of ${url.href.length} characters (the limit is under 2,048)`, item.line);
    }
    const lastmod = this.lastmodOf(item);
    const changefreq = item.changefreq === null ? null : parseChangefreq(item.changefreq);
    if (item.changefreq !== null && changefreq === null) {
      this.note(
        'invalid-changefreq',
        `changefreq ${JSON.stringify(item.changefreq.slice(0, 100))} is not always, hourly, daily, weekly, monthly, yearly or never`,
        item.line,
      );
    }
    const priority = item.priority === null ? null : parsePriority(item.priority);
    if (item.priority !== null && priority === null) {
      this.note(
        'invalid-priority',
        `priority ${JSON.stringify(item.priority.slice(0, 100))} is not a number from 0.0 to 1.0`,
        item.line,
      );
    }
    if (totals.urls >= cfg.maxUrls) {
      this.note('url-limit-reached', `the walk reached its limit of ${plural(cfg.maxUrls, 'URL')}`, item.line);
      totals.stoppedBy = 'max-urls';
      this.truncated = true;
      this.stop = true;
      return;
    }
    const entry: SitemapEntry = { loc: url.href, lastmod, changefreq, priority, sitemap: this.pending.url };
    this.urls++;
    totals.urls++;
    this.queue.push({ type: 'url', entry });
  }

  /** The record's date, when it is one the file's format allows (W3C Datetime; in feeds, any date). */
  private lastmodOf(item: PageItem): string | null {
    if (item.lastmod === null) return null;
    const feed = this.format === 'rss' || this.format === 'atom';
    if (feed ? isFeedDate(item.lastmod) : isW3cDatetime(item.lastmod)) return item.lastmod;
    this.note(
      'invalid-lastmod',
      `lastmod ${JSON.stringify(item.lastmod.slice(0, 100))} is not a ${feed ? 'date' : 'W3C Datetime'}`,
      item.line,
    );
    return null;
  }

  /** A sitemap an index lists: queued for the walk unless it loops, repeats, leaves the site, or is too deep. */
  private acceptChild(url: URL, line: number, place: Place): void {
    const { pending, cfg, totals } = this;
    const key = keyOf(url);
    if (key === place.selfKey || pending.ancestors.includes(key)) {
      this.note('sitemap-loop', `${url.href} lists itself through this index: not read again`, line);
      return;
    }
    if (this.seen.has(key)) {
      this.note('duplicate-sitemap', `${url.href} was already read in this walk`, line);
      return;
    }
    if (!childInScope(url, place.rule)) {
      this.note(
        'cross-host-sitemap',
        `${url.href} is not on ${place.rule.origin}: an index may list only its own site's sitemaps`,
        line,
      );
      return;
    }
    if (pending.depth + 1 > cfg.maxDepth) {
      this.note('too-deep', `${url.href} is nested deeper than ${cfg.maxDepth} levels: not read`, line);
      return;
    }
    // What is held across files stays within maxSitemaps: read, queued, and this index's accepted children.
    if (totals.sitemaps + totals.queued >= cfg.maxSitemaps) {
      this.notQueued++;
      return;
    }
    this.seen.add(key);
    totals.queued++;
    this.children.push({
      url: url.href,
      parent: pending.url,
      depth: pending.depth + 1,
      ancestors: [...pending.ancestors, place.selfKey],
    });
  }

  private report(): SitemapEvent {
    const report: SitemapReport = {
      url: this.pending.url,
      finalUrl: this.finalUrl,
      parent: this.pending.parent,
      depth: this.pending.depth,
      format: this.format,
      status: this.status,
      gzip: this.body.gzip,
      bytes: this.body.bytes,
      urls: this.urls,
      sitemaps: this.children.length,
      truncated: this.truncated,
      diagnostics: this.log.kept,
      counts: this.log.counts,
    };
    return { type: 'sitemap', report };
  }
}

/** Milliseconds in seconds, as the engine's words give them (`0.3 s`, `120 s`). */
function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
