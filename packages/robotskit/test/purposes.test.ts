/**
 * Purposes of crawlers: every catalogue crawler has a curated one (with its source and date), control tokens are data,
 * `generate`'s categories come from purposes, and a newer ai.robots.txt list is read, merged and compared.
 */
import { describe, expect, it } from 'vitest';
import { CURATED_NAMES, curatedPurpose } from '../src/crawlers/purposes.js';
import {
  AI_ROBOTS_TXT_SNAPSHOT_DATE,
  AiRobotsTxtError,
  aiRobotsTxtChanges,
  CONTROL_TOKENS,
  CRAWLER_PURPOSES,
  CRAWLERS,
  type CrawlerProfile,
  catalogueWith,
  controlToken,
  crawlerByName,
  readAiRobotsTxt,
  resolveCrawler,
  resolveCrawlers,
  SHIPPED_AI_LIST,
} from '../src/index.js';
import { compareRobots, crawlersInCategory, generateRobots, POLICY_CATEGORIES } from '../src/semantics/index.js';

function crawler(name: string): CrawlerProfile {
  const found = crawlerByName(name);
  if (found === undefined) throw new Error(`no crawler ${name}`);
  return found;
}

describe('purposes of the catalogue', () => {
  it('lists no crawler without a curated purpose', () => {
    const missing = CRAWLERS.filter((c) => curatedPurpose(c.name) === undefined).map((c) => c.name);
    expect(missing).toEqual([]);
  });

  it('has no row for a crawler the catalogue does not have', () => {
    const known = new Set(CRAWLERS.flatMap((c) => [c.name, ...c.aliases].map((n) => n.toLowerCase())));
    expect(CURATED_NAMES.filter((n) => !known.has(n))).toEqual([]);
  });

  it('gives every crawler a known purpose, a source URL and a date', () => {
    for (const c of CRAWLERS) {
      expect(CRAWLER_PURPOSES, c.name).toContain(c.purpose);
      expect(c.purposeSource, c.name).toMatch(/^https:\/\/\S+$/);
      expect(c.purposeDate, c.name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (c.blocking !== null) expect(c.blocking, c.name).toMatch(/\S/);
    }
    expect(crawler('Scrapy').purposeDate).toBe(AI_ROBOTS_TXT_SNAPSHOT_DATE);
    expect(crawler('Scrapy').purposeSource).toBe('https://github.com/ai-robots-txt/ai.robots.txt');
  });

  it('reads the crawlers the issue names as their operators document them', () => {
    const expected: Record<string, string> = {
      Googlebot: 'search-engine',
      bingbot: 'search-engine',
      Applebot: 'search-engine',
      GPTBot: 'ai-training',
      ClaudeBot: 'ai-training',
      CCBot: 'ai-training',
      'meta-externalagent': 'ai-training',
      'OAI-SearchBot': 'ai-search',
      PerplexityBot: 'ai-search',
      'Claude-SearchBot': 'ai-search',
      'ChatGPT-User': 'ai-assistant',
      'Claude-User': 'ai-assistant',
      'Perplexity-User': 'ai-assistant',
      'Google-Extended': 'control-token',
      'Applebot-Extended': 'control-token',
      'SemrushBot-SWA': 'seo-tool',
      facebookexternalhit: 'preview',
      Scrapy: 'scraping-tool',
      Lightpanda: 'scraping-tool',
      'AdsBot-Google': 'other',
    };
    for (const [name, purpose] of Object.entries(expected)) expect(crawler(name).purpose, name).toBe(purpose);
    expect(crawler('Scrapy').purpose).not.toBe('ai-training');
    expect(crawler('Lightpanda').purpose).not.toBe('ai-training');
    // Generic tools are tools, not AI crawlers, whatever list they are on.
    expect(crawler('Scrapy').kind).toBe('tool');
    expect(crawler('GPTBot').kind).toBe('ai');
    expect(crawler('Googlebot').purposeSource).toBe(
      'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers',
    );
  });

  it('says what blocking does where the operator documents it', () => {
    expect(crawler('OAI-SearchBot').blocking).toMatch(
      /removes you from ChatGPT search answers.*blocking GPTBot does not/,
    );
    expect(crawler('GPTBot').blocking).toMatch(/does not remove you from ChatGPT search answers/);
    expect(crawler('Applebot-Extended').blocking).toMatch(/never fetches/);
    expect(crawler('Scrapy').blocking).toBeNull();
  });
});

describe('control tokens', () => {
  it('are data: Google-Extended and Applebot-Extended govern training, never fetch, and are looked up by token', () => {
    expect(CONTROL_TOKENS.map((t) => t.token)).toEqual(['Google-Extended', 'Applebot-Extended']);
    expect(controlToken('applebot-extended')).toMatchObject({ operator: 'Apple', governs: ['training'] });
    expect(controlToken('Google-Extended')?.governs).toEqual(['training', 'grounding']);
    expect(controlToken('Googlebot')).toBeUndefined();
    expect(controlToken('GPTBot')).toBeUndefined();
    expect(Object.isFrozen(CONTROL_TOKENS[0])).toBe(true);
  });

  it('agree with the catalogue: a crawler is a control token exactly when the table has its token', () => {
    const byPurpose = CRAWLERS.filter((c) => c.purpose === 'control-token').map((c) => c.name);
    expect(byPurpose).toEqual(CONTROL_TOKENS.map((t) => t.token));
    for (const t of CONTROL_TOKENS) {
      for (const name of t.fetchedBy) expect(crawler(name).purpose, name).not.toBe('control-token');
      expect(t.source).toMatch(/^https:\/\//);
    }
  });
});

describe('generate categories from purposes', () => {
  it('ai-training: training crawlers and the control tokens for training, not tools, search or assistants', () => {
    const training = crawlersInCategory('ai-training').map((c) => c.name);
    for (const name of ['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'Applebot-Extended', 'Bytespider'])
      expect(training, name).toContain(name);
    for (const name of ['Scrapy', 'Lightpanda', 'OAI-SearchBot', 'ChatGPT-User', 'PerplexityBot', 'Googlebot'])
      expect(training, name).not.toContain(name);
    expect(training).toEqual(
      CRAWLERS.filter((c) => c.purpose === 'ai-training' || c.purpose === 'control-token').map((c) => c.name),
    );
  });

  it('each purpose is a category of exactly its crawlers', () => {
    for (const purpose of CRAWLER_PURPOSES) {
      if (purpose === 'other' || purpose === 'ai-training') continue;
      expect(POLICY_CATEGORIES, purpose).toContain(purpose);
      expect(crawlersInCategory(purpose).map((c) => c.name)).toEqual(
        CRAWLERS.filter((c) => c.purpose === purpose).map((c) => c.name),
      );
    }
    expect(crawlersInCategory('ai-search').map((c) => c.name)).toContain('OAI-SearchBot');
    expect(crawlersInCategory('archiver')).toEqual([]);
  });

  it('a category with no crawler writes no group; its crawlers obey *', () => {
    const result = generateRobots({
      groups: [
        { crawlers: ['category:archiver'], disallow: ['/'] },
        { crawlers: ['*'], disallow: ['/x'] },
      ],
    });
    expect(result.text).toBe('User-agent: *\nDisallow: /x\n');
    expect(result.verified).toBe(true);
  });
});

describe('a newer ai.robots.txt list', () => {
  const entry = (fn: string) => ({
    operator: '[Example](https://example.invalid)',
    respect: 'Yes',
    function: fn,
    frequency: 'Daily',
    description: 'A crawler.',
  });

  it('is read with its fields, and a wrong shape is a clear error', () => {
    const list = readAiRobotsTxt(JSON.stringify({ NewBot: { ...entry('AI Data Scrapers'), extra: 1 } }));
    expect(list.entries).toEqual([{ name: 'NewBot', ...entry('AI Data Scrapers') }]);
    expect(list.unknownFields).toEqual(['NewBot.extra']);
    const cases: [unknown, RegExp][] = [
      ['{', /^not JSON: /],
      ['[]', /^expected an object of crawlers by name/],
      [{}, /^the list has no crawler$/],
      [{ A: 'x' }, /^"A": expected an object of fields$/],
      [{ A: { ...entry('x'), respect: 3 } }, /^"A": "respect" is not a string$/],
      [{ A: { operator: 'o' } }, /^"A": "respect" is missing$/],
      [{ A: { ...entry('x'), has_name_and_version: 'yes' } }, /^"A": "has_name_and_version" is not true or false$/],
    ];
    for (const [input, message] of cases) {
      let error: unknown;
      try {
        readAiRobotsTxt(input);
      } catch (e) {
        error = e;
      }
      expect(error, String(input)).toBeInstanceOf(AiRobotsTxtError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('says what changed: added, removed, changed fields', () => {
    const [first, second, ...rest] = SHIPPED_AI_LIST;
    const newer = [{ ...first!, respect: 'No' }, ...rest, { name: 'NewBot', ...entry('AI Search Crawlers') }];
    expect(aiRobotsTxtChanges(SHIPPED_AI_LIST, newer)).toEqual({
      added: ['NewBot'],
      removed: [second!.name],
      changed: [{ name: first!.name, fields: [{ field: 'respect', before: first!.respect, after: 'No' }] }],
    });
    expect(aiRobotsTxtChanges(SHIPPED_AI_LIST, SHIPPED_AI_LIST)).toEqual({ added: [], removed: [], changed: [] });
  });

  it('merges into the catalogue: curated purposes kept, a new crawler gets the purpose its list category means', () => {
    const newer = [
      ...SHIPPED_AI_LIST.filter((e) => e.name !== 'Scrapy'),
      { name: 'NewTrainer', ...entry('AI Data Scrapers') },
      { name: 'NewAnswers', ...entry('AI Search Crawlers') },
      { name: 'NewThing', ...entry('Makes things better with AI.') },
    ];
    const catalogue = catalogueWith(newer, '2026-12-01');
    const byName = (n: string) => catalogue.find((c) => c.name === n);
    expect(byName('Scrapy')).toBeUndefined();
    expect(byName('GPTBot')).toEqual(crawler('GPTBot'));
    expect(byName('Googlebot')).toEqual(crawler('Googlebot'));
    expect(byName('NewTrainer')).toMatchObject({
      purpose: 'ai-training',
      purposeSource: 'https://github.com/ai-robots-txt/ai.robots.txt',
      purposeDate: '2026-12-01',
      kind: 'ai',
      operator: 'Example',
    });
    expect(byName('NewAnswers')?.purpose).toBe('ai-search');
    expect(byName('NewThing')?.purpose).toBe('other');
    expect(crawlersInCategory('ai-training', catalogue).map((c) => c.name)).toContain('NewTrainer');
    const result = generateRobots({ groups: [{ crawlers: ['NewAnswers'], disallow: ['/'] }] }, { crawlers: catalogue });
    expect(result.text).toBe('User-agent: NewAnswers\nDisallow: /\n');
    expect(result.verified).toBe(true);
  });

  it('names crawlers only the newer list knows, where a surface passes it: resolveCrawler, crawlerByName, compareRobots', () => {
    const newer = [
      ...SHIPPED_AI_LIST.filter((e) => e.name !== 'Scrapy'),
      { name: 'NewTrainer', ...entry('AI Data Scrapers') },
    ];
    const catalogue = catalogueWith(newer, '2026-12-01');
    // The engine's own catalogue does not know it: a token, with no profile and no suggestion.
    expect(resolveCrawler('NewTrainer')).toMatchObject({ kind: 'token', profile: null, suggestion: null });
    // With the newer list: its profile, by any case; a typo of it is suggested.
    const resolved = resolveCrawler('newtrainer', catalogue);
    expect(resolved).toMatchObject({ kind: 'profile', label: 'NewTrainer', rewrite: null, suggestion: null });
    expect(resolved.profile).toBe(catalogue.find((c) => c.name === 'NewTrainer'));
    expect(crawlerByName('NEWTRAINER', catalogue)?.name).toBe('NewTrainer');
    expect(crawlerByName('NewTrainer')).toBeUndefined();
    expect(resolveCrawler('NewTrainr', catalogue).suggestion).toBe('NewTrainer');
    expect(resolveCrawlers('GPTBot, NewTrainer', catalogue).map((c) => c.kind)).toEqual(['profile', 'profile']);
    // A crawler the newer list dropped is a plain token there, as it is in no catalogue.
    expect(resolveCrawler('Scrapy', catalogue)).toMatchObject({ kind: 'token', profile: null });
    expect(resolveCrawler('Scrapy').kind).toBe('profile');
    // compareRobots' default crawlers come from the catalogue given.
    const names = (options?: { catalogue: typeof catalogue }) =>
      compareRobots('User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /b\n', options).crawlers.map(
        (c) => c.crawler,
      );
    expect(names({ catalogue })).toContain('NewTrainer');
    expect(names({ catalogue })).not.toContain('Scrapy');
    expect(names()).not.toContain('NewTrainer');
  });
});
