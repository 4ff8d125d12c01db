/**
 * The lint rule `duplicate-sitemap`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/duplicate-sitemap.md.
 */

import { defineRule } from '../rule.js';

function normalise(value: string): string | null {
  try {
    return /^https?:\/\//i.test(value) ? new URL(value).href : null;
  } catch {
    return null;
  }
}

/** `duplicate-sitemap`: the same sitemap URL listed twice. */
export const duplicateSitemap = defineRule({
  code: 'duplicate-sitemap',
  name: 'Duplicate sitemap',
  severity: 'info',
  description: 'The same sitemap URL appears on more than one line; one is enough.',
  check(context) {
    const first = new Map<string, number>();
    for (const record of context.records) {
      if (record.field !== 'sitemap' || record.valueRange === null) continue;
      const url = normalise(record.value);
      if (url === null) continue;
      const line = first.get(url);
      if (line === undefined) {
        first.set(url, record.line);
        continue;
      }
      context.report({
        range: record.valueRange,
        message: `Same sitemap as line ${line}`,
        fix: { description: 'Delete this line', edits: [context.deleteLine(record)] },
      });
    }
  },
});
