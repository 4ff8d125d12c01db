/**
 * The lint rule `field-name-prefix`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/field-name-prefix.md.
 */

import { defineRule } from '../rule.js';
import { fieldSpelling, quote } from '../words.js';

/** `field-name-prefix`: a field name that only starts with a real one (`Disallowed:`), which Google accepts. */
export const fieldNamePrefix = defineRule({
  code: 'field-name-prefix',
  name: 'Field name with extra letters',
  severity: 'warning',
  description:
    'Google reads a field name that starts with a real one ("Disallowed", "Sitemaps") as that field; other crawlers ignore the line.',
  check(context) {
    for (const record of context.records) {
      // A misspelling with extra letters (`Useragents`) is reported once, as a misspelling.
      if (!record.flags.prefixKey || record.flags.typo || record.keyRange === null) continue;
      const name = fieldSpelling(record);
      // `Sitemap http://…`, `Disallow /a:b`: no colon after the field, so the parser split at a later colon.
      const word = /^\S+(?=[ \t])/.exec(record.key)?.[0];
      if (word !== undefined) {
        const at = record.keyRange.start + word.length;
        context.report({
          range: record.keyRange,
          message: `Google reads ${quote(record.key)} as "${name}" with only what follows the next colon as its value (${quote(record.value)}): the colon after ${quote(word)} is probably missing`,
          fix: {
            description: `Insert ":" after ${quote(word)}`,
            edits: [{ range: { start: at, end: at }, text: ':' }],
          },
        });
        continue;
      }
      context.report({
        range: record.keyRange,
        message: `Google reads ${quote(record.key)} as "${name}" because it starts with it; other crawlers ignore the line`,
        fix: {
          description: `Replace ${quote(record.key)} with "${name}"`,
          edits: [{ range: record.keyRange, text: name }],
        },
      });
    }
  },
});
