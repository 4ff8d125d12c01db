/**
 * The lint rule `content-signal-placement`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/content-signal-placement.md.
 */

import type { RobotsGroup } from '../../model/types.js';
import { usageLines } from '../analysis/usage-lines.js';
import { defineRule } from '../rule.js';

/** `content-signal-placement`: a Content-Signal line where readers disagree on which crawlers it speaks to. */
export const contentSignalPlacement = defineRule({
  code: 'content-signal-placement',
  name: 'Content-Signal where readers disagree',
  severity: 'info',
  description:
    'A Content-Signal line outside any group, or in a group that is not for *: readers disagree on which crawlers it applies to.',
  check(context) {
    // Per group, once: a group of many user-agents with many such lines would otherwise be quadratic.
    const globalGroups = new Map<RobotsGroup, boolean>();
    for (const line of context.shared(usageLines)) {
      if (line.kind !== 'signal') continue;
      const range = context.contentRange(line.record);
      if (line.group === undefined) {
        context.report({
          range,
          message:
            'Content-Signal before any user-agent line: some readers apply it to every crawler, others (robotskit included) to none; put it in the User-agent: * group',
        });
        continue;
      }
      let global = globalGroups.get(line.group);
      if (global === undefined) {
        global = line.group.agents.some((a) => a.global);
        globalGroups.set(line.group, global);
      }
      if (!global) {
        const agents = line.group.agents;
        const names =
          agents.length <= 3
            ? agents.map((a) => a.value).join(', ')
            : `${agents
                .slice(0, 3)
                .map((a) => a.value)
                .join(', ')} and ${agents.length - 3} more`;
        context.report({
          range,
          message: `Content-Signal in the group of ${names}: robotskit applies it to those crawlers only, as Allow/Disallow; readers that look for it in the * group only miss it`,
        });
      }
    }
  },
});
