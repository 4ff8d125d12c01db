/**
 * `robotskit test <robots-file> <user-agent> <url> [--json]`: the contract of Google's conformance runner. Exit status 0
 * means allowed, 1 disallowed, 2 a usage or I/O error. On a TTY it also says why; piped it prints nothing (the runner
 * reads the exit status), unless `--json` asks for the verdict as `explain --json` prints it.
 */

import { parseRobotsTxt } from 'robotskit';
import { painter, useColor, visible } from '../format.js';
import { type Io, readInput } from '../io.js';
import { type ExplainJson, lineText } from './explain.js';

/** Runs `test`; returns the exit code. */
export async function runTest(
  io: Io,
  robotsFile: string,
  userAgent: string,
  url: string,
  options: { readonly json?: boolean } = {},
): Promise<number> {
  const robots = parseRobotsTxt(await readInput(io, robotsFile, 'robots.txt file'));
  const result = robots.explain(url, userAgent);
  if (options.json) {
    const doc: ExplainJson = { url, ...result, ruleText: result.line > 0 ? lineText(robots, result.line) : null };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  } else if (io.stdout.isTTY) {
    const paint = painter(useColor(io));
    const verdict = result.allowed ? paint('green', 'allowed') : paint('red', 'disallowed');
    const why = result.line > 0 ? `line ${result.line}: ${visible(lineText(robots, result.line))}` : 'no rule matched';
    io.stdout.write(`${verdict} (${why})\n`);
  }
  return result.allowed ? 0 : 1;
}
