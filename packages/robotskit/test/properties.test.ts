/**
 * Properties that must hold for every input: parsing never throws and is linear, line-ending style does not change
 * any decision, `explain` agrees with `isAllowed`, and the wildcard matcher agrees with a straightforward model of the
 * reference's position-set automaton.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, pathOfUrl } from '../src/index.js';
import { matchPattern } from '../src/match/pattern.js';

const fieldNames = ['user-agent', 'User-Agent', 'allow', 'disallow', 'Disallow', 'sitemap', 'crawl-delay', 'useragent'];
const agents = ['*', 'FooBot', 'foobot', 'BarBot', 'Foo Bar', '* x', ''];
const pathChars = ['/', 'a', 'b', '*', '$', '?', '=', '%', '2', 'f', 'é', '.', 'x'];

const pattern = fc.array(fc.constantFrom(...pathChars), { maxLength: 10 }).map((a) => a.join(''));
const robotsLine = fc.oneof(
  fc.tuple(fc.constantFrom(...fieldNames), fc.constantFrom(...agents, '/x', '/a*b$')).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(fc.constantFrom('allow', 'disallow'), pattern).map(([k, v]) => `${k}: ${v}`),
  fc.constantFrom('', '# comment', 'junk', 'disallow /x', 'a b c', ':', '\u0000', '\uFEFF'),
  fc.string({ maxLength: 20 }),
);
const robotsLines = fc.array(robotsLine, { maxLength: 25 });
const urlPath = fc
  .array(fc.constantFrom(...pathChars.filter((c) => c !== '*')), { maxLength: 12 })
  .map((a) => `/${a.join('')}`);
const caller = fc.constantFrom('FooBot', 'BarBot', 'foo', 'Foo Bar', 'QuxBot', '');

/** The reference's matcher: a sorted set of path positions advanced one pattern char at a time. */
function referenceMatch(path: string, pat: string): boolean {
  let pos = [0];
  for (let i = 0; i < pat.length; i++) {
    const c = pat[i];
    if (c === '$' && i === pat.length - 1) return pos[pos.length - 1] === path.length;
    if (c === '*') {
      const from = pos[0] ?? 0;
      pos = [];
      for (let p = from; p <= path.length; p++) pos.push(p);
    } else {
      pos = pos.filter((p) => p < path.length && path[p] === c).map((p) => p + 1);
      if (pos.length === 0) return false;
    }
  }
  return true;
}

describe('properties', () => {
  it('parsing never throws, on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (data) => {
        const robots = parseRobotsTxt(data);
        expect(robots.records.length).toBe(robots.lineCount);
        robots.isAllowed('/x', 'FooBot');
      }),
      { numRuns: 2000 },
    );
  });

  it('parsing never throws, on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        parseRobotsTxt(text).explain('http://example.com/a', 'FooBot');
      }),
      { numRuns: 2000 },
    );
  });

  it('decisions do not depend on the line-ending style', () => {
    fc.assert(
      fc.property(robotsLines, urlPath, caller, (lines, path, agent) => {
        const verdicts = ['\n', '\r\n', '\r'].map((eol) => parseRobotsTxt(lines.join(eol)).explain(path, agent));
        expect(verdicts[1]).toEqual(verdicts[0]);
        expect(verdicts[2]).toEqual(verdicts[0]);
      }),
      { numRuns: 1500 },
    );
  });

  it('explain().allowed === isAllowed(), for one agent and several', () => {
    fc.assert(
      fc.property(robotsLines, urlPath, fc.array(caller, { minLength: 1, maxLength: 3 }), (lines, path, names) => {
        const robots = parseRobotsTxt(lines.join('\n'));
        expect(robots.explain(path, names).allowed).toBe(robots.isAllowed(path, names));
        expect(robots.explain(path, names[0]!).allowed).toBe(robots.isAllowed(path, names[0]!));
      }),
      { numRuns: 1500 },
    );
  });

  it('the wildcard matcher decides exactly like the reference automaton', () => {
    const ascii = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$', 'c'), { maxLength: 12 }).map((a) => a.join(''));
    const text = fc.array(fc.constantFrom('/', 'a', 'b', '$', 'c'), { maxLength: 14 }).map((a) => `/${a.join('')}`);
    fc.assert(
      fc.property(ascii, text, (pat, path) => {
        expect(matchPattern(pat, path)).toBe(referenceMatch(path, pat));
      }),
      { numRuns: 20000 },
    );
  });

  /** The reference, rule by rule: the first longest match of each kind (with the index.htm retry), then decide. */
  function referenceVerdict(
    robots: ReturnType<typeof parseRobotsTxt>,
    path: string,
  ): { allowed: boolean; line: number } {
    const best = { allow: { len: -1, line: 0 }, disallow: { len: -1, line: 0 } };
    for (const r of robots.groups[0]!.rules) {
      let len = referenceMatch(path, r.pattern) ? r.pattern.length : -1;
      const slash = r.pattern.lastIndexOf('/');
      if (len < 0 && r.kind === 'allow' && slash >= 0 && r.pattern.startsWith('/index.htm', slash)) {
        const dir = `${r.pattern.slice(0, slash + 1)}$`;
        if (referenceMatch(path, dir)) len = dir.length;
      }
      if (len > best[r.kind].len) best[r.kind] = { len, line: r.line };
    }
    const d = best.disallow;
    const a = best.allow;
    return { allowed: !(d.len > a.len && d.len > 0), line: d.len > a.len ? d.line : a.line };
  }

  it('the rule index of large groups decides like a rule-by-rule model of the reference', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), pattern), { minLength: 1, maxLength: 80 }), urlPath, (rules, url) => {
        const body = rules.map(([allow, p]) => `${allow ? 'allow' : 'disallow'}: ${p}`);
        const robots = parseRobotsTxt(['user-agent: FooBot', ...body].join('\n'));
        const explained = robots.explain(url, 'FooBot');
        const path = pathOfUrl(url);
        expect(explained.path).toBe(path);
        const expected = referenceVerdict(robots, path);
        expect(explained.allowed).toBe(expected.allowed);
        expect(explained.line).toBe(expected.line);
      }),
      { numRuns: 3000 },
    );
  });

  it('the trigram index of crowded wildcard rules decides like the rule-by-rule model', () => {
    const literal = fc.array(fc.constantFrom('a', 'b', 'c', '/', '.', '?'), { minLength: 0, maxLength: 5 });
    const wild = fc
      .tuple(fc.constantFrom('/', '/*', '*', '/a'), literal, literal, fc.constantFrom('', '$', '*'))
      .map(([head, x, y, end]) => `${head}*${x.join('')}*${y.join('')}${end}`);
    const path = fc
      .array(fc.constantFrom('a', 'b', 'c', '/', '.', '?'), { maxLength: 16 })
      .map((a) => `/${a.join('')}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), wild), { minLength: 40, maxLength: 150 }), path, (rules, url) => {
        const body = rules.map(([allow, p]) => `${allow ? 'allow' : 'disallow'}: ${p}`);
        const robots = parseRobotsTxt(['user-agent: FooBot', ...body].join('\n'));
        const expected = referenceVerdict(robots, pathOfUrl(url));
        const explained = robots.explain(url, 'FooBot');
        expect(explained.allowed).toBe(expected.allowed);
        expect(explained.line).toBe(expected.line);
      }),
      { numRuns: 1500 },
    );
  });

  it('parsing work grows linearly with input size, for every adversarial shape', () => {
    // Work is counted, not timed: every char the engine inspects goes through charCodeAt, indexOf or startsWith, so
    // counting their calls (and the chars each native search passes over) measures the parser's work exactly.
    const shapes: Record<string, (n: number) => string> = {
      'short lines': (n) => 'Disallow: /a\n'.repeat(n / 13),
      'one long line': (n) => `Disallow: /${'a'.repeat(n)}`,
      'colons and hashes': (n) => ':#'.repeat(n / 2),
      'hash then colons': (n) => `#${':'.repeat(n)}`,
      wildcards: (n) => `User-agent: *\nDisallow: /${'*a'.repeat(n / 2)}`,
      'spaces, no line break': (n) => 'a '.repeat(n / 2),
      'CR only': (n) => 'User-agent: x\r'.repeat(n / 14),
      'CRLF blank lines': (n) => '\r\n'.repeat(n / 2),
      'NUL bytes': (n) => 'Disallow: /\u0000x\n'.repeat(n / 14),
      'percent escapes': (n) => `User-agent: *\nAllow: /${'%aa%é'.repeat(n / 6)}`,
      'many groups': (n) => 'User-agent: a\nDisallow: /x\n'.repeat(n / 27),
      'missing colons': (n) => 'disallow /x\n'.repeat(n / 12),
    };
    for (const [name, make] of Object.entries(shapes)) {
      const work = [20_000, 200_000].map((size) =>
        countWork(() => parseRobotsTxt(make(size), { maxBytes: 1e7 }).records),
      );
      expect(work[1]! / work[0]!, name).toBeLessThan(12);
    }
  });

  it('matching work grows linearly with the path, even against 100 wildcards', () => {
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(100)}b\nAllow: /${'*a*'.repeat(100)}$`);
    const work = [2_000, 20_000].map((n) => countWork(() => robots.explain(`/${'a'.repeat(n)}`, 'x')));
    expect(work[1]! / work[0]!).toBeLessThan(12);
  });
});

/** Counts the chars the engine looks at while `fn` runs, by instrumenting the string methods it reads with. */
function countWork(fn: () => unknown): number {
  const proto = String.prototype;
  const { charCodeAt, indexOf, startsWith } = proto;
  let work = 0;
  proto.charCodeAt = function (this: string, i: number) {
    work++;
    return charCodeAt.call(this, i);
  };
  proto.indexOf = function (this: string, search: string, from?: number) {
    const at = indexOf.call(this, search, from);
    work += (at < 0 ? this.length : at + search.length) - (from ?? 0) + 1;
    return at;
  };
  proto.startsWith = function (this: string, search: string, from?: number) {
    work += search.length + 1;
    return startsWith.call(this, search, from);
  };
  try {
    fn();
  } finally {
    Object.assign(proto, { charCodeAt, indexOf, startsWith });
  }
  return work;
}
