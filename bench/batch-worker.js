/**
 * One contender of the `batch` bench, in a process of its own so its peak memory (max RSS) is its own. Reads the
 * workload from argv, checks every URL, writes NDJSON to a counting sink, and reports time, records and max RSS.
 *
 * - `robotskit`: the core of `robotskit batch` (`runBatch`) with its own transport, reading the URLs as the command
 *   reads stdin (bytes in chunks, split into lines by `lineBatchesOf`).
 * - `handwritten`: the loop robots-parser users write: a Map of per-origin promises (fetch + parse, once per origin),
 *   URLs taken in chunks of 4,096 checked with Promise.all, records written in input order.
 * - `robotskit-latency`: `robotskit` instrumented, for how soon records follow their robots.txt (see `latency`);
 *   `robotskit-latency-completion` the same with `order: 'completion'` (`--order completion`).
 */

import robotsParser from 'robots-parser';
import { lineBatchesOf } from '../packages/cli/dist/batch/input.js';
import { runBatch } from '../packages/cli/dist/batch/run.js';
import { robotsRequest } from '../packages/cli/dist/transport/fetch.js';

// The workload comes over IPC (too big for argv).
// Asked for once the listener is in place (a message sent before the child listens is lost).
const { contender, total, ports, paths } = await new Promise((resolve) => {
  process.once('message', resolve);
  process.send({ ready: true });
});
const UA = 'Googlebot';

/** The workload, generated as it is read (its memory does not count): origins interleaved, each with its paths. */
function* urls() {
  for (let i = 0; i < total; i++) {
    const k = (i * 7919) % ports.length;
    const list = paths[k % paths.length];
    yield `http://127.0.0.1:${ports[k]}${list[(i >> 10) % list.length]}`;
  }
}
/** The workload as `robotskit batch` reads it from stdin: bytes in chunks of about 64 KB, split by `lineBatchesOf`. */
async function* chunks() {
  let text = '';
  for (const url of urls()) {
    text += `${url}\n`;
    if (text.length >= 65_536) {
      yield Buffer.from(text);
      text = '';
    }
  }
  if (text !== '') yield Buffer.from(text);
}
const input = () => lineBatchesOf(chunks());

let bytes = 0;
let records = 0;
const sink = (chunk) => {
  bytes += chunk.length;
};

async function handwritten() {
  const cache = new Map();
  const robotsFor = (origin) => {
    let p = cache.get(origin);
    if (p === undefined) {
      const robotsUrl = `${origin}/robots.txt`;
      p = fetch(robotsUrl, { headers: { 'user-agent': UA } })
        .then(async (res) => {
          if (res.status >= 500 || res.status === 429) return { disallowAll: true, robots: null };
          const text = res.ok ? await res.text() : '';
          return { disallowAll: false, robots: robotsParser(robotsUrl, text) };
        })
        .catch(() => ({ disallowAll: true, robots: null }));
      cache.set(origin, p);
    }
    return p;
  };
  const check = async (url) => {
    const origin = new URL(url).origin;
    const r = await robotsFor(origin);
    const allowed = r.disallowAll ? false : r.robots.isAllowed(url, UA) !== false;
    const line = r.disallowAll ? -1 : (r.robots.getMatchingLineNumber(url, UA) ?? -1);
    return `${JSON.stringify({ url, allowed, line, robotsUrl: `${origin}/robots.txt` })}\n`;
  };
  let chunk = [];
  const flush = async () => {
    const out = await Promise.all(chunk.map(check));
    records += out.length;
    sink(out.join(''));
    chunk = [];
  };
  for (const url of urls()) {
    chunk.push(url);
    if (chunk.length === 4096) await flush();
  }
  await flush();
}

/**
 * `robotskit-latency`: the robotskit run once more, instrumented (not timed against the loop): when each origin's
 * robots.txt answer reached the client (its last response's headers, after any redirect) and when the first record
 * of a URL of that origin was handed to the output. Reports the delay between the two per origin.
 */
async function latency(order) {
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  const started = now();
  const answered = new Map();
  const firstWritten = new Map();
  let firstAnswer = Number.POSITIVE_INFINITY;
  let firstRecord = Number.POSITIVE_INFINITY;
  const timed = async (url, init) => {
    const response = await robotsRequest(url, init);
    const t = now();
    answered.set(new URL(url).origin, t);
    if (t < firstAnswer) firstAnswer = t;
    return response;
  };
  const write = (chunk) => {
    const t = now();
    if (t < firstRecord) firstRecord = t;
    const key = '"robotsUrl":"';
    for (let at = chunk.indexOf(key); at !== -1; at = chunk.indexOf(key, at + 1)) {
      const end = chunk.indexOf('"', at + key.length);
      const origin = chunk.slice(at + key.length, end - '/robots.txt'.length);
      if (!firstWritten.has(origin)) firstWritten.set(origin, t);
    }
    sink(chunk);
  };
  const concurrency = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 64);
  const summary = await runBatch({ lines: input(), write, crawler: UA, concurrency, fetch: timed, order });
  records = summary.written;
  const delays = [];
  for (const [origin, t] of firstWritten) {
    const a = answered.get(origin);
    if (a !== undefined) delays.push(t - a);
  }
  delays.sort((x, y) => x - y);
  const at = (q) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))];
  // Output is in input order, so an origin's first record also waits for the records of every earlier line, whose
  // origins may answer later (a redirected one makes two requests). Measured from the later of its own answer and
  // every answer of an origin met earlier in the input, the delay is what the run itself adds.
  const seen = new Set();
  let earlier = Number.NEGATIVE_INFINITY;
  let ownMax = 0;
  for (const url of urls()) {
    const origin = url.slice(0, url.indexOf('/', 'http://'.length));
    if (seen.has(origin)) continue;
    seen.add(origin);
    const a = answered.get(origin);
    const t = firstWritten.get(origin);
    if (a !== undefined && t !== undefined) ownMax = Math.max(ownMax, t - Math.max(a, earlier));
    if (a !== undefined) earlier = Math.max(earlier, a);
    if (seen.size === ports.length) break;
  }
  // The same events since the run's start: a delay above can grow because answers come sooner, not records later.
  const sinceStart = (times) => {
    const xs = [...times].map((t) => t - started).sort((x, y) => x - y);
    const q = (f) => xs[Math.min(xs.length - 1, Math.floor(f * xs.length))];
    return { p50: q(0.5), p95: q(0.95), max: xs[xs.length - 1] };
  };
  return {
    origins: delays.length,
    p50: at(0.5),
    p95: at(0.95),
    max: delays[delays.length - 1],
    afterEarlierMax: ownMax,
    within100: delays.filter((d) => d <= 100).length,
    firstRecordAfterFirstAnswer: firstRecord - firstAnswer,
    answeredSinceStart: sinceStart(answered.values()),
    firstWrittenSinceStart: sinceStart(firstWritten.values()),
  };
}

const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
let extra;
if (contender.startsWith('robotskit-latency')) {
  extra = await latency(contender.endsWith('-completion') ? 'completion' : 'input');
} else if (contender === 'robotskit') {
  const concurrency = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 64);
  const summary = await runBatch({ lines: input(), write: sink, crawler: UA, concurrency });
  records = summary.written;
} else {
  await handwritten();
}
const ms = Number(process.hrtime.bigint() - start) / 1e6;
const cpu = process.cpuUsage(cpuStart);
process.send({
  ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  records,
  bytes,
  maxRssKb: process.resourceUsage().maxRSS,
  ...(extra === undefined ? {} : { latency: extra }),
});
