/**
 * `explain`'s answer, as `explain --json` prints it and the MCP tool `explain` returns it: the verdict for one URL, the
 * groups that applied and the deciding line, on the bytes of the file.
 */

import { parseRobotsTxt, type RobotsTxt } from 'robotskit';
import type { UaCrawler } from '../options/ua.js';
import { checkDecidedUrl } from '../options/url.js';
import { type ExplainJson, lineText } from '../output/explanation.js';

/** The answer, with the parsed file (for the text report). */
interface Explained {
  readonly robots: RobotsTxt;
  readonly doc: ExplainJson;
  /** 0 allowed, 1 disallowed. */
  readonly code: number;
}

/** Decides `url` for `crawler` on the bytes of a robots.txt. @throws CliError for a URL that is not one. */
export function explainAnswer(bytes: Uint8Array | string, url: string, crawler: UaCrawler): Explained {
  checkDecidedUrl(url);
  const robots = parseRobotsTxt(bytes);
  const result = robots.explain(url, crawler.input);
  const ruleText = result.line > 0 ? lineText(robots, result.line) : null;
  const doc: ExplainJson = { url, ...result, ruleText, crawlerRewrites: crawler.rewrites };
  return { robots, doc, code: result.allowed ? 0 : 1 };
}
