/**
 * `robotskit diff <old> <new> [--ua <crawlers>] [--json]`: what an edit changes in meaning, exactly. For each crawler,
 * the regions of path+query space whose verdict changes (the engine's `compareRobots`), each with a shortest example
 * path and the deciding lines before and after. Exit 0 when no crawler decides any URL differently, 1 when one does
 * (or when the comparison hit its bounds before proving there is none: a CI gate must not pass on a guess), 2 on
 * usage and I/O errors.
 */

// Types only: the engine loads when the command runs, so registering the command costs nothing at start-up.
import type { CrawlerProfile, RobotsTxt } from 'robotskit';
import type { ChangedRegion, CompareOptions, CrawlerComparison, RegionRule } from 'robotskit/semantics';
import { CliError, type Io, readInput } from '../io.js';
import { indexHtmlNote, lineText } from '../output/explanation.js';
import { type Paint, painter, useColor, visible } from '../output/paint.js';

/** Options of `diff`, as commander parsed them. */
export interface DiffOptions {
  readonly ua?: string;
  readonly json?: boolean;
}

/** `--ua a,b`: each name a crawler of the catalogue, else a product token; `*` for crawlers without a group. */
function parseCrawlers(
  ua: string | undefined,
  crawlerByName: (name: string) => CrawlerProfile | undefined,
): CompareOptions['crawlers'] {
  if (ua === undefined) return undefined;
  const names = ua
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new CliError('--ua needs at least one crawler name or product token');
  return names.map((name) => crawlerByName(name) ?? name);
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
    const key = JSON.stringify([c.complete, c.regions]);
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
  const [{ crawlerByName, parseRobotsTxt }, { compareRobots }] = await Promise.all([
    import('robotskit'),
    import('robotskit/semantics'),
  ]);
  const crawlers = parseCrawlers(options.ua, crawlerByName);
  const before = parseRobotsTxt(await readInput(io, oldFile, 'robots.txt file'));
  const after = parseRobotsTxt(await readInput(io, newFile, 'robots.txt file'));
  const diff = compareRobots(before, after, crawlers === undefined ? {} : { crawlers });
  const code = diff.equivalent ? 0 : 1;
  if (options.json) {
    io.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
    return code;
  }
  const paint = painter(useColor(io));
  const out: string[] = [];
  if (diff.equivalent) {
    out.push(`no crawler decides differently (${diff.crawlers.length} compared)`);
  }
  for (const { names: who, result } of grouped(diff.crawlers)) {
    const count = result.regions.length;
    const summary = `${count} region${count === 1 ? '' : 's'} decided differently${result.complete ? '' : ' so far'}`;
    out.push(`${paint('bold', names(who))}: ${summary}`);
    for (const region of result.regions) out.push(...describeRegion(region, before, after, paint));
    if (!result.complete) {
      out.push(
        paint('yellow', '  incomplete: the comparison reached its bounds; there may be more regions (exit status 1)'),
      );
    }
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
