/**
 * `robotskit diff <old> <new> [--ua <crawlers>] [--json]`: what an edit changes in meaning, exactly. For each crawler,
 * the regions of path+query space whose verdict changes (the engine's `compareRobots`), each with a shortest example
 * path and the deciding lines before and after; and the AI usage preferences (`Content-Usage`, `Content-Signal`) that
 * differ, each at a witness path with its value and lines before and after. Exit 0 when no crawler decides any URL
 * differently (proven) and no usage preference differs, 1 when one does (a changed region or a changed usage
 * preference was found, with its example, even if the comparison was then cut short), 3 when the
 * comparison reached its bounds before finding a change or proving there is none (not proven either way: a CI gate
 * must not pass on a guess, nor call it a change), 2 on usage and I/O errors.
 */

// Types only: the engine loads when the command runs, so registering the command costs nothing at start-up.
import type { RobotsTxt } from 'robotskit';
import type { ChangedRegion, CrawlerComparison, RegionRule, UsageWitness } from 'robotskit/semantics';
import { CliError, type Io, readInput } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { parsePositive } from '../options/numbers.js';
import { indexHtmlNote, lineText } from '../output/explanation.js';
import { type Paint, painter, useColor, visible } from '../output/paint.js';

/** Options of `diff`, as commander parsed them. */
export interface DiffOptions {
  readonly ua?: string;
  readonly json?: boolean;
  readonly maxStates?: string;
}

function describeRule(rule: RegionRule | null, robots: RobotsTxt): string {
  if (rule === null) return 'no rule (allowed)';
  return `line ${rule.line}: ${visible(lineText(robots, rule.line))}${indexHtmlNote(rule)}`;
}

/** Crawlers with the same answer, printed once. */
function grouped(crawlers: readonly CrawlerComparison[]): { names: string[]; result: CrawlerComparison }[] {
  const groups = new Map<string, { names: string[]; result: CrawlerComparison }>();
  for (const c of crawlers) {
    if (c.equivalent) continue;
    const key = JSON.stringify([c.complete, c.regions, c.usage ?? []]);
    const group = groups.get(key);
    if (group) group.names.push(c.crawler);
    else groups.set(key, { names: [c.crawler], result: c });
  }
  return [...groups.values()];
}

function names(list: readonly string[]): string {
  return list.length <= 4 ? list.join(', ') : `${list.slice(0, 3).join(', ')} and ${list.length - 3} other crawlers`;
}

/** Runs `diff`; returns the exit code. */
export async function runDiff(io: Io, oldFile: string, newFile: string, options: DiffOptions): Promise<number> {
  if (oldFile === '-' && newFile === '-') throw new CliError('only one of the two files can be standard input (-)');
  const { diffAnswer } = await import('../answers/diff.js');
  const maxStates = options.maxStates === undefined ? undefined : parsePositive(options.maxStates, '--max-states');
  const oldBytes = await readInput(io, oldFile, 'robots.txt file');
  const newBytes = await readInput(io, newFile, 'robots.txt file');
  const crawlers = options.ua === undefined ? undefined : options.ua.split(',');
  const { crawlers: catalogue } = await userCatalogue(io);
  const { diff, before, after, code, warnings } = diffAnswer(oldBytes, newBytes, { crawlers, maxStates, catalogue });
  for (const warning of warnings) io.stderr.write(`robotskit: warning: --ua: ${warning}\n`);
  const changed = diff.crawlers.some((c) => c.regions.length > 0 || (c.usage?.length ?? 0) > 0);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
    return code;
  }
  const paint = painter(useColor(io));
  const out: string[] = [];
  if (diff.equivalent) {
    const usage = [before, after].some((f) =>
      f.groups.some((g) => g.extensions.some((e) => e.name === 'content-usage' || e.name === 'content-signal')),
    );
    out.push(
      `no crawler decides differently${usage ? ' and no AI usage preference changed' : ''} (${diff.crawlers.length} compared)`,
    );
  } else if (!changed) {
    out.push(
      paint(
        'yellow',
        'not proven: no change found before the comparison reached its bounds, and none ruled out (exit status 3)',
      ),
    );
  }
  for (const { names: who, result } of grouped(diff.crawlers)) {
    const count = result.regions.length;
    const usage = result.usage ?? [];
    const summary = [
      ...(count > 0 || usage.length === 0
        ? [`${count} region${count === 1 ? '' : 's'} decided differently${result.complete ? '' : ' so far'}`]
        : []),
      ...(usage.length > 0 ? [`${usage.length} AI usage preference${usage.length === 1 ? '' : 's'} changed`] : []),
    ].join(', ');
    out.push(`${paint('bold', names(who))}: ${summary}`);
    for (const region of result.regions) out.push(...describeRegion(region, before, after, paint));
    for (const witness of usage) out.push(...describeUsage(witness, before, after, paint));
    if (!result.complete)
      out.push(paint('yellow', '  incomplete: the comparison reached its bounds; there may be more'));
  }
  const same = diff.crawlers.filter((c) => c.equivalent).length;
  if (!diff.equivalent && same > 0) out.push(paint('dim', `${same} other crawler(s) decide every URL as before`));
  io.stdout.write(`${out.join('\n')}\n`);
  return code;
}

function describeRegion(region: ChangedRegion, before: RobotsTxt, after: RobotsTxt, paint: Paint): string[] {
  const change = region.change === 'blocked' ? paint('red', 'now blocked') : paint('green', 'now allowed');
  return [
    `  ${change}  ${visible(region.pattern)}  ${paint('dim', `e.g. ${visible(region.witness)}`)}`,
    `    before  ${describeRule(region.before, before)}`,
    `    after   ${describeRule(region.after, after)}`,
  ];
}

/** A stated value in words: `allow`, `disallow`, a signal's value, or `unstated`. */
function stated(value: string | null): string {
  return value ?? 'unstated';
}

/** The lines that stated a usage preference, as written. */
function usageLines(lines: readonly number[], robots: RobotsTxt): string {
  if (lines.length === 0) return 'no line';
  return lines.map((line) => `line ${line}: ${visible(lineText(robots, line))}`).join('; ');
}

function describeUsage(witness: UsageWitness, before: RobotsTxt, after: RobotsTxt, paint: Paint): string[] {
  return [
    `  usage  ${witness.category} ${stated(witness.before)} \u2192 ${paint('bold', stated(witness.after))}  ${paint('dim', `at ${visible(witness.path)}`)}`,
    `    before  ${usageLines(witness.linesBefore, before)}`,
    `    after   ${usageLines(witness.linesAfter, after)}`,
  ];
}
