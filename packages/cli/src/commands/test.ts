/**
 * `robotskit test <robots-file> <user-agent> <url> [--json]`: the contract of Google's conformance runner. Exit status 0
 * means allowed, 1 disallowed, 2 a usage or I/O error. On a TTY it also says why; piped it prints nothing (the runner
 * reads the exit status), unless `--json` asks for the verdict as `explain --json` prints it.
 * The user agent is matched as given, like the reference (a full User-Agent string is reduced to its crawler's token,
 * and standard error says so).
 */

import { parseRobotsTxt, productToken } from 'robotskit';
import { type Io, readInput } from '../io.js';
import { type ExplainJson, lineText } from '../output/explanation.js';
import { painter, useColor, visible } from '../output/paint.js';

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
  // The name is given to the engine as it is (Google's runner does the same); only a full User-Agent string is reduced
  // to its crawler's token, and that is said.
  const token = productToken(userAgent);
  const rewrites: string[] = [];
  if (token !== userAgent) {
    rewrites.push(
      token === ''
        ? `'${userAgent}' names no crawler: it matches no group, so only the * groups apply`
        : `used '${token}', the crawler the User-Agent string '${userAgent}' names`,
    );
    io.stderr.write(`robotskit: ${rewrites[0]}\n`);
  }
  if (options.json) {
    const ruleText = result.line > 0 ? lineText(robots, result.line) : null;
    const doc: ExplainJson = { url, ...result, ruleText, crawlerRewrites: rewrites };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  } else if (io.stdout.isTTY) {
    const paint = painter(useColor(io));
    const verdict = result.allowed ? paint('green', 'allowed') : paint('red', 'disallowed');
    const why = result.line > 0 ? `line ${result.line}: ${visible(lineText(robots, result.line))}` : 'no rule matched';
    io.stdout.write(`${verdict} (${why})\n`);
  }
  return result.allowed ? 0 : 1;
}
