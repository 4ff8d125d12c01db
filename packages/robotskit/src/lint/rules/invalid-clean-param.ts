/**
 * The lint rule `invalid-clean-param`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-clean-param.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

const CLEAN_PARAM = /^[A-Za-z0-9_.-]+(?:&[A-Za-z0-9_.-]+)*(?:\s+[/*][A-Za-z0-9_.\-/*%?=&~:;,+!$@]*)?$/;

/** `invalid-clean-param`: a Yandex Clean-param line that does not follow its `param1&param2 [/path]` form. */
export const invalidCleanParam = defineRule({
  code: 'invalid-clean-param',
  name: 'Invalid Clean-param',
  severity: 'warning',
  description:
    'Clean-param (Yandex) takes parameter names joined by "&", then optionally a space and a path prefix; Yandex ignores other forms.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'unknown' || record.key.toLowerCase() !== 'clean-param' || record.valueRange === null)
        continue;
      if (CLEAN_PARAM.test(record.value)) continue;
      context.report({
        range: record.value === '' ? context.contentRange(record) : record.valueRange,
        message: `Clean-param takes "param1&param2 /path-prefix"; Yandex cannot read ${quote(record.value)}`,
      });
    }
  },
});
