/**
 * `robotskit check <url…> [--ua <token|profile>] [--json] [--timeout <s>]`: fetch the robots.txt that governs each URL
 * (the engine's crawl client: one fetch per origin) and say whether the crawler may fetch it, the deciding line, how
 * the fetch went and the policy in force. The exit status follows the verdicts: 0 when every URL is allowed, 1 when
 * one is blocked, whatever the fetch outcome behind it (a robots.txt that could not be fetched, by a 5xx or by DNS,
 * connection, timeout or a body that broke off, blocks the whole site, as Google treats it for its first 12 hours);
 * 2 only for usage errors.
 */

import { crawlClient } from '../crawl/client.js';
import { type CheckJson, checkUrl, sayUnreachable } from '../crawl/verdict.js';
import type { Io } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { parseTimeout } from '../options/numbers.js';
import { crawlerOfUa, sayRewrites } from '../options/ua.js';
import { checkUrlArgument } from '../options/url.js';
import { indexHtmlNote } from '../output/explanation.js';
import { type Paint, painter, useColor, visible } from '../output/paint.js';

/** Options of `check`, as commander parsed them. */
export interface CheckOptions {
  readonly ua?: string;
  readonly json?: boolean;
  /** Seconds, as typed. */
  readonly timeout: string;
}

/** Runs `check`; returns the exit code. */
export async function runCheck(
  io: Io,
  urls: readonly string[],
  options: CheckOptions,
  version: string,
): Promise<number> {
  const crawler = crawlerOfUa(options.ua, (await userCatalogue(io)).crawlers);
  // Said first: a misspelt crawler matters whatever happens next.
  sayRewrites(io, crawler);
  const timeoutMs = parseTimeout(options.timeout);
  for (const url of urls) {
    // http, https and ftp: Google reads robots.txt over FTP too (see ../ftp.ts).
    checkUrlArgument(url);
  }
  const client = crawlClient(crawler, timeoutMs, version);
  const checked = await Promise.all(urls.map((url) => checkUrl(client, url, crawler, timeoutMs)));
  const results = checked.map((c) => c.result);

  // Network failures are reported once per robots.txt, as one line each; the verdict (blocked) decides the exit.
  const reported = new Set<string>();
  for (const { result: r, networkFailure } of checked) {
    if (!networkFailure) continue;
    if (reported.has(r.robotsUrl)) continue;
    reported.add(r.robotsUrl);
    sayUnreachable(io, r);
  }
  const code = results.every((r) => r.allowed) ? 0 : 1;

  if (options.json) {
    io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    return code;
  }
  const paint = painter(useColor(io));
  const out: string[] = [];
  for (const r of results) out.push(...describeCheck(r, crawler.label, paint));
  io.stdout.write(`${out.join('\n')}\n`);
  return code;
}

/** One URL's verdict for people: the verdict, the deciding rule, the fetch, the policy. */
function describeCheck(r: CheckJson, crawler: string, paint: Paint): string[] {
  const out: string[] = [];
  const verdict = r.allowed ? paint('green', 'ALLOWED') : paint('red', 'BLOCKED');
  out.push(`${verdict}  ${paint('bold', visible(r.url))}  ${paint('dim', `for ${crawler}`)}`);
  if (r.rule !== null) {
    out.push(`  rule     line ${r.line}: ${visible(r.ruleText ?? '')}${indexHtmlNote(r.rule)}`);
  } else if (r.policy.mode === 'rules') {
    out.push(`  rule     ${paint('dim', 'no rule matched: allowed')}`);
  } else {
    out.push(
      `  rule     ${paint('dim', `none: the whole site is ${r.policy.mode === 'allow-all' ? 'allowed' : 'disallowed'}`)}`,
    );
  }
  const fetched =
    r.problem ??
    // No status: a file read over FTP.
    `${r.fetch.status === null ? '' : `HTTP ${r.fetch.status}, `}${r.fetch.bytes} bytes${r.fetch.truncated ? ' (cut at the limit)' : ''}`;
  const hops = r.fetch.redirects > 0 ? ` via ${r.fetch.redirects} redirect(s) to ${r.fetch.finalUrl}` : '';
  out.push(`  robots   ${r.robotsUrl}${hops}: ${fetched}, ${r.fetch.ms} ms`);
  if (r.fetch.html)
    out.push(`           ${paint('yellow', 'the file is an HTML page: probably a misconfigured server')}`);
  out.push(`  policy   ${r.policy.mode}: ${r.policy.message}`);
  return out;
}
