/**
 * `readSitemaps`: the walk. One file at a time, pre-order: a file's entries and diagnostics as they are read, then its
 * report, then (for an index) its children. Nothing is collected: a consumer iterating a million URLs holds only the
 * entries of the chunk being parsed (at most 64 KiB of text). What is held across files is bounded by `maxSitemaps`:
 * the URLs of the sitemaps already seen (for loop and duplicate detection) and those waiting to be read. Each file is
 * read by `read-file.ts`.
 */

import { type Config, configure } from './config.js';
import { FileLog, type Pending, plural, type Totals } from './file-log.js';
import { keyOf, readFile } from './read-file.js';
import type { SitemapEvent, SitemapOptions } from './types.js';

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
    yield* readFile(pending, cfg, totals, seen, children);
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
