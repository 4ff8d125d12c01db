/**
 * Collecting a walk's events for assertions (small walks only: the scale tests count without collecting).
 */

import type {
  SitemapDiagnostic,
  SitemapEntry,
  SitemapEvent,
  SitemapOptions,
  SitemapReport,
  WalkSummary,
} from '../src/index.js';
import { readSitemaps } from '../src/index.js';

/** Everything a walk yielded, by kind, plus the order of event types. */
export interface Walk {
  readonly entries: SitemapEntry[];
  readonly diagnostics: SitemapDiagnostic[];
  readonly reports: SitemapReport[];
  readonly summary: WalkSummary;
  readonly order: string[];
  /** The codes of the diagnostics, in order. */
  readonly codes: string[];
}

/** Collects the events of any walk. */
export async function collectEvents(events: AsyncIterable<SitemapEvent | { type: 'robots' }>): Promise<Walk> {
  const entries: SitemapEntry[] = [];
  const diagnostics: SitemapDiagnostic[] = [];
  const reports: SitemapReport[] = [];
  const order: string[] = [];
  let summary: WalkSummary | null = null;
  for await (const event of events) {
    order.push(event.type);
    if (event.type === 'url') entries.push(event.entry);
    else if (event.type === 'diagnostic') diagnostics.push(event.diagnostic);
    else if (event.type === 'sitemap') reports.push(event.report);
    else if (event.type === 'end') summary = event.summary;
  }
  if (summary === null) throw new Error('the walk ended without an end event');
  return { entries, diagnostics, reports, summary, order, codes: diagnostics.map((d) => d.code) };
}

/** Walks `urls` and collects. */
export function walk(urls: string | string[], options: SitemapOptions = {}): Promise<Walk> {
  return collectEvents(readSitemaps(urls, options));
}
