/**
 * Dialect benchmark (issue 3): how often the legacy dialect decides like Python's urllib.robotparser on the corpus
 * URL lists, every URL checked as Googlebot and as a crawler that only the `*` group addresses, and why the rest
 * differ. Each disagreement is put in the category of the documented deviation (src/match/legacy.ts) that, applied
 * alone on the Python side, makes urllib agree.
 */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dialectDifferences, parseRobotsTxt } from 'robotskit';
import { corpusDir, fmt, table } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const script = join(here, '../packages/robotskit/test/reference/urllib_robotparser.py');

const DEVIATIONS = [
  'bom',
  'whitespace-line',
  'line-breaks',
  'fragment',
  'empty-path',
  'rule-reparse',
  'encoded-slash',
  'agent-escapes',
  'limits',
];
const AGENTS = ['Googlebot', '*'];

function loadSites() {
  const dir = corpusDir();
  const rows = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n');
  const header = rows[0].split('\t');
  return rows.slice(1).map((row) => {
    const cells = row.split('\t');
    const name = cells[header.indexOf('robots_file')];
    const urls = readFileSync(join(dir, 'urls', cells[header.indexOf('urls_file')]), 'utf8')
      .split('\n')
      .filter(Boolean);
    return { name, bytes: readFileSync(join(dir, 'robots', name)), urls };
  });
}

function urllib(files) {
  const run = spawnSync('python3', [script], {
    input: JSON.stringify({
      files: files.map((f) => ({ robots_b64: f.bytes.toString('base64'), checks: f.checks, fixes: f.fixes })),
    }),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`urllib_robotparser.py failed: ${run.stderr || run.error?.message}`);
  return JSON.parse(run.stdout).verdicts;
}

const pct = (n, total) => `${fmt((100 * n) / total, 2)}%`;

export function runDialectsBench() {
  if (spawnSync('python3', ['-c', 'import urllib.robotparser']).status !== 0) {
    console.log('\ndialects: python3 with urllib.robotparser not found; section skipped');
    return;
  }
  const sites = loadSites();
  const files = sites.map((site) => {
    const legacy = parseRobotsTxt(site.bytes, { dialect: 'legacy' });
    const google = legacy.inDialect('google');
    const checks = site.urls.flatMap((url) => AGENTS.map((ua) => [ua, url]));
    return {
      ...site,
      checks,
      legacy: checks.map(([ua, url]) => legacy.isAllowed(url, ua)),
      google: checks.map(([ua, url]) => google.isAllowed(url, ua)),
      differences: dialectDifferences(legacy),
      fixes: [[], DEVIATIONS],
    };
  });
  const started = performance.now();
  const first = urllib(files);
  const pythonSeconds = (performance.now() - started) / 1000;

  const count = { checks: 0, legacy: 0, fixed: 0, google: 0, googleLegacy: 0 };
  const perAgent = Object.fromEntries(AGENTS.map((a) => [a, { checks: 0, legacy: 0, google: 0 }]));
  const disagreeing = [];
  files.forEach((file, i) => {
    const [raw, fixed] = first[i];
    const wrong = [];
    file.checks.forEach(([ua], j) => {
      count.checks++;
      perAgent[ua].checks++;
      if (file.legacy[j] === raw[j]) {
        count.legacy++;
        perAgent[ua].legacy++;
      } else wrong.push(j);
      if (file.legacy[j] === fixed[j]) count.fixed++;
      if (file.google[j] === raw[j]) {
        count.google++;
        perAgent[ua].google++;
      }
      if (file.google[j] === file.legacy[j]) count.googleLegacy++;
    });
    if (wrong.length > 0) disagreeing.push({ file, wrong, fixed });
  });

  // Second pass: each deviation alone, on the disagreeing checks only.
  const second = urllib(
    disagreeing.map(({ file, wrong }) => ({
      bytes: file.bytes,
      checks: wrong.map((j) => file.checks[j]),
      fixes: DEVIATIONS.map((d) => [d]),
    })),
  );
  const categories = new Map();
  const note = (category, file, check) => {
    const entry = categories.get(category) ?? { checks: 0, files: new Set(), example: '' };
    entry.checks++;
    entry.files.add(file.name);
    entry.example ||= `${file.name}: ${check[0]} ${check[1]}`;
    categories.set(category, entry);
  };
  disagreeing.forEach(({ file, wrong, fixed }, i) => {
    wrong.forEach((j, k) => {
      const resolving = DEVIATIONS.filter((_, d) => second[i][d][k] === file.legacy[j]);
      let category;
      if (resolving.length > 0) category = resolving.join(' or ');
      else if (fixed[j] === file.legacy[j]) category = 'several deviations together';
      else category = 'unexplained';
      note(category, file, file.checks[j]);
    });
  });

  console.log(
    `\ndialects: ${files.length} sites, ${count.checks} checks (${files.reduce((n, f) => n + f.urls.length, 0)} URLs, each as ${AGENTS.join(' and ')}); urllib.robotparser ran in ${fmt(pythonSeconds, 1)} s`,
  );
  table(
    'agreement with Python urllib.robotparser on the corpus URL lists',
    ['reader', 'as Googlebot', 'as *', 'all checks'],
    [
      [
        "robotskit, dialect 'legacy'",
        ...AGENTS.map((a) => pct(perAgent[a].legacy, perAgent[a].checks)),
        `${pct(count.legacy, count.checks)} (${count.checks - count.legacy} differ)`,
      ],
      [
        "robotskit, dialect 'legacy', urllib with the documented deviations applied",
        '',
        '',
        `${pct(count.fixed, count.checks)} (${count.checks - count.fixed} differ)`,
      ],
      [
        "robotskit, dialect 'google' (for comparison)",
        ...AGENTS.map((a) => pct(perAgent[a].google, perAgent[a].checks)),
        `${pct(count.google, count.checks)} (${count.checks - count.google} differ)`,
      ],
    ],
  );
  table(
    "why 'legacy' and urllib.robotparser differ (the deviation that, applied alone, makes urllib agree)",
    ['category', 'checks', 'files', 'first example'],
    [...categories.entries()]
      .sort((a, b) => b[1].checks - a[1].checks)
      .map(([category, e]) => [category, String(e.checks), String(e.files.size), e.example]),
  );

  // Where the two dialects of robotskit part ways, and what dialectDifferences reports on those files.
  const kinds = new Map();
  for (const file of files) {
    if (!file.google.some((g, j) => g !== file.legacy[j])) continue;
    for (const kind of new Set(file.differences.map((d) => d.kind))) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  const filesDiffering = files.filter((f) => f.google.some((g, j) => g !== f.legacy[j])).length;
  const unreported = files.filter((f) => f.google.some((g, j) => g !== f.legacy[j]) && f.differences.length === 0);
  console.log(
    `\n'google' and 'legacy' agree on ${pct(count.googleLegacy, count.checks)} of checks; they differ on at least one check in ${filesDiffering} files, ${unreported.length} of them without a dialectDifferences entry${unreported.length ? ` (${unreported.map((f) => f.name).join(', ')})` : ''}`,
  );
  table(
    'dialectDifferences kinds found in those files',
    ['kind', 'files'],
    [...kinds.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, String(n)]),
  );
}
