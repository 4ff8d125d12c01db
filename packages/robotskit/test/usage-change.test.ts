/**
 * usageChanges: the AI usage preferences an edit changes, per crawler and path, read through RobotsTxt.usage.
 */

import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { usageChanges } from '../src/semantics/index.js';

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

  it('checks the path of every rule of either file, through each crawler’s own groups', () => {
    // An Allow line ends the `*` group before GPTBot's (usage lines alone would not: GPTBot would join it).
    const before = file('User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\n');
    const after = file(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\nContent-Usage: /private/*.html train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n',
    );
    const changes = usageChanges(before, after, ['*', 'GPTBot']);
    // `*` under /private/: newly disallowed for training; GPTBot may fetch nothing now, so it has no preferences at all.
    expect(changes.map((c) => [c.crawler, c.path, c.category, c.before, c.after])).toEqual([
      ['*', '/private/.html', 'train-ai', 'allow', 'disallow'],
      ['GPTBot', '/', 'train-ai', 'allow', null],
      ['GPTBot', '/private/.html', 'train-ai', 'allow', null],
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
});
