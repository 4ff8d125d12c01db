/**
 * The lint rule `extension-field`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/extension-field.md.
 */

import { EXTENSION_FIELDS } from '../../model/key-reading.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `extension-field`: a field Google ignores that speaks to other readers by design (Content-Signal, License…). */
export const extensionField = defineRule({
  code: 'extension-field',
  name: 'Field for other readers',
  severity: 'info',
  description:
    'A field Google ignores that other readers define on purpose (Content-Usage, Content-Signal, License…): it is valid, and says who reads it.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'unknown' || record.keyRange === null) continue;
      const field = EXTENSION_FIELDS[record.key.toLowerCase()];
      if (field === undefined || field.googleWarning !== null) continue;
      context.report({
        range: record.keyRange,
        message: `Google ignores ${quote(record.key)}, a field for other readers: ${field.readers}`,
      });
    }
  },
});
