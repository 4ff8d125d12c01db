/**
 * The lint rule `user-agent-not-product-token`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/user-agent-not-product-token.md.
 */

import { isValidProductToken } from '../../url/user-agent.js';
import type { Fix } from '../rule.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `user-agent-not-product-token`: a user-agent value of which Google reads only a prefix. */
export const userAgentNotProductToken = defineRule({
  code: 'user-agent-not-product-token',
  name: 'User-agent that is not a product token',
  severity: 'warning',
  description:
    'Google reads a user-agent name up to its first character other than A-Z, a-z, "-" or "_" ("Googlebot/2.1" is "Googlebot", "AI2Bot" is "AI").',
  check(context) {
    const units = context.units;
    for (const group of context.robots.groups) {
      for (const agent of group.agents) {
        const record = context.record(agent.line);
        const range = record.valueRange;
        if (range === null || agent.value === '') continue;
        if (agent.global) {
          if (agent.value === '*') continue;
          let start = range.start + 1;
          while (start < range.end && (units[start] === ' ' || units[start] === '\t')) start++;
          context.report({
            range: { start, end: range.end },
            message: `Google reads this user-agent as "*" and ignores ${quote(agent.value.slice(1).trim())}`,
            fix: {
              description: 'Keep only "*"',
              edits: [{ range: { start: range.start + 1, end: range.end }, text: '' }],
            },
          });
          continue;
        }
        if (agent.token === '' || agent.token === agent.value) continue;
        const suffixRange = { start: range.start + agent.token.length, end: range.end };
        const suffix = agent.value.slice(agent.token.length);
        const parts = agent.value.split(/[\s,;]+/).filter((p) => p !== '');
        let message: string;
        let fix: Fix | undefined;
        if (/^\/\S*$/.test(suffix)) {
          message = `Google matches the product token "${agent.token}" and ignores the version ${quote(suffix)}: write the name alone`;
          fix = { description: `Keep only "${agent.token}"`, edits: [{ range: suffixRange, text: '' }] };
        } else if (/^\*+$/.test(suffix)) {
          message = `"*" is not a wildcard inside a name: Google matches "${agent.token}" and ignores ${quote(suffix)}`;
          fix = { description: `Keep only "${agent.token}"`, edits: [{ range: suffixRange, text: '' }] };
        } else if (parts.length > 1 && parts.every(isValidProductToken)) {
          message = `One crawler per User-agent line: Google reads only "${agent.token}" here and ignores ${quote(suffix)}`;
          fix = {
            description: `Write one User-agent line for each of ${parts.join(', ')}`,
            edits: [{ range, text: parts.join(`${context.lineBreak}${record.key}: `) }],
          };
        } else {
          message = `Google reads this user-agent as "${agent.token}" (a name stops at the first character other than A-Z, a-z, "-" or "_"), so a crawler named ${quote(agent.value)} does not match it`;
        }
        context.report({ range: suffixRange, message, ...(fix ? { fix } : {}) });
      }
    }
  },
});
