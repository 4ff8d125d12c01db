/**
 * `batch` benchmark (issue 4): `robotskit batch`'s core against a hand-written fetch + robots-parser loop, on one
 * workload: URLs spread over many origins (default 1,000,000 URLs over 1,000 origins), each origin a port of one local
 * server process serving a corpus robots.txt (every 20th origin 404, the next 500, the next a redirect). Each contender
 * runs in a process of its own (so its max RSS is its own), alternately, round after round; the ratio is the median
 * of the per-round ratios. Then each runs once with a capped heap (BENCH_BATCH_HEAP_MB, default 64), and robotskit once
 * more, instrumented, for the delay from each origin's robots.txt answer to its first record written. Scale with
 * BENCH_BATCH_URLS, BENCH_BATCH_ORIGINS and BENCH_BATCH_ROUNDS.
 */

import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir, fmt, goal, table } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));

function corpusSites(limit) {
  try {
    const dir = corpusDir();
    const rows = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
      .trim()
      .split('\n');
    const header = rows[0].split('\t');
    return rows.slice(1, limit + 1).map((row) => {
      const cells = row.split('\t');
      const urls = readFileSync(join(dir, 'urls', cells[header.indexOf('urls_file')]), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((u) => {
          const url = new URL(u);
          return `${url.pathname}${url.search}`;
        });
      const body = readFileSync(join(dir, 'robots', cells[header.indexOf('robots_file')]));
      return { paths: urls.length > 0 ? urls : ['/'], body: body.toString('base64') };
    });
  } catch {
    return [
      {
        paths: ['/', '/private/a', '/public/b?x=1'],
        body: Buffer.from('User-agent: *\nDisallow: /private/\n').toString('base64'),
      },
    ];
  }
}

function once(child, predicate = () => true) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => code !== 0 && reject(new Error(`child exited with ${code}`));
    const onMessage = (m) => {
      if (!predicate(m)) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export async function runBatchBench() {
  const urls = Number(process.env.BENCH_BATCH_URLS ?? 1_000_000);
  const origins = Number(process.env.BENCH_BATCH_ORIGINS ?? 1_000);
  const rounds = Number(process.env.BENCH_BATCH_ROUNDS ?? 3);
  const sites = corpusSites(origins);
  const server = fork(join(here, 'batch-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(server, (m) => m.ready === true);
  server.send({ count: origins, bodies: sites.map((s) => s.body) });
  const { ports } = await once(server, (m) => m.ports !== undefined);
  const paths = sites.map((s) => s.paths);
  console.log(
    `\nbatch workload: ${urls.toLocaleString('en-US')} URLs over ${ports.length} origins (ports of one local server: corpus robots.txt, 5% 404, 5% 500, 5% redirected), ${rounds} rounds`,
  );

  const runOne = async (contender, execArgv = []) => {
    // A capped run may die of "heap out of memory": keep V8's crash report out of the tables, say it in one line.
    const capped = execArgv.length > 0;
    const child = fork(join(here, 'batch-worker.js'), [], {
      stdio: ['ignore', 'inherit', capped ? 'pipe' : 'inherit', 'ipc'],
      execArgv,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    await once(child, (m) => m.ready === true);
    child.send({ contender, total: urls, ports, paths });
    const result = await once(child, (m) => m.ms !== undefined).catch((error) => {
      if (/heap out of memory/.test(stderr)) throw new Error('out of memory');
      throw error;
    });
    server.send('count');
    const counts = await once(server, (m) => m.robotsRequests !== undefined);
    await new Promise((resolve) => child.once('exit', resolve));
    return { ...result, ...counts };
  };

  const ours = [];
  const theirs = [];
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const [a, b] =
      round % 2 === 0
        ? [await runOne('robotskit'), await runOne('handwritten')]
        : [await runOne('handwritten'), await runOne('robotskit')].reverse();
    ours.push(a);
    theirs.push(b);
    ratios.push(b.ms / a.ms);
  }
  // The max RSS above is mostly heap V8 lets grow because it may: the same runs with the old generation capped show
  // what each needs (a run that does not fit fails with "heap out of memory").
  const CAP = Number(process.env.BENCH_BATCH_HEAP_MB ?? 64);
  const capped = [];
  for (const contender of ['robotskit', 'handwritten']) {
    try {
      capped.push([contender, await runOne(contender, [`--max-old-space-size=${CAP}`])]);
    } catch (error) {
      capped.push([contender, { error: error.message }]);
    }
  }
  // How soon a record follows its origin's robots.txt answer (issue 13), in instrumented runs of their own: records in
  // input order (the default), and as they complete (`--order completion`).
  const inputOrder = await runOne('robotskit-latency');
  const completionOrder = await runOne('robotskit-latency-completion');
  const latency = inputOrder.latency;
  const completion = completionOrder.latency;
  server.kill();
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const rate = (runs) => fmt(urls / (median(runs.map((r) => r.ms)) / 1000), 0);
  const rss = (runs) => fmt(Math.max(...runs.map((r) => r.maxRssKb)) / 1024, 0);
  const fetches = (runs) => `${Math.max(...runs.map((r) => r.robotsRequests + r.otherRequests))}`;
  table(
    `batch (median of ${rounds} alternating rounds; each contender in its own process; loopback HTTP)`,
    ['contender', 'URLs/s', 'max RSS MB', 'HTTP requests', 'records'],
    [
      [
        `robotskit batch core (runBatch, --concurrency ${process.env.BENCH_BATCH_CONCURRENCY ?? 64})`,
        rate(ours),
        rss(ours),
        fetches(ours),
        ours[0].records,
      ],
      ['hand-written fetch + robots-parser loop', rate(theirs), rss(theirs), fetches(theirs), theirs[0].records],
    ],
  );
  console.log(
    `robotskit batch is ${fmt(median(ratios), 2)}x the speed of the hand-written loop (median of per-round ratios)`,
  );
  // CPU against wall time says whether a contender waited (for fetches, under its concurrency) or computed.
  const cpuOf = (runs) =>
    `${fmt(median(runs.map((r) => r.cpuMs)), 0)} ms CPU in ${fmt(median(runs.map((r) => r.ms)), 0)} ms`;
  console.log(`process CPU (user + system, median): robotskit ${cpuOf(ours)}, hand-written ${cpuOf(theirs)}`);
  goal(
    `batch at ${urls.toLocaleString('en-US')} URLs, vs the hand-written loop`,
    median(ratios),
    '>= 2x',
    median(ratios) >= 2,
  );
  table(
    `the same workload once more with the V8 old generation capped at ${CAP} MB (--max-old-space-size)`,
    ['contender', 'URLs/s', 'max RSS MB', 'records'],
    capped.map(([name, r]) =>
      r.error === undefined
        ? [name, fmt(urls / (r.ms / 1000), 0), fmt(r.maxRssKb / 1024, 0), r.records]
        : [name, 'failed', r.error, 0],
    ),
  );
  table(
    "from an origin's robots.txt answer (its last response's headers) to the first record of a URL of that origin handed to the output (instrumented robotskit runs, ms)",
    ['--order', 'origins', 'median', 'p95', 'max', 'within 100 ms', 'first record after first answer', 'URLs/s'],
    [
      ['input', inputOrder],
      ['completion', completionOrder],
    ].map(([order, { latency: l, ms }]) => [
      order,
      l.origins,
      fmt(l.p50, 1),
      fmt(l.p95, 1),
      fmt(l.max, 1),
      `${l.within100} (${fmt((100 * l.within100) / l.origins, 1)}%)`,
      fmt(l.firstRecordAfterFirstAnswer, 1),
      fmt(urls / (ms / 1000), 0),
    ]),
  );
  // In input order the max above includes waiting for earlier lines' origins to answer.
  console.log(
    `input order, max over origins from the later of its answer and every earlier line's origin's answer (what the run adds, without waiting for input order): ${fmt(latency.afterEarlierMax, 1)} ms`,
  );
  table(
    "input order, the same events per origin since the run's start (ms): the delay above grows when answers come sooner, not only when records come later",
    ['event', 'median', 'p95', 'max'],
    [
      ["origin's robots.txt answered", latency.answeredSinceStart],
      ["origin's first record handed to the output", latency.firstWrittenSinceStart],
    ].map(([name, q]) => [name, fmt(q.p50, 0), fmt(q.p95, 0), fmt(q.max, 0)]),
  );
  goal(
    'batch: first record written after the first robots.txt answer',
    latency.firstRecordAfterFirstAnswer,
    '<= 100 ms',
    latency.firstRecordAfterFirstAnswer <= 100,
    'ms',
  );
  goal(
    'batch --order completion: first record of an origin after its robots.txt answer (max over origins)',
    completion.max,
    '<= 100 ms',
    completion.max <= 100,
    'ms',
  );
  // Input order by construction also waits for every earlier line's origin: shown beside it, not hidden.
  goal(
    'batch, input order: the same, waiting for earlier lines (max over origins)',
    latency.max,
    '<= 100 ms',
    latency.max <= 100,
    'ms',
  );
}
