/**
 * The lint rule `reveals-private-path`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/reveals-private-path.md.
 */

import { defineRule } from '../rule.js';
import { quote } from '../words.js';

// Path segments that name things which should not be public at all. Deliberately short: admin areas such as
// /wp-admin/ are public knowledge, and /private/ is as often a site section as a secret.
const PRIVATE =
  /(?:^|[/_.-])(?:secrets?|confidential|backups?|credentials?|\.git|\.svn|\.env|\.htpasswd|dump|db[_-]?backup)(?=$|[/_.\-*?$])/i;

/** `reveals-private-path`: a rule that points everyone to something meant to stay hidden. */
export const revealsPrivatePath = defineRule({
  code: 'reveals-private-path',
  name: 'Rule revealing a private path',
  severity: 'info',
  description:
    'robots.txt is public: a disallow rule for /backup/ or /secret/ tells everyone where to look. Protect such paths with authentication instead.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'disallow' || record.valueRange === null) continue;
      const hit = PRIVATE.exec(record.value);
      if (hit === null) continue;
      context.report({
        range: record.valueRange,
        message: `robots.txt is public: listing ${quote(record.value)} tells everyone where it is; if it must stay private, protect it with authentication (disallowing only asks polite crawlers to stay away)`,
      });
    }
  },
});
