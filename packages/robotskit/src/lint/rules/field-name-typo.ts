/**
 * The lint rule `field-name-typo`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/field-name-typo.md.
 */

import { defineRule } from '../rule.js';
import { fieldSpelling, quote } from '../words.js';

/** `field-name-typo`: a misspelt field name that Google accepts and other crawlers may not. */
export const fieldNameTypo = defineRule({
  code: 'field-name-typo',
  name: 'Misspelt field name',
  severity: 'warning',
  description:
    'Google accepts a few misspellings (useragent, dissallow, site-map…); other crawlers may ignore the line.',
  check(context) {
    for (const record of context.records) {
      if (!record.flags.typo || record.keyRange === null) continue;
      const name = fieldSpelling(record);
      context.report({
        range: record.keyRange,
        message: `${quote(record.key)} is a misspelling of "${name}": Google accepts it, other crawlers may ignore the line`,
        fix: {
          description: `Replace ${quote(record.key)} with "${name}"`,
          edits: [{ range: record.keyRange, text: name }],
        },
      });
    }
  },
});
