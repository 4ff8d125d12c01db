/**
 * The lint rule `line-too-long`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/line-too-long.md.
 */

import { MAX_LINE_BYTES } from '../../parse/lines.js';
import { defineRule } from '../rule.js';

/** `line-too-long`: Google keeps the first 16,663 bytes of a line and drops the rest. */
export const lineTooLong = defineRule({
  code: 'line-too-long',
  name: 'Line past the length cap',
  severity: 'error',
  description: `Google keeps only the first ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes of a line; the rest of it is dropped.`,
  check(context) {
    for (const record of context.records) {
      if (!record.flags.tooLong) continue;
      const cut = context.capOffset(record);
      context.report({
        range: { start: cut, end: record.range.end },
        message: `Google keeps only the first ${MAX_LINE_BYTES.toLocaleString('en-US')} bytes of a line and drops the rest (the line still counts, cut)`,
      });
    }
  },
});
