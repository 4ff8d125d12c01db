/**
 * The lint rule `retired-usage-label`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/retired-usage-label.md.
 */

import { CURRENT_LABELS, CURRENT_VOCAB_REVISION, vocabRevisionName, vocabularyLabel } from '../../usage/vocabulary.js';
import { usageLines } from '../analysis/usage-lines.js';
import { defineRule } from '../rule.js';

/** Revisions as a short list: `-03 and -04`, `-02`. */
function revisions(list: readonly number[]): string {
  const names = list.map((r) => `-${String(r).padStart(2, '0')}`);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `retired-usage-label`: a Content-Usage label that only earlier revisions of the vocabulary defined. */
export const retiredUsageLabel = defineRule({
  code: 'retired-usage-label',
  name: 'Retired usage label',
  severity: 'warning',
  description:
    'A Content-Usage label that an earlier revision of the AI preferences vocabulary defined and the current one does not: readers ignore it.',
  check(context) {
    for (const line of context.shared(usageLines)) {
      if (line.kind !== 'usage' || !line.usage.parsed.ok || line.group === undefined) continue;
      for (const label of line.usage.parsed.members.keys()) {
        const known = vocabularyLabel(label);
        if (known === undefined || CURRENT_LABELS.includes(label)) continue;
        context.report({
          range: line.record.valueRange ?? context.contentRange(line.record),
          message: `"${label}" (${known.category}) was defined by draft-ietf-aipref-vocab ${revisions(known.revisions)} only; readers of the current ${vocabRevisionName(CURRENT_VOCAB_REVISION)} (${CURRENT_LABELS.join(', ')}) ignore it`,
        });
      }
    }
  },
});
