/**
 * One URL decided over the network, as `check` prints it and `audit` includes it: the verdict, the deciding line, how
 * the robots.txt fetch went and the policy in force, as JSON; and the one line said when the robots.txt could not be
 * fetched at all.
 */

import type { DecidingRule } from 'robotskit';
import type { RobotsClient } from 'robotskit/fetch';
import type { Io } from '../io.js';
import type { UaCrawler } from '../options/ua.js';
import { lineText } from '../output/explanation.js';
import { describeFetch, type FetchJson, fetchJson, isNetworkFailure, policyJson } from '../output/fetch.js';

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

/** A URL checked: its JSON, and whether its robots.txt could not be fetched at all. */
interface CheckedUrl {
  readonly result: CheckJson;
  readonly networkFailure: boolean;
}

/** Decides one URL with the client (which fetches its robots.txt once per origin). */
export async function checkUrl(
  client: RobotsClient,
  input: string,
  crawler: UaCrawler,
  timeoutMs: number,
): Promise<CheckedUrl> {
  const verdict = await client.explain(input, crawler.input);
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
    fetch: fetchJson(verdict.latest, timeoutMs),
    policy: policyJson(verdict.policy),
    problem: describeFetch(verdict.latest, timeoutMs),
  };
  return { result, networkFailure: isNetworkFailure(verdict.latest) };
}

/** Says on standard error that a robots.txt could not be fetched, and what that means until it can be. */
export function sayUnreachable(io: Io, result: CheckJson): void {
  io.stderr.write(
    `robotskit: cannot fetch '${result.robotsUrl}': ${result.problem} (until it can be, Google treats every URL there as disallowed)\n`,
  );
}
