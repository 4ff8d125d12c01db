/**
 * The lint rule `absolute-url-in-rule`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/absolute-url-in-rule.md.
 */

import { pathOfUrl } from '../../url/path.js';
import { defineRule } from '../rule.js';
import { fieldSpelling, quote } from '../words.js';

/** `absolute-url-in-rule`: a rule written as a full URL never matches; rules take paths. */
export const absoluteUrlInRule = defineRule({
  code: 'absolute-url-in-rule',
  name: 'Absolute URL in a rule',
  severity: 'error',
  description: 'An allow/disallow value written as a full URL never matches: rules are matched against paths.',
  check(context) {
    for (const record of context.records) {
      if ((record.field !== 'allow' && record.field !== 'disallow') || record.valueRange === null) continue;
      if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(record.value)) continue;
      // Exactly the path, params and query Google would match for this URL, as written (nothing re-encoded).
      const path = pathOfUrl(record.value);
      context.report({
        range: record.valueRange,
        message: `This ${fieldSpelling(record)} rule never matches: rules take a path, not a URL (did you mean ${quote(path)}?)`,
        fix: {
          description: `Replace the URL with its path ${quote(path)}`,
          edits: [{ range: record.valueRange, text: path }],
        },
      });
    }
  },
});
