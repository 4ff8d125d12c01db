/**
 * The `Content-Usage` and `Content-Signal` lines of the linted file, read from its bytes as `RobotsTxt.usage` reads
 * them, each with its record and the group it sits in (none before the first user-agent line).
 */

import type { RobotsGroup, RobotsRecord } from '../../model/types.js';
import { sourceOf } from '../../robots-txt/robots-txt.js';
import { type ContentSignalLine, type ContentUsageLine, readUsageLines } from '../../usage/lines.js';
import type { LintContext } from '../rule.js';

/** One usage line of the file. */
export type UsageLine = { readonly record: RobotsRecord; readonly group: RobotsGroup | undefined } & (
  | { readonly kind: 'usage'; readonly usage: ContentUsageLine }
  | { readonly kind: 'signal'; readonly signal: ContentSignalLine }
);

/** The file's usage lines, in line order. */
export function usageLines(context: LintContext): readonly UsageLine[] {
  const read = readUsageLines(sourceOf(context.robots));
  if (read.usage.size === 0 && read.signals.size === 0) return [];
  const groupOf = new Map<number, RobotsGroup>();
  for (const group of context.robots.groups) for (const ext of group.extensions) groupOf.set(ext.line, group);
  const lines: UsageLine[] = [];
  for (const [line, usage] of read.usage)
    lines.push({ kind: 'usage', usage, record: context.record(line), group: groupOf.get(line) });
  for (const [line, signal] of read.signals)
    lines.push({ kind: 'signal', signal, record: context.record(line), group: groupOf.get(line) });
  return lines.sort((a, b) => a.record.line - b.record.line);
}
