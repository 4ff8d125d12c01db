/**
 * Crawler profiles (issue 3): what a UI that re-parses the file and recomputes the crawler matrix on each keystroke
 * pays, over every file of the corpus.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CRAWLERS, parseRobotsTxt } from 'robotskit';
import { corpusDir, fmt, table } from './harness.js';

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export function runCrawlersBench() {
  const dir = join(corpusDir(), 'robots');
  const files = readdirSync(dir)
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
  const url = 'https://example.com/some/page?id=1';
  let sink = 0;
  // Warm the JIT up on a few rounds over the corpus.
  for (let round = 0; round < 2; round++) {
    for (const f of files) sink += parseRobotsTxt(f.text).crawlerMatrix(url, CRAWLERS).length;
  }
  const whole = [];
  const matrixOnly = [];
  let slowest = { ms: 0, name: '' };
  for (const f of files) {
    const t0 = performance.now();
    const robots = parseRobotsTxt(f.text);
    const t1 = performance.now();
    for (const row of robots.crawlerMatrix(url, CRAWLERS)) if (row.allowed) sink++;
    const t2 = performance.now();
    whole.push(t2 - t0);
    matrixOnly.push(t2 - t1);
    if (t2 - t0 > slowest.ms) slowest = { ms: t2 - t0, name: f.name };
  }
  whole.sort((a, b) => a - b);
  matrixOnly.sort((a, b) => a - b);
  console.log(`\ncrawlers: ${CRAWLERS.length} crawler profiles, ${files.length} robots.txt files`);
  table(
    'parse + crawlerMatrix for one URL, per file (what one keystroke costs a live UI)',
    ['measure', 'median (ms)', 'p99 (ms)', 'max (ms)'],
    [
      ['parse + matrix', fmt(quantile(whole, 0.5), 3), fmt(quantile(whole, 0.99), 3), fmt(whole.at(-1), 3)],
      [
        'matrix alone',
        fmt(quantile(matrixOnly, 0.5), 3),
        fmt(quantile(matrixOnly, 0.99), 3),
        fmt(matrixOnly.at(-1), 3),
      ],
    ],
  );
  console.log(`slowest file: ${slowest.name} (${fmt(slowest.ms, 2)} ms)`);
  return sink;
}
