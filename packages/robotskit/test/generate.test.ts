/**
 * generateRobots: a robots.txt from a declarative policy, lint-clean, and deciding as the policy says (checked here by
 * an independent model of the policy's meaning, not only by the engine's own comparison).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CRAWLERS, crawlerByName, parseRobotsTxt } from '../src/index.js';
import { lint } from '../src/lint/index.js';
import {
  crawlersInCategory,
  generateRobots,
  POLICY_CATEGORIES,
  PolicyError,
  type PolicyGroup,
} from '../src/semantics/index.js';
import { isValidProductToken } from '../src/url/user-agent.js';

/** The values of the user-agent lines of a file, as written. */
function writtenAgents(text: string): string[] {
  return parseRobotsTxt(text)
    .records.filter((r) => r.field === 'user-agent')
    .map((r) => r.value);
}

describe('generateRobots', () => {
  it('writes the groups, the sitemaps, and verifies the result', () => {
    const result = generateRobots({
      groups: [
        { crawlers: ['FooBot', 'BarBot'], disallow: ['/private/'], allow: ['/private/open$'] },
        { crawlers: ['*'], disallow: ['/admin/'] },
      ],
      sitemaps: ['https://example.invalid/sitemap.xml'],
    });
    expect(result.text).toBe(
      [
        'User-agent: FooBot',
        'User-agent: BarBot',
        'Allow: /private/open$',
        'Disallow: /private/',
        '',
        'User-agent: *',
        'Disallow: /admin/',
        '',
        'Sitemap: https://example.invalid/sitemap.xml',
        '',
      ].join('\n'),
    );
    expect(result.verified).toBe(true);
    expect(result.checks.map((c) => [c.crawler, c.equivalent])).toEqual([
      ['FooBot', true],
      ['BarBot', true],
      ['*', true],
    ]);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const robots = parseRobotsTxt(result.text);
    expect(robots.isAllowed('https://example.invalid/private/x', 'FooBot')).toBe(false);
    expect(robots.isAllowed('https://example.invalid/private/open', 'BarBot')).toBe(true);
    expect(robots.isAllowed('https://example.invalid/admin/', 'FooBot')).toBe(true);
    expect(robots.isAllowed('https://example.invalid/admin/', 'QuxBot')).toBe(false);
  });

  it('category:ai-training names the AI crawlers that collect training data, by their catalogue entries', () => {
    const training = crawlersInCategory('ai-training').map((c) => c.name);
    expect(training).toContain('GPTBot');
    expect(training).toContain('Google-Extended');
    expect(training).toContain('CCBot');
    expect(training).not.toContain('Googlebot');
    expect(training).not.toContain('ChatGPT-User');
    expect(crawlersInCategory('ai').length).toBe(CRAWLERS.filter((c) => c.kind === 'ai').length);
    expect(() => crawlersInCategory('robots')).toThrow(PolicyError);

    const result = generateRobots({
      groups: [
        { crawlers: ['category:ai-training'], disallow: ['/'] },
        { crawlers: ['*'], disallow: ['/admin/'] },
      ],
    });
    expect(result.verified).toBe(true);
    // Crawlers none of whose names Google can match are left out, and said so; the others are checked by their names.
    const unnamed = result.unnamed.map((u) => u.crawler);
    expect(result.unnamed).toEqual(expect.arrayContaining([{ crawler: 'AI2Bot', readAs: 'AI' }]));
    expect(unnamed).toContain('img2dataset');
    // One check per name written (Brightbot and Brightbot 1.0 are both written `Brightbot`), and one for `*`.
    const names = new Set(writtenAgents(result.text).filter((v) => v !== '*'));
    expect(result.checks.length).toBe(names.size + 1);
    expect(names.size).toBeLessThanOrEqual(training.length - unnamed.length);
    const robots = parseRobotsTxt(result.text);
    const url = 'https://example.invalid/page';
    // As Google's reference reads the file: each name written applies to the crawler of that product token.
    for (const value of writtenAgents(result.text).filter((v) => v !== '*'))
      expect(robots.isAllowed(url, value)).toBe(false);
    // A crawler left out obeys `*`, as Google's reference decides for its name.
    for (const name of unnamed) expect(robots.isAllowed(url, name), name).toBe(true);
    expect(robots.isAllowed(url, crawlerByName('GPTBot')!)).toBe(false);
    expect(robots.isAllowed(url, crawlerByName('Googlebot')!)).toBe(true);
    expect(robots.isAllowed('https://example.invalid/admin/x', crawlerByName('Googlebot')!)).toBe(false);
  });

  it('writes every name as Google reads it: a token before a version stands for its crawler; other names are refused', () => {
    const result = generateRobots({ groups: [{ crawlers: ['Brightbot 1.0'], disallow: ['/'] }] });
    expect(result.text).toBe('User-agent: Brightbot\nDisallow: /\n');
    expect(result.verified).toBe(true);
    for (const name of ['AI2Bot', 'img2dataset', 'Crawl4AI']) {
      expect(() => generateRobots({ groups: [{ crawlers: ['FooBot', name], disallow: ['/'] }] })).toThrow(
        new RegExp(
          `^groups\\[0\\]\\.crawlers\\[1\\]: '${name}' cannot be named in robots\\.txt as Google reads it: a user-agent line '${name}' is read as '[A-Za-z]+'`,
        ),
      );
    }
    // A group whose crawlers all cannot be named is not written: they obey `*`.
    const none = generateRobots({
      groups: [
        { crawlers: ['category:ai'], disallow: ['/x'] },
        { crawlers: ['*'], disallow: ['/y'] },
      ],
    });
    expect(none.text).not.toMatch(/^User-agent: (AI|img)$/m);
  });

  it('for every category: every name written is read by Google as written, verified, and lint is clean', () => {
    for (const category of POLICY_CATEGORIES) {
      const result = generateRobots({
        groups: [
          { crawlers: [`category:${category}`], disallow: ['/private/'], allow: ['/private/open'] },
          { crawlers: ['*'], disallow: ['/admin/'] },
        ],
        sitemaps: ['https://example.invalid/sitemap.xml'],
      });
      expect(result.verified, category).toBe(true);
      const values = writtenAgents(result.text);
      // A category no crawler has (no archiver is in the catalogue yet) writes only the `*` group.
      expect(values.length, category).toBeGreaterThan(crawlersInCategory(category).length === 0 ? 0 : 1);
      for (const value of values) {
        if (value !== '*') expect(isValidProductToken(value), `${category}: ${value}`).toBe(true);
      }
      const loud = lint(result.text).filter((d) => d.severity !== 'info');
      expect(loud, category).toEqual([]);
      // Every crawler of the category is written or listed as left out.
      const written = new Set(values.map((v) => v.toLowerCase()));
      for (const c of crawlersInCategory(category)) {
        const left = result.unnamed.some((u) => u.crawler === c.name);
        const named = [...c.tokens, c.name].some(
          (n) => written.has(n.toLowerCase()) || written.has(n.split(/[ /]/)[0]!.toLowerCase()),
        );
        expect(left || named, `${category}: ${c.name}`).toBe(true);
      }
    }
  });

  it('a group without rules allows everything and stays its own group', () => {
    const result = generateRobots({ groups: [{ crawlers: ['FooBot'] }, { crawlers: ['*'], disallow: ['/'] }] });
    expect(result.text).toBe('User-agent: FooBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n');
    expect(result.verified).toBe(true);
    // Merged with another group for the same crawler, it adds nothing (found by the property test below).
    const merged = generateRobots({ groups: [{ crawlers: ['*'], disallow: ['/'] }, { crawlers: ['*'] }] });
    expect(merged.text).toBe('User-agent: *\nDisallow: /\n\nUser-agent: *\nDisallow:\n');
    expect(merged.verified).toBe(true);
    expect(parseRobotsTxt(merged.text).isAllowed('https://example.invalid/', 'QuxBot')).toBe(false);
  });

  it('accepts the policy as JSON text and says where a policy is wrong', () => {
    expect(generateRobots('{"groups":[{"crawlers":["*"],"disallow":["/a"]}]}').text).toBe(
      'User-agent: *\nDisallow: /a\n',
    );
    const wrong: [unknown, RegExp][] = [
      ['{', /^the policy is not JSON/],
      [{}, /^groups: expected a list/],
      [{ groups: [], extra: 1 }, /^unknown field 'extra'/],
      [{ groups: [{ crawlers: [] }] }, /^groups\[0\]\.crawlers: name at least one/],
      [{ groups: [{ crawlers: ['Foo Bot'] }] }, /^groups\[0\]\.crawlers\[0\]: 'Foo Bot' is neither/],
      [{ groups: [{ crawlers: ['category:nope'] }] }, /^groups\[0\]\.crawlers\[0\]: unknown category 'nope'/],
      [{ groups: [{ crawlers: ['*'], disallow: ['admin'] }] }, /^groups\[0\]\.disallow\[0\]: 'admin' must start/],
      [{ groups: [{ crawlers: ['*'], allow: ['/a #b'] }] }, /^groups\[0\]\.allow\[0\]: .*whitespace/],
      [{ groups: [], sitemaps: ['/sitemap.xml'] }, /^sitemaps\[0\]: '\/sitemap\.xml' is not an absolute/],
    ];
    for (const [policy, message] of wrong) {
      expect(() => generateRobots(policy as string)).toThrow(PolicyError);
      expect(() => generateRobots(policy as string)).toThrow(message);
    }
  });
});

// An independent model of what a policy means: the groups naming the crawler (else the `*` groups), longest pattern
// decides, allow wins a tie, no match allows.
const NAMES = ['*', 'FooBot', 'foobot', 'BarBot', 'Googlebot', 'Googlebot-Image', 'AdsBot-Google'];
const CHARS = ['/', 'a', 'b', '.', '*'];
const patternArb = fc
  .tuple(fc.constantFrom('/', '*', '/a'), fc.array(fc.constantFrom(...CHARS), { maxLength: 5 }), fc.boolean())
  .map(([start, rest, end]) => `${start}${rest.join('')}${end ? '$' : ''}`);
const groupArb: fc.Arbitrary<PolicyGroup> = fc.record({
  crawlers: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
  allow: fc.array(patternArb, { maxLength: 3 }),
  disallow: fc.array(patternArb, { maxLength: 3 }),
});
const pathArb = fc.array(fc.constantFrom('/', 'a', 'b', '.'), { maxLength: 7 }).map((a) => `/${a.join('')}`);

function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.$]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}

function policyAllows(groups: readonly PolicyGroup[], crawler: string, path: string): boolean {
  const own = groups.filter((g) => g.crawlers.some((c) => c.toLowerCase() === crawler.toLowerCase()));
  const rules = (own.length > 0 ? own : groups.filter((g) => g.crawlers.includes('*'))).flatMap((g) => [
    ...(g.allow ?? []).map((p) => ({ p, allow: true })),
    ...(g.disallow ?? []).map((p) => ({ p, allow: false })),
  ]);
  let best: { p: string; allow: boolean } | null = null;
  for (const r of rules) {
    if (!matches(r.p, path)) continue;
    if (best === null || r.p.length > best.p.length || (r.p.length === best.p.length && r.allow)) best = r;
  }
  return best === null || best.allow;
}

describe('generateRobots properties', () => {
  it('for random small policies: verified, lint reports no error, and every named crawler and * decide as the policy says', () => {
    fc.assert(
      fc.property(
        fc.array(groupArb, { minLength: 1, maxLength: 4 }),
        fc.array(pathArb, { minLength: 1, maxLength: 8 }),
        (groups, paths) => {
          const result = generateRobots({ groups });
          expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          expect(result.verified).toBe(true);
          const robots = parseRobotsTxt(result.text);
          const named = [...new Set(groups.flatMap((g) => g.crawlers).filter((c) => c !== '*'))];
          for (const crawler of [...named, 'QuxBot']) {
            const input = crawlerByName(crawler) ?? crawler;
            for (const path of paths) {
              expect(
                robots.isAllowed(`https://example.invalid${path}`, input),
                `${crawler} ${path}\n${result.text}`,
              ).toBe(policyAllows(groups, crawler, path));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
