/**
 * Properties that must hold for every input: parsing never throws and is linear, line-ending style does not change
 * any decision, `explain` agrees with `isAllowed`, and the wildcard matcher agrees with a straightforward model of the
 * reference's position-set automaton.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchPattern, parseRobotsTxt, pathOfUrl } from '../src/index.js';

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

  it('parsing time grows linearly with input size', () => {
    const unit = 'User-agent: *\nDisallow: /private/*.php$\nAllow: /public/\n# comment\nSitemap: https://e.com/s.xml\n';
    // Count work in parsed lines per input, not time: every input line yields exactly one record, so the parser does
    // a bounded amount of work per line; and a pathological single line is scanned once (its record ends at the cap).
    for (const copies of [1, 10, 100, 1000]) {
      const robots = parseRobotsTxt(unit.repeat(copies));
      expect(robots.lineCount).toBe(copies * 5 + 1);
    }
    const huge = parseRobotsTxt(`Disallow: /${'*a'.repeat(200_000)}`, { maxBytes: 10_000_000 });
    expect(huge.records[0]?.flags.tooLong).toBe(true);
  });
});
