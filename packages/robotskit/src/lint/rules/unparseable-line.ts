/**
 * The lint rule `unparseable-line`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/unparseable-line.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

const WHY = {
  'no-separator': 'it has no colon between a field and a value',
  'too-many-tokens': 'without a colon, a line must be exactly two words (a field and a value)',
  'empty-key': 'there is no field name before the colon',
} as const;

/** `unparseable-line`: content Google cannot read as `field: value`, so it ignores the line. */
export const unparseableLine = defineRule({
  code: 'unparseable-line',
  name: 'Unparseable line',
  severity: 'error',
  description: 'A line Google cannot read as "field: value"; it ignores the whole line.',
  check(context) {
    for (const record of context.records) {
      if (record.kind !== 'invalid' || record.invalid === null) continue;
      const range = context.contentRange(record);
      const text = context.text(range);
      // `Disallow/private`, `User-agent*`: a field name directly followed by a value; the colon is obviously missing.
      const glued = /^(user-agent|allow|disallow|sitemap)(?=[/*])/i.exec(text);
      const at = range.start + (glued?.[1]?.length ?? 0);
      context.report({
        range,
        message: `Google ignores this line: ${WHY[record.invalid]} (${quote(text)})`,
        ...(glued
          ? {
              fix: {
                description: `Insert ": " after "${glued[1]}"`,
                edits: [{ range: { start: at, end: at }, text: ': ' }],
              },
            }
          : {}),
      });
    }
  },
});
