/**
 * The lint rule `nul-byte`, one file of the registry (`index.ts`); what it finds and why: docs/lint/nul-byte.md.
 */

import { utf16Encoding } from '../analysis/encoding.js';
import { defineRule } from '../rule.js';

/** `nul-byte`: a NUL byte ends a line for Google; the rest of the line is ignored. */
export const nulByte = defineRule({
  code: 'nul-byte',
  name: 'NUL byte',
  severity: 'error',
  description: 'Google stops reading a line at a NUL byte; whatever follows on that line is ignored.',
  check(context) {
    // A UTF-16 file has a NUL in almost every line; utf16-file says it once.
    if (context.shared(utf16Encoding) !== null) return;
    for (const record of context.records) {
      if (!record.flags.nul) continue;
      const nul = context.units.indexOf('\0', record.range.start);
      if (nul < 0 || nul >= record.range.end) continue;
      context.report({
        range: { start: nul, end: record.range.end },
        message: 'A NUL byte ends this line for Google: everything from it to the end of the line is ignored',
      });
    }
  },
});
