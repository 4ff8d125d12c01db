/**
 * `robotskit explain <robots-file> <url> --ua <crawler>[,<crawler>] [--json]`: the verdict for a URL, the groups that
 * applied and the line that decided.
 */

import { parseRobotsTxt } from 'robotskit';
import { type Io, readInput } from '../io.js';
import { crawlerOfUa, sayRewrites } from '../options/ua.js';
import { type ExplainJson, indexHtmlNote, lineText } from '../output/explanation.js';
import { painter, useColor, visible } from '../output/paint.js';

interface ExplainOptions {
  readonly ua: string;
  readonly json?: boolean;
}

/** Runs `explain`; returns the exit code (0 allowed, 1 disallowed). */
export async function runExplain(io: Io, robotsFile: string, url: string, options: ExplainOptions): Promise<number> {
  const crawler = crawlerOfUa(options.ua);
  const robots = parseRobotsTxt(await readInput(io, robotsFile, 'robots.txt file'));
  const result = robots.explain(url, crawler.input);
  sayRewrites(io, crawler);
  const ruleText = result.line > 0 ? lineText(robots, result.line) : null;
  if (options.json) {
    const doc: ExplainJson = { url, ...result, ruleText, crawlerRewrites: crawler.rewrites };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return result.allowed ? 0 : 1;
  }
  const paint = painter(useColor(io));
  const out: string[] = [];
  out.push(`${paint('bold', url)}`);
  out.push(`  path      ${visible(result.path)}`);
  out.push(`  crawler   ${crawler.label}`);
  out.push(`  verdict   ${result.allowed ? paint('green', 'ALLOWED') : paint('red', 'DISALLOWED')}`);
  if (result.groups === 'none') {
    out.push(`  groups    ${paint('dim', 'no group names this crawler and there is no * group: nothing applies')}`);
  } else {
    const which = result.groups === 'specific' ? 'named for this crawler' : 'the * group (no group names this crawler)';
    out.push(`  groups    ${which}`);
    for (const line of result.groupLines) out.push(`            line ${line}: ${visible(lineText(robots, line))}`);
  }
  if (result.rule === null) {
    out.push(`  rule      ${paint('dim', 'no rule matched: allowed')}`);
  } else {
    out.push(`  rule      line ${result.rule.line}: ${visible(ruleText ?? '')}${indexHtmlNote(result.rule)}`);
    out.push(
      `            ${paint('dim', `pattern ${visible(result.rule.pattern) || '(empty)'}, ${result.rule.pattern.length} chars`)}`,
    );
  }
  if (robots.truncated) {
    out.push(paint('yellow', `  note      only the first ${robots.parsedSize} of ${robots.size} bytes were parsed`));
  }
  io.stdout.write(`${out.join('\n')}\n`);
  return result.allowed ? 0 : 1;
}
