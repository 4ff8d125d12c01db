/**
 * The witnesses of a usage change are real: for every change `usageChanges` and `compareRobots({ usage: true })`
 * report, the engine's own `RobotsTxt.usage` on the witness path gives the stated value before and after, across
 * cases that include percent-encoding, non-ASCII bytes (valid UTF-8 and not), wildcards, `$` and Content-Signal.
 */

import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, type RobotsTxt } from '../src/index.js';
import { compareRobots, type UsageChange, usageChanges } from '../src/semantics/index.js';

const bytes = (...parts: (string | number[])[]): Uint8Array => {
  const out: number[] = [];
  for (const p of parts) out.push(...(typeof p === 'string' ? new TextEncoder().encode(p) : p));
  return new Uint8Array(out);
};

/** Each case: before, after (bytes), the crawlers asked about, and the least number of changes expected. */
const CASES: { name: string; before: Uint8Array; after: Uint8Array; crawlers: string[]; least: number }[] = [
  {
    name: 'non-ASCII path written as UTF-8',
    before: bytes('User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /café/ train-ai=y\n'),
    after: bytes('User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /café/ train-ai=n\n'),
    crawlers: ['*'],
    least: 1,
  },
  {
    name: 'a byte that is not UTF-8 (latin-1 é)',
    before: bytes('User-agent: *\nContent-Usage: / search=y\nContent-Usage: /caf', [0xe9], ' search=y\n'),
    after: bytes('User-agent: *\nContent-Usage: / search=y\nContent-Usage: /caf', [0xe9], ' search=n\n'),
    crawlers: ['*', 'GPTBot'],
    least: 2,
  },
  {
    name: 'percent-encoding in lower case, and an escaped letter',
    before: bytes('User-agent: GPTBot\nContent-Usage: /a%2fb train-ai=y\nContent-Usage: /x%41 ai-use=y\n'),
    after: bytes('User-agent: GPTBot\nContent-Usage: /a%2fb train-ai=n\nContent-Usage: /x%41 ai-use=n\n'),
    crawlers: ['GPTBot'],
    least: 2,
  },
  {
    name: 'wildcards and an anchored rule made open',
    before: bytes('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /blog/*.html$ train-ai=y\n'),
    after: bytes('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /blog/*.html train-ai=y\n'),
    crawlers: ['*'],
    least: 1,
  },
  {
    name: 'a rule newly disallowed, and a group of its own for one crawler',
    before: bytes('User-agent: *\nAllow: /\nContent-Usage: /docs/ train-ai=y, search=y\n'),
    after: bytes(
      'User-agent: *\nAllow: /\nDisallow: /docs/\nContent-Usage: /docs/ train-ai=y, search=y\n\nUser-agent: ClaudeBot\nAllow: /\nContent-Usage: / train-ai=n\n',
    ),
    crawlers: ['*', 'ClaudeBot', 'GPTBot'],
    least: 3,
  },
  {
    name: 'a change only between the rules’ own paths (/*c became /*cc under /a: at /ac)',
    before: bytes(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /a train-ai=n\nContent-Usage: /*c train-ai=y\n',
    ),
    after: bytes(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /a train-ai=n\nContent-Usage: /*cc train-ai=y\n',
    ),
    crawlers: ['*', 'GPTBot'],
    least: 2,
  },
  {
    name: 'Content-Signal keys, mapped and unmapped',
    before: bytes('User-agent: *\nContent-Signal: search=yes, ai-train=yes, ai-input=yes\nAllow: /\n'),
    after: bytes('User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no, use=reference\nAllow: /\n'),
    crawlers: ['*'],
    least: 3,
  },
  {
    name: 'a query and an upper-case key that makes the whole value unknown',
    before: bytes('User-agent: *\nContent-Usage: /p?id= train-ai=n\n'),
    after: bytes('User-agent: *\nContent-Usage: /p?id= Train-ai=n\n'),
    crawlers: ['*'],
    least: 1,
  },
];

/** What `file` states at `path` for `crawler` in `category`, as `usageChanges` names categories. */
function statedIn(file: RobotsTxt, path: string, crawler: string, category: string): string | null {
  const answer = file.usage(path, crawler);
  if (category.startsWith('content-signal:'))
    return answer.contentSignal?.unmapped[category.slice('content-signal:'.length)] ?? null;
  return answer.preferences[category] ?? answer.contentSignal?.preferences[category] ?? null;
}

function expectReal(before: RobotsTxt, after: RobotsTxt, crawler: string, change: Omit<UsageChange, 'crawler'>): void {
  // The witness is a path a crawler can request as written: ASCII only.
  expect(change.path).toMatch(/^\/[\x21-\x7e]*$/);
  expect(statedIn(before, change.path, crawler, change.category)).toBe(change.before);
  expect(statedIn(after, change.path, crawler, change.category)).toBe(change.after);
  expect(change.before).not.toBe(change.after);
}

describe('usage change witnesses', () => {
  for (const c of CASES) {
    it(`are real: ${c.name}`, () => {
      const before = parseRobotsTxt(c.before);
      const after = parseRobotsTxt(c.after);
      const changes = usageChanges(before, after, c.crawlers);
      expect(changes.length).toBeGreaterThanOrEqual(c.least);
      for (const change of changes) expectReal(before, after, change.crawler, change);

      // The comparison carries the same witnesses, per crawler, and is not equivalent for a crawler with any.
      const diff = compareRobots(before, after, { crawlers: c.crawlers, usage: true });
      expect(diff.equivalent).toBe(false);
      for (const crawler of diff.crawlers) {
        const own = changes.filter((ch) => ch.crawler === crawler.crawler).map(({ crawler: _, ...rest }) => rest);
        expect(crawler.usage).toEqual(own);
        for (const witness of crawler.usage ?? []) expectReal(before, after, crawler.crawler, witness);
        if (own.length > 0) expect(crawler.equivalent).toBe(false);
      }
      // Without the option the comparison is of verdicts only, as before.
      const verdicts = compareRobots(before, after, { crawlers: c.crawlers });
      expect(verdicts.crawlers.every((x) => x.usage === undefined)).toBe(true);
    });
  }

  it('finds a change past the end of a rule anchored with $', () => {
    const before = parseRobotsTxt('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /a$ train-ai=y\n');
    const after = parseRobotsTxt('User-agent: *\nContent-Usage: / train-ai=n\nContent-Usage: /a train-ai=y\n');
    const changes = usageChanges(before, after, ['*']);
    expect(changes.map((ch) => [ch.path, ch.category, ch.before, ch.after])).toEqual([
      ['/ax', 'train-ai', 'disallow', 'allow'],
    ]);
  });

  it('an edit that changes no preference leaves the comparison equivalent', () => {
    const text = 'User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\nContent-Usage: /caf%C3%A9/ train-ai=y\n';
    const moved = 'User-agent: *\nContent-Usage: /café/ train-ai=y\nContent-Usage: / train-ai=n\nAllow: /\n';
    const diff = compareRobots(text, moved, { crawlers: ['*', 'GPTBot'], usage: true });
    expect(diff.equivalent).toBe(true);
    expect(diff.crawlers.map((c) => c.usage)).toEqual([[], []]);
  });
});
