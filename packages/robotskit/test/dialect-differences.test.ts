/**
 * `dialectDifferences` (where Google and the 1994 convention read a file differently) and `compareDialects` (both
 * verdicts for one URL).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDialects, type DialectDifferenceKind, dialectDifferences, parseRobotsTxt } from '../src/index.js';
import { bytes, corpusDir } from './helpers.js';

interface Case {
  readonly robots: string;
  /** Expected differences as `kind@line,line…`. */
  readonly found: readonly string[];
  /** A URL and crawler on which the two dialects decide differently because of it (when there is one to show). */
  readonly witness?: { readonly url: string; readonly ua: string };
}

const CASES: Record<string, Case> = {
  'a blank line between rules': {
    robots: 'User-agent: *\nDisallow: /a\n\nDisallow: /b\n',
    found: ['blank-line-in-group@3,4'],
    witness: { url: '/b', ua: 'x' },
  },
  'a blank line between user-agent and rules': {
    robots: 'User-agent: Foo\n\nDisallow: /\n',
    found: ['blank-line-in-group@2,3'],
    witness: { url: '/', ua: 'Foo' },
  },
  'a blank line between user-agent lines': {
    robots: 'User-agent: FooBot\n\nUser-agent: BarBot\nDisallow: /\n',
    found: ['blank-line-in-group@2,3,4'],
    witness: { url: '/', ua: 'FooBot' },
  },
  'a blank line after the group ends nothing': {
    robots: 'User-agent: FooBot\nDisallow: /\n\nUser-agent: BarBot\nDisallow: /x\n',
    found: [],
  },
  'groups naming the same crawler': {
    robots: 'User-agent: Foo\nDisallow: /a\n\nUser-agent: Foo\nDisallow: /b\n',
    found: ['merged-groups@1,4'],
    witness: { url: '/b', ua: 'Foo' },
  },
  'several * groups': {
    robots: 'User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n',
    found: ['merged-groups@1,4'],
    witness: { url: '/b', ua: 'x' },
  },
  '* and a name in one group': {
    robots: 'User-agent: Foo\nUser-agent: *\nDisallow: /a\n\nUser-agent: Foo\nDisallow: /b\n',
    found: ['global-with-names@1,2', 'merged-groups@1,5'],
    witness: { url: '/a', ua: 'Foo' },
  },
  'a user-agent with a version': {
    robots: 'User-agent: Googlebot/2.1\nDisallow: /\n',
    found: ['prefix-vs-token@1'],
    witness: { url: '/', ua: 'Googlebot' },
  },
  'a short user-agent is inside many crawler names': {
    robots: 'User-agent: bot\nDisallow: /\n',
    found: ['prefix-vs-token@1'],
    witness: { url: '/', ua: 'Googlebot' },
  },
  'a user-agent that other crawler names contain': {
    robots: 'User-agent: Googlebot\nDisallow: /\n',
    found: ['prefix-vs-token@1'],
    witness: { url: '/', ua: 'Googlebot-Image' },
  },
  'an empty user-agent': {
    robots: 'User-agent:\nDisallow: /\n',
    found: ['empty-user-agent@1'],
    witness: { url: '/', ua: 'Foo' },
  },
  'a wildcard': {
    robots: 'User-agent: *\nDisallow: /*.php\n',
    found: ['wildcard@2'],
    witness: { url: '/a.php', ua: 'x' },
  },
  'a trailing $': {
    robots: 'User-agent: *\nDisallow: /a$\n',
    found: ['dollar-anchor@2'],
    witness: { url: '/a', ua: 'x' },
  },
  'a longer allow after a disallow': {
    robots: 'User-agent: *\nDisallow: /a\nAllow: /a/b\n',
    found: ['allow-order@2,3'],
    witness: { url: '/a/b', ua: 'x' },
  },
  'an equally long allow after a disallow': {
    robots: 'User-agent: *\nDisallow: /a\nAllow: /a\n',
    found: ['allow-order@2,3'],
    witness: { url: '/a', ua: 'x' },
  },
  'a longer allow before a disallow': {
    robots: 'User-agent: *\nAllow: /a/b\nDisallow: /a\n',
    found: [],
  },
  'an empty disallow before rules': {
    robots: 'User-agent: *\nDisallow:\nDisallow: /private\n',
    found: ['empty-rule@2,3'],
    witness: { url: '/private', ua: 'x' },
  },
  'an empty disallow alone': {
    robots: 'User-agent: *\nDisallow:\n',
    found: [],
  },
  'an escape': {
    robots: 'User-agent: *\nDisallow: /%7Ejoe\n',
    found: ['percent-encoding@2'],
    witness: { url: '/~joe', ua: 'x' },
  },
  'an escaped slash is read alike': {
    robots: 'User-agent: *\nDisallow: /a%2Fb\n',
    found: [],
  },
  'a space in a rule': {
    robots: 'User-agent: *\nDisallow: /a b\n',
    found: ['percent-encoding@2'],
    witness: { url: '/a%20b', ua: 'x' },
  },
  'an index.html allow': {
    robots: 'User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n',
    found: ['allow-order@2,3', 'index-html@3'],
    witness: { url: '/d/', ua: 'x' },
  },
  'a typo, a prefixed name and a missing colon': {
    robots: 'Useragent: *\nDisallowed: /a\nDisallow /b\n',
    found: ['field-spelling@1', 'field-spelling@2', 'field-spelling@3'],
    witness: { url: '/a', ua: 'x' },
  },
  'crawl-delay between user-agent lines': {
    robots: 'User-agent: FooBot\nCrawl-delay: 1\nUser-agent: BarBot\nDisallow: /\n',
    found: ['crawl-delay-ends-record@2,3'],
    witness: { url: '/', ua: 'FooBot' },
  },
  'a plain file': {
    robots:
      'User-agent: *\nDisallow: /private/\n\nUser-agent: Foo\nDisallow: /\n\nSitemap: https://example.com/s.xml\n',
    found: [],
  },
};

describe('dialectDifferences', () => {
  it.each(Object.entries(CASES))('%s', (_name, c) => {
    const found = dialectDifferences(c.robots);
    expect(found.map((d) => `${d.kind}@${d.lines.join(',')}`)).toEqual(c.found);
    for (const d of found) {
      expect(d.line).toBe(d.lines[0]);
      expect(d.google.length).toBeGreaterThan(10);
      expect(d.legacy.length).toBeGreaterThan(10);
      // The range covers the lines involved, from the first's start to the last's end.
      const text = c.robots.slice(d.range.start, d.range.end);
      const lines = c.robots.split('\n');
      expect(text.startsWith(lines[d.lines[0]! - 1]!)).toBe(true);
      expect(text.endsWith(lines[d.lines[d.lines.length - 1]! - 1]!)).toBe(true);
    }
    if (c.witness) {
      const { google, legacy, agree } = compareDialects(c.robots, c.witness.url, c.witness.ua);
      expect(agree, 'the two dialects decide the witness differently').toBe(false);
      expect(google.allowed).not.toBe(legacy.allowed);
    }
  });

  it('covers every kind with a case', () => {
    const kinds = new Set(Object.values(CASES).flatMap((c) => c.found.map((f) => f.split('@')[0])));
    const all: DialectDifferenceKind[] = [
      'blank-line-in-group',
      'merged-groups',
      'global-with-names',
      'prefix-vs-token',
      'empty-user-agent',
      'wildcard',
      'dollar-anchor',
      'allow-order',
      'empty-rule',
      'percent-encoding',
      'index-html',
      'field-spelling',
      'crawl-delay-ends-record',
    ];
    expect([...kinds].sort()).toEqual([...all].sort());
  });

  it('accepts a parsed file in either dialect, and bytes, with ranges in the units of the input', () => {
    const text = 'User-agent: *\n# ä\nDisallow: /*.php\n';
    const expected = dialectDifferences(text);
    expect(dialectDifferences(parseRobotsTxt(text))).toEqual(expected);
    expect(dialectDifferences(parseRobotsTxt(text, { dialect: 'legacy' }))).toEqual(expected);
    const fromBytes = dialectDifferences(bytes(text));
    expect(fromBytes.map((d) => d.kind)).toEqual(['wildcard']);
    expect(expected[0]!.range).toEqual({ start: 18, end: 34 });
    expect(fromBytes[0]!.range).toEqual({ start: 19, end: 35 });
  });

  it('limits allow-order pairs per group', () => {
    const rules = Array.from({ length: 100 }, (_, i) => `Disallow: /a${i}\nAllow: /a${i}/x`).join('\n');
    const found = dialectDifferences(`User-agent: *\n${rules}\n`);
    expect(found.filter((d) => d.kind === 'allow-order')).toHaveLength(20);
  });
});

describe('compareDialects', () => {
  it('explains both readings with their deciding lines', () => {
    const robots = 'User-agent: *\nDisallow: /a\nAllow: /a/b\n';
    const { google, legacy, agree } = compareDialects(robots, 'https://example.com/a/b', 'Googlebot');
    expect(agree).toBe(false);
    expect(google).toMatchObject({ allowed: true, line: 3, groups: 'global' });
    expect(legacy).toMatchObject({ allowed: false, line: 2, groups: 'global' });
  });

  it('reuses a parsed file and its other reading', () => {
    const robots = parseRobotsTxt('User-agent: Foo\nDisallow: /\n\nUser-agent: Foo\nAllow: /\n');
    expect(robots.inDialect('legacy')).toBe(robots.inDialect('legacy'));
    expect(robots.inDialect('google')).toBe(robots);
    expect(robots.inDialect('legacy').inDialect('google')).not.toBe(robots);
    const { google, legacy } = compareDialects(robots, '/x', 'Foo');
    expect(google).toMatchObject({ allowed: true, line: 5, groupLines: [1, 4] });
    expect(legacy).toMatchObject({ allowed: false, line: 2, groupLines: [1] });
  });
});

const corpus = corpusDir();

describe.runIf(corpus !== null)('dialectDifferences on the real corpus', () => {
  it('never throws, and reports something on every listed site where the dialects decide a URL differently', () => {
    const dir = corpus ?? '';
    for (const name of readdirSync(join(dir, 'robots'))) {
      const found = dialectDifferences(readFileSync(join(dir, 'robots', name)));
      for (const d of found) expect(d.lines.length, name).toBeGreaterThan(0);
    }
    const rows = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
      .trim()
      .split('\n');
    const header = rows[0]!.split('\t');
    const silent: string[] = [];
    let differing = 0;
    for (const row of rows.slice(1)) {
      const cells = row.split('\t');
      const name = cells[header.indexOf('robots_file')]!;
      const google = parseRobotsTxt(readFileSync(join(dir, 'robots', name)));
      const legacy = google.inDialect('legacy');
      const urls = readFileSync(join(dir, 'urls', cells[header.indexOf('urls_file')]!), 'utf8').split('\n');
      const differs = urls
        .filter(Boolean)
        .some((u) => ['Googlebot', '*'].some((ua) => google.isAllowed(u, ua) !== legacy.isAllowed(u, ua)));
      if (!differs) continue;
      differing++;
      if (dialectDifferences(google).length === 0) silent.push(name);
    }
    expect(silent).toEqual([]);
    expect(differing).toBeGreaterThan(20);
  });
});
