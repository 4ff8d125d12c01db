/**
 * `logs`' words for people: the summary table per crawler (per host, then crawler, for a log of several sites), its
 * violations by version and line, the requests for hosts with no robots.txt known, and the counts of lines that could
 * not be read; and the one JSON document `--json` prints.
 */

import type { CrawlerRow, Malformed } from 'robotskit/logs';
import type { Paint } from '../output/paint.js';
import { visible } from '../output/paint.js';

/** Everything `logs` found, as `--json` prints it. */
export interface LogsReport {
  readonly files: readonly string[];
  /** Each version judged by; `host` null when one robots.txt judges the whole log. */
  readonly versions: readonly { host: string | null; label: string; since: string | null }[];
  /** A log of several sites: requests not judged, by host with no robots.txt known (`host` null: the line names none). */
  readonly unknownHosts: readonly { host: string | null; requests: number; crawlerRequests: number }[];
  readonly lines: number;
  readonly requests: number;
  /** Requests of clients that name no crawler (browsers, tools). */
  readonly otherRequests: number;
  readonly malformed: { readonly lines: number; readonly examples: readonly Malformed[] };
  readonly violations: number;
  readonly crawlers: readonly CrawlerRow[];
}

function when(iso: string): string {
  return iso.replace('.000Z', 'Z');
}

function delayText(row: CrawlerRow): string {
  const d = row.crawlDelay;
  if (d === null) return '-';
  const ignored = d.honoured === false ? ', not honoured by this crawler' : '';
  return `${d.seconds}s (line ${d.line} of ${d.version}${ignored}): ${d.tooSoon} request(s) sooner`;
}

function verificationText(row: CrawlerRow): string {
  const v = row.verification;
  if (v.status === 'unchecked') return 'not checked';
  const { verified, spoofed, unverifiable } = v.requests;
  const counts = [
    verified > 0 ? `${verified} verified` : '',
    spoofed > 0 ? `${spoofed} spoofed` : '',
    unverifiable > 0 ? `${unverifiable} unverifiable` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `${v.status}${counts === '' ? '' : ` (requests: ${counts})`}${v.reason === null ? '' : `: ${visible(v.reason)}`}`;
}

/** The hosts of a log of several sites, in the rows' order, with their versions; null for one robots.txt. */
function hostsOf(report: LogsReport): Map<string, number> | null {
  if (report.versions.length === 0 || report.versions[0]!.host === null) return null;
  const hosts = new Map<string, number>();
  for (const v of [...report.versions].sort((a, b) => (a.host! < b.host! ? -1 : a.host! > b.host! ? 1 : 0)))
    hosts.set(v.host!, (hosts.get(v.host!) ?? 0) + 1);
  return hosts;
}

/** The requests not judged for want of their host's robots.txt, in one paragraph. */
function unknownText(report: LogsReport, paint: Paint): string[] {
  const unknown = report.unknownHosts;
  if (unknown.length === 0) return [];
  const total = unknown.reduce((n, u) => n + u.requests, 0);
  const named = unknown.filter((u) => u.host !== null).length;
  const out = [
    `\n${paint('yellow', `${total} request(s) not judged`)}: ${named} host(s) with no robots.txt known${unknown.some((u) => u.host === null) ? ', and lines that name no host' : ''}`,
  ];
  for (const u of unknown.slice(0, 20)) {
    out.push(
      `  ${u.host === null ? '(no host)' : visible(u.host)}: ${u.requests} request(s), ${u.crawlerRequests} by crawlers`,
    );
  }
  if (unknown.length > 20) out.push(`  and ${unknown.length - 20} more host(s)`);
  return out;
}

/** The terminal summary. */
export function summaryText(report: LogsReport, paint: Paint): string {
  const out: string[] = [];
  const hosts = hostsOf(report);
  const versions =
    report.versions.length === 1 ? '1 robots.txt version' : `${report.versions.length} robots.txt versions`;
  out.push(
    `${report.lines} line(s), ${report.requests} request(s) (${report.otherRequests} from browsers and other clients), ${new Set(report.crawlers.map((c) => c.name)).size} crawler(s), judged against ${versions}${hosts === null ? '' : ` of ${hosts.size} host(s), each request by its host's`}`,
  );
  const shown = new Set<string>();
  /** A host's heading before its first row (and for hosts no crawler asked, after the rows). */
  const heading = (host: string) => {
    shown.add(host);
    const count = hosts!.get(host) ?? 0;
    out.push(`\n${paint('bold', `== ${visible(host)}`)} ${paint('dim', `(${count} robots.txt version(s))`)}`);
  };
  for (const row of report.crawlers) {
    if (hosts !== null && row.host !== null && !shown.has(row.host)) heading(row.host);
    const head = `${paint('bold', visible(row.name))}${row.known ? ` (${row.operator ?? 'catalogue'})` : ' (unknown bot)'}`;
    const disallowed =
      row.disallowed === 0 ? paint('green', '0 disallowed') : paint('red', `${row.disallowed} disallowed`);
    out.push(
      `\n${head}: ${row.requests} request(s), ${disallowed}${row.unjudged > 0 ? `, ${row.unjudged} before the first version (not judged)` : ''}`,
    );
    for (const v of row.violations) {
      out.push(`  ${v.requests} × line ${v.line} of ${v.version}: ${visible(v.rule)}`);
    }
    const robots = `${row.robotsTxt.fetches} fetch(es)${row.robotsTxt.fetches > 0 ? (row.robotsTxt.fetchedFirst ? ', first' : ', not first') : ''}`;
    out.push(`  robots.txt: ${robots}; crawl-delay: ${delayText(row)}`);
    const interval =
      row.meanIntervalSeconds === null ? '' : `, ${row.meanIntervalSeconds.toFixed(1)}s apart on average`;
    out.push(`  seen ${when(row.firstSeen)} to ${when(row.lastSeen)}${interval}; ${row.addresses} address(es)`);
    const status = verificationText(row);
    const colour =
      row.verification.status === 'verified' ? 'green' : row.verification.status === 'spoofed' ? 'red' : 'dim';
    out.push(`  verification: ${paint(colour, status)}`);
  }
  if (hosts !== null) {
    for (const host of hosts.keys()) {
      if (shown.has(host)) continue;
      heading(host);
      out.push('  no crawler requests');
    }
  }
  out.push(...unknownText(report, paint));
  if (report.malformed.lines > 0) {
    out.push(`\n${paint('yellow', `${report.malformed.lines} line(s) could not be read`)}, e.g.:`);
    for (const m of report.malformed.examples) out.push(`  ${m.file}:${m.line}: ${m.reason}`);
  }
  out.push(
    report.violations === 0
      ? `\n${paint('green', 'no violations')}`
      : `\n${paint('red', `${report.violations} violation(s)`)}: requests for URLs the robots.txt in force disallowed`,
  );
  return `${out.join('\n')}\n`;
}
