/**
 * The lint rule `empty-user-agent`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/empty-user-agent.md.
 */

import { defineRule } from '../rule.js';

/** `empty-user-agent`: a user-agent line without a name names no crawler. */
export const emptyUserAgent = defineRule({
  code: 'empty-user-agent',
  name: 'Empty user-agent',
  severity: 'error',
  description: 'A user-agent line with no value names no crawler; a group of such lines applies to nobody.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'user-agent' || record.value !== '') continue;
      context.report({
        range: context.contentRange(record),
        message:
          'User-agent without a name: it matches no crawler (write "*" for all crawlers, or a product token such as "Googlebot")',
      });
    }
  },
});
