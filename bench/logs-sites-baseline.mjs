/**
 * The hand-written loop `bench/logs.js` measures `robotskit logs` against on a log of several sites: what a site owner
 * writes without a tool. One regular expression per Combined Log Format line with the virtual host first (nginx
 * `$host $remote_addr - …`), the crawler named by one regular expression over the User-Agent (the crawler names the
 * owner cares about, longest first, else any `…bot`/`…crawler`/`…spider` token), one robots-parser instance per site
 * (parsed once at the start, kept in a Map by host) deciding each request with `isAllowed`, violations counted per
 * crawler (a request for /robots.txt is not one). No verification, no times, no crawl-delays.
 * Usage: `node logs-sites-baseline.mjs <robots folder: one subfolder per host holding robots.txt> <names,comma,separated>`.
 * Reads the log on standard input; prints the per-crawler counts as JSON, and its peak RSS and CPU time on standard error.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import robotsParser from 'robots-parser';

const [dir, names] = process.argv.slice(2);
const sites = new Map();
for (const host of readdirSync(dir)) {
  sites.set(host, robotsParser(`http://${host}/robots.txt`, readFileSync(join(dir, host, 'robots.txt'), 'utf8')));
}
const LINE = /^(\S+) (\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+)[^"]*" (\d{3}) \S+ "(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)"/;
const known = names.split(',').sort((a, b) => b.length - a.length);
const canonical = new Map(known.map((n) => [n.toLowerCase(), n]));
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const BOT = new RegExp(
  `(?:^|[^A-Za-z0-9_-])(${known.map(escapeRegExp).join('|')})(?![A-Za-z0-9_-])|([A-Za-z-]*(?:bot|crawler|spider))`,
  'i',
);
const counts = new Map();
const unknownHosts = new Map();
let malformed = 0;
let violations = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  const m = LINE.exec(line);
  if (m === null) {
    malformed++;
    continue;
  }
  const bot = BOT.exec(m[7]);
  if (bot === null) continue;
  const name = bot[1] === undefined ? bot[2] : canonical.get(bot[1].toLowerCase());
  const host = m[1];
  const robots = sites.get(host);
  if (robots === undefined) {
    unknownHosts.set(host, (unknownHosts.get(host) ?? 0) + 1);
    continue;
  }
  let c = counts.get(name);
  if (c === undefined) {
    c = { requests: 0, disallowed: 0 };
    counts.set(name, c);
  }
  c.requests++;
  const path = m[5];
  if (path === '/robots.txt') continue;
  // robots-parser answers undefined for a URL it cannot read or of another host: not counted as a violation.
  if (robots.isAllowed(`http://${host}${path}`, name) === false) {
    c.disallowed++;
    violations++;
  }
}
console.log(
  JSON.stringify({
    malformed,
    violations,
    unknownHosts: Object.fromEntries(unknownHosts),
    crawlers: Object.fromEntries(counts),
  }),
);
const usage = process.resourceUsage();
console.error(`RSS ${usage.maxRSS} CPU ${(usage.userCPUTime + usage.systemCPUTime) / 1000}`);
