/**
 * `robotskit test <robots-file> <user-agent> <url> [--json]`: the contract of Google's conformance runner. Exit status 0
 * means allowed, 1 disallowed, 2 a usage or I/O error. On a TTY it also says why; piped it prints nothing (the runner
 * reads the exit status), unless `--json` asks for the verdict as `explain --json` prints it.
 * The user agent is matched as given, like the reference (a full User-Agent string is reduced to its crawler's token,
 * and standard error says so).
 */

import { parseRobotsTxt, productToken, resolveCrawler } from 'robotskit';
import { type Io, readInput, URL_FOR_FILE_HINT } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { typoHint } from '../options/choices.js';
import { checkDecidedUrl } from '../options/url.js';
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
  checkDecidedUrl(url);
  const robots = parseRobotsTxt(await readInput(io, robotsFile, 'robots.txt file', URL_FOR_FILE_HINT));
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
  // A misspelt catalogue name silently matches no group: said on a terminal (piped, the runner reads only the status).
  // The suggestion is read in the catalogue with the merged list (a damaged list is the other commands' error to say:
  // the runner's contract is the exit status of the match alone).
  const catalogue = io.stderr.isTTY === true ? await userCatalogue(io).catch(() => null) : null;
  const suggestion = catalogue === null ? null : resolveCrawler(userAgent, catalogue.crawlers).suggestion;
  if (suggestion !== null) {
    io.stderr.write(`robotskit: warning: ${typoHint(userAgent.trim(), suggestion)}\n`);
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
