/**
 * The semantic comparison's cost on the corpus (issue 18): every corpus file against the same file with one rule
 * removed (the middle allow/disallow line inside a group), for compareRobots' default crawlers, state budget and time
 * budget (or SEMANTICS_TIMEOUT_MS). Prints the median and worst time, how many comparisons hit a bound, and how many
 * edits changed meaning. Then formatRobots on every file: how many it changes textually (never semantically: it proves
 * that with the same comparison). Run `node bench/semantics.js [compare|format]` after `npm run build`.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobotsTxt } from 'robotskit';
import { compareRobots, formatRobots } from 'robotskit/semantics';
import { corpusDir, fmt, table, timeOnce } from './harness.js';

/** The file's bytes without line `line` (1-based), line breaks kept as they were. */
function withoutLine(bytes, line) {
  const out = [];
  let current = 1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (current !== line) out.push(b);
    if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) current++;
  }
  return new Uint8Array(out);
}

/** Per comparison: SEMANTICS_TIMEOUT_MS, else compareRobots' default (10 s). */
export function runSemanticsBench(timeoutMs = Number(process.env.SEMANTICS_TIMEOUT_MS ?? 10_000)) {
  const dir = join(corpusDir(), 'robots');
  const rows = [];
  let skipped = 0;
  for (const name of readdirSync(dir).sort()) {
    const bytes = new Uint8Array(readFileSync(join(dir, name)));
    const before = parseRobotsTxt(bytes);
    const ruleLines = before.groups.flatMap((g) => g.rules.map((r) => r.line)).sort((a, b) => a - b);
    if (ruleLines.length === 0) {
      skipped++;
      continue;
    }
    const after = parseRobotsTxt(withoutLine(bytes, ruleLines[ruleLines.length >> 1]));
    let result;
    const ms = timeOnce(() => {
      result = compareRobots(before, after, { timeoutMs });
    });
    if (process.env.VERBOSE && ms > 200) console.error(name, bytes.length, ms.toFixed(0), result.complete);
    rows.push({ name, bytes: bytes.length, ms, complete: result.complete, equivalent: result.equivalent });
  }
  const times = rows.map((r) => r.ms).sort((a, b) => a - b);
  const median = times[times.length >> 1];
  const worst = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 5);
  table(
    'compareRobots: each corpus file against itself minus one rule (the catalogue, the tokens the file names, and *)',
    ['files', 'without rules', 'median ms', 'p99 ms', 'worst ms', 'incomplete', 'meaning changed'],
    [
      [
        rows.length,
        skipped,
        fmt(median, 2),
        fmt(times[Math.floor(times.length * 0.99)], 1),
        fmt(times[times.length - 1], 1),
        rows.filter((r) => !r.complete).length,
        rows.filter((r) => !r.equivalent).length,
      ],
    ],
  );
  table(
    'slowest comparisons',
    ['file', 'KiB', 'ms', 'complete'],
    worst.map((r) => [r.name, fmt(r.bytes / 1024, 0), fmt(r.ms, 1), r.complete]),
  );
}

/** How many corpus files formatRobots changes (textually; never semantically, which it proves), and at what cost. */
export function runFormatBench() {
  const dir = join(corpusDir(), 'robots');
  let files = 0;
  let changed = 0;
  let withRemovals = 0;
  let removed = 0;
  const times = [];
  for (const name of readdirSync(dir).sort()) {
    const bytes = new Uint8Array(readFileSync(join(dir, name)));
    let result;
    times.push(
      timeOnce(() => {
        result = formatRobots(bytes);
      }),
    );
    files++;
    if (result.changed) changed++;
    if (result.removedLines.length > 0) withRemovals++;
    removed += result.removedLines.length;
  }
  times.sort((a, b) => a - b);
  table(
    'formatRobots on every corpus file',
    ['files', 'changed textually', 'with repeated rules removed', 'rules removed', 'median ms', 'worst ms'],
    [[files, changed, withRemovals, removed, fmt(times[times.length >> 1], 2), fmt(times[times.length - 1], 1)]],
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  if (only !== 'format') runSemanticsBench();
  if (only !== 'compare') runFormatBench();
}
