/**
 * Text sitemaps (sitemaps.org "Text file"): one URL per line, UTF-8, nothing else. Blank lines are skipped; every
 * other line is an entry (the caller reports lines that are not URLs).
 */

import { type ContentParser, MAX_FIELD_CHARS, type RawItem } from './items.js';

/** A streaming text sitemap parser that pushes {@link RawItem}s to `emit`. */
export function createTextParser(emit: (item: RawItem) => void): ContentParser {
  let line = 1;
  let pending = '';
  let overlong = false;
  emit({ kind: 'format', format: 'text', namespace: null, line: 1 });

  const flush = (text: string) => {
    const loc = text.trim();
    if (loc !== '') emit({ kind: 'url', loc, lastmod: null, changefreq: null, priority: null, line });
  };

  return {
    write(chunk: string) {
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf('\n', start);
        if (nl < 0) break;
        const piece = chunk.slice(start, nl);
        flush(overlong ? `${pending.slice(0, MAX_FIELD_CHARS)}…` : pending + piece);
        pending = '';
        overlong = false;
        line++;
        start = nl + 1;
      }
      if (!overlong) {
        pending += chunk.slice(start);
        // A "line" of megabytes is not a URL: keep a prefix, enough to report it.
        if (pending.length > MAX_FIELD_CHARS) overlong = true;
      }
    },
    end() {
      flush(overlong ? `${pending.slice(0, MAX_FIELD_CHARS)}…` : pending);
      pending = '';
    },
    get line() {
      return line;
    },
  };
}
