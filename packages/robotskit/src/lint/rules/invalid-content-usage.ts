/**
 * The lint rule `invalid-content-usage`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-content-usage.md.
 */

import { CURRENT_LABELS, vocabularyLabel } from '../../usage/vocabulary.js';
import { usageLines } from '../analysis/usage-lines.js';
import { defineRule } from '../rule.js';
import { nearestName, quote } from '../words.js';

/** `invalid-content-usage`: a Content-Usage rule that readers of the AI Preferences drafts cannot use as written. */
export const invalidContentUsage = defineRule({
  code: 'invalid-content-usage',
  name: 'Invalid Content-Usage',
  severity: 'warning',
  description:
    'A Content-Usage rule (draft-ietf-aipref-attach) without a path, outside any group, or whose preferences do not parse or state nothing readers understand.',
  check(context) {
    for (const line of context.shared(usageLines)) {
      if (line.kind !== 'usage') continue;
      const { record, usage } = line;
      const range = record.valueRange ?? context.contentRange(record);
      if (line.group === undefined) {
        context.report({
          range: context.contentRange(record),
          message: 'Content-Usage before any user-agent line belongs to no group: it applies to no crawler',
        });
        continue;
      }
      if (usage.pattern === null) {
        context.report({
          range: record.value === '' ? context.contentRange(record) : range,
          message:
            record.value === ''
              ? 'Content-Usage without a path and preferences'
              : `Content-Usage needs a path first (Content-Usage: / ${usage.value}); without one the rule is ignored`,
          ...(record.value === '' || record.valueRange === null
            ? {}
            : {
                fix: {
                  description: 'Insert the path "/" before the preferences',
                  edits: [{ range: { start: record.valueRange.start, end: record.valueRange.start }, text: '/ ' }],
                },
              }),
        });
        continue;
      }
      const parsed = usage.parsed;
      if (!parsed.ok) {
        const why =
          parsed.reason === 'a key must be lower-case'
            ? 'labels are case-sensitive and lower-case'
            : `${parsed.reason} at ${quote(usage.expression.slice(parsed.at, parsed.at + 12))}`;
        context.report({
          range,
          message: `The preferences ${quote(usage.expression)} do not parse (${why}): every category is unknown`,
        });
        continue;
      }
      if (parsed.members.size === 0) {
        context.report({ range, message: 'Content-Usage with a path but no preferences: it states nothing' });
        continue;
      }
      for (const [label, member] of parsed.members) {
        const known = vocabularyLabel(label);
        if (known === undefined) {
          const near = nearestName(label, CURRENT_LABELS);
          context.report({
            range,
            message: `${quote(label)} is no label of the AI preferences vocabulary${near ? ` (did you mean "${near}"?)` : ''}: readers ignore it`,
          });
        } else if (
          CURRENT_LABELS.includes(label) &&
          (member.type !== 'token' || (member.token !== 'y' && member.token !== 'n'))
        ) {
          const shown = member.type === 'token' ? `the token ${member.token}` : `a ${member.type}`;
          context.report({
            range,
            message: `${label} takes y or n, not ${shown}: the preference is unknown`,
          });
        }
      }
    }
  },
});
