/**
 * compareRobots: the regions it reports are real (each witness changes the engine's verdict, and is decided by the
 * reported rules), and complete (every path whose verdict changed lies in a reported region).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crawlerByName, parseRobotsTxt } from '../src/index.js';
import { matchPattern } from '../src/match/pattern.js';
import { compareRobotsWith } from '../src/semantics/compare.js';
import { type ChangedRegion, compareRobots, type RobotsComparison } from '../src/semantics/index.js';
import { explorePlain } from './reference/explore-plain.js';

const ORIGIN = 'https://example.invalid';

/** The rule `explain` names, or null when no real rule decided (an empty pattern never decides). */
function decider(robots: ReturnType<typeof parseRobotsTxt>, path: string, agent: string) {
  const e = robots.explain(`${ORIGIN}${path}`, agent);
  return { allowed: e.allowed, rule: e.rule === null || e.rule.pattern === '' ? null : e.rule };
}

function sameRule(a: { line: number; pattern: string } | null, b: { line: number; pattern: string } | null): boolean {
  return a === null || b === null ? a === b : a.line === b.line && a.pattern === b.pattern;
}

describe('compareRobots examples', () => {
  it('finds a new wildcard block with a shortest witness and the deciding lines', () => {
    const before = 'User-agent: *\nDisallow: /private/\n';
    const after = 'User-agent: *\nDisallow: /private/\nDisallow: /shop/*.php$\n';
    const diff = compareRobots(before, after, { crawlers: ['*'] });
    expect(diff.equivalent).toBe(false);
    expect(diff.complete).toBe(true);
    expect(diff.crawlers[0]!.regions).toEqual([
      {
        change: 'blocked',
        pattern: '/shop/*.php$',
        witness: '/shop/.php',
        before: null,
        after: { kind: 'disallow', pattern: '/shop/*.php$', line: 3, indexHtml: false },
      },
    ]);
  });

  it('says equivalent for an edit that changes no verdict', () => {
    const before = 'User-agent: *\nDisallow: /a\nDisallow: /a/b\n';
    const after = 'user-agent: *\n\n# the same\ndisallow: /a\ndisallow: /a*\nallow: /b\n';
    // `/a/b` is shadowed by `/a`, `/a*` equals `/a`, and `allow: /b` allows what nothing blocked.
    const diff = compareRobots(before, after, { crawlers: ['*', 'Googlebot'] });
    expect(diff.equivalent).toBe(true);
    expect(diff.crawlers.map((c) => c.regions.length)).toEqual([0, 0]);
  });

  it('knows Google’s index.html rule, the allow tie-break and the end anchor', () => {
    const before = 'User-agent: *\nDisallow: /d\nAllow: /d/index.html\n';
    const after = 'User-agent: *\nDisallow: /d\n';
    const regions = compareRobots(before, after, { crawlers: ['*'] }).crawlers[0]!.regions;
    expect(regions.map((r) => [r.change, r.witness, r.before?.indexHtml])).toEqual([
      ['blocked', '/d/', true],
      ['blocked', '/d/index.html', false],
    ]);
    const tie = compareRobots('User-agent: *\nDisallow: /ab\n', 'User-agent: *\nDisallow: /ab\nAllow: /a*\n', {
      crawlers: ['*'],
    });
    expect(tie.crawlers[0]!.regions.map((r) => [r.change, r.witness])).toEqual([['allowed', '/ab']]);
  });

  it('follows each crawler’s groups and fallback', () => {
    const before = 'User-agent: *\nDisallow: /x\n';
    const after = 'User-agent: *\nDisallow: /x\n\nUser-agent: Googlebot\nDisallow: /y\n';
    const image = crawlerByName('Googlebot-Image')!;
    const diff = compareRobots(before, after, { crawlers: ['*', 'Googlebot', image, 'Bingbot'] });
    expect(diff.crawlers.map((c) => [c.crawler, c.equivalent])).toEqual([
      ['*', true],
      ['Googlebot', false],
      [image.name, false],
      ['Bingbot', true],
    ]);
    // Googlebot now has only its own group: /x is allowed, /y blocked.
    expect(diff.crawlers[1]!.regions.map((r) => [r.change, r.pattern])).toEqual([
      ['allowed', '/x'],
      ['blocked', '/y'],
    ]);
  });

  it('defaults to the whole catalogue, the tokens the files name, and `*`', () => {
    const diff = compareRobots(
      'User-agent: GPTBot\nDisallow: /\n',
      'User-agent: *\nDisallow:\n\nUser-agent: FooBot\nAllow: /\n',
    );
    expect(diff.crawlers.at(-2)!.crawler).toBe('FooBot');
    expect(diff.crawlers.at(-1)!.crawler).toBe('*');
    const gpt = diff.crawlers.find((c) => c.crawler === 'GPTBot')!;
    expect(gpt.regions.map((r) => [r.change, r.witness])).toEqual([['allowed', '/']]);
    expect(diff.crawlers.filter((c) => !c.equivalent).map((c) => c.crawler)).toEqual(['GPTBot']);
  });

  it('reads `*` as any crawler without a group of its own, whatever names the files use', () => {
    // Groups whose names reduce to no product token, and one named like the token the comparison once invented:
    // none of them is the `*` crawler's.
    const before = 'User-agent: *bot\nDisallow: /a\n\nUser-agent:\nDisallow: /b\n\nUser-agent: *\nDisallow: /c\n';
    const after = `${before}\nUser-agent: robotskit-any-crawler\nDisallow: /d\n`;
    const same = compareRobots(before, after, { crawlers: ['*'] });
    expect(same.equivalent).toBe(true);
    const changed = compareRobots(before, `${before}\nUser-agent: *\nDisallow: /d\n`, { crawlers: ['*'] });
    expect(changed.crawlers[0]!.regions.map((r) => [r.change, r.witness])).toEqual([['blocked', '/d']]);
  });

  it('gives a partial answer, flagged, when the state budget runs out', () => {
    const before = 'User-agent: *\nDisallow: /*a*b*c*d$\n';
    const after = 'User-agent: *\nDisallow: /*a*b*c*e$\n';
    const diff = compareRobots(before, after, { crawlers: ['*'], maxStates: 3 });
    expect(diff.complete).toBe(false);
    expect(diff.equivalent).toBe(false);
    expect(diff.crawlers[0]!.states).toBe(3);
    const full = compareRobots(before, after, { crawlers: ['*'] });
    expect(full.complete).toBe(true);
    expect(full.crawlers[0]!.regions.map((r) => [r.change, r.witness])).toEqual([
      ['allowed', '/abcd'],
      ['blocked', '/abce'],
    ]);
  });

  it('gives up, flagged, when the time budget is spent', () => {
    const diff = compareRobots('User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /b\n', {
      crawlers: ['*'],
      timeoutMs: -1,
    });
    expect(diff.crawlers[0]).toMatchObject({ equivalent: false, complete: false, regions: [] });
  });

  it('explores only around the edit in a large file', () => {
    const rules = Array.from(
      { length: 6000 },
      (_, i) => `Disallow: /dir${i}/\nAllow: /dir${i}/*.css$\nAllow: /dir${i}/public`,
    );
    const before = `User-agent: *\n${rules.join('\n')}\n`;
    const after = before.replace('Allow: /dir1234/public\n', '');
    expect(before.length).toBeGreaterThan(300_000);
    const diff = compareRobots(before, after, { crawlers: ['*'] });
    expect(diff.complete).toBe(true);
    expect(diff.crawlers[0]!.regions.map((r) => [r.change, r.witness])).toEqual([['blocked', '/dir1234/public']]);
    expect(diff.crawlers[0]!.states).toBeLessThan(200);
  });
});

// Files from a small grammar, so that random pairs overlap a lot.
const AGENTS = ['*', 'FooBot', 'BarBot'];
const CHARS = ['/', 'a', 'b', '.', '?', '*', '$', 'x'];
const pattern = fc.oneof(
  fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((a) => `/${a.join('')}`),
  fc.array(fc.constantFrom(...CHARS), { maxLength: 5 }).map((a) => `*${a.join('')}`),
  fc.constantFrom('/a/index.html', '/index.htm', '', '/a$', '/*.b$'),
);
const line = fc.oneof(
  fc.constantFrom(...AGENTS).map((a) => `User-agent: ${a}`),
  fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([k, p]) => `${k}: ${p}`),
);
const file = fc.array(line, { minLength: 1, maxLength: 10 });
/** A second file: the first with edits (lines removed, changed or added), or an unrelated one. */
const pair = fc.oneof(
  fc.tuple(file, file),
  fc.tuple(file, fc.array(fc.tuple(fc.nat(), fc.option(line)), { maxLength: 3 })).map(([a, edits]) => {
    const b = [...a];
    for (const [at, replacement] of edits) {
      if (replacement === null) b.splice(at % (b.length + 1), 1);
      else b.splice(at % (b.length + 1), 0, replacement);
    }
    return [a, b] as const;
  }),
);
const samplePath = fc
  .array(fc.constantFrom('/', 'a', 'b', '.', '?', 'x', 'y', 'index.html', 'index.htm', '$'), { maxLength: 8 })
  .map((a) => `/${a.join('')}`);
/** The crawler names compared, and the token that asks the file the same question. */
const CRAWLERS = [
  ['*', 'QuxBot'],
  ['FooBot', 'FooBot'],
  ['BarBot', 'BarBot'],
] as const;

describe('compareRobots properties', () => {
  it('every witness changes the verdict, decided by the reported rules, and lies in the reported pattern', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const before = parseRobotsTxt(a.join('\n'));
        const after = parseRobotsTxt(b.join('\n'));
        const diff = compareRobots(before, after, { crawlers: CRAWLERS.map(([name]) => name) });
        expect(diff.complete).toBe(true);
        CRAWLERS.forEach(([, token], i) => {
          const result = diff.crawlers[i]!;
          expect(result.equivalent).toBe(result.regions.length === 0);
          for (const region of result.regions) {
            const b0 = decider(before, region.witness, token);
            const a0 = decider(after, region.witness, token);
            expect(b0.allowed).toBe(region.change === 'blocked');
            expect(a0.allowed).toBe(region.change === 'allowed');
            expect(sameRule(b0.rule, region.before)).toBe(true);
            expect(sameRule(a0.rule, region.after)).toBe(true);
            expect(matchPattern(region.pattern, region.witness)).toBe(true);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('every sampled path whose verdict changed lies in a reported region', () => {
    fc.assert(
      fc.property(pair, fc.array(samplePath, { minLength: 20, maxLength: 20 }), ([a, b], paths) => {
        const before = parseRobotsTxt(a.join('\n'));
        const after = parseRobotsTxt(b.join('\n'));
        const diff = compareRobots(before, after, { crawlers: CRAWLERS.map(([name]) => name) });
        CRAWLERS.forEach(([, token], i) => {
          const regions: readonly ChangedRegion[] = diff.crawlers[i]!.regions;
          for (const path of paths) {
            const b0 = decider(before, path, token);
            const a0 = decider(after, path, token);
            if (b0.allowed === a0.allowed) continue;
            const covering = regions.filter((r) => sameRule(b0.rule, r.before) && sameRule(a0.rule, r.after));
            expect(covering.length, `${path} for ${token}`).toBe(1);
            expect(covering[0]!.change).toBe(a0.allowed ? 'allowed' : 'blocked');
            // A shortest witness is never longer than any path of its region.
            expect(covering[0]!.witness.length).toBeLessThanOrEqual(path.length);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('compareRobots on many rules that never die', () => {
  const WORDS = [
    'basket',
    'checkout',
    'compare',
    'download',
    'feedback',
    'gallery',
    'hidden',
    'journal',
    'keyword',
    'login',
    'mailer',
    'newsletter',
    'overlay',
    'popup',
    'quickview',
    'redirect',
    'session',
    'tracking',
    'upload',
    'voucher',
    'widget',
    'xmlfeed',
    'zoom',
    'Preview',
    'Print',
    'Share',
    'Tmp',
    'Wishlist',
    'sortby=',
    'filter=',
  ];
  const file = (words: readonly string[], extra = ''): string =>
    `User-agent: *\n${words.map((w) => `Disallow: /*${w}`).join('\n')}\n${extra}`;

  it('finds the regions of one removed `/*word` rule, completely', () => {
    const before = file(WORDS, 'Allow: /a/\n');
    const after = file(
      WORDS.filter((w) => w !== 'redirect'),
      'Allow: /a/\n',
    );
    const line = 2 + WORDS.indexOf('redirect');
    const removed = { kind: 'disallow', pattern: '/*redirect', line, indexHtml: false };
    const diff = compareRobots(before, after, { crawlers: ['*'] });
    expect(diff.complete).toBe(true);
    expect(diff.crawlers[0]!.regions).toEqual([
      { change: 'allowed', pattern: '/*redirect', witness: '/redirect', before: removed, after: null },
      {
        change: 'allowed',
        pattern: '/*redirect',
        witness: '/a/redirect',
        before: removed,
        after: { kind: 'allow', pattern: '/a/', line: WORDS.length + 1, indexHtml: false },
      },
    ]);
    // Deterministic, unlike time: the exploration stops once nothing new can lie below.
    expect(diff.crawlers[0]!.states).toBeLessThan(2_000);
  });

  it('knows two end-anchored patterns with different endings never match one path', () => {
    const extra = 'Disallow: /p/*/fs$\nAllow: /*.js$\nAllow: /*s$\n';
    const diff = compareRobots(file(WORDS, extra), file(WORDS, extra.replace('Disallow: /p/*/fs$\n', '')), {
      crawlers: ['*'],
    });
    expect(diff.complete).toBe(true);
    // Every path `/p/*/fs$` matches ends in `s`: only `allow: /*s$` decides it afterwards.
    expect(diff.crawlers[0]!.regions.map((r) => [r.change, r.witness, r.before?.pattern, r.after?.pattern])).toEqual([
      ['allowed', '/p//fs', '/p/*/fs$', '/*s$'],
    ]);
    expect(diff.crawlers[0]!.states).toBeLessThan(500);
  });

  it('proves a rule shadowed by a shorter one changes nothing', () => {
    const before = file([...WORDS, 'OrderDetail', 'OrderDetailSearch']);
    const after = file([...WORDS, 'OrderDetail']);
    const diff = compareRobots(before, after, { crawlers: ['*'] });
    expect(diff.complete).toBe(true);
    expect(diff.equivalent).toBe(true);
    expect(diff.crawlers[0]!.states).toBeLessThan(100);
  });
});

describe('the exploration compareRobots uses', () => {
  const WORD_CHARS = ['a', 'b', '/', '.', '?', '='];
  const word = fc.array(fc.constantFrom(...WORD_CHARS), { minLength: 1, maxLength: 4 }).map((a) => a.join(''));
  const wordLine = fc.oneof(
    fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([k, p]) => `${k}: ${p}`),
    fc
      .tuple(fc.constantFrom('Allow', 'Disallow', 'Disallow'), word, fc.option(word), fc.constantFrom('', '', '$'))
      .map(([k, w, v, end]) => `${k}: /*${w}${v === null ? '' : `*${v}`}${end}`),
    fc.constantFrom('User-agent: FooBot', 'User-agent: *'),
  );
  const wordFile = fc.array(wordLine, { minLength: 1, maxLength: 12 });
  const edited = fc.oneof(
    pair,
    fc.tuple(wordFile, fc.array(fc.tuple(fc.nat(), fc.option(wordLine)), { maxLength: 3 })).map(([a, edits]) => {
      const b = [...a];
      for (const [at, replacement] of edits) {
        if (replacement === null) b.splice(at % (b.length + 1), 1);
        else b.splice(at % (b.length + 1), 0, replacement);
      }
      return [a, b] as const;
    }),
  );
  const answer = (c: RobotsComparison) => ({
    equivalent: c.equivalent,
    complete: c.complete,
    crawlers: c.crawlers.map(({ states: _states, ...rest }) => rest),
  });

  it('gives exactly the plain exploration’s answer: the same regions, witnesses and deciding rules, in order', () => {
    fc.assert(
      fc.property(edited, ([a, b]) => {
        const before = a.join('\n');
        const after = b.join('\n');
        const options = { crawlers: CRAWLERS.map(([name]) => name) };
        const plain = compareRobotsWith(explorePlain, before, after, options);
        expect(plain.complete).toBe(true);
        expect(answer(compareRobots(before, after, options))).toEqual(answer(plain));
      }),
      { numRuns: 600 },
    );
  });
});
