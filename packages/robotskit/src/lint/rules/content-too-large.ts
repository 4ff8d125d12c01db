/**
 * The lint rule `content-too-large`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/content-too-large.md.
 */

import { defineRule } from '../rule.js';

/** `content-too-large`: Google reads the first 500 KiB of a robots.txt and ignores the rest. */
export const contentTooLarge = defineRule({
  code: 'content-too-large',
  name: 'Content past the size limit',
  severity: 'error',
  description: 'Google parses only the first 512,000 bytes of a robots.txt; everything after is ignored.',
  check(context) {
    if (!context.robots.truncated) return;
    const parsed = context.robots.parsedSize;
    context.report({
      range: { start: context.parsedEnd, end: context.size },
      message: `Google parses only the first ${parsed.toLocaleString('en-US')} bytes of a robots.txt; the rest of the file (${(context.robots.size - parsed).toLocaleString('en-US')} bytes) is ignored`,
    });
  },
});
