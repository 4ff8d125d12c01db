/**
 * The lint rule `invalid-utf8`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-utf8.md.
 */

import { utf16Encoding } from '../analysis/encoding.js';
import { firstInvalidUtf8 } from '../analysis/utf8.js';
import { defineRule } from '../rule.js';

const hex = (b: number): string => b.toString(16).toUpperCase().padStart(2, '0');

/** `invalid-utf8`: bytes that are not UTF-8 (a Latin-1 or Windows-1252 file), which match no URL Google requests. */
export const invalidUtf8 = defineRule({
  code: 'invalid-utf8',
  name: 'Bytes that are not UTF-8',
  severity: 'warning',
  description:
    'robots.txt must be UTF-8. Other bytes (a Latin-1 "é" is E9) are percent-encoded as they are ("%E9"), which matches no URL, since URLs encode "é" as "%C3%A9".',
  check(context) {
    const bytes = context.bytes;
    if (bytes === null || context.shared(utf16Encoding) !== null) return;
    for (const record of context.records) {
      // Comments may hold anything; only what Google reads matters.
      const { start } = context.contentRange(record);
      let { end } = context.contentRange(record);
      // A line cut by the length cap may end inside a character: that is line-too-long's finding, not an encoding one.
      if (record.flags.tooLong) while (end > start && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
      const bad = firstInvalidUtf8(bytes, start, end);
      if (bad === null) continue;
      const shown = Array.from(bytes.subarray(bad[0], Math.min(bad[1], bad[0] + 4)), hex);
      context.report({
        range: { start: bad[0], end: bad[1] },
        message: `Bytes that are not UTF-8 (${shown.join(' ')}${bad[1] - bad[0] > 4 ? ' …' : ''}): Google reads them as "%${shown.join('%')}", which matches no URL written in UTF-8; save the file as UTF-8`,
      });
    }
  },
});
