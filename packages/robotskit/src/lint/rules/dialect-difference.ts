/**
 * The lint rule `dialect-difference`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/dialect-difference.md.
 */

import { type DialectDifference, dialectDifferences } from '../../dialects/differences.js';
import { defineRule } from '../rule.js';

/** Kinds that concern single rule lines and can repeat many times in one group: reported once per group and kind. */
const PER_LINE_KINDS = new Set(['wildcard', 'dollar-anchor', 'percent-encoding', 'field-spelling', 'prefix-vs-token']);

function lineList(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const shown = lines.slice(0, 5);
  const more = lines.length > shown.length ? ` and ${lines.length - shown.length} more` : '';
  return `lines ${shown.join(', ')}${more}`;
}

/**
 * `dialect-difference`: where crawlers that follow the 1994 convention (Python's `urllib.robotparser` and many
 * others) read the file differently from Google, so the two can decide differently for some URLs.
 */
export const dialectDifference = defineRule({
  code: 'dialect-difference',
  name: 'Read differently by 1994-convention crawlers',
  severity: 'info',
  description:
    'Google and crawlers that follow the original 1994 convention read this part of the file differently (blank lines ending records, wildcards, first match instead of longest match…), so they can decide differently.',
  check(context) {
    const differences = dialectDifferences(context.robots);
    if (differences.length === 0) return;
    // The group of each line, in one pass over the groups (searching the groups for every difference was
    // quadratic in a file of many groups).
    const groupOfLine = new Int32Array(context.robots.lineCount + 2).fill(-1);
    for (const g of context.robots.groups) {
      for (let line = g.startLine; line <= g.endLine && line < groupOfLine.length; line++) {
        if (groupOfLine[line] === -1) groupOfLine[line] = g.index;
      }
    }
    const groupOf = (line: number): number => groupOfLine[line] ?? -1;
    // Collapse repeated single-line kinds within one group into one diagnostic at their first line.
    const collapsed = new Map<string, DialectDifference[]>();
    const order: (DialectDifference | string)[] = [];
    for (const d of differences) {
      if (!PER_LINE_KINDS.has(d.kind)) {
        order.push(d);
        continue;
      }
      const key = `${d.kind} ${groupOf(d.line)}`;
      const list = collapsed.get(key);
      if (list) list.push(d);
      else {
        collapsed.set(key, [d]);
        order.push(key);
      }
    }
    for (const item of order) {
      const list = typeof item === 'string' ? collapsed.get(item)! : [item];
      const first = list[0]!;
      const lines = [...new Set(list.flatMap((d) => d.lines))].sort((a, b) => a - b);
      const where = list.length > 1 ? ` (also ${lineList(lines.filter((l) => l !== first.line))})` : '';
      context.report({
        range: first.range,
        message: `${first.kind}${where}: ${capitalize(first.google)} ${capitalize(first.legacy)}`,
      });
    }
  },
});

function capitalize(text: string): string {
  return text.length > 0 ? text[0]!.toUpperCase() + text.slice(1) : text;
}
