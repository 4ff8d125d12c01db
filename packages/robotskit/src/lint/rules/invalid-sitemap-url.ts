/**
 * The lint rule `invalid-sitemap-url`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-sitemap-url.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

function parse(value: string, base?: URL): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/** `invalid-sitemap-url`: a sitemap line whose value is not an absolute http(s) URL. */
export const invalidSitemapUrl = defineRule({
  code: 'invalid-sitemap-url',
  name: 'Invalid sitemap URL',
  severity: 'error',
  description: 'A sitemap line must hold an absolute http or https URL; Google ignores anything else.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'sitemap' || record.valueRange === null) continue;
      const value = record.value;
      const absolute = /^[a-z][a-z0-9+.-]*:/i.test(value) ? parse(value) : null;
      if (absolute !== null && /^https?:$/.test(absolute.protocol) && /^https?:\/\//i.test(value)) continue;
      if (value === '') {
        context.report({ range: context.contentRange(record), message: 'Sitemap line without a URL' });
        continue;
      }
      let why: string;
      if (absolute !== null) why = `${quote(absolute.protocol)} is not http or https`;
      else if (/^[a-z][a-z0-9+.-]*:/i.test(value)) why = 'it is not a valid URL';
      else why = 'it is not an absolute URL';
      // A relative URL resolves obviously only against the robots.txt's own URL, when we know it.
      const resolved = absolute === null && context.url !== null ? parse(value, context.url) : null;
      const fix =
        resolved !== null && /^https?:$/.test(resolved.protocol)
          ? {
              description: `Replace with ${quote(resolved.href)}`,
              edits: [{ range: record.valueRange, text: resolved.href }],
            }
          : undefined;
      context.report({
        range: record.valueRange,
        message: `Google ignores this sitemap: ${why} (${quote(value)}); write the full URL, e.g. https://example.com/sitemap.xml`,
        ...(fix ? { fix } : {}),
      });
    }
  },
});
