/**
 * `robotskit sitemaps <url> [--urls] [--limit N] [--json] [--sitemap] [--max-sitemaps N] [--scope …] [--timeout <s>] [--max-time <s>]`: the sitemaps a
 * site's robots.txt lists, as a tree with URL counts and problems, or (`--urls`) the page URLs they list, streamed.
 *
 * Exit 0 when every file was read without errors or warnings; 1 when problems were found (a diagnostic of severity
 * error or warning in any file, or a robots.txt that lists no sitemap); 2 on usage errors and when the starting point
 * cannot be read (the robots.txt, or with `--sitemap` the sitemap itself: network error, timeout, 5xx).
 */

import { RobotsUrlError } from 'robotskit';
import { describeFetchOutcome } from 'robotskit/fetch';
import {
  readSitemaps,
  type SitemapDiagnostic,
  type SitemapOptions,
  type SitemapReport,
  type SitemapScope,
  type SiteSitemapEvent,
  siteSitemaps,
  type WalkSummary,
} from 'robotskit-sitemaps';
import { CliError, type Io } from '../io.js';
import { type Paint, painter, useColor, visible } from '../output/paint.js';

/** Options of `sitemaps`, as commander parsed them. */
export interface SitemapsCommandOptions {
  readonly urls?: boolean;
  readonly json?: boolean;
  /** The argument is a sitemap (or index) itself, not a site. */
  readonly sitemap?: boolean;
  readonly limit?: string;
  readonly maxSitemaps?: string;
  readonly scope: SitemapScope;
  /** Seconds per file, as typed. */
  readonly timeout?: string;
  /** `--max-time <s>`: the whole walk's budget. */
  readonly maxTime?: string;
}

/** Diagnostics printed per file in the tree; the rest are counted. */
const SHOWN_PER_FILE = 10;

function parseCount(text: string | undefined, option: string): number {
  if (text === undefined) return Infinity;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${option} must be a positive whole number, not '${text}'`);
  return n;
}

function parseTimeout(text: string | undefined): SitemapOptions['timeouts'] | undefined {
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new CliError(`--timeout must be a positive number of seconds, not '${text}'`);
  }
  const ms = Math.round(seconds * 1000);
  return { headers: Math.min(ms, 10_000), idle: Math.min(ms, 15_000), total: ms };
}

/** The default of `--max-time`: the whole walk's budget, in seconds. */
const DEFAULT_MAX_TIME_S = 300;

function parseMaxTime(text: string | undefined): number {
  if (text === undefined) return DEFAULT_MAX_TIME_S;
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds * 1000 > 2_147_483_647) {
    throw new CliError(`--max-time must be a positive number of seconds (at most 24 days), not '${text}'`);
  }
  return seconds;
}

function httpUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    const hint = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? '' : ` (did you mean 'https://${text}'?)`;
    throw new CliError(`not an absolute URL: '${text}'${hint}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`only http and https URLs can be read, not '${text}'`);
  }
  return url.href;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/**
 * Writes to standard output, waiting when the pipe is full (so `--urls` on a million URLs holds O(1) of them) and
 * noticing when the reader went away (`| head`), after which nothing more is written.
 */
class Output {
  closed = false;
  private readonly stream: {
    write(text: string): unknown;
    once?: (event: string, fn: (e?: unknown) => void) => unknown;
    on?: (event: string, fn: (e: unknown) => void) => unknown;
    off?: (event: string, fn: (e?: unknown) => void) => unknown;
  };
  private readonly onError = (e: unknown) => {
    if ((e as { code?: unknown })?.code === 'EPIPE') this.closed = true;
  };

  constructor(io: Io) {
    this.stream = io.stdout as Output['stream'];
    this.stream.on?.('error', this.onError);
  }

  async write(text: string): Promise<void> {
    if (this.closed) return;
    const ok = this.stream.write(text);
    const { once, off } = this.stream;
    if (ok !== false || typeof once !== 'function' || typeof off !== 'function') return;
    // Wait for room, or for the pipe to break (then nothing more is written).
    await new Promise<void>((resolve) => {
      const done = () => {
        off.call(this.stream, 'drain', done);
        off.call(this.stream, 'error', done);
        off.call(this.stream, 'close', done);
        resolve();
      };
      once.call(this.stream, 'drain', done);
      once.call(this.stream, 'error', done);
      once.call(this.stream, 'close', done);
    });
  }

  dispose(): void {
    this.stream.off?.('error', this.onError);
  }
}

function severityColor(d: SitemapDiagnostic): 'red' | 'yellow' | 'dim' {
  return d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'dim';
}

/** `sitemap:line: severity: message [code]`, for standard error in `--urls` mode. */
function diagnosticLine(d: SitemapDiagnostic, paint: Paint): string {
  const where = d.line === null ? d.sitemap : `${d.sitemap}:${d.line}`;
  return `${where}: ${paint(severityColor(d), d.severity)}: ${visible(d.message)} ${paint('dim', `[${d.code}]`)}`;
}

function formatName(report: SitemapReport): string {
  switch (report.format) {
    case 'sitemapindex':
      return `sitemap index, ${plural(report.sitemaps, 'sitemap')}`;
    case 'urlset':
      return `urlset, ${plural(report.urls, 'URL')}`;
    case 'text':
      return `text, ${plural(report.urls, 'URL')}`;
    case 'rss':
      return `RSS feed, ${plural(report.urls, 'URL')}`;
    case 'atom':
      return `Atom feed, ${plural(report.urls, 'URL')}`;
    default:
      return report.status === null ? 'not read' : `HTTP ${report.status}`;
  }
}

/**
 * Why a file was cut short: the read that failed (a timeout in the engine's words, `no complete response within
 * 120 s`, a reset, a corrupt gzip stream), else a limit (size, entries, the walk's URLs).
 */
function cutBy(report: SitemapReport): string {
  const failed = report.diagnostics.find((d) => d.code === 'fetch-failed' || d.code === 'gzip-error');
  if (failed !== undefined) return `cut short: ${failed.message.replace(/: the rest of the file was not read$/, '')}`;
  // Beyond the diagnostics kept for the file, its counts still say a read failed.
  const failures = (report.counts['fetch-failed'] ?? 0) + (report.counts['gzip-error'] ?? 0);
  return failures > 0 ? 'cut short: the read failed' : 'cut at a limit';
}

/** Draws the walk's pre-order reports as a tree, one report at a time. */
class TreePrinter {
  /** For each depth, how many children of the current node at that depth are still to come. */
  private readonly remaining: number[] = [];

  constructor(private readonly paint: Paint) {}

  lines(report: SitemapReport): string[] {
    const d = report.depth;
    this.remaining.length = d + 1;
    let prefix = '';
    if (d > 0) {
      const left = Math.max(0, (this.remaining[d - 1] ?? 1) - 1);
      this.remaining[d - 1] = left;
      for (let level = 0; level < d - 1; level++) prefix += (this.remaining[level] ?? 0) > 0 ? '│  ' : '   ';
      prefix += left > 0 ? '├─ ' : '└─ ';
    }
    this.remaining[d] = report.sitemaps;
    const counts = Object.entries(report.counts);
    const errors = report.diagnostics.filter((x) => x.severity === 'error').length;
    const facts = [formatName(report)];
    if (report.gzip) facts.push('gzip');
    // A file that is no sitemap (an HTML page) or not well-formed is unreadable, not "cut" by a limit.
    const unreadable = (report.counts['not-a-sitemap'] ?? 0) + (report.counts['xml-error'] ?? 0) > 0;
    if (unreadable) facts.push(this.paint('red', 'unreadable'));
    else if (report.truncated) facts.push(this.paint('red', cutBy(report)));
    const total = counts.reduce((sum, [, n]) => sum + (n ?? 0), 0);
    if (total > 0) facts.push(this.paint(errors > 0 ? 'red' : 'yellow', plural(total, 'problem')));
    const out = [`${prefix}${this.paint('bold', report.url)}  ${this.paint('dim', facts.join(', '))}`];
    let inner = prefix.replace(/├─ $/, '│  ').replace(/└─ $/, '   ');
    if (report.sitemaps > 0) inner += '│  ';
    for (const diag of report.diagnostics.slice(0, SHOWN_PER_FILE)) {
      const line = diag.line === null ? '' : `line ${diag.line}: `;
      out.push(
        `${inner}  ${this.paint(severityColor(diag), diag.severity)}: ${line}${visible(diag.message)} ${this.paint('dim', `[${diag.code}]`)}`,
      );
    }
    const hidden = total - Math.min(SHOWN_PER_FILE, report.diagnostics.length);
    if (hidden > 0) {
      const byCode = counts.map(([code, n]) => `${code} ×${n}`).join(', ');
      out.push(`${inner}  ${this.paint('dim', `… ${plural(hidden, 'more problem')} (${byCode})`)}`);
    }
    return out;
  }
}

function summaryLine(summary: WalkSummary): string {
  const parts = [
    plural(summary.sitemaps, 'sitemap'),
    plural(summary.urls, 'URL'),
    plural(summary.errors, 'error'),
    plural(summary.warnings, 'warning'),
  ];
  if (summary.stoppedBy === 'max-urls') parts.push('stopped at --limit');
  if (summary.stoppedBy === 'max-sitemaps') parts.push('stopped at the limit of sitemaps');
  return parts.join(', ');
}

/** The JSON document of the tree mode. */
export interface SitemapsJson {
  /** The robots.txt read, unless `--sitemap`. */
  readonly robotsTxt: {
    readonly url: string;
    readonly status: number | null;
    readonly sitemaps: readonly string[];
  } | null;
  /** One report per file, in walk order (pre-order). */
  readonly sitemaps: readonly SitemapReport[];
  /** Diagnostics about the walk rather than one file (`too-many-sitemaps`). */
  readonly walk: readonly SitemapDiagnostic[];
  readonly summary: WalkSummary;
}

/** The walk's options from the command's, and the budget that ends the whole walk. */
function walkOptionsOf(options: SitemapsCommandOptions): {
  walkOptions: SitemapOptions;
  budget: AbortSignal;
  maxTime: number;
  fileTimeoutMs: number | undefined;
} {
  const limit = parseCount(options.limit, '--limit');
  const maxSitemaps = parseCount(options.maxSitemaps, '--max-sitemaps');
  const timeouts = parseTimeout(options.timeout);
  const maxTime = parseMaxTime(options.maxTime);
  // The whole walk's budget: 1,000 files of up to 120 s each would otherwise be more than a day and a half.
  const budget = AbortSignal.timeout(maxTime * 1000);
  const walkOptions: SitemapOptions = {
    signal: budget,
    scope: options.scope,
    ...(limit === Infinity ? {} : { maxUrls: limit }),
    ...(maxSitemaps === Infinity ? {} : { maxSitemaps }),
    ...(timeouts === undefined ? {} : { timeouts }),
  };
  return { walkOptions, budget, maxTime, fileTimeoutMs: timeouts?.total };
}

/** What the command shows of a walk: each event as it comes (the tree, or the URLs), and the end. */
class WalkView {
  private readonly reports: SitemapReport[] = [];
  /** Candidates for diagnostics about the walk rather than a file: kept unless a report of their file follows. */
  private readonly walkDiagnostics: SitemapDiagnostic[] = [];
  /** The files that have a report (at most maxSitemaps). */
  private readonly reported = new Set<string>();
  private robotsTxt: SitemapsJson['robotsTxt'] = null;
  private summary: WalkSummary | null = null;
  private first: SitemapReport | null = null;
  private readonly paint: Paint;
  private readonly paintErr: Paint;
  private readonly tree: TreePrinter;
  /** The tree for people (neither --urls nor --json). */
  private readonly textTree: boolean;
  /** One JSON document of reports (--json without --urls). */
  private readonly document: boolean;

  constructor(
    private readonly io: Io,
    private readonly options: SitemapsCommandOptions,
    private readonly out: Output,
    private readonly fileTimeoutMs: number | undefined,
  ) {
    this.paint = painter(useColor(io));
    this.paintErr = painter(useColor(io, 'stderr'));
    this.tree = new TreePrinter(this.paint);
    this.textTree = !options.urls && !options.json;
    this.document = options.json === true && !options.urls;
  }

  /** Shows one event; returns an exit code when the command ends there. */
  async show(event: SiteSitemapEvent): Promise<number | null> {
    const { options, out } = this;
    switch (event.type) {
      case 'robots':
        return this.showRobots(event.site);
      case 'url':
        if (options.urls) await out.write(options.json ? `${JSON.stringify(event.entry)}\n` : `${event.entry.loc}\n`);
        break;
      case 'diagnostic':
        if (options.urls) this.io.stderr.write(`${diagnosticLine(event.diagnostic, this.paintErr)}\n`);
        if (event.diagnostic.code === 'too-many-sitemaps') this.walkDiagnostics.push(event.diagnostic);
        break;
      case 'sitemap':
        this.first ??= event.report;
        this.reported.add(event.report.url);
        if (this.document) this.reports.push(event.report);
        else if (this.textTree) for (const line of this.tree.lines(event.report)) await out.write(`${line}\n`);
        break;
      case 'end':
        this.summary = event.summary;
        break;
    }
    return null;
  }

  /** The site's robots.txt: what it lists, or why the walk ends before it starts (exit 1; 2 when unreadable). */
  private async showRobots(site: Extract<SiteSitemapEvent, { type: 'robots' }>['site']): Promise<number | null> {
    const { retrieval, sitemaps, robotsUrl } = site;
    if (retrieval.outcome === 'disallow-all') {
      const words = describeFetchOutcome(
        retrieval,
        this.fileTimeoutMs === undefined ? {} : { timeoutMs: this.fileTimeoutMs },
      );
      throw new CliError(`cannot read ${robotsUrl}: ${words.summary}`);
    }
    this.robotsTxt = { url: robotsUrl, status: retrieval.status, sitemaps };
    if (sitemaps.length > 0) {
      if (this.textTree) {
        await this.out.write(`${this.paint('dim', `${robotsUrl}: ${plural(sitemaps.length, 'sitemap')}`)}\n`);
      }
      return null;
    }
    const why =
      retrieval.outcome === 'allow-all'
        ? `there is no robots.txt (${retrieval.error === null ? `HTTP ${retrieval.status}` : retrieval.error.message})`
        : 'the robots.txt lists no sitemap';
    this.io.stderr.write(`robotskit: ${robotsUrl}: ${why}\n`);
    if (this.document) {
      const doc: SitemapsJson = {
        robotsTxt: this.robotsTxt,
        sitemaps: [],
        walk: [],
        summary: { sitemaps: 0, urls: 0, errors: 0, warnings: 0, infos: 0, stoppedBy: null },
      };
      await this.out.write(`${JSON.stringify(doc, null, 2)}\n`);
    }
    return 1;
  }

  /** After the last event: the JSON document or the tree's end and the summary; returns the exit code. */
  async finish(budget: AbortSignal, maxTime: number): Promise<number> {
    const { io, out, paint, paintErr, first } = this;
    const summary = this.summary;
    if (summary === null) throw new Error('the walk ended without a summary');
    if (summary.stoppedBy === 'aborted' && budget.aborted) {
      io.stderr.write(
        `${paintErr('yellow', 'robotskit:')} the walk stopped at its time budget of ${maxTime} s (--max-time); what it read until then is shown\n`,
      );
    }
    const walkDiagnostics = this.walkDiagnostics.filter((d) => !this.reported.has(d.sitemap));
    // With --sitemap, a starting file that could not be fetched is an I/O error, like a robots.txt that cannot be read.
    if (this.options.sitemap && first !== null && first.urls === 0 && first.sitemaps === 0) {
      const failure = first.diagnostics.find((d) => d.code === 'fetch-failed' || d.code === 'http-error');
      if (failure !== undefined) throw new CliError(`cannot read ${first.url}: ${failure.message}`);
    }
    if (this.document) {
      const doc: SitemapsJson = { robotsTxt: this.robotsTxt, sitemaps: this.reports, walk: walkDiagnostics, summary };
      await out.write(`${JSON.stringify(doc, null, 2)}\n`);
    } else if (this.textTree) {
      for (const d of walkDiagnostics)
        await out.write(`${paint('yellow', d.severity)}: ${visible(d.message)} ${paint('dim', `[${d.code}]`)}\n`);
      await out.write(`\n${summaryLine(summary)}\n`);
    } else {
      io.stderr.write(`${paintErr('dim', `robotskit: ${summaryLine(summary)}`)}\n`);
    }
    return summary.errors + summary.warnings > 0 ? 1 : 0;
  }
}

/** Runs `sitemaps`; returns the exit code. */
export async function runSitemaps(io: Io, target: string, options: SitemapsCommandOptions): Promise<number> {
  const { walkOptions, budget, maxTime, fileTimeoutMs } = walkOptionsOf(options);
  const events: AsyncIterable<SiteSitemapEvent> = options.sitemap
    ? readSitemaps(httpUrl(target), walkOptions)
    : siteSitemaps(httpUrl(target), walkOptions);
  const out = new Output(io);
  const view = new WalkView(io, options, out, fileTimeoutMs);
  try {
    for await (const event of events) {
      if (out.closed) break;
      const code = await view.show(event);
      if (code !== null) return code;
    }
  } catch (error) {
    if (error instanceof RobotsUrlError) throw new CliError(error.message);
    throw error;
  } finally {
    out.dispose();
  }
  if (out.closed) return 0;
  return view.finish(budget, maxTime);
}
