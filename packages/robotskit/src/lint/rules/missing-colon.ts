/**
 * The lint rule `missing-colon`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/missing-colon.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `missing-colon`: field and value separated by whitespace only, which Google accepts and others may not. */
export const missingColon = defineRule({
  code: 'missing-colon',
  name: 'Missing colon',
  severity: 'warning',
  description:
    'A line with a space instead of a colon after the field name: Google accepts it, other crawlers may not.',
  check(context) {
    for (const record of context.records) {
      // For an unknown field the line is ignored anyway (unknown-field says so); the colon is not what matters.
      if (!record.flags.missingColon || record.field === 'unknown') continue;
      if (record.keyRange === null || record.valueRange === null) continue;
      const at = record.keyRange.end;
      context.report({
        range: { start: at, end: record.valueRange.start },
        message: `No colon after ${quote(record.key)}: Google accepts a space instead, other crawlers may ignore the line`,
        fix: {
          description: `Insert ":" after ${quote(record.key)}`,
          edits: [{ range: { start: at, end: at }, text: ':' }],
        },
      });
    }
  },
});
