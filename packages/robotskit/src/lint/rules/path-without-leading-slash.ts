/**
 * The lint rule `path-without-leading-slash`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/path-without-leading-slash.md.
 */

import { defineRule } from '../rule.js';
import { fieldSpelling, quote } from '../words.js';

/** `www.example.com/x`, `example.com`: a host name where the path should be. */
const HOST_FIRST = /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(?=\/|$)/i;

/** `path-without-leading-slash`: a rule pattern that starts with neither `/` nor `*` never matches. */
export const pathWithoutLeadingSlash = defineRule({
  code: 'path-without-leading-slash',
  name: 'Path without a leading slash',
  severity: 'error',
  description: 'An allow/disallow pattern that starts with neither "/" nor "*" can never match a URL path.',
  check(context) {
    for (const record of context.records) {
      if ((record.field !== 'allow' && record.field !== 'disallow') || record.valueRange === null) continue;
      const value = record.value;
      if (value === '' || value.startsWith('/') || value.startsWith('*')) continue;
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) continue; // absolute-url-in-rule
      const range = record.valueRange;
      const host = HOST_FIRST.exec(value);
      let fix: { description: string; edits: { range: typeof range; text: string }[] } | undefined;
      if (host) {
        const path = value.slice(host[0].length) || '/';
        fix = { description: `Replace ${quote(value)} with its path ${quote(path)}`, edits: [{ range, text: path }] };
      } else if (/^[a-z0-9]/i.test(value)) {
        fix = {
          description: 'Insert "/" before the path',
          edits: [{ range: { start: range.start, end: range.start }, text: '/' }],
        };
      }
      context.report({
        range,
        message: `This ${fieldSpelling(record)} rule never matches: URL paths start with "/", and ${quote(value)} starts with ${quote(value.slice(0, 1))}`,
        ...(fix ? { fix } : {}),
      });
    }
  },
});
