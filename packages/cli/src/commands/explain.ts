/**
 * `robotskit explain <robots-file> <url> --ua <crawler>[,<crawler>] [--json]`: the verdict for a URL, the groups that
 * applied and the line that decided, and, when the file states AI usage preferences (Content-Usage, Content-Signal),
 * which apply to the URL. A URL given for the file is said to be one, pointing at `check` and `lint <url>`.
 */

import { explainAnswer } from '../answers/explain.js';
import { CliError, type Io, readInput, URL_FOR_FILE_HINT } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { crawlerOfUa, sayRewrites } from '../options/ua.js';
import { checkDecidedUrl } from '../options/url.js';
import { indexHtmlNote, lineText, usageText } from '../output/explanation.js';
import { painter, useColor, visible } from '../output/paint.js';

interface ExplainOptions {
  readonly ua: string;
  readonly json?: boolean;
}

/** Runs `explain`; returns the exit code (0 allowed, 1 disallowed). */
export async function runExplain(
  io: Io,
  robotsFile: string,
  url: string | undefined,
  options: ExplainOptions,
): Promise<number> {
  if (url === undefined) {
    // `explain https://example.com/page`: a URL where the file goes, and no URL to decide.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(robotsFile))
      throw new CliError(`'${robotsFile}' is a URL, not a robots.txt file: ${URL_FOR_FILE_HINT}`);
    throw new CliError(`missing required argument 'url'`);
  }
  const crawler = crawlerOfUa(options.ua, (await userCatalogue(io)).crawlers);
  checkDecidedUrl(url);
  const bytes = await readInput(io, robotsFile, 'robots.txt file', URL_FOR_FILE_HINT);
  const { robots, doc: result, code } = explainAnswer(bytes, url, crawler);
  const { ruleText } = result;
  sayRewrites(io, crawler);
  if (options.json) {
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return code;
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
  if (result.usage !== undefined) out.push(...usageText(robots, result.usage, paint, visible));
  if (robots.truncated) {
    out.push(paint('yellow', `  note      only the first ${robots.parsedSize} of ${robots.size} bytes were parsed`));
  }
  io.stdout.write(`${out.join('\n')}\n`);
  return result.allowed ? 0 : 1;
}
