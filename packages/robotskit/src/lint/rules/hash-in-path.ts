/**
 * The lint rule `hash-in-path`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/hash-in-path.md.
 */

import { defineRule } from '../rule.js';
import { fieldSpelling, quote } from '../words.js';

/** `hash-in-path`: a `#` right after a pattern starts a comment, so the rule is shorter than it looks. */
export const hashInPath = defineRule({
  code: 'hash-in-path',
  name: '"#" inside a pattern',
  severity: 'warning',
  description:
    '"#" starts a comment anywhere on a line, so "Disallow: /page#top" is "Disallow: /page" (and URL fragments are never matched anyway).',
  check(context) {
    for (const record of context.records) {
      if ((record.field !== 'allow' && record.field !== 'disallow') || record.valueRange === null) continue;
      const comment = record.commentRange;
      if (comment === null || record.value === '' || comment.start !== record.valueRange.end) continue;
      let end = comment.end;
      while (end > comment.start + 1 && /\s/.test(context.units[end - 1] ?? '')) end--;
      const written = `${record.value}${context.text({ start: comment.start, end })}`;
      context.report({
        range: { start: comment.start, end },
        message: `"#" starts a comment: Google reads this rule as "${fieldSpelling(record)}: ${record.value}", which matches more than ${quote(written)} suggests (URL fragments are never matched)`,
      });
    }
  },
});
