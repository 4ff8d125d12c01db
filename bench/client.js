/**
 * Crawl-client benchmarks (issue: fetching): every corpus URL checked through `createRobotsClient`, each site's
 * robots.txt served by a local HTTP server; cold (one fetch per origin) and warm (cached), against a hand-written
 * loop of fetch + robots-parser over the same server, and the client's per-check cost over the bare engine.
 */

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import robotsParser from 'robots-parser';
import { createRobotsClient, parseRobotsTxt } from 'robotskit';
import { corpusDir, fmt, goal, table } from './harness.js';

function loadSites() {
  const dir = corpusDir();
  const index = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n');
  const header = index[0].split('\t');
  return index.slice(1).map((row) => {
    const cells = row.split('\t');
    const urls = readFileSync(join(dir, 'urls', cells[header.indexOf('urls_file')]), 'utf8')
      .split('\n')
      .filter(Boolean);
    const body = readFileSync(join(dir, 'robots', cells[header.indexOf('robots_file')]));
    return { host: cells[header.indexOf('site')], urls, body };
  });
}

async function elapsed(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function runClientBench() {
  const sites = loadSites();
  const bodies = new Map(sites.map((s) => [s.host, s.body]));
  let served = 0;
  // One loopback server stands for every site: /<host>/robots.txt is that site's file.
  const server = createServer((req, res) => {
    const host = decodeURIComponent(req.url.split('/')[1] ?? '');
    const body = bodies.get(host);
    served++;
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' });
    res.end(body ?? '');
  });
  // Idle connections stay open between rounds (a busy machine can make a round outlast the 5 s default and reuse
  // sockets the server has just closed).
  server.keepAliveTimeout = 60_000;
  // A deep accept queue: a thousand origins connect at once, and an overflowing queue resets connections.
  await new Promise((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  const port = server.address().port;
  // Every origin's request goes to the local server, keyed by its host.
  let failed = 0;
  const localFetch = (url, init) => {
    const u = new URL(url);
    return fetch(`http://127.0.0.1:${port}/${encodeURIComponent(u.hostname)}${u.pathname}`, init).catch((error) => {
      failed++;
      throw error;
    });
  };
  // The URLs as a crawler meets them: origins interleaved.
  const urls = [];
  const longest = Math.max(...sites.map((s) => s.urls.length));
  for (let i = 0; i < longest; i++) for (const s of sites) if (i < s.urls.length) urls.push(s.urls[i]);
  const origins = new Set(urls.map((u) => new URL(u).origin)).size;
  console.log(`\nclient workload: ${urls.length} URLs over ${origins} origins (corpus sites, served on loopback)`);

  let sink = 0;
  const byOrigin = new Map();
  for (const u of urls) {
    const origin = new URL(u).origin;
    if (!byOrigin.has(origin)) byOrigin.set(origin, []);
    byOrigin.get(origin).push(u);
  }
  // A fresh client each time: its cache starts empty, so each origin's robots.txt is fetched once.
  const clientRun = async () => {
    const client = createRobotsClient({ userAgent: 'Googlebot', fetch: localFetch });
    const answers = await Promise.all(urls.map((u) => client.isAllowed(u)));
    for (const a of answers) if (a) sink++;
    return client;
  };
  // The loop robots-parser users write: fetch each origin's robots.txt once (in parallel), parse, check.
  const handwrittenRun = () =>
    Promise.all(
      [...byOrigin].map(async ([origin, list]) => {
        let text = '';
        try {
          const response = await localFetch(`${origin}/robots.txt`, {});
          text = response.ok ? await response.text() : '';
        } catch {
          text = '';
        }
        const robots = robotsParser(`${origin}/robots.txt`, text);
        for (const u of list) if (robots.isAllowed(u, 'Googlebot') !== false) sink++;
      }),
    );
  // One unmeasured run of each opens the loopback connections and warms the JIT; then alternate rounds.
  await clientRun();
  await handwrittenRun();
  const coldTimes = [];
  const handwrittenTimes = [];
  const coldRatios = [];
  let client;
  let coldFetches = 0;
  let handwrittenFetches = 0;
  failed = 0;
  for (let round = 0; round < 5; round++) {
    served = 0;
    coldTimes.push(
      await elapsed(async () => {
        client = await clientRun();
      }),
    );
    coldFetches = served;
    served = 0;
    handwrittenTimes.push(await elapsed(handwrittenRun));
    handwrittenFetches = served;
    coldRatios.push(handwrittenTimes.at(-1) / coldTimes.at(-1));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const cold = median(coldTimes);
  const handwritten = median(handwrittenTimes);
  // Warm: the last client's cache holds every origin; best of 5 sequential passes.
  const warmPass = () =>
    elapsed(async () => {
      for (const u of urls) if (await client.isAllowed(u)) sink++;
    });
  const warmTimes = [];
  for (let i = 0; i < 5; i++) warmTimes.push(await warmPass());
  const warm = median(warmTimes);

  // The bare engine on files already parsed: what the client adds per check.
  const parsed = new Map(sites.map((s) => [s.host, parseRobotsTxt(s.body)]));
  const hostOf = new Map(urls.map((u) => [u, new URL(u).hostname]));
  const barePass = () =>
    elapsed(async () => {
      for (const u of urls) if (parsed.get(hostOf.get(u))?.isAllowed(u, 'Googlebot')) sink++;
    });
  await barePass(); // builds each file's matcher, as the client's cache already has
  const bareTimes = [];
  for (let i = 0; i < 5; i++) bareTimes.push(await barePass());
  const bare = median(bareTimes);

  await new Promise((resolve) => server.close(resolve));
  const rate = (ms) => fmt(urls.length / (ms / 1000), 0);
  table(
    'crawl client (median of 5 alternating rounds; loopback HTTP, so fetch cost is the floor of a real crawl)',
    ['workload', 'URLs/s', 'robots.txt requests'],
    [
      ['client, cold: fetch each origin once, all URLs concurrently', rate(cold), coldFetches],
      ['client, warm: every URL again from the cache, one at a time', rate(warm), 0],
      ['hand-written fetch + robots-parser loop, one fetch per origin', rate(handwritten), handwrittenFetches],
      ['bare engine, files already parsed and matched once (no client)', rate(bare), 0],
    ],
  );
  // Loopback fetches can fail too (a kept-alive socket closed by the server as it is reused): counted, not hidden.
  console.log(`failed robots.txt requests over the 10 measured runs: ${failed}`);
  const coldRatio = median(coldRatios);
  console.log(`crawl client cold is ${fmt(coldRatio, 2)}x the hand-written loop (median of per-round ratios)`);
  goal('crawl client cold, vs the hand-written loop', coldRatio, '>= 1.2x', coldRatio >= 1.2);
  const warmRate = urls.length / (warm / 1000);
  goal('crawl client warm (URLs/s)', warmRate / 1e6, '>= 1 M/s', warmRate >= 1e6, 'M/s');
  console.log(`client overhead per cached check: ${fmt(((warm - bare) * 1e6) / urls.length, 0)} ns (sink ${sink > 0})`);
}
