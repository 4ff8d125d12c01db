/**
 * `robotskit diff` as a process, on AI usage preferences: a changed `Content-Usage` or `Content-Signal` is a change in
 * meaning (exit 1), reported per crawler with a witness path, its value before and after and the lines that state it;
 * the witness is real (the engine's own `usage()` on both files gives the stated values for that path), with rare bytes
 * (percent-encoding, non-ASCII) among the cases; an edit that moves lines but changes no preference exits 0.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobotsTxt } from 'robotskit';
import type { RobotsComparison } from 'robotskit/semantics';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { type RunResult, spawn } from './helpers.js';

const dir = tempDir('diff-usage');
const write = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** The real command, with a data folder of its own (no merged crawler list). */
const robotskit = (argv: string[]): Promise<RunResult> =>
  spawn(argv, undefined, { ROBOTSKIT_DATA_DIR: join(dir, 'data') });

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('robotskit diff on AI usage preferences', () => {
  it('reports a changed preference with its witness, the values and the lines, and exits 1', async () => {
    const before = write('before.txt', 'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\n');
    const after = write('after.txt', 'User-agent: *\nAllow: /\nContent-Usage: / train-ai=n, search=y\n');
    const result = await robotskit(['diff', before, after, '--ua', '*']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        '*: 2 AI usage preferences changed',
        '  usage  train-ai allow \u2192 disallow  at /',
        '    before  line 3: Content-Usage: / train-ai=y',
        '    after   line 3: Content-Usage: / train-ai=n, search=y',
        '  usage  search unstated \u2192 allow  at /',
        '    before  no line',
        '    after   line 3: Content-Usage: / train-ai=n, search=y',
        '',
      ].join('\n'),
    );
  });

  it('exits 0 when an edit moves the lines but changes no preference', async () => {
    const a = write(
      'same-a.txt',
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\nContent-Usage: /ok/ train-ai=y\n',
    );
    const b = write(
      'same-b.txt',
      'User-agent: *\nContent-Usage: /ok/ train-ai=y\nContent-Usage: / train-ai=n\nAllow: /\n',
    );
    const result = await robotskit(['diff', a, b, '--ua', '*,GPTBot']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('no crawler decides differently and no AI usage preference changed (2 compared)\n');
  });

  // Each case: the two files as bytes, and the crawlers asked about.
  const cases: { name: string; before: Uint8Array | string; after: Uint8Array | string; ua: string }[] = [
    {
      name: 'a non-ASCII path in UTF-8',
      before: 'User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\nContent-Usage: /café/ train-ai=y\n',
      after: 'User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\nContent-Usage: /café/ train-ai=n\n',
      ua: '*',
    },
    {
      name: 'a byte that is not UTF-8',
      before: latin1('User-agent: GPTBot\nContent-Usage: /r\xe9sum\xe9 search=y\n'),
      after: latin1('User-agent: GPTBot\nContent-Usage: /r\xe9sum\xe9 search=n\n'),
      ua: 'GPTBot,*',
    },
    {
      name: 'percent-encoding written in lower case',
      before: 'User-agent: *\nContent-Usage: /a%2fb ai-use=y\nContent-Usage: /%7euser/*.pdf$ train-ai=y\n',
      after: 'User-agent: *\nContent-Usage: /a%2fb ai-use=n\nContent-Usage: /%7euser/*.pdf$ train-ai=n\n',
      ua: 'ClaudeBot,*',
    },
    {
      name: 'a change only between the rules’ own paths (at /ac: /*c became /*cc under /a)',
      before:
        'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /a train-ai=n\nContent-Usage: /*c train-ai=y\n',
      after:
        'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /a train-ai=n\nContent-Usage: /*cc train-ai=y\n',
      ua: '*',
    },
    {
      name: 'a crawler newly blocked, and Content-Signal',
      before: 'User-agent: *\nContent-Signal: search=yes, ai-train=yes\nAllow: /\n',
      after:
        'User-agent: *\nContent-Signal: search=yes, ai-train=no, ai-input=no\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n',
      ua: 'GPTBot,Googlebot',
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(`gives real witnesses: ${c.name}`, async () => {
      const before = write(`w${i}-before.txt`, c.before);
      const after = write(`w${i}-after.txt`, c.after);
      const result = await robotskit(['diff', before, after, '--ua', c.ua, '--json']);
      expect(result.code).toBe(1);
      const doc = JSON.parse(result.stdout) as RobotsComparison;
      expect(doc.equivalent).toBe(false);
      const files = [parseRobotsTxt(c.before), parseRobotsTxt(c.after)] as const;
      let witnesses = 0;
      for (const crawler of doc.crawlers) {
        for (const w of crawler.usage ?? []) {
          witnesses++;
          expect(w.path).toMatch(/^\/[\x21-\x7e]*$/);
          const [was, now] = files.map((f) => {
            const answer = f.usage(w.path, crawler.crawler);
            if (w.category.startsWith('content-signal:'))
              return answer.contentSignal?.unmapped[w.category.slice('content-signal:'.length)] ?? null;
            return answer.preferences[w.category] ?? answer.contentSignal?.preferences[w.category] ?? null;
          });
          expect([was, now], `${crawler.crawler} ${w.path} ${w.category}`).toEqual([w.before, w.after]);
        }
      }
      expect(witnesses).toBeGreaterThan(0);
      // The text names each witness path too.
      const text = await robotskit(['diff', before, after, '--ua', c.ua]);
      expect(text.code).toBe(1);
      for (const crawler of doc.crawlers)
        for (const w of crawler.usage ?? []) expect(text.stdout).toContain(`at ${w.path}`);
    });
  }
});
