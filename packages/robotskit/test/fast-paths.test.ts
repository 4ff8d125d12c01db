/**
 * Every fast path of the engine against the plain computation it replaces, over generated inputs: the answers must be
 * identical, whatever the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruMap } from '../src/fetch/shared/lru.js';
import { type CrawlerInput, defineCrawler, parseRobotsTxt } from '../src/index.js';
import { addGroupMatchRules } from '../src/match/group.js';
import { compilePattern, matchPattern } from '../src/match/pattern.js';
import { type BestMatches, type MatchRule, matchRulesFor, RuleMatcher } from '../src/match/rule-matcher.js';
import { type DirectiveRows, ROW_FLAGS_SHIFT, ROW_INTS, scanDirectives } from '../src/parse/directives.js';
import { Field, LineFlag } from '../src/parse/fields.js';
import { parsedBytes, type RobotsInput, toSourceBytes } from '../src/parse/input.js';
import { scanLines } from '../src/parse/lines.js';
import { normalizeHttpUrl, parseHttpUrl } from '../src/url/http-url.js';
import { pathOfAnyUrl, pathOfUrl } from '../src/url/path.js';

/** Pieces that make URL-ish values hit every branch of the canonical-shape check and of the WHATWG parser. */
const urlPieces = [
  'http://',
  'https://',
  'HTTP://',
  'ftp://',
  'a',
  'Z',
  '0',
  '9',
  '1.2.3.4',
  '0x7f',
  '.',
  '..',
  '-',
  'xn--',
  'xn--abc',
  'example.com',
  ':80',
  ':443',
  ':8080',
  '@',
  'user:pw@',
  '/',
  '//',
  '\\',
  '/./',
  '/../',
  '/.',
  '%2e',
  '%2E',
  '%41',
  '%',
  '?',
  '#',
  ' ',
  '\t',
  '~',
  "'",
  '"',
  '<',
  '`',
  '{',
  'é',
  'ß',
  '[::1]',
  ';',
  '=',
  '&',
  '*',
  '$',
];
const urlValue = fc.array(fc.constantFrom(...urlPieces), { maxLength: 10 }).map((a) => a.join(''));
const likelyUrl = fc
  .tuple(fc.constantFrom('http://', 'https://'), fc.array(fc.constantFrom(...urlPieces), { maxLength: 8 }))
  .map(([s, a]) => s + a.join(''));

describe('sitemap URL normalisation', () => {
  it('the canonical-shape shortcut gives what the WHATWG parser gives', () => {
    fc.assert(
      fc.property(fc.oneof(urlValue, likelyUrl, fc.string({ maxLength: 30 })), (value) => {
        expect(normalizeHttpUrl(value)).toBe(parseHttpUrl(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the shortcut for common canonical values', () => {
    for (const value of ['https://example.com/sitemap.xml', 'http://www.a-b.example/s/x_1.xml.gz', 'https://a.io']) {
      expect(normalizeHttpUrl(value)).toBe(new URL(value).href);
    }
  });

  it('the sitemaps getter is the plain algorithm: every normalised value, first occurrences, file order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(urlValue, likelyUrl), { maxLength: 12 }), (values) => {
        const text = values.map((v) => `Sitemap: ${v}`).join('\n');
        const robots = parseRobotsTxt(text);
        const plain: string[] = [];
        for (const record of robots.records) {
          if (record.field !== 'sitemap') continue;
          const url = parseHttpUrl(record.value);
          if (url !== null && !plain.includes(url)) plain.push(url);
        }
        expect(robots.sitemaps).toEqual(plain);
      }),
      { numRuns: 2_000 },
    );
  });
});

/** The best rule of each kind by testing every rule: longest pattern first, then earliest line. */
function plainBest(rules: readonly MatchRule[], path: string): BestMatches {
  const out: BestMatches = { allow: null, disallow: null };
  for (const r of rules) {
    if (!matchPattern(r.source, path)) continue;
    const best = r.allow ? out.allow : out.disallow;
    if (best === null || r.priority > best.priority || (r.priority === best.priority && r.line < best.line)) {
      if (r.allow) out.allow = r;
      else out.disallow = r;
    }
  }
  return out;
}

const ruleChars = ['/', 'a', 'b', 'ab', '/a', '/b', '-', '.php', '*', '*', '$', '?', '1', '2', '12'];
const rulePattern = fc.array(fc.constantFrom(...ruleChars), { maxLength: 7 }).map((a) => a.join(''));
/** Many rules sharing few prefixes, so that prefixes get crowded with wildcards (tail and trigram indexes). */
const crowdedPattern = fc
  .tuple(fc.constantFrom('/', '/a', ''), fc.array(fc.constantFrom(...ruleChars), { minLength: 1, maxLength: 6 }))
  .map(([p, a]) => `${p}*${a.join('')}`);
const pool = fc.array(fc.tuple(fc.boolean(), fc.oneof(rulePattern, crowdedPattern)), {
  minLength: 25,
  maxLength: 160,
});
const probe = fc
  .array(fc.constantFrom('/', 'a', 'b', '-', '.php', '1', '2', '?', '$', 'x'), { maxLength: 12 })
  .map((a) => `/${a.join('')}`);

describe('indexed matcher', () => {
  it('builds the match rules of a group from its table as from its rule objects', () => {
    // Values with and without escapes, in ASCII and non-ASCII files, from text and from bytes: the table path looks for
    // `%` once for many values in ASCII files.
    const value = fc
      .array(fc.constantFrom('/', 'a', '%', '%2f', '%2F', '%zz', 'é', '*', '$', ' '), { maxLength: 6 })
      .map((a) => a.join(''));
    const line = fc.oneof(
      value.map((v) => `Disallow: ${v}`),
      value.map((v) => `Allow: ${v}`),
      fc.constantFrom('User-agent: *', 'User-agent: b', '# %', 'Sitemap: /%41'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 16 }), fc.boolean(), (lines, asBytes) => {
        const text = lines.join('\n');
        const robots = parseRobotsTxt(asBytes ? new TextEncoder().encode(text) : text);
        for (const group of robots.groups) {
          const fromTable: MatchRule[] = [];
          addGroupMatchRules(group, fromTable);
          const fromRules = group.rules.flatMap((r) => matchRulesFor(r.kind === 'allow', r.pattern, r.line));
          expect(fromTable).toEqual(fromRules);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('compiles every rule pattern as compilePattern does', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.oneof(rulePattern, crowdedPattern, fc.string({ maxLength: 12 })),
        (allow, pattern) => {
          const [rule] = matchRulesFor(allow, pattern, 1);
          const { source, prefix, segments, tail, anchored } = rule!;
          expect({ source, prefix, segments, tail, anchored }).toEqual(compilePattern(pattern));
          expect(rule!.priority).toBe(pattern.length);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('finds the same best allow and disallow rules as testing every rule', () => {
    fc.assert(
      fc.property(pool, fc.array(probe, { minLength: 1, maxLength: 20 }), (spec, paths) => {
        const rules = spec.flatMap(([allow, pattern], i) => matchRulesFor(allow, pattern, i + 1));
        const matcher = new RuleMatcher(rules);
        for (const path of paths) {
          const out: BestMatches = { allow: null, disallow: null };
          matcher.best(path, out);
          expect(out, path).toEqual(plainBest(rules, path));
        }
      }),
      { numRuns: 1_500 },
    );
  });

  it('scans small pools (prefixes read from one string) as testing every rule', () => {
    // Up to 24 match rules are scanned rather than indexed: empty pools, empty patterns, `$` alone, equal patterns on
    // several lines, and `index.htm` allows (two match rules from one line).
    const small = fc.array(
      fc.tuple(fc.boolean(), fc.oneof(rulePattern, fc.constantFrom('', '$', '/index.html', '/a/index.htm', '*'))),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(small, fc.array(probe, { minLength: 1, maxLength: 20 }), (spec, paths) => {
        const rules = spec.flatMap(([allow, pattern], i) => matchRulesFor(allow, pattern, i + 1));
        const matcher = new RuleMatcher(rules);
        for (const path of [...paths, '/', '/a/', '/index.html']) {
          const out: BestMatches = { allow: null, disallow: null };
          matcher.best(path, out);
          expect(out, path).toEqual(plainBest(rules, path));
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('indexes pools of many equal, nested and long-shared prefixes the same way', () => {
    // Prefixes over a tiny alphabet behind a few stems, one long: the prefix sort meets long shared stems, runs of
    // equal prefixes and prefixes that end where others go on.
    const stem = fc.constantFrom('', '/', '/a', '/shared/stem/of/some/length/');
    const tail = fc.array(fc.constantFrom('a', 'b', '/', '*', '$'), { maxLength: 6 }).map((a) => a.join(''));
    const pattern = fc.tuple(stem, tail).map(([s, t]) => s + t);
    const path = fc
      .tuple(stem, fc.array(fc.constantFrom('a', 'b', '/', '$'), { maxLength: 8 }))
      .map(([s, a]) => `/${s.slice(1)}${a.join('')}`);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 25, maxLength: 400 }),
        fc.array(path, { minLength: 1, maxLength: 20 }),
        (spec, paths) => {
          const rules = spec.flatMap(([allow, p], i) => matchRulesFor(allow, p, i + 1));
          const matcher = new RuleMatcher(rules);
          for (const p of paths) {
            const out: BestMatches = { allow: null, disallow: null };
            matcher.best(p, out);
            expect(out, p).toEqual(plainBest(rules, p));
          }
        },
      ),
      { numRuns: 600 },
    );
  });

  it('indexes pools with thousands of crowded wildcards the same way', () => {
    const rules = [];
    for (let i = 0; i < 3000; i++) {
      const pattern = i % 3 === 0 ? `/*/item-${i}.php$` : i % 3 === 1 ? `/*item-${i}` : `/s-${i % 700}/p`;
      rules.push(...matchRulesFor(i % 5 === 0, pattern, i + 1));
    }
    const matcher = new RuleMatcher(rules);
    for (let i = 0; i < 3000; i += 7) {
      for (const path of [`/x/item-${i}.php`, `/s-${i % 800}/p/item-${i}`, `/item-${i}.ph`, `/s-${i}/p`]) {
        const out: BestMatches = { allow: null, disallow: null };
        matcher.best(path, out);
        expect(out, path).toEqual(plainBest(rules, path));
      }
    }
  });
});

describe('cached plans and matchers', () => {
  const agentLine = fc.constantFrom('*', 'FooBot', 'BarBot', 'foobot', 'Baz');
  const ruleLine = fc
    .tuple(fc.constantFrom('Allow', 'Disallow'), fc.constantFrom('/', '/a', '/a*', '/b$', '', '/a/b'))
    .map(([k, v]) => `${k}: ${v}`);
  const file = fc
    .array(
      fc.oneof(
        agentLine.map((a) => `User-agent: ${a}`),
        ruleLine,
      ),
      { maxLength: 20 },
    )
    .map((l) => l.join('\n'));
  // Profiles too: a file keeps the plan of the profile asked about last, beside its map of plans by profile.
  const fallback = defineCrawler({ name: 'Fallback', tokens: ['Other', 'BarBot', 'FooBot'] });
  const loner = defineCrawler({ name: 'Loner', tokens: ['Baz'], ignoresGlobalGroup: true });
  const question = fc.tuple(
    fc.constantFrom('/a', '/a/b', '/b', '/c'),
    fc.constantFrom<CrawlerInput>('FooBot', 'BarBot', 'Baz', 'other', ['FooBot', 'BarBot'], ['Baz'], fallback, loner),
  );

  it('a file asked many questions in turn answers each as a fresh parse does', () => {
    fc.assert(
      fc.property(file, fc.array(question, { maxLength: 30 }), (text, questions) => {
        const robots = parseRobotsTxt(text);
        for (const [path, agent] of questions) {
          expect(robots.explain(path, agent)).toEqual(parseRobotsTxt(text).explain(path, agent));
          expect(robots.isAllowed(path, agent)).toBe(parseRobotsTxt(text).isAllowed(path, agent));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('path of a URL', () => {
  const piece = fc.constantFrom(
    'http',
    'https',
    'HTTP',
    '://',
    ':',
    '/',
    '//',
    '?',
    ';',
    '#',
    'a',
    '.',
    'h',
    's',
    'x=1',
  );
  const url = fc.array(piece, { maxLength: 10 }).map((a) => a.join(''));
  it('the http(s) shortcut gives what the reference algorithm gives', () => {
    fc.assert(
      fc.property(fc.oneof(url, fc.string({ maxLength: 20 })), (u) => {
        expect(pathOfUrl(u)).toBe(pathOfAnyUrl(u));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('LRU map', () => {
  /** The plain model: entries in use order, oldest first, trimmed from the front (never the one just set). */
  class PlainLru {
    entries: [string, number, number][] = [];
    constructor(
      private readonly maxEntries: number,
      private readonly maxWeight: number,
    ) {}
    get(key: string): number | undefined {
      const i = this.entries.findIndex((e) => e[0] === key);
      if (i < 0) return undefined;
      const [entry] = this.entries.splice(i, 1);
      this.entries.push(entry!);
      return entry![1];
    }
    set(key: string, value: number, weight: number): void {
      this.entries = this.entries.filter((e) => e[0] !== key);
      this.entries.push([key, value, weight]);
      const total = () => this.entries.reduce((n, e) => n + e[2], 0);
      while ((this.entries.length > this.maxEntries || total() > this.maxWeight) && this.entries.length > 1) {
        this.entries.shift();
      }
    }
    delete(key: string): void {
      this.entries = this.entries.filter((e) => e[0] !== key);
    }
  }
  const op = fc.tuple(
    fc.constantFrom('get', 'get', 'set', 'delete', 'clear'),
    fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    fc.integer({ min: 0, max: 5 }),
  );

  it('keeps and forgets exactly what a plain list in use order does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
        const lru = new LruMap<string, number>(max, 8);
        let plain = new PlainLru(max, 8);
        ops.forEach(([kind, key, n], i) => {
          if (kind === 'get') expect(lru.get(key)).toBe(plain.get(key));
          else if (kind === 'set') {
            lru.set(key, i, n);
            plain.set(key, i, n);
          } else if (kind === 'delete') {
            lru.delete(key);
            plain.delete(key);
          } else {
            lru.clear();
            plain = new PlainLru(max, 8);
          }
          expect(lru.size).toBe(plain.entries.length);
        });
        for (const [key, value] of plain.entries) expect(lru.get(key)).toBe(value);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('model scan', () => {
  /** Pieces of lines that reach every branch of the scanner: names in all spellings, separators, breaks, comments. */
  const piece = fc.constantFrom(
    'Disallow',
    'disallow',
    'DISALLOW',
    'Disallow:',
    'Allow',
    'allow:',
    'User-agent',
    'user-AGENT:',
    'User agent',
    'useragent',
    'Sitemap:',
    'site-map',
    'Disallowed',
    'dissallow',
    'crawl-delay',
    'Host',
    ':',
    ': ',
    ' ',
    '\t',
    '\v',
    '\f',
    '#',
    '# c',
    '\0',
    '\n',
    '\r',
    '\r\n',
    '/',
    '/a b',
    '*',
    'x',
    'é',
    'ツ',
    `/${'a'.repeat(16_700)}`,
  );
  const file = fc
    .tuple(fc.constantFrom('', '\uFEFF', '\uFEFF\n'), fc.array(piece, { maxLength: 40 }))
    .map(([bom, pieces]) => bom + pieces.join(''));

  /** The rows the model scan must write, from the plain scanner's facts: directive and blank lines. */
  function plainRows(bin: string): { lines: number; rows: number[][] } {
    const rows: number[][] = [];
    const lines = scanLines(bin, (f) => {
      if (f.field !== Field.None) {
        rows.push([f.field | (f.flags << ROW_FLAGS_SHIFT), f.line, f.keyStart, f.keyEnd, f.valueStart, f.valueEnd]);
      } else if ((f.flags & LineFlag.Blank) !== 0) rows.push([f.flags << ROW_FLAGS_SHIFT, f.line, -1, -1, -1, -1]);
    });
    return { lines, rows };
  }

  // A small table to start with, so that generated files also make it grow.
  const table: DirectiveRows = { data: new Int32Array(ROW_INTS), count: 0 };
  function fastRows(input: RobotsInput, maxBytes: number): { lines: number; rows: number[][] } {
    const source = toSourceBytes(input, maxBytes);
    const lines = scanDirectives(source.bin, parsedBytes(input, source), table);
    const rows: number[][] = [];
    for (let i = 0; i < table.count; i++) rows.push([...table.data.subarray(i * ROW_INTS, (i + 1) * ROW_INTS)]);
    return { lines, rows };
  }

  it('writes what the plain scanner reports for every directive and blank line, from text or bytes', () => {
    fc.assert(
      fc.property(file, fc.oneof(fc.constant(512_000), fc.integer({ min: 0, max: 120 })), (text, maxBytes) => {
        const bytes = new TextEncoder().encode(text);
        const plain = plainRows(toSourceBytes(text, maxBytes).bin);
        expect(fastRows(text, maxBytes)).toEqual(plain);
        expect(fastRows(bytes, maxBytes)).toEqual(plain);
        expect(fastRows(bytes.slice().buffer, maxBytes)).toEqual(plain);
        // Bytes that are not UTF-8 (a lone 0xFF, an unfinished sequence) are scanned like any other.
        const odd = new Uint8Array([...bytes, 0xff, 0x0a, 0xe3, 0x83]);
        expect(fastRows(odd, maxBytes)).toEqual(plainRows(toSourceBytes(odd, maxBytes).bin));
      }),
      { numRuns: 3_000 },
    );
  });

  it('parses the same model from text as from its bytes, one file after another', () => {
    fc.assert(
      fc.property(fc.array(file, { minLength: 1, maxLength: 4 }), (texts) => {
        const fromText = texts.map((t) => parseRobotsTxt(t));
        const fromBytes = texts.map((t) => parseRobotsTxt(new TextEncoder().encode(t)));
        for (let i = 0; i < texts.length; i++) {
          const a = fromText[i]!;
          const b = fromBytes[i]!;
          expect(a.lineCount).toBe(b.lineCount);
          expect(JSON.parse(JSON.stringify(a.groups))).toEqual(JSON.parse(JSON.stringify(b.groups)));
          expect(a.sitemaps).toEqual(b.sitemaps);
        }
      }),
      { numRuns: 500 },
    );
  });
});
