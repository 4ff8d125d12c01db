/**
 * The lint rule `no-sitemap`, one file of the registry (`index.ts`); what it finds and why: docs/lint/no-sitemap.md.
 */

import { defineRule } from '../rule.js';

/** `no-sitemap`: the file lists no sitemap. */
export const noSitemap = defineRule({
  code: 'no-sitemap',
  name: 'No sitemap',
  severity: 'info',
  description: 'The file has rules but no Sitemap line; listing sitemaps in robots.txt helps every crawler find them.',
  check(context) {
    let directives = false;
    for (const record of context.records) {
      if (record.field === 'sitemap') return;
      if (record.kind === 'directive') directives = true;
    }
    if (!directives) return;
    context.report({
      range: { start: 0, end: 0 },
      message:
        'No Sitemap line: listing your sitemaps here (Sitemap: https://example.com/sitemap.xml) helps crawlers find them',
    });
  },
});
