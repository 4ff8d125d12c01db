/**
 * `robotskit audit <url> [--ua <crawler>] [--json] [--timeout <s>] [--as <crawlers>]`: robots.txt, the page's
 * `X-Robots-Tag` headers and its robots meta tags together (`../answers/audit.ts`): can the crawler fetch the page, may
 * it index it and follow its links, and why; and the AI usage preferences robots.txt's `Content-Usage` rule and the
 * page's `Content-Usage` header state, each and combined. Exit 0 when the page can be crawled and indexed, 1 when it cannot, 2 on
 * usage errors or when the robots.txt or the page could not be fetched at all. With `--as`, the access each crawler
 * gets from the edge instead (`../answers/access.ts`).
 */

import { type AccessJson, accessAnswer, asCrawlers } from '../answers/access.js';
import { type AuditJson, auditAnswer, auditTarget, type UsageJson } from '../answers/audit.js';
import { crawlClient } from '../crawl/client.js';
import { cliNetwork } from '../crawl/network.js';
import { sayUnreachable } from '../crawl/verdict.js';
import { CliError, type Io } from '../io.js';
import { userCatalogue } from '../options/catalogue.js';
import { parseTimeout } from '../options/numbers.js';
import { crawlerOfUa, sayRewrites } from '../options/ua.js';
import { type Paint, painter, useColor, visible } from '../output/paint.js';

/** Options of `audit`, as commander parsed them. */
export interface AuditOptions {
  readonly ua?: string;
  readonly json?: boolean;
  readonly timeout: string;
  /** `--as GPTBot,Googlebot`: fetch as each of these crawlers and report where the edge disagrees with the file. */
  readonly as?: string;
  /** Whether `--ua` was typed (not its default): with `--as` it is a contradiction. */
  readonly uaGiven?: boolean;
}

/** The audit for people. */
function describeAudit(doc: AuditJson, label: string, paint: Paint): string[] {
  const { robots, page, crawlable, indexable, followable, index, verdict } = doc;
  const yes = (ok: boolean, word: string) => (ok ? paint('green', word) : paint('red', word));
  return [
    `${paint('bold', visible(doc.url))}  ${paint('dim', `for ${label}`)}`,
    `  verdict  ${crawlable && indexable ? paint('green', verdict) : paint('red', verdict)}`,
    `  crawl    ${yes(crawlable, crawlable ? 'allowed' : 'blocked')} by ${robots.robotsUrl}${robots.rule !== null ? ` (line ${robots.line}: ${visible(robots.ruleText ?? '')})` : ` (${robots.policy.mode})`}`,
    page === null
      ? `  page     ${paint('dim', 'not fetched (see why)')}`
      : `  page     HTTP ${page.status}${page.contentType === null ? '' : `, ${page.contentType}`}, ${page.meta.length} robots meta tag(s), ${page.xRobotsTag.length} X-Robots-Tag header(s)`,
    `  index    ${index === 'url-only' ? paint('yellow', 'the bare URL only (see why)') : yes(indexable, index)}`,
    `  follow   ${yes(followable, followable ? 'yes' : 'no')}`,
    ...doc.reasons.map((r, i) => `${i === 0 ? '  why      ' : '           '}${visible(r)}`),
    ...describeUsage(doc.usage, paint),
  ];
}

/** `train-ai disallow, search allow`; `none` when nothing is stated. */
function preferences(stated: Readonly<Record<string, string>>): string {
  const words = Object.entries(stated).map(([label, preference]) => `${label} ${preference}`);
  return words.length === 0 ? 'none' : words.join(', ');
}

/** The AI usage preferences, from both sources and combined; nothing when neither states any. */
function describeUsage(usage: UsageJson, paint: Paint): string[] {
  if (usage.robotsTxt.rules.length === 0 && usage.header === null) return [];
  const out: string[] = [];
  const rules = usage.robotsTxt.rules.map((r) => `line ${r.line}: ${visible(r.text)}`).join('; ');
  out.push(
    `  usage    robots.txt  ${usage.crawlable ? preferences(usage.robotsTxt.preferences) : paint('dim', 'none: it cannot be crawled')}${rules === '' ? '' : paint('dim', ` (${rules})`)}`,
  );
  const header = usage.header;
  if (header === null) out.push(`           header      ${paint('dim', 'no Content-Usage header')}`);
  else {
    const lines = header.lines.map((l) => `Content-Usage: ${visible(l)}`).join('; ');
    const stated = header.parsed
      ? preferences(header.preferences)
      : paint('yellow', `none: not a dictionary, ${header.error}`);
    out.push(`           header      ${stated} ${paint('dim', `(${lines})`)}`);
  }
  out.push(
    `           combined    ${usage.crawlable ? paint('bold', preferences(usage.combined)) : paint('dim', 'none: preferences apply only to pages a crawler may fetch')}${usage.crawlable ? paint('dim', ' (most restrictive per category)') : ''}`,
  );
  return out;
}

/** What the no-cache fetch of robots.txt found, when there is something to say beside the findings. */
function freshnessLine(freshness: AccessJson['baseline']['freshness'], paint: Paint): string | null {
  const said = (text: string) => `    cache    ${paint('dim', text)}`;
  switch (freshness.state) {
    case 'cached-too':
      return said(
        `the no-cache request was answered from a cache too${freshness.fresh.cache.marks.length > 0 ? ` (${visible(freshness.fresh.cache.marks.join(', '))})` : ''}: the origin's copy was not seen`,
      );
    case 'unproven':
      return said('the no-cache copy differs, and nothing says which is older: not called stale');
    case 'unchecked':
      return said(`no answer to the no-cache request: ${freshness.fresh.problem ?? 'no answer'}`);
    default:
      return null;
  }
}

/** The access each crawler gets, for people: one block per crawler, its findings first. */
function describeAccess(doc: AccessJson, paint: Paint): string[] {
  const base = doc.baseline;
  const out = [
    `${paint('bold', visible(doc.url))}  ${paint('dim', `as ${doc.crawlers.length} crawler(s)`)}`,
    `  robotskit  robots.txt ${base.robots.status === null ? (base.robots.problem ?? 'no answer') : `HTTP ${base.robots.status}`}, page ${base.page.status === null ? (base.page.error ?? 'no answer') : `HTTP ${base.page.status}`}`,
  ];
  if (base.freshness.state === 'stale')
    out.push(
      `    cache    ${paint('yellow', `robotskit's own copy is a cache's, ${base.freshness.olderBySeconds} s older than the origin's`)}`,
    );
  const baseCache = freshnessLine(base.freshness, paint);
  if (baseCache !== null) out.push(baseCache);
  for (const c of doc.crawlers) {
    const verdict = c.allowed ? paint('green', 'allowed') : paint('red', 'disallowed');
    const rule = c.line > 0 ? ` (line ${c.line}: ${visible(c.ruleText ?? '')})` : '';
    const page = c.page.status === null ? (c.page.error ?? 'no answer') : `HTTP ${c.page.status}`;
    const robots = c.robots.status === null ? (c.robots.problem ?? 'no answer') : `HTTP ${c.robots.status}`;
    out.push(
      `  ${paint('bold', c.crawler)}  ${paint('dim', visible(c.userAgent))}${c.documentedUserAgent ? '' : paint('dim', ' (built: its operator documents none)')}`,
    );
    out.push(
      `    file     ${verdict} by robots.txt${rule}; robots.txt ${robots}${c.robots.sameAsBaseline ? '' : ', not the one robotskit gets'}`,
    );
    out.push(`    page     ${page}${c.page.challenge ? ', a challenge' : ''}`);
    const cache = freshnessLine(c.freshness, paint);
    if (cache !== null) out.push(cache);
    for (const f of c.findings) out.push(`    ${paint('red', f.kind.padEnd(14))} ${visible(f.message)}`);
    if (c.findings.length === 0) out.push(`    ${paint('green', 'the edge agrees with the file')}`);
  }
  out.push(
    doc.disagreements === 0
      ? paint('green', 'no disagreement between the edge and robots.txt')
      : paint('red', `${doc.disagreements} disagreement(s) between the edge and robots.txt`),
  );
  return out;
}

/** Runs `audit --as`: the page and robots.txt fetched as each crawler; exit 1 when the edge disagrees with the file. */
async function runAuditAs(io: Io, target: string, as: string, options: AuditOptions, version: string): Promise<number> {
  if (options.uaGiven === true) throw new CliError('--as names the crawlers itself: give --as or --ua, not both');
  const crawlers = asCrawlers(as, (await userCatalogue(io)).crawlers);
  const timeoutMs = parseTimeout(options.timeout);
  const url = auditTarget(target);
  for (const crawler of crawlers) sayRewrites(io, crawler);
  const { doc, code } = await accessAnswer(url, crawlers, { network: cliNetwork(version), timeoutMs, version });
  const text = options.json ? JSON.stringify(doc, null, 2) : describeAccess(doc, painter(useColor(io))).join('\n');
  io.stdout.write(`${text}\n`);
  return code;
}

/** Runs `audit`; returns the exit code. */
export async function runAudit(io: Io, target: string, options: AuditOptions, version: string): Promise<number> {
  if (options.as !== undefined) return runAuditAs(io, target, options.as, options, version);
  const crawler = crawlerOfUa(options.ua, (await userCatalogue(io)).crawlers);
  const timeoutMs = parseTimeout(options.timeout);
  const url = auditTarget(target);
  const network = cliNetwork(version);
  const client = crawlClient(crawler, timeoutMs, version, { network });
  sayRewrites(io, crawler);
  const { doc, code, networkFailure } = await auditAnswer(url, crawler, { client, network, timeoutMs });
  if (networkFailure) sayUnreachable(io, doc.robots);
  const text = options.json
    ? JSON.stringify(doc, null, 2)
    : describeAudit(doc, crawler.label, painter(useColor(io))).join('\n');
  io.stdout.write(`${text}\n`);
  return code;
}
