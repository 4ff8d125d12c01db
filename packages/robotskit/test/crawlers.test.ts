/**
 * Crawler profiles: the catalogue, fallback order, crawlers that ignore `*`, names that are not product tokens, the
 * crawler matrix and crawl-delay.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AI_ROBOTS_TXT } from '../src/crawlers/ai-robots-txt.generated.js';
import {
  CRAWLERS,
  type CrawlerProfile,
  crawlerByName,
  type DialectName,
  defineCrawler,
  isValidProductToken,
  parseRobotsTxt,
} from '../src/index.js';
import { googleDialect } from '../src/match/google.js';
import { legacyDialect } from '../src/match/legacy.js';
import { corpusDir } from './helpers.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

function crawler(name: string): CrawlerProfile {
  const found = crawlerByName(name);
  if (found === undefined) throw new Error(`no crawler ${name}`);
  return found;
}

describe('the catalogue', () => {
  it('has the crawlers of the issue, with their fallback order and whether they ignore *', () => {
    const expected: Record<string, [tokens: string[], ignoresGlobal: boolean]> = {
      Googlebot: [['Googlebot'], false],
      'Googlebot-Image': [['Googlebot-Image', 'Googlebot'], false],
      'Googlebot-News': [['Googlebot-News', 'Googlebot'], false],
      'Googlebot-Video': [['Googlebot-Video', 'Googlebot'], false],
      'Storebot-Google': [['Storebot-Google'], false],
      GoogleOther: [['GoogleOther'], false],
      'GoogleOther-Image': [['GoogleOther-Image', 'GoogleOther'], false],
      'GoogleOther-Video': [['GoogleOther-Video', 'GoogleOther'], false],
      'Google-InspectionTool': [['Google-InspectionTool', 'Googlebot'], false],
      'Google-Extended': [['Google-Extended'], false],
      'AdsBot-Google': [['AdsBot-Google'], true],
      'AdsBot-Google-Mobile': [['AdsBot-Google-Mobile'], true],
      'Mediapartners-Google': [['Mediapartners-Google'], true],
      'APIs-Google': [['APIs-Google'], true],
      bingbot: [['bingbot', 'msnbot'], false],
      msnbot: [['msnbot'], false],
      AdIdxBot: [['adidxbot'], false],
      YandexBot: [['YandexBot', 'Yandex'], false],
      Applebot: [['Applebot', 'Googlebot'], false],
      DuckDuckBot: [['DuckDuckBot'], false],
      Baiduspider: [['Baiduspider'], false],
    };
    for (const [name, [tokens, ignoresGlobal]] of Object.entries(expected)) {
      const profile = crawler(name);
      expect(profile.tokens, name).toEqual(tokens);
      expect(profile.ignoresGlobalGroup, name).toBe(ignoresGlobal);
      expect(profile.operator, name).not.toBe('');
      expect(profile.description, name).not.toBe('');
      expect(profile.source, name).toMatch(/^https:\/\//);
    }
    expect(crawler('Googlebot').honoursCrawlDelay).toBe(false);
    expect(crawler('bingbot').honoursCrawlDelay).toBe(true);
    expect(crawler('YandexBot').honoursCrawlDelay).toBe(false);
  });

  it('has every AI crawler of the ai.robots.txt list, by its name or as an alias', () => {
    const json = JSON.parse(readFileSync(join(packageDir, 'data/ai-robots-txt/robots.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    for (const name of Object.keys(json)) {
      const profile = crawler(name);
      expect(profile.aiRobotsTxt?.name.toLowerCase(), name).toBe(profile.name.toLowerCase());
      expect([profile.name, ...profile.aliases], name).toContain(name);
    }
    // Names differing only in case are one crawler for robots.txt: one profile, the other spelling as an alias.
    expect(crawler('meta-externalagent')).toBe(crawler('Meta-ExternalAgent'));
    expect(crawler('Meta-ExternalAgent').aliases).toEqual(['Meta-ExternalAgent']);
    // A crawler written here that is also on the AI list keeps its facts and carries the list's entry.
    expect(crawler('Applebot')).toMatchObject({ kind: 'search', tokens: ['Applebot', 'Googlebot'] });
    expect(crawler('Applebot').aiRobotsTxt?.name).toBe('Applebot');
  });

  it('flags the names that are not product tokens', () => {
    const invalid = CRAWLERS.filter((c) => !c.validTokens).map((c) => c.name);
    expect(invalid).toEqual(
      Object.keys(JSON.parse(readFileSync(join(packageDir, 'data/ai-robots-txt/robots.json'), 'utf8'))).filter(
        (name) => !isValidProductToken(name),
      ),
    );
    expect(invalid).toContain('AI2Bot');
    expect(invalid).toContain('Brightbot 1.0');
    expect(invalid).toContain('MistralAI-User/1.0');
    expect(invalid).toHaveLength(21);
  });

  it('has unique names, ASCII case-insensitively, and frozen profiles', () => {
    const names = CRAWLERS.map((c) => c.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
    for (const c of CRAWLERS) for (const alias of c.aliases) expect(alias.toLowerCase()).toBe(c.name.toLowerCase());
    expect(Object.isFrozen(CRAWLERS)).toBe(true);
    expect(Object.isFrozen(CRAWLERS[0])).toBe(true);
  });

  it('generates its AI module from the JSON: same entries, same order, same fields', () => {
    const json = JSON.parse(readFileSync(join(packageDir, 'data/ai-robots-txt/robots.json'), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    expect(
      AI_ROBOTS_TXT.map(({ name, hasNameAndVersion, ...fields }) => ({
        name,
        ...fields,
        ...(hasNameAndVersion === undefined ? {} : { has_name_and_version: hasNameAndVersion }),
      })),
    ).toEqual(Object.entries(json).map(([name, fields]) => ({ name, ...fields })));
    const check = spawnSync(process.execPath, [join(packageDir, 'scripts/generate-ai-crawlers.mjs'), '--check'], {
      encoding: 'utf8',
    });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('carries the licence of the AI list with its data', () => {
    const module = readFileSync(join(packageDir, 'src/crawlers/ai-robots-txt.generated.ts'), 'utf8');
    expect(module).toContain('Copyright (c) 2024 ai.robots.txt');
    expect(module).toContain('Permission is hereby granted, free of charge');
  });
});

interface FallbackCase {
  readonly robots: string;
  readonly crawler: string;
  readonly url: string;
  readonly allowed: boolean;
  /** The token whose groups applied; null for `*` or none. */
  readonly token: string | null;
  readonly groups: 'specific' | 'global' | 'none';
}

const FALLBACK: Record<string, FallbackCase> = {
  'Googlebot-Image uses its own group': {
    robots: 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Image\nAllow: /\n',
    crawler: 'Googlebot-Image',
    url: '/a.png',
    allowed: true,
    token: 'Googlebot-Image',
    groups: 'specific',
  },
  "Googlebot-Image falls back to Googlebot's group": {
    robots: 'User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /\n',
    crawler: 'Googlebot-Image',
    url: '/a.png',
    allowed: false,
    token: 'Googlebot',
    groups: 'specific',
  },
  'Googlebot-Image falls back to *': {
    robots: 'User-agent: bingbot\nAllow: /\n\nUser-agent: *\nDisallow: /img/\n',
    crawler: 'Googlebot-Image',
    url: '/img/a.png',
    allowed: false,
    token: null,
    groups: 'global',
  },
  'an empty own group still wins over the fallback': {
    robots: 'User-agent: Googlebot-News\n\nUser-agent: Googlebot\nDisallow: /\n',
    crawler: 'Googlebot-News',
    url: '/story',
    allowed: false,
    token: 'Googlebot-News',
    groups: 'specific',
  },
  'AdsBot-Google ignores *': {
    robots: 'User-agent: *\nDisallow: /\n',
    crawler: 'AdsBot-Google',
    url: '/landing',
    allowed: true,
    token: null,
    groups: 'none',
  },
  'AdsBot-Google obeys its own group': {
    robots: 'User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /private\n',
    crawler: 'AdsBot-Google',
    url: '/private/x',
    allowed: false,
    token: 'AdsBot-Google',
    groups: 'specific',
  },
  "AdsBot-Google-Mobile does not read AdsBot-Google's group": {
    robots: 'User-agent: AdsBot-Google\nDisallow: /\n',
    crawler: 'AdsBot-Google-Mobile',
    url: '/',
    allowed: true,
    token: null,
    groups: 'none',
  },
  "Storebot-Google does not read Googlebot's group": {
    robots: 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /cart\n',
    crawler: 'Storebot-Google',
    url: '/product',
    allowed: true,
    token: null,
    groups: 'global',
  },
  "Applebot follows Googlebot's group": {
    robots: 'User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n',
    crawler: 'Applebot',
    url: '/public',
    allowed: true,
    token: 'Googlebot',
    groups: 'specific',
  },
  "bingbot falls back to msnbot's group": {
    robots: 'User-agent: msnbot\nDisallow: /x\n',
    crawler: 'bingbot',
    url: '/x',
    allowed: false,
    token: 'msnbot',
    groups: 'specific',
  },
  "YandexBot falls back to Yandex's group": {
    robots: 'User-agent: Yandex\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    crawler: 'YandexBot',
    url: '/',
    allowed: false,
    token: 'Yandex',
    groups: 'specific',
  },
  'a name that is not a product token matches its whole value': {
    robots: 'User-agent: AI2Bot\nDisallow: /\n',
    crawler: 'AI2Bot',
    url: '/',
    allowed: false,
    token: 'AI2Bot',
    groups: 'specific',
  },
  "…but not another value with the same token prefix (Google's token `AI`)": {
    robots: 'User-agent: AI2Bot-Dolma\nDisallow: /\n\nUser-agent: AI\nDisallow: /\n',
    crawler: 'AI2Bot',
    url: '/',
    allowed: true,
    token: null,
    groups: 'none',
  },
  'a name with a space and a version': {
    robots: 'User-agent: brightbot 1.0 # comment\nDisallow: /\n',
    crawler: 'Brightbot 1.0',
    url: '/',
    allowed: false,
    token: 'Brightbot 1.0',
    groups: 'specific',
  },
  'GPTBot blocked while * allows': {
    robots: 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n',
    crawler: 'GPTBot',
    url: '/',
    allowed: false,
    token: 'GPTBot',
    groups: 'specific',
  },
};

describe('fallback order', () => {
  it.each(Object.entries(FALLBACK))('%s', (_name, c) => {
    const robots = parseRobotsTxt(c.robots);
    const profile = crawler(c.crawler);
    expect(robots.isAllowed(`https://example.com${c.url}`, profile)).toBe(c.allowed);
    const why = robots.explain(`https://example.com${c.url}`, profile);
    expect(why).toMatchObject({
      allowed: c.allowed,
      groups: c.groups,
      crawler: { name: profile.name, token: c.token },
    });
    expect(why.userAgents).toEqual(profile.tokens);
    expect(robots.selectGroups(profile).match).toBe(c.groups);
  });

  it('keeps string user agents exactly as the reference reads them', () => {
    const robots = parseRobotsTxt('User-agent: AI2Bot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /\n');
    // The reference reads the line as the token `AI`; the string `AI2Bot` is not a product token and matches nothing.
    expect(robots.isAllowed('/', 'AI2Bot')).toBe(true);
    expect(robots.isAllowed('/', 'AI')).toBe(false);
    expect(robots.isAllowed('/', crawler('AI2Bot'))).toBe(false);
    // No fallback for strings: Googlebot-Image is its own name.
    expect(robots.isAllowed('/', 'Googlebot-Image')).toBe(true);
    expect(robots.isAllowed('/', crawler('Googlebot-Image'))).toBe(false);
    expect(robots.explain('/', 'Googlebot')).not.toHaveProperty('crawler');
  });

  it.each(['google', 'legacy'] as DialectName[])('applies the fallback order in the %s dialect', (dialect) => {
    const robots = parseRobotsTxt('User-agent: Googlebot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n', { dialect });
    expect(robots.isAllowed('/b', crawler('Googlebot-Image'))).toBe(true);
    expect(robots.isAllowed('/a', crawler('Googlebot-Image'))).toBe(false);
    expect(robots.isAllowed('/b', crawler('Storebot-Google'))).toBe(false);
    expect(robots.isAllowed('/b', crawler('AdsBot-Google'))).toBe(true);
  });

  it('takes crawlers defined by the caller, and rejects malformed ones', () => {
    const bot = defineCrawler({ name: 'ExampleBot', tokens: ['ExampleBot', 'Googlebot'], ignoresGlobalGroup: true });
    expect(bot).toMatchObject({ validTokens: true, honoursCrawlDelay: null, kind: 'other', aiRobotsTxt: null });
    const robots = parseRobotsTxt('User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n');
    expect(robots.isAllowed('/x', bot)).toBe(true);
    expect(robots.isAllowed('/g', bot)).toBe(false);
    expect(() => defineCrawler({ name: '', tokens: ['x'] })).toThrow(TypeError);
    expect(() => defineCrawler({ name: 'x', tokens: [''] })).toThrow(TypeError);
    expect(() => robots.isAllowed('/', { name: 'x' } as unknown as CrawlerProfile)).toThrow(TypeError);
  });
});

describe('crawlerMatrix', () => {
  const robots = parseRobotsTxt(
    [
      'User-agent: GPTBot',
      'User-agent: ClaudeBot',
      'User-agent: Google-Extended',
      'Disallow: /',
      '',
      'User-agent: Googlebot',
      'Disallow: /private/',
      '',
      'User-agent: *',
      'Disallow: /cgi-bin/',
    ].join('\n'),
  );

  it('answers for every known crawler at once, as isAllowed and explain do one by one', () => {
    const url = 'https://example.com/private/page';
    const rows = robots.crawlerMatrix(url, CRAWLERS);
    expect(rows.map((r) => r.crawler)).toEqual(CRAWLERS);
    for (const row of rows) {
      const why = robots.explain(url, row.crawler);
      expect(row.allowed, row.crawler.name).toBe(robots.isAllowed(url, row.crawler));
      expect({ allowed: row.allowed, line: row.line, groups: row.groups, token: row.token }).toEqual({
        allowed: why.allowed,
        line: why.line,
        groups: why.groups,
        token: why.crawler?.token ?? null,
      });
    }
  });

  it('tells whether Googlebot is allowed while AI crawlers are blocked', () => {
    const rows = robots.crawlerMatrix('https://example.com/article', CRAWLERS);
    const verdict = (name: string) => rows.find((r) => r.crawler.name === name)!;
    expect(verdict('Googlebot')).toMatchObject({ allowed: true, groups: 'specific', token: 'Googlebot' });
    expect(verdict('Googlebot-Image')).toMatchObject({ allowed: true, token: 'Googlebot' });
    expect(verdict('GPTBot')).toMatchObject({ allowed: false, line: 4, token: 'GPTBot' });
    expect(verdict('ClaudeBot')).toMatchObject({ allowed: false, line: 4 });
    expect(verdict('Google-Extended')).toMatchObject({ allowed: false });
    expect(verdict('PerplexityBot')).toMatchObject({ allowed: true, groups: 'global' });
    const blockedAi = rows.filter((r) => r.crawler.kind === 'ai' && !r.allowed).map((r) => r.crawler.name);
    expect(blockedAi.sort()).toEqual(['ClaudeBot', 'GPTBot', 'Google-Extended']);
  });

  it('takes a list of crawlers', () => {
    const rows = robots.crawlerMatrix('/cgi-bin/x', [crawler('Googlebot'), crawler('AdsBot-Google')]);
    expect(rows.map((r) => [r.crawler.name, r.allowed, r.groups])).toEqual([
      ['Googlebot', true, 'specific'],
      ['AdsBot-Google', true, 'none'],
    ]);
  });
});

describe('crawlDelay', () => {
  const robots = parseRobotsTxt(
    [
      'User-agent: bingbot',
      'Crawl-delay: soon',
      'Crawl-delay: 2.5',
      'Crawl-delay: 9',
      'Disallow: /x',
      '',
      'User-agent: Googlebot',
      'Crawl-delay: 10',
      'Disallow: /y',
      '',
      'User-agent: *',
      'Crawl-delay: .5',
    ].join('\n'),
  );

  it.each([
    ['bingbot', { seconds: 2.5, line: 3, honoured: true }],
    ['msnbot', { seconds: 0.5, line: 12, honoured: true }],
    ['Googlebot', { seconds: 10, line: 8, honoured: false }],
    ['Googlebot-Image', { seconds: 10, line: 8, honoured: false }],
    ['DuckDuckBot', { seconds: 0.5, line: 12, honoured: null }],
  ])('%s', (name, expected) => {
    expect(robots.crawlDelay(crawler(name))).toEqual(expected);
  });

  it('reads a group holding only a crawl-delay as Google does: it runs into the next group', () => {
    const merged = parseRobotsTxt('User-agent: Googlebot\nCrawl-delay: 10\n\nUser-agent: *\nCrawl-delay: 1\n');
    expect(merged.crawlDelay(crawler('DuckDuckBot'))).toEqual({ seconds: 10, line: 2, honoured: null });
  });

  it('reads strings with an unknown honour, and returns null when no delay applies', () => {
    expect(robots.crawlDelay('bingbot')).toEqual({ seconds: 2.5, line: 3, honoured: null });
    expect(robots.crawlDelay(crawler('AdsBot-Google'))).toBeNull();
    expect(parseRobotsTxt('User-agent: *\nDisallow: /\n').crawlDelay('x')).toBeNull();
  });

  it('follows the legacy dialect’s records', () => {
    const legacy = parseRobotsTxt('User-agent: bingbot\nCrawl-delay: 4\n\nUser-agent: bingbot\nCrawl-delay: 8\n', {
      dialect: 'legacy',
    });
    expect(legacy.crawlDelay(crawler('bingbot'))).toEqual({ seconds: 4, line: 2, honoured: true });
  });
});

const corpus = corpusDir();

describe.runIf(corpus !== null)('indexed group selection on the real corpus', () => {
  it('answers every catalogue token exactly as the scanning select does', () => {
    const dir = join(corpus ?? '', 'robots');
    const names = [...new Set(CRAWLERS.flatMap((c) => c.tokens))].map((t) => t.toLowerCase());
    const questions: (readonly string[])[] = [
      ...[...names, '*', '', 'googlebot', 'ai', 'foo bar', 'brightbot 1.0'].map((n) => [n]),
      ['googlebot', 'bingbot'],
      ['googlebot-image', 'googlebot', 'googlebot-image'],
    ];
    const mismatches: string[] = [];
    let compared = 0;
    for (const file of readdirSync(dir)) {
      const { groups } = parseRobotsTxt(readFileSync(join(dir, file)));
      const selector = googleDialect.selector(groups);
      for (const agents of questions) {
        for (const options of [undefined, { wholeValue: true }]) {
          compared++;
          const indexed = JSON.stringify(selector(agents, options));
          if (indexed !== JSON.stringify(googleDialect.select(groups, agents, options))) {
            mismatches.push(`${file} ${agents.join(',')} ${options ? 'whole value' : 'token'}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(1_000_000);
  });

  it('leaves the legacy dialect to its scanning select (first match in file order)', () => {
    const { groups } = parseRobotsTxt('User-agent: bot\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n', {
      dialect: 'legacy',
    });
    expect(legacyDialect.selector(groups)(['googlebot'])).toEqual(legacyDialect.select(groups, ['googlebot']));
    expect(legacyDialect.selector(groups)(['googlebot']).agentLines).toEqual([1]);
  });
});
