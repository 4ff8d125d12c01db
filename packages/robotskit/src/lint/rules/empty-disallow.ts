/**
 * The lint rule `empty-disallow`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/empty-disallow.md.
 */

import { defineRule } from '../rule.js';

/** `empty-disallow`: `Disallow:` with no path, which allows everything. */
export const emptyDisallow = defineRule({
  code: 'empty-disallow',
  name: 'Empty disallow',
  severity: 'info',
  description: '"Disallow:" with no path disallows nothing: it allows every URL (the 1994 way of writing "allow all").',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'disallow' || record.value !== '') continue;
      context.report({
        range: context.contentRange(record),
        message:
          '"Disallow:" with no path disallows nothing: the group allows every URL unless another rule says otherwise',
      });
    }
  },
});
