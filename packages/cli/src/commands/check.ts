/**
 * `robotskit check <url…> [--ua <token|profile>] [--json] [--timeout <s>]`: fetch the robots.txt that governs each URL
 * (the engine's crawl client: one fetch per origin) and say whether the crawler may fetch it, the deciding line, how
 * the fetch went and the policy in force. The exit status follows the verdicts: 0 when every URL is allowed, 1 when
 * one is blocked, whatever the fetch outcome behind it (a robots.txt that could not be fetched, by a 5xx or by DNS,
 * connection, timeout or a body that broke off, blocks the whole site, as Google treats it for its first 12 hours);
 * 2 only for usage errors.
 */

import type { DecidingRule } from 'robotskit';
import { type AnyFetchLike, createRobotsClient, type RobotsClient, type RobotsClientOptions } from 'robotskit/fetch';
import { painter, useColor, visible } from '../format.js';
import type { Io } from '../io.js';
import {
  checkUrlArgument,
  describeFetch,
  type FetchJson,
  fetchJson,
  isNetworkFailure,
  parseTimeout,
  policyJson,
  type ResolvedCrawler,
  resolveCrawler,
  retrievalOptions,
  robotsRequest,
  sayRewrites,
} from '../net.js';
import { lineText } from './explain.js';

/** Options of `check`, as commander parsed them. */
export interface CheckOptions {
  readonly ua?: string;
  readonly json?: boolean;
  /** Seconds, as typed. */
  readonly timeout: string;
}

/** One URL's verdict, as `check --json` prints it (an array of these, in argument order). */
export interface CheckJson {
  /** The URL as given. */
  readonly input: string;
  /** The URL as a crawler requests it (WHATWG-normalised). */
  readonly url: string;
  readonly allowed: boolean;
  /** The crawler asked for: a profile name or product token(s). */
  readonly crawler: string;
  /** What the engine's rule rewrote in `--ua` (a User-Agent string reduced to its crawler…), in words. */
  readonly crawlerRewrites: readonly string[];
  /** 1-based line of the deciding rule; 0 when none decided. */
  readonly line: number;
  readonly rule: DecidingRule | null;
  /** The deciding line as written. */
  readonly ruleText: string | null;
  readonly robotsUrl: string;
  readonly fetch: FetchJson;
  /** What applies to the origin and why: `rules`, `allow-all` or `disallow-all`. */
  readonly policy: { mode: string; reason: string; message: string };
  /** Why the fetch found no file (status, network error), in words; null when it found one. */
  readonly problem: string | null;
}

/** The crawl client the network commands use: robotskit's User-Agent, the crawler of `--ua`, `--timeout`. */
export function cliClient(
  crawler: ResolvedCrawler,
  timeoutMs: number,
  version: string,
  extra: Partial<
    Pick<RobotsClientOptions, 'fetch' | 'maxConcurrentFetches' | 'maxOrigins' | 'store' | 'onStoreError'>
  > = {},
): RobotsClient {
  const { userAgent, ...retrieval } = retrievalOptions(timeoutMs, version);
  return createRobotsClient({
    userAgent: userAgent!,
    crawler: crawler.input,
    retrieval,
    fetch: robotsRequest,
    ...extra,
  });
}

/** Checks one URL with the client. */
export async function checkOne(
  client: RobotsClient,
  input: string,
  crawler: ResolvedCrawler,
  timeoutMs: number,
): Promise<{ result: CheckJson; networkFailure: boolean }> {
  const verdict = await client.explain(input);
  const { robots } = await client.policyFor(verdict.origin);
  const ruleText = robots !== null && verdict.line > 0 ? lineText(robots, verdict.line) : null;
  const result: CheckJson = {
    input,
    url: verdict.url,
    allowed: verdict.allowed,
    crawler: crawler.profile?.name ?? crawler.label,
    crawlerRewrites: crawler.rewrites,
    line: verdict.line,
    rule: verdict.rule,
    ruleText,
    robotsUrl: verdict.robotsUrl,
    fetch: fetchJson(verdict.latest),
    policy: policyJson(verdict.policy),
    problem: describeFetch(verdict.latest, timeoutMs),
  };
  return { result, networkFailure: isNetworkFailure(verdict.latest) };
}

/** Runs `check`; returns the exit code. */
export async function runCheck(
  io: Io,
  urls: readonly string[],
  options: CheckOptions,
  version: string,
  fetchImpl?: AnyFetchLike,
): Promise<number> {
  const crawler = resolveCrawler(options.ua);
  const timeoutMs = parseTimeout(options.timeout);
  for (const url of urls) {
    // http, https and ftp: Google reads robots.txt over FTP too (see ../ftp.ts).
    checkUrlArgument(url);
  }
  const client = cliClient(crawler, timeoutMs, version, fetchImpl === undefined ? {} : { fetch: fetchImpl });
  const checked = await Promise.all(urls.map((url) => checkOne(client, url, crawler, timeoutMs)));
  const results = checked.map((c) => c.result);

  sayRewrites(io, crawler);
  // Network failures are reported once per robots.txt, as one line each; the verdict (blocked) decides the exit.
  const reported = new Set<string>();
  for (const { result: r, networkFailure } of checked) {
    if (!networkFailure) continue;
    if (reported.has(r.robotsUrl)) continue;
    reported.add(r.robotsUrl);
    io.stderr.write(
      `robotskit: cannot fetch '${r.robotsUrl}': ${r.problem} (until it can be, Google treats every URL there as disallowed)\n`,
    );
  }
  const code = results.every((r) => r.allowed) ? 0 : 1;

  if (options.json) {
    io.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    return code;
  }
  const paint = painter(useColor(io));
  const out: string[] = [];
  for (const r of results) {
    const verdict = r.allowed ? paint('green', 'ALLOWED') : paint('red', 'BLOCKED');
    out.push(`${verdict}  ${paint('bold', visible(r.url))}  ${paint('dim', `for ${crawler.label}`)}`);
    if (r.rule !== null) {
      const via = r.rule.indexHtml ? ` (as ${r.rule.pattern}, Google's index.html rule)` : '';
      out.push(`  rule     line ${r.line}: ${visible(r.ruleText ?? '')}${via}`);
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
  }
  io.stdout.write(`${out.join('\n')}\n`);
  return code;
}
