/**
 * The engine's own costs (`npm run bench -- engine`): parsing the corpus and checking its URLs beside robots-parser in
 * one process, the memory a parsed file keeps, matching at 50,000 rules and against pathological wildcards, the
 * matcher's build, and parsing time per byte as adversarial inputs grow; each beside its goal. The other npm parsers
 * are in `peers.js`; the corpus is read by `corpus.js`.
 */

import robotsParser from 'robots-parser';
import { parseRobotsTxt } from 'robotskit';
import { loadCorpus } from './corpus.js';
import { compare, fmt, goal, machineYardstick, measure, table, timeOnce } from './harness.js';
import { gc, heapPerFile, PEERS } from './peers.js';

const utf8 = new TextDecoder();

export async function runEngineBench() {
  const { robots, sites } = loadCorpus();
  const totalBytes = robots.reduce((n, f) => n + f.bytes.length, 0);
  const totalUrls = sites.reduce((n, s) => n + s.urls.length, 0);
  console.log(
    `corpus: ${robots.length} robots.txt files, ${fmt(totalBytes / 1e6, 2)} MB; ${sites.length} sites with ${totalUrls} URLs`,
  );

  // Both start from the bytes as served; robots-parser takes text, so it decodes first (as any caller must).
  const parse = compare(
    () => {
      for (const f of robots) parseRobotsTxt(f.bytes);
    },
    () => {
      for (const f of robots) robotsParser('https://example.com/robots.txt', utf8.decode(f.bytes));
    },
    { rounds: 21 },
  );

  let sink = 0;
  const check = compare(
    () => {
      for (const s of sites) {
        const r = parseRobotsTxt(s.bytes);
        for (const u of s.urls) if (r.isAllowed(u, 'Googlebot')) sink++;
      }
    },
    () => {
      for (const s of sites) {
        const r = robotsParser(`${s.origin}/robots.txt`, utf8.decode(s.bytes));
        for (const u of s.urls) if (r.isAllowed(u, 'Googlebot')) sink++;
      }
    },
    { rounds: 15 },
  );

  table(
    'robotskit vs robots-parser (median of paired rounds)',
    ['workload', 'robotskit', 'robots-parser', 'ratio'],
    [
      [
        'parse the corpus (MB/s)',
        fmt(totalBytes / 1e6 / (parse.ours / 1000)),
        fmt(totalBytes / 1e6 / (parse.theirs / 1000)),
        `${fmt(parse.ratio, 2)}x`,
      ],
      [
        'parse once + check every URL as Googlebot (checks/s)',
        fmt(totalUrls / (check.ours / 1000), 0),
        fmt(totalUrls / (check.theirs / 1000), 0),
        `${fmt(check.ratio, 2)}x`,
      ],
    ],
  );

  goal('parse the corpus, vs robots-parser', parse.ratio, '>= 6x', parse.ratio >= 6);
  machineYardstick(totalBytes / 1e6 / (parse.theirs / 1000));
  goal('parse once + check every URL, vs robots-parser', check.ratio, '>= 8x', check.ratio >= 8);

  // Heap a parsed file keeps once it has answered a check (parse from bytes, one check, kept).
  const heapOurs = await heapPerFile(PEERS[0], sites);
  const heapTheirs = await heapPerFile(PEERS[1], sites);
  table(
    `heap kept per parsed file after one check (average over ${sites.length} sites)`,
    ['parser', 'KiB'],
    [
      ['robotskit', fmt(heapOurs / 1024, 1)],
      ['robots-parser', fmt(heapTheirs / 1024, 1)],
    ],
  );
  goal('heap per parsed file after one check (KiB)', heapOurs / 1024, '<= 12 KiB', heapOurs <= 12 * 1024, 'KiB');

  // Scaling with group size: a check against a 50,000-rule group vs a 10-rule group.
  const group = (n) => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < n; i++) {
      lines.push(i % 4 === 0 ? `Disallow: /*/item-${i}.php$` : `${i % 3 ? 'Disallow' : 'Allow'}: /section-${i}/page`);
    }
    return parseRobotsTxt(lines.join('\n'), { maxBytes: 50_000_000 });
  };
  const paths = Array.from({ length: 2000 }, (_, i) => `/section-${(i * 7919) % 60000}/page/${i}?q=${i}`);
  const perCheck = (robots) => {
    robots.isAllowed(paths[0], 'Googlebot'); // builds the matcher once, outside the timing
    return (
      (measure(() => {
        for (const p of paths) if (robots.isAllowed(p, 'Googlebot')) sink++;
      }) *
        1e6) /
      paths.length
    );
  };
  const small = perCheck(group(10));
  const large = perCheck(group(50_000));
  // Building the matcher: the first check of a freshly parsed 50,000-rule file, minus the parse.
  const builds = [];
  for (let i = 0; i < 7; i++) {
    const fresh = group(50_000);
    gc();
    builds.push(timeOnce(() => fresh.isAllowed(paths[0], 'Googlebot')));
  }
  builds.sort((a, b) => a - b);
  const build = builds[builds.length >> 1];

  // Pathological: 100 wildcards against a 20,000-character path.
  const pathological = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(100)}b\nAllow: /${'*a'.repeat(100)}$`);
  const longPath = `/${'a'.repeat(20_000)}`;
  pathological.isAllowed(longPath, 'x');
  const worst = Math.max(...Array.from({ length: 20 }, () => timeOnce(() => pathological.isAllowed(longPath, 'x'))));

  table(
    'matching cost',
    ['case', 'value', 'limit'],
    [
      ['check, 10-rule group (ns)', fmt(small, 0), ''],
      ['check, 50,000-rule group (ns)', fmt(large, 0), ''],
      ['50,000 rules vs 10 rules', `${fmt(large / small, 1)}x slower`, '< 10x'],
      ['first check at 50,000 rules: matcher build (ms, median of 7)', fmt(build, 1), '< 30 ms'],
      ['100 wildcards vs 20,000-char path, worst of 20 (ms)', fmt(worst, 3), '< 5 ms'],
    ],
  );

  goal('check at 50,000 rules vs 10 rules', large / small, '<= 10x', large / small <= 10);
  goal('matcher build at 50,000 rules (ms)', build, '< 30 ms', build < 30, 'ms');

  // Linearity: parsing time per byte stays flat as adversarial inputs grow.
  const shapes = {
    'short lines': (n) => 'Disallow: /a\n'.repeat(n / 13),
    'one long line': (n) => `Disallow: /${'a'.repeat(n)}`,
    'colons and hashes': (n) => ':#'.repeat(n / 2),
    wildcards: (n) => `Disallow: /${'*a'.repeat(n / 2)}`,
    'no line breaks, spaces': (n) => 'a '.repeat(n / 2),
    'CR only': (n) => 'User-agent: x\r'.repeat(n / 14),
  };
  const rows = [];
  for (const [name, make] of Object.entries(shapes)) {
    const sizes = [100_000, 1_000_000, 10_000_000];
    for (let i = 0; i < 3; i++) parseRobotsTxt(make(1_000_000), { maxBytes: 20_000_000 }); // warm the JIT up
    const nsPerByte = sizes.map((size) => {
      const input = make(size);
      return (
        (measure(() => parseRobotsTxt(input, { maxBytes: 20_000_000 }), { rounds: 5, warmup: 1 }) * 1e6) / input.length
      );
    });
    rows.push([name, ...nsPerByte.map((v) => fmt(v, 2)), `${fmt(nsPerByte[2] / nsPerByte[0], 2)}x`]);
  }
  table(
    'parse time per byte as input grows (linear: the last column stays near 1)',
    ['input', '100 KB', '1 MB', '10 MB', '10 MB / 100 KB'],
    rows,
  );
  return sink;
}
