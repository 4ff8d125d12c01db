/**
 * The log of several sites `bench/logs.js` measures (issue 36: "a 1,000,000-line combined log over 100 sites"): 100
 * real robots.txt files of the corpus, picked by a fixed seed among the sites that have a URL list, each served as a
 * `*.invalid` host (`4chan.org.invalid`); Combined lines with the virtual host first (nginx `$host $remote_addr - …`),
 * deterministic. Each site's paths are its URL list's (pathname and query) and its file's own rule paths (`*` made a
 * letter, `$` dropped), so that both allowed and disallowed URLs occur, and `/robots.txt`. User-Agents: five real
 * crawler strings (Googlebot, bingbot, GPTBot, ClaudeBot, YandexBot), 25 more crawlers of the catalogue picked by the
 * seed (a `compatible; Token/1.0` string each), an unknown bot and two browsers.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRAWLERS, identifyCrawler } from 'robotskit';
import { corpusDir } from './harness.js';

const REAL_AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
];
const OTHER_AGENTS = [
  'Mozilla/5.0 (compatible; ExampleCrawler/3.1; +https://crawler.invalid/)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A 31-bit linear congruential generator (in 32-bit integer arithmetic), deterministic from `seed`. */
function generator(seed) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return s;
  };
}

/** The first `n` of `list` in an order fixed by `seed` (a Fisher-Yates shuffle of a copy). */
function pick(list, n, seed) {
  const next = generator(seed);
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

export function clf(ms) {
  const d = new Date(ms);
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}

/** A path as a log line carries it: printable ASCII, no quote, backslash or space. */
const LOGGABLE = /^\/[\x21\x23-\x5b\x5d-\x7e]*$/;

/** A site's paths: its URL list's, its rule paths, and /robots.txt (at most 100 of each kind, distinct). */
function sitePaths(urls, text) {
  const fromUrls = [];
  for (const url of urls) {
    try {
      const u = new URL(url);
      fromUrls.push(u.pathname + u.search);
    } catch {}
  }
  const fromRules = [];
  for (const m of text.matchAll(/^[ \t]*(?:dis)?allow[ \t]*:[ \t]*(\S+)/gim)) {
    const path = m[1].replaceAll('*', 'x').replace(/\$$/, '');
    fromRules.push(path, `${path}${path.endsWith('/') ? '' : '/'}page.html`);
  }
  const ok = (list) => [...new Set(list.filter((p) => LOGGABLE.test(p)))].slice(0, 100);
  return [...new Set(['/', '/robots.txt', ...ok(fromUrls), ...ok(fromRules)])];
}

/**
 * Writes the 100 sites' robots.txt into `dir` (`dir/<host>/robots.txt`, as `--robots DIR` reads a folder of hosts)
 * and returns the world: the hosts with their paths, the User-Agents with the name each side counts them under
 * (`ours`: robotskit's row name, `theirs`: the hand loop's; null for a browser), and the names the hand loop looks for.
 */
export function sitesWorld(dir, count = 100) {
  const corpus = corpusDir();
  const index = readFileSync(join(corpus, 'urls', 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n');
  const header = index[0].split('\t');
  const rows = index.slice(1).map((row) => row.split('\t'));
  const sites = pick(rows, count, 36).map((cells) => {
    const robotsFile = cells[header.indexOf('robots_file')];
    const bytes = readFileSync(join(corpus, 'robots', robotsFile));
    const urls = readFileSync(join(corpus, 'urls', cells[header.indexOf('urls_file')]), 'utf8')
      .split('\n')
      .filter(Boolean);
    const host = `${cells[header.indexOf('site')].toLowerCase()}.invalid`;
    mkdirSync(join(dir, host));
    writeFileSync(join(dir, host, 'robots.txt'), bytes);
    return { host, robotsFile, paths: sitePaths(urls, bytes.toString('latin1')) };
  });
  const realNames = new Set(REAL_AGENTS.map((ua) => identifyCrawler(ua).name));
  const candidates = CRAWLERS.filter(
    (c) => c.validTokens && /^[A-Za-z][A-Za-z-]*$/.test(c.tokens[0]) && !realNames.has(c.name),
  );
  const catalogueAgents = pick(candidates, 25, 9309).map(
    (c) => `Mozilla/5.0 (compatible; ${c.tokens[0]}/1.0; +https://crawler.invalid/bot)`,
  );
  const agents = [...REAL_AGENTS, ...catalogueAgents, ...OTHER_AGENTS].map((ua) => {
    const identity = identifyCrawler(ua);
    return { ua, ours: identity?.name ?? null, theirs: identity?.token ?? null };
  });
  // The names the hand loop's regular expression looks for: the catalogue crawlers' tokens as their strings name them.
  const known = [...new Set(agents.filter((a) => identifyCrawler(a.ua)?.profile).map((a) => a.theirs))];
  return { sites, agents, known };
}

/**
 * Writes `lines` lines of the world's log to `stream`, with backpressure; deterministic. Twenty requests a second,
 * spread evenly over the sites, User-Agents and each site's paths. Each crawler comes from a pool of its own, as real
 * ones do: Googlebot from 4,000 addresses of Google's range (verified by the range file), every other User-Agent from
 * 250 addresses of the benchmarking range 198.18.0.0/15, so verification answers are reused as the issue's
 * "verification answers cached" assumes.
 */
export async function writeSitesLog(world, stream, lines) {
  const next = generator(7);
  const start = Date.parse('2026-11-01T00:00:00Z');
  const { sites, agents } = world;
  const chunk = [];
  let time = '';
  let second = -1;
  for (let i = 0; i < lines; i++) {
    const r = next();
    const r2 = next();
    const site = sites[(r >> 4) % sites.length];
    const k = (r >> 16) % agents.length;
    const agent = agents[k];
    const path = site.paths[(r2 >> 8) % site.paths.length];
    const ip =
      agent.ours === 'Googlebot'
        ? `66.249.${64 + ((r2 >> 4) % 16)}.${(r2 >> 12) % 250}`
        : `198.18.${k}.${(r2 >> 12) % 250}`;
    if (Math.floor(i / 20) !== second) {
      second = Math.floor(i / 20);
      time = clf(start + second * 1000);
    }
    chunk.push(`${site.host} ${ip} - - [${time}] "GET ${path} HTTP/1.1" 200 ${r2 % 5000} "-" "${agent.ua}"\n`);
    if (chunk.length === 2000) {
      if (!stream.write(chunk.join(''))) await new Promise((resolve) => stream.once('drain', resolve));
      chunk.length = 0;
    }
  }
  stream.end(chunk.join(''));
}
