/**
 * AI usage preferences: the Structured Fields dictionary read on bytes, the vocabulary's processing rules, the
 * Content-Usage rule resolved through the crawler's groups (draft-ietf-aipref-attach), and Content-Signal beside it.
 * The published vector suite (vectors/aipref.json) is run by usage-vectors.test.ts; these are the parts one by one.
 */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SIGNAL_KEYS,
  CRAWLERS,
  combineUsagePreferences,
  EXTENSION_FIELDS,
  parseRobotsTxt,
  parseUsagePreferences,
  readKey,
  USAGE_VOCABULARY,
} from '../src/index.js';
import { lint } from '../src/lint/index.js';
import { parseSfDictionary } from '../src/usage/structured-fields.js';

function sf(text: string) {
  return parseSfDictionary(text, 0, text.length);
}

describe('Structured Fields dictionaries (RFC 9651), parsed on bytes', () => {
  it('reads tokens, other item types, parameters and inner lists', () => {
    const parsed = sf(
      'a=y, b=n;p=1;q, c="n", d=?1, e=1.5, f=-3, g=:aGk=:, h=@1700000000, i=%"caf%c3%a9", j=(x "y"), k',
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const types = Object.fromEntries([...parsed.members].map(([k, m]) => [k, m.type]));
    expect(types).toEqual({
      a: 'token',
      b: 'token',
      c: 'string',
      d: 'boolean',
      e: 'decimal',
      f: 'integer',
      g: 'byte-sequence',
      h: 'date',
      i: 'display-string',
      j: 'inner-list',
      k: 'boolean',
    });
    expect(parsed.members.get('b')).toEqual({ type: 'token', token: 'n', params: ['p', 'q'] });
  });

  it('an empty value is an empty dictionary; spaces around it are allowed', () => {
    expect(sf('')).toEqual({ ok: true, members: new Map() });
    expect(sf('  a=y  ').ok).toBe(true);
  });

  it.each([
    ['Train-ai=n', 'a key must be lower-case'],
    ['train-AI=n', 'a key must be lower-case'],
    ['a=y,', 'a trailing "," is not allowed'],
    ['a=y b=n', 'expected "," between members'],
    ['a="open', 'unterminated string'],
    ['a=1.2345', 'a decimal has at most 3 fractional digits'],
    ['a=1234567890123456', 'an integer has at most 15 digits'],
    ['a=?2', 'a boolean is ?0 or ?1'],
    ['a=:not base64!:', 'not a base64 character'],
    ['a=%"%C3"', '"%" must be followed by two lower-case hex digits'],
    ['a=%"%ff"', 'a display string must be valid UTF-8'],
    ['a=(x', 'unterminated inner list'],
    ['a=@1.5', 'a date is an integer'],
    ['=y', 'expected a key (a lower-case letter or "*")'],
    ['a=y;B', 'a key must be lower-case'],
  ])('%s does not parse (%s)', (text, reason) => {
    expect(sf(text)).toMatchObject({ ok: false, reason });
  });

  it('bytes >= 0x80 fail where only ASCII is allowed', () => {
    const bin = 'a="\u00e9"';
    expect(parseSfDictionary(bin, 0, bin.length).ok).toBe(false);
  });

  it('a repeated key keeps its last value', () => {
    const parsed = sf('a=y, b=n, a=n');
    expect(parsed.ok && parsed.members.get('a')?.token).toBe('n');
  });
});

describe('preference expressions (draft-ietf-aipref-vocab, processing)', () => {
  it('y and n tokens of the current labels; everything else unknown', () => {
    expect(parseUsagePreferences('train-ai=n, search=y, ai-use=y')).toEqual({
      'train-ai': 'disallow',
      search: 'allow',
      'ai-use': 'allow',
    });
    expect(parseUsagePreferences('train-ai=maybe, search="y", ai-use=?1, bots=n, train-genai=n')).toEqual({});
  });

  it('the draft’s examples: a repeated key keeps its last value; parameters are ignored', () => {
    expect(parseUsagePreferences('train-ai=y, train-ai, search=n, search="n"')).toEqual({});
    expect(parseUsagePreferences('train-ai;allow=n, train-ai=y')).toEqual({ 'train-ai': 'allow' });
    expect(parseUsagePreferences('train-ai;has;parameters="?";')).toEqual({});
  });

  it('an unparsable dictionary states nothing, upper-case keys included', () => {
    expect(parseUsagePreferences('train-ai=n, Search=y')).toEqual({});
    expect(parseUsagePreferences('TRAIN-AI=n')).toEqual({});
    expect(parseUsagePreferences('train-ai=n,,')).toEqual({});
  });

  it('reads bytes as bytes', () => {
    expect(parseUsagePreferences(new TextEncoder().encode('train-ai=n'))).toEqual({ 'train-ai': 'disallow' });
    expect(parseUsagePreferences(new Uint8Array([0x61, 0x3d, 0xff]))).toEqual({});
    expect(() => parseUsagePreferences(42 as unknown as string)).toThrow(TypeError);
  });

  it('combining statements: any disallow wins, else any allow, else unknown', () => {
    expect(
      combineUsagePreferences(
        { 'train-ai': 'allow', search: 'allow' },
        { 'train-ai': 'disallow' },
        { 'ai-use': 'allow' },
      ),
    ).toEqual({ 'train-ai': 'disallow', search: 'allow', 'ai-use': 'allow' });
    expect(combineUsagePreferences()).toEqual({});
  });

  it('the vocabulary records which revision defines which label', () => {
    const current = USAGE_VOCABULARY.filter((l) => l.revisions.includes(8)).map((l) => l.label);
    expect(current).toEqual(['train-ai', 'ai-use', 'search']);
    expect(USAGE_VOCABULARY.find((l) => l.label === 'ai-use')?.revisions).toEqual([2, 8]);
    expect(USAGE_VOCABULARY.find((l) => l.label === 'bots')?.revisions).toEqual([3, 4]);
    expect(CONTENT_SIGNAL_KEYS.map((k) => k.key)).toEqual(['search', 'ai-train', 'ai-input', 'use']);
    // The tables are data every caller shares: frozen, rows and lists included.
    for (const table of [USAGE_VOCABULARY, CONTENT_SIGNAL_KEYS, Object.values(EXTENSION_FIELDS)])
      for (const row of table) expect(Object.isFrozen(row)).toBe(true);
    expect(Object.isFrozen(USAGE_VOCABULARY[0]!.revisions)).toBe(true);
    expect(Object.isFrozen(USAGE_VOCABULARY)).toBe(true);
  });
});

describe('RobotsTxt.usage: the Content-Usage rule', () => {
  it('uses the groups chosen exactly as for Allow/Disallow (merged groups, profiles through their tokens)', () => {
    const robots = parseRobotsTxt(
      [
        'User-agent: GPTBot',
        'Content-Usage: / train-ai=n',
        'Disallow: /private/',
        '',
        'User-agent: gptbot',
        'Content-Usage: /docs/ search=y',
        '',
        'User-agent: *',
        'Content-Usage: / train-ai=y',
      ].join('\n'),
    );
    expect(robots.usage('https://a.invalid/docs/x', 'GPTBot')).toMatchObject({
      crawlable: true,
      preferences: { search: 'allow' },
      rules: [{ line: 6, pattern: '/docs/' }],
    });
    expect(robots.usage('https://a.invalid/x', 'GPTBot').preferences).toEqual({ 'train-ai': 'disallow' });
    expect(robots.usage('https://a.invalid/private/x', 'GPTBot')).toEqual({
      crawlable: false,
      preferences: {},
      rules: [],
      contentSignal: null,
    });
    expect(robots.usage('https://a.invalid/x', 'OtherBot').preferences).toEqual({ 'train-ai': 'allow' });
    const gptbot = CRAWLERS.find((c) => c.name === 'GPTBot')!;
    expect(robots.usage('https://a.invalid/x', gptbot).preferences).toEqual({ 'train-ai': 'disallow' });
  });

  it('longest match with `*`, `$` and percent-encoding, by length in bytes of the encoded pattern', () => {
    const robots = parseRobotsTxt(
      [
        'User-agent: *',
        'Content-Usage: /*.pdf$ train-ai=n',
        'Content-Usage: /caf\u00e9/ search=n',
        'Content-Usage: /caf%c3%a9/menu train-ai=y',
        'Content-Usage: / train-ai=y, search=y',
      ].join('\n'),
    );
    expect(robots.usage('/a/b.pdf', 'x').preferences).toEqual({ 'train-ai': 'disallow' });
    expect(robots.usage('/a/b.pdf?x', 'x').preferences).toEqual({ 'train-ai': 'allow', search: 'allow' });
    expect(robots.usage('/caf%C3%A9/x', 'x').preferences).toEqual({ search: 'disallow' });
    expect(robots.usage('/caf%C3%A9/menu', 'x')).toMatchObject({
      preferences: { 'train-ai': 'allow' },
      rules: [{ line: 4 }],
    });
    expect(robots.usage('/caf%C3%A9/menu', 'x').rules[0]?.pattern).toBe('/caf%C3%A9/menu');
  });

  it('rules with identical paths combine per category, most restrictive first', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nContent-Usage: /a train-ai=y, search=y\nContent-Usage: /a train-ai=n\nContent-Usage: /a ai-use=y\n',
    );
    const answer = robots.usage('/a/b', 'x');
    expect(answer.preferences).toEqual({ 'train-ai': 'disallow', search: 'allow', 'ai-use': 'allow' });
    expect(answer.rules.map((r) => r.line)).toEqual([2, 3, 4]);
  });

  it('an unparsable rule still decides, and states nothing', () => {
    const robots = parseRobotsTxt('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /x Train-AI=y\n');
    expect(robots.usage('/x', 'bot')).toMatchObject({ preferences: {}, rules: [{ line: 3, preferences: {} }] });
    expect(robots.usage('/y', 'bot').preferences).toEqual({ 'train-ai': 'disallow' });
  });

  it('a rule without a path is no rule; a comment ends the value; key spacing and case are free', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\ncontent-usage : train-ai=n\n  CONTENT-USAGE\t:\t/ search=n # ai-use=n\n',
    );
    expect(robots.usage('/x', 'bot')).toMatchObject({ preferences: { search: 'disallow' }, rules: [{ line: 3 }] });
  });

  it('bytes stay bytes: a non-UTF-8 byte in the path is matched as its escape', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('User-agent: *\nContent-Usage: /a'),
      0xe9,
      ...new TextEncoder().encode(' train-ai=n\n'),
    ]);
    const robots = parseRobotsTxt(bytes);
    expect(robots.usage('/a%E9', 'bot').preferences).toEqual({ 'train-ai': 'disallow' });
    expect(robots.usage('/a%C3%A9', 'bot').preferences).toEqual({});
  });

  it('lines before any group and files without usage lines give nothing; explain carries the answer', () => {
    const outside = parseRobotsTxt('Content-Usage: / train-ai=n\nUser-agent: *\nDisallow: /x\n');
    expect(outside.usage('/a', 'bot')).toEqual({ crawlable: true, preferences: {}, rules: [], contentSignal: null });
    const plain = parseRobotsTxt('User-agent: *\nDisallow: /x\n');
    expect(plain.explain('/a', 'bot').usage).toBeUndefined();
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /x\nContent-Usage: / train-ai=n\n');
    expect(robots.explain('/a', 'bot').usage).toEqual(robots.usage('/a', 'bot'));
    expect(robots.explain('/x', 'bot').usage).toMatchObject({ crawlable: false, preferences: {} });
    const gptbot = CRAWLERS.find((c) => c.name === 'GPTBot')!;
    expect(robots.explain('/a', gptbot)).toMatchObject({ crawler: { name: 'GPTBot' }, usage: { crawlable: true } });
  });
});

describe('RobotsTxt.usage: Content-Signal', () => {
  it('is read through the crawler’s groups, mapped where the use is the same, side by side where not', () => {
    const robots = parseRobotsTxt(
      [
        'User-agent: *',
        'Content-Signal: search=yes, ai-input=no, ai-train=no, use=reference',
        'Allow: /',
        '',
        'User-agent: GPTBot',
        'Disallow: /',
      ].join('\n'),
    );
    expect(robots.usage('/a', 'Googlebot').contentSignal).toEqual({
      lines: [2],
      signals: { search: 'yes', 'ai-input': 'no', 'ai-train': 'no', use: 'reference' },
      preferences: { search: 'allow', 'train-ai': 'disallow' },
      unmapped: { 'ai-input': 'no', use: 'reference' },
    });
    expect(robots.usage('/a', 'GPTBot')).toEqual({ crawlable: false, preferences: {}, rules: [], contentSignal: null });
  });

  it('several lines keep the most restrictive value of each key; unknown values and keys stay as written', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nContent-Signal: search=yes, ai-train=yes, use=full\nContent-Signal: ai-train=no, use=immediate, ai-train=maybe, x=1\n',
    );
    expect(robots.usage('/a', 'bot').contentSignal).toMatchObject({
      lines: [2, 3],
      signals: { search: 'yes', 'ai-train': 'no', use: 'immediate', x: '1' },
      preferences: { search: 'allow', 'train-ai': 'disallow' },
    });
  });
});

describe('extensions read honestly (lint)', () => {
  const fixture = (name: string) =>
    readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'aipref', name));

  it.each(['cloudflare-managed.txt', 'rsl.txt'])(
    '%s lints with no warning and no error, as text and as bytes',
    (name) => {
      const bytes = fixture(name);
      for (const input of [bytes.toString('utf8'), new Uint8Array(bytes)]) {
        const found = lint(input).filter((d) => d.severity !== 'info');
        expect(found).toEqual([]);
        expect(lint(input).filter((d) => d.code === 'extension-field').length).toBeGreaterThan(0);
      }
    },
  );

  it('the Cloudflare-managed file resolves per crawler: signals for *, nothing for the blocked AI crawlers', () => {
    const robots = parseRobotsTxt(fixture('cloudflare-managed.txt'));
    expect(robots.usage('https://shop.example/p/1', 'Googlebot').contentSignal).toMatchObject({
      signals: { search: 'yes', 'ai-train': 'no' },
      preferences: { search: 'allow', 'train-ai': 'disallow' },
    });
    expect(robots.usage('https://shop.example/p/1', 'GPTBot')).toMatchObject({ crawlable: false, contentSignal: null });
    expect(robots.usage('https://shop.example/cart', 'Googlebot')).toMatchObject({ crawlable: false });
  });

  it('the registry says who reads each field; readKey knows License and LLM-Policy', () => {
    expect(EXTENSION_FIELDS.license?.readers).toMatch(/RSL/);
    expect(EXTENSION_FIELDS['content-usage']?.googleWarning).toBeNull();
    expect(EXTENSION_FIELDS['crawl-delay']?.googleWarning).toMatch(/Googlebot/);
    expect(readKey('License')).toEqual({
      field: 'unknown',
      spelling: null,
      ignored: 'extension',
      canonical: 'License',
    });
    expect(readKey('llm-policy').canonical).toBe('LLM-Policy');
  });
});

describe('never throws on content', () => {
  const piece = fc.constantFrom(
    'train-ai',
    'search',
    'ai-use',
    'Train',
    '=',
    'y',
    'n',
    ',',
    ' ',
    '\t',
    ';',
    '"',
    '\\',
    '(',
    ')',
    ':',
    '?1',
    '@',
    '%"',
    '%c3',
    '-',
    '1.5',
    '*',
    '/',
    '\u00e9',
    '\u0000',
    '#',
    'Content-Usage:',
    'Content-Signal:',
    'User-agent: *',
    'Disallow: /',
    '\n',
    'yes',
    'use=reference',
  );
  const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));

  it('preference expressions, any bytes: an answer, never an exception', () => {
    fc.assert(
      fc.property(text, fc.uint8Array({ maxLength: 40 }), (t, bytes) => {
        for (const value of [t, bytes]) {
          const prefs = parseUsagePreferences(value);
          for (const p of Object.values(prefs)) expect(['allow', 'disallow']).toContain(p);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('files of usage lines: usage, explain and lint answer', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('/', '/a', '/%C3%A9x'), (body, path) => {
        const robots = parseRobotsTxt(`User-agent: *\n${body}\nContent-Usage: ${body}\nContent-Signal: ${body}\n`);
        const answer = robots.usage(path, 'bot');
        expect(answer.crawlable).toBe(robots.isAllowed(path, 'bot'));
        expect(robots.explain(path, 'bot').usage ?? answer).toEqual(answer);
        expect(Array.isArray(lint(robots))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
