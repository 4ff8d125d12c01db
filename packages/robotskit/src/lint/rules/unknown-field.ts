/**
 * The lint rule `unknown-field`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/unknown-field.md.
 */

import { OTHER_FIELDS, PAGE_DIRECTIVES } from '../../model/key-reading.js';
import { defineRule } from '../rule.js';
import { nearestField, quote } from '../words.js';

/** Whether a line is a bare URL (`https://example.com/sitemap.xml`), which the parser splits at its scheme's colon. */
function bareSitemapUrl(key: string, value: string): boolean {
  return /^(https?|ftp)$/i.test(key) && value.startsWith('//') && /sitemap|\.xml(\.gz)?$|\.txt$/i.test(value);
}

/** `unknown-field`: a `key: value` line whose key neither Google nor any well-known crawler uses. */
export const unknownField = defineRule({
  code: 'unknown-field',
  name: 'Unknown field',
  severity: 'error',
  description: 'A line whose field name Google does not know (nor any widely used crawler); Google ignores it.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'unknown' || record.keyRange === null) continue;
      const name = record.key.toLowerCase();
      if (name in OTHER_FIELDS || PAGE_DIRECTIVES.has(name) || name.startsWith('acap-')) continue;
      const keyRange = record.keyRange;
      if (bareSitemapUrl(record.key, record.value)) {
        context.report({
          range: context.contentRange(record),
          message: 'Google ignores this line: it is a URL without a field name (a sitemap needs "Sitemap: " in front)',
          fix: {
            description: 'Insert "Sitemap: " before the URL',
            edits: [{ range: { start: keyRange.start, end: keyRange.start }, text: 'Sitemap: ' }],
          },
        });
        continue;
      }
      const near = nearestField(record.key);
      context.report({
        range: keyRange,
        message: `Google ignores this line: ${quote(record.key)} is not a field it knows${near ? ` (did you mean "${near}"?)` : ''}`,
        ...(near
          ? {
              fix: {
                description: `Replace ${quote(record.key)} with "${near}"`,
                edits: [{ range: keyRange, text: near }],
              },
            }
          : {}),
      });
    }
  },
});
