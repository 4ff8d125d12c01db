/**
 * An access log judged, as `robotskit logs` judges one, by the same engine code (`robotskit/logs`): blocks of lines
 * read by a `LogReader`, each request's crawler identified and judged against the version in force at its time, the
 * addresses verified by forward-confirmed reverse DNS. What the service keeps: the counts, the crawler rows with
 * their requests per version, the first violations (capped) with their addresses' verification, and per crawler the
 * disallowed requests from verified addresses (what the `crawler-ignores-robots` alert is about).
 */

import {
  type CrawlerRow,
  DEFAULT_JSON_FIELDS,
  LogAnalysis,
  type LogFormat,
  LogReader,
  type Malformed,
  type RobotsVersion,
  type Verification,
  type Verifier,
  type Violation,
} from 'robotskit/logs';

/** A violation as kept: the engine's record with its address's verification and why. */
export interface KeptViolation extends Violation {
  readonly verificationReason: string | null;
}

/** What a judged log says. */
export interface JudgedLog {
  readonly lines: number;
  readonly requests: number;
  readonly otherRequests: number;
  readonly malformed: number;
  readonly malformedExamples: readonly Malformed[];
  readonly violations: number;
  readonly firstRequestAt: number | null;
  readonly lastRequestAt: number | null;
  readonly crawlers: readonly CrawlerRow[];
  /** The first violations, at most `maxViolations`. */
  readonly kept: readonly KeptViolation[];
  /** Per crawler, its disallowed requests from verified addresses, and the first of them. */
  readonly verifiedDisallowed: ReadonlyMap<string, { count: number; first: KeptViolation; reason: string }>;
}

export interface JudgeOptions {
  readonly versions: readonly RobotsVersion[];
  readonly verifier: Verifier | null;
  readonly format: LogFormat;
  readonly maxViolations: number;
  /** Addresses kept (and verified) per crawler. */
  readonly maxAddresses: number;
}

/** A crawler's violations from one address: how many, and the first. */
interface AddressViolations {
  readonly crawler: string;
  readonly ip: string;
  count: number;
  readonly first: Violation;
}

/** Distinct (crawler, address) pairs of violations followed at most; violations beyond them count as unchecked. */
const MAX_PAIRS = 100_000;

/**
 * Judges the log in `blocks` (blocks of whole lines, `logBlocksOf`). The log is read without waiting on DNS: the
 * addresses are verified as they appear (the verifier's own concurrency and time bounds), and the answers are read
 * once the whole log is in.
 */
export async function judgeLog(blocks: AsyncIterable<string>, options: JudgeOptions): Promise<JudgedLog> {
  const analysis = new LogAnalysis({
    versions: options.versions,
    verifier: options.verifier,
    maxAddresses: options.maxAddresses,
    maxCrawlers: 1000,
    perVersion: true,
  });
  const reader = new LogReader(analysis, options.format, DEFAULT_JSON_FIELDS);
  reader.startFile('upload');
  const first: Violation[] = [];
  const pairs = new Map<string, AddressViolations>();
  for await (const block of blocks) {
    for (const violation of reader.block(block)) {
      if (first.length < options.maxViolations) first.push(violation);
      const key = `${violation.crawler}\u0000${violation.ip}`;
      const known = pairs.get(key);
      if (known !== undefined) known.count++;
      else if (pairs.size < MAX_PAIRS) {
        pairs.set(key, { crawler: violation.crawler, ip: violation.ip, count: 1, first: violation });
        // Started now (cached by the verifier), read below.
        void options.verifier?.verify(analysis.identityOf(violation.crawler), violation.ip);
      }
    }
  }
  const answers = new Map<string, Verification>();
  if (options.verifier !== null) {
    for (const [key, pair] of pairs) {
      answers.set(key, await options.verifier.verify(analysis.identityOf(pair.crawler), pair.ip));
    }
  }
  const kept = first.map((v): KeptViolation => {
    const answer = answers.get(`${v.crawler}\u0000${v.ip}`);
    return { ...v, verification: answer?.status ?? 'unchecked', verificationReason: answer?.reason ?? null };
  });
  const verified = new Map<string, { count: number; first: KeptViolation; reason: string }>();
  for (const [key, pair] of pairs) {
    const answer = answers.get(key);
    if (answer?.status !== 'verified') continue;
    const record: KeptViolation = { ...pair.first, verification: 'verified', verificationReason: answer.reason };
    const known = verified.get(pair.crawler);
    if (known === undefined) verified.set(pair.crawler, { count: pair.count, first: record, reason: answer.reason });
    else {
      known.count += pair.count;
      if (record.logLine < known.first.logLine)
        verified.set(pair.crawler, { ...known, first: record, reason: answer.reason });
    }
  }
  const crawlers = await analysis.rows();
  const seen = crawlers.flatMap((c) => [Date.parse(c.firstSeen), Date.parse(c.lastSeen)]);
  return {
    lines: reader.lines,
    requests: analysis.requests,
    otherRequests: analysis.otherRequests,
    malformed: reader.malformed,
    malformedExamples: reader.examples,
    violations: reader.violations,
    firstRequestAt: seen.length === 0 ? null : Math.min(...seen),
    lastRequestAt: seen.length === 0 ? null : Math.max(...seen),
    crawlers,
    kept,
    verifiedDisallowed: verified,
  };
}
