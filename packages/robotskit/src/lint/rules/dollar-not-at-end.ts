/**
 * The lint rule `dollar-not-at-end`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/dollar-not-at-end.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `dollar-not-at-end`: `$` anchors only at the very end of a pattern; elsewhere it is a literal character. */
export const dollarNotAtEnd = defineRule({
  code: 'dollar-not-at-end',
  name: '"$" not at the end',
  severity: 'warning',
  description:
    '"$" means "end of URL" only as the last character of a pattern; anywhere else it matches a literal "$".',
  check(context) {
    const units = context.units;
    for (const record of context.records) {
      if ((record.field !== 'allow' && record.field !== 'disallow') || record.valueRange === null) continue;
      // Checked on the value first: searching the input for a "$" that is not there would scan to its end.
      if (!record.value.slice(0, -1).includes('$')) continue;
      const { start, end } = record.valueRange;
      const at = units.indexOf('$', start);
      if (at < 0 || at >= end - 1) continue;
      context.report({
        range: { start: at, end: at + 1 },
        message: `"$" anchors the end of the URL only as the last character of a pattern; in ${quote(record.value)} it is a literal "$", which URLs rarely contain`,
      });
    }
  },
});
