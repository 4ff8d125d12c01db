/**
 * The lint rule `invalid-user-agent`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-user-agent.md.
 */

import { isValidProductToken } from '../../url/user-agent.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `invalid-user-agent`: a user-agent value from which Google reads no product token at all. */
export const invalidUserAgent = defineRule({
  code: 'invalid-user-agent',
  name: 'User-agent that matches no crawler',
  severity: 'error',
  description:
    'A user-agent value that does not start with a letter, "-" or "_" (and is not "*") gives Google an empty name: it matches no crawler.',
  check(context) {
    for (const group of context.robots.groups) {
      for (const agent of group.agents) {
        if (agent.global || agent.token !== '' || agent.value === '') continue;
        const range = context.record(agent.line).valueRange;
        if (range === null) continue;
        const unquoted = /^(["'`])(.*)\1$/.exec(agent.value)?.[2];
        const fix =
          unquoted !== undefined && isValidProductToken(unquoted)
            ? { description: `Remove the quotes: ${unquoted}`, edits: [{ range, text: unquoted }] }
            : undefined;
        context.report({
          range,
          message: `For Google, ${quote(agent.value)} names no crawler: it reads a user-agent name up to the first character other than A-Z, a-z, "-" or "_", which leaves nothing here`,
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
});
