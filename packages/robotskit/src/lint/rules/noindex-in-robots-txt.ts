/**
 * The lint rule `noindex-in-robots-txt`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/noindex-in-robots-txt.md.
 */

import { PAGE_DIRECTIVES } from '../../model/key-reading.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `noindex-in-robots-txt`: page-level directives (noindex, nofollow…) that no major crawler reads in robots.txt. */
export const noindexInRobotsTxt = defineRule({
  code: 'noindex-in-robots-txt',
  name: 'noindex in robots.txt',
  severity: 'warning',
  description:
    'noindex, nofollow, noarchive and friends are page-level directives; Google stopped reading them in robots.txt in 2019.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'unknown' || !PAGE_DIRECTIVES.has(record.key.toLowerCase())) continue;
      context.report({
        range: context.contentRange(record),
        message: `Google has ignored ${quote(record.key)} in robots.txt since 2019: use a robots meta tag or an X-Robots-Tag header (on a page Google may crawl)`,
      });
    }
  },
});
