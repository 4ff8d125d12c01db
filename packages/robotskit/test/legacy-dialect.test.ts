/**
 * The legacy dialect (the 1994 convention, as `urllib.robotparser` reads it) against Python's `urllib.robotparser`
 * itself: hand-written cases for every rule and every documented deviation, generated files, and the real corpus.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { corpusDir } from './helpers.js';
import { DEVIATIONS, type Deviation, hasPython, urllibVerdicts } from './reference/urllib.js';

const python = hasPython();
if (!python && process.env.CI)
  throw new Error('python3 with urllib.robotparser is needed for the legacy dialect tests');

interface Case {
  readonly name: string;
  readonly robots: string;
  readonly ua: string;
  readonly url: string;
  /** Verdicts: true is allowed. */
  readonly legacy: boolean;
  readonly urllib: boolean;
  readonly google: boolean;
  /** The deviations that explain why urllib decides otherwise (urllib with them applied must agree). */
  readonly deviations?: readonly Deviation[];
  /** A deviation the Python side cannot be taught; the reason. */
  readonly unfixable?: string;
}

const H = 'https://example.com';

// Each line of the 1994 text (and the 1996 draft's Allow) that differs from Google, and each deviation from urllib.
const CASES: readonly Case[] = [
  {
    name: 'a blank line ends the record: rules after it belong to no record',
    robots: 'User-agent: *\nDisallow: /a\n\nDisallow: /b\n',
    ua: 'Foo',
    url: `${H}/b`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'a blank line between user-agent lines and rules drops the record',
    robots: 'User-agent: Googlebot\n\nDisallow: /\n\nUser-agent: *\nDisallow: /x\n',
    ua: 'Googlebot',
    url: `${H}/page`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'the first record naming the robot wins; records are not merged',
    robots: 'User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Googlebot\nDisallow: /b\n',
    ua: 'Googlebot',
    url: `${H}/b`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: "a record's name matches as a substring of the robot's name",
    robots: 'User-agent: google\nDisallow: /\n',
    ua: 'Googlebot',
    url: `${H}/`,
    legacy: false,
    urllib: false,
    google: true,
  },
  {
    name: 'a name with a version matches no robot',
    robots: 'User-agent: Googlebot/2.1\nDisallow: /\n',
    ua: 'Googlebot',
    url: `${H}/`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'an empty user-agent value names every robot',
    robots: 'User-agent:\nDisallow: /\n',
    ua: 'Googlebot',
    url: `${H}/`,
    legacy: false,
    urllib: false,
    google: true,
  },
  {
    name: 'the * record is used only when no other record names the robot, wherever it is',
    robots: 'User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /x\n',
    ua: 'Googlebot',
    url: `${H}/page`,
    legacy: true,
    urllib: true,
    google: true,
  },
  {
    name: 'only the first * record counts',
    robots: 'User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n',
    ua: 'Foo',
    url: `${H}/b`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'a record naming * and a robot is only the default record',
    robots: 'User-agent: Foo\nUser-agent: *\nDisallow: /a\n\nUser-agent: Foo\nDisallow: /b\n',
    ua: 'Foo',
    url: `${H}/a`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'the first matching rule wins, even a shorter one (Allow per the 1996 draft)',
    robots: 'User-agent: *\nDisallow: /a\nAllow: /a/b\n',
    ua: 'Foo',
    url: `${H}/a/b`,
    legacy: false,
    urllib: false,
    google: true,
  },
  {
    name: 'Allow before Disallow wins when it matches first',
    robots: 'User-agent: *\nAllow: /a/b\nDisallow: /a\n',
    ua: 'Foo',
    url: `${H}/a/b/c`,
    legacy: true,
    urllib: true,
    google: true,
  },
  {
    name: 'an empty Disallow matches everything and allows it, hiding the rules after it',
    robots: 'User-agent: *\nDisallow:\nDisallow: /private\n',
    ua: 'Foo',
    url: `${H}/private`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: '* is a literal character',
    robots: 'User-agent: *\nDisallow: /*.php\n',
    ua: 'Foo',
    url: `${H}/index.php`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: '* matches a literal * in the path',
    robots: 'User-agent: *\nDisallow: /*.php\n',
    ua: 'Foo',
    url: `${H}/*.php`,
    legacy: false,
    urllib: false,
    google: false,
  },
  {
    name: '$ is a literal character',
    robots: 'User-agent: *\nDisallow: /a$\n',
    ua: 'Foo',
    url: `${H}/a`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'escapes are decoded before comparing',
    robots: 'User-agent: *\nDisallow: /%7Ejoe\n',
    ua: 'Foo',
    url: `${H}/~joe/index.html`,
    legacy: false,
    urllib: false,
    google: true,
  },
  {
    name: 'non-ASCII rules match their UTF-8 escapes',
    robots: 'User-agent: *\nDisallow: /ä\n',
    ua: 'Foo',
    url: `${H}/%C3%A4`,
    legacy: false,
    urllib: false,
    google: false,
  },
  {
    name: 'the query is part of the path',
    robots: 'User-agent: *\nDisallow: /search?q=\n',
    ua: 'Foo',
    url: `${H}/search?q=x`,
    legacy: false,
    urllib: false,
    google: false,
  },
  {
    name: "Google's typos are not field names",
    robots: 'Useragent: *\nDisallow: /\n',
    ua: 'Foo',
    url: `${H}/`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'a line without a colon is not a field',
    robots: 'User-agent: *\nDisallow /\n',
    ua: 'Foo',
    url: `${H}/`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'a prefixed field name is not a field',
    robots: 'User-agent: *\nDisallowed: /\n',
    ua: 'Foo',
    url: `${H}/`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'crawl-delay completes a record: the next user-agent line starts another',
    robots: 'User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n',
    ua: 'a',
    url: `${H}/`,
    legacy: true,
    urllib: true,
    google: false,
  },
  {
    name: 'a comment-only line does not end a record',
    robots: 'User-agent: *\nDisallow: /a\n# note\nDisallow: /b\n',
    ua: 'Foo',
    url: `${H}/b`,
    legacy: false,
    urllib: false,
    google: false,
  },
  {
    name: 'deviation whitespace-line: a line of spaces is blank',
    robots: 'User-agent: *\nDisallow: /a\n   \nDisallow: /b\n',
    ua: 'Foo',
    url: `${H}/b`,
    legacy: true,
    urllib: false,
    google: false,
    deviations: ['whitespace-line'],
  },
  {
    name: 'deviation bom: a leading byte order mark is skipped',
    robots: '\uFEFFUser-agent: *\nDisallow: /\n',
    ua: 'Foo',
    url: `${H}/`,
    legacy: false,
    urllib: true,
    google: false,
    deviations: ['bom'],
  },
  {
    name: 'deviation line-breaks: a form feed does not end a line',
    robots: 'User-agent: *\fDisallow: /\n',
    ua: 'Foo',
    url: `${H}/`,
    legacy: true,
    urllib: false,
    google: true,
    deviations: ['line-breaks'],
  },
  {
    name: 'deviation fragment: the fragment is not part of the path',
    robots: 'User-agent: *\nDisallow: /a%23b\n',
    ua: 'Foo',
    url: `${H}/a#b`,
    legacy: true,
    urllib: false,
    google: true,
    deviations: ['fragment'],
  },
  {
    name: 'deviation empty-path: no path is /',
    robots: 'User-agent: *\nDisallow: /\n',
    ua: 'Foo',
    url: `${H}?q=1`,
    legacy: false,
    urllib: true,
    google: false,
    deviations: ['empty-path'],
  },
  {
    name: 'deviation rule-reparse: a trailing ? of a rule is kept',
    robots: 'User-agent: *\nDisallow: /search?\n',
    ua: 'Foo',
    url: `${H}/search/page`,
    legacy: true,
    urllib: false,
    google: true,
    deviations: ['rule-reparse'],
  },
  {
    name: 'deviation encoded-slash: %2F is not /',
    robots: 'User-agent: *\nDisallow: /a%2Fb\n',
    ua: 'Foo',
    url: `${H}/a/b`,
    legacy: true,
    urllib: false,
    google: true,
    deviations: ['encoded-slash'],
  },
  {
    name: 'deviation agent-escapes: user-agent values are not decoded',
    robots: 'User-agent: Google%62ot\nDisallow: /\n',
    ua: 'Googlebot',
    url: `${H}/`,
    legacy: true,
    urllib: false,
    google: true,
    deviations: ['agent-escapes'],
  },
  {
    name: 'deviation limits: a NUL ends the line',
    robots: 'User-agent: *\nDisallow: /a\u0000b\n',
    ua: 'Foo',
    url: `${H}/a`,
    legacy: false,
    urllib: true,
    google: false,
    deviations: ['limits'],
  },
  {
    name: "a full User-Agent string is reduced to the crawler's token first",
    robots: 'User-agent: Googlebot\nDisallow: /\n',
    ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    url: `${H}/`,
    legacy: false,
    urllib: true,
    google: false,
    unfixable: 'urllib compares the text before the first "/" (Mozilla); callers of urllib pass the token',
  },
];

describe.runIf(python)('legacy dialect against urllib.robotparser', () => {
  const verdicts = urllibVerdicts(
    CASES.map((c) => ({ robots: c.robots, checks: [[c.ua, c.url]], fixes: [[], c.deviations ?? []] })),
  );

  it.each(CASES.map((c, i) => [c.name, c, i] as const))('%s', (_name, c, i) => {
    const legacy = parseRobotsTxt(c.robots, { dialect: 'legacy' });
    expect(legacy.isAllowed(c.url, c.ua), 'legacy').toBe(c.legacy);
    expect(legacy.explain(c.url, c.ua).allowed, 'legacy explain').toBe(c.legacy);
    expect(parseRobotsTxt(c.robots).isAllowed(c.url, c.ua), 'google').toBe(c.google);
    const [raw, fixed] = verdicts[i]!;
    expect(raw?.[0], 'urllib.robotparser').toBe(c.urllib);
    if (c.unfixable === undefined) expect(fixed?.[0], 'urllib with the deviations applied').toBe(c.legacy);
    else expect(c.urllib).not.toBe(c.legacy);
    // A case marked as a deviation must need it; one without must agree with urllib as it is.
    expect(raw?.[0] === c.legacy, 'urllib agrees without fixes').toBe(c.deviations === undefined && !c.unfixable);
  });
});

// Generated files: lines drawn from the constructs both readers know, and from those where they part ways.
const agentName = fc.constantFrom(
  '*',
  'Googlebot',
  'googlebot',
  'google',
  'bot',
  'Foo',
  'foo/1.0',
  '',
  '* x',
  'Go%6Fgle',
);
const pathPart = fc.constantFrom(
  '/',
  '/a',
  '/a/',
  '/a/b',
  '/b',
  '/%61',
  '/%2F',
  '/a%2fb',
  '/*',
  '/a$',
  '/ä',
  '/%C3%A4',
);
const rulePath = fc.oneof(
  { weight: 6, arbitrary: pathPart },
  {
    weight: 3,
    arbitrary: fc.tuple(pathPart, fc.constantFrom('?', '?q=', ';p', '#c', '%23', '*', '$')).map(([a, b]) => a + b),
  },
  { weight: 1, arbitrary: fc.constant('') },
);
const ruleLine = fc.oneof(
  { weight: 3, arbitrary: rulePath.map((p) => `Disallow: ${p}`) },
  { weight: 1, arbitrary: rulePath.map((p) => `Allow: ${p}`) },
);
const noise = fc.constantFrom(
  '',
  '   ',
  '\t',
  '# comment',
  'Crawl-delay: 5',
  'Sitemap: https://example.com/s',
  'useragent: *',
  'Disallow /a',
  'disallowed: /a',
  'USER-AGENT : *',
  'Host: x',
  'nonsense',
);
// A record: user-agent lines then rules, with now and then a line of noise inside; records are separated by blank
// lines, whitespace, comments or nothing.
const record = fc
  .tuple(
    fc.array(
      agentName.map((n) => `User-agent: ${n}`),
      { minLength: 1, maxLength: 2 },
    ),
    fc.array(ruleLine, { minLength: 1, maxLength: 4 }),
    fc.option(fc.tuple(noise, fc.nat(5)), { freq: 3 }),
  )
  .map(([uas, rules, inserted]) => {
    const lines = [...uas, ...rules];
    if (inserted !== null) lines.splice(inserted[1] % (lines.length + 1), 0, inserted[0]);
    return lines;
  });
const separator = fc.constantFrom([''], [], ['   '], ['# next'], ['', '']);
const file = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.tuple(record, separator), { minLength: 1, maxLength: 4 }),
    fc.constantFrom('\n', '\r\n', '\r'),
  )
  .map(([bom, records, eol]) => (bom ? '\uFEFF' : '') + records.flatMap(([r, sep]) => [...r, ...sep]).join(eol));
const url = fc
  .tuple(
    fc.constantFrom('', '/', '/a', '/a/b', '/a/b/c', '/b', '/%61', '/a%2Fb', '/~x', '/*', '/ä'),
    fc.constantFrom('', '?q=1', '#f', ';p'),
  )
  .map(([p, s]) => `${H}${p}${s}`);
const agents = ['Googlebot', 'googlebot-image', 'Foo', '*'];

describe.runIf(python)('legacy dialect on generated files', () => {
  const cases = fc.sample(fc.tuple(file, fc.array(url, { minLength: 1, maxLength: 6 })), { numRuns: 1500, seed: 1994 });
  const requests = cases.map(([robots, urls]) => ({
    robots,
    checks: urls.flatMap((u) => agents.map((a) => [a, u] as const)),
    fixes: [[], [...DEVIATIONS]],
  }));
  const verdicts = urllibVerdicts(requests);

  it('decides every check as urllib.robotparser does once the documented deviations are applied', () => {
    const disagreements: string[] = [];
    const seen = { checks: 0, disallowed: 0, rawDisagreements: 0, googleDiffers: 0 };
    requests.forEach((request, i) => {
      const legacy = parseRobotsTxt(request.robots, { dialect: 'legacy' });
      const google = parseRobotsTxt(request.robots);
      request.checks.forEach(([ua, u], j) => {
        const ours = legacy.isAllowed(u, ua);
        seen.checks++;
        if (!ours) seen.disallowed++;
        if (ours !== verdicts[i]![0]![j]) seen.rawDisagreements++;
        if (ours !== google.isAllowed(u, ua)) seen.googleDiffers++;
        if (ours !== verdicts[i]![1]![j]) disagreements.push(`${JSON.stringify(request.robots)} ${ua} ${u}`);
      });
    });
    expect(disagreements).toEqual([]);
    // The files are not trivial: both verdicts occur, the deviations matter, and the two dialects often differ.
    expect(seen.checks).toBeGreaterThan(10_000);
    expect(seen.disallowed / seen.checks).toBeGreaterThan(0.1);
    expect(seen.rawDisagreements / seen.checks).toBeGreaterThan(0.01);
    expect(seen.googleDiffers / seen.checks).toBeGreaterThan(0.05);
  });
});

const corpus = corpusDir();

describe.runIf(python && corpus !== null)('legacy dialect on the real corpus', () => {
  it('decides every URL of every URL list, as Googlebot and as a *-only crawler, as urllib does once the documented deviations are applied', () => {
    const dir = corpus ?? '';
    const rows = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
      .trim()
      .split('\n');
    const header = rows[0]!.split('\t');
    const requests = rows.slice(1).map((row) => {
      const cells = row.split('\t');
      const urls = readFileSync(join(dir, 'urls', cells[header.indexOf('urls_file')]!), 'utf8')
        .split('\n')
        .filter(Boolean);
      return {
        name: cells[header.indexOf('robots_file')]!,
        robots: new Uint8Array(readFileSync(join(dir, 'robots', cells[header.indexOf('robots_file')]!))),
        checks: urls.flatMap((u) => [['Googlebot', u] as const, ['*', u] as const]),
        fixes: [[], [...DEVIATIONS]],
      };
    });
    const verdicts = urllibVerdicts(requests);
    const disagreements: string[] = [];
    let checks = 0;
    let rawAgreements = 0;
    requests.forEach((request, i) => {
      const robots = parseRobotsTxt(request.robots, { dialect: 'legacy' });
      request.checks.forEach(([ua, u], j) => {
        checks++;
        const ours = robots.isAllowed(u, ua);
        if (ours === verdicts[i]![0]![j]) rawAgreements++;
        if (ours !== verdicts[i]![1]![j]) disagreements.push(`${request.name} ${ua} ${u}`);
      });
    });
    expect(disagreements).toEqual([]);
    expect(checks).toBeGreaterThan(170_000);
    // Without the fixes, the documented deviations account for a small share of checks (see bench/dialects.js).
    expect(rawAgreements / checks).toBeGreaterThan(0.99);
  });
});
