/**
 * robotskit beside the other npm robots.txt parsers, on the same workload (the shared corpus): parse throughput,
 * parse once + check every URL, and the heap a parsed file keeps after answering one check. The table in the engine
 * README comes from `npm run bench -- peers`.
 *
 * Every contender starts from the bytes as served and decodes them itself when it takes text. robots-txt-guard takes
 * the output of robots-txt-parse (the same authors' streaming parser) and a path, so its caller extracts the path with
 * `new URL` as a caller of it must.
 */

import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import robotsParser from 'robots-parser';
import { parseRobotsTxt } from 'robotskit';
import { loadCorpus } from './corpus.js';
import { fmt, machineYardstick, table } from './harness.js';

const require = createRequire(import.meta.url);
const robotsTxtParser = require('robots-txt-parser');
const parseRobotsTxtParser = require('robots-txt-parser/src/parser.js');
const guard = require('robots-txt-guard');
const robotsTxtParse = require('robots-txt-parse');

const utf8 = new TextDecoder();

/**
 * The contenders: `checker` parses bytes and returns `(url) => boolean` for Googlebot (for the heap measure);
 * `parseAll` and `checkAll` are each contender's own loops over the corpus, so that no call site is shared between
 * contenders (a shared one would see four different functions and be slower for all).
 */
export const PEERS = [
  {
    name: 'robotskit',
    checker: (bytes) => {
      const r = parseRobotsTxt(bytes);
      return (url) => r.isAllowed(url, 'Googlebot');
    },
    parseAll: (files) => {
      let n = 0;
      for (const f of files) n += parseRobotsTxt(f.bytes).lineCount;
      return n;
    },
    checkAll: (sites) => {
      let n = 0;
      for (const s of sites) {
        const r = parseRobotsTxt(s.bytes);
        for (const u of s.urls) if (r.isAllowed(u, 'Googlebot')) n++;
      }
      return n;
    },
  },
  {
    name: 'robots-parser',
    checker: (bytes, origin) => {
      const r = robotsParser(`${origin}/robots.txt`, utf8.decode(bytes));
      return (url) => r.isAllowed(url, 'Googlebot') !== false;
    },
    parseAll: (files) => {
      let n = 0;
      for (const f of files) if (robotsParser('https://example.com/robots.txt', utf8.decode(f.bytes))) n++;
      return n;
    },
    checkAll: (sites) => {
      let n = 0;
      for (const s of sites) {
        const r = robotsParser(`${s.origin}/robots.txt`, utf8.decode(s.bytes));
        for (const u of s.urls) if (r.isAllowed(u, 'Googlebot') !== false) n++;
      }
      return n;
    },
  },
  {
    name: 'robots-txt-parser',
    checker: (bytes, origin) => {
      const r = robotsTxtParser({ userAgent: 'Googlebot', allowOnNeutral: true });
      // It throws on some files (a one-line file with no `field: value` in it); those allow everything here.
      try {
        r.parseRobots(origin, utf8.decode(bytes));
      } catch {
        return () => true;
      }
      return (url) => r.canCrawlSync(url);
    },
    parseAll: (files) => {
      let n = 0;
      for (const f of files) {
        try {
          if (parseRobotsTxtParser(utf8.decode(f.bytes))) n++;
        } catch {
          n--;
        }
      }
      return n;
    },
    checkAll: (sites) => {
      let n = 0;
      const r = robotsTxtParser({ userAgent: 'Googlebot', allowOnNeutral: true });
      for (const s of sites) {
        try {
          r.parseRobots(s.origin, utf8.decode(s.bytes));
        } catch {
          n += s.urls.length;
          continue;
        }
        for (const u of s.urls) if (r.canCrawlSync(u)) n++;
      }
      return n;
    },
  },
  {
    name: 'robots-txt-parse + robots-txt-guard',
    // A streaming parser: it takes a readable stream and resolves when the stream ends.
    checker: async (bytes) => {
      const g = guard(await robotsTxtParse(Readable.from([utf8.decode(bytes)])));
      return (url) => {
        const u = new URL(url);
        return g.isAllowed('Googlebot', u.pathname + u.search);
      };
    },
    parseAll: async (files) => {
      let n = 0;
      for (const f of files) if (await robotsTxtParse(Readable.from([utf8.decode(f.bytes)]))) n++;
      return n;
    },
    checkAll: async (sites) => {
      let n = 0;
      for (const s of sites) {
        const g = guard(await robotsTxtParse(Readable.from([utf8.decode(s.bytes)])));
        for (const url of s.urls) {
          const u = new URL(url);
          if (g.isAllowed('Googlebot', u.pathname + u.search)) n++;
        }
      }
      return n;
    },
  },
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timeAsync(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Orders for the rounds in which every contender runs right after every other one equally often (a balanced Latin
 * square, Williams' design: n rows for an even n, 2n for an odd one).
 *
 * The heap a contender leaves behind is paid for by whoever runs next: garbage it promoted to the old generation keeps
 * pointers into the young one, and the next scavenge treats them as roots and copies what they point at, until a
 * full collection. A merely rotating order (0 1 2 3, 1 2 3 0, ...) keeps the cyclic order, so each contender nearly
 * always ran right after the same one: robotskit after the streaming robots-txt-parse, whose leftovers made
 * robotskit's scavenges several times longer (~1-2 ms of GC per corpus parse alone, 6-13 ms there, measured with a gc PerformanceObserver), while
 * robots-parser ran after robotskit's nearly clean heap. That was unfair to whoever followed the messiest contender.
 */
export function balancedOrders(n) {
  const first = [];
  for (let j = 0, lo = 1, hi = n - 1; j < n; j++) first.push(j === 0 ? 0 : j % 2 ? lo++ : hi--);
  const rows = [];
  for (let r = 0; r < n; r++) rows.push(first.map((x) => (x + r) % n));
  if (n % 2) for (let r = 0; r < n; r++) rows.push([...rows[r]].reverse());
  return rows;
}

/**
 * Runs every contender once per round, the rounds' orders taken in turn from `balancedOrders`, and returns each one's
 * median time and the median of its per-round ratio to the first contender's time (so every ratio compares runs of
 * the same round). `rounds` is rounded up to whole cycles of the orders, so each predecessor is seen equally often.
 */
async function compareAll(runs, rounds) {
  const orders = balancedOrders(runs.length);
  const total = Math.ceil(rounds / orders.length) * orders.length;
  const warmup = 2;
  const times = runs.map(() => []);
  const ratios = runs.map(() => []);
  for (let round = -warmup; round < total; round++) {
    const t = new Array(runs.length);
    for (const i of orders[(round + orders.length * warmup) % orders.length]) t[i] = await timeAsync(runs[i]);
    if (round < 0) continue; // warm-up
    for (let i = 0; i < runs.length; i++) {
      times[i].push(t[i]);
      ratios[i].push(t[i] / t[0]);
    }
  }
  return runs.map((_, i) => ({ ms: median(times[i]), ratio: median(ratios[i]), rounds: total }));
}

let gcFn = null;
/** The V8 garbage collector, exposed without a command-line flag. */
export function gc() {
  if (gcFn === null) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc');
  }
  gcFn();
  gcFn();
}

/** Memory in use: the JS heap and the ArrayBuffers outside it (typed arrays keep their contents there). */
function inUse() {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Bytes a parsed file keeps (heap and ArrayBuffers) after answering one check, on average over `sites`. */
export async function heapPerFile(peer, sites) {
  const kept = new Array(sites.length);
  gc();
  const before = inUse();
  for (let i = 0; i < sites.length; i++) {
    const s = sites[i];
    const check = await peer.checker(s.bytes, s.origin);
    check(s.urls[0]);
    kept[i] = check;
  }
  gc();
  const after = inUse();
  if (kept.length !== sites.length) throw new Error('unreachable');
  return (after - before) / sites.length;
}

export async function runPeersBench() {
  const { robots, sites } = loadCorpus();
  const totalBytes = robots.reduce((n, f) => n + f.bytes.length, 0);
  const totalUrls = sites.reduce((n, s) => n + s.urls.length, 0);
  let sink = 0;
  const parse = await compareAll(
    PEERS.map((p) => async () => {
      sink += await p.parseAll(robots);
    }),
    8,
  );
  machineYardstick(totalBytes / 1e6 / (parse[1].ms / 1000));
  const check = await compareAll(
    PEERS.map((p) => async () => {
      sink += await p.checkAll(sites);
    }),
    8,
  );
  const heap = [];
  for (const p of PEERS) heap.push(await heapPerFile(p, sites));
  table(
    `npm robots.txt parsers on the corpus (${robots.length} files, ${fmt(totalBytes / 1e6, 2)} MB; ${totalUrls} URL checks on ${sites.length} sites; medians of ${parse[0].rounds} and ${check[0].rounds} rounds)`,
    ['parser', 'parse MB/s', 'robotskit is', 'parse+check checks/s', 'robotskit is', 'heap per file (KiB)'],
    PEERS.map((p, i) => [
      p.name,
      fmt(totalBytes / 1e6 / (parse[i].ms / 1000)),
      i === 0 ? '' : `${fmt(parse[i].ratio, 1)}x faster`,
      fmt(totalUrls / (check[i].ms / 1000), 0),
      i === 0 ? '' : `${fmt(check[i].ratio, 1)}x faster`,
      fmt(heap[i] / 1024, 1),
    ]),
  );
  return sink;
}
