/**
 * The shapes of a sitemap walk: entries, diagnostics, per-file reports, events and options. Plain data throughout, so
 * every value can be stored or sent as JSON.
 */

import type { FetchLike } from 'robotskit/fetch';

/** What a sitemap file turned out to be. */
export type SitemapFormat =
  /** `<urlset>`: page URLs (sitemaps.org 0.9). */
  | 'urlset'
  /** `<sitemapindex>`: a list of sitemap files. */
  | 'sitemapindex'
  /** One URL per line, UTF-8 (sitemaps.org "Text file"). */
  | 'text'
  /** RSS 2.0 feed: each `<item>`'s `<link>` is a page (sitemaps.org "Syndication feed"). */
  | 'rss'
  /** Atom 1.0 feed: each `<entry>`'s `<link href>` is a page. */
  | 'atom'
  /** Not read far enough to know (fetch failed), or not a sitemap at all. */
  | 'unknown';

/** How strictly entries are held to the sitemaps protocol's location rules. */
export type SitemapScope =
  /**
   * sitemaps.org "Sitemap file location": a sitemap may list URLs under its own directory
   * (`https://example.com/catalog/sitemap.xml` → `https://example.com/catalog/…`), plus any URL of an origin whose
   * robots.txt listed it (cross-submission through robots.txt). A sitemap index's children must be on the index's
   * origin or an allowed origin.
   */
  | 'protocol'
  /** Any URL on the sitemap's own origin (scheme, host and port) or an allowed origin. */
  | 'origin'
  /** No location check: every absolute http(s) URL is kept. */
  | 'none';

/** Stable kebab-case codes of everything a walk reports. */
export type SitemapDiagnosticCode =
  /** The server answered with a status other than 2xx (after redirects). The file is skipped. */
  | 'http-error'
  /** The network failed, a timeout ran out, or too many redirects: the file (or its rest) was not read. */
  | 'fetch-failed'
  /** The gzip stream is corrupt; what was decompressed before the damage is kept. */
  | 'gzip-error'
  /** The XML is not well-formed; reading stopped there, entries before the error are kept. */
  | 'xml-error'
  /** The file is neither a urlset, a sitemap index, a text sitemap, RSS nor Atom (an HTML page, another XML root…). */
  | 'not-a-sitemap'
  /** The root element is not in the sitemaps.org 0.9 namespace. Read anyway. */
  | 'wrong-namespace'
  /** More than `maxUrlsPerFile` entries (50,000 by the protocol): the first ones are kept, the rest not read. */
  | 'too-many-urls'
  /** More than `maxBytesPerFile` bytes uncompressed (50 MB by the protocol): the rest was not downloaded. */
  | 'too-large'
  /** A `<url>` or `<sitemap>` without `<loc>`, or an RSS item or Atom entry without a link. Skipped. */
  | 'missing-loc'
  /** A location that is not an absolute http or https URL. Skipped. */
  | 'invalid-url'
  /** A relative location (the protocol requires absolute URLs). Skipped. */
  | 'relative-url'
  /** A URL outside the sitemap's scope (see {@link SitemapScope}). Skipped. */
  | 'out-of-scope-url'
  /** A URL of 2,048 characters or more (the protocol's limit). Kept. */
  | 'url-too-long'
  /** A `<lastmod>` that is not a W3C Datetime (or, in feeds, not a date). The entry is kept without it. */
  | 'invalid-lastmod'
  /** A `<changefreq>` other than always, hourly, daily, weekly, monthly, yearly, never. Kept without it. */
  | 'invalid-changefreq'
  /** A `<priority>` that is not a number from 0.0 to 1.0. Kept without it. */
  | 'invalid-priority'
  /** A sitemap index lists another index; the protocol forbids it. Followed while within `maxDepth`. */
  | 'nested-index'
  /** An index nested deeper than `maxDepth`: not read. */
  | 'too-deep'
  /** An index lists itself or one of its ancestors: not read again. */
  | 'sitemap-loop'
  /** A sitemap already read (or queued) in this walk: not read twice. */
  | 'duplicate-sitemap'
  /** A sitemap index lists a sitemap on another origin (see {@link SitemapScope}): not read. */
  | 'cross-host-sitemap'
  /** The walk reached `maxSitemaps`: the sitemaps an index lists beyond it (or the remaining starting files) were not read. */
  | 'too-many-sitemaps'
  /** The walk reached `maxUrls`: it stopped there. */
  | 'url-limit-reached';

/** How serious a diagnostic is: `error` loses data or a file, `warning` breaks the protocol, `info` is a fact. */
export type SitemapSeverity = 'error' | 'warning' | 'info';

/** One problem or fact, as data. */
export interface SitemapDiagnostic {
  readonly code: SitemapDiagnosticCode;
  readonly severity: SitemapSeverity;
  /** One line for people. */
  readonly message: string;
  /** The sitemap file it is about (as listed, before redirects). */
  readonly sitemap: string;
  /** 1-based line in the (uncompressed) file; null when it is about the file as a whole. */
  readonly line: number | null;
}

/** How often a page changes, as the protocol spells it. */
export type ChangeFreq = 'always' | 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'never';

/** One page URL found in a sitemap. */
export interface SitemapEntry {
  /** The page's absolute URL (WHATWG-serialised). */
  readonly loc: string;
  /** `<lastmod>` as written (W3C Datetime; an RSS `pubDate` or Atom `updated` for feeds); null when absent or invalid. */
  readonly lastmod: string | null;
  /** `<changefreq>`, lower-cased; null when absent or invalid. */
  readonly changefreq: ChangeFreq | null;
  /** `<priority>` from 0 to 1; null when absent or invalid. */
  readonly priority: number | null;
  /** The sitemap file that listed it (as listed, before redirects). */
  readonly sitemap: string;
}

/** What reading one sitemap file found. Emitted after its entries, before its children are read. */
export interface SitemapReport {
  /** The sitemap's URL, as listed. */
  readonly url: string;
  /** The URL that answered (after redirects); null when nothing answered. */
  readonly finalUrl: string | null;
  /** The index that listed it; null for a starting sitemap. */
  readonly parent: string | null;
  /** 0 for a starting sitemap, 1 for a child of an index, and so on. */
  readonly depth: number;
  readonly format: SitemapFormat;
  /** HTTP status of the final response; null when none arrived. */
  readonly status: number | null;
  /** True when the body was gzip (by its magic bytes, after any Content-Encoding the runtime removed). */
  readonly gzip: boolean;
  /** Uncompressed bytes read. */
  readonly bytes: number;
  /** Page URLs kept from this file (for an index: 0). */
  readonly urls: number;
  /** Sitemaps this index lists and that were accepted for reading (for a urlset: 0). */
  readonly sitemaps: number;
  /** True when the file was cut: a limit, an XML error, a broken stream, or the walk's `maxUrls`. */
  readonly truncated: boolean;
  /** The first `maxDiagnosticsPerFile` diagnostics of this file. */
  readonly diagnostics: readonly SitemapDiagnostic[];
  /** Every diagnostic of this file counted by code (including those not kept in `diagnostics`). */
  readonly counts: Readonly<Partial<Record<SitemapDiagnosticCode, number>>>;
}

/** How a walk ended. */
export interface WalkSummary {
  /** Sitemap files read (or attempted). */
  readonly sitemaps: number;
  /** Page URLs emitted. */
  readonly urls: number;
  /** Diagnostics by severity over the whole walk. */
  readonly errors: number;
  readonly warnings: number;
  readonly infos: number;
  /** Why it ended early: `max-urls`, `max-sitemaps`, `aborted`; null when everything was read. */
  readonly stoppedBy: 'max-urls' | 'max-sitemaps' | 'aborted' | null;
}

/**
 * What a walk yields, in order: for each file, its `url` entries and `diagnostic`s as they are read, then its
 * `sitemap` report; the children of an index follow their index's report (a pre-order walk of the tree); `end` last.
 */
export type SitemapEvent =
  | { readonly type: 'url'; readonly entry: SitemapEntry }
  | { readonly type: 'diagnostic'; readonly diagnostic: SitemapDiagnostic }
  | { readonly type: 'sitemap'; readonly report: SitemapReport }
  | { readonly type: 'end'; readonly summary: WalkSummary };

/** Timeouts of one sitemap file, in milliseconds. They hold even if the injected `fetch` ignores its signal. */
export interface SitemapTimeouts {
  /**
   * From sending each request (including redirects) until its response headers arrive: the connect timeout as far as
   * the fetch API has one (name resolution, connection, TLS and the status line are one step).
   * @default 10000
   */
  readonly headers?: number;
  /**
   * The longest the body may stall between two chunks.
   * @default 15000
   */
  readonly idle?: number;
  /**
   * One file's time waiting for the network, from the first request to the last byte. The time the consumer takes
   * between entries is not counted: a slow consumer does not make a file time out.
   * @default 120000
   */
  readonly total?: number;
}

/** Options of a walk. Every limit is configurable; the defaults are the sitemaps protocol's. */
export interface SitemapOptions {
  /**
   * The `fetch` to use (an SSRF guard, a proxy…). It sees every request, redirects included.
   * @default globalThis.fetch
   */
  readonly fetch?: FetchLike;
  /**
   * The `User-Agent` header.
   * @default DEFAULT_SITEMAP_USER_AGENT
   */
  readonly userAgent?: string;
  /** More request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Per file. The site functions (`sitemapsOf`, `siteSitemaps`, `sitePageUrls`) fetch the robots.txt with the ones
   * given here too; the others keep the engine's defaults for it (10 s headers, 10 s idle, 30 s in total).
   */
  readonly timeouts?: SitemapTimeouts;
  /**
   * Redirects followed per file.
   * @default 5
   */
  readonly maxRedirects?: number;
  /**
   * Uncompressed bytes read per file; the rest is not downloaded (`too-large`). Also caps gzip bombs.
   * @default 52428800 (50 MB, the protocol's limit)
   */
  readonly maxBytesPerFile?: number;
  /**
   * Entries (page URLs, or sitemaps of an index) kept per file; reading stops at the next one (`too-many-urls`).
   * @default 50000 (the protocol's limit)
   */
  readonly maxUrlsPerFile?: number;
  /**
   * How deep indexes may nest: 0 reads only the starting files, 1 also their children, and so on.
   * @default 3
   */
  readonly maxDepth?: number;
  /**
   * Sitemap files read per walk (indexes included).
   * @default 1000
   */
  readonly maxSitemaps?: number;
  /**
   * Page URLs emitted per walk; the walk stops after this many.
   * @default Infinity
   */
  readonly maxUrls?: number;
  /**
   * Location rules for entries; see {@link SitemapScope}.
   * @default 'protocol'
   */
  readonly scope?: SitemapScope;
  /**
   * Origins whose robots.txt listed the starting sitemaps: their URLs are in scope of every sitemap of the walk.
   * {@link sitemapsOf}-based walks set it to the site's origin.
   * @default []
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Diagnostics kept in each {@link SitemapReport} (all are still emitted as events and counted).
   * @default 100
   */
  readonly maxDiagnosticsPerFile?: number;
  /** Stops the walk (its end summary says `aborted`). */
  readonly signal?: AbortSignal;
}
