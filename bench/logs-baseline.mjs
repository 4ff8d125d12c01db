/**
 * The hand-written loop `bench/logs.js` measures `robotskit logs` against: what a site owner writes without a tool.
 * A regular expression per Combined Log Format line, the crawler named by a regular expression over the User-Agent,
 * robots-parser (one instance per site) deciding the URL, counts per crawler. Reads the log on standard input; prints
 * the per-crawler counts as JSON, and its peak RSS and CPU time on standard error.
 */

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import robotsParser from 'robots-parser';

const [robotsFile, site] = process.argv.slice(2);
const robots = robotsParser(`${site}/robots.txt`, readFileSync(robotsFile, 'utf8'));
const LINE = /^(\S+) \S+ \S+ \[([^\]]+)\] "(\S+) (\S+)[^"]*" (\d{3}) \S+ "(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)"/;
const BOT = /(Googlebot-Image|Googlebot|bingbot|GPTBot|ClaudeBot|Applebot|YandexBot|[A-Za-z-]*(?:bot|crawler|spider))/i;
const counts = new Map();
let malformed = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  const m = LINE.exec(line);
  if (m === null) {
    malformed++;
    continue;
  }
  const bot = BOT.exec(m[7]);
  if (bot === null) continue;
  const name = bot[1];
  let c = counts.get(name);
  if (c === undefined) {
    c = { requests: 0, disallowed: 0 };
    counts.set(name, c);
  }
  c.requests++;
  if (robots.isDisallowed(site + m[4], name)) c.disallowed++;
}
console.log(JSON.stringify({ malformed, crawlers: Object.fromEntries(counts) }));
const usage = process.resourceUsage();
console.error(`RSS ${usage.maxRSS} CPU ${(usage.userCPUTime + usage.systemCPUTime) / 1000}`);
