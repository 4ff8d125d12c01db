/**
 * The lint rule `empty-file`, one file of the registry (`index.ts`); what it finds and why: docs/lint/empty-file.md.
 */

import { defineRule } from '../rule.js';

/** `empty-file`: a robots.txt with no directive at all, which allows everything. */
export const emptyFile = defineRule({
  code: 'empty-file',
  name: 'Empty file',
  severity: 'info',
  description:
    'The file has no directive at all (it is empty, or only blank lines and comments): every crawler may fetch every URL.',
  check(context) {
    if (context.records.some((r) => r.kind === 'directive' || r.kind === 'invalid')) return;
    context.report({
      range: { start: 0, end: 0 },
      message: 'This robots.txt has no directive: every crawler may fetch every URL',
    });
  },
});
