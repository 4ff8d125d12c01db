/**
 * `robotskit explain <robots-file> <url> --ua <token>[,<token>] [--json]`: the verdict for a URL, the groups that
 * applied and the line that decided.
 */

import { type Explanation, parseRobotsTxt, type RobotsTxt } from 'robotskit';
import { painter, useColor, visible } from '../format.js';
import { CliError, type Io, readInput } from '../io.js';

/** The text of a 1-based line of the parsed file, as written. */
export function lineText(robots: RobotsTxt, line: number): string {
  return robots.records[line - 1]?.text.trim() ?? '';
}

/** Splits `--ua a,b` into product tokens. */
export function parseAgents(value: string): string[] {
  const agents = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (agents.length === 0) throw new CliError('--ua needs at least one user-agent token');
  return agents;
}

interface ExplainOptions {
  readonly ua: string;
  readonly json?: boolean;
}

/** The JSON document `explain --json` prints. */
export interface ExplainJson extends Explanation {
  readonly url: string;
  /** The deciding line as written, when there is one. */
  readonly ruleText: string | null;
}

/** Runs `explain`; returns the exit code (0 allowed, 1 disallowed). */
export async function runExplain(io: Io, robotsFile: string, url: string, options: ExplainOptions): Promise<number> {
  const agents = parseAgents(options.ua);
  const robots = parseRobotsTxt(await readInput(io, robotsFile, 'robots.txt file'));
  const result = robots.explain(url, agents);
  const ruleText = result.line > 0 ? lineText(robots, result.line) : null;
  if (options.json) {
    const doc: ExplainJson = { url, ...result, ruleText };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return result.allowed ? 0 : 1;
  }
  const paint = painter(useColor(io));
  const out: string[] = [];
  out.push(`${paint('bold', url)}`);
  out.push(`  path      ${visible(result.path)}`);
  out.push(`  crawler   ${result.userAgents.join(', ')}`);
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
    const via = result.rule.indexHtml ? ` (as ${result.rule.pattern}, Google's index.html rule)` : '';
    out.push(`  rule      line ${result.rule.line}: ${visible(ruleText ?? '')}${via}`);
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
