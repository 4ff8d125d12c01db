/**
 * usageChanges: the AI usage preferences an edit changes, per crawler and path, read through RobotsTxt.usage.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { compareRobots, usageChanges } from '../src/semantics/index.js';

const file = (text: string) => parseRobotsTxt(text);

describe('usageChanges', () => {
  it('names each category that changed, with the deciding lines before and after', () => {
    const before = file('User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\n');
    const after = file('User-agent: *\nAllow: /\nContent-Usage: / train-ai=n, search=y\n');
    expect(usageChanges(before, after, ['*'])).toEqual([
      {
        crawler: '*',
        path: '/',
        category: 'train-ai',
        before: 'allow',
        after: 'disallow',
        linesBefore: [3],
        linesAfter: [3],
      },
      { crawler: '*', path: '/', category: 'search', before: null, after: 'allow', linesBefore: [], linesAfter: [3] },
    ]);
  });

  it('looks at every path, through each crawler’s own groups', () => {
    // An Allow line ends the `*` group before GPTBot's (usage lines alone would not: GPTBot would join it).
    const before = file('User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\n');
    const after = file(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /private/*.html train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n',
    );
    const changes = usageChanges(before, after, ['*', 'GPTBot']);
    // `*` under /private/: newly disallowed for training, at a shortest path; GPTBot may fetch nothing now, so it has
    // no preferences at all: one change, shown once (at `/`, where its access changed too).
    expect(changes.map((c) => [c.crawler, c.path, c.category, c.before, c.after])).toEqual([
      ['*', '/private/.html', 'train-ai', 'allow', 'disallow'],
      ['GPTBot', '/', 'train-ai', 'allow', null],
    ]);
  });

  it('reads Content-Signal: mapped keys as their category, the others by name', () => {
    const before = file('User-agent: *\nContent-Signal: search=yes, ai-train=yes, ai-input=yes\nAllow: /\n');
    const after = file('User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no\nAllow: /\n');
    expect(usageChanges(before, after, ['*']).map((c) => [c.category, c.before, c.after, c.linesAfter])).toEqual([
      ['train-ai', 'allow', 'disallow', [2]],
      ['content-signal:ai-input', 'yes', 'no', [2]],
    ]);
  });

  it('is empty when neither file states usage preferences, or nothing changed', () => {
    expect(usageChanges(file('User-agent: *\nDisallow: /a\n'), file('User-agent: *\nDisallow: /b\n'), ['*'])).toEqual(
      [],
    );
    const same = 'User-agent: *\nContent-Usage: / train-ai=n\n';
    expect(usageChanges(file(same), file(`# a comment\n${same}`), ['*', 'GPTBot'])).toEqual([]);
  });

  it('finds a change that shows only between the rules’ own paths', () => {
    // `/*c` (3 bytes) beat `/a` (2) on `/ac`; `/*cc` no longer matches it: `/a` decides. At `/`, `/a`, `/c` and `/cc`
    // both files answer alike.
    const before = file(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /a train-ai=n\nContent-Usage: /*c train-ai=y\n',
    );
    const after = file(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /a train-ai=n\nContent-Usage: /*cc train-ai=y\n',
    );
    expect(usageChanges(before, after, ['*'])).toEqual([
      {
        crawler: '*',
        path: '/ac',
        category: 'train-ai',
        before: 'allow',
        after: 'disallow',
        linesBefore: [5],
        linesAfter: [4],
      },
    ]);
    const diff = compareRobots(before, after, { crawlers: ['*'], usage: true });
    expect(diff.crawlers[0]).toMatchObject({ equivalent: false, complete: true, regions: [] });
    expect(diff.crawlers[0]!.usage!.map((w) => w.path)).toEqual(['/ac']);
  });

  it('does not count a change where neither file lets the crawler fetch', () => {
    const before = file(
      'User-agent: *\nDisallow: /private/\nContent-Usage: / train-ai=y\nContent-Usage: /private/a train-ai=y\n',
    );
    const after = file(
      'User-agent: *\nDisallow: /private/\nContent-Usage: / train-ai=y\nContent-Usage: /private/a train-ai=n\n',
    );
    expect(usageChanges(before, after, ['*', 'GPTBot'])).toEqual([]);
    expect(compareRobots(before, after, { crawlers: ['*'], usage: true }).equivalent).toBe(true);
    // Allowed again under it: the change shows there, at a shortest path.
    const open = file(
      'User-agent: *\nDisallow: /private/\nAllow: /private/a/x\nContent-Usage: / train-ai=y\nContent-Usage: /private/a train-ai=n\n',
    );
    const was = file(
      'User-agent: *\nDisallow: /private/\nAllow: /private/a/x\nContent-Usage: / train-ai=y\nContent-Usage: /private/a train-ai=y\n',
    );
    expect(usageChanges(was, open, ['*']).map((c) => [c.path, c.before, c.after])).toEqual([
      ['/private/a/x', 'allow', 'disallow'],
    ]);
  });

  it('shows a change of Content-Signal where the crawler may fetch, however deep', () => {
    const text = (value: string) =>
      `User-agent: *\nDisallow: /\nAllow: /ab\nContent-Usage: /ab train-ai=y\nContent-Signal: ai-input=${value}\n`;
    expect(
      usageChanges(file(text('yes')), file(text('no')), ['*']).map((c) => [c.path, c.category, c.before, c.after]),
    ).toEqual([['/ab', 'content-signal:ai-input', 'yes', 'no']]);
  });

  it('proves an edit that only rewrites what is stated, even where nothing may be fetched', () => {
    // Two rules of one length made one rule, and the signal's keys in the other order: the same statements, in
    // another order. Were they compared as written, the search for a path both files let the crawler fetch (under
    // `Disallow: /`, only `/*x*y*z`) would run out of its 5 states.
    const text = (rules: string[], signal: string) =>
      `User-agent: *\nDisallow: /\nAllow: /*x*y*z\n${rules.join('\n')}\nContent-Signal: ${signal}\n`;
    const before = text(['Content-Usage: /a search=y', 'Content-Usage: /a train-ai=n'], 'search=yes, ai-train=no');
    const after = text(['Content-Usage: /a train-ai=n, search=y'], 'ai-train=no, search=yes');
    const result = compareRobots(before, after, { crawlers: ['*'], usage: true, maxStates: 5 }).crawlers[0]!;
    expect(result).toMatchObject({ equivalent: true, complete: true, usage: [] });
  });

  it('does not search for a path to show a change already shown', () => {
    // Past `/.pdf`, every path that ends in `.` stands apart for the anchored rule, and `Disallow: /*.$` keeps the
    // crawler from all of them; the change there (the same lines, the same values) shows at `/.pdfx`. Proving that no
    // such path may be fetched would walk every combination of the wildcard rules' states.
    const rules = [
      'Disallow: /*.$',
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((w, i) => `${i % 2 ? 'Allow' : 'Disallow'}: /*/${w}*/`),
    ];
    const text = (pdf: string) =>
      `User-agent: *\n${rules.join('\n')}\nContent-Usage: / train-ai=y\nContent-Usage: ${pdf} train-ai=n\n`;
    const result = compareRobots(text('/*.pdf'), text('/*.pdf$'), { crawlers: ['*'], usage: true, maxStates: 40 });
    expect(result.crawlers[0]).toMatchObject({ equivalent: false, complete: true });
    expect(result.crawlers[0]!.usage!.map((w) => [w.category, w.before, w.after])).toEqual([
      ['train-ai', 'disallow', 'allow'],
    ]);
  });

  it('says when a bound cut the search short', () => {
    const before = file('User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /*a*b*c train-ai=n\n');
    const after = file('User-agent: *\nContent-Usage: / train-ai=y\nContent-Usage: /*a*b*cd train-ai=n\n');
    const cut = compareRobots(before, after, { crawlers: ['*'], usage: true, maxStates: 2 });
    expect(cut.crawlers[0]).toMatchObject({ equivalent: false, complete: false });
    const whole = compareRobots(before, after, { crawlers: ['*'], usage: true });
    expect(whole.crawlers[0]).toMatchObject({ equivalent: false, complete: true });
    expect(whole.crawlers[0]!.usage!.map((w) => [w.path, w.before, w.after])).toEqual([['/abc', 'disallow', 'allow']]);
  });

  it('misses no change on any path (small random files, every path up to 6 characters)', () => {
    const alphabet = ['/', 'a', 'b', 'c', '*'];
    const pattern = fc
      .tuple(fc.array(fc.constantFrom(...alphabet), { maxLength: 4 }), fc.boolean())
      .map(([chars, anchored]) => `/${chars.join('')}${anchored ? '$' : ''}`);
    const usageLine = fc
      .tuple(pattern, fc.constantFrom('train-ai=y', 'train-ai=n', 'search=n', 'train-ai=n, search=y'))
      .map(([p, v]) => `Content-Usage: ${p} ${v}`);
    const accessLine = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([k, p]) => `${k}: ${p}`);
    const signalLine = fc.constantFrom('', 'Content-Signal: ai-train=yes', 'Content-Signal: ai-train=no, search=yes');
    const robots = fc
      .tuple(fc.array(usageLine, { maxLength: 4 }), fc.array(accessLine, { maxLength: 3 }), signalLine)
      .map(([u, a, signal]) => `User-agent: *\n${[...a, ...u, signal].join('\n')}\n`);
    // Every path of up to 6 characters over the patterns' letters and one they lack.
    const paths: string[] = ['/'];
    for (let i = 0; i < paths.length; i++) {
      if (paths[i]!.length < 6) for (const ch of ['/', 'a', 'b', 'c', 'x']) paths.push(paths[i] + ch);
    }
    fc.assert(
      fc.property(robots, robots, (one, two) => {
        const before = file(one);
        const after = file(two);
        const comparison = compareRobots(before, after, { crawlers: ['*'], usage: true }).crawlers[0]!;
        expect(comparison.complete).toBe(true);
        const found = new Set(
          (comparison.usage ?? []).map((w) =>
            JSON.stringify([w.category, w.before, w.after, w.linesBefore, w.linesAfter]),
          ),
        );
        for (const path of paths) {
          // As a URL: a bare `//a` would be read as a host.
          const was = before.usage(`http://robots.invalid${path}`, '*');
          const now = after.usage(`http://robots.invalid${path}`, '*');
          if (!was.crawlable || !now.crawlable) continue;
          // A category as usageChanges reads it: the deciding rules' value, else the signal's (with its lines).
          const value = (answer: typeof was, category: string) =>
            answer.preferences[category] ?? answer.contentSignal?.preferences[category] ?? null;
          const categories = [was, now].flatMap((x) => [
            ...Object.keys(x.preferences),
            ...Object.keys(x.contentSignal?.preferences ?? {}),
          ]);
          for (const category of new Set(categories)) {
            const a = value(was, category);
            const b = value(now, category);
            if (a === b) continue;
            const lines = (answer: typeof was) =>
              answer.preferences[category] !== undefined
                ? answer.rules.map((r) => r.line)
                : answer.contentSignal?.preferences[category] !== undefined
                  ? answer.contentSignal.lines
                  : [];
            const key = JSON.stringify([category, a, b, lines(was), lines(now)]);
            expect(found.has(key), `${category} ${a} → ${b} at ${path}:\n${one}---\n${two}`).toBe(true);
          }
        }
      }),
      { numRuns: 300, seed: 36 },
    );
  });
});
