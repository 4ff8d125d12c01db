/**
 * `robotskit test <robots-file> <user-agent> <url>`: the contract of Google's conformance runner. Exit status 0 means
 * allowed, 1 disallowed, 2 a usage or I/O error. On a TTY it also says why. The user agent is matched as given, like
 * the reference (a full User-Agent string is reduced to its crawler's token, and standard error says so).
 */

import { parseRobotsTxt, productToken } from 'robotskit';
import { painter, useColor, visible } from '../format.js';
import { type Io, readInput } from '../io.js';
import { lineText } from './explain.js';

/** Runs `test`; returns the exit code. */
export async function runTest(io: Io, robotsFile: string, userAgent: string, url: string): Promise<number> {
  const robots = parseRobotsTxt(await readInput(io, robotsFile, 'robots.txt file'));
  const result = robots.explain(url, userAgent);
  // The name is given to the engine as it is (Google's runner does the same); only a full User-Agent string is reduced
  // to its crawler's token, and that is said.
  const token = productToken(userAgent);
  if (token !== userAgent) {
    io.stderr.write(
      token === ''
        ? `robotskit: '${userAgent}' names no crawler: it matches no group, so only the * groups apply\n`
        : `robotskit: used '${token}', the crawler the User-Agent string '${userAgent}' names\n`,
    );
  }
  if (io.stdout.isTTY) {
    const paint = painter(useColor(io));
    const verdict = result.allowed ? paint('green', 'allowed') : paint('red', 'disallowed');
    const why = result.line > 0 ? `line ${result.line}: ${visible(lineText(robots, result.line))}` : 'no rule matched';
    io.stdout.write(`${verdict} (${why})\n`);
  }
  return result.allowed ? 0 : 1;
}
