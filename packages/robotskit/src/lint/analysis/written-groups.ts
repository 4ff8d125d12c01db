/**
 * Groups as the author wrote them, which is not always how Google reads them. A written group is a run of user-agent
 * lines (comments may sit between them) and every line up to the next user-agent line. Google ends a group only at a
 * user-agent line that follows a rule, so a written group without allow/disallow lines is merged with the next one.
 */

import type { RobotsGroup, RobotsRecord } from '../../model/types.js';
import type { LintContext } from '../rule.js';

/** A group as written. */
interface WrittenGroup {
  /** Its user-agent lines. */
  readonly agents: readonly RobotsRecord[];
  /** The lines after them, up to the next user-agent line (blank lines and comments included). */
  readonly body: readonly RobotsRecord[];
  /** Whether the body has an allow or disallow line. */
  readonly hasRule: boolean;
  /** The group Google forms from it (merged with neighbours where there is no rule between them). */
  readonly parsed: RobotsGroup;
  /** The next written group, if any. */
  readonly next: WrittenGroup | null;
}

interface Draft {
  agents: RobotsRecord[];
  body: RobotsRecord[];
  hasRule: boolean;
  parsed: RobotsGroup;
  next: Draft | null;
}

/** The written groups of the file, in order. */
export function writtenGroups(context: LintContext): readonly WrittenGroup[] {
  const groupOfLine = new Map<number, RobotsGroup>();
  for (const group of context.robots.groups) for (const agent of group.agents) groupOfLine.set(agent.line, group);
  const drafts: Draft[] = [];
  let current: Draft | null = null;
  for (const record of context.records) {
    if (record.field === 'user-agent') {
      // Only comments since the last user-agent line: the run of user-agent lines goes on.
      if (current?.body.every((r) => r.kind === 'comment')) {
        current.agents.push(record);
        current.body = [];
        continue;
      }
      const parsed = groupOfLine.get(record.line);
      if (parsed === undefined) continue;
      const draft: Draft = { agents: [record], body: [], hasRule: false, parsed, next: null };
      if (current !== null) current.next = draft;
      drafts.push(draft);
      current = draft;
    } else if (current !== null) {
      current.body.push(record);
      if (record.field === 'allow' || record.field === 'disallow') current.hasRule = true;
    }
  }
  return drafts;
}
