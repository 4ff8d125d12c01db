/**
 * `robotskit diff`: what an edit changes in meaning, per crawler; exit 0 equivalent, 1 changed, 2 usage or I/O error, 3
 * cut short by its bounds before finding a change or proving none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RobotsComparison } from 'robotskit/semantics';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { run } from './helpers.js';

const dir = tempDir('diff');
const write = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const old = write('old.txt', 'User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n');
const reformatted = write(
  'same.txt',
  'user-agent: GPTBot\ndisallow: /\n\n# moved\nuser-agent: *\ndisallow: /private/\n',
);
const edited = write(
  'new.txt',
  'User-agent: *\nDisallow: /private/\nDisallow: /shop/*.php$\n\nUser-agent: GPTBot\nDisallow: /\n',
);

describe('robotskit diff', () => {
  it('exits 0 and says so when no crawler decides differently', async () => {
    const result = await run(['diff', old, reformatted]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^no crawler decides differently \(\d+ compared\)\n$/);
    expect(result.stderr).toBe('');
  });

  it('exits 1 with each region, an example path and the deciding lines', async () => {
    const result = await run(['diff', old, edited, '--ua', 'Googlebot,GPTBot,*']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'Googlebot, *: 1 region decided differently',
        '  now blocked  /shop/*.php$  e.g. /shop/.php',
        '    before  no rule (allowed)',
        '    after   line 3: Disallow: /shop/*.php$',
        '1 other crawler(s) decide every URL as before',
        '',
      ].join('\n'),
    );
  });

  it('prints the comparison as JSON', async () => {
    const result = await run(['diff', old, edited, '--ua', 'GPTBot,Bingbot', '--json']);
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as RobotsComparison;
    expect(doc.equivalent).toBe(false);
    expect(doc.crawlers.map((c) => [c.crawler, c.equivalent, c.complete])).toEqual([
      ['GPTBot', true, true],
      ['bingbot', false, true],
    ]);
    expect(doc.crawlers[1]!.regions[0]).toMatchObject({ change: 'blocked', witness: '/shop/.php' });
  });

  it('reads one side from standard input', async () => {
    const result = await run(['diff', old, '-', '--ua', '*'], { stdin: 'User-agent: *\nDisallow: /private\n' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('now blocked  /private  e.g. /private');
  });

  it('exits 3 with its own words when the comparison is merely cut short by its bounds, 1 when it found a change first', async () => {
    const a = write('bounded-a.txt', 'User-agent: *\nDisallow: /*a*b*c*d$\n');
    const b = write('bounded-b.txt', 'User-agent: *\nDisallow: /*a*b*c*e$\n');
    const cut = await run(['diff', a, b, '--ua', '*', '--max-states', '3']);
    expect(cut.code).toBe(3);
    expect(cut.stdout).toContain(
      'not proven: no change found before the comparison reached its bounds, and none ruled out (exit status 3)',
    );
    expect(cut.stdout).not.toContain('changed');
    const json = await run(['diff', a, b, '--ua', '*', '--max-states', '3', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ equivalent: false, complete: false });
    // Without the bound: the change, proven.
    expect((await run(['diff', a, b, '--ua', '*'])).code).toBe(1);
    // A change found before the bound is a change.
    const c = write('bounded-c.txt', 'User-agent: *\nDisallow: /*a*b*c*e$\nDisallow: /x\n');
    const found = await run(['diff', a, c, '--ua', '*', '--max-states', '5']);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('now blocked');
    expect(found.stdout).toContain('incomplete: the comparison reached its bounds; there may be more');
  });

  it('exits 2 with one line for usage and I/O errors', async () => {
    for (const argv of [
      ['diff', old],
      ['diff', old, join(dir, 'missing.txt')],
      ['diff', '-', '-'],
      ['diff', old, old, '--ua', ','],
      ['diff', old, old, '--max-states', '0'],
    ]) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr.trim().split('\n').length, argv.join(' ')).toBeLessThanOrEqual(2);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
