/**
 * The semantic comparison's cost on the corpus (issue 18): every corpus file against the same file with one rule
 * removed (the middle allow/disallow line inside a group), for compareRobots' default crawlers, state budget and time
 * budget (or SEMANTICS_TIMEOUT_MS). Prints the median and worst time, how many comparisons hit a bound, and how many
 * edits changed meaning. Then formatRobots on every file, on its bytes: how many it changes textually, how many it
 * cannot prove (printed as nothing), and, checked apart from its own proof, how many formatted files decide some URL
 * otherwise (an exact comparison for the catalogue, the file's tokens and `*`) and how many have a byte >= 0x80 that is
 * not the input's (outside a leading BOM; the layout only writes ASCII and drops lines and keys). Run
 * `node bench/semantics.js [compare|format|usage]` after `npm run build` (`usage`: {@link runUsageBench}).
 *
 * `node bench/semantics.js ab <build a> <build b>` compares two builds of the engine (two `dist` folders, or copies of
 * one) on the same workload in one process, each file's comparison run by both in turn (who goes first alternates),
 * and says whether they give the same answer (regions, witnesses, states explored) wherever both finished.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CRAWLERS, parseRobotsTxt } from 'robotskit';
import { compareRobots, formatRobots } from 'robotskit/semantics';
import { corpusDir, fmt, table, timeOnce } from './harness.js';

/** Usage lines appended to every corpus file (a `*` group of its own: Google merges it with the file's `*` group). */
const USAGE_BEFORE = 'User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /*.pdf train-ai=n\n';
/** The same with the PDF rule anchored: `/.pdfx` and every path that goes on past `.pdf` change (disallow → allow). */
const USAGE_AFTER = 'User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /*.pdf$ train-ai=n\n';

/**
 * The exact comparison of usage preferences (`compareRobots` with `usage: true`) on the corpus: every file with
 * {@link USAGE_BEFORE} appended against the same with {@link USAGE_AFTER}, for the default crawlers (the catalogue, the
 * file's tokens, `*`); its time beside the verdicts-only comparison of the same pair, how many hit a bound, and for how
 * many `*` sees the planted change (not where the file keeps it from every path the change touches).
 *
 * Measured (`ROBOTSKIT_CORPUS=/work/shared/corpus node bench/semantics.js usage`, 2026-11-29): 3,709 files, median
 * 0.43 ms (0.12 ms for the verdicts alone), p99 6.4 ms, worst 128 ms (www.mofa.go.kr), none cut short; `*` sees the
 * change in 3,643. Without the search's two cuts, 6 files ran into the 10 s budget; with a branch ended where a file
 * disallows every longer path, 1 (msdn.microsoft.com: past `/.pdf`, every path ending in `.` is a class of its own that
 * `Disallow: /*.$` keeps the crawler from, and proving it walked the states of its 106 wildcard rules); with a class whose
 * changes another class shows already left unsearched, none.
 */
export function runUsageBench(timeoutMs = Number(process.env.SEMANTICS_TIMEOUT_MS ?? 10_000)) {
  const dir = join(corpusDir(), 'robots');
  const rows = [];
  const encoder = new TextEncoder();
  for (const name of readdirSync(dir).sort()) {
    const bytes = new Uint8Array(readFileSync(join(dir, name)));
    const withTail = (tail) => {
      const out = new Uint8Array(bytes.length + 1 + tail.length);
      out.set(bytes);
      out[bytes.length] = 0x0a;
      out.set(encoder.encode(tail), bytes.length + 1);
      return parseRobotsTxt(out);
    };
    const before = withTail(USAGE_BEFORE);
    const after = withTail(USAGE_AFTER);
    let usage;
    const ms = timeOnce(() => {
      usage = compareRobots(before, after, { timeoutMs, usage: true });
    });
    const verdictsMs = timeOnce(() => compareRobots(before, after, { timeoutMs }));
    const any = usage.crawlers.find((c) => c.crawler === '*');
    rows.push({ name, ms, verdictsMs, complete: usage.complete, seen: (any?.usage?.length ?? 0) > 0 });
  }
  const sorted = (key) => rows.map((r) => r[key]).sort((a, b) => a - b);
  const times = sorted('ms');
  const verdicts = sorted('verdictsMs');
  table(
    'compareRobots with usage: true: each corpus file with two Content-Usage rules appended, one of them made anchored ($)',
    ['files', 'median ms', 'p99 ms', 'worst ms', 'verdicts only: median ms', 'incomplete', '* sees the change'],
    [
      [
        rows.length,
        fmt(times[times.length >> 1], 2),
        fmt(times[Math.floor(times.length * 0.99)], 1),
        fmt(times[times.length - 1], 1),
        fmt(verdicts[verdicts.length >> 1], 2),
        rows.filter((r) => !r.complete).length,
        rows.filter((r) => r.seen).length,
      ],
    ],
  );
  const worst = [...rows].sort((a, b) => b.ms - a.ms).slice(0, 5);
  table(
    'slowest usage comparisons',
    ['file', 'ms', 'verdicts only ms', 'complete'],
    worst.map((r) => [r.name, fmt(r.ms, 1), fmt(r.verdictsMs, 1), r.complete]),
  );
}

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

/** Whether the bytes >= 0x80 of `out` are, in order, some of those of `input` (a leading BOM set aside). */
function keepsHighBytes(input, out) {
  const high = (b) => {
    const start = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    return [...b.subarray(start)].filter((x) => x >= 0x80);
  };
  const kept = high(input);
  let at = 0;
  for (const b of high(out)) {
    while (at < kept.length && kept[at] !== b) at++;
    if (at === kept.length) return false;
    at++;
  }
  return true;
}

/** Whether `out` decides every URL as `input` for the catalogue, every token `input` names and `*` (exactly). */
function sameMeaning(input, out) {
  const robots = parseRobotsTxt(input);
  const tokens = new Set();
  for (const group of robots.groups) for (const agent of group.agents) if (agent.token !== '') tokens.add(agent.token);
  return compareRobots(robots, parseRobotsTxt(out), { crawlers: [...CRAWLERS, ...tokens, '*'] }).equivalent;
}

/**
 * How many corpus files formatRobots changes, cannot prove, and (checked apart from its proof) changes in meaning or in
 * their bytes >= 0x80, and at what cost.
 */
export function runFormatBench() {
  const dir = join(corpusDir(), 'robots');
  let files = 0;
  let changed = 0;
  let unproven = 0;
  let meaning = 0;
  let rewritten = 0;
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
    if (!result.proven) {
      unproven++;
      continue;
    }
    if (result.changed) changed++;
    if (result.removedLines.length > 0) withRemovals++;
    removed += result.removedLines.length;
    if (!keepsHighBytes(bytes, result.bytes)) rewritten++;
    if (!sameMeaning(bytes, result.bytes)) meaning++;
  }
  times.sort((a, b) => a - b);
  table(
    'formatRobots on every corpus file (bytes in, bytes out)',
    [
      'files',
      'changed textually',
      'not proven',
      'meaning changed',
      'bytes >= 0x80 rewritten',
      'with repeated rules removed',
      'rules removed',
      'median ms',
      'worst ms',
    ],
    [
      [
        files,
        changed,
        unproven,
        meaning,
        rewritten,
        withRemovals,
        removed,
        fmt(times[times.length >> 1], 2),
        fmt(times[times.length - 1], 1),
      ],
    ],
  );
}

/** One build's `parseRobotsTxt` and `compareRobots`, from its `dist` folder. */
async function loadBuild(dir) {
  const root = pathToFileURL(`${resolve(dir)}/`);
  const { parseRobotsTxt: parse } = await import(new URL('index.js', root).href);
  const { compareRobots: compare } = await import(new URL('semantics/index.js', root).href);
  if (typeof parse !== 'function' || typeof compare !== 'function') throw new Error(`${dir}: not a build of robotskit`);
  return { parse, compare };
}

function medianOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Two builds on the compare workload: time per build, the median per-file ratio b/a, and any answer that differs. */
export async function runSemanticsAb(dirA, dirB, timeoutMs = Number(process.env.SEMANTICS_TIMEOUT_MS ?? 10_000)) {
  const builds = [await loadBuild(dirA), await loadBuild(dirB)];
  const dir = join(corpusDir(), 'robots');
  const totals = [0, 0];
  const ratios = [];
  const allRatios = [];
  let files = 0;
  let compared = 0;
  const differ = [];
  for (const name of readdirSync(dir).sort()) {
    const bytes = new Uint8Array(readFileSync(join(dir, name)));
    const ruleLines = builds[0]
      .parse(bytes)
      .groups.flatMap((g) => g.rules.map((r) => r.line))
      .sort((a, b) => a - b);
    if (ruleLines.length === 0) continue;
    const edited = withoutLine(bytes, ruleLines[ruleLines.length >> 1]);
    const inputs = builds.map((b) => [b.parse(bytes), b.parse(edited)]);
    const ms = [0, 0];
    const results = [];
    const order = files % 2 === 0 ? [0, 1] : [1, 0];
    for (const i of order)
      ms[i] = timeOnce(() => {
        results[i] = builds[i].compare(inputs[i][0], inputs[i][1], { timeoutMs });
      });
    files++;
    totals[0] += ms[0];
    totals[1] += ms[1];
    allRatios.push(ms[1] / ms[0]);
    if (ms[0] >= 1 && ms[1] >= 1) ratios.push(ms[1] / ms[0]);
    if (results[0].complete && results[1].complete) {
      compared++;
      if (JSON.stringify(results[0]) !== JSON.stringify(results[1])) differ.push(name);
    }
  }
  table(
    `compareRobots, build b against build a (a: ${dirA}, b: ${dirB})`,
    ['files', 'a total s', 'b total s', 'b/a total', 'b/a median', 'b/a median (files of 1 ms or more)', 'same answer'],
    [
      [
        files,
        fmt(totals[0] / 1000, 2),
        fmt(totals[1] / 1000, 2),
        fmt(totals[1] / totals[0], 3),
        fmt(medianOf(allRatios), 3),
        `${fmt(medianOf(ratios), 3)} (${ratios.length})`,
        `${compared - differ.length} of ${compared}`,
      ],
    ],
  );
  if (differ.length > 0) console.log(`different answers: ${differ.join(', ')}`);
  return { differ };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv[2];
  if (only === 'ab') {
    const { differ } = await runSemanticsAb(process.argv[3], process.argv[4]);
    process.exitCode = differ.length > 0 ? 1 : 0;
  } else {
    if (only === 'usage') runUsageBench();
    else {
      if (only !== 'format') runSemanticsBench();
      if (only !== 'compare') runFormatBench();
    }
  }
}
