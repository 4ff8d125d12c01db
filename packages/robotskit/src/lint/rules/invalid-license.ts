/**
 * The lint rule `invalid-license`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-license.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** Whether `value` is an absolute http(s) URL. */
function absoluteHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** `invalid-license`: an RSL `License` line whose value is not an absolute URL of the licence document. */
export const invalidLicense = defineRule({
  code: 'invalid-license',
  name: 'Invalid License URL',
  severity: 'warning',
  description:
    'An RSL License line must hold the absolute http(s) URL of the licence document; readers cannot follow anything else.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'unknown' || record.key.toLowerCase() !== 'license' || record.valueRange === null) continue;
      if (absoluteHttpUrl(record.value)) continue;
      context.report({
        range: record.value === '' ? context.contentRange(record) : record.valueRange,
        message:
          record.value === ''
            ? 'License line without a URL: RSL readers need the absolute URL of the licence document'
            : `License takes the absolute URL of the licence document (https://…/license.xml); RSL readers cannot follow ${quote(record.value)}`,
      });
    }
  },
});
