/**
 * The lint rule `utf16-file`, one file of the registry (`index.ts`); what it finds and why: docs/lint/utf16-file.md.
 */

import { utf16Encoding } from '../analysis/encoding.js';
import { defineRule } from '../rule.js';

/** `utf16-file`: a robots.txt encoded as UTF-16, which Google reads as bytes and finds nothing usable in. */
export const utf16File = defineRule({
  code: 'utf16-file',
  name: 'UTF-16 file',
  severity: 'error',
  description:
    'A robots.txt saved as UTF-16: Google reads UTF-8, sees a NUL after every letter, and ignores every line.',
  check(context) {
    const found = context.shared(utf16Encoding);
    if (found === null) return;
    context.report({
      range: found.range,
      message: `This file is ${found.name}: Google reads robots.txt as UTF-8 and cannot use any line of it; save it as UTF-8`,
    });
  },
});
