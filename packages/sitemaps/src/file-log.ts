/**
 * What a walk keeps across files (its running totals, the sitemaps waiting to be read) and the diagnostics of one
 * file: each counted by code and severity, the first `maxDiagnosticsPerFile` kept for the file's report.
 */

import { SITEMAP_DIAGNOSTIC_SEVERITY } from './diagnostics.js';
import type { SitemapDiagnostic, SitemapDiagnosticCode, SitemapEvent, WalkSummary } from './types.js';

/** A sitemap waiting to be read. */
export interface Pending {
  readonly url: string;
  readonly parent: string | null;
  readonly depth: number;
  /** The indexes above it, for loop detection. */
  readonly ancestors: readonly string[];
}

/** The walk's running totals. */
export interface Totals {
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

/** `n` and the noun, with thousands separators: `1,000 sitemaps`, `1 URL`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The per-file bookkeeping of diagnostics. */
export class FileLog {
  readonly kept: SitemapDiagnostic[] = [];
  readonly counts: Partial<Record<SitemapDiagnosticCode, number>> = {};

  constructor(
    private readonly sitemap: string,
    private readonly max: number,
    private readonly totals: Totals,
  ) {}

  /** Counts a diagnostic of this file and returns its event. */
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
