/**
 * The lint rule `ignored-directive`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/ignored-directive.md.
 */

import { EXTENSION_FIELDS } from '../../model/key-reading.js';
import type { RobotsGroup } from '../../model/types.js';
import { defineRule } from '../rule.js';
import { isGoogleToken, quote } from '../words.js';

/** Whether the group's rules are read by one of Google's crawlers: it names one, or it is a `*` group. */
function meantForGoogle(group: RobotsGroup | undefined): boolean {
  return group === undefined || group.agents.some((a) => a.global || isGoogleToken(a.token));
}

/** `ignored-directive`: fields other crawlers use (crawl-delay, host, clean-param…) in lines meant for Google. */
export const ignoredDirective = defineRule({
  code: 'ignored-directive',
  name: 'Directive Google ignores',
  severity: 'warning',
  description:
    'A field Google ignores (crawl-delay, host, clean-param, request-rate…) in a group Google reads, or outside any group.',
  check(context) {
    const groupOf = new Map<number, RobotsGroup>();
    for (const group of context.robots.groups) for (const ext of group.extensions) groupOf.set(ext.line, group);
    const googleGroups = new Map<RobotsGroup, boolean>();
    for (const record of context.records) {
      if (record.field !== 'unknown' || record.keyRange === null) continue;
      const name = record.key.toLowerCase();
      const field = EXTENSION_FIELDS[name];
      // Fields that speak to other readers by design (usage preferences, licences) get extension-field's note instead.
      if (field?.googleWarning === null) continue;
      const known = field !== undefined;
      if (!known && !name.startsWith('acap-')) continue;
      const group = groupOf.get(record.line);
      // Once per group: a group of many user-agents and many such lines would otherwise be quadratic.
      let forGoogle = group === undefined ? true : googleGroups.get(group);
      if (forGoogle === undefined && group !== undefined) {
        forGoogle = meantForGoogle(group);
        googleGroups.set(group, forGoogle);
      }
      if (!forGoogle) continue;
      const why = known
        ? field.googleWarning
        : 'ACAP was a publishers\u2019 proposal that search engines never adopted';
      context.report({
        range: context.contentRange(record),
        message: `Google ignores ${quote(record.key)}${group === undefined ? ' (and this line is outside any group)' : ''}: ${why}`,
      });
    }
  },
});
